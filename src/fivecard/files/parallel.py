"""Solving a big text file on several cores.

Where the output is a regular file, each process (the first, and others
forked from it, so they start with everything loaded) reads the whole input
but solves only every n-th block of lines (block k by process k mod n); it
formats its block, learns where the block starts in the output from the
process of the block before (a number through a pipe, in a ring), tells the
next process where its own block ends, and writes its bytes there
(``pwrite``). Every byte is written once, by the process that made it, and
the processes stay even however the input's rows vary.

Elsewhere (a pipe, an output opened for appending) the input is cut at line
starts into parts, one per process; each other process solves its part into a
file beside the output, and the first appends those files in order.

Either way the output is byte for byte the output of one process: the same
rows, line numbers and totals. It is used only where it is safe and pays: a
text input of at least two :data:`PART_BYTES` per process, output as text,
CSV or JSON Lines, on Linux (``fork``), from a process with no other threads
running, and not under ``--strict`` (whose first bad row stops the run).
Anything else, or ``workers=1``, is solved in one process.
"""

from __future__ import annotations

import contextlib
import copy
import io
import mmap
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any, Final

import numpy as np

from ..core.rules import RuleSet
from ..core.errors import FivecardError
from .pipeline import chunk_of_block, chunks_of_blocks
from .sources import Block, read_blocks
from ..vector.stops import STOP_SIGNALS, signals_held
from .target import WriteBehind
from ..vector.jobs import cut, default_workers
from .writers import Tally, Writer

__all__ = ["FORMATS", "PART_BYTES", "Part", "processes", "line_parts", "solve_parts", "solve_interleaved"]

#: The output formats whose parts can be laid end to end.
FORMATS: Final = ("text", "csv", "jsonl")
#: The least input a process is given (smaller inputs use fewer processes).
PART_BYTES: Final = 4 << 20
_POLL: Final = 0.2  # seconds between progress reports while waiting on a part


@dataclass(frozen=True, slots=True)
class Part:
    """Bytes ``start`` to ``end`` of the input (``None``: to its end),
    whose first line is line ``first``."""

    start: int
    end: int | None
    first: int


