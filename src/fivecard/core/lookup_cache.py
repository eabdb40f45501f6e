"""The user's cache of built tables, so that a process need not build them.

Building a rule set's tables (:mod:`fivecard.core.lookup`) takes 60-250 ms; loading
them from a file takes about a millisecond. Files live in
``$FIVECARD_CACHE`` if that is set (an empty value or ``off`` turns the cache
off), else in ``$XDG_CACHE_HOME/fivecard``, else in ``~/.cache/fivecard``.

A file is named after the rule set and a hash of its *key*: the data the
tables depend on (the ladder, the deck's suits and jokers, the straight rule,
the card weights), the package version and a checksum of the modules that
build the tables, so a changed rule set or a changed fivecard never reads a
stale file. The file repeats the key in full and ends its header with a
checksum of its contents; a file that is missing, truncated, corrupt or for
another key is ignored (the caller builds the tables again and replaces it).
Files are written whole (a temporary file, then a rename), and a directory
that cannot be written to only means no file is kept: the cache never makes
an evaluation fail.

Large tables that several processes read (the dealer game's counts, read by
every Dask worker) are kept as raw arrays instead (:func:`store_arrays`), in a
file each process maps (:func:`map_arrays`): the pages are read from disk once
and shared by every process that maps them, and a process that maps the file
spends a checksum over it, not the time to build the tables or its own copy of
them. The same checks apply: the key in full, a checksum of the header and one
of the data.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any

__all__ = ["ENVIRONMENT", "directory", "path", "load", "store", "module_digest", "store_arrays", "map_arrays"]

#: The environment variable that moves the cache (a directory) or turns it
#: off (empty, or ``off``).
ENVIRONMENT = "FIVECARD_CACHE"

_MAGIC = b"fivecard tables\n"
#: Raised when the file layout below changes.
_FORMAT = 1
#: The modules whose code decides what the tables (and the descriptions
#: beside them, :func:`fivecard.core.evaluate.class_descriptions`) hold.
_SOURCES = ("lookup.py", "rules.py", "cards.py", "evaluate.py", "lookup_cache.py")
_source_digest: int | None = None


def directory() -> str | None:
    """The cache directory (not created here), or None when caching is off."""
    chosen = os.environ.get(ENVIRONMENT)
    if chosen is not None:
        if chosen.strip().lower() in ("", "off"):
            return None
        return os.path.abspath(os.path.expanduser(chosen))
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, or relative: the XDG spec says ignore it
        base = os.path.expanduser(os.path.join("~", ".cache"))
        if not os.path.isabs(base):  # no home directory to expand
            return None
    return os.path.join(base, "fivecard")


def _sources() -> int:
    """A checksum of the modules that build the tables (0 where the source is
    not readable, e.g. from a zip; the package version still keys the file)."""
    global _source_digest
    if _source_digest is None:
        here = os.path.dirname(os.path.abspath(__file__))
        digest = 0
        for name in _SOURCES:
            try:
                with open(os.path.join(here, name), "rb") as source:
                    digest = zlib.crc32(source.read(), digest)
            except OSError:
                pass
        _source_digest = digest
    return _source_digest


_module_digests: dict[str, int] = {}


def module_digest(path: str) -> int:
    """A checksum of one module's code (its ``__file__``), read once, for
    the key of what that module builds and keeps here, so that a changed
    module never reads a stale file (0 where the source is not readable)."""
    if path not in _module_digests:
        try:
            with open(path, "rb") as source:
                _module_digests[path] = zlib.crc32(source.read())
        except OSError:
            _module_digests[path] = 0
    return _module_digests[path]


def _full_key(key: tuple[object, ...]) -> tuple[object, ...]:
    from .version import __version__

    return (_FORMAT, __version__, _sources(), sys.byteorder, key)


def path(name: str, key: tuple[object, ...], folder: str, suffix: str = ".tables") -> str:
    """The file for a rule set of that name and key in ``folder``."""
    text = repr(_full_key(key)).encode()
    digest = f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"
    return os.path.join(folder, f"{_safe(name)}-{digest}{suffix}")


def _safe(name: str) -> str:
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_" for c in name)[:40]


def load(name: str, key: tuple[object, ...]) -> object:
    """The payload stored for that key, or None (no cache, no file, or a file
    that is unreadable, damaged or for another key)."""
    folder = directory()
    if folder is None:
        return None
    try:
        with open(path(name, key, folder), "rb") as file:
            data = file.read()
    except (OSError, ValueError):
        return None
    head = len(_MAGIC) + 4
    if len(data) <= head or not data.startswith(_MAGIC):
        return None
    body = memoryview(data)[head:]
    if zlib.crc32(body) != int.from_bytes(data[len(_MAGIC) : head], "little"):
        return None
    try:
        stored_key, payload = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return None
    if stored_key != _full_key(key):
        return None
    return payload


def store(name: str, key: tuple[object, ...], payload: object) -> None:
    """Keep the payload for that key, written whole; any failure (no cache,
    a read-only or missing directory, a full disk) leaves things as they were."""
    folder = directory()
    if folder is None:
        return
    record: Any = (_full_key(key), payload)  # marshal takes plain data only
    body = marshal.dumps(record)
    _write_whole(path(name, key, folder), [_MAGIC, zlib.crc32(body).to_bytes(4, "little"), body])


def _write_whole(target: str, pieces: list[Any]) -> bool:
    """Write ``pieces`` (buffers) to ``target`` whole: a temporary file in its
    folder (made if missing), then a rename. False, and no file left, on any
    failure."""
    import tempfile  # only here: writing is rare, and tempfile is slow to import

    folder = os.path.dirname(target)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        handle, temporary = tempfile.mkstemp(
            prefix=os.path.basename(target) + ".", suffix=".tmp", dir=folder
        )
    except (OSError, ValueError):
        return False
    try:
        with os.fdopen(handle, "wb") as file:
            for piece in pieces:
                file.write(piece)
        os.replace(temporary, target)
    except (OSError, ValueError):
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return False
    return True


_ARRAYS_MAGIC = b"fivecard arrays\n"
_ALIGN = 64  # each array starts at a multiple of this many bytes
#: What store_arrays takes and map_arrays gives: per array its name, its type
#: (numpy's ``dtype.str``, such as ``'<u2'``), its shape and its bytes.
if TYPE_CHECKING:
    from collections.abc import Sequence

    Arrays = Sequence[tuple[str, str, tuple[int, ...], Any]]


def store_arrays(name: str, key: tuple[object, ...], arrays: Arrays, folder: str | None = None) -> str | None:
    """Keep ``arrays`` (each a name, a type, a shape and a C-contiguous buffer
    of its bytes) for that key in one file of ``folder`` (default: the
    cache's), for :func:`map_arrays`; the file's path, or None where it could
    not be written (no cache, a read-only or missing directory, a full disk:
    nothing is left behind). The files of that name kept for other keys
    (another version of fivecard: such files are large) are removed once it
    is written; a process that maps one meanwhile keeps its pages."""
    folder = directory() if folder is None else folder
    if folder is None:
        return None
    layout = []
    data: list[Any] = []
    at = 0
    data_crc = 0
    for array_name, kind, shape, buffer in arrays:
        view = memoryview(buffer).cast("B")
        pad = -at % _ALIGN
        if pad:
            data.append(bytes(pad))
            data_crc = zlib.crc32(bytes(pad), data_crc)
            at += pad
        layout.append((array_name, kind, tuple(shape), at, view.nbytes))
        data.append(view)
        data_crc = zlib.crc32(view, data_crc)
        at += view.nbytes
    record: Any = (_full_key(key), layout, at, data_crc)  # marshal takes plain data only
    header = marshal.dumps(record)
    start = len(_ARRAYS_MAGIC) + 12 + len(header)
    head = [
        _ARRAYS_MAGIC,
        len(header).to_bytes(8, "little"),
        zlib.crc32(header).to_bytes(4, "little"),
        header,
        bytes(-start % _ALIGN),
    ]
    target = path(name, key, folder, ".arrays")
    if not _write_whole(target, head + data):
        return None
    prefix = _safe(name) + "-"
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                digest = entry.name[len(prefix) : -len(".arrays")]
                if (
                    entry.name.startswith(prefix)
                    and entry.name.endswith(".arrays")
                    and len(digest) == 16
                    and all(c in "0123456789abcdef" for c in digest)
                    and entry.path != target
                ):
                    os.unlink(entry.path)
    except OSError:
        pass
    return target


def map_arrays(name: str, key: tuple[object, ...], folder: str | None = None) -> dict[str, tuple[str, tuple[int, ...], memoryview]] | None:
    """The arrays :func:`store_arrays` kept for that key in ``folder``
    (default: the cache's), each mapped read-only from the file (name ->
    type, shape, bytes), or None (no cache, no file, or a file that is
    unreadable, damaged or for another key)."""
    import mmap

    folder = directory() if folder is None else folder
    if folder is None:
        return None
    try:
        with open(path(name, key, folder, ".arrays"), "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size <= len(_ARRAYS_MAGIC) + 12:
                return None
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    whole = memoryview(mapped)
    try:
        found = _arrays_in(whole, key)
    except (ValueError, EOFError, TypeError):
        found = None
    if found is None:
        whole.release()
        mapped.close()
    return found


def _arrays_in(whole: memoryview, key: tuple[object, ...]) -> dict[str, tuple[str, tuple[int, ...], memoryview]] | None:
    """The arrays of a mapped file, once every check passes."""
    magic = len(_ARRAYS_MAGIC)
    if bytes(whole[:magic]) != _ARRAYS_MAGIC:
        return None
    length = int.from_bytes(whole[magic : magic + 8], "little")
    header = whole[magic + 12 : magic + 12 + length]
    if len(header) != length or zlib.crc32(header) != int.from_bytes(whole[magic + 8 : magic + 12], "little"):
        return None
    stored_key, layout, total, data_crc = marshal.loads(header)
    if stored_key != _full_key(key):
        return None
    start = magic + 12 + length
    start += -start % _ALIGN
    data = whole[start:]
    if len(data) != total or zlib.crc32(data) != data_crc:
        return None
    return {array_name: (kind, tuple(shape), data[at : at + nbytes]) for array_name, kind, shape, at, nbytes in layout}
