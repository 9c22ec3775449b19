"""Argument checks only data generation needs: noise levels, output sizes, intervals."""

from preimage._utils.memory import check_dense
from preimage._utils.validation import check_positive, check_real

#: The largest noise level or coordinate a generator accepts: beyond it the
#: points' squared distances would overflow float64.
MAX_SCALE = 1e150


def check_scale(value, name):
    """A non-negative noise level or spread, at most :data:`MAX_SCALE`."""
    value = check_positive(value, name, strict=False)
    if value > MAX_SCALE:
        raise ValueError(
            f"{name!r} must be at most {MAX_SCALE:g}: larger values make "
            f"points whose squared distances overflow float64, got {value!r}"
        )
    return value


def check_output_size(shape, dtype, names):
    """Refuse, before allocating, an output beyond the memory budget."""
    what = f"the {' x '.join(map(str, shape))} output array"
    check_dense(shape, dtype, what, hint=f"ask for fewer {names}")


def check_interval(value, name, *, strict=True, bounded=False):
    """A pair ``(low, high)`` of finite reals, ``low < high`` (``<=`` unless
    `strict`), both at most :data:`MAX_SCALE` in magnitude with `bounded`."""
    try:
        low, high = (check_real(v, name) for v in value)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name!r} must be a pair (low, high) of finite real numbers, got {value!r}"
        ) from None
    if (strict and not low < high) or (not strict and not low <= high):
        op = "<" if strict else "<="
        raise ValueError(f"{name!r} must satisfy low {op} high, got {value!r}")
    if bounded and max(abs(low), abs(high)) > MAX_SCALE:
        raise ValueError(
            f"{name!r} must lie within [-{MAX_SCALE:g}, {MAX_SCALE:g}] (points "
            f"beyond have squared distances that overflow float64), got "
            f"{value!r}"
        )
    return low, high
