"""Games kept in SQLite (the standard library's), so that they survive a
restart: one file, WAL mode, one transaction per action.

A game's row holds its whole state (:meth:`~fivecard.play.game.Game.to_state`)
and the hash of its owner's secret (the browser that made it holds the
secret in a cookie); its events (as the player sees them,
:func:`~fivecard.play.view.event_json`) are rows of their own, numbered.
An action reads the game, acts, and writes it back in a short ``BEGIN
IMMEDIATE`` transaction only if the game's row is still the one it read
(else it acts again on the new one): the acting itself (the computer
players consult the advisor, tens of milliseconds) holds no lock, so
actions on other games go on meanwhile and never wait out SQLite's busy
timeout. Two requests on one game run one after the other (in one process,
in turn; across processes, the second acts again on the first one's
result), and a failed action changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from ..errors import FivecardError
from ..play.game import Game

__all__ = ["Database", "GameStore", "browser_secret", "claim_owner", "remember_owner", "StoreError", "NoSuchGame", "NotYourGame", "new_secret", "secret_hash", "OWNER_COOKIE", "MAX_STORED"]

#: The largest whole number SQLite keeps (a signed 64-bit integer): no number
#: the API takes is larger.
MAX_STORED = 2**63 - 1

#: The cookie that holds the browser's owner secret (HttpOnly, SameSite=Strict):
#: its games, its seats, the tables it hosts.
OWNER_COOKIE = "fivecard_owner"

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    rules TEXT NOT NULL,
    state TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    round INTEGER,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS events_by_type ON events (game, type, seq);
"""


class StoreError(FivecardError):
    """A game that cannot be found or used by this browser."""


class NoSuchGame(StoreError):
    """No game has that id."""


class NotYourGame(StoreError):
    """The game belongs to another browser."""


def new_secret() -> str:
    """A fresh owner secret (or game id): 128 random bits, URL-safe text."""
    return secrets.token_urlsafe(16)


def secret_hash(secret: str) -> str:
    """What is stored of an owner's secret."""
    return hashlib.sha256(secret.encode()).hexdigest()


def browser_secret(cookies: Mapping[str, str]) -> str | None:
    """The owner secret a browser's cookies hold, if one of ours."""
    secret = cookies.get(OWNER_COOKIE) or ""
    return secret if 16 <= len(secret) <= 64 else None


def claim_owner(cookies: Mapping[str, str]) -> tuple[str, str | None]:
    """The browser's owner (its secret's hash), and a new secret to set
    with :func:`remember_owner` when it had none."""
    secret = browser_secret(cookies)
    if secret is not None:
        return secret_hash(secret), None
    fresh = new_secret()
    return secret_hash(fresh), fresh


def remember_owner(response: Any, fresh: str | None) -> None:
    """Set a new owner secret in the answer's cookie (HttpOnly, SameSite=Strict)."""
    if fresh is not None:
        response.set_cookie(OWNER_COOKIE, fresh, max_age=400 * 24 * 3600, httponly=True, samesite="strict", path="/")


