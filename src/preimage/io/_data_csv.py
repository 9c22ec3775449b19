"""Reading a ``.csv`` file, streamed into one float64 array.

The file is parsed by ``np.loadtxt`` a quarter megabyte of lines at a time
into an array reserved for the whole file and checked against the memory
budget as it grows; a longer line is parsed in pieces cut between two values.
Columns are counted from 0, lines from 1.
"""

import csv
import io
import itertools
import os
import re

import numpy as np

from preimage._utils.config import get_config
from preimage._utils.memory import check_dense, format_bytes
from preimage.exceptions import MemoryBudgetError
from preimage.io._data_kinds import DataSource
from preimage.io._files import open_regular

_CHUNK_CHARS = 1 << 18
_SAMPLE_LINES = 50
#: The lines sampled stop at this many characters (two lines at least), and
#: their cells are read from this many characters of each.
_SAMPLE_CHARS = 1 << 16
_WORD = re.compile(r"\S+")
#: The delimiters tried, in order of preference; None is a run of spaces and tabs.
_CANDIDATES = (",", ";", "\t", None)
_NAMED_DELIMITERS = {"tab": "\t", "whitespace": None, " ": None, "\\t": "\t"}
_LOADTXT = {"comments": "#", "quotechar": '"', "dtype": np.float64, "ndmin": 2}
_NOT_DELIMITERS = set("0123456789.+-eE#\"'\r\n")


def read_csv(path, *, columns=None, delimiter=None, header=None):
    """The numbers of a CSV file and its :class:`DataSource` (see :func:`read_data`)."""
    given, delimiter = delimiter, _check_delimiter(delimiter)
    if header not in (None, True, False):
        raise TypeError(f"'header' must be True, False or None (detect it), got {header!r}")
    try:
        with io.TextIOWrapper(open_regular(path, follow_links=True), "utf-8-sig") as file:
            return _read(path, file, columns, delimiter, given, header)
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not a UTF-8 text file ({exc.reason})") from None
    except csv.Error as exc:
        raise ValueError(f"{path}: cannot be read as CSV ({exc})") from None


def _check_delimiter(delimiter):
    """None (detect it), a single character, or a name: "tab", "whitespace"."""
    if delimiter is None:
        return "detect"
    if isinstance(delimiter, str) and delimiter.lower() in _NAMED_DELIMITERS:
        return _NAMED_DELIMITERS[delimiter.lower()]
    if isinstance(delimiter, str) and len(delimiter) == 1 and delimiter not in _NOT_DELIMITERS:
        return delimiter
    raise ValueError(
        f"'delimiter' must be one character such as ',' or ';', 'tab' "
        f"or 'whitespace' (or None to detect it), got {delimiter!r}"
    )


def _uncommented(line):
    return line.partition("#")[0]


def _is_number(text):
    # Python's float() reads "1_000"; np.loadtxt does not.
    try:
        float(text)
    except ValueError:
        return False
    return "_" not in text


def _decimal_comma(text):
    return re.fullmatch(r"[+-]?\d*,\d+", text) is not None


def _looks_like_number(text):
    """A number, or one with a decimal comma (not read, but no column name either)."""
    return _is_number(text) or _decimal_comma(text)


def _short(text):
    """`text` quoted, cut to 40 characters."""
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "..."


def _split(line, delimiter):
    """The cells of one line (quotes as in the csv module; None: whitespace)."""
    line = _uncommented(line).strip()
    if delimiter is None:
        return line.split()
    return [cell.strip() for cell in next(csv.reader([line], delimiter=delimiter))]


def _head_cells(line, delimiter):
    """The cells of the first :data:`_SAMPLE_CHARS` characters of `line`, whole."""
    if len(line) <= _SAMPLE_CHARS:
        return _split(line, delimiter)
    cells = _split(line[:_SAMPLE_CHARS], delimiter)
    return cells[:-1] or cells


def _count(line, delimiter):
    """The number of cells of `line`, counted without making them."""
    text = _uncommented(line)
    if delimiter is None:
        return _WORD.subn("", text)[1]
    if '"' in text and delimiter in text:
        return len(_split(text, delimiter))
    return text.count(delimiter) + 1


