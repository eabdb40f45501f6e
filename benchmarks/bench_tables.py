"""Load on the friends' tables of ``fivecard serve``: many tables playing
rounds at once over the real HTTP API and event streams, on 127.0.0.1 only,
bounded in time and rounds.

    FIVECARD_EXTRAS=test bash scripts/setup.sh      # or pip install -e '.[web]'
    .venv/bin/python benchmarks/bench_tables.py [--tables 50] [--players 4] [--seconds 30]

It starts ``fivecard serve --host 127.0.0.1 --port 0 --data TMP`` (one server
process) with a temporary data directory (``--url`` loads a running server on
a loopback address instead). Then, not measured: T tables are opened, each
by its own host (a browser: its own owner cookie and keep-alive connection),
P players take a seat at each (each its own cookie and connection), and every
host and player opens the table's event stream (``GET
/api/tables/{id}/events``: a raw HTTP/1.1 connection reading the
``text/event-stream``, as a browser's EventSource does).

Measured, for S seconds (or until R rounds are closed): each table plays as
its people would. The host starts a round (``POST .../rounds``); each player
deals (``POST .../deal``, with a request id) when its own stream shows the
round started; the round closes by itself with the last deal; the host starts
the next round when its stream shows the round closed, and no sooner than
``--pace`` seconds after it started the last one. The default, a round a
second at every table (50 rounds/s over 50 tables), is several times faster
than people press Deal; ``--pace 0.1`` (the fastest the rate limit of 10
actions a second lets a host go) keeps the server busy all the time: its
rounds/s is then the server's capacity, and the latencies are mostly the
wait in its queue. Tables start spread over one pace, so they do not all
move in step.

Reported:

* rounds closed per second, over all tables;
* for each ``dealt`` event, the time from writing the deal request to the
  moment the LAST of the table's P+1 streams has read that event
  (p50/p90/p99/max ms): how long a deal takes to reach every browser;
  the same for ``round_started`` (from the host's request) and
  the whole round (the host's request to ``round_closed`` on every stream);
* HTTP action latency (writing the request to reading the whole answer);
* errors: answers other than 200, broken connections, events missed,
  doubled or out of order on any stream (each stream's ids must go up by
  one), rounds that did not close within 10 s;
* the server's CPU time and peak resident memory (VmHWM), and this client's
  CPU time: both share the machine, and a late read by a busy client counts
  in the latencies.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from webload import (
    finish,
    announce,
    describe_run,
    SET_COOKIE, Connection, CpuMeter, HTTPError, Latencies, build_request, event_loop, peak_rss_mb,
    server,
)

ROUND_TIMEOUT = 10.0  # seconds a round may take before it counts as an error


class StreamError(Exception):
    """An event stream that broke or said something unexpected."""


@dataclass
class Stats:
    """What the run measured."""

    dealt: Latencies = field(default_factory=Latencies)  # deal sent -> dealt seen on every stream
    started: Latencies = field(default_factory=Latencies)  # start sent -> round_started on every stream
    rounds: Latencies = field(default_factory=Latencies)  # start sent -> round_closed on every stream
    start_http: Latencies = field(default_factory=Latencies)  # POST .../rounds answered
    deal_http: Latencies = field(default_factory=Latencies)  # POST .../deal answered
    stream: Latencies = field(default_factory=Latencies)  # errors of the event streams only
    events: int = 0  # events read, all streams
    began: float = 0.0  # when the measured part began (perf_counter)
    worst: dict[int, float] = field(default_factory=dict)  # second of the run -> its slowest deal to every stream
    closed: int = 0  # rounds closed (seen by the host)
    measuring: bool = False


class Fanout:
    """When each event of a table reached each of its streams: an event's
    time is its LAST stream's."""

    def __init__(self, streams: int) -> None:
        self.streams = streams
        self.sent: dict[tuple[str, int, int], float] = {}  # (type, round, seat) -> request written
        self._seen: dict[tuple[str, int, int], tuple[int, float]] = {}  # -> (streams that read it, latest)

    def seen(self, key: tuple[str, int, int], at: float) -> float | None:
        """A stream read the event ``key`` at ``at``: the time the last stream
        read it, once every stream has, else None."""
        count, _ = self._seen.get(key, (0, 0.0))
        count += 1
        if count == self.streams:
            del self._seen[key]
            return at
        self._seen[key] = (count, at)
        return None


