from ._data_kinds import DATA_KINDS, DataSource
from ._data_read import read_data
from ._data_write import check_output, write_data
from ._model_codec import LOADABLE
from ._model_io import FORMAT, FORMAT_VERSION, load_model, model_info, save_model

__all__ = [
    "DATA_KINDS",
    "FORMAT",
    "FORMAT_VERSION",
    "LOADABLE",
    "DataSource",
    "check_output",
    "load_model",
    "model_info",
    "read_data",
    "save_model",
    "write_data",
]