def _cells(line, delimiter):
    """The cells of `line`, one at a time."""
    text = _uncommented(line)
    if delimiter is None:
        return (match.group() for match in _WORD.finditer(text))
    if '"' in text:
        return iter(_split(text, delimiter))
    return _plain_cells(text, delimiter)


def _plain_cells(text, delimiter):
    start = 0
    while (stop := text.find(delimiter, start)) >= 0:
        yield text[start:stop].strip()
        start = stop + 1
    yield text[start:].strip()


def _cut(text, delimiter, start, stop):
    """Where a piece of `text` from `start` ends: the last delimiter up to `stop`."""
    if stop >= len(text):
        return len(text)
    cut = max(text.rfind(c, start, stop + 1) for c in (delimiter or " \t"))
    return cut if cut > start else len(text)


def _name(delimiter):
    return {None: "whitespace", "\t": "tab"}.get(delimiter, repr(delimiter))


def _detect(lines):
    """The delimiter splitting every line alike with the most numbers; else the
    one found on the most lines; else a comma."""
    scores = {}
    for c in _CANDIDATES:
        if len(counts := {_count(line, c) for line in lines}) == 1 and counts.pop() > 1:
            scores[c] = sum(sum(map(_is_number, _head_cells(line, c))) for line in lines)
    if scores:
        return max(scores, key=scores.get)
    found = [sum(_count(line, c) > 1 for line in lines) for c in _CANDIDATES]
    return _CANDIDATES[int(np.argmax(found))] if max(found) else ","


def _ranges(indices):
    """0, 1, 2, 5 -> '0-2,5'."""
    parts = []
    for _, run in itertools.groupby(enumerate(indices), lambda item: item[1] - item[0]):
        run = [j for _, j in run]
        parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ",".join(parts)


def _describe(j, header):
    """A column by its name, else by its index."""
    return f"column {_short(header[j])}" if header is not None else _at(j, None)


def _at(j, header):
    """A column by its index, with its name."""
    named = f"({_short(header[j])})" if header is not None else "(counting from 0)"
    return f"column {j} {named}"


def _resolve_columns(path, columns, header, width):
    """The 0-based indices `columns` selects (see :func:`read_data`), in its order."""
    where = f"{path}: columns={columns!r}"
    if isinstance(columns, str):
        items = [item.strip() for item in columns.split(",")]
        if not all(items):
            raise ValueError(
                f"{where} has an empty item; expected names or 0-based indices "
                "separated by commas, such as '1-784' or 'x,y'"
            )
    else:
        try:
            items = list(columns)
        except TypeError:
            raise TypeError(
                f"'columns' must be a string such as '1-784', or a sequence of "
                f"column names and 0-based indices, got {columns!r}"
            ) from None
    # a repeated name is its first column
    names = {name: j for j, name in reversed(list(enumerate(header or ())))}
    spelled = isinstance(columns, str)
    indices = []
    for item in items:
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            span = (int(item), int(item))
        elif spelled and (match := re.fullmatch(r"(\d+)(?:-(\d+))?", item)):
            span = (int(match[1]), int(match[2] or match[1]))
        elif isinstance(item, str) and item in names:
            span = (names[item], names[item])
        elif isinstance(item, str):
            raise ValueError(f"{where}: {_no_such_name(item, header)}")
        else:
            raise TypeError(
                f"'columns' must hold column names (str) and 0-based indices (int), got {item!r}"
            )
        if span[1] < span[0]:
            raise ValueError(f"{where}: the range {item!r} runs backwards")
        if span[0] < 0 or span[1] >= width:
            j = span[0] if span[0] < 0 else span[1]
            raise ValueError(
                f"{where}: there is no column {j}; the rows have {width} "
                f"values (columns 0-{width - 1})"
            )
        indices.extend(range(span[0], span[1] + 1))
    if not indices:
        raise ValueError(f"{where} selects no column")
    seen = set()
    if (j := next((j for j in indices if j in seen or seen.add(j)), None)) is not None:
        raise ValueError(f"{where} selects {_describe(j, header)} twice")
    return indices


