"""Solving many showdowns: a file (text, CSV or ``.xlsx``) to a file in any
output format, or rows to results, through the one bulk pipeline
(:mod:`fivecard.files.pipeline`, then a writer of :mod:`fivecard.files.writers`).

Each row of an input becomes one result (a showdown, a classified hand, or an
error that names the row), in input order. Nothing is dropped or shifted:
rows out = rows in.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from ..core.cards import CARDS, JOKER
from ..core.errors import FileAccessError, FivecardError
from ..core.evaluate import Evaluation, evaluate
from ..core.hand import Hand, dealt_cards, hand_place
from .rows import Row
from ..core.rules import RuleSet, get_rules
from .formats import BINARY_FORMATS, OUTPUT_FORMATS, output_format

if TYPE_CHECKING:  # the solvers load with the command that solves a game
    from ..play.chart import StrategyChart
    from ..play.dealer import DealerSolution
    from ..play.risk import BankrollRisk
    from ..play.holds import HoldList
    from ..play.strategy import PayTableSolution

__all__ = [
    "Row",
    "HandResult",
    "Solved",
    "solve_row",
    "solve_rows",
    "RowLike",
    "solve_file",
    "solve_lines",
    "LINE_FORMATS",
    "solve_strategy",
    "SolvedStrategy",
    "classify_stream",
    "Solution",
    "RowError",
]

class RowError(FivecardError):
    """A bad row met under ``strict``: the message names its line."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand of a solved row: its text as written, its card indices, its
    strength and its cards sorted (canonical, space separated)."""

    text: str
    indices: tuple[int, ...]
    strength: int
    sorted: str

    def evaluation(self, rules: RuleSet) -> Evaluation:
        """The rich evaluation."""
        return evaluate(Hand(tuple(CARDS[i] for i in self.indices), rules))

    @property
    def natural(self) -> bool:
        return JOKER.index not in self.indices


@dataclass(frozen=True, slots=True)
class Solved:
    """The result of one row: its hands and, for two or more hands, the
    winners, the order (0-based, best first, ties grouped) and the
    explanation; or an error message naming the problem."""

    row: Row
    hands: tuple[HandResult, ...] = ()
    winners: tuple[int, ...] | None = None
    order: tuple[tuple[int, ...], ...] | None = None
    explanation: str | None = None
    error: str | None = None

    @property
    def line(self) -> int:
        return self.row.line

    @property
    def is_split(self) -> bool:
        """More than one hand shares the win."""
        return self.winners is not None and len(self.winners) > 1


def _solved(chunk: Any, i: int, row: Row) -> Solved:
    """Row ``i`` of a :class:`~fivecard.files.pipeline.Chunk` as a :class:`Solved`."""
    import numpy as np

    error = chunk.error.get(i)
    if error is not None:
        return Solved(row, error=error)
    hands = []
    span = chunk.hands_of(i)
    written = chunk.hand_texts(np.arange(span.start, span.stop))
    for k in span:
        indices = tuple(chunk.indices[k].tolist())
        hands.append(
            HandResult(
                written[k - span.start].decode("utf-8", "replace"),
                indices,
                int(chunk.strength[k]),
                " ".join(CARDS[i].code_str for i in sorted(indices)),
            )
        )
    number = int(chunk.outcome[i])
    if number < 0:
        return Solved(row, tuple(hands))
    outcome = chunk.outcomes[number]
    return Solved(row, tuple(hands), outcome.winners, outcome.order, outcome.explanation)


#: What :func:`solve_rows` takes as a row: a :class:`Row`, a line of text,
#: or a sequence of cells, each a hand (``None`` or ``""``: an empty hand).
RowLike = Row | str | Sequence[str | None]


def solve_row(
    row: RowLike, *, rules: str | RuleSet = "standard", decks: int = 1, best_five: bool = False
) -> Solved:
    """Solve one row (as :func:`solve_rows` takes it); a bad row gives a
    :class:`Solved` with ``error`` set."""
    return next(solve_rows([row], rules=rules, decks=decks, best_five=best_five))


def solve_rows(
    rows: Iterable[RowLike],
    *,
    rules: str | RuleSet = "standard",
    decks: int = 1,
    strict: bool = False,
    best_five: bool = False,
) -> Iterator[Solved]:
    """Solve rows lazily, in order, a chunk at a time through the bulk
    pipeline. A row is a :class:`Row`, a line of text (split into hands as a
    line of a text file is, :func:`~fivecard.files.rows.split_line`) or a
    sequence of cells (a list or tuple of strings), each cell a hand, ``None``
    or ``""`` an empty one; a row given so is numbered by its place (from 1):
    rows come in order, so a dict or a set is no rows.
    With ``strict``, the first bad row raises :class:`RowError` naming its
    line instead. ``best_five``: hands of 5 to 7 cards play their best five.
    Anything else raises :class:`TypeError` naming what it got.

    >>> [s.winners for s in solve_rows([['AS KS QS JS TS', '2C 3C 4C 5C 7D'], 'QS QH 2C 3D 4H | 8C 8D 9H TS JS'])]
    [(0,), (0,)]
    """
    if isinstance(rows, (str, bytes, Row, Mapping, AbstractSet)) or not isinstance(rows, Iterable):
        raise TypeError(
            f"rows must be an iterable of rows (each a Row, a line of text or a list of hands), "
            f"not {_kind(rows)}"
        )
    return _solve_rows(rows, get_rules(rules), decks, strict, best_five)


def _kind(value: object) -> str:
    """What a value is, for a TypeError: its type, and a short text of a str."""
    if isinstance(value, str):
        return f"str {(value if len(value) <= 40 else value[:40] + '...')!r}"
    return f"{type(value).__name__}"


def _as_row(number: int, item: object, best_five: bool) -> Row:
    """One item of :func:`solve_rows` as a :class:`Row` (``number``: its place)."""
    from .rows import line_row

    if isinstance(item, Row):
        return item
    if isinstance(item, str):
        return line_row(number, item, best_five=best_five) or Row(number, (item,))
    if isinstance(item, Sequence) and not isinstance(item, (bytes, bytearray)):
        cells = tuple(item)
        if all(c is None or isinstance(c, str) for c in cells):
            texts = tuple("" if c is None else c for c in cells)
            return Row(number, texts, texts)
        bad = next(c for c in cells if c is not None and not isinstance(c, str))
        raise TypeError(f"row {number}: a cell must be a string or None, not {_kind(bad)}")
    raise TypeError(
        f"row {number} must be a Row, a line of text or a list of hands (strings or None), not {_kind(item)}"
    )


def _solve_rows(
    rows: Iterable[RowLike], ruleset: RuleSet, decks: int, strict: bool, best_five: bool
) -> Iterator[Solved]:
    from .pipeline import chunks_with_rows

    taken = (_as_row(number, item, best_five) for number, item in enumerate(rows, 1))
    for chunk, batch_rows in chunks_with_rows(taken, ruleset, decks, best_five=best_five):
        for i, row in enumerate(batch_rows):
            solved = _solved(chunk, i, row)
            if strict and solved.error is not None:
                raise RowError(f"line {solved.line}: {solved.error}")
            yield solved


@dataclass
class Solution:
    """What :func:`solve_file` did: the rows' totals (``tally``), what the
    user should know of the input's layout and the output (``notes``), and
    the output's format."""

    tally: Any
    format: str
    notes: list[str] = field(default_factory=list)
    layout: str | None = None


