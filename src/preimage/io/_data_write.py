"""Writing a data set: :func:`write_data` and the ``.npy``, ``.npz`` and ``.csv`` writers."""

from __future__ import annotations

import csv
import math
from numbers import Integral
import os
from pathlib import Path
import zipfile

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d
from preimage.io._data_kinds import DataSource, check_target, output_kind
from preimage.io._data_png import png_names, png_shape, write_png_folder
from preimage.io._files import atomic_write, check_writable


def write_data(
    path: str | os.PathLike[str],
    X: ArrayLike,
    *,
    source: DataSource | None = None,
    image_shape: tuple[int, ...] | None = None,
    overwrite: bool = False,
) -> Path:
    """Write a 2-D array as ``.npy``, ``.npz``, ``.csv`` or a folder of PNG images.

    Parameters
    ----------
    path : str or path-like
        Where to write: its suffix says the kind, none is a folder of images.
    X : array-like of shape (n_samples, n_features)
        Finite real numbers.
    source : DataSource, optional
        From :func:`read_data`: the ``.npz`` key, CSV header, image size and
        image names to write back.
    image_shape : tuple of int, optional
        ``(height, width)`` of each sample, or ``(height, width, channels)``
        for colour (3: RGB, 4: RGBA); for images the default is
        ``source.image_shape``, else a grey square. ``.npy`` and ``.npz``
        files then hold a 3-D (or 4-D) array.
    overwrite : bool, default=False
        Replace an existing file or folder of the same kind.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    OSError
        If `path` exists (:class:`FileExistsError`, unless `overwrite`), is a
        folder where a file goes or the reverse, or cannot be written.
    ValueError
        For an unsupported suffix, an `X` that is not 2-D and finite, or an
        image size that does not fit.
    TypeError
        If `X` does not hold real numbers.

    Notes
    -----
    CSV values are written with ``repr`` (an exact round trip); images are
    8-bit, ``round(255 x)`` of `X` clipped to [0, 1]. The output appears
    whole or not at all.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> from preimage.io import read_data, write_data
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = write_data(Path(folder) / "images", np.eye(4))  # four 2 x 2 images
    ...     names = sorted(p.name for p in path.iterdir())
    ...     X, source = read_data(path)
    >>> names
    ['000000.png', '000001.png', '000002.png', '000003.png']
    >>> bool(np.array_equal(X, np.eye(4))), source.image_shape
    (True, (2, 2))
    """
    path = Path(path)
    kind = output_kind(path)
    try:
        # Files hold any finite values, however large.
        X = check_array_2d(X, "X", magnitude=False)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{path}: {exc}") from None
    n_samples, n_features = X.shape
    kind, image_shape = _check_output(path, n_features, source, image_shape, overwrite)

    if kind == "png":
        names = png_names(n_samples, source)
        return write_png_folder(path, X, image_shape, names, overwrite)

    if kind == "csv":
        header = getattr(source, "header", None)
        header = header if header is not None and len(header) == n_features else None
        return atomic_write(path, lambda tmp: _save_csv(tmp, X, header), overwrite=overwrite)

    if image_shape is None and source is not None and source.kind in ("npy", "npz"):
        shape = source.image_shape
        if shape is not None and shape[0] * shape[1] == n_features:
            image_shape = tuple(shape)
    array = X if image_shape is None else X.reshape((n_samples,) + image_shape)
    if kind == "npy":
        return atomic_write(path, lambda tmp: _save_npy(tmp, array), overwrite=overwrite)
    key = source.key if source is not None and source.key else "X"
    return atomic_write(path, lambda tmp: _save_npz(tmp, array, key), overwrite=overwrite)


def check_output(
    path: str | os.PathLike[str],
    n_features: int | None,
    *,
    source: DataSource | None = None,
    image_shape: tuple[int, ...] | None = None,
    overwrite: bool = False,
) -> None:
    """Refuse now what :func:`write_data` would refuse of `n_features` columns.

    Parameters
    ----------
    path : str or path-like
        Where the output will be written.
    n_features : int or None
        The width of the array to write; None checks all but the image size.
    source : DataSource, optional
        As for :func:`write_data`.
    image_shape : tuple of int, optional
        As for :func:`write_data`.
    overwrite : bool, default=False
        As for :func:`write_data`.

    Raises
    ------
    OSError
        As :func:`write_data`, or if the folder cannot be written in.
    ValueError
        For an unsupported suffix or an image size that does not fit.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from preimage.io import check_output
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     check_output(Path(folder) / "images", 784)  # 28 x 28 PNG images: fine
    ...     check_output(Path(folder) / "images", 785)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...images: cannot tell the image size: 785 values per sample is not a ...
    """
    path = Path(path)
    _check_output(path, n_features, source, image_shape, overwrite)
    check_writable(path)


def _check_output(path, n_features, source, image_shape, overwrite):
    """The kind of output, and the image size of a PNG folder (else `image_shape`)."""
    kind = output_kind(path)
    if image_shape is not None and n_features is not None:
        image_shape = _check_image_shape(path, image_shape, n_features)
    check_target(path, kind, overwrite)
    if kind == "png" and n_features is not None:
        image_shape = png_shape(path, n_features, image_shape, source)
    return kind, image_shape


def _check_image_shape(path, image_shape, n_features):
    try:
        values = tuple(image_shape)
    except TypeError:
        values = ()
    if len(values) not in (2, 3) or not all(
        isinstance(v, Integral) and type(v) is not bool and v > 0 for v in values
    ):
        raise ValueError(
            f"{path}: 'image_shape' must be a pair of positive integers "
            f"(height, width), or a triple with the channels, got {image_shape!r}"
        )
    if math.prod(values) != n_features:
        raise ValueError(
            f"{path}: 'image_shape' {image_shape!r} holds {math.prod(values)} "
            f"{'pixels' if len(values) == 2 else 'values'}, but X has {n_features} features"
        )
    return tuple(int(v) for v in values)


def _sync(file):
    file.flush()
    os.fsync(file.fileno())


def _save_npy(tmp, array):
    # np.save on a file name would append ".npy" to the temporary name.
    with open(tmp, "wb") as file:
        np.save(file, array, allow_pickle=False)
        _sync(file)


def _save_npz(tmp, array, key):
    # What np.savez does, without its keyword arguments (a key "file" would clash).
    with open(tmp, "wb") as file:
        with zipfile.ZipFile(file, "w", allowZip64=True) as archive:  # stored, as np.savez
            with archive.open(f"{key}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, array, allow_pickle=False)
        _sync(file)


def _save_csv(tmp, X, header):
    with open(tmp, "w", encoding="utf-8", newline="") as file:
        if header is not None:
            csv.writer(file, lineterminator="\n").writerow(header)
        for row in X:
            # repr of a Python float is the shortest text that reads back identically.
            file.write(",".join(map(repr, row.tolist())) + "\n")
        _sync(file)
