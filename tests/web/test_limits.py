"""The web app is bounded by design: creations (games, tables, seats) are
limited per client address, whatever its cookies; other changes per browser;
both by the one :class:`~fivecard.web.friends_api.RateLimit`. At most so many
games and tables are kept (more is a 503 with a sentence), and those
untouched for so many days are removed. The app builds the tables of every
built-in rule set when it starts: no request builds one or writes the table
cache. The exact advisor takes turns (:class:`~fivecard.web.app.AdvisorGate`):
two at work, eight waiting without a thread, none longer than it may, the rest
503; the app's other requests go on meanwhile. Its turns are shared among
addresses (one with cookies it minted keeps no other from it), and only what
asks the advisor takes one. One address keeps at most its share of the
games and tables, and an address is its network (an IPv6 client's end
site, its /48; an IPv4 address however IPv6 carries it) for every
per-address bound."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio.to_thread
import httpx
import pytest
import uvicorn

import fivecard
import fivecard.play.advise
import fivecard.web.app
import fivecard.web.clients
from fivecard.cli import main


with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

from fivecard.web.app import AdvisorGate, create_app
from helpers import held_advisor  # noqa: F401  (a fixture)
from fivecard.web.clients import client_network
from fivecard.web.errors import AdvisorBusy
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


@pytest.mark.slow
def test_changes_and_the_advisors_answers_are_limited_per_browser(tmp_path: Path) -> None:
    app = create_app(tmp_path / "data", limit=RateLimit(rate=SLOW, burst=4, advise_rate=SLOW, advise_burst=3), allow_hosts=["testserver"])
    host, ann = fresh(app), fresh(app)
    table_id = host.post("/api/tables", json={}).json()["id"]
    ann.post(f"/api/tables/{table_id}/seats", json={"name": "Ann"})
    said = [host.post(f"/api/tables/{table_id}/chat", json={"text": str(i)}).status_code for i in range(6)]
    assert said == [200, 200, 200, 200, 429, 429]
    assert ann.post(f"/api/tables/{table_id}/chat", json={"text": "me"}).status_code == 200  # her own limit
    game_id = ann.post("/api/games", json={"seed": 1}).json()["id"]
    hint, advice = f"/api/games/{game_id}/hint", {"hand": "AS KS QS JS TS"}
    asked = [ann.post(f"/api/games/{game_id}/actions", json={"action": "start"}).status_code]  # her second change
    asked += [ann.get(hint).status_code, ann.post("/api/advise", json=advice).status_code, ann.get(hint).status_code]
    asked += [ann.post("/api/advise", json=advice).status_code, ann.get(hint).status_code]  # the advisor's burst is 3
    asked += [ann.post(f"/api/games/{game_id}/actions", json={"action": "fold"}).status_code]  # a change: its own bucket
    asked += [ann.post(f"/api/tables/{table_id}/chat", json={"text": "again"}).status_code]  # her fourth
    assert asked == [200, 200, 200, 200, 429, 429, 200, 200], asked
    refused = ann.post("/api/advise", json=advice)
    assert refused.json()["detail"].startswith("too many requests: the advisor's answers for this browser are limited; wait ")
    assert int(refused.headers["retry-after"]) >= 1
    assert "changes from this browser are limited" in ann.post(f"/api/games/{game_id}/actions", json={"action": "start"}).json()["detail"]
    assert host.post("/api/advise", json=advice).status_code == 200  # his own advisor bucket
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


@pytest.mark.slow
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
        assert db.execute("SELECT COUNT(*) FROM table_games WHERE kind = 'friends_table'").fetchone() == (burst,)


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


@pytest.mark.parametrize(("path", "noun"), [("/api/games", "game"), ("/api/tables", "table")])
def test_one_address_cannot_take_every_place_for_games(tmp_path: Path, path: str, noun: str) -> None:
    """Games (and tables) are kept 30 days after their last action, and one
    address may make 300 at once then one every 2 s: one address alone
    filled the 10,000 places in about 5.4 hours, and every other browser's
    new game was 503 for the next 30 days. One address keeps at most a
    twentieth of them (10 at least: here 10 of 40), whatever its cookies."""
    capacity = Capacity(games=40, tables=40)
    assert capacity.per_address(40) == 10 and Capacity().per_address(10_000) == 500
    app = create_app(tmp_path / "data", capacity=capacity, allow_hosts=["testserver"])
    stranger = fresh(app, "10.0.0.66")
    made = []
    for _ in range(40):
        made.append(stranger.post(path, json={}))
        stranger.cookies.clear()
    assert [m.status_code for m in made] == [201] * 10 + [503] * 30
    assert made[-1].json()["detail"] == (
        f"the server keeps at most 10 {noun}s made from one address, and this address has made that many: "
        f"try again later (a {noun} untouched for 30 days is removed)"
    )
    assert "set-cookie" not in made[-1].headers
    answered = fresh(app, "10.0.0.7").post(path, json={})
    assert answered.status_code == 201, answered.json()


#: Three addresses of one IPv6 end site (a /48: its /64s 1 and ff00), and one of another.
ONE_NETWORK = ["2001:db8:0:1::1", "2001:db8:0:1::2", "2001:db8:0:ff00:ffff:ffff:ffff:ffff"]
ANOTHER_NETWORK = "2001:db8:1::1"


def test_the_addresses_of_one_ipv6_network_share_an_addresss_limits(tmp_path: Path) -> None:
    """A client given an IPv6 network (a /64: 2^64 addresses) was, to every
    per-address bound, as many clients as it has addresses: 300 new things
    at once from each (served with ``--host ::``). Each bound keyed on an
    address is its network's: new things, a cookie-less browser's changes,
    the advisor's answers, the places one address may keep, the advisor's
    turns (and the server's connections: test_web_server)."""
    limit = RateLimit(create_rate=SLOW, create_burst=2, rate=SLOW, burst=2, advise_rate=SLOW, advise_burst=1)
    app = create_app(tmp_path / "data", limit=limit, allow_hosts=["testserver"])
    # new things: two at once for the network
    made = [fresh(app, address).post("/api/games", json={}).status_code for address in [*ONE_NETWORK, ANOTHER_NETWORK]]
    assert made == [201, 201, 429, 201]
    # changes without a cookie: the address is the browser
    table_id = fresh(app, ANOTHER_NETWORK).post("/api/tables", json={}).json()["id"]
    ended = [fresh(app, address).post(f"/api/tables/{table_id}/end", json={}).status_code for address in ONE_NETWORK]
    assert ended == [403, 403, 429]
    # the advisor's answers (of a browser without a cookie: its address's; with one, its address's too)
    royal = {"hand": "AS KS QS JS TS", "top": 1}
    asked = [fresh(app, address).post("/api/advise", json=royal).status_code for address in [*ONE_NETWORK, ANOTHER_NETWORK]]
    assert asked == [200, 429, 429, 200]
    # the places one address keeps (here one game, one table)
    places = create_app(tmp_path / "places", capacity=Capacity(address_floor=1, address_part=10_000), allow_hosts=["testserver"])
    kept = [fresh(places, address).post("/api/tables", json={}).status_code for address in [*ONE_NETWORK, ANOTHER_NETWORK]]
    assert kept == [201, 503, 503, 201]


def test_a_clients_network_is_its_ipv4_address_or_its_ipv6_48() -> None:
    assert {client_network(a) for a in ONE_NETWORK} == {"2001:db8::/48"}
    assert client_network(ANOTHER_NETWORK) == "2001:db8:1::/48"
    assert client_network("2001:DB8:0:1::1") == client_network("2001:db8:0:1:0:0:0:1%eth0") == "2001:db8::/48"
    assert [client_network(a) for a in ("10.0.0.1", "10.0.0.2", "::ffff:10.0.0.1")] == ["10.0.0.1", "10.0.0.2", "10.0.0.1"]
    assert client_network("testclient") == "testclient" and client_network("") == ""


#: Four /64s of one end site's /56 (one household, one customer: it is given 256 of them).
ONE_SITE = ["2001:db8:0:10::1", "2001:db8:0:11::1", "2001:db8:0:12::1", "2001:db8:0:13::1"]
#: A client of another provider altogether.
SOMEONE_ELSE = "2001:db9::1"


@pytest.mark.parametrize(
    "site",
    [ONE_SITE, ["2001:db8:0:100::1", "2001:db8:0:ff00::1", "2001:db8:0:ffff::1", "2001:db8:0:4242::1"]],
    ids=["four-64s-of-a-56", "four-56s-of-a-48"],
)
@pytest.mark.slow
def test_one_end_site_of_ipv6_cannot_take_every_place_for_games(tmp_path: Path, site: list[str]) -> None:
    """One address keeps at most a twentieth of the places (500 of 10,000):
    twenty /64s, of the 256 a /56 holds, kept all of them, for 30 days (here,
    of 40, four /64s of one /56 took every place, and a client anywhere else
    was refused). The site is one network, a /48, whatever its parts: it
    keeps one share (10 here), and anyone else is answered."""
    app = create_app(tmp_path / "data", capacity=Capacity(games=40, tables=40), allow_hosts=["testserver"])
    made = []
    for address in site:
        client = fresh(app, address)
        for _ in range(10):
            made.append(client.post("/api/games", json={}).status_code)
            client.cookies.clear()
    assert made == [201] * 10 + [503] * 30
    answered = fresh(app, SOMEONE_ELSE).post("/api/games", json={})
    assert answered.status_code == 201, answered.json()


def test_one_end_site_of_ipv6_cannot_keep_everyone_else_from_the_advisor() -> None:
    """The advisor's turns go fairly among networks; a network holding one
    turn is never made to give it up. A /56 is 256 /64s: with one turn each,
    they held every turn and every place in the queue, and anyone else was
    refused (measured with 20 loopback addresses, one request each: another
    address's advice was answered once in 18 tries, against 18 of 18 when one
    address sent 12 at once). The site is one network: it holds its turns as
    one client does, and another network takes the place of its latest."""

    async def scenario() -> None:
        gate = AdvisorGate(slots=1, queue=2, wait=PATIENCE)
        go = threading.Event()

        def work() -> str:
            assert go.wait(PATIENCE)
            return "advice"

        held = [asyncio.create_task(gate.run(work, client_network(address))) for address in ONE_SITE[:3]]
        await until(lambda: (gate.running, gate.waiting) == (1, 2))
        try:
            other = asyncio.create_task(gate.run(work, client_network(SOMEONE_ELSE)))
            await until(lambda: gate.held(client_network(SOMEONE_ELSE)) == 1)
            go.set()
            assert await other == "advice"
        except AdvisorBusy as refused:
            pytest.fail(f"another network was refused while one /56 held every turn: {refused}")
        finally:
            go.set()
            outcomes = await asyncio.gather(*held, return_exceptions=True)
        # the site's latest waiting request gave its place; its others were answered
        assert sorted(type(outcome).__name__ for outcome in outcomes) == ["AdvisorBusy", "str", "str"]

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("one", "another", "same"),
    [
        ("64:ff9b::1.2.3.4", "64:ff9b::5.6.7.8", False),  # two IPv4 clients, through a NAT64 translator
        ("64:ff9b::1.2.3.4", "1.2.3.4", True),  # ... each the IPv4 client it carries
        ("2002:102:304:1::1", "2002:102:304:2::1", True),  # one IPv4 address's 6to4 network (a /48)
        ("2002:102:304:1::1", "::ffff:1.2.3.4", True),  # ... is that IPv4 address
        ("2002:102:304::1", "2002:102:305::1", False),  # two IPv4 addresses' 6to4 networks
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45", True),  # Teredo carries its client's IPv4 address
    ],
    ids=[
        "nat64-carries-two-clients", "nat64-is-its-ipv4-client", "6to4-is-one-client", "6to4-is-its-ipv4-address",
        "6to4-of-two-addresses", "teredo-is-its-ipv4-client",
    ],  # fmt: skip
)
def test_an_ipv4_address_carried_in_ipv6_is_that_address(one: str, another: str, same: bool) -> None:
    """An IPv4-mapped address is its IPv4 address; so is one carried by the
    other well-known forms. Behind a NAT64 (or SIIT) translator every IPv4
    client of the internet reached the server in one /64, 64:ff9b::/64: one
    client's share was everyone's. A 6to4 host is given a /48 for its one
    IPv4 address: 65,536 networks."""
    assert (client_network(one) == client_network(another)) is same


