"""The express lane of ``solve``: a text file of showdowns to CSV, vectorised.

Most bulk files are Project Euler 54's layout: each line ten two-character
cards, the first five against the last five. For CSV output, such lines are
read, evaluated, settled, explained and written as whole numpy arrays, a chunk
of bytes at a time; every other line (comments, other spellings, bad rows,
other numbers of hands) goes through the general path (:mod:`fivecard.solve`)
in its place. The output is byte for byte what the general path writes (the
tests compare them), since both take their pieces from the same functions:
:func:`fivecard.solve.class_info` for hands and the showdown explanation for
rows (computed once per distinct case here).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from functools import cache
from typing import IO, Final

import numpy as np
import numpy.typing as npt

from . import batch
from .rows import Row, line_row
from .rules import RuleSet
from .solve import Tally, class_info, explanation_of, solve_chunk
from .sources import Block, long_row

__all__ = ["express_csv", "csv_field"]

_LINE: Final = 29  # "8C TS KC 9H 4S 7D 2S 5D 3S AC"
_POWERS: Final = 10 ** np.arange(1, 19, dtype=np.int64)


def csv_field(text: str) -> str:
    """A field as the csv module writes it (minimal quoting).

    >>> csv_field('High Card, K-10-9-8-4'), csv_field('Royal Flush')
    ('"High Card, K-10-9-8-4"', 'Royal Flush')
    """
    if any(ch in text for ch in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


@cache
def _piece_table(rules: RuleSet) -> npt.NDArray[np.object_]:
    return np.full(len(batch.category_table(rules)), None, dtype=object)


def _pieces(rules: RuleSet, strengths: npt.NDArray[np.int64]) -> npt.NDArray[np.object_]:
    """Per strength: b",category,score" (CSV-ready, the columns of
    :func:`fivecard.sinks.result_cells`), made the first time a strength is met."""
    table = _piece_table(rules)
    for strength in np.unique(strengths).tolist():
        if table[strength] is None:
            info = class_info(rules, strength)
            table[strength] = f",{csv_field(info.name)},{info.score}".encode()
    return table


@cache
def _class_arrays(rules: RuleSet) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per strength: the ladder index, the compared key (5 ranks, padded) and
    the group sizes at each key position."""
    from .tables import tables_for

    tables = tables_for(rules)
    keys = np.zeros((tables.size + 1, 5), dtype=np.int64)
    sizes = np.zeros((tables.size + 1, 5), dtype=np.int64)
    for strength, (index, key, groups) in enumerate(tables.shapes, 1):
        keys[strength, : len(key)] = key
        straight = rules.ladder[index].straight
        sizes[strength, : len(key)] = [1] if straight else [n for _, n in groups]
    return batch.category_table(rules).astype(np.int64), keys, sizes


def _explanation_keys(
    first: npt.NDArray[np.int64], second: npt.NDArray[np.int64], rules: RuleSet
) -> npt.NDArray[np.int64]:
    """One integer per two-hand showdown that fixes its explanation: who
    wins, and the deciding step (categories; or the step, the two values and
    the groups named before it); for a draw, the class."""
    category, keys, sizes = _class_arrays(rules)
    best, worst = np.maximum(first, second), np.minimum(first, second)
    winner = np.where(first > second, 1, 2)
    kw, kl = keys[best], keys[worst]
    step = np.argmax(kw != kl, axis=1)
    rows = np.arange(len(first))
    value_w, value_l = kw[rows, step], kl[rows, step]
    named_1 = np.where((step > 0) & (sizes[best, 0] >= 2), kw[:, 0], 0)
    named_2 = np.where((step > 1) & (sizes[best, 1] >= 2), kw[:, 1], 0)
    same = category[best] == category[worst]
    decided = np.where(
        same,
        (3 << 40) | (winner << 36) | (category[best] << 28) | (step << 24)
        | (value_w << 20) | (value_l << 16) | (named_1 << 12) | (named_2 << 8),
        (2 << 40) | (winner << 36) | (category[best] << 28) | (category[worst] << 20),
    )
    return np.where(first == second, (1 << 40) | best, decided)


@cache
def _tail_cache(rules: RuleSet) -> dict[int, bytes]:
    """Explanation key -> b",winner,explanation,\n"; bounded by the finite
    number of distinct cases (a few thousand in practice)."""
    return {}


def _tails(
    first: npt.NDArray[np.int64], second: npt.NDArray[np.int64], rules: RuleSet
) -> npt.NDArray[np.object_]:
    """Per row: b",winner,explanation,\n" (the error column empty)."""
    keys = _explanation_keys(first, second, rules)
    unique, at, inverse = np.unique(keys, return_index=True, return_inverse=True)
    known = _tail_cache(rules)
    texts = np.empty(len(unique), dtype=object)
    for i, (key, row) in enumerate(zip(unique.tolist(), at.tolist())):
        text = known.get(key)
        if text is None:
            a, b = int(first[row]), int(second[row])
            winners = "1,2" if a == b else ("1" if a > b else "2")
            explanation = explanation_of((a, b), (True, True), rules)
            text = known[key] = f",{csv_field(winners)},{csv_field(explanation)},\n".encode()
        texts[i] = text
    tails: npt.NDArray[np.object_] = texts[inverse.ravel()]
    return tails


