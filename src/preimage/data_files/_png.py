"""Folders of PNG images: one grayscale image a sample, in [0, 1].

Reading takes the folder's ``*.png`` files in natural order (``img2`` before
``img10``) and scales 8-bit values by 1/255 and 16-bit values by 1/65535;
writing stores ``round(255 x)`` of the values clipped to [0, 1] as 8-bit
images, fills a new hidden folder beside the target and renames it into place.
"""

import math
import os
from pathlib import Path
import re
import secrets
import shutil

import numpy as np

from .._warnings import warn
from ._kinds import DataSource, check_target

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


def _sibling_dir(path, tag):
    """Create and return a new hidden folder beside `path` (permissions as for mkdir)."""
    while True:
        candidate = path.with_name(f".{path.name}.{secrets.token_hex(4)}.{tag}")
        try:
            candidate.mkdir()
        except FileExistsError:
            continue
        return candidate


def write_png_folder(path, X, shape, names, overwrite):
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _sibling_dir(path, "tmp")
    try:
        for row, name in zip(X, names):
            pixels = np.rint(np.clip(row, 0, 1) * 255).astype(np.uint8).reshape(shape)
            Image.fromarray(pixels).save(tmp / name, format="PNG")
        _replace_folder(tmp, path, overwrite)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return path


def _replace_folder(new, path, overwrite):
    """Rename the folder `new` to `path`, moving an existing `path` aside first."""
    if not (path.exists() or path.is_symlink()):
        os.rename(new, path)
        return
    check_target(path, "png", overwrite)  # in case it appeared since write_data checked
    aside = _sibling_dir(path, "old")
    old = aside / path.name
    os.rename(path, old)
    try:
        os.rename(new, path)
    except BaseException:
        os.rename(old, path)
        os.rmdir(aside)
        raise
    try:
        shutil.rmtree(aside)
    except OSError as exc:
        warn(
            f"{path}: written, but the folder it replaced could not be deleted from "
            f"{aside} ({exc})",
            UserWarning,
        )
