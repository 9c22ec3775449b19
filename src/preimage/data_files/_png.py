"""Folders of PNG images: one grayscale image a sample, in [0, 1].

Reading takes the folder's ``*.png`` files in natural order (``img2`` before
``img10``) and scales 8-bit values by 1/255 and 16-bit values by 1/65535;
writing stores ``round(255 x)`` of the values clipped to [0, 1] as 8-bit
images, fills a new hidden folder beside the target and renames it into place
(:func:`preimage._files.atomic_dir`).
"""

import math
from pathlib import Path
import re

import numpy as np

from .._files import atomic_dir
from ._kinds import DataSource

__all__ = ["png_names", "png_shape", "read_png_folder", "write_png_folder"]

_SIXTEEN_BIT_MODES = ("I", "I;16", "I;16B", "I;16L")


# --- reading ---------------------------------------------------------------


def _natural_key(path):
    # re.split with a group alternates text and digit runs, digits at odd places.
    parts = re.split(r"(\d+)", path.name)
    return [int(part) if i % 2 else part.casefold() for i, part in enumerate(parts)], path.name


def read_png_folder(folder):
    files = sorted(
        (
            entry
            for entry in folder.iterdir()
            if entry.suffix.lower() == ".png"
            and not entry.name.startswith(".")
            and entry.is_file()
        ),
        key=_natural_key,
    )
    if not files:
        raise ValueError(f"{folder}: no .png images in this folder")
    X = shape = None
    for i, file in enumerate(files):
        image = _read_png(file)
        if X is None:
            shape = image.shape
            X = np.empty((len(files), image.size))
        elif image.shape != shape:
            raise ValueError(
                f"{file}: the image is {image.shape[0]}x{image.shape[1]} pixels (height x "
                f"width), but {files[0].name} is {shape[0]}x{shape[1]}; all images must have "
                "the same size"
            )
        X[i] = image.ravel()
    return X, DataSource(
        "png", folder, image_shape=shape, names=tuple(file.name for file in files)
    )


def _read_png(file):
    """One PNG image as a 2-D grayscale float array in [0, 1]."""
    from PIL import Image

    try:
        with Image.open(file, formats=["PNG"]) as image:
            if image.mode in _SIXTEEN_BIT_MODES:
                # convert("L") would clip 16-bit values at 255 rather than scale them.
                return np.clip(np.asarray(image, dtype=np.float64) / 65535, 0, 1)
            return np.asarray(image.convert("L"), dtype=np.float64) / 255
    except (OSError, SyntaxError, ValueError) as exc:
        raise ValueError(f"{file}: cannot be read as a PNG image ({exc})") from None


# --- writing ---------------------------------------------------------------


def png_shape(path, n_features, image_shape, source):
    if image_shape is not None:
        return image_shape
    if source is not None and source.image_shape is not None:
        height, width = source.image_shape
        if height * width == n_features:
            return int(height), int(width)
        raise ValueError(
            f"{path}: the input's images are {height}x{width} pixels, but the "
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
        if (
            not isinstance(name, str)
            or Path(name).name != name
            or name.startswith(".")
            or not name.lower().endswith(".png")
        ):
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