def _served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *options: str) -> Any:
    """The ASGI app ``fivecard serve`` runs under uvicorn (with the
    middleware uvicorn puts around it), given ``options``."""
    configs: list[uvicorn.Config] = []

    def run(server: uvicorn.Server, sockets: list[socket.socket]) -> None:
        configs.append(server.config)
        for sock in sockets:
            sock.close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(gc, "freeze", lambda: None)
    argv = ["serve", "--port", "0", "--data", str(tmp_path / "data"), "--allow-host", "testserver", *options]
    out, err = io.StringIO(), io.StringIO()
    assert main(argv, stdin=io.StringIO(), stdout=out, stderr=err) == 0, err.getvalue()
    configs[0].load()
    return configs[0].loaded_app


@pytest.mark.parametrize(
    ("options", "peer", "client"),
    [
        ((), "127.0.0.1", "127.0.0.1"),  # uvicorn's default read them from the loopback
        ((), "::1", "::1"),
        ((), "198.51.100.7", "198.51.100.7"),  # ... and from everyone, with FORWARDED_ALLOW_IPS=*
        (("--proxy", "127.0.0.1"), "127.0.0.1", "203.0.113.9"),
        (("--proxy", "::1"), "::1", "203.0.113.9"),
        (("--proxy", "10.0.0.0/8", "--proxy", "192.0.2.1"), "10.1.2.3", "203.0.113.9"),
        (("--proxy", "10.0.0.0/8", "--proxy", "192.0.2.1"), "192.0.2.1", "203.0.113.9"),
        (("--proxy", "10.0.0.0/8"), "198.51.100.7", "198.51.100.7"),  # not the proxy: its headers are the client's
    ],
    ids=["loopback", "loopback-v6", "anyone", "proxy", "proxy-v6", "proxy-network", "second-proxy", "not-the-proxy"],
)
@pytest.mark.slow
def test_serve_reads_who_the_client_is_from_a_named_proxy_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: tuple[str, ...], peer: str, client: str
) -> None:
    """Every per-address bound counts a request's client. uvicorn, as
    ``fivecard serve`` started it, took the client from X-Forwarded-For
    on connections from 127.0.0.1 and ::1 (anything on the computer, a
    proxy or not), or from every client when FORWARDED_ALLOW_IPS said
    ``*``: each request could name another address, and no per-address
    bound held. The headers are read on the connections of a proxy named
    with ``--proxy`` alone (its address's or its network's; of what they
    list, the address the proxies did not write), and never from anyone
    else, whatever the environment says."""
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")
    app = _served(tmp_path, monkeypatch, *options)
    seen: list[str] = []
    real = fivecard.web.clients.client_network

    def client_network(address: str) -> str:
        seen.append(address)
        return real(address)

    monkeypatch.setattr(fivecard.web.clients, "client_network", client_network)
    forwarded = {"x-forwarded-for": "198.51.100.66, 203.0.113.9", "x-forwarded-proto": "https"}
    answered = TestClient(app, client=(peer, 40000)).post("/api/games", json={}, headers=forwarded)
    assert answered.status_code == 201, answered.text
    assert seen and set(seen) == {client}


