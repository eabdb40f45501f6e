"""A job cut into parts, and the parts run: in this process, on its
threads, on Dask distributed, or in processes forked from this one.

This module owns what every job of fivecard shares. The machine: its
:func:`cores` and :func:`memory`, and from them :func:`default_workers`,
the processes a job runs in unless told (one a core, as many as half the
memory holds, each given at least its share of the job). The cut:
:func:`cut` lays a job of so many units (bytes, classes) out in near-equal
parts. A job's identity: :func:`job_key`, a digest of everything its answer
depends on and of fivecard's own source (:func:`source_digest`). And where
the parts run, each place with the same ``run(work, spec, todo, finished)``:
``work(spec, part)`` for each part of ``todo``, each answer handed to
``finished(part, answer)``, every process and thread it started stopped on
the way out, however it ends; a stop signal never lands between a process's
start and its registration (:mod:`~fivecard.vector.stops`).

:func:`run_parts` runs a job whose parts return named numpy arrays, and
returns them in part order. It runs the parts in this process
(``workers=0``), on a Dask ``LocalCluster`` of ``workers`` single-threaded
processes (``None``: :func:`default_workers`; BLAS limited to one thread in
each; in this process when Dask is not installed) or, for a job whose parts
release the GIL (``threads``), on ``workers`` threads of this process (no
Dask needed), or on the existing cluster at ``scheduler``; :func:`plan` says in
words which of these a setting gives, so a caller can tell the user when it
falls back to this process.
With ``checkpoint=DIR`` each finished part is written at once, atomically, to
``DIR/<key>/part-<NNNNN>.ckpt``; a later run of the same key loads the parts
found there instead of running them again, and removes them when the job
succeeds (unless ``keep``), with the folder if nothing else is in it.

:class:`Forked` runs parts in processes forked from this one (Linux), the
first part, if asked, in this process meanwhile, and hands their answers on
in part order, with counters each part sets as it goes (its progress): what a big
text file's parts need (:mod:`fivecard.files.parallel`), whose answers are
output streamed in order rather than arrays.

Checkpoints are verified, not trusted. A part's file holds the job's key,
the part's index, the number of parts, each array's name, dtype and shape,
and a SHA-256 of all of it; a part is used only if every check passes, and
one that fails (another job's part, a copy of another part, truncated,
changed, of another format version, unreadable, not a regular file) is run
again, with one note saying how many and why. Only regular files are read,
opened without blocking and without following a link (a FIFO, a device or
a link in a part's place is never opened as a part); a part's name that
holds something else is written over (a link is replaced, never its
target; a folder there is left, and that part is not kept). A run removes
only the part files it wrote or accepted, while they are still those files,
and its own temporary files (``.part-<NNNNN>.ckpt.<pid>-<random>-<n>.tmp``,
removed however it ends but by SIGKILL); no other file in the folder is
touched. The checksum catches damage and mix-ups, not forgery: whoever may
write to the folder can write a part that passes.

A Dask run closes its client and cluster however it ends and leaves no
process or thread behind.

>>> run_parts(_square, 3, 2, key="doc", workers=0)
[{'x': array([0, 3])}, {'x': array([1, 3])}]
>>> plan(0, None)
'in this process'
>>> [(part.start, part.stop) for part in cut(10, 3)]
[(0, 3), (3, 6), (6, 10)]
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import errno
import functools
from fractions import Fraction
import hashlib
import importlib
import importlib.util
import json
import math
import os
import re
import secrets
import signal
import stat
import sys
import threading
from collections.abc import Callable, Hashable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from .stops import STOP_SIGNALS, signals_held
from ..core.errors import PATH_QUOTE, FileAccessError, FivecardError, quote
from ..core.frozen import Frozen

__all__ = [
    "Result",
    "run_parts",
    "plan",
    "dask_available",
    "cores",
    "memory",
    "default_workers",
    "cut",
    "Where",
    "Forked",
    "source_digest",
    "stable_text",
    "job_key",
    "default_checkpoints",
]

#: What one part returns: named numpy arrays (no object dtype).
Result = dict[str, npt.NDArray[Any]]

#: How long to try to reach an existing scheduler before giving up (seconds).
CONNECT_TIMEOUT = 10.0

_KEY = re.compile(r"[A-Za-z0-9._-]+")
#: Each worker process's BLAS (numpy's linear algebra) runs one thread: the
#: parallelism is the processes.
_ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
#: Dask's settings for a local cluster's workers: no statistical profiler.
_NO_PROFILER: Final = {"distributed.worker.profile.enabled": False}


# ---------------------------------------------------------------- the machine and the cut


def cores() -> int:
    """The processors this process may run on (all the machine's, unless
    its affinity is narrowed: ``taskset``, a container's CPU set)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def memory() -> int | None:
    """The machine's memory in bytes (None where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # not a POSIX system
        return None


def default_workers(*, memory_each: int | None = None, size: int | None = None, each: int = 1) -> int:
    """How many processes a job runs in unless told: one a core
    (:func:`cores`), no more than half the machine's memory holds when a
    process needs ``memory_each`` bytes, and no more than ``size // each``
    when each process is to be given at least ``each`` of the job's
    ``size``; always at least one.

    >>> default_workers(size=3, each=2)
    1
    """
    count = cores()
    if memory_each and (total := memory()) is not None:
        count = min(count, total // 2 // memory_each)
    if size is not None:
        count = min(count, size // each)
    return max(1, count)


def cut(total: int, parts: int) -> list[range]:
    """A job of ``total`` units (bytes, classes) cut into ``parts``
    near-equal parts, in order: part ``k`` starts at ``total * k //
    parts``. A part may be empty when there are more parts than units."""
    if parts < 1:
        raise FivecardError(f"a job is cut into one part or more, not {parts}")
    starts = [total * k // parts for k in range(parts + 1)]
    return [range(a, b) for a, b in zip(starts, starts[1:])]


# ---------------------------------------------------------------- a job's key


@functools.cache
def source_digest() -> str:
    """A digest of fivecard's own code: part of a job's key, so that
    checkpoints made by another version of the code (the solvers, the
    evaluation they call, the compiled kernels, anything) are never read."""
    return tree_digest(Path(__file__).resolve().parent.parent)


def tree_digest(root: Path) -> str:
    """A digest of the code under ``root``: each Python module, each C
    source and header of the kernels, and each built extension module, by
    its path and its bytes."""
    from importlib.machinery import EXTENSION_SUFFIXES

    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        code = path.suffix in (".py", ".c", ".h") or path.name.endswith(tuple(EXTENSION_SUFFIXES))
        if code and "__pycache__" not in path.parts and path.is_file():
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def stable_text(value: object) -> str:
    """``value`` as text that is the same in every process and run, for job
    keys and per-process caches: dataclasses and the core's frozen values
    (:class:`~fivecard.core.frozen.Frozen`: a card, a rule set) by their
    fields, enums by name, sets and dicts sorted (their own order follows
    string hashes, which differ between processes), numbers and strings as
    they are."""

    def walk(item: object) -> object:
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            return [type(item).__name__, [[f.name, walk(getattr(item, f.name))] for f in dataclasses.fields(item)]]
        if isinstance(item, Frozen):
            return [type(item).__name__, [[name, walk(getattr(item, name))] for name in item._fields]]
        if isinstance(item, enum.Enum):
            return f"{type(item).__name__}.{item.name}"
        if isinstance(item, (set, frozenset)):
            return sorted((walk(x) for x in item), key=repr)
        if isinstance(item, dict):
            return sorted(([walk(k), walk(x)] for k, x in item.items()), key=repr)
        if isinstance(item, (list, tuple)):
            return [walk(x) for x in item]
        if item is None or isinstance(item, (str, int, float, bool)):
            return item
        if isinstance(item, Fraction):
            return f"{item.numerator}/{item.denominator}"
        raise TypeError(f"no stable text for {type(item).__name__}")

    return json.dumps(walk(value), separators=(",", ":"))


def job_key(kind: str, value: object) -> str:
    """A job's key (its checkpoints' folder): ``kind`` and a digest of
    everything its answer depends on, ``value`` (as :func:`stable_text`)
    with fivecard's own source (:func:`source_digest`)."""
    text = stable_text([kind, value, source_digest()])
    return f"{kind}-" + hashlib.sha256(text.encode()).hexdigest()[:20]


