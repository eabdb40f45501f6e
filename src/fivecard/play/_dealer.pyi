from array import array
from typing import Any, TypeAlias

import numpy as np

#: What the kernel reads or writes in place (C-contiguous, of the item size each argument says).
Buffer: TypeAlias = bytes | bytearray | memoryview | array[Any] | np.ndarray[Any, Any]

class Counts:
    """The hands of a deck that hold each set of at most four positions, by level."""

    def __init__(
        self, n: int, m: int, offsets: Buffer, levels: Buffer, counts: Buffer, fives: Buffer, totals: Buffer
    ) -> None: ...
    def holds(self, deals: Buffer, win: Buffer, draw: Buffer, /) -> None: ...

def subsets(
    rows: Buffer, levels: Buffer, k: int, n: int, offsets: Buffer, out_levels: Buffer, out_counts: Buffer, /
) -> int: ...
