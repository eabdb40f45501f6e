"""Solving a big text file on several cores.

A text input read from a regular file is cut at line starts into parts, one
per process. The first process solves the first part into the output as
usual; each other process (forked, so it starts with everything loaded)
solves its part through the same pipeline and the same writer, without the
header, into a file beside the output, and the first process appends those
files in order when its own part is written. The output is byte for byte the
output of one process: the same rows, line numbers and totals.

It is used only where it is safe and pays: a text input of at least two
:data:`PART_BYTES` per process, output as text, CSV or JSON Lines, on Linux
(``fork``), from a process with no other threads running, and not under
``--strict`` (whose first bad row stops the run). Anything else, or
``workers=1``, is solved in one process.
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
from ..errors import FivecardError
from .pipeline import chunks_of_blocks
from .sources import Block, read_blocks
from .target import WriteBehind
from .writers import Tally, Writer

__all__ = ["FORMATS", "PART_BYTES", "Part", "plan", "solve_parts", "cores"]

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


def cores() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def available() -> bool:
    """Whether parts can be solved in other processes here: ``fork`` (Linux),
    and no other thread running (a fork copies only the calling thread)."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


def plan(path: str, workers: int | None) -> list[Part]:
    """The parts of a text file, one per process: ``workers`` of them
    (``None``: one per core, each of at least :data:`PART_BYTES`), fewer if
    the file has fewer lines. One part (or none, for an empty file) means
    one process."""
    size = os.path.getsize(path)
    count = min(cores(), size // PART_BYTES) if workers is None else workers
    if count < 2 or size == 0:
        return [Part(0, None, 1)]
    with open(path, "rb") as raw, mmap.mmap(raw.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        size = len(mapped)
        starts = [0]
        for k in range(1, count):
            at = mapped.find(b"\n", max(size * k // count - 1, starts[-1]))
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
    output: str
    merged: bool = False  # its totals are in the tally


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
    for stream in (sink, sys.stdout, sys.stderr):  # a child must not write what is buffered here
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()
    try:
        for part in parts[1:]:
            handle, output = tempfile.mkstemp(prefix=".fivecard-", suffix=".part", dir=folder)
            os.close(handle)
            receive, send = context.Pipe(duplex=False)
            counters = context.Array("q", 2, lock=False)
            workers.append(_Worker(None, receive, counters, output))
            process = context.Process(
                target=_solve_part,
                args=(part, path, rules, decks, make_writer, output, send, counters),
                name="fivecard-part",
                daemon=True,
            )
            process.start()
            workers[-1].process = process
            send.close()

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
            while not worker.results.poll(_POLL):
                report(read)
            try:
                kind, *result = worker.results.recv()
            except EOFError:  # it ended without a word
                worker.process.join()
                raise FivecardError(
                    f"a process solving part of the input stopped (exit code {worker.process.exitcode})"
                ) from None
            if kind == "error":
                raise result[0]
            part_tally, widest, past = result
            tally.merge(part_tally)
            worker.merged = True
            writer.widest = max(writer.widest, widest)
            writer.past = max(writer.past, past)
            _append(worker.output, sink)
            with contextlib.suppress(OSError):
                os.unlink(worker.output)
            report(read)
    finally:
        for worker in workers:
            if worker.process is not None:
                if worker.process.is_alive():
                    worker.process.kill()
                worker.process.join()
            worker.results.close()
            with contextlib.suppress(OSError):
                os.unlink(worker.output)


def _solve_part(
    part: Part,
    path: str,
    rules: RuleSet,
    decks: int,
    make_writer: Callable[[IO[bytes]], Writer],
    output: str,
    results: Any,
    counters: Any,
) -> None:
    """In a child process: solve one part into ``output``; send back its
    totals (or the error)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the first process hears Ctrl-C and stops this one
    try:
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
        results.send(("done", tally, writer.widest, writer.past))
    except BaseException as exc:  # noqa: BLE001 - handed to the first process, raised there
        try:
            results.send(("error", exc))
        except Exception:  # noqa: BLE001 - an exception that cannot be sent: its text can
            results.send(("error", FivecardError(f"{type(exc).__name__}: {exc}")))
    finally:
        results.close()


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