def default_checkpoints() -> str | None:
    """Where checkpoints go unless told: ``checkpoints`` in fivecard's cache
    folder (``$FIVECARD_CACHE``, ``$XDG_CACHE_HOME/fivecard`` or
    ``~/.cache/fivecard``); None when the cache is off."""
    from ..core.lookup_cache import directory

    found = directory()
    return None if found is None else os.path.join(found, "checkpoints")


# ---------------------------------------------------------------- where a job's parts run


def dask_available() -> bool:
    """Whether Dask distributed (the ``cluster`` extra) is installed."""
    return importlib.util.find_spec("distributed") is not None


def _mode(workers: int | None, scheduler: str | None, threads: bool = False) -> tuple[str, int]:
    """("process" | "local" | "remote", the local cluster's processes or
    threads); local ``threads`` need no Dask."""
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)):
        raise TypeError(f"workers must be a whole number or None, not {type(workers).__name__}")
    if workers is not None and workers < 0:
        raise FivecardError(f"the number of workers must be 0 or more, not {workers}")
    if scheduler is not None:
        if not dask_available():
            raise FivecardError(
                f"the Dask scheduler at {quote(scheduler)} needs Dask distributed: "
                "pip install 'fivecard[cluster]'"
            )
        return "remote", 0
    if workers == 0 or not (threads or dask_available()):
        return "process", 0
    return "local", default_workers() if workers is None else workers


def plan(workers: int | None = None, scheduler: str | None = None, *, threads: bool = False) -> str:
    """Where :func:`run_parts` with these settings runs the parts, in words.

    ``"in this process"``, ``"a local cluster of 2 processes"`` (``"2
    threads of this process"`` with ``threads``) or ``"the cluster at
    tcp://host:8786"``. Asking for workers (``workers >= 1``) of processes
    without Dask installed gives ``"in this process"``: the caller may say
    so (threads need no Dask). A
    scheduler without Dask is a :class:`FivecardError`, as in
    :func:`run_parts`.

    >>> plan(0)
    'in this process'
    """
    mode, processes = _mode(workers, scheduler, threads)
    if mode == "remote":
        return f"the cluster at {scheduler}"
    if mode == "local" and threads:
        return f"{processes} thread{'' if processes == 1 else 's'} of this process"
    if mode == "local":
        return f"a local cluster of {processes} process{'' if processes == 1 else 'es'}"
    return "in this process"


