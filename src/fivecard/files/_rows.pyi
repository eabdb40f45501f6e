"""Rows of output joined from columns of pieces, in C (see
:func:`fivecard.files.writers.matrix.join_columns`)."""

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

def join(columns: Sequence[bytes | npt.NDArray[np.object_] | npt.NDArray[np.uint8] | Any], rows: int, /) -> bytes: ...
