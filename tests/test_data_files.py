"""Reading and writing data sets: round trips, refusals, and atomic writes."""

import os
from pathlib import Path
import re

import numpy as np
from PIL import Image
import pytest

from preimage.io import DATA_KINDS, DataSource, read_data, write_data


def _listing(folder):
    return sorted(p.name for p in Path(folder).iterdir())


def _save_png(path, pixels, mode=None):
    image = Image.fromarray(np.asarray(pixels))
    if mode is not None:
        image = image.convert(mode)
    image.save(path)


def _touch(path):
    """Runs only if a pickle is loaded: leaves a mark that unpickling happened."""
    Path(path).write_text("unpickled")
    return "unpickled"


class _Marker:
    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return _touch, (self.path,)


@pytest.fixture
def rng():
    return np.random.default_rng(0)


# --- round trips ------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_npy_round_trip_keeps_values_and_float_dtype(tmp_path, rng, dtype):
    X = rng.normal(size=(5, 3)).astype(dtype)
    path = write_data(tmp_path / "x.npy", X)
    assert path == tmp_path / "x.npy"
    Y, source = read_data(path)
    assert Y.dtype == dtype
    np.testing.assert_array_equal(Y, X)
    assert source == DataSource("npy", path)


def test_integer_and_bool_arrays_become_float64(tmp_path):
    np.save(tmp_path / "i.npy", np.arange(6, dtype=np.int16).reshape(2, 3))
    np.save(tmp_path / "b.npy", np.array([[True, False]]))
    X, _ = read_data(tmp_path / "i.npy")
    B, _ = read_data(tmp_path / "b.npy")
    assert X.dtype == B.dtype == np.float64
    np.testing.assert_array_equal(X, [[0, 1, 2], [3, 4, 5]])
    np.testing.assert_array_equal(B, [[1.0, 0.0]])


def test_npz_without_key_is_written_under_X(tmp_path, rng):
    X = rng.normal(size=(4, 2))
    write_data(tmp_path / "x.npz", X)
    with np.load(tmp_path / "x.npz") as archive:
        assert archive.files == ["X"]
    Y, source = read_data(tmp_path / "x.npz")
    np.testing.assert_array_equal(Y, X)
    assert (source.kind, source.key) == ("npz", "X")


def test_npz_entry_chosen_by_key_is_written_back_under_it(tmp_path, rng):
    images, labels = rng.random((3, 4)), np.arange(3)
    np.savez(tmp_path / "in.npz", images=images, labels=labels)
    X, source = read_data(tmp_path / "in.npz", key="images")
    np.testing.assert_array_equal(X, images)
    assert source.key == "images"
    write_data(tmp_path / "out.npz", 2 * X, source=source)
    with np.load(tmp_path / "out.npz") as archive:
        assert archive.files == ["images"]
    Y, again = read_data(tmp_path / "out.npz")  # one entry: chosen without a key
    np.testing.assert_array_equal(Y, 2 * images)
    assert again.key == "images"


def test_npz_key_that_clashes_with_savez_arguments(tmp_path):
    source = DataSource("npz", tmp_path / "in.npz", key="file")
    write_data(tmp_path / "out.npz", np.ones((1, 2)), source=source)
    X, again = read_data(tmp_path / "out.npz", key="file")
    assert again.key == "file"
    np.testing.assert_array_equal(X, [[1.0, 1.0]])


def test_npz_with_several_entries_takes_X(tmp_path):
    np.savez(tmp_path / "d.npz", X=np.ones((2, 2)), y=np.zeros(2))
    X, source = read_data(tmp_path / "d.npz")
    np.testing.assert_array_equal(X, np.ones((2, 2)))
    assert source.key == "X"


def test_csv_round_trip_is_bit_exact(tmp_path, rng):
    X = rng.normal(size=(6, 4)) * 10.0 ** rng.integers(-300, 300, size=(6, 4))
    X[0, 0], X[0, 1], X[0, 2] = 0.1, -0.0, 5e-324
    write_data(tmp_path / "x.csv", X)
    Y, source = read_data(tmp_path / "x.csv")
    assert Y.dtype == np.float64
    assert Y.tobytes() == X.tobytes()  # bit for bit, sign of zero included
    assert source == DataSource("csv", tmp_path / "x.csv")


def test_csv_float32_is_read_back_as_the_same_values(tmp_path, rng):
    X = rng.normal(size=(3, 3)).astype(np.float32)
    write_data(tmp_path / "x.csv", X)
    Y, _ = read_data(tmp_path / "x.csv")
    np.testing.assert_array_equal(Y.astype(np.float32), X)


def test_csv_header_is_kept_and_written_back(tmp_path):
    (tmp_path / "in.csv").write_text('a,"b,c", d\n1,2,3\n# a comment\n\n4,5.5,6\n')
    X, source = read_data(tmp_path / "in.csv")
    np.testing.assert_array_equal(X, [[1, 2, 3], [4, 5.5, 6]])
    assert source.header == ("a", "b,c", "d")
    write_data(tmp_path / "out.csv", X + 1, source=source)
    assert (tmp_path / "out.csv").read_text().splitlines()[0] == 'a,"b,c",d'
    Y, again = read_data(tmp_path / "out.csv")
    np.testing.assert_array_equal(Y, X + 1)
    assert again.header == source.header