def _square(spec: Hashable, part: int) -> Result:
    """A toy work function for the examples: part and spec."""
    assert isinstance(spec, int)
    return {"x": np.array([part, spec])}


# ---------------------------------------------------------------- checkpoints

#: The first line of a part file: its format and the format's version.
_MAGIC = b"fivecard checkpoint part 1\n"
_MAGIC_FAMILY = b"fivecard checkpoint part "
#: The longest header line read (the key, the index and the arrays' names,
#: dtypes and shapes, as JSON).
_HEADER_LIMIT = 1 << 20
_DIGEST = hashlib.sha256().digest_size
#: The dtypes a part may hold (dtype.str: byte order, kind, size): booleans,
#: numbers and fixed-width text, nothing that needs pickle.
_DTYPE = re.compile(r"[<>|][biufcUS][0-9]{1,4}")
#: Why a part on disk is not used: (part, reason).
_Rejection = tuple[int, str]
_FOLDER = "a folder in its place (left alone, so the part is not kept)"


class _Rejected(Exception):
    """A part file that fails a check, and why (in words for the note)."""


def _encode_part(key: str, part: int, parts: int, result: Result) -> Iterator[bytes | memoryview]:
    """A part file's bytes, in pieces: the format's line; a JSON line with
    the job's key, the part's index, the job's number of parts and each
    array's name, dtype and shape; the arrays' bytes (C order, in that
    order); and the SHA-256 of everything before it."""
    arrays = {name: value if value.flags.c_contiguous else value.copy(order="C") for name, value in result.items()}
    header = {
        "key": key,
        "part": part,
        "parts": parts,
        "arrays": [[name, value.dtype.str, list(value.shape)] for name, value in arrays.items()],
    }
    digest = hashlib.sha256()
    pieces: list[bytes | memoryview] = [_MAGIC, json.dumps(header).encode() + b"\n"]
    pieces += [value.reshape(-1).view(np.uint8).data for value in arrays.values()]
    for piece in pieces:
        digest.update(piece)
        yield piece
    yield digest.digest()


def _decode_part(handle: Any, size: int, key: str, part: int, parts: int) -> Result:
    """The arrays of the part file open in ``handle`` (``size`` bytes), or
    :class:`_Rejected` saying why not: every field of the header checked,
    the length checked before the arrays are read, the checksum before the
    key and the index are trusted."""
    magic = handle.read(len(_MAGIC))
    if magic != _MAGIC:
        if magic.startswith(_MAGIC_FAMILY):
            raise _Rejected("made by another version of fivecard's checkpoint format")
        raise _Rejected("not a checkpoint part (damaged?)")
    line = handle.readline(_HEADER_LIMIT)
    try:
        header = json.loads(line)
    except (ValueError, RecursionError):  # not JSON (or nested past the parser's depth)
        raise _Rejected("damaged (its header is not readable)") from None
    layout = _layout(header)
    if layout is None:
        raise _Rejected("damaged (its header is not a part's)")
    body = sum(length for _, _, _, length in layout)
    if size != len(magic) + len(line) + body + _DIGEST:
        raise _Rejected("damaged (truncated or extended)")
    data = handle.read(body)
    digest = handle.read(_DIGEST)
    if hashlib.sha256(magic + line + data).digest() != digest:
        raise _Rejected("damaged (its checksum does not match)")
    if header["key"] != key or header["parts"] != parts:
        raise _Rejected("another job's part")
    if header["part"] != part:
        raise _Rejected("a copy of another part")
    result: Result = {}
    offset = 0
    for name, dtype, shape, length in layout:
        values = np.frombuffer(data, dtype=dtype, count=math.prod(shape), offset=offset)
        result[name] = values.reshape(shape).copy()
        offset += length
    return result


def _layout(header: object) -> list[tuple[str, np.dtype[Any], tuple[int, ...], int]] | None:
    """Each array's (name, dtype, shape, bytes) from a part's header, or
    None when the header is not a part's (a missing, extra or ill-typed
    field; an array named twice; a dtype a part may not hold)."""
    if not isinstance(header, dict) or set(header) != {"key", "part", "parts", "arrays"}:
        return None
    if not isinstance(header["key"], str) or not isinstance(header["arrays"], list):
        return None
    if any(isinstance(header[name], bool) or not isinstance(header[name], int) for name in ("part", "parts")):
        return None
    layout = []
    for entry in header["arrays"]:
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)):
            return None
        name, dtype, shape = entry
        if not isinstance(dtype, str) or not _DTYPE.fullmatch(dtype) or not isinstance(shape, list):
            return None
        if len(shape) > 32 or any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in shape):
            return None
        try:
            kind = np.dtype(dtype)
        except TypeError:  # a size the kind does not have ('<f3')
            return None
        if kind.itemsize == 0 or kind.str != dtype:
            return None
        layout.append((name, kind, tuple(shape), math.prod(shape) * kind.itemsize))
    if len({name for name, *_ in layout}) != len(layout):
        return None
    return layout


