"""Sphinx configuration of the documentation site.

Pages are Markdown (MyST), the API reference is generated from the
docstrings (autosummary, numpydoc), and the gallery is built from the scripts
of ``examples/`` (sphinx-gallery). ``PREIMAGE_DOCS_FAST=1`` builds the gallery
without running its scripts (``make docs-fast``). No page is fetched from the
network: intersphinx is not used, so references to NumPy, SciPy and
scikit-learn are plain text.
"""

import importlib
import inspect
import os
from pathlib import Path
import pkgutil
import re
import tomllib

from docutils import nodes
from sphinx.pycode import ModuleAnalyzer, PycodeError

import preimage

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
EXAMPLES = ROOT / "examples"
FAST = os.environ.get("PREIMAGE_DOCS_FAST", "") not in ("", "0")

project = "preimage"
author = "preimage developers"
copyright = "preimage developers"
release = preimage.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
]

# The gallery is built only when examples/ holds its scripts.
GALLERY = EXAMPLES.is_dir() and any(EXAMPLES.glob("plot_*.py"))
if GALLERY:
    extensions.append("sphinx_gallery.gen_gallery")
    sphinx_gallery_conf = {
        "examples_dirs": str(EXAMPLES),
        "gallery_dirs": str(DOCS / "auto_examples"),
        "filename_pattern": "plot_",
        "plot_gallery": not FAST,
        "download_all_examples": False,
        "remove_config_comments": True,
        "matplotlib_animations": False,
        "image_scrapers": ("matplotlib",),
        # "Examples using ..." on the API pages: the names each example uses,
        # under the shortest module that exports them (``preimage.KernelPCA``).
        "backreferences_dir": "api/generated/backreferences",
        "doc_module": ("preimage",),
        # The execution-times pages load jQuery and DataTables from CDNs.
        "write_computation_times": False,
    }

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
# The reports of docs/reproductions/ and docs/benchmarks/ are files the
# Markdown pages link to, not pages of the site.
# The gallery's execution-times pages, which load jQuery and DataTables from
# CDNs, are not written (``write_computation_times``); those an earlier build
# left are not pages.
exclude_patterns = [
    "_build",
    "reproductions/**",
    "benchmarks/**",
    "sg_execution_times.rst",
    "auto_examples/sg_execution_times.rst",
]

# -- MyST ---------------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "deflist", "colon_fence"]
myst_heading_anchors = 3

# -- autodoc, autosummary, numpydoc -------------------------------------------
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "none"  # the docstrings' Parameters sections carry the types
autodoc_member_order = "bysource"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# The docstring standard of pyproject.toml's [tool.numpydoc_validation]: a
# docstring that fails a check is a warning, and the build fails on it.
with open(ROOT / "pyproject.toml", "rb") as _file:
    numpydoc_validation_checks = set(tomllib.load(_file)["tool"]["numpydoc_validation"]["checks"])
# Constants (``KERNELS``, ``PREIMAGE_METHODS``, ``__version__``) are documented by a ``#:``
# comment, which numpydoc does not see: it would validate the docstring of
# their type (tuple, mappingproxy, str).
numpydoc_validation_exclude = {r"\.[A-Z][A-Z0-9_]*$", r"\.__version__$"}

# Every reference must resolve, but those into libraries this site does not
# document (NumPy, SciPy, scikit-learn, Dask, matplotlib, the standard
# library), which would need intersphinx and the network.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|scipy|sklearn|dask|matplotlib|PIL|click|collections|typing|abc)\..*"),
    (r"py:.*", r"(builtins\.)?(Exception|Warning|UserWarning|RuntimeWarning|ValueError|OSError)"),
    # Private modules, classes and helpers (bases shown by show-inheritance,
    # helpers a docstring names) are not documented: plain text.
    (r"py:.*", r"preimage\.(\w+\.)*_\w+.*"),
    (r"py:.*", r"(\w+\.)*_[a-z]\w*"),
    # The Dask helpers of the private configuration module.
    (r"py:.*", r"bind_config|ConfiguredCall"),
]

# -- HTML ---------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"preimage {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    # The comparison of the methods, a table of five columns of sentences,
    # takes the width of the "On this page" column.
    "secondary_sidebar_items": {
        "**": ["page-toc", "edit-this-page", "sourcelink"],
        "guide/choosing-a-method": [],
    },
}
# Pages with no section of their own show no empty section navigation.
html_sidebars = {
    page: []
    for page in (
        "index",
        "reproductions",
        "benchmarks",
        "architecture",
        "bad-input",
        "bibliography",
        "CHANGELOG",
    )
}
html_static_path = ["_static"]
html_css_files = ["preimage.css"]
# MathJax from the site itself (docs/fetch_mathjax.py, run by `make docs`), so
# the equations render offline; without it, Sphinx's default CDN.
if (DOCS / "_static" / "mathjax" / "tex-svg-full.js").is_file():
    mathjax_path = "mathjax/tex-svg-full.js"


