from array import array
from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy as np

#: What the kernel reads or writes in place (C-contiguous, of the item size each argument says).
Buffer: TypeAlias = bytes | bytearray | memoryview | array[Any] | np.ndarray[Any, Any]

class Scorer:
    """A hand's card indices -> its strength, from a rule set's tables."""

    def __init__(
        self,
        codes: Sequence[int],
        lookup: Buffer,
        space: int,
        shift: int,
        mask: int,
        *,
        best: bool = ...,
        symbols: int = ...,
        symbol: Sequence[int] | None = ...,
        suit: Sequence[int] | None = ...,
        rank_bit: Sequence[int] | None = ...,
        trans: Buffer | None = ...,
        final: Buffer | None = ...,
        flush: Buffer | None = ...,
    ) -> None: ...
    def __call__(self, hand: Sequence[int], /) -> int: ...
    def rows(self, hands: Buffer, out: Buffer, k: int, /) -> None: ...
    def count(self, deck: Buffer, firsts: Sequence[int], k: int, counts: Buffer, /) -> None: ...
