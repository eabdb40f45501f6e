"""What the web benchmarks share (``bench_web.py``, ``bench_tables.py``): a
small HTTP/1.1 keep-alive client on ``asyncio.open_connection``, latency
statistics, the CPU time and peak memory of a process, and a ``fivecard
serve`` started on 127.0.0.1 for the length of a run.

The benchmarks run as scripts (``python benchmarks/bench_web.py``): their
folder is first on ``sys.path``, so ``import webload`` finds this module.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit

__all__ = [
    "HTTPError", "Connection", "build_request", "SET_COOKIE", "Latencies", "process_cpu", "peak_rss_mb",
    "machine_busy", "CpuMeter", "server", "event_loop", "command_line",
]

T = TypeVar("T")

# --- a small HTTP/1.1 client ----------------------------------------------------------------


class HTTPError(Exception):
    """A response that could not be read."""


_CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*(\d+)", re.IGNORECASE)
SET_COOKIE = re.compile(rb"\r\nset-cookie:[ \t]*([^=;\r\n]+)=([^;\r\n]*)", re.IGNORECASE)


class Connection:
    """One keep-alive connection; requests on it go one after another."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.answered = 0  # responses read on the connection open now
        self.reopened = 0  # connections the server closed between requests

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.answered = 0

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def send(self, request: bytes) -> tuple[int, bytes, bytes]:
        """Write a whole request, read the whole response: (status, head, body).
        A keep-alive connection the server has closed before answering (as
        uvicorn does after an exception in the app, or after 5 s idle) is
        opened again and the request sent once more."""
        if self.writer is None:
            await self.open()
        assert self.reader is not None and self.writer is not None
        try:
            self.writer.write(request)
            head = await self.reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionResetError, BrokenPipeError) as exc:
            partial = getattr(exc, "partial", b"")
            if self.answered == 0 or partial:
                raise
            self.close()
            self.reopened += 1
            await self.open()
            assert self.reader is not None and self.writer is not None
            self.writer.write(request)
            head = await self.reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 "):
            raise HTTPError(f"not an HTTP/1.1 response: {head[:40]!r}")
        match = _CONTENT_LENGTH.search(head)
        if match is None:
            raise HTTPError("a response without content-length")
        body = await self.reader.readexactly(int(match.group(1)))
        self.answered += 1
        return int(head[9:12]), head, body


