from ._candidates import CandidateDecoder, nearest_coordinates
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
from ._strings import string_preimage_features, symbol_accuracy, window_features

__all__ = [
    "DECODERS",
    "REGRESSIONS",
    "CandidateDecoder",
    "KDEResult",
    "KernelDependencyEstimator",
    "PreimageDecoder",
    "WindowDecoder",
    "fit_kde",
    "kde_regression",
    "make_decoder",
    "nearest_coordinates",
    "output_coordinates",
    "predict_coordinates",
    "string_preimage_features",
    "symbol_accuracy",
    "window_features",
]
