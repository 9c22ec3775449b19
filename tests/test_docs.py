"""The API reference of the documentation site names every public name.

``docs/api/`` holds one page per public module (``docs/api/<module>.rst``,
listed in ``docs/api/index.rst``); each name of the module's ``__all__``
appears there in an ``autosummary`` table, as the name itself or as a dotted
name, relative to the module, of the subpackage that defines it (the package
``preimage`` documents ``KernelPCA`` as ``kpca.KernelPCA``), and a
module the package exports is named by a ``:mod:`` reference. The check reads
the page sources; it needs no Sphinx (``make docs`` builds the site).
"""

import hashlib
import importlib
import importlib.util
import io
from pathlib import Path
import re
import tarfile
import types

from public_api import public_module_names
import pytest

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api"


def _autosummary_entries(text):
    """The entries of the page's ``autosummary`` tables."""
    entries = []
    in_table = False
    for line in text.splitlines():
        if line.startswith(".. autosummary::"):
            in_table = True
        elif in_table and line.strip() and not line.startswith(" "):
            in_table = False
        elif in_table and line.startswith("   ") and not line.strip().startswith(":"):
            entries.append(line.strip().lstrip("~"))
    return entries


def _documented(module, text):
    """The names of `module`'s ``__all__`` the page `text` documents."""
    found = set()
    for entry in _autosummary_entries(text):
        head, _, tail = entry.rpartition(".")
        if tail not in module.__all__:
            continue
        if not head:
            found.add(tail)
            continue
        home = importlib.import_module(f"{module.__name__}.{head}")
        if getattr(home, tail, None) is getattr(module, tail):
            found.add(tail)
    for name in module.__all__:
        value = getattr(module, name)
        if isinstance(value, types.ModuleType) and f":mod:`{value.__name__}`" in text:
            found.add(name)
    return found


MODULES = public_module_names()


def test_the_walk_finds_the_public_modules():
    assert {"preimage", "preimage.kernels", "preimage.solvers", "preimage.kpca"} <= set(MODULES)


def test_every_public_module_has_a_page_in_the_index():
    index = (API / "index.rst").read_text(encoding="utf-8")
    listed = re.findall(r"^   (preimage[\w.]*)$", index, flags=re.MULTILINE)
    assert sorted(listed) == sorted(MODULES)
    assert [name for name in MODULES if not (API / f"{name}.rst").is_file()] == []


@pytest.mark.parametrize("name", MODULES)
def test_every_public_name_is_in_the_api_reference(name):
    module = importlib.import_module(name)
    page = API / f"{name}.rst"
    text = page.read_text(encoding="utf-8") if page.is_file() else ""
    assert f".. automodule:: {name}" in text
    missing = sorted(set(module.__all__) - _documented(module, text))
    assert missing == [], f"docs/api/{name}.rst does not document {missing}"


def test_the_check_sees_a_missing_name():
    module = importlib.import_module("preimage.kpca")
    text = (API / "preimage.kpca.rst").read_text(encoding="utf-8")
    first = module.__all__[0]
    crippled = re.sub(rf"^   {first}$", "", text, flags=re.MULTILINE)
    assert first not in _documented(module, crippled)


def _docs_module(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_link_check_finds_broken_internal_links(tmp_path):
    check_links = _docs_module("check_links")
    (tmp_path / "api").mkdir()
    (tmp_path / "img.png").write_bytes(b"")
    (tmp_path / "index.html").write_text(
        '<a href="api/page.html#kernels">ok</a> <img src="img.png">'
        '<a href="https://example.org/x">external</a> <a href="#top" id="top">self</a>'
        '<a href="api/page.html#nowhere">bad anchor</a> <a href="missing.html">bad file</a>'
        '<a href="../outside.html">outside</a>',
        encoding="utf-8",
    )
    (tmp_path / "api" / "page.html").write_text(
        '<h1 id="kernels">Kernels</h1><a href="../index.html#top">back</a>', encoding="utf-8"
    )
    broken = check_links.broken_links(tmp_path)
    assert sorted((str(where), link, reason) for where, link, reason in broken) == [
        ("index.html", "../outside.html", "leaves the site"),
        ("index.html", "api/page.html#nowhere", "no such anchor"),
        ("index.html", "missing.html", "no such file"),
    ]


def _npm_archive(files):
    """A gzipped tar in the npm layout (``package/...``) holding `files`."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def test_mathjax_is_written_only_from_the_archive_it_expects(tmp_path, monkeypatch):
    fetch_mathjax = _docs_module("fetch_mathjax")
    archive = _npm_archive({"es5/tex-svg-full.js": b"/* mathjax */", "LICENSE": b"Apache"})

    class Response(io.BytesIO):
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(fetch_mathjax.urllib.request, "urlopen", lambda *a, **k: Response(archive))
    target = tmp_path / "mathjax"
    with pytest.raises(SystemExit, match="nothing written"):
        fetch_mathjax.fetch(target)  # the real checksum: this archive is not MathJax
    assert not target.exists()

    monkeypatch.setattr(fetch_mathjax, "SHA256", hashlib.sha256(archive).hexdigest())
    fetch_mathjax.fetch(target)
    assert (target / "tex-svg-full.js").read_bytes() == b"/* mathjax */"
    assert (target / "LICENSE").read_bytes() == b"Apache"
    assert sorted(p.name for p in target.iterdir()) == ["LICENSE", "tex-svg-full.js"]
