"""The kernel protocol: subclasses implement ``_block``, ``_gradient`` and ``_diag_gradient``."""

from collections.abc import Iterator
import dataclasses
from typing import Any

import numpy as np

from preimage._utils.blocks import row_chunks
from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, check_overflow, check_real_array
from preimage._utils.warnings import warn
from preimage._utils.xp import check_xp_2d, namespace, refuse
from preimage.exceptions import NumericalWarning
from preimage.kernels._docs import fill


@fill
class Kernel:
    r"""Base class of the kernels on numeric vectors.

    A kernel is the inner product of the images of two inputs under a feature
    map :math:`\phi`:

    .. math:: k(x, y) = \langle \phi(x), \phi(y) \rangle.

    Subclasses are frozen dataclasses whose fields are the kernel parameters.

    References
    ----------
    Mika et al. (1999), Sec. 1.
    Schölkopf et al. (1999), Sec. II.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import LinearKernel
    >>> k = LinearKernel()
    >>> X = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> k.diag(X)  # 1 + 4, 9 + 16
    array([ 5., 25.])
    >>> k.gradient(X[:1], X)  # the gradient of <z, x_i> in z is x_i
    array([[[1., 2.],
            [3., 4.]]])
    """

    #: ``k(x, x)`` is the same for every x (true for radial kernels).
    stationary = False
    #: The kernel has a gradient in its first argument.
    differentiable = True
    #: Kernel values can overflow for finite input: public blocks then refuse them.
    may_overflow = False
    #: Field name to its check ``check(value, name)``, whose answer is stored.
    _checks: dict = {}

    def __post_init__(self):
        for name, check in self._checks.items():
            object.__setattr__(self, name, check(getattr(self, name), name))

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
        %(XY)s
        %(check_input)s
        %(overflow)s
            Bounded kernels (Gaussian, Laplacian, sigmoid) are not scanned.
        %(names)s

        Returns
        -------
        ndarray of shape (n_x, n_y)
            The kernel values, in the floating dtype of the input.
        """
        xp = namespace(X, Y)
        if xp is not None:
            A, B = self._xp_inputs(X, Y, check_input, xp)
            return self._xp_block(A, B, xp)
        X, Y, names = self._inputs(X, Y, check_input, names)
        return self._evaluate(overflow, names, self._block, X, Y)

    __call__ = block

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

        Parameters
        ----------
        %(XY)s
        working_memory : float, optional
            The largest chunk, in MiB; by default scikit-learn's setting.
        %(check_input)s
        %(overflow)s
        %(names)s

        Yields
        ------
        rows : slice
            The rows of `X` in the chunk.
        K : ndarray of shape (n_rows, n_y)
            Their Gram block, ``self.block(X[rows], Y)``.
        """
        xp = namespace(X, Y)
        if xp is not None:
            A, B = self._xp_inputs(X, Y, check_input, xp)
            row_bytes = B.shape[0] * xp.finfo(A.dtype).bits // 8
            for rows in row_chunks(A.shape[0], row_bytes, working_memory):
                yield rows, self._xp_block(A[rows, ...], B, xp)
            return
        X, Y, names = self._inputs(X, Y, check_input, names)
        row_bytes = Y.shape[0] * np.result_type(X, Y).itemsize
        for rows in row_chunks(X.shape[0], row_bytes, working_memory):
            yield rows, self._evaluate(overflow, names, self._block, X[rows], Y)

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
        %(check_input)s
        %(overflow)s
        %(names)s

        Returns
        -------
        ndarray of shape (n,)
            The values :math:`k(x_i, x_i)`.
        """
        xp = namespace(X)
        if xp is not None:
            return self._xp_diag(check_xp_2d(X, "X", xp) if check_input else X, xp)
        X = check_array_2d(X, "X") if check_input else X
        return self._evaluate(overflow, names, self._diag, X)

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
        %(Z)s
        X : array-like of shape (n, d)
            Second arguments.
        weights : array-like of shape (m, n), optional
            If given, return :math:`G_j = \sum_i w_{ji} \nabla_z k(z_j, x_i)`.
        %(check_input)s
        %(overflow)s
            Gradients are always scanned.

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
        names = "'Z' and 'X'" if weights is None else "'Z', 'X' and 'weights'"
        G = self._gradient  # type: ignore[attr-defined]  # subclasses have it
        return self._evaluate(overflow, names, G, Z, X, weights, what="gradients")

    def diag_gradient(
        self, Z: ArrayLike, *, check_input: bool = True, overflow: str = "raise"
    ) -> np.ndarray:
        """Return the gradient of :math:`k(z, z)` in z.

        Parameters
        ----------
        %(Z)s
        %(check_input)s
        %(overflow)s

        Returns
        -------
        ndarray of shape (m, d)
            The gradient at each point (zero for stationary kernels).
        """
        self._require_gradient()
        Z = check_array_2d(Z, "Z") if check_input else Z
        return self._evaluate(overflow, "'Z'", self._diag_gradient, Z, what="gradients")

    def _inputs(
        self, X: Any, Y: Any, check_input: bool, names: str | None
    ) -> tuple[np.ndarray, np.ndarray, str]:
        """`X` and `Y` (`X` when None), checked, and the arguments an overflow is blamed on."""
        X = check_array_2d(X, "X") if check_input else X
        Y = X if Y is None else check_array_2d(Y, "Y", n_features=X.shape[1]) if check_input else Y
        return X, Y, names or ("'X'" if Y is X else "'X' and 'Y'")

    def _xp_inputs(self, X, Y, check_input, xp):
        """`X` and `Y` (`X` when None) of namespace `xp`, checked."""
        X = check_xp_2d(X, "X", xp) if check_input else X
        if Y is None:
            return X, X
        return X, check_xp_2d(Y, "Y", xp, n_features=X.shape[1]) if check_input else Y

    def _xp_block(self, X, Y, xp):
        """The Gram block in the namespace `xp` of the inputs, on their device."""
        raise refuse(f"{type(self).__name__}", xp)

    def _xp_diag(self, X, xp):
        """The diagonal in the namespace `xp` of the input, on its device."""
        raise refuse(f"{type(self).__name__}", xp)

    def _evaluate(self, overflow, names, func, *args, what="kernel values"):
        """``func(*args)``, refused if it overflowed (gradients are always scanned)."""
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            values = func(*args)
        if overflow not in ("raise", "ignore"):
            raise ValueError(f"'overflow' must be 'raise' or 'ignore', got {overflow!r}")
        if overflow == "ignore" or not (self.may_overflow or what == "gradients"):
            return values
        return check_overflow(values, f"the {what} of {self!r}", names, _RESCALE)

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """Return the kernel parameters (the dataclass fields) as a dict.

        Parameters
        ----------
        deep : bool, default=True
            Ignored; scikit-learn's signature.

        Returns
        -------
        dict
            Field name to value.
        """
        fields = dataclasses.fields(self)  # type: ignore[arg-type]  # subclasses are dataclasses
        return {f.name: getattr(self, f.name) for f in fields}

    def _block(self, X, Y):  # pragma: no cover - abstract
        raise NotImplementedError

    def _diag(self, X):
        return np.array([self._block(X[i : i + 1], X[i : i + 1])[0, 0] for i in range(X.shape[0])])

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


@fill
class ProfileKernel(Kernel):
    """Base of the kernels :math:`f(t)` of a profile f of an argument t (an inner
    product or a squared distance): subclasses define ``_argument(X, Y)``."""

    def profile(self, t: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        """Return the profile :math:`f(t)` elementwise.
        %(t_any)s
        """
        raise NotImplementedError

    def profile_derivative(self, t: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        """Return the derivative :math:`f'(t)` of the profile elementwise.
        %(t_any)s
        """
        raise NotImplementedError

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        """Return :math:`f^{-1}(k)` elementwise, unchecked (values outside the range of f).
        %(k)s
        """
        raise NotImplementedError

    def _xp_profile(self, t, xp):
        """f(t) in the namespace `xp` of t (the kernels with a device path)."""
        raise refuse(f"{type(self).__name__}", xp)

    _xp_derivative = _xp_profile  # f'(t), likewise

    def block_and_derivative(self, Z: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return :math:`f(t)` and :math:`f'(t)` from one block of arguments t.
        %(ZX)s
        """
        t = self._argument(Z, X)  # type: ignore[attr-defined]  # subclasses have it
        return self.profile(t), self.profile_derivative(t)