def build_request(host: str, method: str, path: str, body: bytes | None = None, cookie: str | None = None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"host: {host}", "accept: application/json"]
    if cookie:
        lines.append(f"cookie: {cookie}")
    if body is not None:
        lines += ["content-type: application/json", f"content-length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


# --- statistics -------------------------------------------------------------------------------


@dataclass
class Latencies:
    """Latencies in seconds, and the errors seen, of one kind of request."""

    times: list[float] = field(default_factory=list)
    errors: int = 0
    first_error: str = ""

    def error(self, what: str) -> None:
        self.errors += 1
        if not self.first_error:
            self.first_error = what

    def summary(self, seconds: float) -> dict[str, Any]:
        times = sorted(self.times)
        n = len(times)

        def pct(p: float) -> float:
            return round(times[min(n - 1, int(p / 100 * n))] * 1000, 2) if n else float("nan")

        return {
            "requests": n,
            "per_second": round(n / seconds, 1) if seconds > 0 else 0.0,
            "p50_ms": pct(50),
            "p90_ms": pct(90),
            "p99_ms": pct(99),
            "max_ms": round(times[-1] * 1000, 2) if n else float("nan"),
            "errors": self.errors,
            "first_error": self.first_error,
        }


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far, read from /proc
    (0.0 where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def peak_rss_mb(pid: int) -> float:
    """The peak resident memory of a process so far (VmHWM in /proc), in MB
    (nan where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return float("nan")


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (every core, any process),
    read from /proc/stat (0.0 where there is none)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        # user nice system idle iowait irq softirq steal ...: all but idle and iowait
        return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


class CpuMeter:
    """The CPU the server, this client and the whole machine use between
    start() and stop()."""

    def __init__(self, server_pid: int | None) -> None:
        self.server_pid = server_pid
        self.server = self.client = self.machine = self.wall = 0.0

    def start(self) -> None:
        self._server0 = process_cpu(self.server_pid) if self.server_pid else 0.0
        self._client0 = time.process_time()
        self._machine0 = machine_busy()
        self._wall0 = time.perf_counter()

    def stop(self) -> None:
        self.wall = time.perf_counter() - self._wall0
        self.client = time.process_time() - self._client0
        self.machine = machine_busy() - self._machine0
        self.server = process_cpu(self.server_pid) - self._server0 if self.server_pid else float("nan")

    def summary(self) -> dict[str, Any]:
        return {
            "seconds": round(self.wall, 3),
            "server_cpu_s": round(self.server, 2),
            "client_cpu_s": round(self.client, 2),
            "machine_cpu_s": round(self.machine, 2),
        }


# --- the server ---------------------------------------------------------------------------------


@contextmanager
def server(url: str | None, server_pid: int | None, log: list[str]) -> Iterator[tuple[str, int, int | None]]:
    """(host, port, pid) of the server to load: the one at ``url`` (``--url``;
    its pid ``server_pid``, if known), or a ``fivecard serve`` started here on
    127.0.0.1 and stopped afterwards (what it wrote on stderr is added to
    ``log`` then)."""
    if url:
        parts = urlsplit(url)
        host = parts.hostname or ""
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback or parts.port is None:
            raise SystemExit(f"--url {url}: only a loopback address with a port, e.g. http://127.0.0.1:8000/")
        yield host, parts.port, server_pid
        return
    exe = shutil.which("fivecard", path=os.path.dirname(sys.executable)) or shutil.which("fivecard")
    command = [exe] if exe else [sys.executable, "-m", "fivecard"]
    with tempfile.TemporaryDirectory(prefix="fivecard-bench-") as data, open(os.path.join(data, "stderr"), "w+") as err:
        proc = subprocess.Popen(
            [*command, "serve", "--host", "127.0.0.1", "--port", "0", "--data", data],
            stdout=subprocess.PIPE, stderr=err, text=True,
        )
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if match is None:
                proc.wait(timeout=10)
                err.seek(0)
                raise SystemExit(f"fivecard serve did not start: {line.strip()} {err.read().strip()}")
            port = int(match.group(1))
            _wait_until_up("127.0.0.1", port, proc)
            yield "127.0.0.1", port, proc.pid
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
            err.seek(0)
            log.extend(err.read().splitlines())


def _wait_until_up(host: str, port: int, proc: subprocess.Popen[str]) -> None:
    async def ask() -> int:
        conn = Connection(host, port)
        try:
            status, _, _ = await conn.send(build_request(f"{host}:{port}", "GET", "/openapi.json"))
            return status
        finally:
            conn.close()

    for _ in range(200):
        if proc.poll() is not None:
            raise SystemExit(f"fivecard serve stopped (exit {proc.returncode})")
        try:
            if asyncio.run(ask()) == 200:
                return
        except (OSError, asyncio.IncompleteReadError, HTTPError):
            pass
        time.sleep(0.05)
    raise SystemExit("fivecard serve did not answer within 10 seconds")


# --- running ----------------------------------------------------------------------------------


def event_loop() -> tuple[str, Callable[[Coroutine[Any, Any, T]], T]]:
    """The client's event loop: uvloop's when it is installed (cheaper per
    request), else asyncio's; its name and a ``run`` function."""
    try:
        import uvloop
    except ImportError:
        return "asyncio", asyncio.run
    return "uvloop", uvloop.run


def command_line() -> str:
    """This process's command line, as it can be typed again (the
    interpreter relative to the current folder when it is inside it)."""
    exe = os.path.relpath(sys.executable) if sys.executable.startswith(os.getcwd()) else sys.executable
    return shlex.join([exe, *sys.argv])


def describe_run(loop_name: str) -> dict[str, Any]:
    """The results' head: the command line and the machine it ran on."""
    return {
        "command": command_line(),
        "machine": {
            "cpus": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "python": platform.python_version(),
            "platform": platform.platform(),
            "client_loop": loop_name,
        },
    }


def announce(results: dict[str, Any], pid: int | None) -> None:
    """Say which server is loaded, from where, on what machine."""
    machine = results["machine"]
    print(f"server {results['server']['url']} (pid {pid}); client loop {machine['client_loop']}; "
          f"{machine['cpus']} CPUs, load average {machine['load_average']}", flush=True)


def finish(results: dict[str, Any], log: list[str], as_json: bool, render: Callable[[dict[str, Any]], str]) -> int:
    """End a web benchmark: count the exceptions the server logged (the
    last line of each traceback, as "sqlite3.OperationalError: database is
    locked") into ``results``, then print them as JSON or as ``render``
    lays them out, with the command line."""
    errors = [line for line in log if re.match(r"[\w.]+(Error|Exception)\b(: |$)", line)]
    results["server_exceptions"] = {"count": len(errors), "first": errors[:5]}
    if as_json:
        json.dump(results, sys.stdout, indent=2)
        print()
    else:
        print(render(results))
        if errors:
            print(f"the server logged {len(errors)} exceptions, the first: {errors[0]}")
        print(f"command: {results['command']}")
    return 0