class _Checkpoints:
    """The folder ``<root>/<key>/`` of one job's finished parts.

    Each part is the file ``part-<NNNNN>.ckpt`` (:func:`_encode_part`),
    trusted only once it passes every check; one that fails is rejected
    (and rewritten when the part is run again). The files this run writes
    or accepts are the only ones it removes, and only while they are still
    the files it wrote or read (:func:`_identity`)."""

    def __init__(self, root: str | os.PathLike[str], key: str, parts: int) -> None:
        self.folder = Path(root) / key
        self.key = key
        self.parts = parts
        #: The part files this run wrote or accepted, by name: what they were.
        self.own: dict[str, tuple[int, ...]] = {}
        #: The parts whose name a folder holds (not written: a folder stays).
        self.blocked: set[int] = set()
        #: This run's temporary files are ``.<name>.<pid>-<token>-<n>.tmp``.
        self.token = f"{os.getpid()}-{secrets.token_hex(6)}"
        self.written = 0
        self._make_folder()

    def _make_folder(self) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise FileAccessError(
                f"cannot make the checkpoint folder {quote(str(self.folder), PATH_QUOTE)}: {error.strerror}"
            ) from error

    def _name(self, part: int) -> str:
        return f"part-{part:05d}.ckpt"

    def load(self) -> tuple[dict[int, Result], list[_Rejection]]:
        """The finished parts on disk that pass every check, and why each
        other part file found was rejected."""
        done: dict[int, Result] = {}
        rejected: list[_Rejection] = []
        for part in range(self.parts):
            try:
                found = self._read(part)
            except _Rejected as why:
                rejected.append((part, str(why)))
                continue
            if found is not None:
                done[part] = found
        return done, rejected

    def _read(self, part: int) -> Result | None:
        """Part ``part`` from its file, None if there is none, or
        :class:`_Rejected`. Only a regular file is read, opened without
        following a link and without blocking (a FIFO or a device in its
        place is never waited on), and checked as it was opened (fstat)."""
        path = self.folder / self._name(part)
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise _Rejected(f"unreadable ({error.strerror})") from None
        if stat.S_ISLNK(info.st_mode):
            raise _Rejected("a symbolic link (not followed)")
        if stat.S_ISDIR(info.st_mode):
            self.blocked.add(part)
            raise _Rejected(_FOLDER)
        if not stat.S_ISREG(info.st_mode):
            raise _Rejected("not a regular file")
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            return None
        except OSError as error:
            if error.errno == errno.ELOOP:  # made a link meanwhile
                raise _Rejected("a symbolic link (not followed)") from None
            raise _Rejected(f"unreadable ({error.strerror})") from None
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):  # swapped meanwhile
                raise _Rejected("not a regular file")
            try:
                result = _decode_part(handle, info.st_size, self.key, part, self.parts)
            except OSError as error:
                raise _Rejected(f"unreadable ({error.strerror})") from None
        self.own[self._name(part)] = _identity(info)
        return result

    def save(self, part: int, result: Result) -> None:
        """Write one part's file (to a temporary name of this run's, then
        renamed over whatever the name held, a folder apart)."""
        if part in self.blocked:
            return
        for attempt in range(3):
            try:
                self._write_once(part, result)
                break
            except FileNotFoundError:
                # another run of this key finished and removed the folder
                # meanwhile, the temporary file with it: write it again
                if attempt == 2:
                    raise FivecardError(
                        f"cannot write the checkpoint {quote(str(self.folder / self._name(part)), PATH_QUOTE)}: "
                        "its folder keeps disappearing"
                    ) from None
                self._make_folder()

    def _write_once(self, part: int, result: Result) -> None:
        name = self._name(part)
        self.written += 1
        temporary = self.folder / f".{name}.{self.token}-{self.written}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        made = False
        try:
            fd = os.open(temporary, flags, 0o600)
            made = True
            with os.fdopen(fd, "wb") as handle:
                for piece in _encode_part(self.key, part, self.parts, result):
                    handle.write(piece)
                handle.flush()
                os.fsync(fd)
                info = os.fstat(fd)
            os.replace(temporary, self.folder / name)
            made = False
        except IsADirectoryError:  # a folder took the name meanwhile: not kept
            self.blocked.add(part)
        except BaseException as error:
            if isinstance(error, OSError) and not isinstance(error, FileNotFoundError):
                raise FivecardError(
                    f"cannot write the checkpoint {quote(str(self.folder / name), PATH_QUOTE)}: "
                    f"{error.strerror}"
                ) from error
            raise
        finally:
            if made:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
        if part in self.blocked:
            return
        self.own[name] = _identity(info)
        with contextlib.suppress(OSError, AttributeError):
            directory = os.open(self.folder, os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)

    def remove(self) -> None:
        """Delete the part files this run wrote or accepted (those still
        there as they were), then the folder if nothing else is in it."""
        for name, identity in self.own.items():
            path = self.folder / name
            with contextlib.suppress(OSError):
                if _identity(os.lstat(path)) == identity:
                    path.unlink()
        with contextlib.suppress(OSError):
            self.folder.rmdir()


