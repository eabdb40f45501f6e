"""The web app is bounded by design: creations (games, tables, seats) are
limited per client address, whatever its cookies; other changes per browser;
both by the one :class:`~fivecard.web.friends_api.RateLimit`. At most so many
games and tables are kept (more is a 503 with a sentence), and those
untouched for so many days are removed."""

from __future__ import annotations

import sqlite3
import time
import warnings
from pathlib import Path


with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

from fivecard.web.app import create_app
from fivecard.web.store import Capacity
from fivecard.web import friends_api as table_api
from fivecard.web.friends_api import RateLimit

#: A limiter that gives no tokens back within a test: only its bursts count.
SLOW = 1e-9


def fresh(app: FastAPI, address: str = "10.0.0.1") -> TestClient:
    """A browser with no cookie yet, at ``address``."""
    return TestClient(app, client=(address, 40000))


def test_creations_are_limited_per_address_with_or_without_cookies(tmp_path: Path) -> None:
    app = create_app(tmp_path / "data", limit=RateLimit(create_rate=SLOW, create_burst=6), allow_hosts=["testserver"])
    host = fresh(app)
    table_id = host.post("/api/tables", json={}).json()["id"]
    answers = [fresh(app).post("/api/tables", json={}) for _ in range(2)]  # a new browser each time
    answers += [fresh(app).post("/api/games", json={}) for _ in range(2)]
    answers += [fresh(app).post(f"/api/tables/{table_id}/seats", json={"name": f"P{i}"}) for i in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201, 201, 201, 429, 429]
    refused = answers[-1]
    assert refused.json()["detail"].startswith("too many requests: new games, tables and seats from this address are limited; wait ")
    assert int(refused.headers["retry-after"]) >= 1 and "set-cookie" not in refused.headers
    assert host.post("/api/games", json={}).status_code == 429  # a browser with a cookie: the same address
    assert fresh(app, "10.0.0.2").post("/api/tables", json={}).status_code == 201  # another address is not


def test_changes_are_limited_per_browser(tmp_path: Path) -> None:
    app = create_app(tmp_path / "data", limit=RateLimit(rate=SLOW, burst=4), allow_hosts=["testserver"])
    host, ann = fresh(app), fresh(app)
    table_id = host.post("/api/tables", json={}).json()["id"]
    ann.post(f"/api/tables/{table_id}/seats", json={"name": "Ann"})
    said = [host.post(f"/api/tables/{table_id}/chat", json={"text": str(i)}).status_code for i in range(6)]
    assert said == [200, 200, 200, 200, 429, 429]
    assert ann.post(f"/api/tables/{table_id}/chat", json={"text": "me"}).status_code == 200  # her own limit
    game_id = ann.post("/api/games", json={"seed": 1}).json()["id"]
    asked = [ann.post(f"/api/games/{game_id}/actions", json={"action": "start"}).status_code]
    asked += [ann.get(f"/api/games/{game_id}/hint").status_code, ann.post("/api/advise", json={"hand": "AS KS QS JS TS"}).status_code]
    asked += [ann.post(f"/api/games/{game_id}/actions", json={"action": "fold"}).status_code]
    assert asked[-1] == 429 and 429 not in asked[:-1], asked
    assert "changes from this browser are limited" in ann.post("/api/advise", json={"hand": "AS KS QS JS TS"}).json()["detail"]
    watcher = fresh(app)  # no cookie: its address is its browser
    assert [watcher.post(f"/api/tables/{table_id}/end", json={}).status_code for _ in range(5)] == [403] * 4 + [429]


def test_reading_and_settling_hands_are_not_limited(tmp_path: Path) -> None:
    limit = RateLimit(rate=SLOW, burst=1, create_rate=SLOW, create_burst=1)
    app = create_app(tmp_path / "data", limit=limit, allow_hosts=["testserver"])
    client = fresh(app)
    table_id = client.post("/api/tables", json={}).json()["id"]
    for _ in range(5):
        assert client.get(f"/api/tables/{table_id}").status_code == 200
        assert client.post("/api/compare", json={"hands": ["AS KS QS JS TS", "2C 3C 4C 5C 7D"]}).status_code == 200
        assert client.post("/api/evaluate", json={"hand": "AS KS QS JS TS"}).status_code == 200