def _no_such_name(name, header):
    if header is None:
        return (
            f"there is no column named {name!r}: the file has no header row; select "
            "columns by 0-based index, such as '0-2'"
        )
    shown = ", ".join(map(repr, header[:8])) + (", ..." if len(header) > 8 else "")
    ranges = " (ranges are of 0-based indices, such as '1-784')" if "-" in name else ""
    return (
        f"there is no column named {name!r}{ranges}; the header has {len(header)} names: {shown}"
    )


class _Rows:
    """A float64 array filled block by block, its room reserved ahead within the budget."""

    def __init__(self, path, width):
        self.path, self.array, self.n = path, np.empty((0, width)), 0

    def reserve(self, n_rows, ahead=0):
        """Room for `n_rows`, and up to `ahead` rows if the budget allows."""
        if n_rows > self.array.shape[0]:
            width = self.array.shape[1]
            what = f"{self.path}: {n_rows} rows of {width} values, read as float64,"
            check_dense((n_rows, width), np.float64, what, hint="read fewer rows or columns")
            room = get_config()["memory_budget"] // (8 * max(width, 1))
            n_rows = max(n_rows, min(ahead, room))
            # ndarray.resize reallocates in place where it can (no second copy).
            self.array.resize((n_rows, width), refcheck=False)

    def append(self, block):
        stop = self.n + block.shape[0]
        self.reserve(stop)
        self.array[self.n : stop] = block
        self.n = stop

    def result(self):
        self.array.resize((self.n, self.array.shape[1]), refcheck=False)
        return self.array


def _chunks(path, file, delimiter):
    """(number of the first line, lines) a quarter megabyte at a time; a longer
    line gathered piece by piece, refused once over the memory budget or once a
    piece holds no delimiter (unless a comment or a quote began before it)."""
    separators = {"detect": ",;\t ", None: " \t"}.get(delimiter, delimiter)
    number, pieces, held = 1, [], 0  # the pieces of a line not yet ended
    exempt = False  # a comment or a quote in the line's pieces
    while text := file.read(_CHUNK_CHARS):
        lines = text.split("\n")
        pieces.append(lines.pop())
        if not lines:
            held += len(pieces[-1])
            if 2 * held > (budget := get_config()["memory_budget"]):
                raise MemoryBudgetError(
                    f"{path}: line {number} is longer than {held:,} characters; reading it "
                    f"would need over {format_bytes(2 * held)}, over the memory budget of "
                    f"{format_bytes(budget)}; write its values on several rows"
                )
            if not exempt and not any(c in text for c in separators):
                raise ValueError(
                    f"{path}: line {number}: a cell of over {_CHUNK_CHARS:,} characters; "
                    "a number has at most a few dozen"
                )
            exempt = exempt or "#" in text or '"' in text
            continue
        if len(pieces) > 1:  # the long line ends in this chunk
            pieces[-1:-1] = [lines[0]]
            lines[0] = "".join(pieces[:-1])
            del pieces[:-1]
        held = len(pieces[-1])
        exempt = "#" in pieces[-1] or '"' in pieces[-1]
        yield number, lines  # without their line ends
        number += len(lines)
    if pieces and pieces != [""]:
        yield number, ["".join(pieces)]


def _content(number, lines):
    """(line number, line) of the lines holding more than a comment."""
    texts = ((i, _uncommented(line)) for i, line in enumerate(lines))
    return [(number + i, lines[i]) for i, text in texts if text and not text.isspace()]


def _sample(path, chunks):
    """The chunks read to sample the first lines, and those lines."""
    head, sample, chars = [], [], 0
    for content in chunks:
        head.append(content)
        sample += content
        chars += sum(len(line) for _, line in content)
        if len(sample) >= _SAMPLE_LINES or (len(sample) > 1 and chars >= _SAMPLE_CHARS):
            break
    if not sample:
        raise ValueError(f"{path}: holds no rows of data")
    return head, sample[:_SAMPLE_LINES]