@pytest.mark.parametrize("proxy", ["*", "proxy.lan", "10.0.0.0/33", ""])
def test_serve_refuses_a_proxy_that_is_no_address_or_network(tmp_path: Path, proxy: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["serve", "--check", "--port", "0", "--data", str(tmp_path / "data"), "--proxy", proxy], stdin=io.StringIO(), stdout=out, stderr=err)
    assert code == 2 and err.getvalue() == (
        f"fivecard: error: --proxy: {proxy!r} is not an IP address or network (e.g. 127.0.0.1, ::1, 10.0.0.0/24)\n"
    )
    assert not (tmp_path / "data").exists()  # refused before the data folder is made


def test_the_advisors_turns_are_shared_by_network(tmp_path: Path, held_advisor: threading.Event) -> None:
    app = create_app(tmp_path / "data", advisor=AdvisorGate(slots=1, queue=2, wait=PATIENCE), allow_hosts=["testserver"])
    gate: AdvisorGate = app.state.advisor
    royal = {"hand": "AS KS QS JS TS", "top": 1}

    async def scenario() -> None:
        clients = [_asgi(app, address) for address in ONE_NETWORK]
        asked = [asyncio.create_task(client.post("/api/advise", json=royal)) for client in clients]
        await until(lambda: gate.held("2001:db8::/48") == 3)
        assert (gate.running, gate.waiting) == (1, 2)
        async with _asgi(app, ONE_NETWORK[0]) as more:
            assert (await more.post("/api/advise", json=royal)).status_code == 503  # the network's: no place
        async with _asgi(app, ANOTHER_NETWORK) as other:
            another = asyncio.create_task(other.post("/api/advise", json=royal))  # takes a place of the network's
            await until(lambda: gate.held("2001:db8:1::/48") == 1)
            held_advisor.set()
            assert (await another).status_code == 200
        assert sorted(a.status_code for a in await asyncio.gather(*asked)) == [200, 200, 503]
        for client in clients:
            await client.aclose()

    asyncio.run(scenario())