def solve_file(
    input: str,
    output: str | None = None,
    *,
    format: str | None = None,
    input_format: str | None = None,
    sheet: str | None = None,
    hands: str | None = None,
    rules: str | RuleSet = "standard",
    decks: int = 1,
    strict: bool = False,
    bom: bool = False,
    painter: Any = None,
    stdin: Any = None,
    stdout: Any = None,
    on_layout: Callable[[str], None] | None = None,
    progress: Callable[[Any, float | None], None] | None = None,
    workers: int | None = None,
    best_five: bool = False,
    width: int | None = None,
) -> Solution:
    """Solve every row of ``input`` (a path, or ``-`` for ``stdin``) into
    ``output`` (a path; ``None`` or ``-`` for ``stdout``) in ``format``
    (``text``, ``csv``, ``jsonl``, ``xlsx``, ``parquet``; default: by the
    output's extension, else text).

    The output is written to a temporary file beside it and put in place
    only when every row is written; on an error or Ctrl-C the earlier file
    (or no file) remains, and the exception's notes say so. ``strict``: the
    first bad row stops the run (:class:`RowError`). ``on_layout`` hears how
    a table was read before any row is; ``progress`` is called after each
    chunk with the tally and the fraction of the input read (or None).
    ``workers``: processes for a big text file written as text, CSV or JSON
    Lines (default: one per core, each given at least 4 MiB; ``1``: this
    process only; see :mod:`fivecard.files.parallel`): the output is the same.
    ``best_five``: hands hold 5 to 7 cards and play their best five (the
    output's cards are those five; each hand's text is as written).
    ``width``: the columns the text table fits (a terminal's; None: a row
    is one line, as for a file or a pipe).

    >>> import io, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), 'hands.txt')
    >>> _ = open(path, 'w').write('8C TS KC 9H 4S 7D 2S 5D 3S AC\\n')
    >>> out = io.StringIO()
    >>> solve_file(path, format='jsonl', stdout=out).tally.summary()
    '1 row: 1 solved, 0 errors; hand 1 wins 0, hand 2 wins 1, draws 0'
    >>> out.getvalue()[:52]
    '{"line": 1, "hands": [{"input": "8C TS KC 9H 4S", "c'
    """
    import sys

    from ..core.errors import FileError
    from .target import Target, WriteBehind, refuse_same_file, write_error

    ruleset = get_rules(rules)
    fmt = output_format(output, format)
    if fmt not in OUTPUT_FORMATS:
        raise FileError(f"unknown output format {fmt!r}; choose from {', '.join(OUTPUT_FORMATS)}")
    if workers is not None and workers < 1:
        raise FivecardError(f"workers must be 1 or more, not {workers}")
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    to_stdout = output in (None, "-")
    if fmt in BINARY_FORMATS and to_stdout:
        if stdout.isatty():
            raise FileError(f"{fmt} is a binary format and is not written to a terminal: use -o FILE.{fmt}")
        if getattr(stdout, "buffer", None) is None:
            raise FileError(f"{fmt} output needs a file: use -o FILE.{fmt}")
    refuse_same_file(output, input, stdin, stdout)
    target = Target(output, stdout, binary=fmt in BINARY_FORMATS, utf8=fmt != "text")
    source = None
    writer = None
    behind = None
    solution = Solution(None, fmt)
    try:
        # The heavy imports come after the output is opened: a Ctrl-C during
        # them is reported like any other ("nothing was written").
        from .pipeline import chunks_of_blocks, chunks_of_rows
        from ..core.report import Painter
        from .sources import binary_stdin, open_source
        from .writers import Tally, make_writer

        tally = solution.tally = Tally()
        source = open_source(
            input,
            input_format=input_format,
            sheet=sheet,
            stdin=binary_stdin(stdin) if input == "-" else None,
            suits=ruleset.suits,
            hands=hands,
            best_five=best_five,
        )
        solution.layout = source.note
        if source.note and on_layout is not None:
            on_layout(source.note)
        sink = _bytes_out(target, fmt)
        count = 1 if best_five else _processes(input, fmt, source, strict, workers)
        if count < 2 and fmt in ("text", "csv", "jsonl"):
            # a stream of bytes: written by a thread of its own (not before
            # processes are forked for parts: a fork copies only this thread)
            sink = behind = WriteBehind(sink)
        painter = painter or Painter(color=False)

        def writer_to(out: Any, header: bool = True) -> Any:
            return make_writer(
                fmt, binary=out, columns=source.columns, hands=source.hands_per_row, painter=painter,
                rules=ruleset, bom=bom, header=header, delimiter=source.delimiter, labels=source.label_columns,
                width=width,
            )

        writer = writer_to(sink)
        if count > 1:
            from . import parallel

            job = parallel.FileJob(
                path=input, rules=ruleset, decks=decks, writer=writer, sink=sink, tally=tally, progress=progress,
                make_writer=lambda out: writer_to(out, header=False), most_hands=source.most_hands,
            )
            parallel.solve(count, job, target.folder)
        else:
            most = source.most_hands
            if source.blocks is not None:
                chunks = chunks_of_blocks(source.blocks, ruleset, decks, best_five=best_five, most_hands=most)
            else:
                chunks = chunks_of_rows(source.rows, ruleset, decks, best_five=best_five, most_hands=most)
            # A regular file is read ahead in a second thread; a pipe is read in
            # turn (a read that waits on its writer must not outlive a Ctrl-C).
            for chunk in _ahead(chunks, writer.prepare) if source.regular else chunks:
                if strict and chunk.error:
                    i = min(chunk.error)
                    writer.write(chunk.head(i))  # what streams out before the bad row stays out
                    raise RowError(f"line {int(chunk.line[i])}: {chunk.error[i]}")
                writer.write(chunk)
                tally.add(chunk)
                if progress is not None:
                    progress(tally, source.progress() if source.progress is not None else None)
        writer.close()
        if behind is not None:
            behind.close()
        solution.notes = writer.notes()
        target.commit()
    except BaseException as exc:
        if behind is not None:
            if isinstance(exc, (OSError, KeyboardInterrupt)) and not isinstance(exc, FileAccessError):
                behind.drop()  # a failed write, or stop now
            else:
                # a bad row under --strict, a read error: what was made before it goes out
                # (to standard output or a pipe; a file is dropped whole anyway)
                with contextlib.suppress(Exception):
                    behind.close()
        if writer is not None:
            writer.discard()
        note = target.abort()
        if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
            failure = write_error(exc, target.name)
            if note:
                failure.add_note(note)
            raise failure from None
        if note:
            exc.add_note(note)
        raise
    finally:
        if source is not None:
            source.close()
    return solution


