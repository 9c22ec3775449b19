"""The dependency floors are one set of numbers: the lower bound that
pyproject.toml declares for each dependency and each package of the extras
(plot, data, dask), wherever it is declared, is the version .ci/floors.txt
pins, so that `make test-floor` tests the oldest releases the package
accepts, no newer and no older."""

from pathlib import Path
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
FLOORS = ROOT / ".ci" / "floors.txt"

#: Extras of tools and of other extras, not of features: the test tools may be
#: any release that works with the floors, so they need no pin; the
#: documentation's tools (Sphinx and its extensions) are not used by the library.
NOT_FEATURES = ("test", "docs", "all")


def declared():
    """{extra or "dependencies": [Requirement]} from pyproject.toml, without
    the package's references to itself (``all = ["preimage[...]"]``)."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    groups = {"dependencies": project["dependencies"], **project["optional-dependencies"]}
    return {
        group: [req for req in map(Requirement, texts) if req.name != project["name"]]
        for group, texts in groups.items()
    }


def lower_bound(req):
    """The version of `req`'s one ``>=`` specifier, or an error naming it."""
    bounds = [spec.version for spec in req.specifier if spec.operator == ">="]
    assert len(bounds) == 1, f"{req} must declare one lower bound (>=), its floor"
    return Version(bounds[0])


def pins():
    """{normalised name: Version} of the ``name==version`` lines of floors.txt."""
    found = {}
    for line in FLOORS.read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        req = Requirement(text)
        (spec,) = req.specifier
        assert spec.operator == "==" and not req.extras, (
            f"{FLOORS.name}: {text!r} must pin one version, as name==version"
        )
        name = canonicalize_name(req.name)
        assert name not in found, f"{FLOORS.name} pins {req.name} twice"
        found[name] = Version(spec.version)
    return found


def test_every_dependency_and_extra_is_pinned_at_its_floor():
    pinned = pins()
    for group, reqs in declared().items():
        if group in NOT_FEATURES:
            continue
        for req in reqs:
            name = canonicalize_name(req.name)
            assert name in pinned, f"{FLOORS.name} must pin {req.name} (of {group}) at its floor"
            assert pinned[name] == lower_bound(req), (
                f"{req} ({group}) but {FLOORS.name} pins {req.name}=={pinned[name]}"
            )


def test_a_package_declared_twice_has_one_floor():
    """matplotlib, mlxtend and Dask are in their extras and in `test`: there
    too their lower bound is the pinned floor. (A test tool, or a package
    they depend on, may be pinned at any release that works.)"""
    groups = declared()
    features = {
        canonicalize_name(req.name)
        for group, reqs in groups.items()
        if group not in NOT_FEATURES
        for req in reqs
    }
    pinned = pins()
    for group, reqs in groups.items():
        for req in reqs:
            name = canonicalize_name(req.name)
            if name in features:
                assert lower_bound(req) == pinned[name], (
                    f"{req} ({group}) but {FLOORS.name} pins {req.name}=={pinned[name]}"
                )