def _age(data: Path, row_id: str, days: float) -> None:
    with sqlite3.connect(data / "games.sqlite3") as db:
        db.execute("UPDATE table_games SET updated = ? WHERE id = ?", (time.time() - days * 86_400, row_id))


def test_games_and_tables_untouched_for_days_are_removed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    app = create_app(data, capacity=Capacity(games=2, tables=2, days=7), allow_hosts=["testserver"])
    client = fresh(app)
    old, recent = (client.post("/api/tables", json={}).json()["id"] for _ in range(2))
    game = client.post("/api/games", json={"seed": 1}).json()["id"]
    client.post(f"/api/games/{game}/actions", json={"action": "start"})
    _age(data, old, 8)
    _age(data, recent, 6)
    _age(data, game, 8)
    assert client.post("/api/tables", json={}).status_code == 201  # the old one made room
    gone = client.get(f"/api/tables/{old}")
    assert gone.status_code == 404 and "a table untouched for 7 days is removed" in gone.json()["detail"]
    assert client.get(f"/api/tables/{recent}").status_code == 200
    assert client.post("/api/games", json={}).status_code == 201
    assert "a game untouched for 7 days is removed" in client.get(f"/api/games/{game}").json()["detail"]
    with sqlite3.connect(data / "games.sqlite3") as db:  # their events went with them
        assert db.execute("SELECT COUNT(*) FROM table_game_events WHERE game_id = ?", (old,)).fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM table_game_events WHERE game_id = ?", (game,)).fetchone() == (0,)


