"""The toy string-mapping problem of Bakır et al. (2004), Sec. 4."""

import numpy as np

from preimage._utils.memory import check_dense
from preimage._utils.typing import RandomStateLike
from preimage._utils.validation import check_positive_int, check_probability, check_random_state
from preimage.datasets._docs import fill_doc

#: Input transition matrices of Bakır et al. (2004), Sec. 4, indexed
#: ``[model, output symbol, current input, next input]`` (inputs "a", "b", "c").
KDE_STRING_TRANSITIONS = np.array(
    [
        [  # Model 1
            [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]],  # output 1
            [[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.0, 1.0, 0.0]],  # output 2
        ],
        [  # Model 2
            [[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5]],  # output 1
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]],  # output 2
        ],
    ]
)

_INPUT_ALPHABET = np.array(list("abc"))
_OUTPUT_ALPHABET = np.array(list("12"))


@fill_doc
def make_kde_strings(
    n_samples: int = 50,
    *,
    min_length: int = 10,
    max_length: int = 20,
    switch_probability: float = 0.2,
    random_state: RandomStateLike = None,
) -> tuple[list[str], list[str], np.ndarray]:
    """Generate the paired strings of Bakır et al.'s KDE string experiment.

    An output string starts uniformly in 1 or 2 and switches state with
    probability :math:`q` at each step; its input string, of a uniformly drawn
    model, starts uniformly and follows the transition matrix ``KDE_STRING_TRANSITIONS``:

    .. math:: P(y_{t+1} \\ne y_t) = q, \\qquad
              P(x_{t+1} = j \\mid x_t = i, y_t, m) = T^{(m, y_t)}_{ij}.

    Parameters
    ----------
    n_samples : int, default=50
        Number of (input, output) string pairs (the paper uses 50).
    min_length, max_length : int, default=10, 20
        Each pair's length is drawn uniformly from the integers
        ``min_length, ..., max_length`` (both included).
    switch_probability : float, default=0.2
        Probability that the output state switches at each step (the paper's
        1/5).
    %(random_state)s

    Returns
    -------
    X : list of str
        Input strings over ``"abc"``.
    Y : list of str
        Output strings over ``"12"``, with ``len(Y[i]) == len(X[i])``.
    model : ndarray of shape (n_samples,), int64
        The model that generated each input string: 0 for the paper's Model 1,
        1 for Model 2.

    References
    ----------
    Bakır et al. (2004), Sec. 4.

    Examples
    --------
    >>> from preimage.datasets import make_kde_strings
    >>> X, Y, model = make_kde_strings(5, random_state=0)
    >>> set("".join(X)) <= set("abc"), set("".join(Y)) <= set("12")
    (True, True)
    """
    n_samples = check_positive_int(n_samples, "n_samples")
    min_length = check_positive_int(min_length, "min_length")
    max_length = check_positive_int(max_length, "max_length")
    if min_length > max_length:
        raise ValueError(
            f"'min_length' must be <= 'max_length', got min_length="
            f"{min_length!r} and max_length={max_length!r}"
        )
    switch_probability = check_probability(switch_probability, "switch_probability")
    rng = check_random_state(random_state)
    what = f"the {n_samples} x {max_length} array of symbols"
    hint = "ask for fewer 'n_samples' or a smaller 'max_length'"
    check_dense((n_samples, max_length), np.int64, what, hint=hint, copies=4)

    n, L = n_samples, max_length
    lengths = rng.integers(min_length, max_length + 1, size=n)
    model = rng.integers(0, 2, size=n)

    # Outputs: y_0 uniform; y_t flips the state at every switch before t.
    y0 = rng.integers(0, 2, size=n)
    switches = rng.random((n, L - 1)) < switch_probability
    y = (y0[:, None] + np.pad(np.cumsum(switches, axis=1), ((0, 0), (1, 0)))) % 2

    # Inputs: x_{t+1} = the first j with u < Σ_{j' ≤ j} T[m, y_t, x_t, j'], that
    # is, the number of cumulative probabilities (of the first two states) <= u.
    cumulative = np.cumsum(KDE_STRING_TRANSITIONS, axis=-1)[..., :2]
    x = np.empty((n, L), dtype=np.int64)
    x[:, 0] = rng.integers(0, 3, size=n)
    u = rng.random((n, L - 1))
    for t in range(L - 1):
        c = cumulative[model, y[:, t], x[:, t]]  # (n, 2)
        x[:, t + 1] = (u[:, t, None] >= c).sum(axis=1)

    X = ["".join(_INPUT_ALPHABET[x[i, : lengths[i]]]) for i in range(n)]
    Y = ["".join(_OUTPUT_ALPHABET[y[i, : lengths[i]]]) for i in range(n)]
    return X, Y, model.astype(np.int64)
