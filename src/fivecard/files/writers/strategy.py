"""A solved game's strategy as a file: a row per class of starting hands,
as CSV or Parquet.

Guarantees: the file appears whole or not at all
(:class:`~fivecard.files.target.Target`, as every output); its columns are
:data:`STRATEGY_COLUMNS` (or :data:`DEALER_COLUMNS` for the game against
the dealer), cards spelled as ``As Kd``, values as Python writes a float
(``repr``), so that a value read back is the value written; a path that
cannot be written is refused before a long solve
(:func:`check_strategy_path`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ...core.cards import format_cards
from ...core.errors import FileAccessError, FileError
from ..target import Target, write_error

if TYPE_CHECKING:  # the solvers are imported by the commands that solve, not by every writer
    from ...play.dealer import DealerHand
    from ...play.chart import StrategyChart
    from ...play.strategy import StartingHand

__all__ = ["STRATEGY_COLUMNS", "DEALER_COLUMNS", "check_strategy_path", "write_strategy", "write_chart"]

STRATEGY_COLUMNS: Final = ("hand", "deals", "hold", "value", "runner_up", "runner_up_value")
#: The columns of the dealer game's strategy (``strategy --dealer``).
DEALER_COLUMNS: Final = ("hand", "deals", "hold", "value", "win", "draw", "lose", "runner_up", "runner_up_value")


def check_strategy_path(path: str) -> None:
    """That a strategy file can be written at ``path`` (named ``.csv`` or
    ``.parquet``, not a folder itself, in a folder that exists and takes
    files): checked before a long solve, not after it."""
    if os.path.splitext(path)[1].lower() not in (".csv", ".parquet"):
        raise FileError(f"the strategy is written as FILE.csv or FILE.parquet, not {path!r}")
    if os.path.isdir(path):
        raise FileAccessError(f"cannot write {path!r}: a directory")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileAccessError(f"cannot write {path!r}: no folder {folder!r}")
    if not os.access(folder, os.W_OK):
        raise FileAccessError(f"cannot write {path!r}: the folder {folder!r} does not take new files")


def write_strategy(path: str, hands: Sequence[StartingHand] | Sequence[DealerHand]) -> None:
    """Write the strategy to ``path``: CSV (``.csv``) or Parquet
    (``.parquet``, with the optional pyarrow), a row per class of starting
    hands (:data:`STRATEGY_COLUMNS`, or :data:`DEALER_COLUMNS` for the game
    against the dealer; cards as ``As Kd``). The file appears whole or not
    at all (:class:`~fivecard.files.target.Target`, as every output)."""
    from ...play.dealer import DealerHand

    kind = os.path.splitext(path)[1].lower()
    if kind not in (".csv", ".parquet"):
        raise FileError(f"the strategy is written as FILE.csv or FILE.parquet, not {path!r}")
    dealer = bool(hands) and isinstance(hands[0], DealerHand)
    names = DEALER_COLUMNS if dealer else STRATEGY_COLUMNS
    rows: list[tuple[str | int | float, ...]] = []
    for h in hands:
        chances = (h.win, h.draw, h.lose) if isinstance(h, DealerHand) else ()
        cards, hold, runner_up = (format_cards(c, ascii=True) for c in (h.cards, h.hold, h.runner_up))
        rows.append((cards, h.deals, hold, h.value, *chances, runner_up, h.runner_up_value))
    _write_rows(path, names, rows)


def write_chart(path: str, chart: StrategyChart) -> None:
    """Write a strategy chart's lines to ``path``, FILE.csv: a row per line
    of the chart and of its simple form (:data:`~fivecard.play.chart.CHART_COLUMNS`),
    written whole or not at all."""
    from ...play.chart import CHART_COLUMNS

    if os.path.splitext(path)[1].lower() != ".csv":
        raise FileError(f"a strategy chart is written as FILE.csv, not {path!r}")
    _write_rows(path, CHART_COLUMNS, list(chart.rows()))


def _write_rows(path: str, names: Sequence[str], rows: Sequence[tuple[str | int | float, ...]]) -> None:
    """The rows under ``names`` as CSV or Parquet, by the file's name."""
    kind = os.path.splitext(path)[1].lower()
    if kind == ".parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise FileError("Parquet output needs pyarrow: pip install 'fivecard[parquet]'") from None
    target = Target(path, None, binary=kind == ".parquet", utf8=True)
    try:
        if kind == ".csv":
            import csv

            out = csv.writer(target.text)
            out.writerow(names)
            out.writerows([tuple(repr(v) if isinstance(v, float) else v for v in row) for row in rows])
        else:
            columns = list(zip(*rows)) if rows else [()] * len(names)
            pq.write_table(pa.table(dict(zip(names, columns))), target.binary)
        target.commit()
    except OSError as exc:
        target.abort()
        raise write_error(exc, target.name) from None
    except BaseException as exc:
        target.abort(exc)
        raise
