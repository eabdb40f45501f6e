"""Load on the video-poker machine of ``fivecard serve``: players dealing
and drawing at once, against 127.0.0.1 only, bounded in count and time.

    .venv/bin/python benchmarks/bench_machine.py [--players 16] [--seconds 30]

It starts ``fivecard serve --host 127.0.0.1 --port 0 --data TMP`` (a
temporary data folder; the user's cache of tables as it is), waits until it
answers, makes one machine of each game first (not measured: the first start
of a game on a computer may count its values, 2-4 s, once), then P players,
each with its own owner cookie, make a machine (Jacks or Better 9/6 and
Deuces Wild full pay in turn, seeded) and deal and draw until the time cap
or A actions, each at most ``--pace`` actions a second (8: the app lets a
browser make 10 changes a second; a person makes one or two): each draw
holds the best cards (the machines show them) or, one time in three, cards
chosen at random, so the trainer judges mistakes too. Every draw's answer
must carry the trainer's verdict.

For deal, draw and the machines' creation: requests/s and latency
p50/p90/p99/max in milliseconds (from writing the request to reading the
whole response), errors, and the CPU time the server and this client used.
The players start together and keep the same pace, so their requests
come in bursts of P at once: the harder case for the server. The client is
``webload``'s keep-alive HTTP/1.1 client (``bench_web.py`` says why).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from typing import Any

from webload import (
    SET_COOKIE,
    Connection,
    CpuMeter,
    HTTPError,
    Latencies,
    announce,
    build_request,
    describe_run,
    event_loop,
    finish,
    server,
)

GAMES = ("jacks-or-better-9-6", "deuces-wild-full-pay")
KINDS = ("create", "deal", "draw")


async def run_machines(
    host: str, port: int, *, players: int, actions: int, seconds: float, seed: int, pace: float, meter: CpuMeter
) -> dict[str, Any]:
    hostname = f"{host}:{port}"
    stats = {k: Latencies() for k in KINDS}
    done = 0
    hands = 0
    mistakes = 0
    deadline = 0.0

    async def create(conn: Connection, game: str, rng: random.Random) -> tuple[str, str, dict[str, Any]]:
        body = json.dumps({"paytable": game, "seed": rng.getrandbits(62), "show_best": True}).encode()
        started = time.perf_counter()
        status, head, answer = await conn.send(build_request(hostname, "POST", "/api/machines", body))
        elapsed = time.perf_counter() - started
        if status != 201:
            raise HTTPError(f"create: status {status}: {answer[:200]!r}")
        cookie = next((f"{n.decode()}={v.decode()}" for n, v in SET_COOKIE.findall(head) if n == b"fivecard_owner"), "")
        if not cookie:
            raise HTTPError("create: no owner cookie")
        stats["create"].times.append(elapsed)
        view = json.loads(answer)
        return f"/api/machines/{view['id']}", cookie, view

    async def player(number: int) -> None:
        nonlocal done, hands, mistakes
        rng = random.Random(seed * 1000 + number)
        conn = Connection(host, port)
        try:
            path, cookie, view = await create(conn, GAMES[number % len(GAMES)], rng)
        except (OSError, asyncio.IncompleteReadError, HTTPError) as exc:
            stats["create"].error(f"{type(exc).__name__}: {exc}")
            conn.close()
            return
        try:
            next_at = time.perf_counter()
            while done < actions and time.perf_counter() < deadline:
                # at most ``pace`` actions a second: the app's limit per browser is 10
                next_at += 1 / pace
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                action: dict[str, Any]
                if view["phase"] == "idle":
                    kind, action = "deal", {"action": "deal"}
                    if not view["can"]["deal"]:
                        action = {"action": "cash_in"}
                else:
                    kind = "draw"
                    best = view["best"]["held"] if view.get("best") is not None else []
                    hold = best if rng.random() < 2 / 3 else sorted(rng.sample(range(1, 6), rng.randint(0, 5)))
                    action = {"action": "draw", "hold": hold}
                request = build_request(hostname, "POST", path + "/actions", json.dumps(action).encode(), cookie)
                started = time.perf_counter()
                try:
                    status, _, body = await conn.send(request)
                except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, HTTPError) as exc:
                    stats[kind].error(f"{type(exc).__name__}: {exc}")
                    conn.close()
                    return
                elapsed = time.perf_counter() - started
                if status != 200:
                    stats[kind].error(f"status {status}: {body[:200]!r}")
                    return
                view = json.loads(body)
                if action["action"] == "cash_in":
                    continue
                done += 1
                stats[kind].times.append(elapsed)
                if kind == "draw":
                    verdict = (view.get("last") or {}).get("verdict")
                    if verdict is None:
                        stats[kind].error("a draw answered without the trainer's verdict")
                        return
                    hands += 1
                    mistakes += not verdict["best_hold"]
        finally:
            conn.close()

    # One machine of each game first, not measured: a game's values are
    # counted (or loaded from the cache) at its first start.
    warm = Connection(host, port)
    for game in GAMES:
        await create(warm, game, random.Random(seed))
    warm.close()
    stats["create"] = Latencies()
    meter.start()
    deadline = time.perf_counter() + seconds
    await asyncio.gather(*(player(i) for i in range(players)))
    meter.stop()
    wall = meter.wall
    return {
        "players": players,
        "hands": hands,
        "mistakes_judged": mistakes,
        "by_kind": {k: stats[k].summary(wall) for k in KINDS},
        "cpu": meter.summary(),
    }


def table(results: dict[str, Any]) -> str:
    part = results["machines"]
    rows = [("", "requests", "per s", "p50 ms", "p90 ms", "p99 ms", "max ms", "errors")]
    for kind in KINDS:
        s = part["by_kind"][kind]
        rows.append((kind, f"{s['requests']:,}", f"{s['per_second']:,.0f}", f"{s['p50_ms']:.1f}",
                     f"{s['p90_ms']:.1f}", f"{s['p99_ms']:.1f}", f"{s['max_ms']:.1f}", str(s["errors"])))  # fmt: skip
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)) for r in rows]
    cpu = part["cpu"]
    lines.append(
        f"{part['players']} players, {cpu['seconds']:.1f} s: {part['hands']:,} hands drawn, "
        f"{part['mistakes_judged']:,} of them mistakes the trainer priced; CPU used: server "
        f"{cpu['server_cpu_s']:.1f} s, this client {cpu['client_cpu_s']:.1f} s"
    )
    for kind in KINDS:
        if part["by_kind"][kind]["first_error"]:
            lines.append(f"{kind}: first error: {part['by_kind'][kind]['first_error']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Load on fivecard serve's video-poker machine (127.0.0.1 only): deals and draws.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--players", "-g", type=int, default=16, help="concurrent players")
    parser.add_argument("--actions", "-a", type=int, default=200_000, help="deals and draws measured, at most")
    parser.add_argument("--seconds", "-t", type=float, default=30.0, help="time cap")
    parser.add_argument("--seed", type=int, default=11, help="for the machines' seeds and the holds")
    parser.add_argument("--pace", type=float, default=8.0,
                        help="actions a second per player, at most (the app lets a browser make 10)")
    parser.add_argument("--url", help="load this running server (a loopback address) instead of starting one")
    parser.add_argument("--server-pid", type=int, help="with --url: the server's pid, to report its CPU time")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if args.players < 1 or args.actions < 1 or args.seconds <= 0 or not 0 < args.pace <= 10:
        parser.error("--players and --actions must be at least 1, --seconds more than 0, --pace 0 to 10")
    loop_name, runner = event_loop()
    results: dict[str, Any] = describe_run(loop_name)
    log: list[str] = []
    with server(args.url, args.server_pid, log) as (host, port, pid):
        results["server"] = {"url": f"http://{host}:{port}/", "pid": pid}
        if not args.json:
            announce(results, pid)
        results["machines"] = runner(run_machines(
            host, port, players=args.players, actions=args.actions, seconds=args.seconds, seed=args.seed,
            pace=args.pace, meter=CpuMeter(pid),
        ))  # fmt: skip
    return finish(results, log, args.json, table)


if __name__ == "__main__":
    raise SystemExit(main())
