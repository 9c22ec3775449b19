"""Tiny hostile data files: each is refused in one line, before it costs memory.

The tests build the attacks: PNG images whose headers ask for gigabytes (all
zeros, a few kilobytes compressed), a decompression bomb, an ``.npz`` entry
that unpacks to hundreds of megabytes, a ``.npy`` header that claims more than
its file holds, a CSV file of two rows of millions of values, one of a single
cell of millions of digits, a FIFO or a link to a device as DATA, links out of
a folder, dangling links, a FIFO named ``x.png``, names equal but for case. The
cases that would take memory are run in a child process whose peak resident
memory is measured (``resource.getrusage(RUSAGE_CHILDREN)``). The command line
turns each into one line on standard error and exit status 1, no traceback.
"""

import math
import os
from pathlib import Path
import re
import struct
import subprocess
import sys
import textwrap
import zipfile
import zlib

from cli_run import ENV, run_cli
import numpy as np
import pytest

from preimage import config_context
from preimage.exceptions import MemoryBudgetError
from preimage.io import read_data

#: The most a refusal (or the reading of the long CSV rows) may take, in MB.
PEAK_MB = 300

needs_posix = pytest.mark.skipif(os.name != "posix", reason="links, FIFOs and rusage are POSIX")


# --- building the attacks ---------------------------------------------------------


def _chunk(file, kind, data):
    file.write(struct.pack(">I", len(data)) + kind + data)
    file.write(struct.pack(">I", zlib.crc32(kind + data)))


def blank_png(path, width, height, bit_depth=1):
    """A black grayscale PNG, compressed row by row: no image is ever in memory
    (a 50000 x 50000 one-bit image is 300 kB on disk and 312 MB of rows)."""
    row = bytes(1 + math.ceil(width * bit_depth / 8))  # filter byte 0, then zeros
    compressor = zlib.compressobj(9)
    data = bytearray()
    step = max(1, (1 << 22) // len(row))
    for start in range(0, height, step):
        data += compressor.compress(row * min(step, height - start))
    data += compressor.flush()
    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n")
        _chunk(file, b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, 0, 0, 0, 0))
        _chunk(file, b"IDAT", bytes(data))
        _chunk(file, b"IEND", b"")
    return path


def _folder(path, n=2, size=4):
    """A folder of `n` ordinary images of random pixels."""
    from PIL import Image

    path.mkdir()
    rng = np.random.default_rng(0)
    for i in range(n):
        pixels = rng.integers(0, 256, size=(size, size), dtype=np.uint8)
        Image.fromarray(pixels).save(path / f"{i}.png")
    return path


def npz_bomb(path, shape=(5000, 10000)):
    """An .npz whose entry 'X' holds a float64 array of zeros of `shape`
    (400 MB), written in pieces, compressed to a few hundred kB."""
    header = {"descr": "<f8", "fortran_order": False, "shape": shape}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open("X.npy", "w", force_zip64=True) as member:
            np.lib.format.write_array_header_1_0(member, header)
            zeros = bytes(1 << 22)
            left = math.prod(shape) * 8
            while left:
                member.write(zeros[: min(left, len(zeros))])
                left -= min(left, len(zeros))
    return path


def npy_header_only(path, shape):
    """A .npy file whose header declares `shape` (float64) and holds 16 bytes."""
    with open(path, "wb") as file:
        np.lib.format.write_array_header_1_0(
            file, {"descr": "<f8", "fortran_order": False, "shape": shape}
        )
        file.write(bytes(16))
    return path


def long_rows_csv(path, n_rows=2, n_values=5_000_000):
    """`n_rows` lines of `n_values` values each (20 MB a line)."""
    row = ",".join(["0.5"] * n_values) + "\n"
    with open(path, "w") as file:
        for _ in range(n_rows):
            file.write(row)
    return path


# --- running them in a child, measured -----------------------------------------------