class Table:
    """One table of the run: its host, its players, their streams."""

    def __init__(self, number: int, host: str, port: int, players: int) -> None:
        self.number = number
        self.hostname = f"{host}:{port}"
        self.id = ""
        self.path = ""
        self.cookies: list[str] = []  # the host's first, then each player's
        self.seats: list[int] = []  # each player's seat
        self.conns = [Connection(host, port) for _ in range(players + 1)]
        self.fanout = Fanout(players + 1)
        self.last_event = 0
        self.round = 0  # the round in play
        self.closed = asyncio.Event()  # the host's stream showed the round closed
        self.ready = 0  # streams open
        self.deals: set[asyncio.Task[None]] = set()  # deal requests in flight

    def request(self, who: int, method: str, path: str, body: dict[str, Any] | None = None) -> bytes:
        data = None if body is None else json.dumps(body).encode()
        return build_request(self.hostname, method, path, data, self.cookies[who] if who < len(self.cookies) else None)


def _cookie(head: bytes) -> str:
    for name, value in SET_COOKIE.findall(head):
        if name == b"fivecard_owner":
            return f"fivecard_owner={value.decode()}"
    raise HTTPError("no owner cookie in the answer")


async def open_table(table: Table, players: int, seed: int) -> None:
    """Open the table, seat its players (not measured)."""
    status, head, body = await table.conns[0].send(
        table.request(0, "POST", "/api/tables", {"rules": "standard", "points": 25, "tie": "none", "seed": seed})
    )
    if status != 201:
        raise HTTPError(f"opening a table: status {status}: {body[:200]!r}")
    table.cookies.append(_cookie(head))
    view = json.loads(body)
    table.id = view["id"]
    table.path = f"/api/tables/{table.id}"
    for p in range(1, players + 1):
        status, head, body = await table.conns[p].send(
            table.request(p, "POST", table.path + "/seats", {"name": f"Guest {p}", "request_id": f"join-{p}"})
        )
        if status != 201:
            raise HTTPError(f"taking a seat: status {status}: {body[:200]!r}")
        table.cookies.append(_cookie(head))
        view = json.loads(body)
        table.seats.append(int(view["you"]))
        table.last_event = int(view["last_event"])


_FIELD = re.compile(rb"^(id|event|data): ?(.*)$", re.MULTILINE)