def _in_dtype(out, t):
    """`out` in the floating dtype of `t` (float32 stays float32)."""
    dtype = getattr(t, "dtype", np.dtype(np.float64))
    return out.astype(dtype if dtype.kind == "f" else np.float64, copy=False)


_RESCALE = (
    "rescale the data (e.g. with sklearn.preprocessing.StandardScaler) or choose milder "
    "kernel parameters"
)


def _inverse(kernel, values, name, inverse, lo=-np.inf, hi=np.inf):
    """``inverse`` of `values` clipped into ``(lo, hi]`` (warned of if any were not),
    refused if the answer overflowed (an extreme width)."""
    values = check_real_array(values, name)
    n_bad = int(((values <= lo) | (values > hi)).sum())
    _warn_clipped(n_bad, "kernel values", f"({lo}, {hi}]", kernel)
    with np.errstate(over="ignore"):  # an overflow is refused just below
        out = inverse(np.clip(values, lo + np.finfo(float).tiny, hi))
    what = f"the input-space answers of the inverse of {kernel!r}"
    return check_overflow(out, what, f"{name!r}", "the kernel's 'gamma' is too extreme for them")


def _warn_clipped(n_bad, what, interval, kernel):
    """Warn, at the user's call, that `n_bad` values were clipped."""
    if n_bad:
        warn(
            f"{n_bad} {what} outside {interval}, where {type(kernel).__name__} "
            "cannot be inverted, were clipped to the nearest valid value",
            NumericalWarning,
        )