#: Run in a process of its own (its tables not built yet, an empty table
#: cache): the app starts, then every request that reads a rule set's tables
#: is made under every built-in rule set, watching the table cache.
EVERY_RULE_SET = """
import json, os, sys, warnings
warnings.simplefilter("ignore")
from fastapi.testclient import TestClient
from fivecard.core import lookup_cache as tablecache
from fivecard.core.rules import RULE_SETS
from fivecard.web.app import AdvisorGate, create_app
from fivecard.web.errors import AdvisorBusy
from fivecard.web.friends_api import RateLimit

cache = os.environ[tablecache.ENVIRONMENT]
app = create_app(
    sys.argv[1],
    limit=RateLimit(rate=1e6, burst=1e6, create_rate=1e6, create_burst=1e6, advise_rate=1e6, advise_burst=1e6),
    allow_hosts=["testserver"],
)
kept = sorted(os.listdir(cache))
used = []
for name in ("load", "store"):  # a table read or written from here on: a request built it
    real = getattr(tablecache, name)
    setattr(tablecache, name, lambda *args, _name=name, _real=real: used.append((_name, args[0])) or _real(*args))
client = TestClient(app)
answers = {}
for rules in RULE_SETS.values():
    deck = [card.code_str for card in rules.deck()]
    hand, seven = " ".join(deck[0:40:8]), deck[1:41:6]
    two, board = " ".join(seven[:2]), " ".join(seven[2:])
    said = [
        client.post("/api/evaluate", json={"hand": hand, "rules": rules.name}),
        client.post("/api/evaluate", json={"hand": two, "board": board, "rules": rules.name}),
        client.post("/api/compare", json={"hands": [hand, " ".join(seven[:5])], "rules": rules.name}),
        client.post("/api/compare", json={"hands": [two, " ".join(deck[3:5])], "board": board, "rules": rules.name}),
        client.post("/api/advise", json={"hand": hand, "rules": rules.name}),
        client.get("/check", params=[("rules", rules.name), ("hand", hand), ("hand", " ".join(seven[:5]))]),
    ]
    game = client.post("/api/games", json={"rules": rules.name, "seed": 1}).json()["id"]
    said += [
        client.post(f"/api/games/{game}/actions", json={"action": "start"}),
        client.get(f"/api/games/{game}/hint"),
        client.post(f"/api/games/{game}/actions", json={"action": "keep"}),
    ]
    table = client.post("/api/tables", json={"rules": rules.name, "seed": 2}).json()["id"]
    said += [client.post(f"/api/tables/{table}/{what}", json=body) for what, body in
             [("seats", {"name": "Ann"}), ("rounds", {}), ("deal", {})]]
    said += [client.get(f"/api/tables/{table}/export", params={"format": f}) for f in ("csv", "jsonl")]
    answers[rules.name] = [r.status_code for r in said]
print(json.dumps({"kept": len(kept), "used": used, "added": sorted(set(os.listdir(cache)) - set(kept)), "answers": answers}))
"""