#: The formats :func:`solve_lines` gives: those of a stream of lines.
LINE_FORMATS = ("text", "csv", "jsonl")


def solve_lines(
    lines: Iterable[bytes], *, format: str, rules: str | RuleSet = "standard", hands: int | None = None,
    lang: Any = None,
) -> Iterator[bytes]:
    """Solve a text input given as its lines (or any pieces of its bytes),
    as :func:`solve_file` solves that text from standard input, and give the
    output (``format``: one of :data:`LINE_FORMATS`) as it is made: the
    bytes of each block of lines once it is read and written. Each piece of
    ``lines`` is taken only when the output before it has been taken, so
    what is held at once is a block's rows, however long the input.
    ``hands``: the most hands a line holds, when the caller knows it (the
    output has columns for that many, or for as many as its first lines
    hold if more); None: the first lines decide, and a wider line later is
    an error row (:meth:`~fivecard.files.pipeline.Chunk.limited`).
    ``lang``: the language of the words for people in the cells (default
    English; see :mod:`fivecard.core.lang`): categories, descriptions and
    explanations; headers, keys, ids and card codes stay as they are.

    >>> b"".join(solve_lines([b"8C TS KC 9H 4S 7D 2S 5D 3S AC\\n"], format="csv")).decode().splitlines()[1][:40]
    '1,8C TS KC 9H 4S 7D 2S 5D 3S AC,KC TS 9H'
    """
    import io

    from ..core.errors import FileError
    from ..core.report import Painter
    from .pipeline import chunks_of_blocks, chunks_of_rows
    from .sources import byte_stream, open_source
    from .writers import make_writer

    ruleset = get_rules(rules)
    if format not in LINE_FORMATS:
        raise FileError(f"unknown format {format!r} for a stream of lines; choose from {', '.join(LINE_FORMATS)}")
    out = io.BytesIO()

    def written() -> bytes:
        data = out.getvalue()
        out.seek(0)
        out.truncate()
        return data

    source = open_source("-", stdin=byte_stream(lines), suits=ruleset.suits)
    try:
        width, most = source.hands_per_row, source.most_hands
        if hands is not None and most is not None:  # (a text input: a table's columns are its own)
            width = most = max(hands, most)
        writer = make_writer(
            format, binary=out, columns=source.columns, hands=width, painter=Painter(color=False, lang=lang),
            rules=ruleset, delimiter=source.delimiter, labels=source.label_columns,
        )  # fmt: skip
        if source.blocks is not None:
            chunks = chunks_of_blocks(source.blocks, ruleset, most_hands=most)
        else:
            chunks = chunks_of_rows(source.rows, ruleset, most_hands=most)
        for chunk in chunks:
            writer.write(chunk)
            if data := written():
                yield data
        writer.close()
        if data := written():
            yield data
    finally:
        source.close()


