"""Owner secrets are the server's own, and change as a browser gains
something.

A secret is random bytes and their HMAC tag under a key kept in the data
file (``Owners``): a cookie the server did not issue is no owner at all, so
one planted in a browser by another service of the same host (cookies do
not tell ports apart) can neither read nor gain anything. A browser that
gains something (a game, a table, a seat) gets a fresh secret, and what
its old one held moves to it in the transaction of the gain: a secret
planted or seen earlier holds nothing afterwards. Two owner cookies in one
request are 400.

The walks take every route from the app (every method, path parameters
filled with a real game, table and seat, bodies built from the OpenAPI
document's required fields) and ask each, from a world where one browser
(the victim) holds a game, hosts a table, has a seat and a hand at it and a
seat at another, with: no cookie (a stranger: the answer every other kind
is held to), cookies the server did not issue, the victim's secrets from
before its last gains, and two owner cookies. Each request is asked of the
same world (the data file put back as it was), and after each, what every
browser of the world holds is compared with what it holds after the
stranger's request."""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

from routes import route_requests
from fivecard.play.friends import FriendsTable
from fivecard.play.game import Game
from fivecard.web.app import OWNER_COOKIE, create_app
from fivecard.web.errors import NotYours
from fivecard.web.store import DEALER_GAMES, Capacity, Database, Owners, TableGameStore, secret_hash
from fivecard.web.friends_api import RateLimit

#: Fresh ids in answers (a new game's or table's), masked before answers are compared.
NEW_ID = re.compile(
    rb'(?<="id":")[A-Za-z0-9_-]{22}(?=")|(?<=/api/games/)[A-Za-z0-9_-]{22}|(?<=/api/tables/)[A-Za-z0-9_-]{22}'
    rb"|(?<=/api/machines/)[A-Za-z0-9_-]{22}"
)

#: The dealer games and video-poker machines an owner holds (id, state), and
#: the friends' tables it has a part at (id).
_GAMES_OF = (
    "SELECT g.id, g.state FROM table_games g JOIN table_game_owners o ON o.game_id = g.id "
    "WHERE g.kind IN ('game', 'machine') AND o.owner = ?"
)
_TABLES_OF = (
    "SELECT g.id FROM table_games g JOIN table_game_owners o ON o.game_id = g.id "
    "WHERE g.kind = 'friends_table' AND o.owner = ?"
)


def _unlimited() -> RateLimit:
    return RateLimit(rate=1e9, burst=1e9, create_rate=1e9, create_burst=1e9, advise_rate=1e9, advise_burst=1e9)


def _cookie(client: TestClient) -> str:
    return str(client.cookies[OWNER_COOKIE])


@dataclass
class Answer:
    status: int
    body: bytes  # new ids masked
    new_secret: str | None  # the owner cookie it set
    holdings: dict[str, Any]  # what each browser of the world holds after it

    def looks_like(self, other: Answer, refusals_alike: bool = False) -> bool:
        """The same answer and the same holdings (a fresh cookie set or not
        alike); with ``refusals_alike``, a refusal's sentence may differ
        (a secret the server issued, that holds nothing, is told a game is
        another browser's, where a browser without one is told it has none)."""
        body, theirs = self.body, other.body
        if refusals_alike and self.status >= 400:
            body, theirs = json.loads(body).keys(), json.loads(theirs).keys()
        return (self.status, body, self.new_secret is None, self.holdings) == (
            other.status, theirs, other.new_secret is None, other.holdings,
        )