def available() -> bool:
    """Whether parts can be solved in other processes here: ``fork`` (Linux),
    and no other thread running (a fork copies only the calling thread)."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


def processes(path: str, workers: int | None) -> int:
    """How many processes solve a text file: ``workers``, or (``None``) the
    job's default (:func:`~fivecard.vector.jobs.default_workers`), each
    given at least :data:`PART_BYTES`."""
    return default_workers(size=os.path.getsize(path), each=PART_BYTES) if workers is None else workers


def line_parts(path: str, count: int) -> list[Part]:
    """The text file cut into ``count`` parts at line starts (near the
    job's even cut, :func:`~fivecard.vector.jobs.cut`), fewer if the file
    has fewer lines. One part (or none, for an empty file) means one
    process."""
    size = os.path.getsize(path)
    if count < 2 or size == 0:
        return [Part(0, None, 1)]
    with open(path, "rb") as raw, mmap.mmap(raw.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        size = len(mapped)
        starts = [0]
        for rough in cut(size, count)[1:]:
            at = mapped.find(b"\n", max(rough.start - 1, starts[-1]))
            if at < 0 or at + 1 >= size:
                break
            if at + 1 > starts[-1]:
                starts.append(at + 1)
        data = np.frombuffer(mapped, dtype=np.uint8)
        span = data[:0]
        try:
            has_cr = mapped.find(b"\r") >= 0
            firsts = [1]
            for a, b in zip(starts, starts[1:]):
                span = data[a:b]
                ends = int(np.count_nonzero(span == 10))
                if has_cr:  # a lone \r ends a line too; \r\n ends one line
                    ends += int(np.count_nonzero(span == 13))
                    ends -= int(np.count_nonzero((span[:-1] == 13) & (span[1:] == 10)))
                firsts.append(firsts[-1] + ends)
        finally:
            del data, span  # the map is closed after its last view
    ends_at: list[int | None] = [*starts[1:], None]
    return [Part(s, e, f) for s, e, f in zip(starts, ends_at, firsts)]


class _Slice(io.RawIOBase):
    """At most ``left`` bytes of a stream (``None``: all of it)."""

    def __init__(self, raw: IO[bytes], left: int | None) -> None:
        self.raw = raw
        self.left = left

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.left is not None:
            size = self.left if size < 0 else min(size, self.left)
        data = self.raw.read(size)
        if self.left is not None:
            self.left -= len(data)
        return data


def _blocks(raw: IO[bytes], part: Part) -> Iterator[Block]:
    raw.seek(part.start)
    length = None if part.end is None else part.end - part.start
    return read_blocks(_Slice(raw, length), first=part.first, start=part.start == 0)  # type: ignore[arg-type]


@dataclass
class _Worker:
    process: Any
    results: Any  # the receiving end of its pipe
    counters: Any  # shared: rows solved, bytes read
    output: str  # its part's file ("" for none)
    merged: bool = False  # its totals are in the tally


def _finished(worker: _Worker, tally: Tally, writer: Writer, waiting: Callable[[], None]) -> list[Any]:
    """Wait for a process to finish (calling ``waiting`` now and then), add
    its totals to ``tally`` and what its rows held past the header to
    ``writer``; return the rest of what it sent. Its error is raised here."""
    while not worker.results.poll(_POLL):
        waiting()
    try:
        kind, *result = worker.results.recv()
    except EOFError:  # it ended without a word
        worker.process.join()
        raise FivecardError(
            f"a process solving part of the input stopped (exit code {worker.process.exitcode})"
        ) from None
    if kind == "error":
        raise result[0]
    part_tally, widest, past, *rest = result
    tally.merge(part_tally)
    worker.merged = True
    writer.widest, writer.past = max(writer.widest, widest), max(writer.past, past)
    return list(rest)


def solve_parts(
    parts: list[Part],
    *,
    path: str,
    rules: RuleSet,
    decks: int,
    writer: Writer,
    make_writer: Callable[[IO[bytes]], Writer],
    sink: IO[bytes],
    folder: str,
    tally: Tally,
    progress: Callable[[Tally, float | None], None] | None = None,
) -> None:
    """Solve ``parts`` of the text file ``path``: the first here, into
    ``writer`` (which writes to ``sink``), each other in a process of its
    own into a file in ``folder`` (by a writer from ``make_writer``, without
    a header), appended to ``sink`` in order. Totals go to ``tally`` and
    what rows held past the header to ``writer``. An error in any part is
    raised here; the other processes are stopped and their files removed."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    size = os.path.getsize(path)
    workers: list[_Worker] = []
    _flush(sink, sys.stdout, sys.stderr)
    try:
        for part in parts[1:]:
            with signals_held():  # a part's file is made and registered, or not made
                handle, output = tempfile.mkstemp(prefix=".fivecard-", suffix=".part", dir=folder)
                os.close(handle)
                workers.append(_start(context, _solve_part, (part, path, rules, decks, make_writer, output), output))

        def report(read: int) -> None:
            if progress is None:
                return
            view = copy.copy(tally)
            view.rows += sum(int(w.counters[0]) for w in workers if not w.merged)
            done = read + sum(int(w.counters[1]) for w in workers)
            progress(view, min(done / size, 1.0) if size else None)

        with open(path, "rb") as raw:
            for chunk in chunks_of_blocks(_blocks(raw, parts[0]), rules, decks):
                writer.write(chunk)
                tally.add(chunk)
                report(raw.tell() - parts[0].start)
            read = raw.tell()
        for worker in workers:
            _finished(worker, tally, writer, lambda: report(read))
            _append(worker.output, sink)
            with contextlib.suppress(OSError):
                os.unlink(worker.output)
            report(read)
    finally:
        _stop(workers)


def _solve_part(
    part: Part,
    path: str,
    rules: RuleSet,
    decks: int,
    make_writer: Callable[[IO[bytes]], Writer],
    output: str,
    counters: Any,
) -> tuple[Any, ...]:
    """In a child process: solve one part into ``output``; its totals."""
    tally = Tally()
    with open(path, "rb") as raw, open(output, "wb") as out:
        behind = WriteBehind(out)  # written by a thread of its own, as the first process does
        writer = make_writer(behind)  # type: ignore[arg-type]  # a stream of bytes
        for chunk in chunks_of_blocks(_blocks(raw, part), rules, decks):
            writer.write(chunk)
            tally.add(chunk)
            counters[0] = tally.rows
            counters[1] = raw.tell() - part.start
        writer.close()
        behind.close()
    return tally, writer.widest, writer.past


def _start(context: Any, work: Callable[..., tuple[Any, ...]], args: tuple[Any, ...], output: str = "") -> _Worker:
    """Fork a process that runs ``work(*args, counters)`` (``counters``:
    rows solved and bytes read, shared) and sends back what it returns."""
    receive, send = context.Pipe(duplex=False)
    counters = context.Array("q", 2, lock=False)
    process = context.Process(target=_child, args=(work, args, send, counters), name="fivecard-part", daemon=True)
    worker = _Worker(process, receive, counters, output)
    process.start()
    send.close()
    return worker


def _child(work: Callable[..., tuple[Any, ...]], args: tuple[Any, ...], results: Any, counters: Any) -> None:
    """In a child process: run ``work``; send back what it returns (or the error)."""
    # A stop signal sent to the whole group (Ctrl-C, a closed terminal, a
    # service manager) reaches this process too: the first process hears it
    # and stops this one (and removes its file).
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    try:
        results.send(("done", *work(*args, counters)))
    except BaseException as exc:  # noqa: BLE001 - handed to the first process, raised there
        try:
            results.send(("error", exc))
        except Exception:  # noqa: BLE001 - an exception that cannot be sent: its text can
            results.send(("error", FivecardError(f"{type(exc).__name__}: {exc}")))
    finally:
        results.close()


def _stop(workers: list[_Worker]) -> None:
    """End the processes (killed, if still running) and remove their files."""
    for worker in workers:
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join()
        worker.results.close()
        if worker.output:
            with contextlib.suppress(OSError):
                os.unlink(worker.output)


def _flush(*streams: Any) -> None:
    """Flush what is buffered here: a forked child must not write it again."""
    for stream in streams:
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()


# --- blocks in turn, written where they stand --------------------------------------------------


def _offset_file(sink: IO[bytes]) -> int | None:
    """The descriptor of ``sink`` if bytes can be written into it at given
    offsets (a regular file, not opened for appending), else None."""
    import fcntl
    import stat

    try:
        fd = sink.fileno()
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
        appending = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None
    return fd if regular and not appending and sink.seekable() else None


class _Collect:
    """A byte stream that keeps what a writer writes for one block."""

    def __init__(self) -> None:
        self.pieces: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.pieces.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def take(self) -> bytes:
        data, self.pieces = b"".join(self.pieces), []
        return data


def _put(fd: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    while view:
        written = os.pwrite(fd, view, offset)
        view, offset = view[written:], offset + written


def _take_offset(pipe: int) -> int:
    data = b""
    while len(data) < 8:
        more = os.read(pipe, 8 - len(data))
        if not more:
            raise FivecardError("a process solving part of the input stopped")
        data += more
    return int.from_bytes(data, "little")


def _turns(
    index: int,
    count: int,
    path: str,
    rules: RuleSet,
    decks: int,
    writer: Writer,
    fd: int,
    base: int,
    before: int,
    after: int,
    tally: Tally,
    counters: Any,
) -> int:
    """Process ``index`` of ``count``: solve blocks ``index``, ``index +
    count``, ... of the input with ``writer`` (into a :class:`_Collect`),
    each written at its place in ``fd`` once the process of the block before
    has said where that is (pipe ``before``); say where each ends (pipe
    ``after``). Returns where the last block written ends (0: none)."""
    collect = writer.out  # type: ignore[attr-defined]  # the writer writes to a _Collect
    end = 0
    with open(path, "rb") as raw:
        for k, block in enumerate(read_blocks(raw)):
            if k % count != index:
                continue
            chunk = chunk_of_block(block, rules, decks)
            if len(chunk):
                writer.write(chunk)
                tally.add(chunk)
            data = collect.take()
            start = base if k == 0 else _take_offset(before)
            end = start + len(data)
            try:
                os.write(after, end.to_bytes(8, "little"))
            except BrokenPipeError:
                pass  # the next process has no block left: it needs no start
            _put(fd, data, start)
            counters[0] = tally.rows
            counters[1] = raw.tell()
    return end


def solve_interleaved(
    count: int,
    *,
    path: str,
    rules: RuleSet,
    decks: int,
    writer: Writer,
    make_writer: Callable[[IO[bytes]], Writer],
    sink: IO[bytes],
    tally: Tally,
    progress: Callable[[Tally, float | None], None] | None = None,
) -> bool:
    """Solve the text file ``path`` in ``count`` processes taking its blocks
    in turn (see the module), written into ``sink`` after what it holds
    already (the header). Returns False, having done nothing, where ``sink``
    cannot be written at offsets (then use :func:`solve_parts`). Totals go
    to ``tally``, what rows held past the header to ``writer``."""
    import multiprocessing

    sink.flush()
    fd = _offset_file(sink)
    if fd is None:
        return False
    base = sink.tell()
    _flush(sys.stdout, sys.stderr)
    context = multiprocessing.get_context("fork")
    size = os.path.getsize(path)
    pipes = [os.pipe() for _ in range(count)]  # pipe i: from process i to process i + 1
    still_open = {pipe_end for pipe in pipes for pipe_end in pipe}
    workers: list[_Worker] = []
    try:
        for index in range(1, count):
            args = (index, count, path, rules, decks, make_writer, fd, base, pipes)
            with signals_held():  # a process started is a process registered, to be stopped
                workers.append(_start(context, _take_turns, args))
        for index, (read_end, write_end) in enumerate(pipes):  # this process keeps its own two ends
            for end_fd, kept in ((read_end, index == count - 1), (write_end, index == 0)):
                if not kept:
                    os.close(end_fd)
                    still_open.discard(end_fd)

        def report(rows: int, read: int) -> None:
            if progress is not None:
                view = copy.copy(tally)
                view.rows = rows + sum(int(w.counters[0]) for w in workers)
                done = read + sum(int(w.counters[1]) for w in workers)
                progress(view, min(done / (count * size), 1.0) if size else None)

        mine = Tally()
        own = make_writer(_Collect())  # type: ignore[arg-type]  # keeps each block for pwrite
        counters = [0, 0]

        class _Report:  # the first process's counters: reported as they change
            def __setitem__(self, i: int, value: int) -> None:
                counters[i] = value
                if i == 1:
                    report(counters[0], counters[1])

        end = _turns(0, count, path, rules, decks, own, fd, base, pipes[-1][0], pipes[0][1], mine, _Report())
        tally.merge(mine)
        writer.widest, writer.past = max(writer.widest, own.widest), max(writer.past, own.past)
        for worker in workers:
            end = max(end, *_finished(worker, tally, writer, lambda: report(counters[0], counters[1])))
        sink.seek(max(end, base))
        if progress is not None:
            progress(tally, 1.0)
        return True
    finally:
        _stop(workers)
        for end_fd in still_open:
            with contextlib.suppress(OSError):
                os.close(end_fd)


def _take_turns(
    index: int,
    count: int,
    path: str,
    rules: RuleSet,
    decks: int,
    make_writer: Callable[[IO[bytes]], Writer],
    fd: int,
    base: int,
    pipes: list[tuple[int, int]],
    counters: Any,
) -> tuple[Any, ...]:
    """In a child process: :func:`_turns` for ``index``; its totals and
    where its last block ends."""
    before, after = pipes[index - 1][0], pipes[index][1]
    for read_end, write_end in pipes:  # only its own two ends stay open
        if read_end != before:
            os.close(read_end)
        if write_end != after:
            os.close(write_end)
    tally = Tally()
    writer = make_writer(_Collect())  # type: ignore[arg-type]  # keeps each block for pwrite
    end = _turns(index, count, path, rules, decks, writer, fd, base, before, after, tally, counters)
    return tally, writer.widest, writer.past, end


def _append(name: str, sink: IO[bytes]) -> None:
    """Copy a part's file to the end of ``sink`` (by the kernel when it can)."""
    sink.flush()
    with open(name, "rb") as part:
        size = os.fstat(part.fileno()).st_size
        try:
            out = sink.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            out = -1
        if out >= 0:
            sent = 0
            try:
                while sent < size:
                    step = os.sendfile(out, part.fileno(), sent, size - sent)
                    if step == 0:
                        break
                    sent += step
            except OSError as exc:
                if sent or exc.errno not in (22, 38):  # EINVAL, ENOSYS: no sendfile to it; copy below
                    raise
            if sent == size:
                with contextlib.suppress(OSError, ValueError):
                    if sink.seekable():
                        sink.seek(0, os.SEEK_END)  # the stream's idea of its position
                return
            part.seek(sent)
        while block := part.read(1 << 20):
            sink.write(block)
        sink.flush()
