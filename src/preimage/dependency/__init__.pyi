from ._base import Decoder
from ._candidates import CandidateDecoder, nearest_coordinates
from ._data import OutputSpace, check_outputs, data_kind, resolve_kernel
from ._decoders import DECODERS, PreimageDecoder, WindowDecoder, make_decoder
from ._estimator import KernelDependencyEstimator
from ._fit import (
    REGRESSIONS,
    KDEResult,
    fit_kde,
    kde_regression,
    output_coordinates,
    predict_coordinates,
)
from ._strings import (
    check_equal_lengths,
    check_sequences,
    string_preimage_features,
    symbol_accuracy,
    window_features,
)

__all__ = [
    "DECODERS",
    "REGRESSIONS",
    "CandidateDecoder",
    "Decoder",
    "KDEResult",
    "KernelDependencyEstimator",
    "OutputSpace",
    "PreimageDecoder",
    "WindowDecoder",
    "check_equal_lengths",
    "check_outputs",
    "check_sequences",
    "data_kind",
    "fit_kde",
    "kde_regression",
    "make_decoder",
    "nearest_coordinates",
    "output_coordinates",
    "predict_coordinates",
    "resolve_kernel",
    "string_preimage_features",
    "symbol_accuracy",
    "window_features",
]
