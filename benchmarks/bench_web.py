"""Load on ``fivecard serve``: many concurrent clients on the compare endpoint
and on game actions, against 127.0.0.1 only, bounded in count and time.

    FIVECARD_EXTRAS=test bash scripts/setup.sh      # or pip install -e '.[web]'
    .venv/bin/python benchmarks/bench_web.py [--connections 32] [--requests 20000] [--players 16]

It starts ``fivecard serve --host 127.0.0.1 --port 0 --data TMP`` (one server
process: uvicorn with httptools and uvloop) with a temporary data directory,
waits until it answers, then drives the load from this process and stops the
server. ``--url http://127.0.0.1:PORT/`` measures a server that is running
already (only a loopback address is accepted).

1. compare: C keep-alive connections post ``/api/compare`` with distinct
   two-hand showdowns dealt from a seeded shuffle of the library's deck,
   until N requests are answered or the time cap passes (after a warm-up
   that is not counted, on the same connections: no connection is opened
   while measuring unless the server closes one). Every response must be a 200 whose JSON
   ``winners`` are the ones the library gives for the same hands here.
2. games: G players, each with its own owner cookie, create a game and play
   rounds (start, then exchange / keep all / fold chosen by a seeded
   random policy, the dealer's five reveals, settle; a new game when one is
   over) until A actions are answered or the time cap passes. Exchange,
   keep and fold make the two computer players consult the exact advisor
   (tens of milliseconds of CPU each): they are reported apart from the
   cheap actions.

For each part: requests/s, latency p50/p90/p99/max in milliseconds (from
writing the request to reading the whole response), errors, and the CPU
time the server and this client used (the two share the machine's cores).

The client is a small HTTP/1.1 keep-alive client on ``asyncio.open_connection``
(with uvloop's event loop when it is installed): a compare costs it about
80 microseconds of CPU, its answer parsed and checked included, on the core
the server (one process, bound by its GIL to one core) leaves free. A
general-purpose client (httpx, aiohttp) spends several times more per request.
``wrk`` (C; Debian's package) is cheaper still, but it sends one fixed body
unless scripted in Lua, checks no answer and plays no game with cookies, and
a fresh machine lacks it: on the 2-core machine, in the same minutes, wrk
-t1 -c32 with one fixed compare body measured 4,000-4,460 requests/s
(p99 12-16 ms) where this client measured 3,730-3,770 (p99 18 ms); the
server used 100% of a core under both.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from typing import Any

from webload import (
    finish,
    announce,
    describe_run,
    SET_COOKIE, Connection, CpuMeter, HTTPError, Latencies, build_request, event_loop, server,
)

from fivecard import full_deck, showdown
from fivecard.core.cards import format_cards

# --- part 1: compare ----------------------------------------------------------------------------


def showdowns(count: int, seed: int) -> list[tuple[list[str], list[int]]]:
    """``count`` distinct two-hand showdowns, each dealt from a fresh shuffle of
    the deck, with the winners the library gives (numbered from 1, as in
    the API's answer)."""
    rng = random.Random(seed)
    deck = list(full_deck())
    seen: set[tuple[str, str]] = set()
    result: list[tuple[list[str], list[int]]] = []
    while len(result) < count:
        rng.shuffle(deck)
        hands = (format_cards(deck[:5], ascii=True), format_cards(deck[5:10], ascii=True))
        if hands in seen:
            continue
        seen.add(hands)
        result.append((list(hands), [i + 1 for i in showdown(list(hands)).winners]))
    return result


async def run_compare(
    host: str, port: int, *, connections: int, requests: int, seconds: float, warmup: int, seed: int,
    meter: CpuMeter,
) -> dict[str, Any]:
    deals = showdowns(requests + warmup, seed)
    hostname = f"{host}:{port}"
    bodies = [
        build_request(hostname, "POST", "/api/compare", json.dumps({"hands": h, "rules": "standard"}).encode())
        for h, _ in deals
    ]
    stats = Latencies()
    next_index = 0
    measuring = False
    deadline = 0.0

    async def worker(conn: Connection, limit: int) -> None:
        nonlocal next_index
        clock = time.perf_counter
        while next_index < limit and (not measuring or clock() < deadline):
            i = next_index
            next_index += 1
            started = clock()
            try:
                status, _, body = await conn.send(bodies[i])
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, HTTPError) as exc:
                if measuring:
                    stats.error(f"{type(exc).__name__}: {exc}")
                conn.close()
                continue
            elapsed = clock() - started
            if not measuring:
                continue
            if status != 200:
                stats.error(f"status {status}: {body[:200]!r}")
                continue
            try:
                winners = json.loads(body)["winners"]
            except (ValueError, KeyError, TypeError):
                stats.error(f"not a showdown: {body[:200]!r}")
                continue
            if winners != deals[i][1]:
                stats.error(f"winners {winners} for {deals[i][0]}; the library says {deals[i][1]}")
                continue
            stats.times.append(elapsed)

    conns = [Connection(host, port) for _ in range(connections)]  # kept from the warm-up on
    try:
        if warmup:
            await asyncio.gather(*(worker(conn, warmup) for conn in conns))
        for conn in conns:
            conn.reopened = 0
        measuring = True
        meter.start()
        deadline = time.perf_counter() + seconds
        await asyncio.gather(*(worker(conn, warmup + requests) for conn in conns))
        meter.stop()
    finally:
        for conn in conns:
            conn.close()
    reopened = sum(conn.reopened for conn in conns)
    return {
        "connections": connections, "all": stats.summary(meter.wall), "reconnects": reopened, "cpu": meter.summary()
    }


