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
CSV or JSON Lines, where processes can be forked
(:meth:`fivecard.vector.jobs.Forked.available`: Linux, no other thread
running), and not under ``--strict`` (whose first bad row stops the run).
Anything else, or ``workers=1``, is solved in one process.

What is about processes (how many, starting, stopping, their answers and
their progress) is :mod:`fivecard.vector.jobs`'s; what is here is about the
file: its parts at line starts, the parts' files, the blocks written where
they stand.
"""

from __future__ import annotations

import contextlib
import copy
import io
import mmap
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any, Final

import numpy as np

from ..core.errors import FivecardError
from ..core.rules import RuleSet
from ..vector.jobs import Forked, cut, default_workers
from ..vector.stops import signals_held
from .pipeline import chunk_of_block, chunks_of_blocks
from .sources import Block, read_blocks
from .target import WriteBehind
from .writers import Tally, Writer

__all__ = ["FORMATS", "PART_BYTES", "Part", "FileJob", "processes", "line_parts", "solve", "solve_parts", "solve_interleaved"]

#: The output formats whose parts can be laid end to end.
FORMATS: Final = ("text", "csv", "jsonl")
#: The least input a process is given (smaller inputs use fewer processes).
PART_BYTES: Final = 4 << 20
#: What a forked process does, for the error when one is lost.
_DOING: Final = "solving part of the input"


@dataclass(frozen=True, slots=True)
class Part:
    """Bytes ``start`` to ``end`` of the input (``None``: to its end),
    whose first line is line ``first``."""

    start: int
    end: int | None
    first: int


@dataclass(frozen=True, slots=True)
class FileJob:
    """A text file solved by several processes: the input ``path``, the
    ``rules`` and ``decks``; the first process's ``writer`` (it writes to
    ``sink``, header first) and ``make_writer``, the others' writers (to a
    stream of bytes, without a header); the totals (``tally``) and
    ``progress(tally, fraction of the input read)``. The rows' totals go to
    ``tally``; ``most_hands``: the most hands a row may hold (the header's)."""

    path: str
    rules: RuleSet
    decks: int
    writer: Writer
    make_writer: Callable[[IO[bytes]], Writer]
    sink: IO[bytes]
    tally: Tally
    progress: Callable[[Tally, float | None], None] | None = None
    #: A row of more hands is an error row (see :meth:`~fivecard.files.pipeline.Chunk.limited`).
    most_hands: int | None = None


def solve(count: int, job: FileJob, folder: str) -> None:
    """Solve ``job`` in ``count`` processes: its blocks taken in turn and
    written where they stand where the output is a file written at offsets
    (:func:`solve_interleaved`), else its parts laid end to end
    (:func:`solve_parts`, their files in ``folder``)."""
    if not solve_interleaved(count, job):
        solve_parts(line_parts(job.path, count), job, folder)


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


def _finished(job: FileJob, answer: tuple[Any, ...]) -> list[Any]:
    """Add a part's totals to the job's, and what its rows held past the
    header to the job's writer; return the rest of what the part sent."""
    part_tally, widest, past, *rest = answer
    job.tally.merge(part_tally)
    writer = job.writer
    writer.widest, writer.past = max(writer.widest, widest), max(writer.past, past)
    return list(rest)


def _solve_into(job: FileJob, part: Part, writer: Writer, tally: Tally, counted: Callable[[int], None]) -> int:
    """Solve one part of the input into ``writer``, totals into ``tally``;
    ``counted(bytes read)`` after each chunk. Returns the bytes read."""
    with open(job.path, "rb") as raw:
        for chunk in chunks_of_blocks(_blocks(raw, part), job.rules, job.decks, most_hands=job.most_hands):
            writer.write(chunk)
            tally.add(chunk)
            counted(raw.tell() - part.start)
        return raw.tell() - part.start


# --- parts laid end to end ---------------------------------------------------------------------

#: What :func:`_solve_part` is given: the job, its parts, the parts' files
#: (the first's "": it is written to the output).
_PartsSpec = tuple[FileJob, list[Part], list[str]]


def solve_parts(parts: list[Part], job: FileJob, folder: str) -> None:
    """Solve ``parts`` of the job's text file: the first here, into its
    writer, each other in a process of its own into a file in ``folder``,
    appended to the output in order. An error in any part is raised here;
    the other processes are stopped and their files removed."""
    tally, progress = job.tally, job.progress
    size = os.path.getsize(job.path)
    forked = Forked(counters=2, doing=_DOING)
    outputs = [""]
    read = 0  # by this process

    def report() -> None:
        if progress is not None:
            view = copy.copy(tally)
            view.rows += forked.counted(0, unfinished=True)
            done = read + forked.counted(1)
            progress(view, min(done / size, 1.0) if size else None)

    def first() -> None:
        nonlocal read

        def counted(at: int) -> None:
            nonlocal read
            read = at
            report()

        read = _solve_into(job, parts[0], job.writer, tally, counted)

    def finished(part: int, answer: tuple[Any, ...] | None) -> None:
        if answer is None:  # the first part: written to the output as it went
            return
        _finished(job, answer)
        _append(outputs[part], job.sink)
        with contextlib.suppress(OSError):
            os.unlink(outputs[part])
        report()

    try:
        for _ in parts[1:]:
            with signals_held():  # a part's file is made and registered, or not made
                handle, output = tempfile.mkstemp(prefix=".fivecard-", suffix=".part", dir=folder)
                os.close(handle)
                outputs.append(output)
        spec: _PartsSpec = (job, parts, outputs)
        forked.run(_solve_part, spec, range(len(parts)), finished, here=first, waiting=report, flush=(job.sink,))
    finally:
        for output in outputs[1:]:
            with contextlib.suppress(OSError):
                os.unlink(output)


def _solve_part(spec: _PartsSpec, index: int, counters: Any) -> tuple[Any, ...]:
    """In a forked process: solve part ``index`` into its file; its totals."""
    job, parts, outputs = spec
    tally = Tally()

    def counted(read: int) -> None:
        counters[0], counters[1] = tally.rows, read

    with open(outputs[index], "wb") as out:
        behind = WriteBehind(out)  # written by a thread of its own, as the first process does
        writer = job.make_writer(behind)  # type: ignore[arg-type]  # a stream of bytes
        _solve_into(job, parts[index], writer, tally, counted)
        writer.close()
        behind.close()
    return tally, writer.widest, writer.past


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
            raise FivecardError(f"a process {_DOING} stopped")
        data += more
    return int.from_bytes(data, "little")


#: What each process taking turns is given: the job, the number of
#: processes, the output's descriptor, where its blocks start, and the ring
#: of pipes (pipe i: from process i to process i + 1).
_TurnsSpec = tuple[FileJob, int, int, int, list[tuple[int, int]]]


def _turns(spec: _TurnsSpec, index: int, counters: Any, still_open: set[int] | None = None) -> tuple[Any, ...]:
    """Process ``index`` of the ring: solve blocks ``index``, ``index +
    count``, ... of the input (by a writer into a :class:`_Collect`), each
    written at its place in the output once the process of the block
    before has said where that is; say where each ends. Only its own two
    ends of the ring's pipes stay open (``still_open``: the ends open here,
    kept up to date). Returns its totals, what its rows held past the
    header, and where the last block it wrote ends (0: none)."""
    job, count, fd, base, pipes = spec
    before, after = pipes[index - 1][0], pipes[index][1]
    for read_end, write_end in pipes:
        for end_fd, kept in ((read_end, read_end == before), (write_end, write_end == after)):
            if not kept:
                os.close(end_fd)
                if still_open is not None:
                    still_open.discard(end_fd)
    tally = Tally()
    writer = job.make_writer(_Collect())  # type: ignore[arg-type]  # keeps each block for pwrite
    collect = writer.out  # type: ignore[attr-defined]  # the writer writes to a _Collect
    end = 0
    with open(job.path, "rb") as raw:
        for k, block in enumerate(read_blocks(raw)):
            if k % count != index:
                continue
            chunk = chunk_of_block(block, job.rules, job.decks, job.most_hands)
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
    return tally, writer.widest, writer.past, end


def _take_turns(spec: _TurnsSpec, index: int, counters: Any) -> tuple[Any, ...]:
    """In a forked process: :func:`_turns` for ``index``."""
    return _turns(spec, index, counters)


def solve_interleaved(count: int, job: FileJob) -> bool:
    """Solve the job's text file in ``count`` processes taking its blocks in
    turn (see the module), written into its output after what that holds
    already (the header). Returns False, having done nothing, where the
    output cannot be written at offsets (then use :func:`solve_parts`)."""
    sink, tally, progress = job.sink, job.tally, job.progress
    sink.flush()
    fd = _offset_file(sink)
    if fd is None:
        return False
    base = sink.tell()
    size = os.path.getsize(job.path)
    forked = Forked(counters=2, doing=_DOING)
    pipes = [os.pipe() for _ in range(count)]  # pipe i: from process i to process i + 1
    still_open = {pipe_end for pipe in pipes for pipe_end in pipe}
    spec: _TurnsSpec = (job, count, fd, base, pipes)
    mine = [0, 0]  # this process's counters: rows solved, bytes read
    ends = [base]

    def report() -> None:
        if progress is not None:
            view = copy.copy(tally)
            view.rows = mine[0] + forked.counted(0)
            done = mine[1] + forked.counted(1)
            progress(view, min(done / (count * size), 1.0) if size else None)

    class _Counters:  # this process's counters: reported as they change
        def __setitem__(self, i: int, value: int) -> None:
            mine[i] = value
            if i == 1:
                report()

    def finished(part: int, answer: tuple[Any, ...]) -> None:
        ends.extend(_finished(job, answer))

    def here() -> tuple[Any, ...]:  # this process's own turns
        return _turns(spec, 0, _Counters(), still_open)

    try:
        forked.run(_take_turns, spec, range(count), finished, here=here, waiting=report)
        sink.seek(max(ends))
        if progress is not None:
            progress(tally, 1.0)
        return True
    finally:
        for end_fd in still_open:
            with contextlib.suppress(OSError):
                os.close(end_fd)


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