def _identity(info: os.stat_result) -> tuple[int, ...]:
    """What tells a file from another put in its place: its inode (which a
    new file may reuse at once), size and time of change of its data."""
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def _rejections_note(folder: Path, parts: int, rejected: Sequence[_Rejection]) -> str:
    """One sentence for the run's note: how many parts on disk failed
    their checks, and why, grouped.

    >>> print(_rejections_note(Path("c/k"), 6, [(1, "damaged (truncated or extended)"), (4, "a copy of another part"),
    ...                                         (5, "damaged (truncated or extended)")]))
    the checkpoints in 'c/k': 3 of 6 parts failed their checks and are run again: damaged (truncated or extended): parts 1 and 5; a copy of another part: part 4
    """
    groups: dict[str, list[int]] = {}
    for part, reason in rejected:
        groups.setdefault(reason, []).append(part)

    def which(numbers: list[int]) -> str:
        shown = [str(n) for n in numbers[:5]]
        if len(numbers) > 5:
            shown.append(f"{len(numbers) - 5:,} more")
        listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        return f"part{'' if len(numbers) == 1 else 's'} {listed}"

    reasons = "; ".join(f"{reason}: {which(numbers)}" for reason, numbers in groups.items())
    return (
        f"the checkpoints in {quote(str(folder), PATH_QUOTE)}: {len(rejected)} of {parts} parts failed their "
        f"checks and are run again: {reasons}"
    )


def _checked(result: object, part: int) -> Result:
    if not isinstance(result, dict):
        raise TypeError(f"part {part} returned {type(result).__name__}, not a dict of arrays")
    for name, value in result.items():
        if not isinstance(name, str) or not isinstance(value, np.ndarray):
            raise TypeError(f"part {part} returned {name!r}: {type(value).__name__}, not an array")
        if value.dtype.hasobject:
            raise TypeError(f"part {part} returned {name!r} of object dtype")
        if not _DTYPE.fullmatch(value.dtype.str) or value.dtype.itemsize == 0:
            raise TypeError(f"part {part} returned {name!r} of dtype {value.dtype}, which checkpoints do not hold")
    return result


# ---------------------------------------------------------------- running


def run_parts(
    work: Callable[[Hashable, int], Result],
    spec: Hashable,
    parts: int,
    *,
    key: str,
    workers: int | None = None,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    keep: bool = False,
    client: Any = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    resume: str | None = None,
    threads: bool = False,
) -> list[Result]:
    """``work(spec, part)`` for every part ``0 .. parts-1``, in part order.

    ``work`` is a top-level function (Dask pickles it to the workers) and
    ``spec`` small: the work builds or caches its heavy tables per process.
    ``workers``: ``0`` runs in this process; ``N`` on a Dask ``LocalCluster``
    of N single-threaded processes; ``None`` one process a core. ``threads``
    (a job whose work is done with the GIL released, by a compiled kernel):
    the N workers are threads of this process instead, with or without
    Dask: they share this process's memory (its tables), start at once,
    listen on no port and hand their answers over without a copy; ``work``
    must then be safe to run in two threads at once.
    ``scheduler`` (an address such as ``tcp://host:8786``) uses an existing
    cluster instead, and ``client`` an existing Dask client (neither closed
    here). Without Dask installed, workers of processes run in this process (see
    :func:`plan`) and a scheduler is a :class:`FivecardError`, as is a
    scheduler not reached within ``connect_timeout`` seconds.

    ``key`` names the job's checkpoints under ``checkpoint`` (letters,
    digits, ``.``, ``_``, ``-``); ``progress(done, parts)`` is called at the
    start and after each part. A checkpointed part that fails its checks is
    run again, and ``on_note`` (if given) hears one sentence saying how many
    and why, before the first part runs. An exception raised by ``work``
    (here or on a worker) reaches the caller as itself, with the finished
    parts kept. An interrupt (:class:`KeyboardInterrupt`) does too, with a
    note (``add_note``) of the parts kept and how to resume: ``resume``, in
    the caller's words (a command line), else that the same job resumes.
    """
    if not isinstance(key, str) or not _KEY.fullmatch(key) or key in {".", ".."}:
        raise FivecardError(
            f"a job key is letters, digits, '.', '_' and '-', not {quote(str(key))}"
        )
    if isinstance(parts, bool) or not isinstance(parts, int):
        raise TypeError(f"parts must be a whole number, not {type(parts).__name__}")
    if parts < 0:
        raise FivecardError(f"the number of parts must be 0 or more, not {parts}")
    mode, processes = ("client", 0) if client is not None else _mode(workers, scheduler, threads)

    store = _Checkpoints(checkpoint, key, parts) if checkpoint is not None else None
    results: dict[int, Result] = {}
    if store is not None:
        results, rejected = store.load()
        if rejected and on_note is not None:
            on_note(_rejections_note(store.folder, parts, rejected))
    todo = [part for part in range(parts) if part not in results]

    def finished(part: int, result: object) -> None:
        results[part] = _checked(result, part)
        if store is not None:
            store.save(part, results[part])
        if progress is not None:
            progress(len(results), parts)

    if progress is not None:
        progress(len(results), parts)
    if todo:
        try:
            with _place(mode, processes, scheduler, client, key, connect_timeout, threads) as where:
                where.run(work, spec, todo, finished)
        except KeyboardInterrupt as stop:
            if store is not None and store.own:  # the parts this run wrote or found
                how = resume or "the same job run again resumes from them"
                stop.add_note(
                    f"{len(store.own):,} of {parts:,} parts done are kept in "
                    f"{quote(str(store.folder), PATH_QUOTE)}; {how}"
                )
            raise
    if store is not None and not keep:
        store.remove()
    return [results[part] for part in range(parts)]


