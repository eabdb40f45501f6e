"""What ``fivecard serve`` holds under hostile clients, on 127.0.0.1 only,
with real sockets: each case starts its own server (a temporary data folder),
measures, and stops it.

    .venv/bin/python benchmarks/bench_web_bounds.py idle [--clients 1100] [--ulimit 1024]
    .venv/bin/python benchmarks/bench_web_bounds.py streams [--clients 1100] [--ulimit 1024]
    .venv/bin/python benchmarks/bench_web_bounds.py headers [--clients 4] [--mib 100]
    .venv/bin/python benchmarks/bench_web_bounds.py slow
    .venv/bin/python benchmarks/bench_web_bounds.py creations [--clients 1500]
    .venv/bin/python benchmarks/bench_web_bounds.py full [--rounds 50]
    .venv/bin/python benchmarks/bench_web_bounds.py advise [--clients 64] [--seconds 20]

* idle: C connections that send nothing (the server under ``prlimit
  --nofile=U:U``): how many the server holds after 1, 5, 12 and 25 s, and
  whether a normal request (a style sheet) is answered meanwhile, and how fast.
* streams: C event-stream requests on one table: their answers (200/503),
  and a normal request meanwhile.
* headers: C clients each sending a header of M MiB: their answers and the
  server's peak RSS (VmHWM).
* slow: one client sending a request's headers a byte a second: when the
  server answers or closes.
* creations: C table creations from one address without a cookie, ever:
  the answers by status.
* full: the server on a 1 MiB tmpfs (a mount namespace of its own:
  ``unshare -rm``), the tmpfs filled: R rounds of new tables, chat lines, new
  games and reads, by status; tracebacks and lines in the server's log.
* advise: C clients asking the exact advisor (``POST /api/advise``) as fast
  as they are answered, each request from a new browser (a cookie of its
  own: as many browsers as a client likes), for S seconds, while a probe
  (another address) asks for a style sheet (a new connection four times a second): the
  probe's times (median, 90th percentile, worst) before and during the
  flood, and the flood's answers by status.
"""

from __future__ import annotations

import argparse
import collections
import errno
import http.client
import json
import os
import re
import resource
import select
import shlex
import socket
import subprocess
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

FIVECARD = [sys.executable, "-m", "fivecard", "serve", "--port", "0"]


def start(ulimit: int | None = None, data: str | None = None, wrap: list[str] | None = None) -> tuple[subprocess.Popen[str], int]:
    command = FIVECARD + ["--data", data or tempfile.mkdtemp()]
    if ulimit:
        command = ["prlimit", f"--nofile={ulimit}:{ulimit}", "--", *command]
    if wrap:  # the last word of ``wrap`` is a shell line that ends in the command
        command = [*wrap[:-1], f"{wrap[-1]} {shlex.join(command)}"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"127\.0\.0\.1:(\d+)/", line)
    if not found:
        process.kill()
        raise SystemExit(f"fivecard serve did not start: {line!r} {process.communicate()[1]!r}")
    return process, int(found.group(1))


def stop(process: subprocess.Popen[str]) -> str:
    if process.poll() is None:
        process.terminate()
    return process.communicate(timeout=30)[1]