def _peak_and_outcome(code, cwd):
    """Run `code` in a child Python; (its peak resident memory in MB, its output)."""
    wrapper = textwrap.dedent(
        """
        import resource, subprocess, sys
        child = subprocess.run([sys.executable, "-c", sys.argv[1]], capture_output=True,
                               text=True, timeout=600)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        peak = peak / 2**20 if sys.platform == "darwin" else peak / 2**10
        print(f"{peak:.1f}")
        print(child.stdout + child.stderr, end="")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", wrapper, code],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    peak, _, output = done.stdout.partition("\n")
    return float(peak), output


def _read_in_child(path, cwd, budget=None):
    """The peak memory of reading `path` in a child process, and what came."""
    code = textwrap.dedent(
        f"""
        from preimage import config_context
        from preimage.io import read_data
        try:
            with config_context(memory_budget={budget!r}):
                X, _ = read_data({str(path)!r})
            print("read", X.shape)
        except Exception as exc:
            print(type(exc).__name__ + ":", exc)
        """
    )
    return _peak_and_outcome(code, cwd)


def assert_one_line_refusal(result, *fragments):
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# --- images whose headers ask for gigabytes -------------------------------------------


@pytest.fixture(scope="module")
def six_large_pngs(tmp_path_factory):
    """Six 12000 x 12000 black images: 6.4 GiB of float64 pixels, 105 kB on disk."""
    folder = tmp_path_factory.mktemp("large") / "images"
    folder.mkdir()
    for i in range(6):
        blank_png(folder / f"{i}.png", 12000, 12000)
    return folder


def test_large_pngs_are_refused_by_the_memory_budget_before_decoding(six_large_pngs):
    with config_context(memory_budget="100MB"), pytest.raises(MemoryBudgetError) as error:
        read_data(six_large_pngs)
    message = str(error.value)
    assert f"{six_large_pngs}: 6 images of 12000x12000 pixels" in message
    assert "over the memory budget of 100.0 MB" in message


@needs_posix
@pytest.mark.slow
def test_large_pngs_take_no_memory_to_refuse(six_large_pngs, tmp_path):
    peak, outcome = _read_in_child(six_large_pngs, tmp_path, budget="100MB")
    assert outcome.startswith("MemoryBudgetError: "), outcome
    assert peak < PEAK_MB, peak
    # The default budget is half the machine's memory: still refused, now by
    # Pillow's limit of pixels per image (144 million > 89 million).
    peak, outcome = _read_in_child(six_large_pngs, tmp_path)
    assert outcome.startswith(("MemoryBudgetError: ", "ValueError: ")), outcome
    assert peak < PEAK_MB, peak


@pytest.mark.slow
def test_large_pngs_on_the_command_line(six_large_pngs, tmp_path):
    result = run_cli(
        "fit", six_large_pngs, "-o", "m.npz", "--memory-budget", "100MB", cwd=tmp_path
    )
    assert_one_line_refusal(
        result, "6 images of 12000x12000 pixels", "memory budget of 100.0 MB", "--memory-budget"
    )
    assert not (tmp_path / "m.npz").exists()


# --- a decompression bomb -------------------------------------------------------------


@pytest.fixture(scope="module")
def bomb(tmp_path_factory):
    """A 50000 x 50000 one-bit image: 2.5 billion pixels, 300 kB."""
    folder = tmp_path_factory.mktemp("bomb") / "images"
    folder.mkdir()
    blank_png(folder / "bomb.png", 50000, 50000)
    return folder


@pytest.mark.slow
def test_decompression_bomb_is_refused_without_decoding(bomb):
    with config_context(memory_budget="1TB"), pytest.raises(ValueError) as error:
        read_data(bomb)
    message = str(error.value)
    assert message.startswith(f"{bomb / 'bomb.png'}: the image is 50000x50000 = 2,500,000,000")
    assert "decompression bombs" in message and "\n" not in message


@pytest.mark.slow
def test_pillows_own_refusal_is_one_line_naming_the_file(bomb, monkeypatch):
    # Were the library's check of the header passed, Pillow's check is caught too.
    from PIL import Image

    from preimage.io import _data_png as _png

    checked = Image.MAX_IMAGE_PIXELS
    monkeypatch.setattr(_png, "_image_pixel_limit", lambda: None)
    with config_context(memory_budget="1TB"), pytest.raises(ValueError) as error:
        read_data(bomb)
    message = str(error.value)
    assert message.startswith(f"{bomb / 'bomb.png'}: refused as a possible decompression bomb")
    assert "2500000000 pixels" in message
    assert Image.MAX_IMAGE_PIXELS == checked


@needs_posix
@pytest.mark.slow
def test_decompression_bomb_takes_no_memory(bomb, tmp_path):
    for budget in (None, "1TB"):
        peak, outcome = _read_in_child(bomb, tmp_path, budget=budget)
        assert outcome.startswith(("MemoryBudgetError: ", "ValueError: ")), outcome
        assert peak < PEAK_MB, (budget, peak)
    result = run_cli("fit", bomb, "-o", "m.npz", "--memory-budget", "1TB", cwd=tmp_path)
    assert_one_line_refusal(result, "bomb.png: the image is 50000x50000")


# --- .npz and .npy files whose headers claim more --------------------------------------


def test_npz_bomb_is_refused_before_unpacking(tmp_path):
    path = npz_bomb(tmp_path / "bomb.npz")
    assert path.stat().st_size < 2_000_000
    with config_context(memory_budget="100MB"), pytest.raises(MemoryBudgetError) as error:
        read_data(path)
    assert f"{path}: entry 'X': a 5000 x 10000 array of float64" in str(error.value)
    assert "would need 400.0 MB, over the memory budget of 100.0 MB" in str(error.value)


@needs_posix
@pytest.mark.slow
def test_npz_bomb_takes_no_memory(tmp_path):
    path = npz_bomb(tmp_path / "bomb.npz")
    peak, outcome = _read_in_child(path, tmp_path, budget="100MB")
    assert outcome.startswith("MemoryBudgetError: "), outcome
    assert peak < PEAK_MB, peak
    result = run_cli("fit", path, "-o", "m.npz", "--memory-budget", "100MB", cwd=tmp_path)
    assert_one_line_refusal(result, "bomb.npz: entry 'X'", "memory budget of 100.0 MB")


def test_npz_entry_that_claims_more_than_the_archive_holds(tmp_path):
    # The member's header says 10^10 values; the zip entry holds 144 bytes.
    header = {"descr": "<f8", "fortran_order": False, "shape": (100_000, 100_000)}
    with zipfile.ZipFile(tmp_path / "liar.npz", "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("X.npy", "w") as member:
            np.lib.format.write_array_header_1_0(member, header)
            member.write(bytes(16))
    with pytest.raises(ValueError, match=r"liar\.npz: entry 'X': is truncated or damaged: its "):
        read_data(tmp_path / "liar.npz")


@pytest.fixture(scope="module")
def many_members(tmp_path_factory):
    """An .npz (zip) of 200,000 empty members: 19 MB, whose directory made
    200,000 objects and whose refusal listed every name (a 2 MB line)."""
    path = tmp_path_factory.mktemp("many") / "many.npz"
    with zipfile.ZipFile(path, "w") as archive:
        for i in range(200_000):
            archive.writestr(f"a{i}.npy", b"")
    return path


def test_npz_of_many_members_is_refused_from_its_directory(many_members):
    with pytest.raises(ValueError) as error:
        read_data(many_members)
    message = str(error.value)
    assert message == (
        f"{many_members}: the archive lists 200,000 members in a directory of 11.3 MB; "
        "a data .npz is read only up to 10,000 members and 2.1 MB (not read)"
    )
    assert len(message) - len(str(many_members)) < 200


@needs_posix
@pytest.mark.slow
def test_npz_of_many_members_takes_no_memory(many_members, tmp_path):
    np.savez(tmp_path / "small.npz", X=np.ones((2, 2)))
    baseline, _ = _read_in_child(tmp_path / "small.npz", tmp_path)
    peak, outcome = _read_in_child(many_members, tmp_path)
    assert outcome.startswith("ValueError: ") and len(outcome) < 300, outcome[:400]
    # It peaked 140 MB above the baseline (790 MB for a million members).
    assert peak < baseline + 40, (peak, baseline)
    result = run_cli("fit", many_members, "-o", "m.npz", cwd=tmp_path)
    assert_one_line_refusal(result, "many.npz: the archive lists 200,000 members")


def test_npz_entries_are_listed_in_a_bounded_message(tmp_path):
    arrays = {f"array_{i}": np.ones((2, 2)) for i in range(50)}
    np.savez(tmp_path / "d.npz", **{"y" * 1000: np.ones((2, 2))}, **arrays)
    with pytest.raises(ValueError) as error:
        read_data(tmp_path / "d.npz")
    assert str(error.value) == (
        f"{tmp_path / 'd.npz'}: holds 51 arrays ('{'y' * 37}'..., 'array_0', 'array_1', "
        "'array_2', 'array_3' and 46 more) and none is named 'X'; pass key=NAME to choose one"
    )
    with pytest.raises(ValueError, match=r"has no entry 'Z'; its entries are .* and 46 more$"):
        read_data(tmp_path / "d.npz", key="Z")


def test_npy_header_that_claims_more_than_the_file_holds(tmp_path):
    path = npy_header_only(tmp_path / "liar.npy", (1_000_000, 1_000_000))
    with pytest.raises(ValueError) as error:
        read_data(path)
    assert str(error.value) == (
        f"{path}: is truncated or damaged: its header declares a 1000000 x 1000000 array "
        "of float64 (8.0 TB), but 16 bytes follow"
    )


def test_damaged_npz_is_one_line(tmp_path):
    np.savez_compressed(tmp_path / "d.npz", X=np.random.default_rng(0).random((50, 50)))
    data = bytearray((tmp_path / "d.npz").read_bytes())
    data[100:140] = bytes(40)  # inside the compressed entry
    (tmp_path / "d.npz").write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"d\.npz: ") as error:
        read_data(tmp_path / "d.npz")
    assert "\n" not in str(error.value)


# --- two rows of millions of values -------------------------------------------------------


@needs_posix
@pytest.mark.slow
def test_csv_of_two_huge_rows_is_read_in_little_more_than_its_array(tmp_path):
    # 40 MB of text, an 80 MB array: the reader split each row into a list of
    # 5 million strings and peaked at 834 MB.
    path = long_rows_csv(tmp_path / "long.csv")
    peak, outcome = _read_in_child(path, tmp_path)
    assert outcome.strip() == "read (2, 5000000)", outcome
    assert peak < PEAK_MB, peak
    print(f"two huge rows: peak {peak:.0f} MB")
    peak, outcome = _read_in_child(path, tmp_path, budget="50MB")
    assert outcome.startswith("MemoryBudgetError: ") and "rows of 5000000 values" in outcome
    assert peak < PEAK_MB, peak


def test_long_rows_are_parsed_in_pieces_with_the_same_values(tmp_path, monkeypatch):
    from preimage.io import _data_csv as _csv

    monkeypatch.setattr(_csv, "_CHUNK_CHARS", 64)
    X = np.random.default_rng(0).normal(size=(3, 40))
    for delimiter in (",", " ", "\t"):
        text = delimiter.join(f"c{j}" for j in range(40)) + "\n"
        text += "".join(delimiter.join(map(repr, row)) + "  # note\n" for row in X.tolist())
        (tmp_path / "t.csv").write_text(text)
        Y, source = read_data(tmp_path / "t.csv")
        np.testing.assert_array_equal(Y, X)
        Y, _ = read_data(tmp_path / "t.csv", columns="c7,0-2,39")
        np.testing.assert_array_equal(Y, X[:, [7, 0, 1, 2, 39]])
    bad = "1," * 39 + "1\n" + "1," * 20 + "x," + "1," * 18 + "1\n"
    (tmp_path / "t.csv").write_text(bad)
    with pytest.raises(ValueError, match=r"t\.csv: line 2, column 20 .*found 'x'"):
        read_data(tmp_path / "t.csv")
    (tmp_path / "t.csv").write_text("1," * 39 + "1\n" + "1," * 38 + "1\n")
    with pytest.raises(ValueError, match=r"t\.csv: line 2 has 39 values, but line 1 has 40"):
        read_data(tmp_path / "t.csv")


def test_a_huge_quoted_cell_is_one_line(tmp_path):
    (tmp_path / "q.csv").write_text('"' + "a" * 200_000 + '",1\n2,3\n')
    with pytest.raises(ValueError, match=r"q\.csv: cannot be read as CSV \(field larger"):
        read_data(tmp_path / "q.csv")


def one_cell_csv(path, n_chars=40_000_000):
    """One line of one cell of `n_chars` digits (40 MB), written in pieces."""
    with open(path, "w") as file:
        for start in range(0, n_chars, 1 << 20):
            file.write("1" * min(1 << 20, n_chars - start))
        file.write("\n")
    return path


@needs_posix
@pytest.mark.slow
def test_csv_of_one_huge_cell_is_refused_in_little_memory(tmp_path):
    # The whole line was read, then parsed as one 40-million-character number:
    # a peak of 261 MB under a budget of 100 MB (388 MB on the command line).
    path = one_cell_csv(tmp_path / "cell.csv")
    peak, outcome = _read_in_child(path, tmp_path, budget="100MB")
    assert outcome.strip() == (
        f"ValueError: {path}: line 1: a cell of over 262,144 characters; "
        "a number has at most a few dozen"
    ), outcome
    assert peak < PEAK_MB, peak
    print(f"one huge cell: peak {peak:.0f} MB")


def test_a_cell_too_long_for_a_number_is_refused(tmp_path, monkeypatch):
    from preimage.io import _data_csv as _csv

    monkeypatch.setattr(_csv, "_CHUNK_CHARS", 64)
    # A piece of the line without a delimiter: refused as it is read.
    (tmp_path / "a.csv").write_text("1,2\n" + "1," * 20 + "1" * 200 + "\n")
    with pytest.raises(ValueError, match=r"a\.csv: line 2: a cell of over 64 characters"):
        read_data(tmp_path / "a.csv")
    # A long comment, or a long line of short cells, is no long cell.
    (tmp_path / "c.csv").write_text(
        "1,2\n# " + "x" * 200 + "\n" + "1,2  # " + "y" * 200 + "\n" + "0.5," * 60 + "1\n"
    )
    with pytest.raises(ValueError, match=r"c\.csv: line 4 has 61 values, but line 1 has 2"):
        read_data(tmp_path / "c.csv")
    # A long cell across two pieces that both hold delimiters: refused as it is parsed.
    (tmp_path / "b.csv").write_text("1," * 20 + "1" * 80 + ",1" * 20 + "\n")
    with pytest.raises(
        ValueError, match=r"b\.csv: line 1, column 20 \(counting from 0\): a cell of over 64"
    ):
        read_data(tmp_path / "b.csv")


def test_a_line_longer_than_the_budget_is_refused_before_it_is_whole(tmp_path):
    (tmp_path / "l.csv").write_text("0.5," * 250_000 + "0.5\n")
    with config_context(memory_budget="1MB"), pytest.raises(MemoryBudgetError) as error:
        read_data(tmp_path / "l.csv")
    assert str(error.value).startswith(f"{tmp_path / 'l.csv'}: line 1 is longer than ")
    assert "over the memory budget of 1.0 MB" in str(error.value)


# --- what DATA may be -------------------------------------------------------------------


@needs_posix
@pytest.mark.parametrize("name", ["f.npy", "f.npz", "f.csv"])
def test_a_fifo_as_data_is_refused_without_opening_it(tmp_path, name):
    os.mkfifo(tmp_path / name)
    # In a child process: were the FIFO opened, reading would wait for a writer.
    result = run_cli("fit", name, "-o", "m.npz", cwd=tmp_path, timeout=60)
    assert_one_line_refusal(result, f"{name}: is a FIFO (named pipe), not a regular file")
    assert not (tmp_path / "m.npz").exists()


@needs_posix
@pytest.mark.parametrize("name", ["z.npy", "z.csv"])
def test_a_link_to_a_device_as_data_is_refused(tmp_path, name):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    (tmp_path / name).symlink_to("/dev/zero")
    # In a child process: /dev/zero never ends; read, it would take all memory.
    result = run_cli("fit", name, "-o", "m.npz", cwd=tmp_path, timeout=60)
    assert_one_line_refusal(result, f"{name}: is a character device, not a regular file")


@needs_posix
def test_a_file_swapped_after_the_check_is_refused_once_open(tmp_path, monkeypatch):
    from preimage.io import _files

    monkeypatch.setattr(_files.os, "fstat", lambda fd: os.stat("/dev/null"))
    (tmp_path / "x.csv").write_text("1,2\n")
    with pytest.raises(ValueError, match=r"x\.csv: is a character device, not a regular file"):
        read_data(tmp_path / "x.csv")


# --- what a folder of images may hold -----------------------------------------------------


@needs_posix
def test_a_link_out_of_the_folder_is_refused(tmp_path):
    folder = _folder(tmp_path / "images")
    blank_png(tmp_path / "secret.png", 4, 4, 8)
    (folder / "x.png").symlink_to(tmp_path / "secret.png")
    with pytest.raises(ValueError) as error:
        read_data(folder)
    assert str(error.value).startswith(f"{folder / 'x.png'}: a symbolic link to ")
    assert "outside the folder" in str(error.value)
    (folder / "x.png").unlink()
    (folder / "x.png").symlink_to("/dev/zero")
    with pytest.raises(ValueError, match="outside the folder"):
        read_data(folder)


@needs_posix
def test_a_link_inside_the_folder_is_read(tmp_path):
    folder = _folder(tmp_path / "images")
    (folder / "sub").mkdir()
    blank_png(folder / "sub" / "deep.png", 4, 4, 8)
    (folder / "2.png").symlink_to("0.png")
    (folder / "3.png").symlink_to(folder / "sub" / "deep.png")
    X, source = read_data(folder)
    assert X.shape == (4, 16)
    assert source.names == ("0.png", "1.png", "2.png", "3.png")
    # The folder itself may be reached through a link.
    (tmp_path / "alias").symlink_to(folder)
    assert read_data(tmp_path / "alias")[0].shape == (4, 16)


@needs_posix
@pytest.mark.parametrize("target", ["missing.png", "loop.png"])
def test_dangling_and_looping_links_are_refused(tmp_path, target):
    folder = _folder(tmp_path / "images")
    (folder / "loop.png").symlink_to("loop.png") if target == "loop.png" else None
    (folder / "x.png").symlink_to(target)
    with pytest.raises(ValueError) as error:
        read_data(folder)
    bad = "loop.png" if target == "loop.png" else "x.png"
    assert str(error.value).startswith(f"{folder / bad}: a symbolic link to ")


@needs_posix
def test_a_fifo_named_png_is_refused_without_opening_it(tmp_path):
    folder = _folder(tmp_path / "images")
    os.mkfifo(folder / "x.png")
    # In a child process: were the FIFO opened, reading would wait for a writer.
    result = run_cli("fit", folder, "-o", "m.npz", cwd=tmp_path, timeout=120)
    assert_one_line_refusal(result, "x.png: is a FIFO (named pipe), not a regular file")


@needs_posix
def test_a_socket_and_a_folder_named_png_are_refused(tmp_path):
    import socket

    folder = _folder(tmp_path / "images")
    (folder / "d.png").mkdir()
    with pytest.raises(ValueError, match=r"d\.png: is a folder, not a regular file"):
        read_data(folder)
    (folder / "d.png").rmdir()
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(folder / "s.png"))
    except OSError:  # a path too long for a socket
        pytest.skip("cannot bind a socket in the temporary folder")
    try:
        with pytest.raises(ValueError, match=r"s\.png: is a socket, not a regular file"):
            read_data(folder)
    finally:
        server.close()


def test_names_equal_but_for_case_are_refused(tmp_path):
    folder = _folder(tmp_path / "images")
    blank_png(folder / "A.PNG", 4, 4, 8)
    try:
        blank_png(folder / "a.png", 4, 4, 8)
    except OSError:
        pytest.skip("the file system cannot hold both names")
    if len(list(folder.iterdir())) < 4:
        pytest.skip("the file system ignores case")
    with pytest.raises(ValueError) as error:
        read_data(folder)
    assert "'A.PNG' and 'a.png'" in str(error.value) or "'a.png' and 'A.PNG'" in str(error.value)
    assert "differ only in case" in str(error.value)
    result = run_cli("fit", folder, "-o", "m.npz", cwd=tmp_path)
    assert_one_line_refusal(result, "differ only in case")


def test_upper_case_suffix_is_read(tmp_path):
    folder = _folder(tmp_path / "images")
    blank_png(folder / "2.PNG", 4, 4, 8)
    assert read_data(folder)[1].names == ("0.png", "1.png", "2.PNG")


@pytest.mark.parametrize(
    "damage, found",
    [
        (lambda data: data[:60], "cannot be read as a PNG image"),  # truncated in its pixels
        (lambda data: data[:20], "cannot be read as a PNG image (no PNG header)"),
        (lambda data: data[:41] + bytes(8) + data[49:], "cannot be read as a PNG image"),
    ],
)
def test_damaged_pngs_are_one_line_naming_the_file(tmp_path, damage, found):
    folder = _folder(tmp_path / "images", n=1, size=64)
    (folder / "0.png").rename(folder / "x.png")
    (folder / "x.png").write_bytes(damage((folder / "x.png").read_bytes()))
    with pytest.raises(ValueError) as error:
        read_data(folder)
    assert str(error.value).startswith(f"{folder / 'x.png'}: {found}")
    assert "\n" not in str(error.value)


@needs_posix
@pytest.mark.slow
def test_denoise_refuses_a_hostile_folder_in_one_line(tmp_path):
    folder = _folder(tmp_path / "train", n=6)
    fitted = run_cli("fit", folder, "-o", "m.npz", "--n-components", "2", "--quiet", cwd=tmp_path)
    assert fitted.returncode == 0, fitted.stderr
    hostile = _folder(tmp_path / "hostile")
    (hostile / "x.png").symlink_to(tmp_path / "train" / "0.png")
    result = run_cli("denoise", "m.npz", hostile, "-o", "out", cwd=tmp_path)
    assert_one_line_refusal(result, "x.png: a symbolic link to", "outside the folder")
    assert not (tmp_path / "out").exists()


def test_the_documented_attacks_name_tests_that_exist():
    """docs/bad-input.md lists each attack with the tests that check it, by
    name or by the start of their names (``test_npz_bomb_*``)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "bad-input.md").read_text()
    section = text.split("## Hostile data files", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"`(test_\w+)(\*?)`", section)
    tests = [name for name in globals() if name.startswith("test_")]
    assert named
    for name, star in named:
        assert any(t.startswith(name) if star else t == name for t in tests), name
