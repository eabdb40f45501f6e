from array import array
from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy as np

#: What the kernel reads or writes in place (C-contiguous, of the item size each argument says).
Buffer: TypeAlias = bytes | bytearray | memoryview | array[Any] | np.ndarray[Any, Any]

def kinds(
    codes: Buffer,
    wild: Buffer,
    lookup: Buffer,
    shift: int,
    mask: int,
    space: int,
    entry: Buffer,
    columns: int,
    out: Buffer,
    /,
) -> None:
    """The kind of every five-card set of the deck, in number order."""

def fours(top: Buffer, n: int, kinds: int, out: Buffer, /) -> None:
    """Per four-card set, the five-card sets of each kind holding it."""

def fewer(upper: Buffer, n: int, kinds: int, size: int, out: Buffer, /) -> None:
    """Per set of ``size`` cards, the five-card sets of each kind holding it,
    from the counts of the sets of one card more."""

def holds(
    first: Buffer,
    weight: Buffer,
    tables: Sequence[Buffer],
    top: Buffer,
    n: int,
    pays: Buffer,
    draws: Buffer,
    spread: int,
    best: Buffer,
    value: Buffer,
    second: Buffer,
    second_value: Buffer,
    final: Buffer,
    values: Buffer | None,
    /,
) -> None:
    """Per deal, its best hold and runner-up with their values, the chosen
    holds' final hands added to ``final`` and every hold's value."""
