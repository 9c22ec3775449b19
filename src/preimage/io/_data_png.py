"""Folders of PNG images: one image a sample, in [0, 1], grey or in colour.

A folder of grey images gives ``height x width`` features a sample; one with a
colour image (RGB, RGBA or a palette, by the ``IHDR`` colour type) gives
``height x width x channels``, every image read with the folder's channels (a
grey image's level in each), and is written back in colour.

Reading checks every name (a regular file, or a link to one inside the
folder), then every size from its ``IHDR`` chunk against the memory budget,
before decoding anything.
"""

import errno
import math
import os
from pathlib import Path
import re
import stat
import struct
import warnings
import zlib

import numpy as np

from preimage._utils.memory import check_dense
from preimage.io._data_kinds import DataSource
from preimage.io._files import atomic_dir, file_kind, open_regular

_SIXTEEN_BIT_MODES = ("I", "I;16", "I;16B", "I;16L")
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Channels kept by the IHDR colour type: 2 RGB, 3 palette, 6 RGBA (0 and 4: grey).
_CHANNELS = {2: 3, 3: 3, 6: 4}
_MODES = {1: "L", 3: "RGB", 4: "RGBA"}
# What a file that is not a PNG image, or a damaged one, raises in Pillow and zlib.
_DECODING_ERRORS: tuple[type[Exception], ...] = (OSError, SyntaxError, ValueError, EOFError)
_DECODING_ERRORS += (IndexError, struct.error, zlib.error)


def _natural_key(path):
    # re.split with a group alternates text and digit runs, digits at odd places.
    parts = re.split(r"(\d+)", path.name)
    return [int(part) if i % 2 else part.casefold() for i, part in enumerate(parts)], path.name


def read_png_folder(folder):
    files = _png_files(folder)
    if not files:
        raise ValueError(f"{folder}: no .png images in this folder")
    first, (shape, channels) = files[0][0], _png_size(*files[0])
    for entry, target in files[1:]:
        size, colour = _png_size(entry, target)
        channels = max(channels, colour)
        if size != shape:
            raise ValueError(
                f"{entry}: the image is {size[0]}x{size[1]} pixels (height x width), but "
                f"{first.name} is {shape[0]}x{shape[1]}; all images must have the same size"
            )
    n, (height, width) = len(files), shape
    shape, d = (shape if channels == 1 else (*shape, channels)), height * width * channels
    what = (
        f"{folder}: {n} image{'s' if n > 1 else ''} of {height}x{width} pixels, read as "
        f"a {n} x {d} float64 array with one image being decoded,"
    )
    check_dense((n + 1, d), np.float64, what, hint="read fewer or smaller images")
    X = np.empty((n, d))
    for row, (entry, target) in zip(X, files):
        _read_png(entry, target, row.reshape(shape))
    names = tuple(entry.name for entry, _ in files)
    return X, DataSource("png", folder, image_shape=shape, names=names)


def _png_files(folder):
    """(entry, path to open) of the folder's ``*.png`` files, in natural order."""
    root = folder.resolve()
    entries = [e for e in folder.iterdir() if e.suffix.lower() == ".png" and e.name[0] != "."]
    entries.sort(key=_natural_key)
    seen = {}
    for entry in entries:
        other = seen.setdefault(entry.name.casefold(), entry.name)
        if other != entry.name:
            raise ValueError(
                f"{folder}: holds {other!r} and {entry.name!r}, names that differ only in "
                "case; they could not be written back one for one on a file system that "
                "ignores case (macOS, Windows): rename one"
            )
    return [(entry, _regular_file(entry, root)) for entry in entries]


def _regular_file(entry, root):
    """The path to open for `entry`: itself, or where its link leads inside `root`."""
    try:
        target, mode = entry, os.lstat(entry).st_mode
        if stat.S_ISLNK(mode):
            try:
                target = Path(os.path.realpath(entry, strict=True))
            except OSError as exc:
                reason = "which does not exist" if exc.errno == errno.ENOENT else exc.strerror
                raise ValueError(
                    f"{entry}: a symbolic link to {os.readlink(entry)!r}, {reason}"
                ) from None
            if not target.is_relative_to(root):
                raise ValueError(
                    f"{entry}: a symbolic link to {target}, outside the folder {root}; only "
                    "links to files inside the folder are read (copy the image into it)"
                )
            mode = os.stat(target).st_mode
    except OSError as exc:
        raise ValueError(f"{entry}: cannot be examined ({exc.strerror})") from None
    if not stat.S_ISREG(mode):
        raise ValueError(
            f"{entry}: {file_kind(mode)}, not a regular file; only image files are read "
            "(it was not opened)"
        )
    return target


