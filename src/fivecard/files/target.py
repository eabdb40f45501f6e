"""Where output goes, so that nothing is lost: a file is written atomically,
never over its own input.

* :func:`refuse_same_file` stops an output that is the input (the same file
  by any path, link or ``-`` redirection) before anything is read.
* :class:`Target` writes a file to a temporary file beside it and renames it
  over the file only when the run succeeds; on an error, an interrupt
  (Ctrl-C, SIGTERM or SIGHUP, which the command raises as
  :class:`KeyboardInterrupt`) or a full disk the temporary file is removed
  and the earlier file (or no file) remains. A device or a pipe named as
  the output (``/dev/null``, a FIFO) is written directly; standard output
  is written as it goes, except binary output (``.xlsx``), which is built
  in a temporary file first and copied out whole, and never to a terminal.
"""

from __future__ import annotations

import contextlib
import io
import os
import queue
import stat
import tempfile
import threading
import time
from typing import IO, Any

from ..core.errors import PATH_QUOTE, FileAccessError, FileError, quote
from ..vector.stops import signals_held

__all__ = ["Target", "WriteBehind", "refuse_same_file", "write_error"]


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def refuse_same_file(output: str | None, input_path: str, stdin: Any, stdout: Any = None) -> None:
    """Raise :class:`FileError` when the output is the input file: the same
    path, another spelling, a link, the file behind standard input, or
    standard output redirected to the input (``solve in.txt >> in.txt``
    would read its own output back for ever)."""
    if output in (None, "-"):
        try:
            target: os.stat_result | None = os.fstat(stdout.fileno())
        except (AttributeError, OSError, ValueError):  # not a file (tests, a closed stream)
            return
        output_name = "standard output"
    else:
        assert output is not None
        target = _stat(output)
        output_name = quote(output, PATH_QUOTE)
    if target is None or not stat.S_ISREG(target.st_mode):
        return
    if input_path == "-":
        try:
            source = os.fstat(stdin.fileno())
        except (AttributeError, OSError, ValueError):
            return
        what = "standard input"
    else:
        found = _stat(input_path)
        if found is None:
            return
        source, what = found, quote(input_path, PATH_QUOTE)
    if (source.st_dev, source.st_ino) == (target.st_dev, target.st_ino):
        raise FileError(
            f"the output ({output_name}) is the input ({what}); writing it would destroy "
            "the input: choose another output file"
        )


def write_error(exc: OSError, name: str) -> FileAccessError:
    """A :class:`FileAccessError` for a failed write, e.g. a full disk (one
    already said is kept as it is)."""
    if isinstance(exc, FileAccessError):
        return exc
    return FileAccessError(f"cannot write {name}: {exc.strerror or exc}")


