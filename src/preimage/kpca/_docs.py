"""Parameter entries shared by the docstrings of the kernel PCA estimators
(SciPy's ``doccer`` pattern): a line ``%(name)s`` of a docstring decorated by
:func:`fill_doc` becomes the entry `name`, indented as the line."""

import functools

from preimage.solvers._docs import fill_doc as fill_solver_doc, sections

_TEXT = r"""
@kernel_parameters
degree : int, default=3
    Degree of the polynomial kernel.
coef0 : float, default=1
    Constant of the polynomial and sigmoid kernels.
kernel_params : dict, default=None
    Extra parameters of a callable kernel or a kernel class (the sine
    kernel's order N: ``{"order": N}``).
@eigen_solver
eigen_solver : {"auto", "dense", "arpack", "randomized"}, default="auto"
    Solver of the q leading eigenpairs: ``"auto"`` is scikit-learn's rule
    (ARPACK for fewer than 10 components of more than 200 points, else
    dense); ``"dense"`` is exact (Lanczos to machine precision where
    :math:`q \le n/20`, :math:`n \ge 1000`, else LAPACK); ``"randomized"``
    is approximate, and fast for a few components of many points.
@n_landmarks
n_landmarks : int, default=None
    None: exact kernel PCA on the Gram matrix of shape (n, n). An int m:
    Nyström kernel PCA (:func:`~preimage.kpca.fit_nystroem_kpca`) over m
    landmarks, in :math:`O(nmd + nm^2 + m^3)` time and :math:`O(nd + m^2)`
    memory; the axes and projections are expansions over the landmarks, so
    every pre-image method works on them.
@landmarks
landmarks : {"uniform", "kmeans", "leverage"}, default="uniform"
    How the m landmarks are chosen, with `random_state`: uniformly, as
    k-means centres, or by ridge leverage scores.
@method
method : str, default="fixed_point"
    Pre-image method, any of :data:`preimage.PREIMAGE_METHODS`. Iterative
    methods start at the noisy input.
add_mean : bool, default=False
    Pre-image of the principal part
    :math:`\sum_k \langle V_k, \phi(x) \rangle V_k` (False) or of the
    reconstruction with the feature-space mean :math:`P\tilde\phi(x) + \mu`
    (True). On bundled MNIST (2,000 train, 500 test, Gaussian noise
    :math:`\sigma = 0.5`, width 6, 100 components) the fixed point reaches
    MSE 15.4 without the mean and 56.1 with it: the mean pulls every
    pre-image toward the average digit.
@correction
correction : {"ridge"} or None, default=None
    None: the pre-image is the output. ``"ridge"``: the pre-image z of a
    noisy x is corrected by a ridge regression
    :math:`\hat x = z + W_z z + W_x x + b` fitted on out-of-fold pre-images of
    the training pairs (the learned map of Bakır et al. (2004) with the
    noisy input as a second feature; :mod:`preimage.denoising._correction`),
    its strength (and neighbourhood size) chosen on those folds. It needs
    clean targets, ``fit(X_noisy, y=X_clean)``.
@image_shape
image_shape : (int, int), default=None
    The shape (h, w) of the images the rows hold, for the correction: each
    pixel is then corrected from the :math:`k \times k` neighbourhoods of
    the pre-image and the noisy input around it by one filter shared by every pixel
    (k among 1, 3, 5, 7), instead of a :math:`d \times 2d` map.
"""
PARAMETERS = sections(_TEXT)


#: `obj` with each docstring line ``%(name)s`` replaced by ``PARAMETERS[name]``.
fill_doc = functools.partial(fill_solver_doc, docs=PARAMETERS)