@pytest.mark.slow
def test_no_request_builds_a_table_or_writes_the_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    source = str(Path(fivecard.__file__).parent.parent)
    env = {**os.environ, "FIVECARD_CACHE": str(cache), "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run(
        [sys.executable, "-c", EVERY_RULE_SET, str(tmp_path / "data")], env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["kept"] > 0  # the app built the tables when it started, and kept them
    assert found["used"] == [] and found["added"] == []
    for name, statuses in found["answers"].items():
        assert statuses == [200] * 9 + [201] + [200] * 4, name


# --- the advisor's turns ----------------------------------------------------------------------

#: The longest a test waits for what should happen at once.
PATIENCE = 10.0


class Work:
    """Work for the gate that takes as long as a test says: each piece
    records that it began, then waits to be let go."""

    def __init__(self) -> None:
        self.began: list[str] = []
        self.go = threading.Event()  # every piece may end
        self.done: set[str] = set()  # these pieces may end
        self._changed = threading.Condition()

    def piece(self, name: str) -> Any:
        def work() -> str:
            self.began.append(name)
            with self._changed:
                assert self._changed.wait_for(lambda: self.go.is_set() or name in self.done, PATIENCE)
            return name

        return work

    def let_go(self, name: str | None = None) -> None:
        """Let the piece ``name`` end (every piece, if None)."""
        with self._changed:
            if name is None:
                self.go.set()
            else:
                self.done.add(name)
            self._changed.notify_all()


async def until(holds: Any) -> None:
    deadline = time.monotonic() + PATIENCE
    while not holds():
        assert time.monotonic() < deadline, "it never happened"
        await asyncio.sleep(0.005)


def test_the_gate_runs_so_many_at_once_lets_so_many_wait_in_order_and_refuses_more() -> None:
    async def scenario() -> None:
        gate, work = AdvisorGate(slots=2, queue=3, wait=PATIENCE), Work()
        tasks = [asyncio.create_task(gate.run(work.piece(f"w{i}"))) for i in range(5)]
        await until(lambda: len(work.began) == 2 and gate.waiting == 3)
        assert gate.running == 2 and sorted(work.began) == ["w0", "w1"]
        assert anyio.to_thread.current_default_thread_limiter().borrowed_tokens == 2  # the waiting hold no thread
        with pytest.raises(AdvisorBusy) as refused:
            await gate.run(work.piece("w5"))
        assert str(refused.value) == "the advisor is busy (2 answers being worked out, 3 waiting): ask again in a moment"
        assert refused.value.wait == 1
        for ended, began in (("w0", 3), ("w1", 4), ("w2", 5)):  # one turn at a time: in the order they came
            work.let_go(ended)
            await until(lambda: len(work.began) == began)
        assert work.began[2:] == ["w2", "w3", "w4"]
        work.let_go()
        assert await asyncio.gather(*tasks) == [f"w{i}" for i in range(5)]
        assert (gate.running, gate.waiting) == (0, 0)

    asyncio.run(scenario())


def test_a_request_that_waits_too_long_is_refused_and_one_that_goes_away_gives_its_place() -> None:
    async def scenario() -> None:
        gate, work = AdvisorGate(slots=1, queue=2, wait=0.2), Work()
        first = asyncio.create_task(gate.run(work.piece("first")))
        await until(lambda: work.began == ["first"])
        began = time.monotonic()
        with pytest.raises(AdvisorBusy, match=r"^the advisor is busy: this request waited 0\.2 s for its turn; ask again in a moment$"):
            await gate.run(work.piece("late"))
        assert 0.2 <= time.monotonic() - began < PATIENCE
        assert (gate.running, gate.waiting) == (1, 0)
        gone = asyncio.create_task(gate.run(work.piece("gone")))  # a client that goes away while it waits
        await until(lambda: gate.waiting == 1)
        gone.cancel()
        await until(lambda: gate.waiting == 0)
        gate.wait = PATIENCE
        after = asyncio.create_task(gate.run(work.piece("after")))
        await until(lambda: gate.waiting == 1)
        work.let_go()
        assert await first == "first" and await after == "after"
        assert work.began == ["first", "after"] and (gate.running, gate.waiting) == (0, 0)

    asyncio.run(scenario())


@pytest.fixture
def slow_advisor(monkeypatch: pytest.MonkeyPatch) -> Iterator[Work]:
    """The app's advisor, taking as long as the test says."""
    work, real = Work(), fivecard.play.advise.advise

    def advise(*args: Any, **kwargs: Any) -> Any:
        work.piece("advise")()
        return real(*args, **kwargs)

    monkeypatch.setattr(fivecard.web.app, "advise", advise)
    yield work
    work.let_go()


@pytest.mark.usefixtures("no_rate_limits")
@pytest.mark.slow
def test_a_flood_of_advice_waits_its_turn_without_holding_the_apps_threads(tmp_path: Path, slow_advisor: Work) -> None:
    app = create_app(tmp_path / "data", allow_hosts=["fivecard"])
    gate: AdvisorGate = app.state.advisor
    # The waiting ones must outlast the test's own steps and the eight real
    # answers after them on a loaded machine: the wait's end has its own test.
    gate.wait = 60.0
    royal = {"hand": "AS KS QS JS TS", "top": 1}

    async def scenario() -> None:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://fivecard") as client:
            game_id = (await client.post("/api/games", json={"seed": 1})).json()["id"]
            assert (await client.post(f"/api/games/{game_id}/actions", json={"action": "start"})).status_code == 200
            flood = [asyncio.create_task(client.post("/api/advise", json=royal)) for _ in range(64)]
            await until(lambda: sum(t.done() for t in flood) == 64 - 10 and len(slow_advisor.began) == 2)
            assert (gate.running, gate.waiting) == (2, 8)
            assert anyio.to_thread.current_default_thread_limiter().borrowed_tokens == 2
            refused = [t.result() for t in flood if t.done()]
            for answer in refused:
                assert answer.status_code == 503 and answer.headers["retry-after"] == "1"
                assert answer.json() == {"detail": "the advisor is busy (2 answers being worked out, 8 waiting): ask again in a moment"}
            # every other request to the advisor meets the same gate: a hint, the computer players' turns
            hint = await client.get(f"/api/games/{game_id}/hint")
            turns = await client.post(f"/api/games/{game_id}/actions", json={"action": "keep"})
            assert [hint.status_code, turns.status_code] == [503, 503]
            # and everything else is answered at once
            began = time.monotonic()
            page, game, sheet = await asyncio.gather(
                client.get("/check"), client.get(f"/api/games/{game_id}"), client.get("/static/app.css")
            )
            assert [page.status_code, game.status_code, sheet.status_code] == [200, 200, 200]
            assert time.monotonic() - began < 2.0
            slow_advisor.let_go()
            answered = await asyncio.gather(*(t for t in flood if not t.done()))
            assert [a.status_code for a in answered] == [200] * 10
            assert all(a.json()["choices"][0]["keep"] for a in answered)
        assert (gate.running, gate.waiting) == (0, 0)

    asyncio.run(scenario())


# --- the advisor's turns, shared fairly among addresses ------------------------------------------


def test_the_gate_shares_its_turns_fairly_among_clients() -> None:
    """One client may use every turn while nobody else asks; a request
    from another, holding two turns fewer or more, takes the place of the
    first client's latest waiting request (refused); a freed turn goes to
    the waiting request whose client has the fewest at work."""

    async def scenario() -> None:
        gate, work = AdvisorGate(slots=2, queue=4, wait=PATIENCE), Work()
        flood = [asyncio.create_task(gate.run(work.piece(f"a{i}"), "10.0.0.66")) for i in range(6)]
        await until(lambda: len(work.began) == 2 and gate.waiting == 4)
        assert gate.held("10.0.0.66") == 6
        with pytest.raises(AdvisorBusy, match=r"^the advisor is busy \(2 answers being worked out, 4 waiting\)"):
            await gate.run(work.piece("a6"), "10.0.0.66")  # no room for more of the same client
        fair = [asyncio.create_task(gate.run(work.piece(f"b{i}"), "10.0.0.7")) for i in range(3)]
        await until(lambda: gate.held("10.0.0.7") == 3)
        assert gate.held("10.0.0.66") == 3 and gate.waiting == 4  # three each now
        refused = [t for t in flood if t.done()]  # its three latest gave their places
        assert [flood.index(t) for t in refused] == [3, 4, 5]
        for task in refused:
            with pytest.raises(AdvisorBusy, match="place went to another address's"):
                task.result()
        with pytest.raises(AdvisorBusy, match=r"^the advisor is busy \(2 answers"):
            await gate.run(work.piece("b3"), "10.0.0.7")  # a fourth would be more than its share
        work.let_go("a0")
        await until(lambda: len(work.began) == 3)
        assert work.began[2] == "b0"  # the freed turn goes to the client with none at work
        work.let_go("a1")
        await until(lambda: len(work.began) == 4)
        assert work.began[3] == "a2"  # now "10.0.0.66" has none at work
        work.let_go()
        assert await asyncio.gather(*flood[:3], *fair) == ["a0", "a1", "a2", "b0", "b1", "b2"]
        assert (gate.running, gate.waiting, gate.held("10.0.0.66"), gate.held("10.0.0.7")) == (0, 0, 0, 0)

    asyncio.run(scenario())


def _asgi(app: FastAPI, address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(address, 40000)), base_url="http://testserver")


