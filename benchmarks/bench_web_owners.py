"""What owner secrets and the Host check cost the web app, in process.

    .venv/bin/python benchmarks/bench_web_owners.py [--tables 10000] [--games 1000] [--moves 200]

* verify: a request's owner read from its cookies (the HMAC tag checked,
  the secret hashed), for a secret the server issued, one it did not, and a
  request without one; and the Host check of one request. Microseconds a
  call (timeit, best of 5).
* rotate: a data file holding ``--tables`` tables (each with a host and two
  seats) and ``--games`` games; one browser holds 3 games, hosts 2 tables
  and has seats at 3 more. Its secret is moved to a fresh one ``--moves``
  times (each move one write transaction, as a gain's), and a new game is
  made with and without a move: milliseconds, median and worst.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import timeit
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.requests import Request

from fivecard.play.friends import FriendsTable
from fivecard.play.game import Game
from fivecard.web.app import _misdirected, allowed_hosts
from fivecard.web.store import DEALER_GAMES, FRIENDS_TABLES, OWNER_COOKIE, Capacity, Database, Owners, TableGameStore, secret_hash


def _request(cookie: str | None) -> Request:
    headers = [(b"host", b"127.0.0.1:8000"), (b"accept", b"application/json")]
    if cookie is not None:
        headers.append((b"cookie", f"theme=dark; {OWNER_COOKIE}={cookie}; lang=en".encode()))
    return Request({"type": "http", "method": "GET", "path": "/", "headers": headers, "query_string": b""})


def _micro(call: object) -> float:
    timer = timeit.Timer(call)  # type: ignore[arg-type]
    number, _ = timer.autorange()
    return min(timer.repeat(5, number)) / number * 1e6


def verify() -> None:
    owners = Owners(b"k" * 32)
    issued = _request(owners.issue())
    forged = _request(Owners(b"another key").issue())
    none = _request(None)
    hosts = allowed_hosts()
    print("verify (µs a call, best of 5):")
    print(f"  owner of a request with a secret the server issued:  {_micro(lambda: owners.owner(issued)):6.2f}")
    print(f"  owner of a request with one it did not issue:         {_micro(lambda: owners.owner(forged)):6.2f}")
    print(f"  owner of a request without one:                       {_micro(lambda: owners.owner(none)):6.2f}")
    secret = owners.issue()
    print(f"  a secret's tag checked alone (Owners.issued):         {_micro(lambda: owners.issued(secret)):6.2f}")
    print(f"  the Host check (127.0.0.1:8000):                      {_micro(lambda: _misdirected([b'127.0.0.1:8000'], hosts)):6.2f}")
    print(f"  the Host check (a name refused):                      {_micro(lambda: _misdirected([b'evil.example:8000'], hosts)):6.2f}")


def _join(owner: str, name: str) -> Callable[[FriendsTable], tuple[None, list[dict[str, Any]]]]:
    return lambda table: (None, table.join(owner, name)[1])


def rotate(tables: int, games: int, moves: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="fivecard-bench-owners-"))
    database = Database(str(folder / "games.sqlite3"))
    capacity = Capacity(games=games + 1000, tables=tables + 1000)
    game_store = TableGameStore(database, DEALER_GAMES, capacity)
    table_store = TableGameStore(database, FRIENDS_TABLES, capacity)
    owners = Owners(database.key("owner secrets"))
    browser = secret_hash(owners.issue())
    started = time.perf_counter()
    for n in range(games):
        game_store.create(Game(seed=n), browser if n < 3 else secret_hash(owners.issue()))
    held = 0
    for n in range(tables):
        host = browser if n < 2 else secret_hash(owners.issue())
        table = FriendsTable(host=host, seed=n)
        table_id = table_store.create(table, host, table.opened())
        seated = [browser] if 2 <= n < 5 else []
        for name, owner in zip(("Ann", "Bob"), seated + [secret_hash(owners.issue()) for _ in range(2 - len(seated))]):
            table_store.act(table_id, owner, _join(owner, name), request_id=f"join {name}")
        held += n < 5
    print(f"rotate: {tables:,} tables (a host and two seats each) and {games:,} games made in {time.perf_counter() - started:.0f} s;")
    print(f"  the browser holds 3 games and a part at {held} tables")
    times = []
    for _ in range(moves):
        fresh = secret_hash(owners.issue())
        began = time.perf_counter()
        with database.transaction() as db:
            database.move_owner(db, browser, fresh)
        times.append((time.perf_counter() - began) * 1e3)
        browser = fresh
    print(f"  a move alone (one transaction): median {statistics.median(times):.2f} ms, worst {max(times):.2f} ms ({moves} moves)")
    for moved in (False, True):
        times = []
        for n in range(moves):
            fresh = secret_hash(owners.issue())
            began = time.perf_counter()
            game_store.create(Game(seed=n), fresh, moved_from=browser if moved else "")
            times.append((time.perf_counter() - began) * 1e3)
            if moved:
                browser = fresh
        what = "a new game that moves the browser's holdings" if moved else "a new game, nothing moved"
        print(f"  {what}: median {statistics.median(times):.2f} ms, worst {max(times):.2f} ms")
    (count,) = database.connect().execute(
        "SELECT COUNT(*) FROM table_game_owners o JOIN table_games g ON g.id = o.game_id WHERE g.kind = 'game' AND o.owner = ?",
        (browser,),
    ).fetchone()
    print(f"  the browser's last secret holds {count} games (3 + {moves} made with a move)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args(argv)
    verify()
    rotate(args.tables, args.games, args.moves)
    return 0


if __name__ == "__main__":
    sys.exit(main())