async def stream(table: Table, who: int, host: str, port: int, stats: Stats, stop: asyncio.Event,
                 opened: asyncio.Event) -> None:
    """One browser's event stream: read every event, check the ids go up by
    one, time the events; a player deals when a round starts."""
    reader, writer = await asyncio.open_connection(host, port)
    clock = time.perf_counter
    stopping = asyncio.ensure_future(stop.wait())
    try:
        request = build_request(table.hostname, "GET", f"{table.path}/events?after={table.last_event}",
                                None, table.cookies[who]).replace(b"accept: application/json", b"accept: text/event-stream")
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200") or b"text/event-stream" not in head:
            raise StreamError(f"not an event stream: {head[:200]!r}")
        chunked = re.search(rb"\r\ntransfer-encoding:[ \t]*chunked", head, re.IGNORECASE) is not None
        expected = table.last_event + 1
        buffer = b""
        table.ready += 1
        if table.ready == len(table.conns):
            opened.set()
        while True:
            if chunked:
                read = asyncio.ensure_future(reader.readuntil(b"\r\n"))
                done, _ = await asyncio.wait((read, stopping), return_when=asyncio.FIRST_COMPLETED)
                if read not in done:
                    read.cancel()
                    return
                size = int(read.result().split(b";")[0], 16)
                if size == 0:
                    raise StreamError("the server ended the stream")
                buffer += (await reader.readexactly(size + 2))[:-2]
            else:
                read = asyncio.ensure_future(reader.read(65536))
                done, _ = await asyncio.wait((read, stopping), return_when=asyncio.FIRST_COMPLETED)
                if read not in done:
                    read.cancel()
                    return
                data = read.result()
                if not data:
                    raise StreamError("the server ended the stream")
                buffer += data
            at = clock()
            while b"\n\n" in buffer:
                message, buffer = buffer.split(b"\n\n", 1)
                fields = dict(_FIELD.findall(message))
                if b"id" not in fields:
                    continue  # retry: or a comment
                seq = int(fields[b"id"])
                if seq != expected:
                    raise StreamError(f"event {seq} where {expected} was due")
                expected += 1
                stats.events += 1
                on_event(table, who, fields[b"event"].decode(), json.loads(fields[b"data"]), at, stats)
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, StreamError) as exc:
        if not stop.is_set():
            stats.stream.error(f"stream {table.number}/{who}: {type(exc).__name__}: {exc}")
    finally:
        stopping.cancel()
        writer.close()


def on_event(table: Table, who: int, kind: str, event: dict[str, Any], at: float, stats: Stats) -> None:
    number = int(event.get("round", 0))
    if kind == "round_started":
        if who > 0:
            task = asyncio.get_running_loop().create_task(deal(table, who, number, stats))
            table.deals.add(task)
            task.add_done_callback(table.deals.discard)
        key = ("round_started", number, 0)
    elif kind == "dealt":
        key = ("dealt", number, int(event["seat"]))
    elif kind == "round_closed":
        if who == 0 and number == table.round:
            table.closed.set()
        key = ("round_closed", number, 0)
    else:
        return
    last = table.fanout.seen(key, at)
    if last is None:
        return
    sent = table.fanout.sent.pop(key if kind != "round_closed" else ("round_started", number, -1), None)
    if sent is None or not stats.measuring:
        return
    {"round_started": stats.started, "dealt": stats.dealt, "round_closed": stats.rounds}[kind].times.append(last - sent)
    if kind == "dealt":
        second = int(sent - stats.began)
        stats.worst[second] = max(stats.worst.get(second, 0.0), last - sent)


async def deal(table: Table, who: int, number: int, stats: Stats) -> None:
    seat = table.seats[who - 1]
    request = table.request(who, "POST", table.path + "/deal", {"request_id": f"deal-{number}"})
    clock = time.perf_counter
    started = clock()
    table.fanout.sent[("dealt", number, seat)] = started
    try:
        status, _, body = await table.conns[who].send(request)
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, HTTPError) as exc:
        stats.deal_http.error(f"{type(exc).__name__}: {exc}")
        table.conns[who].close()
        return
    if status != 200:
        stats.deal_http.error(f"deal: status {status}: {body[:200]!r}")
    elif stats.measuring:
        stats.deal_http.times.append(clock() - started)


async def host(table: Table, stats: Stats, deadline: float, max_rounds: int, pace: float, delay: float) -> None:
    """Start rounds until the time is up (each when the last one has closed)."""
    clock = time.perf_counter
    await asyncio.sleep(delay)
    while clock() < deadline and stats.closed < max_rounds:
        table.round += 1
        number = table.round
        table.closed.clear()
        started = clock()
        table.fanout.sent[("round_started", number, 0)] = started
        table.fanout.sent[("round_started", number, -1)] = started  # for round_closed
        try:
            status, _, body = await table.conns[0].send(
                table.request(0, "POST", table.path + "/rounds", {"request_id": f"round-{number}"})
            )
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, HTTPError) as exc:
            stats.start_http.error(f"{type(exc).__name__}: {exc}")
            table.conns[0].close()
            return
        if status != 200:
            stats.start_http.error(f"start: status {status}: {body[:200]!r}")
            return
        stats.start_http.times.append(clock() - started)
        try:
            await asyncio.wait_for(table.closed.wait(), ROUND_TIMEOUT)
        except asyncio.TimeoutError:
            stats.stream.error(f"table {table.number}: round {number} not closed within {ROUND_TIMEOUT:.0f} s")
            return
        if clock() < deadline:
            stats.closed += 1
        wait = started + pace - clock()
        if wait > 0:
            await asyncio.sleep(wait)


