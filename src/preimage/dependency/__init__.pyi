from ._candidates import (
    CandidateDecoder as CandidateDecoder,
    nearest_coordinates as nearest_coordinates,
)
from ._decoders import (
    DECODERS as DECODERS,
    PositionDecoder as PositionDecoder,
    PreimageDecoder as PreimageDecoder,
    WindowDecoder as WindowDecoder,
    make_decoder as make_decoder,
)
from ._estimator import KernelDependencyEstimator as KernelDependencyEstimator
from ._fit import (
    REGRESSIONS as REGRESSIONS,
    KDEResult as KDEResult,
    fit_kde as fit_kde,
    kde_regression as kde_regression,
    output_coordinates as output_coordinates,
    predict_coordinates as predict_coordinates,
)
from ._strings import (
    string_preimage_features as string_preimage_features,
    symbol_accuracy as symbol_accuracy,
    window_features as window_features,
)