# -- Names the library exports twice or keeps private ----------------------------
#: The subpackages that define the names ``preimage`` imports from them.
ALIAS_HOMES = (
    "kpca",
    "denoising",
    "dependency",
    "reduced_set",
    "sparse_regression",
    "solvers",
    "exceptions",
    "io",
)


def _alias_target(name):
    """The documented name of ``preimage.X`` or ``preimage.X.member``, where
    the package imports X from a subpackage (``preimage.KernelPCA.project`` is
    ``preimage.KernelPCA.project``)."""
    package, _, rest = name.partition(".")
    head, _, member = rest.partition(".")
    if package != "preimage" or head not in preimage.__all__:
        return None
    obj = getattr(preimage, head)
    for home in ALIAS_HOMES:
        module = importlib.import_module(f"preimage.{home}")
        if head in module.__all__ and getattr(module, head) is obj:
            return f"preimage.{home}.{rest}"
    return None


#: Values the autosummary templates read: whether the gallery is built, and
#: the name under which the gallery records a name ``preimage`` re-exports
#: (``preimage.KernelPCA``), by the name its API page documents
#: (``preimage.kpca.KernelPCA``).
autosummary_context = {
    "gallery": GALLERY,
    "gallery_aliases": {
        target: f"preimage.{name}"
        for name in preimage.__all__
        if (target := _alias_target(f"preimage.{name}"))
    },
}


def _missing_reference(app, env, node, contnode):
    """Resolve a reference to a name ``preimage`` re-exports to the page of
    its subpackage."""
    if node.get("refdomain") != "py":
        return None
    target = _alias_target(node.get("reftarget", ""))
    if target is None:
        return None
    domain = env.get_domain("py")
    builder = app.builder
    for role in ("class", "func", "data", "meth", "attr", "obj"):
        found = domain.resolve_xref(env, node["refdoc"], builder, role, target, node, contnode)
        if found is not None:
            return found
    return None


def _mark_prose_tables(app, doctree):
    """Give the class ``prose`` to the tables whose cells are sentences (the
    comparison of the methods, the lists of bad inputs): the stylesheet keeps
    their columns wide enough to read, the table scrolling sideways on a
    narrow screen, where tables of numbers keep the width of their numbers."""
    for table in doctree.findall(nodes.table):
        cells = [entry.astext() for entry in table.findall(nodes.entry)]
        if "autosummary" not in table["classes"] and sum(map(len, cells)) > 30 * len(cells) > 0:
            table["classes"].append("prose")


def _skip_member(app, what, name, obj, skip, options):
    """Leave out scikit-learn's generated metadata-routing methods
    (``set_fit_request``, ...), documented by scikit-learn."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def _drop_absent_sections(app, docname, source):
    """Take the user guide and the gallery out of the front page's table of
    contents in a tree that lacks them (``docs/guide/``, ``examples/``)."""
    if docname != root_doc:
        return
    absent = []
    if not (DOCS / "guide" / "index.md").is_file():
        absent.append("guide/index")
    if not GALLERY:
        absent.append("auto_examples/index")
    lines = source[0].splitlines(keepends=True)
    source[0] = "".join(line for line in lines if line.strip() not in absent)


def _public_classes():
    """``(dotted name, class)`` of the classes the API pages document."""
    for page in sorted((DOCS / "api").glob("preimage*.rst")):
        module = importlib.import_module(page.stem)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isclass(obj):
                yield f"{module.__name__}.{name}", obj


def _class_data_attributes():
    """Patterns matching the data attributes of the documented classes
    (``GaussianKernel.stationary``), inherited ones included: a ``#:`` comment
    documents each, which numpydoc's validation does not see (it would
    validate the docstring of ``bool`` or ``tuple``)."""
    names = set()
    for dotted, cls in _public_classes():
        for attribute in inspect.classify_class_attrs(cls):
            if attribute.kind == "data" and not attribute.name.startswith("_"):
                names.add(re.escape(f"{dotted}.{attribute.name}"))
    return {f"^{name}$" for name in sorted(names)}


numpydoc_validation_exclude |= _class_data_attributes()


def _constant_comment(app, what, name, obj, options, lines):
    """Give a constant its ``#:`` comment from the private module that
    defines it (``preimage.kernels.KERNELS`` is set in ``kernels/_names.py``);
    autodoc looks only in the module that exports it, and would otherwise
    show the docstring of the constant's type."""
    if what != "data":
        return
    package, _, attribute = name.rpartition(".")
    module = importlib.import_module(package)
    for info in pkgutil.iter_modules(getattr(module, "__path__", [])):
        try:
            docs = ModuleAnalyzer.for_module(f"{package}.{info.name}").find_attr_docs()
        except PycodeError:
            continue
        if ("", attribute) in docs:
            lines[:] = list(docs[("", attribute)])
            return


def setup(app):
    app.connect("autodoc-process-docstring", _constant_comment, priority=400)
    app.connect("source-read", _drop_absent_sections)
    app.connect("missing-reference", _missing_reference)
    app.connect("autodoc-skip-member", _skip_member)
    app.connect("doctree-read", _mark_prose_tables)
