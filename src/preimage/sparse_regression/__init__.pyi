from ._estimators import SequentialSVR, WienerRegressor
from ._sequential import (
    DEFAULT_RATE_FRACTION,
    SequentialSVRResult,
    dual_objective,
    learning_rates,
    sequential_svr,
)
from ._wiener import DEFAULT_RTOL, WienerState, wiener_coefficients, wiener_update

__all__ = [
    "DEFAULT_RATE_FRACTION",
    "DEFAULT_RTOL",
    "SequentialSVR",
    "SequentialSVRResult",
    "WienerRegressor",
    "WienerState",
    "dual_objective",
    "learning_rates",
    "sequential_svr",
    "wiener_coefficients",
    "wiener_update",
]
