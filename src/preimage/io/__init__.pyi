from ._data_kinds import DATA_KINDS as DATA_KINDS, DataSource as DataSource
from ._data_read import read_data as read_data
from ._data_write import check_output as check_output, write_data as write_data
from ._model_io import (
    FORMAT as FORMAT,
    FORMAT_VERSION as FORMAT_VERSION,
    load_model as load_model,
    model_info as model_info,
    save_model as save_model,
)
