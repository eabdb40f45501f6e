"""The signals that stop a run, held for a few instructions where a stop
must wait: a temporary file between its creation and its registration, a
helper process between its start and its registration.

Every way a process is asked to stop (Ctrl-C, SIGTERM, SIGHUP) becomes an
interrupt in the command (:mod:`fivecard.cli`); the code that makes files
and processes holds those signals here so that an interrupt never lands
between two steps that must both happen or neither.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["STOP_SIGNALS", "signals_held"]


#: The signals that stop a run (Ctrl-C, ``kill``, a closed terminal): the
#: command makes each an interrupt, and :func:`signals_held` holds them all.
STOP_SIGNALS: tuple[int, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextlib.contextmanager
def signals_held(*, spawning: bool = False) -> Iterator[None]:
    """Hold the stop signals for a few instructions (a temporary file must
    not be left behind between its creation and its registration; a rename
    is done or not done, never half-reported). A signal meanwhile is
    delivered again after, to the handler there was before (the command's:
    an interrupt).

    Masking the signals would not do: with numpy loaded, other threads take
    them and Python still raises at once; a handler that only notes them does.
    ``spawning``: helper processes and threads are started meanwhile, and
    must never see a stop signal themselves (this process hears it and
    stops them): the signals are also blocked in this thread meanwhile, and
    what it starts begins with them blocked (a mask is inherited, a Python
    handler is not)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous: dict[int, Any] = {}
    try:
        for number in STOP_SIGNALS:
            previous[number] = signal.signal(number, lambda number, frame: caught.append(number))
    except (ValueError, OSError):  # signals cannot be handled here
        _restore(previous)
        yield
        return
    blocked = spawning and hasattr(signal, "pthread_sigmask")
    try:
        if blocked:
            signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        yield
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # one pending is noted here
        _restore(previous)
        if caught and previous[caught[0]] is not signal.SIG_IGN:
            signal.raise_signal(caught[0])


def _restore(handlers: dict[int, Any]) -> None:
    for number, handler in handlers.items():
        signal.signal(number, signal.SIG_DFL if handler is None else handler)