# --- part 2: games --------------------------------------------------------------------------------

SLOW = ("exchange", "keep", "fold")


async def run_games(
    host: str, port: int, *, players: int, actions: int, seconds: float, seed: int, meter: CpuMeter
) -> dict[str, Any]:
    hostname = f"{host}:{port}"
    kinds = ["create", "start", "exchange", "keep", "fold", "reveal", "settle"]
    stats = {k: Latencies() for k in kinds}
    done = 0
    games = 0
    rounds = 0
    reopened = 0
    deadline = 0.0

    def next_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
        can = view["can"]
        if can["exchange"]:
            roll = rng.random()
            if roll < 0.1 and can["fold"]:
                return {"action": "fold"}
            if roll < 0.3:
                return {"action": "keep"}
            return {"action": "exchange", "keep": sorted(rng.sample(range(1, 6), rng.randint(0, 4)))}
        for name in ("reveal", "settle", "start"):
            if can[name]:
                return {"action": name}
        return None  # game over: a new game

    async def player(number: int) -> None:
        nonlocal done, games, rounds, reopened
        rng = random.Random(seed * 1000 + number)
        conn = Connection(host, port)
        cookie: str | None = None
        clock = time.perf_counter
        game_path: str | None = None
        view: dict[str, Any] = {}
        try:
            while done < actions and clock() < deadline:
                if game_path is None:
                    body = json.dumps({"rules": "standard", "seed": rng.getrandbits(62), "stack": 1000}).encode()
                    kind, request = "create", build_request(hostname, "POST", "/api/games", body, cookie)
                else:
                    action = next_action(view, rng)
                    if action is None:
                        game_path = None
                        continue
                    kind = action["action"]
                    request = build_request(hostname, "POST", game_path + "/actions", json.dumps(action).encode(), cookie)
                started = clock()
                try:
                    status, head, body = await conn.send(request)
                except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, HTTPError) as exc:
                    stats[kind].error(f"{type(exc).__name__}: {exc}")
                    conn.close()
                    game_path = None
                    continue
                elapsed = clock() - started
                if status != (201 if kind == "create" else 200):
                    stats[kind].error(f"status {status}: {body[:200]!r}")
                    game_path = None
                    continue
                view = json.loads(body)
                if kind == "create":
                    for name, value in SET_COOKIE.findall(head):
                        if name == b"fivecard_owner":
                            cookie = f"fivecard_owner={value.decode()}"
                    if cookie is None:
                        stats[kind].error("no owner cookie")
                        continue
                    game_path = f"/api/games/{view['id']}"
                    games += 1
                else:
                    done += 1
                    rounds += kind == "settle"
                stats[kind].times.append(elapsed)
        finally:
            reopened += conn.reopened
            conn.close()

    meter.start()
    deadline = time.perf_counter() + seconds
    await asyncio.gather(*(player(i) for i in range(players)))
    meter.stop()
    wall = meter.wall
    fast, slow = Latencies(), Latencies()
    for kind in kinds[1:]:
        (slow if kind in SLOW else fast).times.extend(stats[kind].times)
        (slow if kind in SLOW else fast).errors += stats[kind].errors
    every = Latencies(times=fast.times + slow.times, errors=fast.errors + slow.errors)
    return {
        "players": players,
        "games": games,
        "rounds_settled": rounds,
        "reconnects": reopened,
        "all_actions": every.summary(wall),
        "start_reveal_settle": fast.summary(wall),
        "exchange_keep_fold": slow.summary(wall),
        "by_kind": {k: stats[k].summary(wall) for k in kinds},
        "cpu": meter.summary(),
    }