def normal(port: int) -> str:
    """A style sheet asked for by another client (from 127.0.0.2: the hostile
    clients are 127.0.0.1, which holds only its share of the connections)."""
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.2", 0)) as conn:
            conn.sendall(b"GET /static/app.css HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            line = conn.recv(100).split(b"\r\n")[0].decode() or "closed"
    except OSError as exc:
        line = type(exc).__name__
    return f"{line} in {time.monotonic() - started:.2f} s"


def held(conns: list[socket.socket]) -> str:
    """What became of the connections: how many the server still holds
    open and silent (idle, or not yet accepted), how many it answered (by
    status; an over-share connection is answered 503 and closed) and how
    many it closed without a word."""
    poller = select.poll()
    for conn in conns:
        poller.register(conn.fileno(), select.POLLIN | select.POLLHUP | select.POLLERR)
    ready = {fd for fd, _ in poller.poll(0)}
    found: collections.Counter[str] = collections.Counter()
    for conn in conns:
        if conn.fileno() not in ready:
            found["silent"] += 1
            continue
        try:
            start = conn.recv(12, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            found["silent"] += 1
            continue
        except OSError:
            start = b""
        found[f"answered {start.split(b' ')[1].decode()}" if start.startswith(b"HTTP/") else "closed"] += 1
    return ", ".join(f"{n} {what}" for what, n in sorted(found.items()))


def peak_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM"))


def idle(clients: int, ulimit: int) -> None:
    process, port = start(ulimit)
    conns = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(clients)]
    began = time.monotonic()
    for at in (1, 5, 12, 25):
        time.sleep(max(0.0, at - (time.monotonic() - began)))
        print(f"{clients} idle clients, ulimit -n {ulimit}, at {at} s: {held(conns)}; a normal request: {normal(port)}")
    for conn in conns:
        conn.close()
    stop(process)


def streams(clients: int, ulimit: int) -> None:
    process, port = start(ulimit)
    ask = http.client.HTTPConnection("127.0.0.1", port)
    ask.request("POST", "/api/tables", body="{}", headers={"content-type": "application/json"})
    table_id = json.loads(ask.getresponse().read())["id"]
    conns: list[socket.socket] = []
    answers: collections.Counter[str] = collections.Counter()
    for _ in range(clients):
        conn = socket.create_connection(("127.0.0.1", port), timeout=5)
        conn.sendall(f"GET /api/tables/{table_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        conns.append(conn)
    for conn in conns:
        try:
            answers[conn.recv(12).split(b" ")[1].decode()] += 1
        except (OSError, IndexError) as exc:
            answers[type(exc).__name__] += 1
    print(f"{clients} event-stream requests, ulimit -n {ulimit}: answers {dict(answers)}; a normal request: {normal(port)}")
    for conn in conns:
        conn.close()
    stop(process)


def headers(clients: int, mib: int) -> None:
    process, port = start()
    before = peak_mib(process.pid)
    conns = [socket.create_connection(("127.0.0.1", port)) for _ in range(clients)]
    for conn in conns:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        conn.setblocking(False)
    chunk, sent, stopped = b"a" * (1 << 20), [0] * clients, [False] * clients
    deadline = time.monotonic() + 300
    while not all(s or n >= mib for s, n in zip(stopped, sent)) and time.monotonic() < deadline:
        for i, conn in enumerate(conns):
            if stopped[i] or sent[i] >= mib:
                continue
            try:
                conn.send(chunk)
                sent[i] += 1
            except BlockingIOError:
                pass
            except OSError:
                stopped[i] = True
        time.sleep(0.001)
    answers = []
    for conn in conns:
        conn.setblocking(True)
        conn.settimeout(5)
        try:
            answers.append(conn.recv(200).split(b"\r\n")[0].decode() or "closed")
        except OSError as exc:
            answers.append(type(exc).__name__)
        conn.close()
    print(f"{clients} clients x {mib} MiB header: MiB sent {sent}; answers {answers}; "
          f"server peak RSS {peak_mib(process.pid):.0f} MiB (before: {before:.0f})")
    stop(process)


def slow() -> None:
    process, port = start()
    conn = socket.create_connection(("127.0.0.1", port))
    began = time.monotonic()
    message = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 120
    for sent, byte in enumerate(message, 1):
        conn.send(bytes([byte]))
        if select.select([conn], [], [], 1.0)[0]:
            print(f"a header a byte a second: answered after {time.monotonic() - began:.1f} s, {sent} bytes: "
                  f"{conn.recv(200).split(chr(13).encode())[0].decode()!r}")
            break
    else:
        print(f"a header a byte a second: still open after {time.monotonic() - began:.0f} s")
    stop(process)


def creations(clients: int) -> None:
    process, port = start()
    answers: collections.Counter[int] = collections.Counter()
    began = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port)
    for _ in range(clients):
        conn.request("POST", "/api/tables", body="{}", headers={"content-type": "application/json"})  # never a cookie
        answer = conn.getresponse()
        answer.read()
        answers[answer.status] += 1
    print(f"{clients} cookie-less table creations from one address in {time.monotonic() - began:.1f} s: {dict(sorted(answers.items()))}")
    stop(process)


def full(rounds: int) -> None:
    folder = Path(tempfile.mkdtemp())
    process, port = start(data=str(folder), wrap=["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=1m tmpfs {folder} && exec"])
    inside = Path(f"/proc/{process.pid}/root") / str(folder).lstrip("/")

    def call(method: str, path: str, body: Any = None, cookie: str = "") -> tuple[Any, str]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
        try:
            conn.request(method, path, body=None if body is None else json.dumps(body),
                         headers={"content-type": "application/json", "cookie": cookie})
            answer = conn.getresponse()
            answer.read()
            return answer.status, (answer.getheader("set-cookie") or "").split(";")[0]
        except OSError as exc:
            return f"no answer ({type(exc).__name__})", ""

    ask = http.client.HTTPConnection("127.0.0.1", port)
    ask.request("POST", "/api/tables", body="{}", headers={"content-type": "application/json"})
    answer = ask.getresponse()
    table_id, cookie = json.loads(answer.read())["id"], (answer.getheader("set-cookie") or "").split(";")[0]
    filler = os.open(inside / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(filler, b"x" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(filler)
    answers: collections.Counter[tuple[str, Any]] = collections.Counter()
    for i in range(rounds):
        for what, method, path, body in [
            ("new table", "POST", "/api/tables", {}),
            ("chat", "POST", f"/api/tables/{table_id}/chat", {"text": f"{i} " + "x" * 400}),
            ("new game", "POST", "/api/games", {}),
            ("read the table", "GET", f"/api/tables/{table_id}", None),
        ]:
            answers[(what, call(method, path, body, cookie)[0])] += 1
    os.unlink(inside / "filler")
    again = call("POST", "/api/games", {})[0]
    err = stop(process)
    print(f"a full disk, {rounds} rounds: {dict(sorted(answers.items(), key=str))}; with room again a new game: {again}")
    print(f"  the server's log: {err.count('Traceback')} tracebacks, {len(err.splitlines())} lines: {err.splitlines()[:2]}")


def probe_times(port: int, seconds: float) -> list[float]:
    """A style sheet asked for on a new connection four times a second (each
    in a thread of its own, whether or not the last was answered): how long
    each answer took (30 s for none)."""
    times: list[float] = []

    def probe() -> None:
        started = time.monotonic()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=30, source_address=("127.0.0.2", 0)) as conn:
                conn.sendall(b"GET /static/app.css HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                while conn.recv(65536):
                    pass
            times.append(time.monotonic() - started)
        except OSError:
            times.append(30.0)

    probes = []
    began = time.monotonic()
    while time.monotonic() < began + seconds:
        probes.append(threading.Thread(target=probe, daemon=True))
        probes[-1].start()
        time.sleep(max(0.0, began + 0.25 * len(probes) - time.monotonic()))
    for thread in probes:
        thread.join()
    return times


def spread(times: list[float]) -> str:
    ordered = sorted(times)
    return (f"median {statistics.median(ordered) * 1000:.0f} ms, 90% {ordered[int(len(ordered) * 0.9)] * 1000:.0f} ms, "
            f"worst {ordered[-1] * 1000:.0f} ms ({len(ordered)} probes)")


def advise(clients: int, seconds: float) -> None:
    process, port = start()
    print(f"a style sheet, the server idle: {spread(probe_times(port, 3.0))}")
    stop_at = time.monotonic() + seconds
    answers: collections.Counter[str] = collections.Counter()
    lock = threading.Lock()
    deck = [r + s for r in "23456789TJQKA" for s in "CDHS"]

    def flood() -> None:
        while time.monotonic() < stop_at:
            hand = " ".join(secrets.SystemRandom().sample(deck, 5))
            body = json.dumps({"hand": hand, "top": 1})
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            try:
                conn.request("POST", "/api/advise", body=body, headers={
                    "content-type": "application/json", "cookie": f"fivecard_owner={secrets.token_urlsafe(24)}"})
                answer = conn.getresponse()
                answer.read()
                what = str(answer.status)
            except OSError as exc:
                what = type(exc).__name__
            finally:
                conn.close()
            with lock:
                answers[what] += 1

    threads = [threading.Thread(target=flood, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # the flood under way
    during = probe_times(port, seconds - 2.0)
    for thread in threads:
        thread.join()
    print(f"{clients} clients asking the advisor for {seconds:g} s: answers {dict(sorted(answers.items()))}")
    print(f"a style sheet during the flood: {spread(during)}")
    stop(process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("case", choices=["idle", "streams", "headers", "slow", "creations", "full", "advise"])
    parser.add_argument("--clients", type=int)
    parser.add_argument("--ulimit", type=int, default=1024)
    parser.add_argument("--mib", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 1 << 16), hard))  # this client holds every connection
    if args.case == "idle":
        idle(args.clients or 1100, args.ulimit)
    elif args.case == "streams":
        streams(args.clients or 1100, args.ulimit)
    elif args.case == "headers":
        headers(args.clients or 4, args.mib)
    elif args.case == "slow":
        slow()
    elif args.case == "creations":
        creations(args.clients or 1500)
    elif args.case == "advise":
        advise(args.clients or 64, args.seconds)
    else:
        full(args.rounds)


if __name__ == "__main__":
    main()
