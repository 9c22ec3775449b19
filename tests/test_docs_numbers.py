"""Every duration a user reads in the docs has its source beside it.

The rule, applied to README.md, the user-facing pages docs/*.md (not the
pages that include BENCHMARKS.md and REPRODUCTIONS.md, which are the sources,
nor docs/architecture.md, written for contributors), the guide docs/guide/*.md
and the gallery's introduction examples/README.rst:

- A duration is a number with a unit of time ("20 s", "7 min 43 s", "3 µs",
  "35 minutes", "1.5 h") or one in words ("about a minute", "under a minute",
  "a couple of minutes", "in a few seconds"). Fenced code blocks are left out.
- Its source is a pointer to BENCHMARKS.md or REPRODUCTIONS.md (or their pages
  on the site, benchmarks.md and reproductions.md), to a benchmark script
  (``bench_*.py``), or a note ``(measured: `command`, machine, date)``.
- The source must be in the same sentence as the duration, or on the same
  line. (Not merely the same paragraph: a paragraph that links
  REPRODUCTIONS.md for its tables would otherwise vouch for any time it
  states.) A table's cell may take its source from its row or from the
  paragraph just before the table, its caption.

The test fails listing every duration without a source, with its file and
line.
"""

from pathlib import Path
import re

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The pages a user reads. docs/benchmarks.md and docs/reproductions.md only
#: include BENCHMARKS.md and REPRODUCTIONS.md, the records themselves.
PAGES = sorted(
    [ROOT / "README.md", ROOT / "examples" / "README.rst"]
    + [
        page
        for page in (ROOT / "docs").glob("*.md")
        if page.name not in {"architecture.md", "benchmarks.md", "reproductions.md"}
    ]
    + list((ROOT / "docs" / "guide").glob("*.md"))
)


_NUMBER = r"\d(?:[\d,.]*\d)?"
_UNIT = r"(?:µs|us|ms|s|sec|secs|seconds?|min|mins|minutes?|h|hours?)"
DURATION = re.compile(
    rf"{_NUMBER}\s{_UNIT}(?![\w-])"
    r"|\b(?:about|under|within|over|nearly|less than|more than|well under)"
    r" (?:a|an|one) (?:second|minute|hour)\b"
    r"|\b(?:a few|a couple of|several|in) (?:seconds|minutes|hours)\b",
    re.IGNORECASE,
)
SOURCE = re.compile(
    r"BENCHMARKS\.md|REPRODUCTIONS\.md|benchmarks\.md|reproductions\.md"
    r"|bench_\w+\.py|\(measured:\s+`"
)


def paragraphs(text):
    """Yield (first line number, lines) of each paragraph, code left out."""
    lines = text.splitlines()
    fence = None
    block, start = [], 0
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            stripped = ""
        if stripped:
            if not block:
                start = number
            block.append(line)
        elif block:
            yield start, block
            block = []
    if block:
        yield start, block


#: Where a sentence ends: after . ! or ? and before a capital, a backtick, a
#: bracket or a parenthesis ("et al. (1999)" splits too, which only makes the
#: rule stricter).
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\[(])")


def unsourced_durations(text):
    """The (line number, duration, line) of every duration without a source."""
    found = []
    caption = ""
    for start, block in paragraphs(text):
        is_table = all(line.lstrip().startswith("|") for line in block)
        previous, caption = caption, ("" if is_table else "\n".join(block))
        if is_table and SOURCE.search(previous):
            continue
        text = "\n".join(block)
        # Scopes: each row of a table, each sentence of a paragraph.
        ends = re.finditer(r"\n" if is_table else SENTENCE_END, text)
        bounds = [0, *(end.end() for end in ends), len(text)]
        for begin, end in zip(bounds, bounds[1:]):
            scope = text[begin:end]
            for match in DURATION.finditer(scope):
                offset = text.count("\n", 0, begin + match.start())
                line = block[offset]
                if not SOURCE.search(scope) and not SOURCE.search(line):
                    found.append((start + offset, match.group(0), line.strip()))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_duration_has_a_source(page):
    missing = unsourced_durations(page.read_text(encoding="utf-8"))
    assert not missing, f"{page.relative_to(ROOT)}: durations without a source:\n" + "\n".join(
        f"  line {number}: {duration!r} in {line!r}" for number, duration, line in missing
    )


@pytest.mark.parametrize(
    "text",
    [
        "The full build takes about a minute here.",
        "One run here (`preimage demo`, 20 s on 2 shared cores).",
        "It took 7 min 43 s.",
        "Each script runs in under a minute on a laptop.",
        "The long run takes 35 minutes.",
        "A pre-image costs about 3 µs.",
        "Intro.\n\n| method | time |\n|---|---|\n| fixed point | 2.6 s |",
    ],
)
def test_the_rule_finds_durations_without_a_source(text):
    assert unsourced_durations(text)


@pytest.mark.parametrize(
    "text",
    [
        "It took 22 s (`benchmarks/bench_nystroem.py`).",
        "See BENCHMARKS.md: 2,119 s for the full run.",
        "Each run took 1 s (measured: `python -m reproductions x`, 2 cores, 2026-11-27).",
        "From [REPRODUCTIONS.md](REPRODUCTIONS.md):\n\n| run | time |\n|---|---|\n| a | 10 s |",
        "```python\nprint(f'{seconds:.1f} s')  # 12 s\n```",
        "With 3 GB, 1e-05, 2 shared cores and 10 seeds, in 1990s style.",
    ],
)
def test_the_rule_accepts_sourced_durations_and_other_numbers(text):
    assert not unsourced_durations(text)
