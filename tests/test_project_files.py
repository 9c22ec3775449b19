"""The project's own files say what the package says: CITATION.cff is valid
Citation File Format 1.2.0 for this library and its five papers, LICENSE is
the licence pyproject.toml declares, and the pre-commit hooks are the checks,
at the versions, that `make test` runs."""

from pathlib import Path
import re
import tomllib

from packaging.requirements import Requirement
import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

#: Citation File Format 1.2.0: the keys a file must have, and the reference
#: types this file uses among those the schema allows.
CFF_REQUIRED = {"cff-version", "message", "title", "authors"}
CFF_REFERENCE_TYPES = {"article", "conference-paper"}

#: The five papers the library implements: (first author's family name, year).
PAPERS = {
    ("Schölkopf", 1999),
    ("Mika", 1999),
    ("Bakır", 2004),
    ("Honeine", 2011),
    ("Vijayakumar", 1999),
}


def load_yaml(name):
    return yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))


def test_citation_file_is_cff_1_2_for_this_library():
    cff = load_yaml("CITATION.cff")
    assert CFF_REQUIRED <= cff.keys(), f"missing {CFF_REQUIRED - cff.keys()}"
    assert cff["cff-version"] == "1.2.0"
    assert cff["type"] == "software"
    assert cff["license"] == PROJECT["license"]
    assert cff["title"].split(":")[0] == PROJECT["name"]
    assert all("name" in a or "family-names" in a for a in cff["authors"])
    # The version is written once, in _version.py: the citation names none.
    assert "version" not in cff


def test_citation_file_lists_the_five_papers():
    references = load_yaml("CITATION.cff")["references"]
    found = set()
    for ref in references:
        assert ref["type"] in CFF_REFERENCE_TYPES, ref["title"]
        assert ref["title"] and isinstance(ref["year"], int), ref["title"]
        assert ref["authors"] and all("family-names" in a for a in ref["authors"])
        if "doi" in ref:
            assert re.fullmatch(r"10\.\d{4,9}/\S+", ref["doi"]), ref["doi"]
        found.add((ref["authors"][0]["family-names"], ref["year"]))
    assert found == PAPERS


def test_licence_file_is_the_declared_licence():
    assert PROJECT["license"] == "BSD-3-Clause"
    assert PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("BSD 3-Clause License")
    # The three clauses and the disclaimer.
    assert text.count("\n1. ") + text.count("\n2. ") + text.count("\n3. ") == 3
    assert "IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS" in text


def test_pre_commit_runs_the_checks_of_make_test_at_their_versions():
    hooks = [
        hook for repo in load_yaml(".pre-commit-config.yaml")["repos"] for hook in repo["hooks"]
    ]
    assert len({hook["id"] for hook in hooks}) == len(hooks)
    assert {hook["id"] for hook in hooks} == {"ruff-check", "ruff-format", "mypy"}
    pinned = {
        req.name: req.specifier
        for req in map(Requirement, PROJECT["optional-dependencies"]["test"])
    }
    for hook in hooks:
        tool = hook["entry"].split()[0]
        assert tool in pinned, f"hook {hook['id']} runs {tool}, not a test tool"
        for dependency in map(Requirement, hook.get("additional_dependencies", [])):
            assert dependency.specifier == pinned[dependency.name], hook["id"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "ruff check" in makefile and "ruff format --check" in makefile