class Target:
    """An output: the file ``path``, or standard output ``out`` (a text
    stream, with its bytes beneath as ``out.buffer`` when it has them).
    Write text to :attr:`text` or bytes to :attr:`binary`, not both; then
    :meth:`commit` on success, or :meth:`abort`."""

    def __init__(self, path: str | None, out: IO[str] | None, *, binary: bool, utf8: bool = False) -> None:
        """``utf8``: text goes out as UTF-8 even where standard output's
        encoding is another (machine formats: CSV, JSON Lines)."""
        self.path = path if path not in (None, "-") else None
        # The file written: a symbolic link's target, so the link stays a link.
        self._real = os.path.realpath(self.path) if self.path is not None else None
        self.out = out
        self._temp: str | None = None
        self._existed = False
        self._text: IO[str] | None = None
        self._wrapped = False  # _text wraps standard output's bytes
        self._stream: IO[bytes] | None = None
        self._device: IO[bytes] | None = None
        self._done = False  # the output is complete and in place
        if self.path is None:
            if binary:
                if _isatty(out):
                    raise FileError("a workbook is binary and is not written to a terminal")
                if getattr(out, "buffer", None) is None:
                    raise FileError("a workbook is binary and needs a file")
                self._open_temp(tempfile.gettempdir(), "fivecard-")
            elif utf8 and getattr(out, "buffer", None) is not None and not _is_utf8(out):
                assert out is not None
                out.flush()
                self._text = io.TextIOWrapper(out.buffer, encoding="utf-8", errors="replace", newline="")  # type: ignore[attr-defined]
                self._wrapped = True
            else:
                self._text = out
            return
        found = _stat(self.path)
        self._existed = found is not None
        if found is not None and not stat.S_ISREG(found.st_mode):
            try:  # a device or a pipe: written directly (a workbook, once built)
                self._device = open(self.path, "wb")  # noqa: SIM115 - closed by commit/abort
            except OSError as exc:
                raise write_error(exc, quote(self.path, PATH_QUOTE)) from None
            if binary:
                self._open_temp(tempfile.gettempdir(), "fivecard-")
            else:
                self._stream = self._device
            return
        assert self._real is not None
        self._open_temp(os.path.dirname(self._real), "." + os.path.basename(self._real) + ".")

    def _open_temp(self, folder: str, prefix: str) -> None:
        try:
            with signals_held():
                handle, self._temp = tempfile.mkstemp(prefix=prefix, suffix=".part", dir=folder)
        except OSError as exc:
            raise write_error(exc, quote(self.path, PATH_QUOTE) if self.path else "a temporary file") from None
        self._stream = os.fdopen(handle, "w+b")

    @property
    def folder(self) -> str:
        """Where files made on the way to this output go: beside the file,
        or (standard output, a device) the temporary folder."""
        if self._real is not None and self._device is None:
            return os.path.dirname(self._real)
        return tempfile.gettempdir()

    @property
    def name(self) -> str:
        return quote(self.path, PATH_QUOTE) if self.path else "standard output"

    @property
    def text(self) -> IO[str]:
        """The output as text (UTF-8)."""
        if self._text is None:
            assert self._stream is not None
            self._text = io.TextIOWrapper(self._stream, encoding="utf-8", errors="replace", newline="")
        return self._text

    @property
    def binary(self) -> IO[bytes] | None:
        """The output as bytes, or None for a text stream without bytes beneath."""
        if self._stream is not None:
            return self._stream
        buffer = getattr(self.out, "buffer", None)
        if buffer is not None and self.out is not None:
            self.out.flush()
        return buffer

    def commit(self) -> None:
        """Finish: flush, and put the file in place (or copy a built
        workbook to standard output)."""
        try:
            if self._text is not None:
                self._text.flush()
                if self._wrapped:
                    self._text.detach()  # type: ignore[attr-defined]  # standard output stays open
                    self._wrapped = False
            if self._stream is None:
                return
            self._stream.flush()
            copy_to = self._device if self.path is not None else getattr(self.out, "buffer", None)
            if self._temp is not None and (self.path is None or self._device is not None):
                # a workbook built aside, for standard output or a device
                assert copy_to is not None
                self._stream.seek(0)
                _copy(self._stream, copy_to)
                self._stream.close()
                if self._device is not None:
                    self._device.close()
                with signals_held():
                    os.unlink(self._temp)
                    self._temp = None
                    self._done = True
                return
            self._stream.close()
            if self._temp is not None:
                with signals_held():
                    assert self._real is not None
                    os.chmod(self._temp, _mode(self._real))
                    os.replace(self._temp, self._real)
                    self._temp = None
                    self._done = True
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise write_error(exc, self.name) from None

    def abort(self, during: BaseException | None = None) -> str:
        """Give up: remove the temporary file. Returns what the user should
        know of the output, e.g. ``nothing was written ('out.csv' is unchanged)``,
        and adds it as a note to ``during``, the exception that stops the
        run (an interrupt's one line says it)."""
        what = self._abort()
        if what and during is not None:
            during.add_note(what)
        return what

    def _abort(self) -> str:
        if self._done:  # a Ctrl-C just after the output was put in place
            return f"{self.name} was written in full before that"
        if self._wrapped and self._text is not None:
            with contextlib.suppress(OSError, ValueError):
                self._text.detach()  # type: ignore[attr-defined]
            self._wrapped = False
        if self._stream is not None:
            if self._text is not None:
                with contextlib.suppress(OSError, ValueError):
                    self._text.detach()  # type: ignore[attr-defined]  # the file is dropped anyway
            with contextlib.suppress(OSError, ValueError):
                self._stream.close()
        if self._device is not None:
            with contextlib.suppress(OSError, ValueError):
                self._device.close()
        if self._temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._temp)
            self._temp = None
            if self.path is None or self._device is not None:
                return "nothing was written"
            if self._existed:
                return f"nothing was written ({self.name} is unchanged)"
            return f"nothing was written ({self.name} was not created)"
        return ""  # a device, a pipe or standard output: what went out stays out