def _layout(path, sample, delimiter, given, header):
    """The delimiter, the header's names (or None) and the width of a row.

    Unless `header` says, the first line is a header when none of its cells is
    a number and one is not empty; a line mixing names and numbers is data, so
    that one bad cell on it is refused as on any other line, not dropped.
    """
    lines = [line for _, line in sample]
    if delimiter == "detect":
        delimiter = _detect(lines)
    elif all(_count(line, delimiter) == 1 for line in lines):
        found = _detect(lines)
        if any(_count(line, found) > 1 for line in lines):
            raise ValueError(
                f"{path}: delimiter={given!r} separates no values of the first "
                f"lines; they are separated by {_name(found)}"
            )
    first = _head_cells(lines[0], delimiter)
    width = _count(lines[0], delimiter)
    if header is None:
        header = any(first) and not any(map(_looks_like_number, first))
    if not header:
        return delimiter, None, width
    if len(lines) == 1:
        raise ValueError(f"{path}: holds no rows of data (only a header)")
    n = _count(lines[1], delimiter)
    if n != width:
        raise ValueError(f"{path}: the header row has {width} names, but the rows have {n} values")
    return delimiter, tuple(_split(lines[0], delimiter)), width


def _read(path, file, columns, delimiter, given, has_header):
    chunks = (_content(number, lines) for number, lines in _chunks(path, file, delimiter))
    head, sample = _sample(path, chunks)
    delimiter, header, width = _layout(path, sample, delimiter, given, has_header)
    if header is not None:
        head[next(i for i, content in enumerate(head) if content)].pop(0)
        sample.pop(0)
    usecols = None if columns is None else _resolve_columns(path, columns, header, width)
    number, line = sample[0]
    # a first line taken for data, told how to read it as a header
    hint = f"; if line {number} names the columns, pass header=True"
    hint *= has_header is None and header is None
    _check_numeric_columns(path, number, _head_cells(line, delimiter), usecols, header, hint)
    del sample, line
    parser = _Parser(path, delimiter, usecols, header, width, number, hint)
    out = _Rows(path, width if usecols is None else len(usecols))
    size, chars = os.fstat(file.fileno()).st_size, 0
    # the head's chunks let go once parsed
    for content in itertools.chain((head.pop(0) for _ in range(len(head))), chunks):
        chars += sum(len(line) + 1 for _, line in content)  # and the line ends
        rows = out.n + len(content)
        # Room for the whole file at the characters per row read so far, and a
        # few rows more (fewer of wide rows: resize fills them with zeros).
        slack = min(16, 1 + (1 << 17) // out.array.shape[1])
        out.reserve(rows, int(rows * size / max(chars, 1) * 1.02) + slack)
        parser.parse_into(content, out)
    parser.raise_non_finite()
    names = header if header is None or usecols is None else tuple(header[j] for j in usecols)
    return out.result(), DataSource("csv", path, header=names)


def _check_numeric_columns(path, number, cells, usecols, header, hint):
    """Refuse a selected column whose first value is text, naming those of numbers."""
    for j in range(len(cells)) if usecols is None else usecols:
        cell = cells[j] if j < len(cells) else ""
        if cell and not _looks_like_number(cell):
            numeric = [k for k, c in enumerate(cells) if _is_number(c)]
            columns = f"columns={_ranges(numeric)!r}" if numeric else "columns"
            raise ValueError(
                f"{path}: {_describe(j, header)} is not numeric (line {number} "
                f"holds {_short(cell)}); select the numeric columns with {columns}{hint}"
            )


class _Parser:
    """Parses chunks of (line number, line) and counts the non-finite values."""

    def __init__(self, path, delimiter, usecols, header, width, first_line, hint):
        self.path, self.delimiter, self.usecols = path, delimiter, usecols
        self.header, self.width, self.first_line = header, width, first_line
        self.hint = hint  # for a bad cell of the first line
        self.n_non_finite, self.first_non_finite = 0, None

    def parse_into(self, content, out):
        """Parse `content` into the next rows of `out`, a long line in pieces."""
        start = 0
        for k, (i, line) in enumerate(content):
            if len(line) > _CHUNK_CHARS and '"' not in line:
                out.append(self.parse(content[start:k]))
                self.parse_long(i, line, out.array[out.n])
                out.n += 1
                start = k + 1
        out.append(self.parse(content[start:]))

    def parse(self, content):
        if not content:
            return np.empty((0, self.width if self.usecols is None else len(self.usecols)))
        try:
            lines = [line for _, line in content]
            block = np.loadtxt(lines, delimiter=self.delimiter, usecols=self.usecols, **_LOADTXT)
        except ValueError as exc:
            raise ValueError(
                self.diagnose(content)
                or f"{self.path}: lines {content[0][0]}-{content[-1][0]}: {exc}"
            ) from None
        # With usecols, np.loadtxt lets rows of other widths through; and each
        # chunk is parsed alone.
        ragged = self.usecols is not None or block.shape[1] != self.width
        if ragged and (message := self.ragged(content)):
            raise ValueError(message)
        self.count_non_finite(block, content)
        return block

    def parse_long(self, i, line, row):
        """Parse one long line into `row`, a quarter megabyte at a time."""
        if message := self.ragged([(i, line)]):
            raise ValueError(message)
        text = _uncommented(line)
        wanted = None if self.usecols is None else np.asarray(self.usecols)
        column = start = 0
        while start < len(text):
            cut = _cut(text, self.delimiter, start, start + _CHUNK_CHARS)
            if cut - start > _CHUNK_CHARS:  # no delimiter: one cell fills the piece
                raise ValueError(
                    f"{self.path}: line {i}, {_at(column, self.header)}: a cell of over "
                    f"{_CHUNK_CHARS:,} characters; a number has at most a few dozen"
                )
            piece, start = text[start:cut], cut + 1
            if self.delimiter is None and not piece.strip():
                continue
            try:
                values = np.loadtxt([piece], delimiter=self.delimiter, dtype=np.float64, ndmin=2)
                if values.shape[0] != 1:  # an empty cell
                    raise ValueError
            except ValueError:
                raise ValueError(
                    self.diagnose([(i, line)]) or f"{self.path}: line {i}: cannot be read"
                ) from None
            k = values.shape[1]
            if wanted is None:
                row[column : column + k] = values[0]
            else:
                inside = (wanted >= column) & (wanted < column + k)
                row[inside] = values[0, wanted[inside] - column]
            column += k
        self.count_non_finite(row[None, :], [(i, line)])

    def count_non_finite(self, block, content):
        bad = ~np.isfinite(block)
        if bad.any():
            if self.first_non_finite is None:
                row, column = np.unravel_index(np.argmax(bad), bad.shape)
                column = column if self.usecols is None else self.usecols[column]
                self.first_non_finite = (content[row][0], _at(column, self.header))
            self.n_non_finite += int(np.count_nonzero(bad))

    def ragged(self, content):
        """The first line of `content` not as wide as the first row, named; or None."""
        for i, line in content:
            if (n := _count(line, self.delimiter)) != self.width:
                return (
                    f"{self.path}: line {i} has {n} values, but line {self.first_line} has "
                    f"{self.width}; every row must have the same number of values "
                    f"({_name(self.delimiter)} between them)"
                )
        return None

    def diagnose(self, content):
        """The first ragged row or non-numeric cell, named by its line, or None."""
        wanted = None if self.usecols is None else set(self.usecols)
        for i, line in content:
            if message := self.ragged([(i, line)]):
                return message
            for j, value in enumerate(_cells(line, self.delimiter)):
                if (wanted is None or j in wanted) and not _is_number(value):
                    found = _short(value) if value else "an empty cell"
                    hint = "; decimal commas are not read, write 0.5 for 0,5"
                    hint = hint if _decimal_comma(value) else ""
                    hint += self.hint if i == self.first_line else ""
                    return (
                        f"{self.path}: line {i}, {_at(j, self.header)}: expected a "
                        f"number, found {found}{hint}"
                    )
        return None

    def raise_non_finite(self):
        if self.n_non_finite:
            line, column = self.first_non_finite
            count = "1 value is" if self.n_non_finite == 1 else f"{self.n_non_finite} values are"
            raise ValueError(
                f"{self.path}: {count} NaN or infinite (first at line {line}, {column})"
            )