# --- the report -----------------------------------------------------------------------------------


def table(results: dict[str, Any]) -> str:
    rows = [("", "requests", "per s", "p50 ms", "p90 ms", "p99 ms", "max ms", "errors")]

    def row(label: str, s: dict[str, Any]) -> None:
        rows.append((label, f"{s['requests']:,}", f"{s['per_second']:,.0f}", f"{s['p50_ms']:.1f}",
                     f"{s['p90_ms']:.1f}", f"{s['p99_ms']:.1f}", f"{s['max_ms']:.1f}", str(s["errors"])))

    lines = []
    compare = results.get("compare")
    if compare:
        row(f"compare ({compare['connections']} connections)", compare["all"])
    games = results.get("games")
    if games:
        row(f"game actions ({games['players']} players)", games["all_actions"])
        row("  start/reveal/settle", games["start_reveal_settle"])
        row("  exchange/keep/fold", games["exchange_keep_fold"])
        for kind in ("create", "start", "exchange", "keep", "fold", "reveal", "settle"):
            row(f"    {kind}", games["by_kind"][kind])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        lines.append("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)))
    for name, part in (("compare", compare), ("games", games)):
        if part:
            cpu = part["cpu"]
            lines.append(
                f"{name}: {cpu['seconds']:.1f} s; CPU used: server {cpu['server_cpu_s']:.1f} s, "
                f"this client {cpu['client_cpu_s']:.1f} s; connections the server closed: {part['reconnects']}"
            )
    if games:
        lines.append(f"games: {games['games']} created, {games['rounds_settled']} rounds settled")
    parts = [("compare", compare["all"])] if compare else []
    if games:
        parts += [(f"game {kind}", summary) for kind, summary in games["by_kind"].items()]
    for name, summary in parts:
        if summary["first_error"]:
            lines.append(f"{name}: first error: {summary['first_error']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Load on fivecard serve (127.0.0.1 only): the compare endpoint and game actions.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--part", choices=["all", "compare", "games"], default="all", help="what to load")
    parser.add_argument("--connections", "-c", type=int, default=32, help="compare: concurrent connections")
    parser.add_argument("--requests", "-n", type=int, default=20_000, help="compare: requests measured, at most")
    parser.add_argument("--warmup", type=int, default=2_000, help="compare: requests first, not measured")
    parser.add_argument("--players", "-g", type=int, default=16, help="games: concurrent players")
    parser.add_argument("--actions", "-a", type=int, default=2_000, help="games: actions measured, at most")
    parser.add_argument("--seconds", "-t", type=float, default=30.0, help="time cap of each part")
    parser.add_argument("--seed", type=int, default=11, help="for the hands and the players' choices")
    parser.add_argument("--url", help="load this running server (a loopback address) instead of starting one")
    parser.add_argument("--server-pid", type=int, help="with --url: the server's pid, to report its CPU time")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    for name in ("connections", "requests", "players", "actions"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.warmup < 0 or args.seconds <= 0:
        parser.error("--warmup must be 0 or more, --seconds more than 0")

    loop_name, runner = event_loop()
    results: dict[str, Any] = describe_run(loop_name)
    log: list[str] = []
    with server(args.url, args.server_pid, log) as (host, port, pid):
        results["server"] = {"url": f"http://{host}:{port}/", "pid": pid}
        if not args.json:
            announce(results, pid)
        if args.part in ("all", "compare"):
            results["compare"] = runner(run_compare(
                host, port, connections=args.connections, requests=args.requests, seconds=args.seconds,
                warmup=args.warmup, seed=args.seed, meter=CpuMeter(pid),
            ))
        if args.part in ("all", "games"):
            results["games"] = runner(run_games(
                host, port, players=args.players, actions=args.actions, seconds=args.seconds,
                seed=args.seed, meter=CpuMeter(pid),
            ))
    return finish(results, log, args.json, table)


if __name__ == "__main__":
    sys.exit(main())