def _numbers(values: npt.NDArray[np.int64]) -> npt.NDArray[np.object_]:
    """Line numbers as ASCII bytes, built digit by digit for each width."""
    out = np.empty(len(values), dtype=object)
    widths = np.searchsorted(_POWERS, values, side="right") + 1
    for width in np.unique(widths).tolist():
        at = np.flatnonzero(widths == width)
        number = values[at]
        matrix = np.empty((len(at), width), dtype=np.uint8)
        for column in range(width - 1, -1, -1):
            matrix[:, column] = ord("0") + number % 10
            number = number // 10
        out[at] = matrix.view(f"S{width}").ravel().tolist()
    return out


def _general_rows(
    rows: list[Row], rules: RuleSet, decks: int, width: int, hands: int, tally: Tally
) -> list[bytes]:
    """The general path for lines the express lane does not take."""
    from .sinks import csv_cells, result_cells

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    out = []
    for solved in solve_chunk(rows, rules, decks):
        tally.add(solved)
        writer.writerow(csv_cells(result_cells(solved, width, hands, rules)))
        out.append(buffer.getvalue().encode())
        buffer.seek(0)
        buffer.truncate()
    return out


def express_csv(
    blocks: Iterable[Block],
    out: IO[bytes],
    *,
    rules: RuleSet,
    decks: int,
    hands: int,
    tally: Tally,
    progress: Callable[[], None] | None = None,
) -> None:
    """Solve the lines of a text input (:class:`~fivecard.sources.Block` s)
    to CSV rows (bytes) after the header; the same rows the general path
    writes (columns: line, input, three per hand for ``hands`` hands, winner,
    explanation, error)."""
    for block in blocks:
        chunk = block.data
        number = block.first - 1
        buf = np.frombuffer(chunk, dtype=np.uint8)
        ends = np.flatnonzero(buf == 10)
        starts = np.concatenate(([0], ends[:-1] + 1))
        stop = ends
        length = stop - starts
        count = len(ends)
        # One row of byte pieces per line, joined in line order at the end.
        grid = np.full((count, 6), b"", dtype=object)
        # Ten-card lines take the lane when the header has two hands a row.
        fast = np.flatnonzero(length == _LINE) if hands == 2 else np.zeros(0, dtype=np.int64)
        if len(fast):
            m = len(fast)
            if m == count and len(buf) == count * (_LINE + 1) and starts[0] == 0:
                data, stride = chunk, _LINE + 1  # all alike: parse in place
            else:
                data, stride = buf[starts[fast, None] + np.arange(_LINE)].tobytes(), _LINE
            codes_1, ok = batch.fixed_width_codes(data, m, stride, rules)
            codes_2, ok_2 = batch.fixed_width_codes(data, m, stride, rules, offset=15)
            ok &= ok_2 & (np.ndarray((m,), np.uint8, data, 14, (stride,)) == 32)
            if rules.one_deck:
                for i in range(5):
                    for j in range(5):
                        ok &= codes_1[:, i] != codes_2[:, j]
            keep = np.flatnonzero(ok)
            fast = fast[keep]
            if len(fast):
                k = len(fast)
                encoded = batch.Encoded(rules, np.concatenate([codes_1[keep], codes_2[keep]]))
                strengths = batch.strengths(encoded).astype(np.int64)
                place = batch.token_places()
                places = np.concatenate(
                    [place[batch.token_view(data, m, stride)[keep]],
                     place[batch.token_view(data, m, stride, 15)[keep]]]
                )
                if not rules.suits:
                    places = places - places % 5 + 4  # ranks only
                sorted_cards = batch.sorted_from_keys(places, suits=rules.suits)
                a, b = strengths[:k], strengths[k:]
                pieces = _pieces(rules, strengths)
                width = sorted_cards.shape[1]
                # Fixed-width parts as byte matrices: ",input,sorted1" and ",sorted2".
                first = np.empty((k, 2 + _LINE + width), dtype=np.uint8)
                first[:, 0] = first[:, _LINE + 1] = ord(",")
                first[:, 1 : _LINE + 1] = np.ndarray((m, _LINE), np.uint8, data, 0, (stride, 1))[keep]
                first[:, _LINE + 2 :] = sorted_cards[:k]
                second = np.empty((k, 1 + width), dtype=np.uint8)
                second[:, 0] = ord(",")
                second[:, 1:] = sorted_cards[k:]
                grid[fast, 0] = _numbers(fast + number + 1)
                grid[fast, 1] = first.view(f"S{first.shape[1]}").ravel().tolist()
                grid[fast, 2] = pieces[a]
                grid[fast, 3] = second.view(f"S{second.shape[1]}").ravel().tolist()
                grid[fast, 4] = pieces[b]
                grid[fast, 5] = _tails(a, b, rules)
                tally.rows += k
                tally.most_hands = max(tally.most_hands, 2)
                tally.wins[0] = tally.wins.get(0, 0) + int((a > b).sum())
                tally.wins[1] = tally.wins.get(1, 0) + int((a < b).sum())
                tally.draws += int((a == b).sum())
        done = np.zeros(count, dtype=bool)
        done[fast] = True
        others: list[tuple[int, Row]] = []
        for i in np.flatnonzero(~done).tolist():
            if block.long and i in block.long:
                size, prefix = block.long[i]
                row: Row | None = long_row(number + i + 1, size, prefix)
            else:
                row = line_row(number + i + 1, chunk[starts[i] : stop[i]].decode("utf-8", "replace"))
            if row is not None:
                others.append((i, row))
        if others:
            general = _general_rows([row for _, row in others], rules, decks, 1, hands, tally)
            for (i, _), text in zip(others, general):
                grid[i, 0] = text
        out.write(b"".join(grid.ravel().tolist()))
        if progress is not None:
            progress()