def _processes(path: str, fmt: str, source: Any, strict: bool, workers: int | None) -> int:
    """How many processes solve the input (1: this process alone)."""
    if workers == 1 or strict or path == "-" or source.blocks is None or not source.regular:
        return 1
    from ..vector.jobs import Forked
    from .parallel import FORMATS, processes

    if fmt not in FORMATS or not Forked.available():
        return 1
    return max(processes(path, workers), 1)


def classify_stream(
    hands: Iterable[str | IO[bytes]],
    out: IO[str],
    *,
    rules: str | RuleSet = "standard",
    painter: Any = None,
    as_json: bool = False,
    ascii: bool = False,
    best_five: bool = False,
) -> int:
    """Classify hands through the bulk pipeline, a chunk at a time, in
    bounded memory: each item of ``hands`` is a hand (text) or a byte stream
    of hands, one a line (blank lines skipped). Writes a line per hand, or a
    JSON array (``ascii``: non-ASCII escaped). A bad hand stops the run with
    a :class:`FivecardError` naming it (``hand N: ...``); hands are written
    32,768 at a time, so a shorter run with a bad hand writes nothing (a
    longer one has written the hands before the bad hand's batch). Returns
    the number of hands. ``best_five``: hands of 5 to 7 cards play their
    best five."""
    from ..core.errors import FileError, in_context
    from .pipeline import chunks_of_blocks, chunks_of_rows
    from ..core.report import Painter
    from .sources import NOT_UTF8, read_blocks
    from .target import _is_utf8
    from .writers import ClassifyWriter
    from .writers.base import TextBytes

    ruleset = get_rules(rules)
    binary = getattr(out, "buffer", None)
    if binary is not None and _is_utf8(out):
        out.flush()
        sink: Any = binary
    else:
        sink = TextBytes(out)
    writer = ClassifyWriter(sink, painter or Painter(color=False), ruleset, as_json=as_json, ascii=ascii)

    def chunks() -> Iterator[Any]:
        for item in hands:
            if isinstance(item, str):
                yield from chunks_of_rows([Row(1, (item,), (item,))], ruleset, best_five=best_five)
            else:
                yield from chunks_of_blocks(read_blocks(item), ruleset, one_hand=True, best_five=best_five)

    done = 0
    pending: list[Any] = []  # held until 32,768 hands are read: a short run with a bad hand writes nothing
    held = 0
    for chunk in chunks():
        if chunk.error:  # the single-hand parser's own error (with its hints)
            i = min(chunk.error)
            number = done + i + 1
            text = chunk.row_cells(i)[0]
            if chunk.error[i].startswith(("a line of ", NOT_UTF8)):
                raise FileError(f"hand {number}: {chunk.error[i]}")
            try:
                if best_five:
                    dealt_cards(text, ruleset)
                else:
                    Hand.parse(text, rules=ruleset)
            except FivecardError as exc:
                raise in_context(exc, hand_place(number)) from None
            raise FivecardError(f"hand {number}: {chunk.error[i]}")
        pending.append(chunk)
        held += len(chunk)
        done += len(chunk)
        if held >= 1 << 15:
            for ready in pending:
                writer.write(ready)
            pending, held = [], 0
    for ready in pending:
        writer.write(ready)
    writer.close()
    return done


