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
its derivative and, where it exists, its inverse. This module turns the
former into the protocol and holds the helpers the kernel modules share;
the bases of the two families, ``RadialKernel`` (in ``_radial``) and
``DotProductKernel`` (in ``_dot``), turn profiles into blocks, gradients and
inverse maps.
"""

from __future__ import annotations

from collections.abc import Iterator
import dataclasses
from typing import Any

import numpy as np

from preimage._utils.blocks import row_chunks
from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, check_real_array, refuse_overflow
from preimage._utils.warnings import warn
from preimage.exceptions import NumericalWarning

__all__ = ["Kernel"]


class Kernel:
    r"""Base class of the kernels on numeric vectors.

    A kernel is the inner product of the images of two inputs under a feature
    map :math:`\phi`:

    .. math:: k(x, y) = \langle \phi(x), \phi(y) \rangle.

    Every kernel object gives its Gram block (:meth:`block`, also
    ``kernel(X, Y)``), in row chunks of bounded memory (:meth:`blocks`), its
    diagonal (:meth:`diag`) and, where it has one, its gradient in the first
    argument (:meth:`gradient`, :meth:`diag_gradient`): the protocol every
    pre-image method uses.

    Subclasses are frozen dataclasses whose fields are the kernel parameters;
    they implement :meth:`_block` (and, where defined, :meth:`_gradient` and
    :meth:`_diag_gradient`) on validated 2-D arrays.

    References
    ----------
    S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz and G. Rätsch,
    "Kernel PCA and de-noising in feature spaces", Advances in Neural
    Information Processing Systems 11, 1999, Sec. 1.

    B. Schölkopf, S. Mika, C. J. C. Burges, P. Knirsch, K.-R. Müller,
    G. Rätsch and A. J. Smola, "Input space versus feature space in
    kernel-based methods", IEEE Trans. Neural Networks 10(5), 1999, Sec. II.

    Examples
    --------
    The linear kernel, whose feature map is the identity:

    >>> import numpy as np
    >>> from preimage.kernels import LinearKernel
    >>> k = LinearKernel()
    >>> X = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> k.block(X)  # 1 + 4, 3 + 8, 9 + 16
    array([[ 5., 11.],
           [11., 25.]])
    >>> k.diag(X)
    array([ 5., 25.])
    >>> k.gradient(X[:1], X)  # the gradient of <z, x_i> in z is x_i
    array([[[1., 2.],
            [3., 4.]]])
    """

    #: ``k(x, x)`` is the same for every x (true for radial kernels).
    stationary = False
    #: The kernel has a gradient in its first argument.
    differentiable = True
    #: Kernel values can overflow for finite input (a polynomial of large data).
    #:
    #: Public Gram blocks are then checked, and refused with a ValueError
    #: naming the input, instead of holding inf.
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
        """Return the Gram block :math:`K_{ij} = k(x_i, y_j)`.

        Parameters
        ----------
        X : array-like of shape (n_x, d)
            The first arguments, one per row.
        Y : array-like of shape (n_y, d), default=None
            The second arguments, one per row; None means `X`.
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

        Returns
        -------
        ndarray of shape (n_x, n_y)
            The kernel values, in the floating dtype of the input.
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
        """Yield the Gram block of `X` and `Y` in chunks of rows of `X`.

        Chunks hold at most `working_memory` MiB (scikit-learn's setting by
        default), so a reduction over a large Gram matrix needs bounded memory.

        Parameters
        ----------
        X : array-like of shape (n_x, d)
            The first arguments, one per row.
        Y : array-like of shape (n_y, d), default=None
            The second arguments, one per row; None means `X`.
        working_memory : float, optional
            The largest chunk, in MiB; by default scikit-learn's
            ``working_memory`` setting.
        check_input : bool, default=True
            Validate X and Y, as in :meth:`block`.
        overflow : {"raise", "ignore"}, default="raise"
            What to do with kernel values beyond the float range, as in
            :meth:`block`.
        names : str, optional
            The arguments an overflow is blamed on, as in :meth:`block`.

        Yields
        ------
        rows : slice
            The rows of `X` in the chunk.
        K : ndarray of shape (n_rows, n_y)
            Their Gram block, ``self.block(X[rows], Y)``.
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
        """Return the diagonal :math:`k(x_i, x_i)` without the Gram matrix.

        Parameters
        ----------
        X : array-like of shape (n, d)
            The inputs, one per row.
        check_input : bool, default=True
            Validate `X`, as in :meth:`block`.
        overflow : {"raise", "ignore"}, default="raise"
            What to do with kernel values beyond the float range, as in
            :meth:`block`.
        names : str, default="'X'"
            The arguments an overflow is blamed on.

        Returns
        -------
        ndarray of shape (n,)
            The values :math:`k(x_i, x_i)`.
        """
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
        r"""Return the gradient of :math:`k(z, x_i)` in z, or its weighted sum.

        Parameters
        ----------
        Z : array-like of shape (m, d)
            Points at which the gradient is taken.
        X : array-like of shape (n, d)
            Second arguments.
        weights : array-like of shape (m, n), optional
            If given, return the weighted sums
            :math:`G_j = \sum_i w_{ji} \nabla_z k(z_j, x_i)`, computed without
            the (m, n, d) tensor. Otherwise return the full gradient
            :math:`\nabla_z k(z_j, x_i)`.
        check_input : bool, default=True
            Validate `Z`, `X` and `weights`, as in :meth:`block`.
        overflow : {"raise", "ignore"}, default="raise"
            What to do with gradients beyond the float range, as in
            :meth:`block`; gradients are always scanned (extreme weights
            overflow even a bounded kernel's).

        Returns
        -------
        ndarray of shape (m, d) or (m, n, d)
            The weighted sums (with `weights`) or the full gradient (without).
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
        """Return the gradient of :math:`k(z, z)` in z.

        Parameters
        ----------
        Z : array-like of shape (m, d)
            Points at which the gradient is taken.
        check_input : bool, default=True
            Validate `Z`, as in :meth:`gradient`.
        overflow : {"raise", "ignore"}, default="raise"
            What to do with gradients beyond the float range, as in
            :meth:`gradient`.

        Returns
        -------
        ndarray of shape (m, d)
            The gradient at each point; zero for stationary kernels, whose
            :math:`k(z, z)` is constant.
        """
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
        """Return the kernel parameters as a dict.

        Parameters
        ----------
        deep : bool, default=True
            Ignored: a kernel holds no estimators. Accepted for the signature
            of scikit-learn's ``get_params``.

        Returns
        -------
        dict
            The dataclass fields, name to value.
        """
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