class Where(Protocol):
    """A place where a job's parts run: this process, its threads, a Dask
    cluster, or processes forked from this one (:class:`Forked`)."""

    def run(
        self, work: Callable[..., Any], spec: Any, todo: Sequence[int], finished: Callable[[int, Any], None]
    ) -> None:
        """``work(spec, part)`` for each part of ``todo``, its answer handed
        to ``finished(part, answer)`` as it comes; an exception raised by
        ``work`` reaches the caller as itself; whatever the place started is
        stopped on the way out, however it ends."""


@contextlib.contextmanager
def _place(
    mode: str, processes: int, scheduler: str | None, client: Any, key: str, timeout: float, threads: bool
) -> Iterator[Where]:
    """Where :func:`run_parts` runs the parts: this process, its threads
    (``threads``, for a local run), the ``client`` given, or a new client
    (of a local cluster or of the cluster at ``scheduler``) closed on
    leaving."""
    if mode == "process":
        yield _Here()
    elif mode == "client":
        yield _OnDask(client, key)
    elif mode == "local" and threads:
        yield _Threads(processes)
    else:
        with _quiet_dask(), _client(mode, processes, scheduler, timeout) as own:
            yield _OnDask(own, key)


class _Threads:
    """The parts on ``threads`` threads of this process (a
    :class:`concurrent.futures.ThreadPoolExecutor`), for work that releases
    the GIL: nothing to import or start, nothing listening, nothing copied;
    each answer handed on in this thread as it comes, and on any way out the
    parts not started are dropped and those running waited for. Not Dask's
    threaded scheduler, which did the same after an import of Dask (0.1 s
    of a 2 s solve on two threads, that no thread could share)."""

    def __init__(self, threads: int) -> None:
        self.threads = threads

    def run(
        self, work: Callable[..., Any], spec: Any, todo: Sequence[int], finished: Callable[[int, Any], None]
    ) -> None:
        import concurrent.futures

        pool = concurrent.futures.ThreadPoolExecutor(self.threads, thread_name_prefix="fivecard-part")
        try:
            running = {pool.submit(work, spec, part): part for part in todo}
            for future in concurrent.futures.as_completed(running):
                finished(running[future], future.result())
        finally:
            with signals_held():  # the parts running end (a part's time at most) even if stopped again
                pool.shutdown(wait=True, cancel_futures=True)


class _Here:
    """The parts one after another in this process."""

    def run(
        self, work: Callable[..., Any], spec: Any, todo: Sequence[int], finished: Callable[[int, Any], None]
    ) -> None:
        for part in todo:
            finished(part, work(spec, part))


@dataclasses.dataclass
class _OnDask:
    """The parts submitted to a Dask cluster through ``client``, each a task
    named by the job's ``key``; their answers handed on as they arrive; the
    parts not finished cancelled on any exit but success."""

    client: Any
    key: str

    def run(
        self, work: Callable[..., Any], spec: Any, todo: Sequence[int], finished: Callable[[int, Any], None]
    ) -> None:
        import concurrent.futures
        import uuid

        as_completed = _distributed().as_completed
        token = uuid.uuid4().hex[:12]  # two runs of one key on one cluster are separate tasks
        futures: dict[Any, int] = {}
        try:
            # one graph for every part: a submit each was a message each to the scheduler
            keys = [f"{self.key}-part-{part:05d}-{token}" for part in todo]
            submitted = self.client.map(work, [spec] * len(todo), list(todo), key=keys, pure=False)
            futures.update(zip(submitted, todo, strict=True))
            for future in as_completed(list(futures)):
                try:
                    result = future.result()
                except FivecardError:
                    raise
                except (concurrent.futures.CancelledError, OSError) as error:
                    # the scheduler lost (FutureCancelledError is a CancelledError;
                    # CommClosedError an OSError)
                    raise _cluster_stopped(error) from error
                except Exception as error:
                    if type(error).__module__.startswith("distributed"):  # KilledWorker and the like
                        raise _cluster_stopped(error) from error
                    raise
                finished(futures[future], result)
                futures.pop(future)
        finally:
            if futures:
                with contextlib.suppress(Exception):
                    self.client.cancel(list(futures))


def _cluster_stopped(error: BaseException) -> FivecardError:
    return FivecardError(
        f"the Dask cluster stopped the run ({type(error).__name__}: {error}); the parts "
        "finished are kept with the checkpoints: run again to resume"
    )


# ---------------------------------------------------------------- forked processes


@dataclasses.dataclass
class _Process:
    """One part's forked process."""

    part: int
    process: Any
    answer: Any  # the receiving end of its pipe
    counters: Any  # shared with it: the numbers it sets as it goes
    done: bool = False  # its answer received