def _png_size(entry, target):
    """((height, width), channels) from the ``IHDR`` chunk, without decoding anything."""
    with open_regular(target, entry) as file:
        head = file.read(26)
    if len(head) < 26 or head[:8] != _SIGNATURE or head[12:16] != b"IHDR":
        raise ValueError(f"{entry}: cannot be read as a PNG image (no PNG header)")
    width, height = struct.unpack(">II", head[16:24])
    if not (width and height):
        raise ValueError(f"{entry}: cannot be read as a PNG image (its size is {width}x{height})")
    return (height, width), _CHANNELS.get(head[25], 1)


def _image_pixel_limit():
    """Pillow's limit of pixels an image may have (None: no limit)."""
    from PIL import Image

    return Image.MAX_IMAGE_PIXELS


def _read_png(entry, target, out):
    """Decode one PNG image into `out` (height x width [x channels] float64) in [0, 1]."""
    from PIL import Image

    limit, pixels = _image_pixel_limit(), out.shape[0] * out.shape[1]
    if limit is not None and pixels > limit:
        raise ValueError(
            f"{entry}: the image is {out.shape[0]}x{out.shape[1]} = {pixels:,} pixels, over "
            f"Pillow's limit of {limit:,} against decompression bombs "
            "(PIL.Image.MAX_IMAGE_PIXELS); refused without decoding it"
        )
    with open_regular(target, entry) as file:
        try:
            with warnings.catch_warnings():
                # Pillow warns up to twice its limit, and raises only beyond.
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                with Image.open(file, formats=["PNG"]) as image:
                    if image.size != out.shape[1::-1]:
                        raise ValueError(f"its size changed to {image.size[1]}x{image.size[0]}")
                    if out.ndim == 2 and image.mode in _SIXTEEN_BIT_MODES:
                        # convert("L") would clip 16-bit values at 255 rather than scale them.
                        np.divide(np.asarray(image), 65535, out=out)
                        np.clip(out, 0, 1, out=out)
                    else:
                        mode = _MODES[out.shape[2] if out.ndim == 3 else 1]
                        np.divide(np.asarray(image.convert(mode)), 255, out=out)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ValueError(
                f"{entry}: refused as a possible decompression bomb, not decoded: {exc} "
                "(Pillow's PIL.Image.MAX_IMAGE_PIXELS)"
            ) from None
        except _DECODING_ERRORS as exc:
            raise ValueError(f"{entry}: cannot be read as a PNG image ({exc})") from None


def png_shape(path, n_features, image_shape, source):
    if image_shape is not None:
        return image_shape
    if source is not None and source.image_shape is not None:
        if math.prod(source.image_shape) == n_features:
            return tuple(int(n) for n in source.image_shape)
        raise ValueError(
            f"{path}: the input's images are {'x'.join(map(str, source.image_shape[:2]))} "
            f"pixels{' in colour' if len(source.image_shape) > 2 else ''}, but the "
            f"samples have {n_features} values; pass 'image_shape' (height, width)"
        )
    side = math.isqrt(n_features)
    if side * side != n_features:
        raise ValueError(
            f"{path}: cannot tell the image size: {n_features} values per sample "
            "is not a perfect square; pass 'image_shape' (height, width)"
        )
    return side, side


def png_names(n_samples, source):
    names = source.names if source is not None else None
    if names is None or len(names) != n_samples:
        width = max(6, len(str(n_samples - 1)))
        return [f"{i:0{width}d}.png" for i in range(n_samples)]
    for name in names:
        plain = isinstance(name, str) and Path(name).name == name and name[:1] != "."
        if not (plain and name.lower().endswith(".png")):
            raise ValueError(f"'source.names' must be plain .png file names, got {name!r}")
    if len({name.casefold() for name in names}) != len(names):
        raise ValueError("'source.names' must not repeat a name")
    return list(names)


def write_png_folder(path, X, shape, names, overwrite):
    from PIL import Image

    def fill(folder):
        for row, name in zip(X, names):
            pixels = np.rint(np.clip(row, 0, 1) * 255).astype(np.uint8).reshape(shape)
            Image.fromarray(pixels).save(folder / name, format="PNG")

    return atomic_dir(path, fill, overwrite=overwrite)
