"""The kernel vocabulary: what every pre-image method asks of a kernel.

A kernel object knows

* its Gram block ``k(X, Y)`` (:meth:`Kernel.block`, also ``kernel(X, Y)``),
  in row chunks of bounded memory (:meth:`Kernel.blocks`), and its diagonal
  ``k(x, x)`` (:meth:`Kernel.diag`);
* the gradient of ``k(z, x_i)`` in the first argument, summed with weights,
  ``Σ_i w_ji ∇_z k(z_j, x_i)`` (:meth:`Kernel.gradient`), and the gradient of
  ``k(z, z)`` (:meth:`Kernel.diag_gradient`);
* where it exists, the map from a kernel value back to input space: a squared
  distance for radial kernels ``k = f(‖x − y‖²)`` and an inner product for
  dot-product kernels ``k = f(⟨x, y⟩)``.

These methods are the protocol every other part of the library uses. Each
validates its arguments unless told they are validated already
(``check_input=False``, the library's own calls on arrays it has checked), and
refuses values beyond the float range with a ValueError naming the arguments,
unless told that the caller handles them (``overflow="ignore"``: a pre-image
solver treats an overflow as a failed step).

Subclasses implement ``_block`` (and, where defined, ``_gradient`` and
``_diag_gradient``), or for radial and dot-product kernels the profile ``f``,
its derivative and, where it exists, its inverse; this module turns them into
blocks, gradients and inverse maps.
"""

from __future__ import annotations

from collections.abc import Iterator
import dataclasses
from typing import Any

import numpy as np

from .._blocks import row_chunks
from .._typing import ArrayLike
from .._validation import check_array_2d, check_real_array, refuse_overflow
from .._warnings import warn
from ..exceptions import NumericalWarning
from ._pairwise import map_rows_inplace, scaled_squared_distances, squared_norms

__all__ = ["Kernel", "RadialKernel", "DotProductKernel"]