@pytest.mark.slow
def test_a_stranger_with_cookies_it_minted_cannot_keep_every_other_player_from_the_advisor(
    tmp_path: Path, held_advisor: threading.Event
) -> None:
    """Measured on ``fivecard serve``: 12 connections asking ``/api/advise``
    (deuces-wild), with 36 cookies minted by ``POST /api/games`` (each
    within its own limit of 2 a second), for 15 s: another browser's game
    answered ``start`` 503 34 times out of 35. Here the advisor is held so
    that the queue stays full: a player at another address who acts in
    their own game (the computer players consult the advisor after it)
    is answered, though the stranger fills every turn first."""
    app = create_app(tmp_path / "data", allow_hosts=["testserver"])  # the default limits
    gate: AdvisorGate = app.state.advisor
    royal = {"hand": "AS KS QS JS TS", "top": 1}

    async def scenario() -> None:
        async with _asgi(app, "10.0.0.7") as player:
            game_id = (await player.post("/api/games", json={"seed": 1})).json()["id"]
            assert (await player.post(f"/api/games/{game_id}/actions", json={"action": "start"})).status_code == 200
            cookies = []
            for _ in range(10):  # ten new games: ten owner cookies, each a browser with its own limit
                async with _asgi(app, "10.0.0.66") as minting:
                    made = await minting.post("/api/games", json={})
                    assert made.status_code == 201
                    cookies.append(made.cookies["fivecard_owner"])
            async with _asgi(app, "10.0.0.66") as stranger:
                flood = [
                    asyncio.create_task(
                        stranger.post("/api/advise", json=royal, headers={"cookie": f"fivecard_owner={cookie}"})
                    )
                    for cookie in cookies
                    for _ in range(2)  # two each: well within each browser's burst of 10
                ]
                await until(lambda: gate.running == gate.slots and gate.waiting == gate.queue)
                turn = asyncio.create_task(player.post(f"/api/games/{game_id}/actions", json={"action": "keep"}))
                await asyncio.sleep(0.2)
                held_advisor.set()
                acted = await turn
                answered = await asyncio.gather(*flood)
            assert acted.status_code == 200, acted.json()
            assert {a.status_code for a in answered} <= {200, 429, 503}

    asyncio.run(scenario())


