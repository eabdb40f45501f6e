"""A data folder that cannot keep a change is one clear answer for every
request (507 for a full disk, 503 for a folder that cannot be written, each
with a sentence, and one line in the log, never a traceback), the data
stays intact, and ``fivecard serve`` refuses such a folder at start in one
line (exit 2).

The disk is made full for real three ways: SQLite's own limit on the file's
pages (``max_page_count``: the SQLITE_FULL of a full disk), a read-only
connection (``query_only``: SQLITE_READONLY), and a small tmpfs, and a
read-only bind mount, in a mount namespace of the test's own (``unshare``,
which works as root, where permissions do not stop writes); the rest of
SQLite's codes are injected.
"""

from __future__ import annotations

import errno
import io
import json
import logging
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from fivecard.web.app import create_app
from fivecard.web.store import Database, StorageFull, StorageUnavailable, storage_error

FULL = "the server's data folder cannot keep this: its disk is full; nothing was changed (try again when it has room)"
READ_ONLY = "the server's data folder cannot keep this: it is read-only or not the server's to write; nothing was changed"


class Limits:
    """What every connection the app opens (patched before the app is made,
    so that its stores use it too) is told from now on: SQLite's own
    limits, set on each use, or a failure injected."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.pragmas: list[str] = []
        self.failure: tuple[int, str, bool] | None = None  # an SQLite code, its name, and whether reads fail too
        connect = Database.connect

        def limited(database: Database) -> Any:
            db = connect(database)
            for pragma in self.pragmas:
                db.execute(pragma)
            return db if self.failure is None else Broken(db, *self.failure)

        monkeypatch.setattr(Database, "connect", limited)


@pytest.fixture
def limits(monkeypatch: pytest.MonkeyPatch) -> Limits:
    return Limits(monkeypatch)


def _pages(data: Path) -> int:
    with sqlite3.connect(data / "games.sqlite3") as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return int(db.execute("PRAGMA page_count").fetchone()[0])


def _storage_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "fivecard.web"]


def test_a_full_disk_is_507_for_every_change_and_keeps_the_data(
    tmp_path: Path, limits: Limits, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "data"
    client = TestClient(create_app(data, allow_hosts=["testserver"]), raise_server_exceptions=False)
    table_id = client.post("/api/tables", json={"seed": 1}).json()["id"]
    client.post(f"/api/tables/{table_id}/seats", json={"name": "Ann"})
    game_id = client.post("/api/games", json={"seed": 1}).json()["id"]
    view = client.get(f"/api/tables/{table_id}").json()
    limits.pragmas = [f"PRAGMA max_page_count = {_pages(data)}"]  # not one page more: the disk is full
    answers = [client.post(f"/api/tables/{table_id}/chat", json={"text": f"{i} " + "x" * 490}) for i in range(12)]
    answers += [client.post("/api/tables", json={}), client.post("/api/games", json={})]
    answers += [client.post(f"/api/games/{game_id}/actions", json={"action": "start"})]
    full = [a for a in answers if a.status_code == 507]
    # each change is kept or refused in a sentence (a small one may still fit in a page's free space)
    assert full and {a.status_code for a in answers} <= {200, 201, 507}, [a.status_code for a in answers]
    assert all(a.json()["detail"] == FULL and a.headers["retry-after"] for a in full)
    assert answers[-1].status_code == 507  # a new game's round: the state grows
    # reading goes on; what was kept is intact
    assert client.get(f"/api/tables/{table_id}").json()["seats"] == view["seats"]
    assert client.get(f"/api/games/{game_id}").status_code == 200
    lines = _storage_lines(caplog)
    assert len(lines) == 1 and "its disk is full" in lines[0].getMessage() and lines[0].exc_info is None
    # room again: the next change is kept at once (no transaction was left holding the file)
    limits.pragmas = []
    assert client.post(f"/api/games/{game_id}/actions", json={"action": "start"}).status_code == 200
    assert client.post("/api/tables", json={}).status_code == 201


def test_a_read_only_data_file_is_503_for_every_change(
    tmp_path: Path, limits: Limits, caplog: pytest.LogCaptureFixture
) -> None:
    client = TestClient(create_app(tmp_path / "data", allow_hosts=["testserver"]), raise_server_exceptions=False)
    table_id = client.post("/api/tables", json={}).json()["id"]
    game_id = client.post("/api/games", json={"seed": 1}).json()["id"]
    limits.pragmas = ["PRAGMA query_only = ON"]
    for answer in [
        client.post("/api/tables", json={}),
        client.post("/api/games", json={}),
        client.post(f"/api/tables/{table_id}/seats", json={"name": "Ann"}),
        client.post(f"/api/tables/{table_id}/rounds", json={}),
        client.post(f"/api/games/{game_id}/actions", json={"action": "start"}),
    ]:
        assert (answer.status_code, answer.json()["detail"]) == (503, READ_ONLY)
    assert client.get(f"/api/tables/{table_id}").status_code == 200
    assert len(_storage_lines(caplog)) == 1
    limits.pragmas = ["PRAGMA query_only = OFF"]
    assert client.post(f"/api/games/{game_id}/actions", json={"action": "start"}).status_code == 200


class Broken:
    """A connection whose statements (all, or only the writing ones) fail with an SQLite code."""

    def __init__(self, db: sqlite3.Connection, code: int, name: str, reads: bool) -> None:
        self.db, self.code, self.name, self.reads = db, code, name, reads

    def execute(self, sql: str, *args: Any) -> Any:
        if self.reads or not sql.lstrip().upper().startswith(("SELECT", "PRAGMA")):
            error = sqlite3.OperationalError(f"injected {self.name}")
            error.sqlite_errorcode, error.sqlite_errorname = self.code, self.name
            raise error
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


@pytest.mark.parametrize(
    ("code", "name", "status", "words"),
    [
        (13, "SQLITE_FULL", 507, "its disk is full"),
        (8, "SQLITE_READONLY", 503, "it is read-only"),
        (1544, "SQLITE_READONLY_DIRECTORY", 503, "it is read-only"),
        (14, "SQLITE_CANTOPEN", 503, "it is read-only"),
        (3, "SQLITE_PERM", 503, "it is read-only"),
        (10, "SQLITE_IOERR", 503, "its data file cannot be read or written"),
        (778, "SQLITE_IOERR_WRITE", 503, "its data file cannot be read or written"),
        (11, "SQLITE_CORRUPT", 503, "its data file cannot be read or written"),
        (5, "SQLITE_BUSY", 503, "held by another process"),
    ],
)
@pytest.mark.parametrize("reads", [False, True], ids=["writes", "reads-too"])
@pytest.mark.slow
def test_every_storage_failure_is_one_answer(
    tmp_path: Path, limits: Limits, caplog: pytest.LogCaptureFixture,
    code: int, name: str, status: int, words: str, reads: bool,
) -> None:
    client = TestClient(create_app(tmp_path / "data", allow_hosts=["testserver"]), raise_server_exceptions=False)
    table_id = client.post("/api/tables", json={}).json()["id"]
    limits.failure = (code, name, reads)
    asks: list[tuple[str, str, dict[str, str] | None]] = [
        ("POST", "/api/tables", {}),
        ("POST", f"/api/tables/{table_id}/chat", {"text": "hi"}),
        ("POST", "/api/games", {}),
    ]
    if reads:
        asks += [("GET", f"/api/tables/{table_id}", None), ("GET", f"/api/tables/{table_id}/events", None)]
    for method, path, body in asks:
        answer = client.request(method, path, json=body)
        assert answer.status_code == status, (path, answer.text)
        assert words in answer.json()["detail"] and "nothing was changed" in answer.json()["detail"]
    lines = _storage_lines(caplog)
    assert len(lines) == 1 and all(r.exc_info is None for r in lines)


def test_what_is_not_the_storages_fault_stays_a_500() -> None:
    assert storage_error(sqlite3.OperationalError("no such table: games")) is None
    assert storage_error(sqlite3.IntegrityError("UNIQUE constraint failed")) is None
    assert isinstance(storage_error(OSError(errno.ENOSPC, "No space left on device")), StorageFull)
    assert isinstance(storage_error(OSError(errno.EROFS, "Read-only file system")), StorageUnavailable)


@pytest.mark.slow
def test_a_stream_ends_cleanly_when_the_storage_fails(tmp_path: Path, limits: Limits) -> None:
    client = TestClient(create_app(tmp_path / "data", allow_hosts=["testserver"]))
    table_id = client.post("/api/tables", json={}).json()["id"]
    with client.stream("GET", f"/api/tables/{table_id}/events") as stream:
        lines = stream.iter_lines()
        assert [next(lines) for _ in range(3)] == ["retry: 1000", "", "id: 1"]
        limits.failure = (10, "SQLITE_IOERR", True)  # the stream's next look at the store fails: it ends there, whole frames only
        rest = list(lines)
    assert rest[0].startswith("event: ") and rest[1].startswith("data: ") and rest[2:] == [""]


# --- fivecard serve -------------------------------------------------------------------------


def _serve(argv: list[str]) -> tuple[int, str, str]:
    from fivecard.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(["serve", *argv], stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_serve_refuses_a_folder_it_cannot_write_in_one_line(tmp_path: Path, limits: Limits) -> None:
    # a folder no one may write, root included
    code, out, err = _serve(["--check", "--port", "0", "--data", "/proc/self"])
    assert (code, out) == (2, "")
    assert err == "fivecard: error: --data '/proc/self': cannot keep games there: it is read-only or not the server's to write\n"
    # a data file that takes no write (it exists: reading alone would work)
    create_app(tmp_path / "data")
    limits.pragmas = ["PRAGMA query_only = ON"]
    code, _, err = _serve(["--check", "--port", "0", "--data", str(tmp_path / "data")])
    assert code == 2 and err.endswith("cannot keep games there: it is read-only or not the server's to write\n")
    assert len(err.splitlines()) == 1


# --- a real full disk and a real read-only folder (a mount namespace of the test's own) ---------


def _unshare() -> list[str]:
    command = shutil.which("unshare")
    if command is None or subprocess.run([command, "-rm", "true"], capture_output=True).returncode != 0:
        pytest.fail("these tests mount a small tmpfs in a mount namespace of their own: they need unshare -rm (util-linux)")
    return [command, "-rm", "sh", "-c"]


class Namespaced:
    """``fivecard serve`` on a folder mounted in a namespace of its own:
    ``mount`` is the shell line that mounts ``folder``."""

    def __init__(self, folder: Path, mount: str) -> None:
        folder.mkdir(exist_ok=True)
        self.err = ""
        script = f'{mount} && exec "$0" -m fivecard serve --port 0 --data "$1"'
        self.process = subprocess.Popen(
            [*_unshare(), script, sys.executable, str(folder)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        if not found:
            self.stop()
            raise AssertionError(f"fivecard serve did not start: {line!r} {self.err!r}")
        self.url = found.group(1)
        # the folder as the server sees it (its mount), from outside the namespace
        self.inside = Path(f"/proc/{self.process.pid}/root") / str(folder).lstrip("/")
        self.cookie = ""

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            self.url + path, method=method, data=None if body is None else json.dumps(body).encode(),
            headers={"content-type": "application/json", "cookie": self.cookie},
        )
        try:
            with urllib.request.urlopen(request, timeout=20) as answer:
                cookie = answer.headers.get("set-cookie")
                if cookie:
                    self.cookie = cookie.split(";")[0]
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read())

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.terminate()
        _, err = self.process.communicate(timeout=20)
        self.err = err
        return err


@pytest.mark.slow
def test_a_real_full_disk(tmp_path: Path) -> None:
    server = Namespaced(tmp_path / "small", 'mount -t tmpfs -o size=512k tmpfs "$1"')
    try:
        status, table = server.call("POST", "api/tables", {"seed": 1})
        assert status == 201
        filler = os.open(server.inside / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while True:
                os.write(filler, b"x" * 4096)
        except OSError as full:
            assert full.errno == errno.ENOSPC
        finally:
            os.close(filler)
        answers = [server.call("POST", f"api/tables/{table['id']}/chat", {"text": f"{i} " + "x" * 400}) for i in range(25)]
        answers.append(server.call("POST", "api/games", {}))
        assert {status for status, _ in answers} <= {200, 507} and answers[-1][0] == 507
        assert answers[-1][1]["detail"] == FULL
        status, view = server.call("GET", f"api/tables/{table['id']}")
        assert status == 200 and view["id"] == table["id"]
        (server.inside / "filler").unlink()  # room again
        assert server.call("POST", "api/games", {})[0] == 201
    finally:
        err = server.stop()
    assert "Traceback" not in err and err.count("its disk is full") == 1, err


@pytest.mark.slow
def test_a_real_read_only_folder_is_refused_at_start(tmp_path: Path) -> None:
    folder = tmp_path / "kept"
    create_app(folder)  # games kept there already; then the folder is mounted read-only
    process = subprocess.run(
        [*_unshare(), 'mount --bind -o ro "$1" "$1" && exec "$0" -m fivecard serve --check --port 0 --data "$1"',
         sys.executable, str(folder)],
        capture_output=True, text=True, timeout=60,
    )
    assert (process.returncode, process.stdout) == (2, "")
    assert process.stderr == f"fivecard: error: --data {str(folder)!r}: cannot keep games there: it is read-only or not the server's to write\n"
    empty = tmp_path / "empty"
    empty.mkdir()
    process = subprocess.run(
        [*_unshare(), 'mount --bind -o ro "$1" "$1" && exec "$0" -m fivecard serve --check --port 0 --data "$1"',
         sys.executable, str(empty)],
        capture_output=True, text=True, timeout=60,
    )
    assert process.returncode == 2 and process.stderr.endswith("it is read-only or not the server's to write\n")
    assert len(process.stderr.splitlines()) == 1


#: The tables an earlier version kept its games and friends' tables in.
_EARLIER_SCHEMA = """
CREATE TABLE games (id TEXT PRIMARY KEY, owner TEXT NOT NULL, rules TEXT NOT NULL, state TEXT NOT NULL,
                    created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE events (game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
                     round INTEGER, type TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game, seq));
