"""Toy work functions for tests/vector/test_jobs.py, in a module of their own so
that Dask's worker processes import them by name (the workers start with
this process's ``sys.path``)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Hashable
from pathlib import Path

import numpy as np

from fivecard.core.errors import HandError
from fivecard.vector.jobs import Result

#: (length of the arrays, a folder to mark each call in or "", a part that fails or -1)
Spec = tuple[int, str, int]


def toy(spec: Hashable, part: int) -> Result:
    """Arrays that depend on the spec and the part; a file in the marks
    folder for each call; a HandError for the failing part."""
    assert isinstance(spec, tuple)
    size, marks, fail = spec
    if marks:
        (Path(marks) / f"part-{part}-{uuid.uuid4().hex}").touch()
    if part == fail:
        raise HandError(f"part {part} is not a hand ('XX')")
    values = np.arange(size, dtype=np.int64) * (part + 1)
    return {"values": values, "share": np.array([part / 7, size / 3]), "flag": np.array(part % 2 == 0)}


def blas_threads(spec: Hashable, part: int) -> Result:
    """The BLAS thread settings the process running the part started with
    (what numpy's BLAS read when the process imported numpy, before any
    change to ``os.environ``): its initial environment on Linux."""
    names = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
    try:
        block = Path("/proc/self/environ").read_bytes()
        initial = dict(
            entry.decode().partition("=")[::2] for entry in block.split(b"\0") if b"=" in entry
        )
    except OSError:  # not Linux: the environment as it is now
        initial = dict(os.environ)
    return {"threads": np.array([int(initial.get(name, "-1")) for name in names])}


def worker_settings(spec: Hashable, part: int) -> Result:
    """Whether the process running the part ignores Ctrl-C (SIGINT), and
    whether it started with MALLOC_TRIM_THRESHOLD_ set (its initial
    environment on Linux)."""
    import signal

    try:
        block = Path("/proc/self/environ").read_bytes()
        trim = b"MALLOC_TRIM_THRESHOLD_=" in block
    except OSError:
        trim = "MALLOC_TRIM_THRESHOLD_" in os.environ
    return {"ignores_sigint": np.array([signal.getsignal(signal.SIGINT) == signal.SIG_IGN]), "trim": np.array([trim])}


def lost_worker(spec: Hashable, part: int) -> Result:
    """A part whose connection to the cluster is lost."""
    from distributed.comm.core import CommClosedError

    raise CommClosedError(f"in <TCP (closed) local=tcp://127.0.0.1:1>: part {part}")


def where_run(spec: Hashable, part: int) -> Result:
    """The process and thread that ran the part, and whether this process
    listens (TCP) on the loopback only meanwhile."""
    import threading

    import psutil  # type: ignore[import-untyped]  # distributed's dependency, no stubs installed

    listening = {c.laddr.ip for c in psutil.Process().net_connections(kind="tcp") if c.status == psutil.CONN_LISTEN}
    return {
        "pid": np.array([os.getpid()]),
        "thread": np.array([threading.get_ident()], dtype=np.uint64),
        "loopback": np.array([listening <= {"127.0.0.1", "::1"}]),
    }


def profiled(spec: Hashable, part: int) -> Result:
    """Whether the Dask worker running the part samples its stacks (Dask's
    statistical profiler)."""
    from distributed import get_worker

    return {"profiled": np.array(["profile" in get_worker().periodic_callbacks])}