class Forked:
    """Parts run by processes forked from this one: each starts with
    everything this process has loaded (nothing pickled but the answer),
    and sends back what its part returns, or its exception, raised here
    as itself (one that cannot be sent, as a :class:`FivecardError` with
    its text). A process that ends without a word is a
    :class:`FivecardError`: "a process ``doing`` stopped (exit code N)".

    ``counters``: each part is called as ``work(spec, part, counters)``,
    ``counters`` that many whole numbers it sets as it goes, shared with
    this process (:meth:`counted` sums them: its progress); with none,
    ``work(spec, part)``. Only where :meth:`available`.

    The processes ignore the stop signals (Ctrl-C, SIGTERM, SIGHUP, which a
    terminal or a service manager sends to the whole group): this process
    hears them and stops the others; each is registered as it starts, with
    the signals held (:func:`~fivecard.vector.stops.signals_held`), and
    killed, if still running, and reaped on the way out, however it ends.
    """

    def __init__(self, *, counters: int = 0, doing: str = "running part of a job", poll: float = 0.2) -> None:
        self.counters = counters
        self.doing = doing
        self.poll = poll  # seconds between calls of ``waiting`` while an answer is awaited
        self.processes: list[_Process] = []

    @staticmethod
    def available() -> bool:
        """Whether parts can be forked here: ``fork`` (Linux), and no other
        thread running (a fork copies only the calling thread)."""
        return sys.platform.startswith("linux") and threading.active_count() == 1

    def counted(self, index: int, *, unfinished: bool = False) -> int:
        """Counter ``index`` summed over the forked parts (``unfinished``:
        those whose answer is not yet received)."""
        return sum(int(p.counters[index]) for p in self.processes if not (unfinished and p.done))

    def run(
        self,
        work: Callable[..., Any],
        spec: Any,
        todo: Sequence[int],
        finished: Callable[[int, Any], None],
        *,
        here: Callable[[], Any] | None = None,
        waiting: Callable[[], None] | None = None,
        flush: Sequence[Any] = (),
    ) -> None:
        """Each part of ``todo`` in a process forked for it (``here``: the
        first part in this process instead, by ``here()``, once the others
        are started), their answers handed to ``finished`` in ``todo``'s
        order; ``waiting()`` is called now and then while an answer is
        awaited. ``flush``: streams (besides standard output and error)
        whose buffered bytes a forked process must not write again."""
        import multiprocessing

        context = multiprocessing.get_context("fork")
        for stream in (*flush, sys.stdout, sys.stderr):
            with contextlib.suppress(AttributeError, OSError, ValueError):
                stream.flush()
        self.processes = []
        if not todo:
            return
        try:
            for part in todo[1:] if here is not None else todo:
                with signals_held():  # a process started is a process registered, to be stopped
                    self.processes.append(self._start(context, work, spec, part))
            if here is not None:
                finished(todo[0], here())
            for process in self.processes:
                finished(process.part, self._answer(process, waiting))
        finally:
            self._stop()

    def _start(self, context: Any, work: Callable[..., Any], spec: Any, part: int) -> _Process:
        receive, send = context.Pipe(duplex=False)
        counters = context.Array("q", self.counters, lock=False) if self.counters else None
        args = (work, spec, part, counters, send)
        process = context.Process(target=_child, args=args, name="fivecard-part", daemon=True)
        started = _Process(part, process, receive, counters)
        process.start()
        send.close()
        return started

    def _answer(self, process: _Process, waiting: Callable[[], None] | None) -> Any:
        while not process.answer.poll(self.poll):
            if waiting is not None:
                waiting()
        try:
            kind, answer = process.answer.recv()
        except EOFError:  # it ended without a word
            process.process.join()
            raise FivecardError(f"a process {self.doing} stopped (exit code {process.process.exitcode})") from None
        process.done = True
        if kind == "error":
            raise answer
        return answer

    def _stop(self) -> None:
        """End the processes (killed, if still running) and reap them."""
        for process in self.processes:
            if process.process.is_alive():
                process.process.kill()
            process.process.join()
            process.answer.close()


def _child(work: Callable[..., Any], spec: Any, part: int, counters: Any, answer: Any) -> None:
    """In a forked process: run the part; send back its answer (or the error)."""
    # A stop signal sent to the whole group (Ctrl-C, a closed terminal, a
    # service manager) reaches this process too: the first process hears it
    # and stops this one.
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    try:
        answer.send(("done", work(spec, part) if counters is None else work(spec, part, counters)))
    except BaseException as exc:  # noqa: BLE001 - handed to the first process, raised there
        try:
            answer.send(("error", exc))
        except Exception:  # noqa: BLE001 - an exception that cannot be sent: its text can
            answer.send(("error", FivecardError(f"{type(exc).__name__}: {exc}")))
    finally:
        answer.close()


# ---------------------------------------------------------------- Dask


@contextlib.contextmanager
def _client(mode: str, processes: int, scheduler: str | None, timeout: float) -> Iterator[Any]:
    """A Dask client of a new local cluster or of the cluster at
    ``scheduler``; both are closed on leaving, whatever the way out."""
    Client = _distributed().Client
    if mode == "remote":
        assert scheduler is not None
        try:
            _reach(scheduler, timeout)
            client = Client(scheduler, timeout=timeout)
        except Exception as error:
            raise FivecardError(
                f"cannot reach the Dask scheduler at {quote(scheduler)}: {error}"
            ) from error
        try:
            yield client
        finally:
            _close(client, last=True)
        return
    with _local_cluster(processes) as cluster:
        client = Client(cluster)
        try:
            yield client
        finally:
            _close(client)