@dataclass
class World:
    app: FastAPI
    database: Path
    pristine: Path
    client: TestClient
    victim: str  # its secret now
    old: dict[str, str]  # its secrets before each gain, each rotated away: by what it gained next
    attacker: str  # another browser's secret, the server's own: it holds a game
    legacy: str  # a secret as earlier versions issued them (any text): it holds a game kept then
    ids: dict[str, str]  # a path parameter's name -> its value
    strangers: dict[tuple[str, str], Answer] = field(default_factory=dict)
    victims: dict[tuple[str, str], Answer] = field(default_factory=dict)

    # -- the world as it was ----------------------------------------------------------------

    def restore(self) -> None:
        source, target = sqlite3.connect(self.pristine), sqlite3.connect(self.database)
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()

    def holdings(self) -> dict[str, Any]:
        """What each secret the world knows holds: its games (their state),
        its part at each table (the table as it sees it), its request ids
        and its rows in the owners' index."""
        tracked = {"victim": self.victim, "attacker": self.attacker, "legacy": self.legacy}
        tracked.update({f"old before {gain}": secret for gain, secret in self.old.items()})
        db = sqlite3.connect(self.database)
        try:
            tables = {
                table_id: FriendsTable.from_state(json.loads(state))
                for table_id, state in db.execute("SELECT id, state FROM table_games WHERE kind = 'friends_table'")
            }
            found: dict[str, Any] = {}
            for name, secret in tracked.items():
                owner = secret_hash(secret)
                found[name] = {
                    "games": dict(db.execute(_GAMES_OF, (owner,)).fetchall()),
                    "tables": {i: t.view(owner) for i, t in tables.items() if owner in t.owners()},
                    "requests": sorted(
                        db.execute("SELECT game_id, request_id FROM table_game_requests WHERE owner = ?", (owner,))
                    ),
                    "index": sorted(db.execute(_TABLES_OF, (owner,))),
                }
        finally:
            db.close()
        return found

    # -- asking -----------------------------------------------------------------------------

    def ask(self, method: str, path: str, body: Any, cookies: list[str]) -> Answer:
        """The answer to one request with these owner cookies, asked of the
        world as it was built."""
        self.restore()
        client = self.client
        client.cookies.clear()
        headers = {"content-type": "application/json"}
        if cookies:
            headers["cookie"] = "; ".join(f"{OWNER_COOKIE}={c}" for c in cookies)
        content = None if body is None else json.dumps(body).encode()
        if path.endswith("/events"):  # a stream that stays open: its first event frames
            with client.stream(method, path, headers=headers) as streamed:
                status = streamed.status_code
                raw = b"".join(islice(streamed.iter_bytes(), 2)) if status == 200 else streamed.read()
                set_cookie = streamed.headers.get_list("set-cookie")
        else:
            answer = client.request(method, path, headers=headers, content=content)
            status, raw, set_cookie = answer.status_code, answer.content, answer.headers.get_list("set-cookie")
        secret = None
        for line in set_cookie:
            name, _, rest = line.partition("=")
            if name == OWNER_COOKIE:
                secret = rest.split(";")[0]
        known = {self.victim, self.attacker, self.legacy, *self.old.values()}
        assert secret not in known, (method, path, "set a secret someone holds already")
        return Answer(status, NEW_ID.sub(b"NEW", raw), secret, self.holdings())

    def requests(self) -> Iterator[tuple[str, str, Any]]:
        """Every route of the app, every method: (method, path, body)."""
        return route_requests(self.app, self.ids)

    def stranger(self, method: str, path: str, body: Any) -> Answer:
        if (method, path) not in self.strangers:
            self.strangers[method, path] = self.ask(method, path, body, [])
        return self.strangers[method, path]

    def as_victim(self, method: str, path: str, body: Any) -> Answer:
        if (method, path) not in self.victims:
            self.victims[method, path] = self.ask(method, path, body, [self.victim])
        return self.victims[method, path]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    folder = tmp_path_factory.mktemp("owners")
    # (served to the network, so that the table's QR code is drawn for whoever asks)
    app = create_app(folder / "data", limit=_unlimited(), allow_hosts=["testserver"], lan_url="http://192.0.2.7:8000/")
    victim, other, attacker = TestClient(app), TestClient(app), TestClient(app)
    old: dict[str, str] = {}

    def gain(what: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        if OWNER_COOKIE in victim.cookies:
            old[what] = _cookie(victim)
        answer = victim.post(path, json=body)
        assert answer.status_code == 201, answer.text
        return dict(answer.json())

    game_id = gain("a game", "/api/games", {"seed": 7})["id"]
    assert victim.post(f"/api/games/{game_id}/actions", json={"action": "start"}).status_code == 200
    machine_id = gain("a machine", "/api/machines", {"paytable": "jacks-or-better-9-6", "seed": 5})["id"]
    assert victim.post(f"/api/machines/{machine_id}/actions", json={"action": "deal"}).status_code == 200
    table_id = gain("a table", "/api/tables", {"draw": 5})["id"]  # (a draw: the victim's hand may be exchanged)
    assert gain("a seat", f"/api/tables/{table_id}/seats", {"name": "Vic", "request_id": "vic"})["you"] == 1
    assert other.post(f"/api/tables/{table_id}/seats", json={"name": "Ola"}).json()["you"] == 2
    other_table = other.post("/api/tables", json={}).json()["id"]
    gain("a seat elsewhere", f"/api/tables/{other_table}/seats", {"name": "Vic"})
    assert victim.post(f"/api/tables/{table_id}/rounds", json={}).status_code == 200
    assert victim.post(f"/api/tables/{table_id}/deal", json={"request_id": "deal"}).json()["round"]["your_hand"]
    assert victim.post(f"/api/tables/{table_id}/chat", json={"text": "hi", "request_id": "hi"}).status_code == 200
    attacker.post("/api/games", json={})
    legacy = secrets.token_urlsafe(16)  # what an earlier version put in a cookie
    app.state.store.create(Game(seed=3), secret_hash(legacy))
    database = folder / "data" / "games.sqlite3"
    made = World(app, database, folder / "pristine.sqlite3", TestClient(app), _cookie(victim), old,
                 _cookie(attacker), legacy, {"game_id": game_id, "table_id": table_id, "seat": "2",
                  "paytable_id": "jacks-or-better-9-6", "machine_id": machine_id})  # fmt: skip
    source, target = sqlite3.connect(database), sqlite3.connect(made.pristine)
    source.backup(target)
    source.close()
    target.close()
    yield made


def forged(world: World) -> dict[str, str]:
    """Owner cookies the server did not issue, each of a secret's shape but the last two."""
    victim = world.victim
    return {
        "another key's secret": Owners(b"another server's key").issue(),
        "the victim's secret, one character changed": victim[:-1] + ("A" if victim[-1] != "A" else "B"),
        "random text of a secret's length": secrets.token_urlsafe(48),
        "a secret of an earlier version, which holds a game": world.legacy,
        "the victim's secret quoted": f'"{victim}"',
    }


# --- the world -------------------------------------------------------------------------------


def test_the_victims_gains_moved_everything_to_its_last_secret(world: World) -> None:
    world.restore()
    held = world.holdings()
    assert list(world.old) == ["a machine", "a table", "a seat", "a seat elsewhere"]
    assert len({world.victim, *world.old.values()}) == 5  # each gain, a fresh secret
    victim = held["victim"]
    assert sorted(victim["games"]) == sorted([world.ids["game_id"], world.ids["machine_id"]])
    tables = victim["tables"]
    assert len(tables) == 2
    assert tables[world.ids["table_id"]]["host"] and tables[world.ids["table_id"]]["you"] == 1
    assert tables[world.ids["table_id"]]["round"]["your_hand"]
    assert victim["requests"] == sorted([(world.ids["table_id"], r) for r in ("vic", "deal", "hi")])
    for name, holding in held.items():
        if name.startswith("old"):
            assert holding == {"games": {}, "tables": {}, "requests": [], "index": []}, name
    assert len(held["legacy"]["games"]) == 1 and len(held["attacker"]["games"]) == 1


def test_the_walk_finds_every_kind_of_route(world: World) -> None:
    found = {(m, p) for m, p, _ in world.requests()}
    table, game, machine = world.ids["table_id"], world.ids["game_id"], world.ids["machine_id"]
    assert {("GET", f"/api/games/{game}"), ("POST", f"/api/tables/{table}/seats"), ("GET", "/static/app.css")} <= found
    assert {("GET", f"/api/machines/{machine}/log.csv"), ("POST", f"/api/machines/{machine}/actions")} <= found
    assert {("DELETE", f"/api/tables/{table}/seats/2"), ("GET", f"/api/tables/{table}/events"), ("GET", "/")} <= found
    assert {("GET", "/manifest.webmanifest"), ("GET", "/sw.js"), ("GET", "/offline")} <= found  # the installed app's
    assert {("POST", f"/api/tables/{table}/draw"), ("GET", f"/api/tables/{table}/qr.svg")} <= found


# --- the walks -------------------------------------------------------------------------------


@pytest.mark.slow
def test_no_route_takes_a_cookie_the_server_did_not_issue_for_an_owner(world: World) -> None:
    for method, path, body in world.requests():
        stranger = world.stranger(method, path, body)
        for name, cookie in forged(world).items():
            answer = world.ask(method, path, body, [cookie])
            assert answer.looks_like(stranger), (name, method, path, answer.status, answer.body[:300])


@pytest.mark.slow
def test_no_route_takes_a_secret_its_browser_has_gained_with_since(world: World) -> None:
    for method, path, body in world.requests():
        stranger = world.stranger(method, path, body)
        for gain, cookie in world.old.items():
            answer = world.ask(method, path, body, [cookie])
            assert answer.looks_like(stranger, refusals_alike=True), (f"the secret before {gain}", method, path, answer.body[:300])


@pytest.mark.slow
def test_two_owner_cookies_are_refused_wherever_the_owner_matters(world: World) -> None:
    refused = 0
    for method, path, body in world.requests():
        stranger = world.stranger(method, path, body)
        mattered = not world.as_victim(method, path, body).looks_like(stranger)
        for cookies in ([world.victim, world.attacker], [world.attacker, world.victim], [world.victim, world.victim]):
            answer = world.ask(method, path, body, cookies)
            if answer.status == 400:
                refused += 1
                assert json.loads(answer.body) == {
                    "detail": f"this browser sent 2 {OWNER_COOKIE} cookies, and one may have been set by another "
                    "site of this computer or domain: remove this site's cookies, then reload the page"
                }
                world.restore()
                assert answer.holdings == world.holdings() and answer.new_secret is None, (method, path)
            else:
                assert not mattered, (method, path, "answered two owner cookies", answer.status)
                assert answer.looks_like(stranger), (method, path)
    assert refused >= 3 * 12  # every game and table route that reads the owner


def test_the_victims_own_secret_is_its_owner_on_every_route(world: World) -> None:
    """The walks' yardstick works: the routes that read the owner answer
    the victim otherwise than a stranger."""
    differ = {
        (method, path)
        for method, path, body in world.requests()
        if not world.as_victim(method, path, body).looks_like(world.stranger(method, path, body))
    }
    table, game = world.ids["table_id"], world.ids["game_id"]
    assert {
        ("GET", f"/api/games/{game}"),
        ("POST", f"/api/games/{game}/actions"),
        ("GET", f"/api/games/{game}/hint"),
        ("GET", f"/api/tables/{table}"),
        ("POST", f"/api/tables/{table}/seats"),
        ("DELETE", f"/api/tables/{table}/seats/2"),
        ("POST", f"/api/tables/{table}/draw"),
        ("POST", f"/api/tables/{table}/close"),
        ("POST", f"/api/tables/{table}/end"),
        ("POST", f"/api/tables/{table}/chat"),
        ("POST", "/api/games"),  # a gain moves what the victim held
        ("POST", "/api/tables"),
    } <= differ


# --- rotation --------------------------------------------------------------------------------


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(tmp_path / "data", limit=_unlimited(), allow_hosts=["testserver"])


def _holds(app: FastAPI, secret: str) -> tuple[int, set[str]]:
    """How many games the secret holds, and the tables it holds a part at."""
    db = sqlite3.connect(app.state.store.path)
    try:
        games = len(db.execute(_GAMES_OF, (secret_hash(secret),)).fetchall())
        tables = {
            i for i, s in db.execute("SELECT id, state FROM table_games WHERE kind = 'friends_table'")
            if secret_hash(secret) in FriendsTable.from_state(json.loads(s)).owners()
        }
    finally:
        db.close()
    return int(games), tables


def test_a_gain_refused_gives_no_secret_and_moves_nothing(tmp_path: Path) -> None:
    app = create_app(tmp_path / "data", capacity=Capacity(tables=1), limit=_unlimited(), allow_hosts=["testserver"])
    host, ann = TestClient(app), TestClient(app)
    table_id = host.post("/api/tables", json={}).json()["id"]
    host.post(f"/api/tables/{table_id}/seats", json={"name": "Ann"})
    ann.post("/api/games", json={})
    before = _cookie(ann)
    held = _holds(app, before)
    refusals = [
        ann.post(f"/api/tables/{table_id}/seats", json={"name": "ann"}),  # the name is taken: 409
        ann.post("/api/tables", json={}),  # the server keeps one table: 503
        ann.post("/api/games", json={"rules": "no such rules"}),  # 422
        ann.post("/api/tables/nosuchtable/seats", json={"name": "Bo"}),  # 404
    ]
    assert [r.status_code for r in refusals] == [409, 503, 422, 404]
    assert all("set-cookie" not in r.headers for r in refusals)
    assert _cookie(ann) == before and _holds(app, before) == held


def test_a_retried_seat_request_is_applied_once(app: FastAPI) -> None:
    host, ann = TestClient(app), TestClient(app)
    table_id = host.post("/api/tables", json={}).json()["id"]
    other_table = host.post("/api/tables", json={}).json()["id"]
    ann.post("/api/games", json={})
    had = _cookie(ann)
    seat = ann.post(f"/api/tables/{table_id}/seats", json={"name": "Ann", "request_id": "r1"})
    got = _cookie(ann)
    assert seat.status_code == 201 and got != had and _holds(app, got) == (1, {table_id})
    # sent again with the secret the answer gave: the same seat, and the secret stays
    again = ann.post(f"/api/tables/{table_id}/seats", json={"name": "Ann", "request_id": "r1"})
    assert again.status_code == 201 and again.json()["you"] == seat.json()["you"] and "set-cookie" not in again.headers
    assert _cookie(ann) == got
    # sent again with the secret it had (the answer was lost): no second seat, nothing moves
    lost = TestClient(app, cookies={OWNER_COOKIE: had})
    retried = lost.post(f"/api/tables/{table_id}/seats", json={"name": "Ann", "request_id": "r1"})
    assert retried.status_code == 409 and "is taken" in retried.json()["detail"]
    assert "set-cookie" not in retried.headers
    assert [s["name"] for s in host.get(f"/api/tables/{table_id}").json()["seats"]] == ["Ann"]
    assert _holds(app, had) == (0, set()) and _holds(app, got) == (1, {table_id})
    # a request applied under a secret, retried after a gain, is still applied once
    said = ann.post(f"/api/tables/{table_id}/chat", json={"text": "hi", "request_id": "c1"})
    assert said.status_code == 200
    ann.post(f"/api/tables/{other_table}/seats", json={"name": "Ann"})
    assert _cookie(ann) != got
    assert ann.post(f"/api/tables/{table_id}/chat", json={"text": "hi", "request_id": "c1"}).status_code == 200
    db = sqlite3.connect(app.state.store.path)
    try:
        (lines,) = db.execute("SELECT COUNT(*) FROM table_game_events WHERE game_id = ? AND type = 'chat'", (table_id,)).fetchone()
    finally:
        db.close()
    assert lines == 1


def test_an_action_whose_game_moves_meanwhile_is_refused(tmp_path: Path) -> None:
    database = Database(str(tmp_path / "games.sqlite3"))
    store = TableGameStore(database, DEALER_GAMES)
    old, new = secret_hash("old"), secret_hash("new")
    game_id = store.create(Game(seed=1), old)

    def start(game: Game) -> tuple[None, list[dict[str, Any]]]:
        with database.transaction() as db:  # the browser gains something meanwhile
            database.move_owner(db, old, new)
        game.start_round()
        return None, []

    with pytest.raises(NotYours):
        store.act(game_id, old, start)
    assert store.load(game_id, new).rounds == 0  # the action was not saved


# --- the secrets -----------------------------------------------------------------------------


def test_only_the_servers_own_secrets_are_owners() -> None:
    owners = Owners(b"k" * 32)
    secret = owners.issue()
    assert len(secret) == 64 and owners.issued(secret)
    assert len({owners.issue() for _ in range(100)}) == 100
    other = Owners(b"j" * 32)
    assert not other.issued(secret) and not owners.issued(other.issue())
    for bad in [secret[:-1], secret + "A", secret[:-2] + "==", "=" * 64, secret.replace(secret[5], "!"), "", "a" * 64]:
        assert not owners.issued(bad), bad


def test_the_key_is_made_once_and_kept_in_the_data_file(tmp_path: Path) -> None:
    path = str(tmp_path / "games.sqlite3")
    keys: list[bytes] = []
    threads = [threading.Thread(target=lambda: keys.append(Database(path).key("owner secrets"))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(keys) == 8 and len(set(keys)) == 1 and len(keys[0]) == 32  # (every thread got it: none found the file locked)
    assert Database(path).key("something else") != keys[0]


def test_a_secret_outlives_a_restart_but_not_another_data_folder(tmp_path: Path) -> None:
    first = TestClient(create_app(tmp_path / "data", allow_hosts=["testserver"]))
    game_id = first.post("/api/games", json={}).json()["id"]
    secret = _cookie(first)
    again = TestClient(create_app(tmp_path / "data", allow_hosts=["testserver"]), cookies={OWNER_COOKIE: secret})
    assert again.get(f"/api/games/{game_id}").status_code == 200
    elsewhere = TestClient(create_app(tmp_path / "other", allow_hosts=["testserver"]), cookies={OWNER_COOKIE: secret})
    refused = elsewhere.get(f"/api/games/{game_id}")
    assert refused.status_code == 403 and "not one this server gave" in refused.json()["detail"]
    made = elsewhere.post("/api/tables", json={})
    assert made.status_code == 201 and made.cookies[OWNER_COOKIE] != secret  # not a secret there: a fresh one


def test_two_owner_cookies_in_two_headers_are_refused(app: FastAPI) -> None:
    client = TestClient(app)
    client.post("/api/games", json={})
    secret = _cookie(client)
    client.cookies.clear()
    headers = [("cookie", f"{OWNER_COOKIE}={secret}"), ("cookie", f"theme=dark; {OWNER_COOKIE}={secret}")]
    answer = client.get("/api/tables/x", headers=headers)
    assert answer.status_code == 400 and "sent 2 fivecard_owner cookies" in answer.json()["detail"]
    assert client.get("/api/tables/x", headers=[("cookie", f"theme=dark; {OWNER_COOKIE}={secret}")]).status_code == 404