def _ahead(chunks: Iterator[Any], prepare: Callable[[Any], None] | None = None) -> Generator[Any, None, None]:
    """The chunks, read and solved one ahead in a second thread while the
    caller writes the one before (numpy lets go of the interpreter for its
    array work, so the two overlap on a machine with two cores). An error
    in reading is raised here, in order; the thread stops when the caller
    does (it is a daemon, and waits on a queue of one). The chunks share
    the run's register of outcomes, which only grows: a writer may see
    outcomes of the next chunk already, never lose one of its own."""
    import queue
    import threading

    handoff: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=1)
    stop = threading.Event()

    def produce() -> None:
        try:
            for chunk in chunks:
                if prepare is not None:
                    prepare(chunk)  # the writer's work that depends on the chunk alone
                while not stop.is_set():
                    try:
                        handoff.put(("chunk", chunk), timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            handoff.put(("end", None))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, raised there
            handoff.put(("error", exc))

    worker = threading.Thread(target=produce, name="fivecard-read", daemon=True)
    worker.start()
    try:
        while True:
            kind, item = handoff.get()
            if kind == "end":
                return
            if kind == "error":
                raise item
            yield item
    finally:
        stop.set()
        try:  # a chunk it waits to hand over: take it, so that it sees the stop
            handoff.get_nowait()
        except queue.Empty:
            pass
        worker.join(timeout=1.0)  # a read blocked on a pipe is left to the daemon's end


def _bytes_out(target: Any, fmt: str) -> Any:
    """Where a writer's bytes go: the output's bytes, or its text (the text
    table to a stream of another encoding, or one without bytes)."""
    from .target import _is_utf8
    from .writers.base import TextBytes

    binary = target.binary
    if fmt in ("xlsx", "parquet"):
        return binary
    if target.path is not None:
        return binary
    out = target.out
    if binary is not None and (fmt != "text" or _is_utf8(out)):
        return binary
    return TextBytes(target.text)


# --- a game's strategy ---------------------------------------------------------------------


@dataclass(frozen=True)
class SolvedStrategy:
    """A game solved by :func:`solve_strategy`: the solution, its starting
    hands (when they were written or ranked), the ranked hold list asked
    for, for a pay table its bankroll figures and the chart asked for, and
    for the game against the dealer how long it took and where it ran. Its
    report is the solution's, with the hold list, the bankroll figures, the
    chart and the run."""

    solution: PayTableSolution | DealerSolution
    hands: list[Any]
    holds: HoldList | None
    seconds: float
    ran: str
    risk: BankrollRisk | None = None
    chart: StrategyChart | None = None

    def _run(self) -> dict[str, Any]:
        from ..play.strategy import PayTableSolution

        return {} if isinstance(self.solution, PayTableSolution) else {"seconds": self.seconds, "ran": self.ran}

    def to_json(self) -> dict[str, Any]:
        found = self.solution.to_json(self.holds, **self._run())
        if self.risk is not None:
            found["bankroll"] = self.risk.to_json()
        if self.chart is not None:
            found["chart"] = self.chart.to_json()
        return found

    def text(self) -> str:
        parts = [self.solution.text(self.holds, **self._run())]
        if self.risk is not None:
            parts.append(self.risk.text())
        if self.chart is not None:
            parts.append(self.chart.text())
        return "".join(part if part.endswith("\n") else part + "\n" for part in parts)


def solve_strategy(
    paytable: str | None,
    rules: RuleSet | None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    checkpoint: str | None = None,
    output: str | None = None,
    holds: int = 0,
    progress: Callable[[int, int], None] | None = None,
    on_note: Callable[[str], None] = lambda _: None,
    resume: str | None = None,
    hands_played: int | None = None,
    bankroll: int | None = None,
    coins: int | None = None,
    chart: bool = False,
) -> SolvedStrategy:
    """Solve a game exactly: the video-poker pay table ``paytable`` (a
    bundled table's id or a pay-table file: :func:`~fivecard.files.paytable_file.load_paytable`),
    or with ``paytable`` None the game against the dealer (on ``workers``
    processes or the Dask cluster at ``scheduler``: :func:`fivecard.vector.jobs.plan`),
    under ``rules`` (None: the rule set the pay table names, else ``standard``).
    ``checkpoint``: the folder where finished parts are kept (None: the
    cache's, :func:`~fivecard.vector.jobs.default_checkpoints`). ``output``:
    a ``.csv`` or ``.parquet`` file of the strategy, checked before the
    solve and written after it. ``holds``: how many lines of the ranked hold
    list to give (-1: all; 0: none). ``progress``, ``on_note`` and
    ``resume`` (how to resume, for an interrupt's note of the parts kept) as
    for :func:`~fivecard.vector.jobs.run_parts`. A pay table's report also
    has its bankroll figures (:func:`~fivecard.play.risk.bankroll_risk`) for
    a session of ``hands_played`` hands (default 1,000) betting ``coins``
    (default: the table's most) from ``bankroll`` coins (None: the bankroll
    for each risk only), and with ``chart`` its strategy chart
    (:func:`~fivecard.play.chart.strategy_chart`; for a catalogue table,
    unchanged and under its own rules, the one shipped with fivecard,
    :func:`~fivecard.play.chart.shipped_chart`, made the same way), which
    ``output`` then holds instead of the classes."""
    import time

    from ..play.dealer import dealer_hands, default_workers, solve_dealer, threaded
    from ..play.holds import HoldList
    from ..play.chart import shipped_chart, strategy_chart
    from ..play.paytables import PAYTABLES
    from ..play.risk import DEFAULT_HANDS, check_session
    from ..play.strategy import PayTableSolution, solve_paytable, starting_hands
    from ..vector.jobs import dask_available, default_checkpoints, plan
    from .paytable_file import load_paytable
    from .writers.strategy import check_strategy_path, write_chart, write_strategy

    if output is not None:
        check_strategy_path(output)  # before the work, not after it
    table = load_paytable(paytable) if paytable is not None else None
    if table is None and (hands_played is not None or bankroll is not None or coins is not None or chart):
        raise FivecardError("the bankroll figures and the chart are a pay table's")
    bet = coins if coins is not None else (table.coins if table is not None else 5)
    if table is not None and isinstance(bet, int) and bet > table.coins:
        raise FivecardError(f"a hand bets at most {table.coins} coins on {table.title}, not {bet:,}")
    session = hands_played if hands_played is not None else DEFAULT_HANDS
    if table is not None:
        # before the work, not after it (the distribution's pays: each line's, and nothing's 0)
        check_session(session, bankroll, bet, [int(pay) for pay in table.pays.values()] + [0])
    rules = table.rules_to_play(rules) if table is not None else rules or get_rules("standard")
    threads = threaded()
    if table is None and workers and scheduler is None and not threads and not dask_available():
        on_note(f"{workers} workers asked for, but Dask is not installed (pip install 'fivecard[cluster]'): "
                "this runs in this process")  # fmt: skip
    workers = default_workers(len(rules.deck()), workers, scheduler, threads=threads) if table is None else 0
    ran = plan(workers, scheduler, threads=threads)
    run: dict[str, Any] = {"progress": progress, "on_note": on_note, "resume": resume}
    run["checkpoint"] = checkpoint if checkpoint is not None else default_checkpoints()
    started = time.monotonic()
    # a catalogue table, unchanged and under its own rules, has its chart shipped
    shipped = chart and table is not None and PAYTABLES.get(table.name) == table and rules.name == (table.rules or "standard")
    if table is not None:
        solution: PayTableSolution | DealerSolution = solve_paytable(table, rules=rules, values=chart and not shipped, **run)
    else:
        solution = solve_dealer(rules, workers=workers, scheduler=scheduler, **run)
    seconds = time.monotonic() - started
    hands: list[Any] = []
    if (output is not None and not chart) or holds:
        hands = starting_hands(solution) if isinstance(solution, PayTableSolution) else dealer_hands(solution)
    risk = drawn = None
    if isinstance(solution, PayTableSolution):
        risk = solution.bankroll(bankroll, session, bet)
        drawn = None
        if shipped and table is not None:
            drawn = shipped_chart(table.name)
            if drawn.optimum != solution.expected_return:  # not the solution it was made from
                drawn = strategy_chart(solve_paytable(table, rules=rules, values=True, **run))
        elif chart:
            drawn = strategy_chart(solution)
    if output is not None:
        if drawn is not None:
            write_chart(output, drawn)
        else:
            write_strategy(output, hands)
    ranked = HoldList.ranked(hands, rules, table, holds) if holds else None
    return SolvedStrategy(solution, hands, ranked, seconds, ran, risk, drawn)
