"""The interface of the decoders of kernel dependency estimation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

import numpy as np

from preimage._utils.typing import Sequences

if TYPE_CHECKING:
    from preimage.dependency._data import OutputSpace


class Decoder:
    """Base class of the decoders of :data:`DECODERS`: output coordinates to outputs.

    Made from the user's ``method`` and ``method_params``; ``settings`` names the
    estimator settings its constructor also takes, ``needs_inputs`` whether
    :meth:`decode` needs the inputs.
    """

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

    def fit(self, X: Sequences, Y: Sequences, space: OutputSpace) -> Self:
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
        raise NotImplementedError  # pragma: no cover - abstract

    def decode(self, C: np.ndarray, X: Sequences | None = None) -> list[Any] | np.ndarray:
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
        raise NotImplementedError  # pragma: no cover - abstract