CREATE TABLE friend_tables (id TEXT PRIMARY KEY, state TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE friend_events (table_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
                            at REAL NOT NULL, PRIMARY KEY (table_id, seq));
CREATE TABLE friend_requests (table_id TEXT NOT NULL, owner TEXT NOT NULL, request_id TEXT NOT NULL,
                              at REAL NOT NULL, PRIMARY KEY (table_id, owner, request_id));
CREATE TABLE friend_owners (table_id TEXT NOT NULL, owner TEXT NOT NULL, PRIMARY KEY (table_id, owner)) WITHOUT ROWID;
"""


def test_games_and_tables_an_earlier_version_kept_are_carried_over(tmp_path: Path) -> None:
    from fivecard.play.friends import FriendsTable
    from fivecard.play.game import Game
    from fivecard.web.app import OWNER_COOKIE
    from fivecard.web.store import Owners, secret_hash

    data = tmp_path / "data"
    data.mkdir()
    game, table = Game(seed=1), FriendsTable(seed=2, host="")
    game.start_round()
    with sqlite3.connect(data / "games.sqlite3") as db:
        db.executescript(_EARLIER_SCHEMA)
        key = Database(str(data / "games.sqlite3")).key("owner secrets")
        secret = Owners(key).issue()
        table.host = secret_hash(secret)
        table.join("seat owner", "Ann")
        db.execute("INSERT INTO games VALUES ('g1', ?, 'standard', ?, 1, 1e12)", (secret_hash(secret), json.dumps(game.to_state())))
        db.execute("INSERT INTO events VALUES ('g1', 1, 1, 'round_started', ?)", (json.dumps({"type": "round_started", "round": 1}),))
        db.execute("INSERT INTO friend_tables VALUES ('t1', ?, 1, 1e12)", (json.dumps(table.to_state()),))
        db.execute("INSERT INTO friend_events VALUES ('t1', 1, 'table_opened', ?, 1)", (json.dumps(table.opened()[0]),))
        db.execute("INSERT INTO friend_requests VALUES ('t1', ?, 'r1', 1)", (secret_hash(secret),))
    client = TestClient(create_app(data, allow_hosts=["testserver"]), cookies={OWNER_COOKIE: secret})
    kept = client.get("/api/games/g1").json()
    assert kept["phase"] == "draw" and [e["type"] for e in kept["events"]] == ["round_started"]
    seen = client.get("/api/tables/t1").json()
    assert seen["host"] and [s["name"] for s in seen["seats"]] == ["Ann"] and seen["last_event"] == 1
    again = client.post("/api/tables/t1/rounds", json={"request_id": "r1"})  # applied before: applied once
    assert again.status_code == 200 and again.json()["round"] is None
    with sqlite3.connect(data / "games.sqlite3") as db:
        left = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        owners = sorted(db.execute("SELECT game_id, owner FROM table_game_owners"))
    assert not left & {"games", "events", "friend_tables", "friend_events", "friend_requests", "friend_owners"}
    assert owners == sorted([("g1", secret_hash(secret)), ("t1", secret_hash(secret)), ("t1", "seat owner")])


def test_a_data_file_kept_before_games_recorded_their_network_is_carried_on(tmp_path: Path) -> None:
    """A file whose games table has no ``network`` column (kept by the
    version before one address's share of the places) is given one; its
    games count for no address, and a new game records a keyed hash of its
    address's network, never the address."""
    from fivecard.play.game import Game

    data = tmp_path / "data"
    data.mkdir()
    with sqlite3.connect(data / "games.sqlite3") as db:
        db.execute(
            "CREATE TABLE table_games (id TEXT PRIMARY KEY, kind TEXT NOT NULL, state TEXT NOT NULL, "
            "created REAL NOT NULL, updated REAL NOT NULL)"
        )
        db.execute("INSERT INTO table_games VALUES ('g1', 'game', ?, 1, 1e12)", (json.dumps(Game(seed=1).to_state()),))
    app = create_app(data, allow_hosts=["testserver"])
    made = TestClient(app, client=("2001:db8:0:1::7", 40000)).post("/api/games", json={})
    assert made.status_code == 201
    with sqlite3.connect(data / "games.sqlite3") as db:
        kept = dict(db.execute("SELECT id, network FROM table_games"))
    assert kept.pop("g1") is None
    (network,) = kept.values()
    assert re.fullmatch(r"[0-9a-f]{64}", network) and "2001" not in network


def open_files_in(folder: Path) -> list[str]:
    """The files under ``folder`` this process holds open."""
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(folder)):
            held.append(target)
    return held


def test_an_app_that_stops_closes_every_connection_to_its_file(tmp_path: Path) -> None:
    """Connections opened on several threads (the app's start, its request
    threads) are all closed when the app stops, as ``fivecard serve`` stops:
    nothing keeps the data file open after."""
    data = tmp_path / "data"
    with TestClient(create_app(data, allow_hosts=["testserver"])) as client:
        for _ in range(3):
            assert client.post("/api/games", json={"rules": "standard", "players": 2}).status_code == 201
        assert open_files_in(data)
    assert open_files_in(data) == []
