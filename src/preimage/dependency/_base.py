"""The interface of the decoders of kernel dependency estimation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

import numpy as np

from preimage._utils.typing import Sequences

if TYPE_CHECKING:
    from preimage.dependency._data import OutputSpace


class Decoder:
    """Base class of decoders: estimated output coordinates to outputs.

    Made from the user's ``method`` and ``method_params``, fitted once on the
    training pairs in their :class:`OutputSpace`, then ``decode(C, X=None)``
    (Bakır et al. 2004, Sec. 2.2).

    Parameters
    ----------
    method : str, classifier, solver or callable
        What the user chose.
    params : dict, default=None
        Its options.

    Attributes
    ----------
    settings : tuple of str
        The settings of :class:`~preimage.KernelDependencyEstimator` the
        constructor also takes (a class attribute).
    needs_inputs : bool
        Whether :meth:`decode` needs the inputs the outputs belong to.

    Examples
    --------
    >>> from preimage.dependency import DECODERS, Decoder
    >>> {name: cls.__name__ for name, cls in DECODERS.items()}
    {'candidates': 'CandidateDecoder', 'knn': 'WindowDecoder'}
    >>> all(issubclass(cls, Decoder) for cls in DECODERS.values())
    True
    """

    # Documented in the docstring's Attributes: a ``#:`` comment would have autodoc
    # render them, and numpydoc validate the docstrings of tuple and bool.
    settings: tuple[str, ...] = ()
    needs_inputs = False

    def __init__(self, method: Any, params: dict[str, Any] | None = None) -> None:
        self.method = method
        self.params = params

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in ("fit", "decode"):  # a subclass's methods are documented here
            method = vars(cls).get(name)
            if method is not None and method.__doc__ is None:
                method.__doc__ = getattr(Decoder, name).__doc__

    def __repr__(self):
        settings = "".join(f", {name}={getattr(self, name)!r}" for name in self.settings)
        return f"{type(self).__name__}({self.method!r}{settings})"

    def fit(
        self, X: Sequences, Y: Sequences, space: OutputSpace
    ) -> Self:  # pragma: no cover - abstract
        """Fit the decoder on the checked training pairs.

        Parameters
        ----------
        X : list or ndarray
            The checked training inputs.
        Y : list or ndarray
            The checked training outputs.
        space : OutputSpace
            The training pairs in the output feature space.

        Returns
        -------
        Decoder
            The fitted decoder.
        """
        raise NotImplementedError

    def decode(
        self, C: np.ndarray, X: Sequences | None = None
    ) -> list[Any] | np.ndarray:  # pragma: no cover - abstract
        """Decode output coordinates into outputs.

        Parameters
        ----------
        C : ndarray of shape (n, r)
            The checked output coordinates.
        X : list or ndarray, default=None
            The checked inputs the outputs belong to, needed when
            ``needs_inputs`` is true.

        Returns
        -------
        list or ndarray
            The :math:`n` outputs, an array for vector outputs.
        """
        raise NotImplementedError