@contextlib.contextmanager
def _local_cluster(processes: int) -> Iterator[Any]:
    """A Dask ``LocalCluster`` of ``processes`` single-threaded worker
    processes on 127.0.0.1, no dashboard, closed on leaving.

    Each worker's BLAS is limited to one thread. The worker processes import
    numpy before they apply the nanny's ``env``, so the limit is set in this
    process's environment while the workers are spawned (distributed's
    "pre-spawn" environment, which the nanny re-applies if it restarts a
    worker) and this process's own settings are restored afterwards.

    The workers keep glibc's own memory settings: distributed sets
    ``MALLOC_TRIM_THRESHOLD_`` by default, and any such setting turns off
    glibc's adaptive mmap threshold, so that every large temporary array is
    mapped and its pages faulted in afresh (the dealer solver's parts ran
    2.2 times slower on a worker than in this process).

    The workers ignore Ctrl-C (SIGINT, which a terminal sends to the whole
    process group): they are spawned while this process ignores it, and a
    Python that starts with SIGINT ignored keeps it so. The other stop
    signals (SIGTERM, SIGHUP: a service manager, a closed terminal) are held
    meanwhile and blocked in this thread, so that the workers, and the
    helper processes and threads started with them, begin with them blocked
    and never see one, and one sent to this process is raised once the
    cluster can be closed. This process stops them when it is interrupted;
    left to themselves they printed a traceback each.

    The workers do not profile themselves: Dask's profiler, for a dashboard
    the cluster does not have, samples every running thread's stack a
    hundred times a second, holding the GIL."""
    import logging

    import dask

    LocalCluster = _distributed().LocalCluster
    saved = {name: os.environ.get(name) for name in _ONE_THREAD}
    os.environ.update(_ONE_THREAD)
    cluster: Any = None
    try:
        with signals_held(spawning=True):
            try:
                with _sigint_ignored(), dask.config.set(
                    {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None, **_NO_PROFILER}
                ):
                    cluster = LocalCluster(
                        n_workers=processes,
                        threads_per_worker=1,
                        processes=True,
                        host="127.0.0.1",
                        dashboard_address=None,
                        # no dashboard, but the scheduler's HTTP server (health checks)
                        # stays: on a free port, not the dashboard's 8787
                        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                        # a worker that loses the scheduler as an interrupted run
                        # closes logs an ERROR with a traceback: the run's one line says it
                        silence_logs=logging.CRITICAL,
                        env=dict(_ONE_THREAD),
                    )
            finally:
                for name, value in saved.items():
                    if value is None:
                        os.environ.pop(name, None)
                    else:
                        os.environ[name] = value
        yield cluster
    finally:
        if cluster is not None:
            _close(cluster, last=True)


@contextlib.contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's own log lines (and those of the event loop it runs on) kept
    from stderr meanwhile: a lost scheduler logs an ERROR, and the closing
    client a CancelledError, before the run's one-line error says it."""
    import logging

    _distributed()  # imported first: importing it sets its loggers' levels
    names = ["distributed", "tornado", "asyncio"]
    names += [name for name in logging.root.manager.loggerDict if name.startswith(("distributed.", "tornado."))]
    loggers = [logging.getLogger(name) for name in names]
    before = [(logger, logger.level) for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in before:
            logger.setLevel(level)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored meanwhile, then as it was (from the main thread only;
    elsewhere nothing changes). A Ctrl-C while the workers start (a few
    seconds) is lost; one after stops the run."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _distributed() -> Any:
    """The ``distributed`` module, imported on first use (typed loosely: its
    functions carry no annotations)."""
    return importlib.import_module("distributed")


def _reach(scheduler: str, timeout: float) -> None:
    """Connect to the scheduler once and hang up, from this thread: a Dask
    client that cannot connect leaves its event loop's thread running."""
    import asyncio

    distributed = _distributed()
    arguments = distributed.security.Security().get_connection_args("client")

    async def probe() -> None:
        comm = await distributed.comm.connect(scheduler, timeout=timeout, **arguments)
        await comm.close()

    try:
        asyncio.get_running_loop()
    except RuntimeError:  # none here (the usual case): probe
        asyncio.run(probe())


def _release_offload_thread() -> None:
    """Retire distributed's helper thread once no Dask client is left here.

    distributed (de)serialises on one module-wide thread that otherwise lives
    as long as the process, and a process with threads cannot safely fork
    (:mod:`fivecard.files.parallel` would then solve in one process). The
    executor is swapped for a fresh one, which starts no thread until used."""
    from concurrent.futures import ThreadPoolExecutor

    try:
        utils: Any = importlib.import_module("distributed.utils")
        clients = importlib.import_module("distributed.client")._global_clients
        old = utils._offload_executor
    except (ImportError, AttributeError):  # another version of distributed: leave it be
        return
    if len(clients) or not isinstance(old, ThreadPoolExecutor):
        return
    utils._offload_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="Dask-Offload")
    old.shutdown(wait=True)


def _close(thing: Any, *, last: bool = False) -> None:
    """Close a Dask client or cluster (``last``: the run's last, then retire
    distributed's helper thread too, :func:`_release_offload_thread`), even
    when interrupted again: a stop signal meanwhile (Ctrl-C pressed twice)
    is held and raised once it is done. A cluster left half-closed kept its
    workers (threads or processes) running, and held the process's exit
    10 s while distributed closed it there."""
    with signals_held():
        with contextlib.suppress(Exception):
            thing.close()
        if last:
            _release_offload_thread()