@pytest.mark.slow
def test_an_address_asks_the_advisor_as_so_many_browsers_whatever_its_cookies(tmp_path: Path) -> None:
    """Cookies cost nothing (every new game gives one): the advisor's
    answers are limited per address too, at ADVISE_BROWSERS browsers' worth."""
    app = create_app(
        tmp_path / "data", limit=RateLimit(advise_rate=SLOW, advise_burst=2), allow_hosts=["testserver"]
    )
    browsers = [fresh(app, "10.0.0.66") for _ in range(table_api.ADVISE_BROWSERS + 1)]
    for client in browsers:
        assert client.post("/api/games", json={}).status_code == 201  # a cookie each
    royal = {"hand": "AS KS QS JS TS", "top": 1}
    asked = [client.post("/api/advise", json=royal).status_code for client in browsers for _ in range(2)]
    assert asked == [200] * 2 * table_api.ADVISE_BROWSERS + [429, 429]
    refused = browsers[-1].post("/api/advise", json=royal).json()["detail"]
    assert refused.startswith("too many requests: the advisor's answers for this address are limited; wait ")
    assert fresh(app, "10.0.0.7").post("/api/advise", json=royal).status_code == 200  # another address


#: A round of the dealer game, each action with whether the computer players act after it (and so ask the advisor).
A_ROUND = [("start", False), ("keep", True), *[("reveal", False)] * 5, ("settle", False)]


@pytest.mark.slow
def test_starting_a_round_asks_no_advice_and_never_waits_for_the_advisor(
    tmp_path: Path, held_advisor: threading.Event
) -> None:
    """Only an action after which the computer players act asks the
    advisor: ``start`` (it deals and takes the antes; your turn comes
    first), ``reveal`` and ``settle`` are answered while another address
    holds every turn (one at work, none waiting); ``keep`` (the computer
    players then exchange) waits for a turn like any request for advice."""
    app = create_app(tmp_path / "data", advisor=AdvisorGate(slots=1, queue=0, wait=PATIENCE), allow_hosts=["testserver"])
    gate: AdvisorGate = app.state.advisor

    async def scenario() -> None:
        async with _asgi(app, "10.0.0.7") as player, _asgi(app, "10.0.0.66") as stranger:
            game_id = (await player.post("/api/games", json={"seed": 1})).json()["id"]
            for action, asks in A_ROUND:
                busy = asyncio.create_task(stranger.post("/api/advise", json={"hand": "AS KS QS JS TS", "top": 1}))
                await until(lambda: gate.running == 1)
                acted = await player.post(f"/api/games/{game_id}/actions", json={"action": action})
                if asks:  # no turn free, and none to wait for (a queue of 0)
                    assert acted.status_code == 503, action
                held_advisor.set()
                assert (await busy).status_code == 200
                held_advisor.clear()
                if asks:
                    acted = await player.post(f"/api/games/{game_id}/actions", json={"action": action})
                assert acted.status_code == 200, (action, acted.json())
                assert (gate.running, gate.waiting) == (0, 0)
            assert acted.json()["phase"] == "idle"

    asyncio.run(scenario())