def test_csv_header_of_another_width_is_dropped(tmp_path):
    source = DataSource("csv", tmp_path / "in.csv", header=("a", "b", "c"))
    write_data(tmp_path / "out.csv", np.ones((2, 2)), source=source)
    assert (tmp_path / "out.csv").read_text() == "1.0,1.0\n1.0,1.0\n"


def test_csv_with_one_column_and_one_row(tmp_path):
    (tmp_path / "col.csv").write_text("1\n2\n3\n")
    (tmp_path / "row.csv").write_text("1,2,3\n")
    assert read_data(tmp_path / "col.csv")[0].shape == (3, 1)
    assert read_data(tmp_path / "row.csv")[0].shape == (1, 3)


def test_png_folder_round_trip_is_exact_on_multiples_of_one_255th(tmp_path, rng):
    X = rng.integers(0, 256, size=(3, 6)) / 255
    write_data(tmp_path / "imgs", X, image_shape=(2, 3))
    assert _listing(tmp_path / "imgs") == ["000000.png", "000001.png", "000002.png"]
    with Image.open(tmp_path / "imgs" / "000001.png") as image:
        assert (image.mode, image.size) == ("L", (3, 2))  # PIL's size is (width, height)
    Y, source = read_data(tmp_path / "imgs")
    assert Y.tobytes() == X.tobytes()
    assert source.kind == "png"
    assert source.image_shape == (2, 3)
    assert source.names == ("000000.png", "000001.png", "000002.png")


def test_png_names_and_shape_come_back_from_the_source(tmp_path, rng):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ["b.png", "a.png"]:
        _save_png(folder / name, rng.integers(0, 256, size=(2, 5), dtype=np.uint8))
    X, source = read_data(folder)
    write_data(tmp_path / "out", 1 - X, source=source)
    assert _listing(tmp_path / "out") == ["a.png", "b.png"]
    Y, again = read_data(tmp_path / "out")
    np.testing.assert_allclose(Y, 1 - X, atol=1e-12)
    assert again.image_shape == (2, 5)


def test_png_output_clips_and_rounds_to_8_bits(tmp_path):
    X = np.array([[-0.5, 0.0, 0.3, 1.0 / 510 + 1e-9, 1.0, 7.0, 0.5, 0.9]])
    write_data(tmp_path / "imgs", X, image_shape=(2, 4))
    with Image.open(tmp_path / "imgs" / "000000.png") as image:
        pixels = np.asarray(image)
    np.testing.assert_array_equal(pixels.ravel(), [0, 0, 76, 1, 255, 255, 128, 230])


def test_png_output_defaults_to_square_images_and_source_names_of_other_count(tmp_path):
    source = DataSource("png", tmp_path / "in", names=("x.png",))
    write_data(tmp_path / "imgs", np.zeros((2, 9)), source=source)
    assert _listing(tmp_path / "imgs") == ["000000.png", "000001.png"]
    assert read_data(tmp_path / "imgs")[1].image_shape == (3, 3)


def test_3d_npy_is_read_as_flattened_images(tmp_path, rng):
    stack = rng.random((4, 2, 3))
    np.save(tmp_path / "s.npy", stack)
    X, source = read_data(tmp_path / "s.npy")
    np.testing.assert_array_equal(X, stack.reshape(4, 6))
    assert source.image_shape == (2, 3)
    # Written back as .npy, the array keeps its layout; as PNGs, its image size.
    write_data(tmp_path / "o.npy", X, source=source)
    np.testing.assert_array_equal(np.load(tmp_path / "o.npy"), stack)
    write_data(tmp_path / "o", X, source=source)
    assert read_data(tmp_path / "o")[1].image_shape == (2, 3)


def test_png_folder_is_read_in_natural_order(tmp_path):
    folder = tmp_path / "imgs"
    folder.mkdir()
    names = ["img10.png", "img2.png", "img1.png", "IMG3.PNG", "img02b.png"]
    for value, name in enumerate(names):
        _save_png(folder / name, np.full((1, 1), value, dtype=np.uint8))
    (folder / "notes.txt").write_text("not an image")
    (folder / ".hidden.png").write_bytes(b"not an image either")
    X, source = read_data(folder)
    assert source.names == ("img1.png", "img2.png", "img02b.png", "IMG3.PNG", "img10.png")
    np.testing.assert_array_equal(X[:, 0] * 255, [2, 1, 4, 3, 0])


def test_colour_pngs_keep_their_channels_and_are_written_back_in_colour(tmp_path):
    folder = tmp_path / "imgs"
    folder.mkdir()
    rgb = np.array([[[255, 255, 255], [255, 0, 0], [0, 0, 0]]], dtype=np.uint8)
    _save_png(folder / "a.png", rgb)
    _save_png(folder / "b.png", rgb[..., 1])  # grey: its level in each channel
    X, source = read_data(folder)
    assert source.image_shape == (1, 3, 3) and X.shape == (2, 9)
    np.testing.assert_array_equal(X * 255, [rgb.ravel(), np.repeat(rgb[..., 1], 3)])
    write_data(tmp_path / "out", X, source=source)
    with Image.open(tmp_path / "out" / "a.png") as image:
        assert image.mode == "RGB"
        np.testing.assert_array_equal(np.asarray(image), rgb)
    # an RGBA image makes the folder RGBA; written back, the alpha survives
    _save_png(folder / "c.png", np.dstack([rgb, np.full((1, 3), 128, np.uint8)]))
    X, source = read_data(folder)
    assert source.image_shape == (1, 3, 4)
    np.testing.assert_array_equal(X[2].reshape(1, 3, 4)[..., 3] * 255, [[128, 128, 128]])
    write_data(tmp_path / "out4", X, source=source)
    with Image.open(tmp_path / "out4" / "c.png") as image:
        assert image.mode == "RGBA"