class WriteBehind:
    """A byte stream whose writes are done by a thread of its own, at most
    ``depth`` writes behind: the system's work of a big write (copying it
    into the page cache) overlaps the making of the next one. An error of a
    write is raised by the next call (:meth:`write`, :meth:`flush` or
    :meth:`close`); nothing is written after it."""

    def __init__(self, out: IO[bytes], depth: int = 2) -> None:
        self.out = out
        self._queue: queue.Queue[bytes | None] = queue.Queue(maxsize=depth)
        self._error: BaseException | None = None
        self._dropped = False  # given up: what is queued is not written
        self._thread = threading.Thread(target=self._run, name="fivecard-write", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            data = self._queue.get()
            try:
                if data is None:
                    return
                if self._error is None and not self._dropped:
                    self.out.write(data)
            except BaseException as exc:  # noqa: BLE001 - raised in the caller's thread
                self._error = exc
            finally:
                self._queue.task_done()

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error

    def write(self, data: bytes) -> int:
        self._raise()
        self._queue.put(bytes(data))
        return len(data)

    def flush(self) -> None:
        """Wait for every write, then flush the stream."""
        self._queue.join()
        self._raise()
        self.out.flush()

    def close(self) -> None:
        """Flush, and end the thread (the stream stays open)."""
        try:
            self.flush()
        finally:
            self._queue.put(None)
            self._thread.join()

    def drop(self) -> None:
        """Give up (after an error): what is queued is not written, and the
        thread ends once its write in progress returns."""
        self._dropped = True
        with contextlib.suppress(queue.Full):
            self._queue.put_nowait(None)

    def fileno(self) -> int:
        return self.out.fileno()

    def seekable(self) -> bool:
        return self.out.seekable()

    def seek(self, offset: int, whence: int = 0) -> int:
        self.flush()
        return self.out.seek(offset, whence)


def _copy(source: IO[bytes], target: IO[bytes]) -> None:
    """Copy every byte (a short write to a pipe is written on, so a reader
    that goes away is a BrokenPipeError, never a cut output and exit 0)."""
    while block := source.read(1 << 16):
        view = memoryview(block)
        while view:
            written = target.write(view)
            if written is None:  # a non-blocking stream that took nothing yet
                time.sleep(0.01)
                continue
            if written == 0:
                raise BrokenPipeError("the reader took no more")
            view = view[written:]
    target.flush()


def _is_utf8(stream: object) -> bool:
    encoding = (getattr(stream, "encoding", None) or "utf-8").lower().replace("_", "-")
    return encoding in ("utf-8", "utf8", "utf-8-sig")


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except (OSError, ValueError):
        return False


def _mode(path: str) -> int:
    """The permissions of the file being replaced, or the default for a new
    file (0666 less the umask), instead of a temporary file's 0600."""
    found = _stat(path)
    if found is not None:
        return stat.S_IMODE(found.st_mode)
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
