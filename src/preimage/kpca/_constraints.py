"""Parameter constraints shared by the estimators (scikit-learn's
``_parameter_constraints``): the kernel given by name, object or callable,
with its width, degree and constant, and the Nyström landmarks."""

from numbers import Integral, Real

from sklearn.utils._param_validation import Interval, StrOptions

from preimage.kernels import KERNELS, Kernel
from preimage.kpca._nystroem import LANDMARK_METHODS

#: A kernel by name (:data:`preimage.kernels.KERNELS`), as a kernel object or as
#: a callable on pairs of samples, and the parameters of kernels given by name.
KERNEL_CONSTRAINTS = {
    "kernel": [StrOptions(set(KERNELS)), Kernel, callable],
    "gamma": [Interval(Real, 0, None, closed="neither"), None],
    "degree": [Interval(Integral, 0, None, closed="left")],
    "coef0": [Interval(Real, None, None, closed="neither")],
    "kernel_params": [dict, None],
}

#: Nyström kernel PCA over `n_landmarks` landmarks chosen by `landmarks`.
LANDMARK_CONSTRAINTS = {
    "n_landmarks": [Interval(Integral, 1, None, closed="left"), None],
    "landmarks": [StrOptions(set(LANDMARK_METHODS))],
}
