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
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any

__all__ = ["ENVIRONMENT", "directory", "path", "load", "store", "module_digest"]

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


def path(name: str, key: tuple[object, ...], folder: str) -> str:
    """The file for a rule set of that name and key in ``folder``."""
    text = repr(_full_key(key)).encode()
    digest = f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_" for c in name)
    return os.path.join(folder, f"{safe[:40]}-{digest}.tables")


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
    data = _MAGIC + zlib.crc32(body).to_bytes(4, "little") + body
    import tempfile  # only here: writing is rare, and tempfile is slow to import

    target = path(name, key, folder)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        handle, temporary = tempfile.mkstemp(
            prefix=os.path.basename(target) + ".", suffix=".tmp", dir=folder
        )
    except (OSError, ValueError):
        return
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, target)
    except (OSError, ValueError):
        try:
            os.unlink(temporary)
        except OSError:
            pass