class Database:
    """One SQLite file (created, with its folder, if missing), WAL mode:
    a connection per thread, and write transactions (``BEGIN IMMEDIATE``)
    taken one at a time in this process, waiting in turn on a lock rather
    than in SQLite's busy sleeps. The stores of one app share one."""

    def __init__(self, path: str) -> None:
        self.path = path
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self._local = threading.local()
        self._writing = threading.Lock()

    def connect(self) -> sqlite3.Connection:
        """This thread's connection."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash loses no committed action's consistency
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
        return db

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: committed at the end, rolled back on an error."""
        db = self.connect()
        with self._writing:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def close(self) -> None:
        """Close this thread's connection (others close with their threads)."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None


class GameStore:
    """Games in a :class:`Database` (or the SQLite file at that path).
    Thread-safe."""

    def __init__(self, database: Database | str) -> None:
        self.database = Database(database) if isinstance(database, str) else database
        self.path = self.database.path
        self._connect = self.database.connect
        self._transaction = self.database.transaction
        # Per game, a lock and how many actions hold or wait for it.
        self._games: dict[str, tuple[threading.Lock, int]] = {}
        self._games_guard = threading.Lock()
        self._connect().executescript(_SCHEMA)

    @contextmanager
    def _one_at_a_time(self, game_id: str) -> Iterator[None]:
        """Actions on one game, in this process, one after the other."""
        with self._games_guard:
            lock, users = self._games.get(game_id) or (threading.Lock(), 0)
            self._games[game_id] = (lock, users + 1)
        try:
            with lock:
                yield
        finally:
            with self._games_guard:
                users = self._games[game_id][1] - 1
                if users:
                    self._games[game_id] = (lock, users)
                else:
                    del self._games[game_id]

    def close(self) -> None:
        """Close this thread's connection."""
        self.database.close()

    # -- games ---------------------------------------------------------------

    def create(self, game: Game, owner: str, events: Sequence[dict[str, Any]] = ()) -> str:
        """Keep a new game for the owner (a secret's :func:`secret_hash`);
        its unguessable id."""
        game_id = new_secret()
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, owner, rules, state, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, owner, game.rules.name, json.dumps(game.to_state()), now, now),
            )
            self._add_events(db, game_id, events)
        return game_id

    def _row(self, db: sqlite3.Connection, game_id: str, owner: str) -> tuple[Game, str]:
        """The game, if it is the owner's, and its stored state."""
        row = db.execute("SELECT owner, state FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NoSuchGame(f"no game {game_id!r}: it may have been made on another server or data folder")
        if not hmac.compare_digest(str(row[0]), owner):
            raise NotYourGame(f"game {game_id!r} belongs to another browser")
        return Game.from_state(json.loads(row[1])), str(row[1])

    def load(self, game_id: str, owner: str) -> Game:
        """The game, if it is the owner's."""
        return self._row(self._connect(), game_id, owner)[0]

    def act(
        self, game_id: str, owner: str, action: Callable[[Game], tuple[T, Sequence[dict[str, Any]]]]
    ) -> tuple[Game, T]:
        """Run ``action`` on the owner's game: it returns a result and the
        events to record; the game and the events are saved after it, in one
        transaction, if no other process has changed the game meanwhile (if
        one has, ``action`` runs again on the game as it is now). If it
        raises, nothing is saved."""
        with self._one_at_a_time(game_id):
            while True:
                game, state = self._row(self._connect(), game_id, owner)
                result, events = action(game)  # no lock held: other games' actions go on
                with self._transaction() as db:
                    saved = db.execute(
                        "UPDATE games SET state = ?, updated = ? WHERE id = ? AND state = ?",
                        (json.dumps(game.to_state()), time.time(), game_id, state),
                    ).rowcount
                    if saved:
                        self._add_events(db, game_id, events)
                        return game, result

    # -- events --------------------------------------------------------------

    @staticmethod
    def _add_events(db: sqlite3.Connection, game_id: str, events: Sequence[dict[str, Any]]) -> None:
        if not events:
            return
        (last,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game = ?", (game_id,)).fetchone()
        db.executemany(
            "INSERT INTO events (game, seq, round, type, data) VALUES (?, ?, ?, ?, ?)",
            [
                (game_id, last + i, event.get("round"), event["type"], json.dumps(event))
                for i, event in enumerate(events, 1)
            ],
        )

    def round_events(self, game_id: str, round_number: int | None) -> list[dict[str, Any]]:
        """The events of one round (its number), oldest first."""
        if round_number is None:
            return []
        rows = self._connect().execute(
            "SELECT data FROM events WHERE game = ? AND round = ? ORDER BY seq", (game_id, round_number)
        )
        return [json.loads(data) for (data,) in rows]

    def settled(self, game_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The last ``limit`` settled rounds' events, oldest first."""
        rows = self._connect().execute(
            "SELECT data FROM events WHERE game = ? AND type = 'round_settled' ORDER BY seq DESC LIMIT ?",
            (game_id, limit),
        ).fetchall()
        return [json.loads(data) for (data,) in reversed(rows)]