def test_16_bit_png_is_scaled_by_65535(tmp_path):
    folder = tmp_path / "imgs"
    folder.mkdir()
    _save_png(folder / "a.png", np.array([[0, 1000, 65535]], dtype=np.uint16))
    X, _ = read_data(folder)
    np.testing.assert_allclose(X, [[0, 1000 / 65535, 1]])


def test_data_kinds_names_every_kind():
    assert DATA_KINDS == (".npy", ".npz", ".csv", "a folder of .png images")


# --- refusals when reading -------------------------------------------------


def test_missing_path(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing.npy"):
        read_data(tmp_path / "nothing.npy")


@pytest.mark.parametrize(
    "name, hint", [("data.txt", "supported are .npy, .npz, .csv"), ("one.png", "pass the folder")]
)
def test_unsupported_suffix(tmp_path, name, hint):
    (tmp_path / name).write_text("1,2\n")
    with pytest.raises(ValueError, match=rf"{name}.*{hint}"):
        read_data(tmp_path / name)


def test_object_npy_is_refused_without_unpickling(tmp_path):
    marker = tmp_path / "was-unpickled"
    np.save(
        tmp_path / "o.npy", np.array([_Marker(str(marker)), 1], dtype=object), allow_pickle=True
    )
    # The file really would run _touch if unpickled:
    assert np.load(tmp_path / "o.npy", allow_pickle=True)[0] == "unpickled"
    marker.unlink()
    with pytest.raises(ValueError, match=r"o\.npy: .*Python objects.*refusing to unpickle"):
        read_data(tmp_path / "o.npy")
    assert not marker.exists()


def test_object_npz_entry_is_refused_without_unpickling(tmp_path):
    marker = tmp_path / "was-unpickled"
    np.savez(tmp_path / "o.npz", X=np.array([_Marker(str(marker))], dtype=object))
    with pytest.raises(ValueError, match=r"o\.npz: entry 'X'.*refusing to unpickle"):
        read_data(tmp_path / "o.npz")
    assert not marker.exists()


def test_pickle_file_named_npy_is_refused(tmp_path):
    import pickle

    marker = tmp_path / "was-unpickled"
    (tmp_path / "p.npy").write_bytes(pickle.dumps(_Marker(str(marker))))
    with pytest.raises(ValueError, match=r"p\.npy: is not a NumPy array file"):
        read_data(tmp_path / "p.npy")
    assert not marker.exists()


@pytest.mark.parametrize(
    "array, found",
    [
        (np.arange(3.0), r"shape \(3,\)"),
        (np.zeros((1, 2, 2, 2)), r"shape \(1, 2, 2, 2\)"),
        (np.zeros((0, 3)), r"empty \(shape \(0, 3\)\)"),
        (np.zeros((3, 0)), r"empty \(shape \(3, 0\)\)"),
        (np.array([[1 + 2j]]), "dtype complex128"),
        (np.array([["a"]]), "dtype <U1"),
        (
            np.array([[1.0, np.inf], [np.nan, 0.0]]),
            r"2 values are NaN or infinite \(first at index \(0, 1\)\)",
        ),
        (
            np.array([[[0.0], [np.nan]]]),
            r"1 value is NaN or infinite \(first at index \(0, 1, 0\)\)",
        ),
    ],
)
def test_bad_arrays_are_refused_naming_the_file(tmp_path, array, found):
    np.save(tmp_path / "bad.npy", array)
    with pytest.raises(ValueError, match=rf"bad\.npy: .*{found}"):
        read_data(tmp_path / "bad.npy")


def test_npz_with_several_entries_and_no_key(tmp_path):
    np.savez(tmp_path / "d.npz", a=np.ones((1, 1)), b=np.ones((1, 1)))
    with pytest.raises(ValueError, match=r"d\.npz: holds 2 arrays \('a', 'b'\).*pass key="):
        read_data(tmp_path / "d.npz")


def test_npz_without_the_key_asked_for(tmp_path):
    np.savez(tmp_path / "d.npz", a=np.ones((1, 1)))
    with pytest.raises(ValueError, match=r"d\.npz: has no entry 'X'; its entries are 'a'"):
        read_data(tmp_path / "d.npz", key="X")


def test_key_for_a_file_that_is_not_npz(tmp_path):
    np.save(tmp_path / "d.npy", np.ones((1, 1)))
    with pytest.raises(ValueError, match=r"d\.npy: 'key' selects an entry of a \.npz"):
        read_data(tmp_path / "d.npy", key="X")


def test_npy_and_npz_contents_swapped(tmp_path):
    np.save(tmp_path / "a.npy", np.ones((1, 1)))
    os.replace(tmp_path / "a.npy", tmp_path / "a.npz")
    np.savez(tmp_path / "b.npz", X=np.ones((1, 1)))
    os.replace(tmp_path / "b.npz", tmp_path / "b.npy")
    with pytest.raises(ValueError, match=r"a\.npz: this is a \.npy array"):
        read_data(tmp_path / "a.npz")
    with pytest.raises(ValueError, match=r"b\.npy: this is a \.npz archive"):
        read_data(tmp_path / "b.npy")


@pytest.mark.parametrize(
    "text, found",
    [
        (
            "a,b\n1,2\n3,nan\n4,inf\n",
            r"2 values are NaN or infinite \(first at line 3, column 1 \('b'\)\)",
        ),
        ("1,2,3\n4,5\n", r"line 2 has 2 values, but line 1 has 3"),
        (
            "# c\n1,2\n\n3,x\n",
            r"line 4, column 1 \(counting from 0\): expected a number, "
            r"found 'x'",
        ),
        (
            "1,,3\n",
            r"line 1, column 1 \(counting from 0\): expected a number, found an empty "
            r"cell; if line 1 names the columns, pass header=True$",
        ),
        (
            "1,a\n2,a\n",
            r"column 1 \(counting from 0\) is not numeric \(line 1 holds 'a'\); "
            r"select the numeric columns with columns='0'",
        ),
        ("a,b\n", r"holds no rows of data \(only a header\)"),
        ("", r"holds no rows of data"),
        ("a,b,c\n1,2\n", r"the header row has 3 names, but the rows have 2 values"),
    ],
)
def test_bad_csv_is_refused_naming_the_file_and_line(tmp_path, text, found):
    (tmp_path / "bad.csv").write_text(text)
    with pytest.raises(ValueError, match=rf"bad\.csv: {found}"):
        read_data(tmp_path / "bad.csv")


def test_images_of_different_sizes(tmp_path):
    folder = tmp_path / "imgs"
    folder.mkdir()
    _save_png(folder / "a1.png", np.zeros((4, 4), np.uint8))
    _save_png(folder / "a2.png", np.zeros((4, 4), np.uint8))
    _save_png(folder / "a3.png", np.zeros((4, 5), np.uint8))
    with pytest.raises(ValueError, match=r"a3\.png: the image is 4x5 .* but a1\.png is 4x4"):
        read_data(folder)


def test_empty_folder(tmp_path):
    (tmp_path / "imgs").mkdir()
    (tmp_path / "imgs" / "readme.txt").write_text("no images")
    with pytest.raises(ValueError, match=r"imgs: no \.png images"):
        read_data(tmp_path / "imgs")


def test_unreadable_png(tmp_path):
    (tmp_path / "imgs").mkdir()
    (tmp_path / "imgs" / "a.png").write_bytes(b"not a png")
    with pytest.raises(ValueError, match=r"a\.png: cannot be read as a PNG image"):
        read_data(tmp_path / "imgs")


# --- CSV files: delimiters, headers, columns, streaming ----------------------


_TABLE = np.array([[1.5, -2.0, 3e-5], [4.0, 0.0, 6.25], [7.0, 8.5, -9.0]])


@pytest.mark.parametrize("delimiter", [",", ";", "\t", " ", "  ", ", "])
@pytest.mark.parametrize("header", [False, True])
def test_csv_delimiter_is_detected(tmp_path, delimiter, header):
    lines = [delimiter.join(map(repr, row)) for row in _TABLE.tolist()]
    if header:
        lines.insert(0, delimiter.join(["x", "y", "z"]))
    (tmp_path / "t.csv").write_text("\n".join(lines) + "\n")
    X, source = read_data(tmp_path / "t.csv")
    np.testing.assert_array_equal(X, _TABLE)
    assert source.header == (("x", "y", "z") if header else None)


@pytest.mark.parametrize(
    "delimiter, given", [("|", "|"), ("\t", "tab"), ("\t", "\t"), (" ", "whitespace"), (";", ";")]
)
def test_csv_delimiter_can_be_given(tmp_path, delimiter, given):
    (tmp_path / "t.csv").write_text(
        "\n".join(delimiter.join(map(repr, row)) for row in _TABLE.tolist())
    )
    np.testing.assert_array_equal(read_data(tmp_path / "t.csv", delimiter=given)[0], _TABLE)


def test_csv_given_delimiter_that_is_not_there(tmp_path):
    (tmp_path / "t.csv").write_text("a;b\n1;2\n")
    with pytest.raises(
        ValueError,
        match=r"t\.csv: delimiter=',' separates no values of the "
        r"first lines; they are separated by ';'",
    ):
        read_data(tmp_path / "t.csv", delimiter=",")
    with pytest.raises(ValueError, match=r"'delimiter' must be one character .*got '::'"):
        read_data(tmp_path / "t.csv", delimiter="::")


def _labelled(tmp_path, header=True):
    """A CSV file with a text column 'label' before three numeric columns."""
    lines = [
        f"{name},{','.join(map(repr, row))}"
        for name, row in zip(["cat", "dog", "cat"], _TABLE.tolist())
    ]
    if header:
        lines.insert(0, "label,x,y,z")
    (tmp_path / "t.csv").write_text("\n".join(lines) + "\n")
    return tmp_path / "t.csv"


def test_csv_text_column_is_refused_naming_it_and_the_numeric_columns(tmp_path):
    with pytest.raises(
        ValueError,
        match=r"t\.csv: column 'label' is not numeric \(line 2 "
        r"holds 'cat'\); select the numeric columns with "
        r"columns='1-3'$",
    ):
        read_data(_labelled(tmp_path))
    with pytest.raises(
        ValueError,
        match=r"column 0 \(counting from 0\) is not numeric \(line 1 "
        r"holds 'cat'\); .* columns='1-3'; if line 1 names the columns, pass header=True$",
    ):
        read_data(_labelled(tmp_path, header=False))


@pytest.mark.parametrize(
    "columns, expected, names",
    [
        ("1-3", [0, 1, 2], ("x", "y", "z")),
        ("x,y,z", [0, 1, 2], ("x", "y", "z")),
        ("z, 1", [2, 0], ("z", "x")),
        ("2", [1], ("y",)),
        (["z", 1], [2, 0], ("z", "x")),
        (range(1, 4), [0, 1, 2], ("x", "y", "z")),
        (np.array([3]), [2], ("z",)),
    ],
)
def test_csv_columns_are_chosen_by_name_or_index(tmp_path, columns, expected, names):
    X, source = read_data(_labelled(tmp_path), columns=columns)
    np.testing.assert_array_equal(X, _TABLE[:, expected])
    assert source.header == names
    # Written back, the chosen columns keep their names.
    write_data(tmp_path / "out.csv", X, source=source)
    assert (tmp_path / "out.csv").read_text().splitlines()[0] == ",".join(names)


def test_csv_columns_without_header_are_indices(tmp_path):
    X, source = read_data(_labelled(tmp_path, header=False), columns="1-3")
    np.testing.assert_array_equal(X, _TABLE)
    assert source.header is None


def test_csv_header_of_numbers_above_an_index_column(tmp_path):
    # What pandas' DataFrame.to_csv writes: an empty corner, column names 0, 1, 2.
    # Names that are numbers make a header only when the caller says so.
    (tmp_path / "t.csv").write_text(",0,1,2\n0,1.5,-2.0,3e-05\n1,4.0,0.0,6.25\n")
    X, source = read_data(tmp_path / "t.csv", columns="1-3", header=True)
    np.testing.assert_array_equal(X, _TABLE[:2])
    assert source.header == ("0", "1", "2")
    with pytest.raises(
        ValueError,
        match=r"t\.csv: line 1, column 0 \(counting from 0\): expected a number, found "
        r"an empty cell; if line 1 names the columns, pass header=True$",
    ):
        read_data(tmp_path / "t.csv")


@pytest.mark.parametrize("cell", ["NA", "null", "", "1_000"])
def test_csv_first_line_with_one_bad_cell_is_refused_not_taken_for_a_header(tmp_path, cell):
    # A bad cell among numbers on line 1 is refused as on line 3: the row was
    # taken for a header and dropped (29 of 30 rows read).
    rows = [[f"{i}.5", f"{i}", f"-{i}"] for i in range(30)]
    for line in (0, 2):
        table = [list(row) for row in rows]
        table[line][1] = cell
        (tmp_path / "t.csv").write_text("\n".join(map(",".join, table)) + "\n")
        with pytest.raises(ValueError) as error:
            read_data(tmp_path / "t.csv")
        assert re.search(rf"line {line + 1}\b", str(error.value))
        assert "column 1 (counting from 0)" in str(error.value)


@pytest.mark.parametrize(
    "first, header, rows",
    [
        ("x,y,z", None, 2),  # names only: a header
        ("x;y;z", None, 2),
        ("x,1,y", True, 2),  # a name that is a number: a header only when told
        ("1,2,3", True, 2),
        ("1,2,3", False, 3),
        ("1,2,3", None, 3),
    ],
)
def test_csv_header_is_detected_or_given(tmp_path, first, header, rows):
    sep = ";" if ";" in first else ","
    (tmp_path / "t.csv").write_text(f"{first}\n4{sep}5{sep}6\n7{sep}8{sep}9\n")
    X, source = read_data(tmp_path / "t.csv", header=header)
    assert X.shape == (rows, 3)
    assert source.header == (tuple(first.split(sep)) if rows == 2 else None)


def test_csv_header_refused_where_told_there_is_none(tmp_path):
    (tmp_path / "t.csv").write_text("x,1,y\n1,2,3\n")
    with pytest.raises(
        ValueError, match=r"column 0 \(counting from 0\) is not numeric \(line 1 holds 'x'\)"
    ):
        read_data(tmp_path / "t.csv")
    with pytest.raises(ValueError, match=r"line 1 holds 'x'\); select .* columns='1'$"):
        read_data(tmp_path / "t.csv", header=False)
    with pytest.raises(TypeError, match=r"'header' must be True, False or None"):
        read_data(tmp_path / "t.csv", header="yes")


@pytest.mark.parametrize(
    "columns, error, found",
    [
        (
            "1-4",
            ValueError,
            r"columns='1-4': there is no column 4; the rows have 4 values "
            r"\(columns 0-3\)",
        ),
        (
            "w",
            ValueError,
            r"columns='w': there is no column named 'w'; the header has 4 names: "
            r"'label', 'x', 'y', 'z'",
        ),
        ("x-z", ValueError, r"no column named 'x-z' \(ranges are of 0-based indices"),
        ("3-1", ValueError, r"columns='3-1': the range '3-1' runs backwards"),
        ("x,1", ValueError, r"columns='x,1' selects column 'x' twice"),
        ("1,,2", ValueError, r"columns='1,,2' has an empty item"),
        ("", ValueError, r"columns='' has an empty item"),
        ([], ValueError, r"columns=\[\] selects no column"),
        ("label,x", ValueError, r"column 'label' is not numeric"),
        ([-1], ValueError, r"there is no column -1"),
        (5, TypeError, r"'columns' must be a string such as '1-784', or a sequence"),
        ([1.0], TypeError, r"'columns' must hold column names \(str\) and 0-based indices"),
    ],
)
def test_bad_columns_are_refused_naming_them(tmp_path, columns, error, found):
    with pytest.raises(error, match=found):
        read_data(_labelled(tmp_path), columns=columns)


def test_csv_column_names_need_a_header(tmp_path):
    with pytest.raises(
        ValueError,
        match=r"no column named 'x': the file has no header row; "
        r"select columns by 0-based index",
    ):
        read_data(_labelled(tmp_path, header=False), columns="x")


def test_columns_and_delimiter_are_for_csv_files_only(tmp_path):
    np.save(tmp_path / "d.npy", np.ones((2, 2)))
    for name, value in (("columns", "0"), ("delimiter", ";")):
        with pytest.raises(ValueError, match=rf"d\.npy: '{name}' applies to a \.csv file"):
            read_data(tmp_path / "d.npy", **{name: value})


def test_csv_decimal_commas_are_named(tmp_path):
    (tmp_path / "t.csv").write_text("1;2,5\n3;4\n")
    with pytest.raises(
        ValueError,
        match=r"line 1, column 1 \(counting from 0\): expected a "
        r"number, found '2,5'; decimal commas are not read",
    ):
        read_data(tmp_path / "t.csv")


def test_csv_rows_of_other_widths_are_refused_with_columns_chosen(tmp_path):
    (tmp_path / "t.csv").write_text("label,x,y\ncat,1,2\ndog,3,4,5\n")
    with pytest.raises(ValueError, match=r"line 3 has 4 values, but line 2 has 3"):
        read_data(tmp_path / "t.csv", columns="x,y")


def test_csv_is_read_in_chunks_with_the_lines_counted_across_them(tmp_path, monkeypatch, rng):
    from preimage.io import _data_csv as _csv

    # Long rows first, then short ones: the preallocated array must grow.
    X = np.vstack([rng.normal(size=(40, 5)), np.round(rng.normal(size=(300, 5)))])
    lines = ["a,b,c,d,e", "# a comment", ""]
    for i, row in enumerate(X.tolist()):
        lines.append(",".join(map(repr, row)))
        if i % 7 == 0:
            lines += ["", "   # indented comment"]
    (tmp_path / "t.csv").write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(_csv, "_CHUNK_CHARS", 500)
    Y, source = read_data(tmp_path / "t.csv", columns="0-4")
    np.testing.assert_array_equal(Y, X)
    assert source.header == ("a", "b", "c", "d", "e")
    # An error far into the file names its line.
    bad = len(lines) - 2
    lines[bad - 1] = lines[bad - 1].replace(",", ",oops", 1)
    (tmp_path / "t.csv").write_text("\n".join(lines) + "\n")
    with pytest.raises(
        ValueError,
        match=rf"line {bad}, column 1 \('b'\): expected a number, "
        r"found 'oops",
    ):
        read_data(tmp_path / "t.csv")


def test_csv_reading_takes_little_more_memory_than_the_array(tmp_path, rng):
    import tracemalloc

    X = rng.random((20_000, 50))
    with open(tmp_path / "big.csv", "w") as file:
        file.write(",".join(f"p{j}" for j in range(50)) + "\n")
        for row in X.tolist():
            file.write(",".join(map(repr, row)) + "\n")
    tracemalloc.start()
    try:
        Y, _ = read_data(tmp_path / "big.csv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(Y, X)
    # 8 MB of floats from 19 MB of text: the array and one chunk of lines (reading
    # every line into a Python list first took 4.8 times the array).
    assert peak < 1.5 * X.nbytes, peak / X.nbytes


# --- refusals when writing -------------------------------------------------


def test_png_output_of_non_square_width_needs_image_shape(tmp_path):
    with pytest.raises(ValueError, match=r"not a perfect square; pass 'image_shape'"):
        write_data(tmp_path / "imgs", np.zeros((2, 10)))
    assert not (tmp_path / "imgs").exists()
    assert _listing(tmp_path) == []


@pytest.mark.parametrize(
    "image_shape, found",
    [
        ((3, 3), r"'image_shape' \(3, 3\) holds 9 pixels, but X has 10 features"),
        ((2, 5.0), r"'image_shape' must be a pair of positive integers"),
        (10, r"'image_shape' must be a pair of positive integers"),
    ],
)
def test_bad_image_shape(tmp_path, image_shape, found):
    with pytest.raises(ValueError, match=found):
        write_data(tmp_path / "imgs", np.zeros((2, 10)), image_shape=image_shape)


def test_source_image_shape_that_does_not_fit(tmp_path):
    source = DataSource("png", tmp_path / "in", image_shape=(2, 2))
    with pytest.raises(
        ValueError,
        match=r"images are 2x2 pixels, but the samples have 9 values; "
        r"pass 'image_shape'",
    ):
        write_data(tmp_path / "imgs", np.zeros((1, 9)), source=source)


@pytest.mark.parametrize(
    "X, error, found",
    [
        (np.zeros(3), ValueError, "must be a 2-D array"),
        (np.array([[0.0, np.nan]]), ValueError, "contains NaN"),
        (np.array([[np.inf]]), ValueError, "contains inf"),
        (np.zeros((0, 2)), ValueError, "must have at least 1 sample"),
        (np.array([[object()]]), TypeError, "must hold real numbers"),
    ],
)
def test_bad_X_is_refused_before_writing(tmp_path, X, error, found):
    with pytest.raises(error, match=rf"x\.npy: 'X' {found}"):
        write_data(tmp_path / "x.npy", X)
    assert _listing(tmp_path) == []


def test_unsupported_output_suffix(tmp_path):
    with pytest.raises(ValueError, match=r"x\.txt: unsupported kind of output '\.txt'"):
        write_data(tmp_path / "x.txt", np.zeros((1, 1)))
    assert _listing(tmp_path) == []


@pytest.mark.parametrize("overwrite", [False, True])
def test_folder_and_file_never_replace_each_other(tmp_path, overwrite):
    (tmp_path / "d.npy").mkdir()
    (tmp_path / "f").write_text("keep")
    with pytest.raises(IsADirectoryError, match=r"d\.npy: exists and is a folder"):
        write_data(tmp_path / "d.npy", np.zeros((1, 1)), overwrite=overwrite)
    with pytest.raises(NotADirectoryError, match=r"f: exists and is a file"):
        write_data(tmp_path / "f", np.zeros((1, 1)), overwrite=overwrite)
    assert (tmp_path / "f").read_text() == "keep"
    assert _listing(tmp_path / "d.npy") == []
    assert _listing(tmp_path) == ["d.npy", "f"]


def test_invalid_source_names(tmp_path):
    source = DataSource("png", tmp_path / "in", names=("a.png", "../b.png"))
    with pytest.raises(ValueError, match=r"'source.names' must be plain \.png file names"):
        write_data(tmp_path / "imgs", np.zeros((2, 1)), source=source)
    source = DataSource("png", tmp_path / "in", names=("a.png", "A.png"))
    with pytest.raises(ValueError, match=r"'source.names' must not repeat a name"):
        write_data(tmp_path / "imgs", np.zeros((2, 1)), source=source)
    assert _listing(tmp_path) == []


# --- never overwrite, unless asked; never half a file ------------------------


@pytest.mark.parametrize("name", ["x.npy", "x.npz", "x.csv"])
def test_existing_file_is_not_overwritten(tmp_path, name):
    (tmp_path / name).write_bytes(b"precious")
    with pytest.raises(FileExistsError, match=rf"{name}: already exists.*--force.*overwrite=True"):
        write_data(tmp_path / name, np.zeros((1, 1)))
    assert (tmp_path / name).read_bytes() == b"precious"
    assert _listing(tmp_path) == [name]


def test_existing_folder_is_not_overwritten(tmp_path):
    write_data(tmp_path / "imgs", np.zeros((2, 4)))
    before = {p.name: p.read_bytes() for p in (tmp_path / "imgs").iterdir()}
    with pytest.raises(FileExistsError, match=r"imgs: already exists.*--force"):
        write_data(tmp_path / "imgs", np.ones((3, 4)))
    assert {p.name: p.read_bytes() for p in (tmp_path / "imgs").iterdir()} == before
    assert _listing(tmp_path) == ["imgs"]


@pytest.mark.parametrize("name", ["x.npy", "x.npz", "x.csv"])
def test_overwrite_replaces_a_file(tmp_path, name):
    write_data(tmp_path / name, np.zeros((2, 2)))
    write_data(tmp_path / name, np.ones((3, 1)), overwrite=True)
    np.testing.assert_array_equal(read_data(tmp_path / name)[0], np.ones((3, 1)))
    assert _listing(tmp_path) == [name]


def test_overwrite_replaces_a_whole_folder(tmp_path):
    write_data(tmp_path / "imgs", np.zeros((3, 4)))
    write_data(tmp_path / "imgs", np.ones((2, 4)), overwrite=True)
    X, source = read_data(tmp_path / "imgs")
    np.testing.assert_array_equal(X, np.ones((2, 4)))
    assert source.names == ("000000.png", "000001.png")  # the old third image is gone
    assert _listing(tmp_path) == ["imgs"]  # nothing left aside


class _Boom(Exception):
    pass


@pytest.mark.parametrize("exception", [_Boom, KeyboardInterrupt])
@pytest.mark.parametrize("existing", [False, True])
def test_failure_while_writing_images_leaves_nothing_behind(
    tmp_path, monkeypatch, exception, existing
):
    if existing:
        write_data(tmp_path / "imgs", np.zeros((2, 4)))
        before = {p.name: p.read_bytes() for p in (tmp_path / "imgs").iterdir()}
    saved = []
    original_save = Image.Image.save

    def save_then_fail(self, fp, *args, **kwargs):
        if saved:
            raise exception("disk full")
        original_save(self, fp, *args, **kwargs)
        saved.append(fp)

    monkeypatch.setattr(Image.Image, "save", save_then_fail)
    with pytest.raises(exception):
        write_data(tmp_path / "imgs", np.ones((3, 4)), overwrite=True)
    assert len(saved) == 1  # the failure came after one image was written
    if existing:
        assert _listing(tmp_path) == ["imgs"]
        assert {p.name: p.read_bytes() for p in (tmp_path / "imgs").iterdir()} == before
    else:
        assert _listing(tmp_path) == []


def test_failure_while_swapping_folders_puts_the_old_one_back(tmp_path, monkeypatch):
    write_data(tmp_path / "imgs", np.zeros((2, 4)))
    before = {p.name: p.read_bytes() for p in (tmp_path / "imgs").iterdir()}
    original_rename = os.rename
    # The old folder is renamed aside, then back.

    def rename(src, dst):
        if Path(src).name.endswith(".tmp"):  # the new folder moving into place
            raise _Boom("rename failed")
        original_rename(src, dst)

    monkeypatch.setattr(os, "rename", rename)
    with pytest.raises(_Boom):
        write_data(tmp_path / "imgs", np.ones((3, 4)), overwrite=True)
    assert _listing(tmp_path) == ["imgs"]
    assert {p.name: p.read_bytes() for p in (tmp_path / "imgs").iterdir()} == before


@pytest.mark.parametrize("name", ["x.npy", "x.npz", "x.csv"])
@pytest.mark.parametrize("existing", [False, True])
def test_failure_while_writing_a_file_leaves_nothing_behind(tmp_path, monkeypatch, name, existing):
    if existing:
        (tmp_path / name).write_bytes(b"precious")
    written = []

    def fail_after_writing(fd):  # os.fsync of the temporary file, once flushed
        written.append(os.fstat(fd).st_size)
        raise _Boom("disk full")

    monkeypatch.setattr(os, "fsync", fail_after_writing)
    with pytest.raises(_Boom):
        write_data(tmp_path / name, np.ones((50, 3)), overwrite=True)
    assert written and written[0] > 0  # the temporary file did receive data
    if existing:
        assert _listing(tmp_path) == [name]
        assert (tmp_path / name).read_bytes() == b"precious"
    else:
        assert _listing(tmp_path) == []


def test_an_output_that_cannot_be_written_is_named_not_its_temporary_file(tmp_path):
    (tmp_path / "f").write_text("a file, not a folder")
    with pytest.raises(OSError, match=r"f/x\.npy: cannot create the folder .*f \(File exists"):
        write_data(tmp_path / "f" / "x.npy", np.zeros((1, 1)))
    assert _listing(tmp_path) == ["f"]


def test_an_output_in_a_folder_without_write_permission(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d").chmod(0o500)
    try:
        if os.access(tmp_path / "d", os.W_OK):
            pytest.skip("running with permission to write anywhere")
        with pytest.raises(
            PermissionError,
            match=r"d/x\.npy: cannot write in .*d "
            r"\(Permission denied\)$",
        ):
            write_data(tmp_path / "d" / "x.npy", np.zeros((1, 1)))
    finally:
        (tmp_path / "d").chmod(0o700)
    assert _listing(tmp_path / "d") == []


def test_parent_folders_are_created(tmp_path):
    path = write_data(tmp_path / "a" / "b" / "x.csv", np.ones((1, 2)))
    assert path.read_text() == "1.0,1.0\n"
    write_data(tmp_path / "c" / "imgs", np.ones((1, 4)))
    assert _listing(tmp_path / "c" / "imgs") == ["000000.png"]


def test_an_old_folder_that_cannot_be_deleted_is_a_warning_at_the_callers_line(
    tmp_path, monkeypatch
):
    import shutil

    write_data(tmp_path / "imgs", np.zeros((2, 4)))

    def refuse(path, *args, **kwargs):
        raise PermissionError("read-only")

    monkeypatch.setattr(shutil, "rmtree", refuse)
    with pytest.warns(UserWarning, match="could not be deleted") as caught:
        write_data(tmp_path / "imgs", np.ones((3, 4)), overwrite=True)
    assert caught[0].filename == __file__
    X, _ = read_data(tmp_path / "imgs")
    np.testing.assert_array_equal(X, np.ones((3, 4)))  # the new folder is in place


def test_cli_header_option(tmp_path):
    from cli_run import cli_runner

    from preimage.cli import main

    rows = "\n".join(f"{i}.5,{i},-{i}" for i in range(30))
    (tmp_path / "t.csv").write_text("x,1,y\n" + rows + "\n")
    args = ["fit", str(tmp_path / "t.csv"), "-o", str(tmp_path / "m.npz"), "--quiet"]
    refused = cli_runner().invoke(main, args)
    assert refused.exit_code == 1
    assert refused.stderr.strip().splitlines() == [
        f"Error: {tmp_path / 't.csv'}: column 0 (counting from 0) is not numeric (line 1 "
        "holds 'x'); select the numeric columns with columns='1'; if line 1 names the "
        "columns, pass header=True"
    ]
    assert not (tmp_path / "m.npz").exists()
    assert cli_runner().invoke(main, [*args, "--header"]).exit_code == 0
    np.save(tmp_path / "x.npy", np.ones((4, 3)))
    wrong = cli_runner().invoke(main, ["fit", str(tmp_path / "x.npy"), "-o", "n.npz", "--header"])
    assert wrong.exit_code == 2
    assert "'--header': applies to a .csv file" in wrong.stderr
