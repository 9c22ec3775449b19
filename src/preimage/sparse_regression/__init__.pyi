from ._estimators import SequentialSVR as SequentialSVR, WienerRegressor as WienerRegressor
from ._sequential import (
    DEFAULT_RATE_FRACTION as DEFAULT_RATE_FRACTION,
    SequentialSVRResult as SequentialSVRResult,
    dual_objective as dual_objective,
    learning_rates as learning_rates,
    sequential_svr as sequential_svr,
)
from ._wiener import (
    DEFAULT_RTOL as DEFAULT_RTOL,
    WienerState as WienerState,
    wiener_coefficients as wiener_coefficients,
    wiener_update as wiener_update,
)