async def run(host_: str, port: int, *, tables: int, players: int, seconds: float, max_rounds: int, pace: float,
              seed: int, meter: CpuMeter, pid: int | None) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    all_tables = [Table(n, host_, port, players) for n in range(tables)]
    stats = Stats()
    stop = asyncio.Event()
    setup_started = time.perf_counter()
    # open the tables a few at a time (the server's thread pool is 40 threads)
    gate = asyncio.Semaphore(8)

    async def opening(table: Table) -> None:
        async with gate:
            await open_table(table, players, seed * 100_000 + table.number)

    await asyncio.gather(*(opening(t) for t in all_tables))
    opened = [asyncio.Event() for _ in all_tables]
    readers = [
        loop.create_task(stream(t, who, host_, port, stats, stop, opened[t.number]))
        for t in all_tables for who in range(players + 1)
    ]
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), 60)
    setup = time.perf_counter() - setup_started
    rss_setup = peak_rss_mb(pid) if pid else float("nan")

    stats.measuring = True
    meter.start()
    stats.began = time.perf_counter()
    deadline = stats.began + seconds
    # tables start spread over the first pace (or 100 ms): not all in step
    spread = max(pace, 0.1)
    await asyncio.gather(*(host(t, stats, deadline, max_rounds, pace, spread * t.number / tables) for t in all_tables))
    meter.stop()
    stats.measuring = False
    stop.set()
    await asyncio.gather(*readers, *(task for t in all_tables for task in list(t.deals)))
    for t in all_tables:
        for conn in t.conns:
            conn.close()
    reopened = sum(conn.reopened for t in all_tables for conn in t.conns)
    wall = meter.wall
    return {
        "tables": tables,
        "players_per_table": players,
        "streams": tables * (players + 1),
        "setup_s": round(setup, 2),
        "rounds_closed": stats.closed,
        "rounds_per_s": round(stats.closed / wall, 1) if wall else 0.0,
        "events_read": stats.events,
        "dealt_worst_ms_by_second": [round(stats.worst.get(s, 0.0) * 1000, 1) for s in range(max(stats.worst, default=-1) + 1)],
        "dealt_to_every_stream": stats.dealt.summary(wall),
        "started_to_every_stream": stats.started.summary(wall),
        "round_start_to_closed_everywhere": stats.rounds.summary(wall),
        "http_start": stats.start_http.summary(wall),
        "http_deal": stats.deal_http.summary(wall),
        "stream_errors": {"errors": stats.stream.errors, "first_error": stats.stream.first_error},
        "reconnects": reopened,
        "server_peak_rss_mb": {
            "after_setup": round(rss_setup, 1),
            "at_end": round(peak_rss_mb(pid), 1) if pid else float("nan"),
        },
        "cpu": meter.summary(),
    }