class Clock:
    """A limiter's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_limiter_gives_tokens_back_at_its_rate(tmp_path: Path) -> None:
    clock = Clock()
    limit = RateLimit(create_rate=0.5, create_burst=2, clock=clock)
    app = create_app(tmp_path / "data", limit=limit, allow_hosts=["testserver"])
    assert [fresh(app).post("/api/games", json={}).status_code for _ in range(3)] == [201, 201, 429]
    assert fresh(app).post("/api/games", json={}).headers["retry-after"] == "2"  # one token: 2 s at 0.5 a second
    clock.now += 1.0
    assert fresh(app).post("/api/games", json={}).headers["retry-after"] == "1"
    clock.now += 1.0
    assert fresh(app).post("/api/games", json={}).status_code == 201
    clock.now += 3600.0  # an hour idle: the bucket is full again, never fuller than its burst
    assert [fresh(app).post("/api/games", json={}).status_code for _ in range(3)] == [201, 201, 429]


def test_1500_cookie_less_tables_from_one_address(tmp_path: Path) -> None:
    """Without a cookie a client was never limited: 1,500 tables, no 429.
    Now (the default limits, the clock held still) the address's burst is
    kept and the rest refused, and nothing more is stored."""
    data = tmp_path / "data"
    app = create_app(data, limit=RateLimit(clock=Clock()), allow_hosts=["testserver"])
    client = fresh(app)
    codes = []
    for _ in range(1500):
        codes.append(client.post("/api/tables", json={}).status_code)
        client.cookies.clear()
    burst = table_api.CREATE_BURST
    assert codes.count(201) == burst and codes.count(429) == 1500 - burst
    with sqlite3.connect(data / "games.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM friend_tables").fetchone() == (burst,)


def test_at_most_so_many_games_and_tables_are_kept(tmp_path: Path) -> None:
    app = create_app(tmp_path / "data", capacity=Capacity(games=2, tables=3), allow_hosts=["testserver"])
    client = fresh(app)
    assert [client.post("/api/tables", json={}).status_code for _ in range(4)] == [201, 201, 201, 503]
    assert [client.post("/api/games", json={}).status_code for _ in range(3)] == [201, 201, 503]
    full = client.post("/api/tables", json={}).json()["detail"]
    assert full == (
        "the server keeps at most 3 tables and has that many now: try again later "
        "(a table untouched for 30 days is removed)"
    )
    assert "at most 2 games" in client.post("/api/games", json={}).json()["detail"]


def _age(data: Path, table: str, row_id: str, days: float) -> None:
    with sqlite3.connect(data / "games.sqlite3") as db:
        db.execute(f"UPDATE {table} SET updated = ? WHERE id = ?", (time.time() - days * 86_400, row_id))


def test_games_and_tables_untouched_for_days_are_removed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    app = create_app(data, capacity=Capacity(games=2, tables=2, days=7), allow_hosts=["testserver"])
    client = fresh(app)
    old, recent = (client.post("/api/tables", json={}).json()["id"] for _ in range(2))
    game = client.post("/api/games", json={"seed": 1}).json()["id"]
    client.post(f"/api/games/{game}/actions", json={"action": "start"})
    _age(data, "friend_tables", old, 8)
    _age(data, "friend_tables", recent, 6)
    _age(data, "games", game, 8)
    assert client.post("/api/tables", json={}).status_code == 201  # the old one made room
    gone = client.get(f"/api/tables/{old}")
    assert gone.status_code == 404 and "a table untouched for 7 days is removed" in gone.json()["detail"]
    assert client.get(f"/api/tables/{recent}").status_code == 200
    assert client.post("/api/games", json={}).status_code == 201
    assert "removed after 7 days untouched" in client.get(f"/api/games/{game}").json()["detail"]
    with sqlite3.connect(data / "games.sqlite3") as db:  # their events went with them
        assert db.execute("SELECT COUNT(*) FROM friend_events WHERE table_id = ?", (old,)).fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM events WHERE game = ?", (game,)).fetchone() == (0,)