class Kernel:
    """Base class of kernels ``k(x, y) = ⟨φ(x), φ(y)⟩``.

    Subclasses are frozen dataclasses whose fields are the kernel parameters;
    they implement :meth:`_block` (and, where defined, :meth:`_gradient` and
    :meth:`_diag_gradient`) on validated 2-D arrays.
    """

    #: ``k(x, x)`` is the same for every x (true for radial kernels).
    stationary = False
    #: The kernel has a gradient in its first argument.
    differentiable = True
    #: Kernel values can overflow for finite input (a polynomial of large
    #: data): public Gram blocks are then checked, and refused with a
    #: ValueError naming the input, instead of holding inf.
    may_overflow = False

    # -- the protocol: validates, calls the implementation, checks the result --
    def __call__(self, X: ArrayLike, Y: ArrayLike | None = None) -> np.ndarray:
        """Gram block ``K_ij = k(x_i, y_j)`` of shape (n_x, n_y): :meth:`block`."""
        return self.block(X, Y)

    def block(
        self,
        X: ArrayLike,
        Y: ArrayLike | None = None,
        *,
        check_input: bool = True,
        overflow: str = "raise",
        names: str | None = None,
    ) -> np.ndarray:
        """Gram block ``K_ij = k(x_i, y_j)`` of shape (n_x, n_y).

        Parameters
        ----------
        X : array of shape (n_x, d)
        Y : array of shape (n_y, d), default=X
        check_input : bool, default=True
            Validate X and Y (finite 2-D real arrays of equal width). False
            trusts the caller: the library's own calls on arrays it checked.
        overflow : {"raise", "ignore"}, default="raise"
            Kernel values beyond the float range (a polynomial of large data)
            are refused with a ValueError naming `names`; ``"ignore"`` returns
            them as inf or NaN, for callers that treat them as a failed step.
            Bounded kernels (Gaussian, Laplacian, sigmoid) are not scanned.
        names : str, optional
            The arguments an overflow is blamed on (default ``'X'`` or
            ``'X' and 'Y'``).
        """
        X, Y = self._inputs(X, Y, check_input)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            K = self._block(X, Y)
        return self._checked(K, overflow, names or ("'X'" if Y is X else "'X' and 'Y'"))

    def blocks(
        self,
        X: ArrayLike,
        Y: ArrayLike | None = None,
        *,
        working_memory: float | None = None,
        check_input: bool = True,
        overflow: str = "raise",
        names: str | None = None,
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """Yield ``(rows, self.block(X[rows], Y))`` over row chunks of X.

        Chunks hold at most `working_memory` MiB (scikit-learn's setting by
        default), so a reduction over a large Gram matrix needs bounded memory.
        `check_input`, `overflow` and `names` are those of :meth:`block`.
        """
        X, Y = self._inputs(X, Y, check_input)
        names = names or ("'X'" if Y is X else "'X' and 'Y'")
        row_bytes = Y.shape[0] * np.result_type(X, Y).itemsize
        for rows in row_chunks(X.shape[0], row_bytes, working_memory):
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                K = self._block(X[rows], Y)
            yield rows, self._checked(K, overflow, names)

    def diag(
        self,
        X: ArrayLike,
        *,
        check_input: bool = True,
        overflow: str = "raise",
        names: str = "'X'",
    ) -> np.ndarray:
        """The diagonal ``k(x_i, x_i)`` without the full Gram matrix
        (`check_input`, `overflow` and `names` as in :meth:`block`)."""
        if check_input:
            X = check_array_2d(X, "X")
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            d = self._diag(X)
        return self._checked(d, overflow, names)

    def gradient(
        self,
        Z: ArrayLike,
        X: ArrayLike,
        weights: ArrayLike | None = None,
        *,
        check_input: bool = True,
        overflow: str = "raise",
    ) -> np.ndarray:
        """Gradient of ``k(z, x_i)`` in z.

        Parameters
        ----------
        Z : array of shape (m, d)
            Points at which the gradient is taken.
        X : array of shape (n, d)
            Second arguments.
        weights : array of shape (m, n), optional
            If given, return ``G_j = Σ_i weights_ji ∇_z k(z_j, x_i)``, shape (m, d),
            computed without the (m, n, d) tensor. Otherwise return the full
            gradient ``∇_z k(z_j, x_i)`` of shape (m, n, d).
        check_input, overflow
            As in :meth:`block`; gradients are always scanned (extreme
            weights overflow even a bounded kernel's).
        """
        self._require_gradient()
        if check_input:
            Z = check_array_2d(Z, "Z")
            X = check_array_2d(X, "X", n_features=Z.shape[1])
            if weights is not None:
                weights = check_real_array(weights, "weights")
                if weights.shape != (Z.shape[0], X.shape[0]):
                    raise ValueError(
                        f"'weights' must have shape {(Z.shape[0], X.shape[0])} "
                        f"(n_points, n_support), got {weights.shape}"
                    )
        with np.errstate(over="ignore", invalid="ignore"):
            G = self._gradient(Z, X, weights)  # type: ignore[attr-defined]  # subclasses have it
        if overflow == "ignore":
            return G
        names = "'Z' and 'X'" if weights is None else "'Z', 'X' and 'weights'"
        return _refuse_overflow(G, self, "gradients", names)

    def diag_gradient(
        self, Z: ArrayLike, *, check_input: bool = True, overflow: str = "raise"
    ) -> np.ndarray:
        """Gradient of ``k(z, z)`` in z, shape (m, d) (`check_input` and
        `overflow` as in :meth:`gradient`)."""
        self._require_gradient()
        if check_input:
            Z = check_array_2d(Z, "Z")
        with np.errstate(over="ignore", invalid="ignore"):
            G = self._diag_gradient(Z)
        return G if overflow == "ignore" else _refuse_overflow(G, self, "gradients", "'Z'")

    def _inputs(self, X: Any, Y: Any, check_input: bool) -> tuple[np.ndarray, np.ndarray]:
        if check_input:
            X = check_array_2d(X, "X")
            return X, (X if Y is None else check_array_2d(Y, "Y", n_features=X.shape[1]))
        return X, (X if Y is None else Y)

    def _checked(self, values, overflow, names):
        """`values` as computed, or refused when they overflowed (see :meth:`block`)."""
        if overflow not in ("raise", "ignore"):
            raise ValueError(f"'overflow' must be 'raise' or 'ignore', got {overflow!r}")
        if overflow == "ignore" or not self.may_overflow:
            return values
        return _refuse_overflow(values, self, "kernel values", names)

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The kernel parameters as a dict (the dataclass fields)."""
        fields = dataclasses.fields(self)  # type: ignore[arg-type]  # subclasses are dataclasses
        return {f.name: getattr(self, f.name) for f in fields}

    # -- defaults for subclasses ----------------------------------------------
    def _block(self, X, Y):  # pragma: no cover - abstract
        raise NotImplementedError

    def _diag(self, X):
        return np.array([self._block(x[None], x[None])[0, 0] for x in X])

    def _require_gradient(self):
        if not self.differentiable:
            raise NotImplementedError(
                f"{type(self).__name__} has no gradient in its input; use a "
                "pre-image method that does not need one"
            )

    def _diag_gradient(self, Z):  # stationary kernels: k(z, z) is constant
        if self.stationary:
            return np.zeros_like(Z)
        raise NotImplementedError


def _set_params(kernel, **params):
    """Store validated parameters on a frozen dataclass as plain Python
    numbers (a NumPy float32 width would otherwise make every product with it
    float32)."""
    for name, value in params.items():
        object.__setattr__(kernel, name, value)


def _in_dtype_of(out, t):
    """`out` in the floating dtype of `t` (float32 stays float32)."""
    dtype = getattr(t, "dtype", np.dtype(np.float64))
    return out.astype(dtype if dtype.kind == "f" else np.float64, copy=False)


def _refuse_overflow(out, kernel, what, names):
    """Refuse a result that is not finite for finite input: its true value
    lies beyond the largest float."""
    return refuse_overflow(
        out,
        f"the {what} of {kernel!r}",
        names,
        "rescale the data (e.g. with sklearn.preprocessing."
        "StandardScaler) or choose milder kernel parameters",
    )


def _check_inverse(out, kernel, name):
    """Refuse an inverse map whose answer overflowed (an extreme width)."""
    return refuse_overflow(
        out,
        f"the input-space answers of the inverse of {kernel!r}",
        f"{name!r}",
        "the kernel's 'gamma' is too extreme for them",
    )


def _warn_clipped(n_bad, what, interval, kernel):
    """Warn, at the user's call, that `n_bad` values were clipped."""
    if n_bad:
        warn(
            f"{n_bad} {what} outside {interval}, where {type(kernel).__name__} "
            "cannot be inverted, were clipped to the nearest valid value",
            NumericalWarning,
        )


class RadialKernel(Kernel):
    """Kernels of the form ``k(x, y) = f(‖x − y‖²)``.

    Subclasses define the profile ``f`` (:meth:`profile`), its derivative
    ``f'`` and its inverse. The gradient in z is
    ``∇_z k(z, x) = 2 f'(‖z − x‖²) (z − x)``, so a weighted sum of gradients is
    two matrix products. Since ``k(x, x) = f(0)``,

        ‖φ(x) − φ(y)‖² = 2 f(0) − 2 f(‖x − y‖²),

    which :meth:`distance2_from_feature_distance2` inverts (Kwok & Tsang 2003).
    """

    stationary = True

    def profile(self, r2: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        """``f(r²)`` elementwise, at squared distances `r2`."""
        raise NotImplementedError

    def profile_derivative(self, r2: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        """``f'(r²)`` elementwise, at squared distances `r2`."""
        raise NotImplementedError

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        """``f⁻¹`` elementwise, for values inside the range of f (no clipping,
        no check: see :meth:`distance2_from_value` for the checked map)."""
        raise NotImplementedError

    #: The open interval of kernel values f maps onto (for clipping).
    value_range = (0.0, 1.0)

    def _block(self, X, Y):
        return self.profile(scaled_squared_distances(X, Y))

    def _diag(self, X):
        return np.full(X.shape[0], self.profile(np.zeros(1, dtype=X.dtype))[0])

    def block_and_derivative(self, Z: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``f(‖z − x‖²)`` and ``f'(‖z − x‖²)`` for all pairs, from one distance
        block: the two things a fixed-point step needs.

        For validated Z and X (no checks: values beyond the float range come
        back as they are, which the fixed point treats as a failed step).
        """
        r2 = scaled_squared_distances(Z, X)
        return self.profile(r2), self.profile_derivative(r2)

    def _gradient(self, Z, X, weights):
        D = self.profile_derivative(scaled_squared_distances(Z, X))
        if weights is None:
            return 2 * D[:, :, None] * (Z[:, None, :] - X[None, :, :])
        W = D * weights
        return 2 * (W.sum(axis=1)[:, None] * Z - W @ X)

    def distance2_from_value(self, values: ArrayLike) -> np.ndarray:
        """Squared input distance ``‖x − y‖² = f⁻¹(k(x, y))``.

        Values outside the range of f (rounding, or an expansion that is no
        kernel value at all) are clipped into it with a NumericalWarning.
        """
        return self._clipped_inverse(check_real_array(values, "values"), "values")

    def _clipped_inverse(self, values, name):
        lo, hi = self.value_range
        tiny = np.finfo(float).tiny
        bad = (values <= lo) | (values > hi)
        _warn_clipped(int(bad.sum()), "kernel values", f"({lo}, {hi}]", self)
        with np.errstate(over="ignore"):  # an overflow is refused just below
            out = self.inverse_profile(np.clip(values, lo + tiny, hi))
        return _check_inverse(out, self, name)

    def distance2_from_feature_distance2(self, d2: ArrayLike) -> np.ndarray:
        """Squared input distance from a squared feature-space distance.

        Inverts ``‖φ(x) − φ(y)‖² = 2 f(0) − 2 f(‖x − y‖²)``; for the Gaussian
        ``exp(−γ r²)`` this is ``r² = −ln(1 − d̃²/2)/γ`` (Kwok & Tsang 2003,
        valid for ``d̃² < 2``, larger values are clipped with a warning).
        """
        d2 = check_real_array(d2, "d2")
        f0 = float(self.profile(np.zeros(1))[0])
        return self._clipped_inverse(f0 - d2 / 2, "d2")


class DotProductKernel(Kernel):
    """Kernels of the form ``k(x, y) = f(⟨x, y⟩)``.

    The gradient is ``∇_z k(z, x) = f'(⟨z, x⟩) x``; ``k(z, z) = f(‖z‖²)`` has
    gradient ``2 f'(‖z‖²) z``. Where f is invertible,
    :meth:`inner_product_from_value` gives back ``⟨x, y⟩`` — the basis of
    Schölkopf et al.'s exact pre-image (1999, Prop. 2).
    """

    #: f is invertible on the whole real line (odd polynomial, sigmoid, linear).
    invertible = True

    def profile(self, t: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def profile_derivative(self, t: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _block(self, X, Y):
        G = X @ Y.T
        return map_rows_inplace(self._profile_inplace, G)

    def _profile_inplace(self, block):
        block[...] = self.profile(block)

    def _diag(self, X):
        return self.profile(squared_norms(X))

    def block_and_derivative(self, Z: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``f(⟨z, x⟩)`` and ``f'(⟨z, x⟩)`` for all pairs, from one product
        (for validated Z and X, unchecked, as in
        :meth:`RadialKernel.block_and_derivative`)."""
        t = Z @ X.T
        return self.profile(t), self.profile_derivative(t)

    def _gradient(self, Z, X, weights):
        D = self.profile_derivative(Z @ X.T)
        if weights is None:
            return D[:, :, None] * X[None, :, :]
        return (D * weights) @ X

    def _diag_gradient(self, Z):
        return 2 * self.profile_derivative(squared_norms(Z))[:, None] * Z

    def inner_product_from_value(self, values: ArrayLike) -> np.ndarray:
        """Input inner product ``⟨x, y⟩ = f⁻¹(k(x, y))``.

        Values outside the range of f are clipped with a NumericalWarning.
        Where f is not invertible on the whole line (even-degree polynomials,
        see :attr:`invertible`), one branch is returned, as the kernel class
        documents.
        """
        values = check_real_array(values, "values")
        with np.errstate(over="ignore"):  # an overflow is refused just below
            out = self.inverse_profile(values)
        return _check_inverse(out, self, "values")

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        """``f⁻¹`` elementwise (unchecked; see :meth:`inner_product_from_value`)."""
        raise NotImplementedError