def report(results: dict[str, Any]) -> str:
    r = results["tables"]
    rows = [("", "count", "p50 ms", "p90 ms", "p99 ms", "max ms", "errors")]

    def row(label: str, s: dict[str, Any]) -> None:
        rows.append((label, f"{s['requests']:,}", f"{s['p50_ms']:.1f}", f"{s['p90_ms']:.1f}",
                     f"{s['p99_ms']:.1f}", f"{s['max_ms']:.1f}", str(s["errors"])))

    row("deal -> dealt on every stream", r["dealt_to_every_stream"])
    row("start -> round_started on every stream", r["started_to_every_stream"])
    row("start -> round_closed on every stream", r["round_start_to_closed_everywhere"])
    row("HTTP POST .../rounds", r["http_start"])
    row("HTTP POST .../deal", r["http_deal"])
    widths = [max(len(x[i]) for x in rows) for i in range(len(rows[0]))]
    lines = [
        f"{r['tables']} tables x ({r['players_per_table']} players + host), {r['streams']} event streams; "
        f"set up in {r['setup_s']:.1f} s",
        f"rounds closed: {r['rounds_closed']:,} in {r['cpu']['seconds']:.1f} s = {r['rounds_per_s']:,.1f} rounds/s; "
        f"events read: {r['events_read']:,}",
    ]
    for x in rows:
        lines.append("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(x)))
    rss = r["server_peak_rss_mb"]
    cpu = r["cpu"]
    lines.append(
        f"server: peak RSS {rss['at_end']:.0f} MB ({rss['after_setup']:.0f} MB after setup); CPU {cpu['server_cpu_s']:.1f} s "
        f"({100 * cpu['server_cpu_s'] / cpu['seconds']:.0f}% of a core); this client: CPU {cpu['client_cpu_s']:.1f} s "
        f"({100 * cpu['client_cpu_s'] / cpu['seconds']:.0f}%); other processes: CPU "
        f"{cpu['machine_cpu_s'] - cpu['server_cpu_s'] - cpu['client_cpu_s']:.1f} s"
    )
    slow = [f"{s}s ({ms:.0f})" for s, ms in enumerate(r["dealt_worst_ms_by_second"]) if ms >= 100]
    if slow:
        lines.append(f"seconds of the run with a deal over 100 ms to every stream (the slowest, ms): {', '.join(slow)}")
    errors = r["stream_errors"]["errors"] + r["http_start"]["errors"] + r["http_deal"]["errors"]
    lines.append(f"errors: {errors}; stream errors {r['stream_errors']['errors']}; "
                 f"connections the server closed: {r['reconnects']}")
    for name in ("http_start", "http_deal", "stream_errors"):
        if r[name]["first_error"]:
            lines.append(f"{name}: first error: {r[name]['first_error']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Load on the friends' tables of fivecard serve (127.0.0.1 only): tables playing rounds "
        "over HTTP, every player and host on the table's event stream.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--tables", "-T", type=int, default=50, help="tables playing at once")
    parser.add_argument("--players", "-P", type=int, default=4, help="seated players per table (and a host)")
    parser.add_argument("--seconds", "-t", type=float, default=30.0, help="how long the tables play")
    parser.add_argument("--max-rounds", "-r", type=int, default=100_000, help="stop after this many rounds closed")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="seconds at least between a table's round starts (0.1: as fast as the rate limit lets "
                        "a host go, the server's capacity)")
    parser.add_argument("--seed", type=int, default=12, help="for the tables' decks")
    parser.add_argument("--url", help="load this running server (a loopback address) instead of starting one")
    parser.add_argument("--server-pid", type=int, help="with --url: the server's pid, for its CPU time and memory")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.players < 1 or args.max_rounds < 1:
        parser.error("--tables, --players and --max-rounds must be at least 1")
    if args.players > 10:
        parser.error("--players: a table seats at most 10")
    if args.seconds <= 0 or args.pace < 0:
        parser.error("--seconds must be more than 0, --pace 0 or more")

    loop_name, runner = event_loop()
    results: dict[str, Any] = describe_run(loop_name)
    log: list[str] = []
    with server(args.url, args.server_pid, log) as (host_, port, pid):
        results["server"] = {"url": f"http://{host_}:{port}/", "pid": pid}
        if not args.json:
            announce(results, pid)
        results["tables"] = runner(run(
            host_, port, tables=args.tables, players=args.players, seconds=args.seconds,
            max_rounds=args.max_rounds, pace=args.pace, seed=args.seed, meter=CpuMeter(pid), pid=pid,
        ))
    return finish(results, log, args.json, report)


if __name__ == "__main__":
    sys.exit(main())
