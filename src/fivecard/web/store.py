"""Games kept in SQLite (the standard library's), so that they survive a
restart: one file, WAL mode, one transaction per action.

A game's row holds its whole state (:meth:`~fivecard.play.game.Game.to_state`)
and the hash of its owner's secret (the browser that made it holds the
secret in a cookie: :class:`Owners`); its events (as the player sees them,
:func:`~fivecard.play.view.event_json`) are rows of their own, numbered.
An action reads the game, acts, and writes it back in a short ``BEGIN
IMMEDIATE`` transaction only if the game's row is still the one it read
(else it acts again on the new one): the acting itself (the computer
players consult the advisor, tens of milliseconds) holds no lock, so
actions on other games go on meanwhile and never wait out SQLite's busy
timeout. Two requests on one game run one after the other (in one process,
in turn; across processes, the second acts again on the first one's
result), and a failed action changes nothing.

At most so many games (and tables) are kept (:class:`Capacity`): a new one
first removes those untouched for its days, then is refused
(:class:`AtCapacity`) if as many as the limit are left.

A data folder that cannot keep a change is one error, never a traceback or
a transaction left open: :class:`StorageFull` (the disk is full) or
:class:`StorageUnavailable` (read-only, not ours to write, unreadable, or
held by another process), raised by every store method
(:func:`storage_errors`). :meth:`Database.check` makes sure at start that
the folder takes a write.

Owner secrets are the server's own (:class:`Owners`): random bytes and
their HMAC-SHA256 tag under a key kept in the same file (:meth:`Database.key`),
so a cookie the server did not issue is no owner at all. A browser that
gains something (a game, a table, a seat) is given a fresh secret, and what
its old one held moves to it in the transaction of the gain
(:meth:`Database.move_owner`): a secret planted in the browser, or seen,
before then holds nothing after it.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import hmac
import json
import os
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.errors import FileError, FivecardError
from ..play.game import Game

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection

__all__ = ["Database", "GameStore", "Owners", "Claim", "remember_owner", "StoreError", "NoSuchGame", "NotYourGame", "TwoOwnerCookies", "new_secret", "secret_hash", "OWNER_COOKIE", "MAX_STORED", "StorageError", "StorageFull", "StorageUnavailable", "storage_errors", "Capacity", "AtCapacity", "make_room"]

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
CREATE INDEX IF NOT EXISTS games_by_updated ON games (updated);
CREATE INDEX IF NOT EXISTS games_by_owner ON games (owner);
"""


class StoreError(FivecardError):
    """A game that cannot be found or used by this browser."""


class NoSuchGame(StoreError):
    """No game has that id."""


class NotYourGame(StoreError):
    """The game belongs to another browser."""


class TwoOwnerCookies(StoreError):
    """A request with more than one owner cookie: one may have been planted
    (another path, or another service of the same host), and the server
    cannot tell which is the browser's own."""


class AtCapacity(StoreError):
    """The server holds as many of something (games, tables, event streams)
    as it may."""


@dataclass(frozen=True)
class Capacity:
    """How much the app keeps: at most ``games`` games and ``tables``
    tables, each removed once untouched (no action taken) for ``days``
    days. A new one past the limit is :class:`AtCapacity` (503)."""

    games: int = 10_000
    tables: int = 10_000
    days: float = 30.0


def make_room(db: sqlite3.Connection, table: str, limit: int, days: float, what: str) -> None:
    """In a write transaction, before a new row of ``table`` (``games`` or
    ``friend_tables``; its events go with it): the rows untouched for
    ``days`` removed, then :class:`AtCapacity` if ``limit`` rows are left."""
    db.execute(f"DELETE FROM {table} WHERE updated < ?", (time.time() - days * 86_400,))
    (count,) = db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()
    if count >= limit:
        raise AtCapacity(
            f"the server keeps at most {limit:,} {what}s and has that many now: try again later "
            f"(a {what} untouched for {days:g} days is removed)"
        )


class StorageError(FileError):
    """The data folder cannot keep (or give back) what the app stores;
    nothing was changed. ``reason`` says what is wrong with the folder, in a
    clause ("its disk is full")."""

    def __init__(self, reason: str, hint: str = "") -> None:
        super().__init__(f"the server's data folder cannot keep this: {reason}; nothing was changed{hint}")
        self.reason = reason


class StorageFull(StorageError):
    """The disk under the data file is full."""


class StorageUnavailable(StorageError):
    """The data folder is read-only, not the server's to write, unreadable,
    or held by another process past the wait."""


# SQLite's primary result codes (the low byte of an extended code) that say
# the storage, not the app, failed.
_SQLITE_FULL = 13
_SQLITE_UNWRITABLE = {3: "PERM", 8: "READONLY", 14: "CANTOPEN", 23: "AUTH"}
_SQLITE_BROKEN = {10: "IOERR", 11: "CORRUPT", 26: "NOTADB"}
_SQLITE_BUSY = {5: "BUSY", 6: "LOCKED"}


def storage_error(exc: BaseException) -> StorageError | None:
    """What a failure of SQLite or of the file system means for the app,
    if it is the storage's (None for anything else: a mistake of the app)."""
    code = getattr(exc, "sqlite_errorcode", None) if isinstance(exc, sqlite3.Error) else None
    primary = code & 0xFF if isinstance(code, int) else None
    number = exc.errno if isinstance(exc, OSError) else None
    if primary == _SQLITE_FULL or number in (errno.ENOSPC, errno.EDQUOT):
        return StorageFull("its disk is full", " (try again when it has room)")
    if primary in _SQLITE_UNWRITABLE or number in (errno.EROFS, errno.EACCES, errno.EPERM):
        return StorageUnavailable("it is read-only or not the server's to write")
    if primary in _SQLITE_BROKEN or number == errno.EIO:
        return StorageUnavailable("its data file cannot be read or written")
    if primary in _SQLITE_BUSY:
        return StorageUnavailable("its data file is held by another process", " (try again)")
    return None


@contextmanager
def storage_errors() -> Iterator[None]:
    """Failures of the storage raised as :class:`StorageError` (a decorator
    too): the store methods' one translation."""
    try:
        yield
    except (sqlite3.Error, OSError) as exc:
        problem = storage_error(exc)
        if problem is None:
            raise
        raise problem from exc


def new_secret() -> str:
    """A fresh id (a game's, a table's): 128 random bits, URL-safe text."""
    return secrets.token_urlsafe(16)


def secret_hash(secret: str) -> str:
    """What is stored of an owner's secret: the owner, to the stores."""
    return hashlib.sha256(secret.encode()).hexdigest()


#: An owner secret: 16 random bytes and their 32-byte tag, URL-safe base64 (no padding).
_SECRET = re.compile(r"[A-Za-z0-9_-]{64}")
_RANDOM_BYTES = 16
#: What the tag is of, besides the random bytes: the key signs nothing else.
_PURPOSE = b"fivecard owner secret\x00"


@dataclass(frozen=True)
class Claim:
    """A browser that gains something (a game, a table, a seat): the owner
    it was (``old``: its secret's hash; "" for none) and the owner it
    becomes (``new``: the hash of ``secret``, a fresh secret its answer sets
    with :func:`remember_owner`). What ``old`` held moves to ``new`` in the
    transaction of the gain (:meth:`Database.move_owner`)."""

    old: str
    new: str
    secret: str


class Owners:
    """The server's owner secrets: issued as random bytes and their
    HMAC-SHA256 tag under ``key`` (:meth:`Database.key`), and read from a
    request's cookie only if the tag is the key's. A cookie the server did
    not issue is no owner: it can neither read nor gain anything."""

    def __init__(self, key: bytes) -> None:
        self._keyed = hmac.new(key, _PURPOSE, hashlib.sha256)  # copied for each tag: the key is set up once

    def _tag(self, random: bytes) -> bytes:
        mac = self._keyed.copy()
        mac.update(random)
        return mac.digest()

    def issue(self) -> str:
        """A fresh secret."""
        random = secrets.token_bytes(_RANDOM_BYTES)
        return base64.urlsafe_b64encode(random + self._tag(random)).decode().rstrip("=")

    def issued(self, text: str) -> bool:
        """Whether ``text`` is a secret this server issued (its key's tag)."""
        if _SECRET.fullmatch(text) is None:
            return False
        data = base64.urlsafe_b64decode(text)
        return hmac.compare_digest(data[_RANDOM_BYTES:], self._tag(data[:_RANDOM_BYTES]))

    def secret(self, request: HTTPConnection) -> str | None:
        """The owner secret the request's cookie holds, if the server issued
        it; :class:`TwoOwnerCookies` if it sends more than one."""
        found = [
            value.strip()
            for header in request.headers.getlist("cookie")
            for name, _, value in (chunk.partition("=") for chunk in header.split(";"))
            if name.strip() == OWNER_COOKIE
        ]
        if len(found) > 1:
            raise TwoOwnerCookies(
                f"this browser sent {len(found)} {OWNER_COOKIE} cookies, and one may have been set by another site "
                "of this computer or domain: remove this site's cookies, then reload the page"
            )
        return found[0] if found and self.issued(found[0]) else None

    def owner(self, request: HTTPConnection) -> str:
        """The request's owner: its secret's hash ("" for none)."""
        secret = self.secret(request)
        return "" if secret is None else secret_hash(secret)

    def claim(self, request: HTTPConnection) -> Claim:
        """What the request's browser becomes when it gains something: a
        fresh secret, which takes over what its secret holds now."""
        fresh = self.issue()
        return Claim(self.owner(request), secret_hash(fresh), fresh)


def remember_owner(response: Any, claim: Claim) -> None:
    """Set the claim's new secret in the answer's cookie (HttpOnly, SameSite=Strict)."""
    response.set_cookie(OWNER_COOKIE, claim.secret, max_age=400 * 24 * 3600, httponly=True, samesite="strict", path="/")


#: Moves what one owner holds in a store to another, inside a write transaction.
Mover = Callable[[sqlite3.Connection, str, str], None]


class Database:
    """One SQLite file (created, with its folder, if missing), WAL mode:
    a connection per thread, and write transactions (``BEGIN IMMEDIATE``)
    taken one at a time in this process, waiting in turn on a lock rather
    than in SQLite's busy sleeps. The stores of one app share one."""

    @storage_errors()
    def __init__(self, path: str) -> None:
        self.path = path
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self._local = threading.local()
        self._writing = threading.Lock()
        self._movers: dict[str, Mover] = {}

    @storage_errors()
    def connect(self) -> sqlite3.Connection:
        """This thread's connection."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash loses no committed action's consistency
                db.execute("PRAGMA foreign_keys=ON")
            except BaseException:
                db.close()  # opened, not usable: the next request opens it again
                raise
            self._local.db = db
        return db

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: committed at the end, rolled back on an
        error (a commit that fails, on a full disk, too: the connection is
        never left inside a transaction that holds the file's write lock)."""
        db = self.connect()
        with self._writing, storage_errors():
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                self._roll_back(db)
                raise

    def _roll_back(self, db: sqlite3.Connection) -> None:
        try:
            if db.in_transaction:
                db.execute("ROLLBACK")
        except sqlite3.Error:  # cannot even roll back: this connection is done with
            db.close()
            self._local.db = None

    @storage_errors()
    def check(self) -> None:
        """Make sure the file takes a write (one page of its header, rewritten
        as it is): :class:`StorageError` if not."""
        with self.transaction() as db:
            (version,) = db.execute("PRAGMA user_version").fetchone()
            db.execute(f"PRAGMA user_version = {int(version)}")

    @storage_errors()
    def key(self, name: str) -> bytes:
        """A secret key kept in the file (32 random bytes, made the first time
        it is asked for, in one transaction: every process that shares the
        file, and every restart, has the same)."""
        with self.transaction() as db:
            db.execute("CREATE TABLE IF NOT EXISTS server_keys (name TEXT PRIMARY KEY, value BLOB NOT NULL)")
            db.execute("INSERT OR IGNORE INTO server_keys (name, value) VALUES (?, ?)", (name, secrets.token_bytes(32)))
            (value,) = db.execute("SELECT value FROM server_keys WHERE name = ?", (name,)).fetchone()
        return bytes(value)

    def on_move(self, store: str, mover: Mover) -> None:
        """Have :meth:`move_owner` move what an owner holds in ``store`` with ``mover``."""
        self._movers[store] = mover

    def move_owner(self, db: sqlite3.Connection, old: str, new: str) -> None:
        """Inside a write transaction: everything the owner ``old`` holds, in
        every store of this database, becomes the owner ``new``'s (a browser
        given a fresh secret as it gains something; nothing if ``old`` is "")."""
        if old and old != new:
            for mover in self._movers.values():
                mover(db, old, new)

    def close(self) -> None:
        """Close this thread's connection (others close with their threads)."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None


class GameStore:
    """Games in a :class:`Database` (or the SQLite file at that path).
    Thread-safe."""

    @storage_errors()
    def __init__(self, database: Database | str, capacity: Capacity = Capacity()) -> None:
        self.database = Database(database) if isinstance(database, str) else database
        self.path = self.database.path
        self.capacity = capacity
        self._connect = self.database.connect
        self._transaction = self.database.transaction
        # Per game, a lock and how many actions hold or wait for it.
        self._games: dict[str, tuple[threading.Lock, int]] = {}
        self._games_guard = threading.Lock()
        self._connect().executescript(_SCHEMA)
        self.database.on_move("games", self._move_owner)

    @staticmethod
    def _move_owner(db: sqlite3.Connection, old: str, new: str) -> None:
        db.execute("UPDATE games SET owner = ? WHERE owner = ?", (new, old))

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

    @storage_errors()
    def create(self, game: Game, owner: str, events: Sequence[dict[str, Any]] = (), moved_from: str = "") -> str:
        """Keep a new game for the owner (a secret's :func:`secret_hash`);
        its unguessable id. What the owner ``moved_from`` holds becomes
        ``owner``'s in the same transaction (a :class:`Claim`)."""
        game_id = new_secret()
        now = time.time()
        with self._transaction() as db:
            make_room(db, "games", self.capacity.games, self.capacity.days, "game")
            self.database.move_owner(db, moved_from, owner)
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
            raise NoSuchGame(
                f"no game {game_id!r}: it may have been made on another server or data folder, "
                f"or removed after {self.capacity.days:g} days untouched"
            )
        if not hmac.compare_digest(str(row[0]), owner):
            raise NotYourGame(f"game {game_id!r} belongs to another browser")
        return Game.from_state(json.loads(row[1])), str(row[1])

    @storage_errors()
    def load(self, game_id: str, owner: str) -> Game:
        """The game, if it is the owner's."""
        return self._row(self._connect(), game_id, owner)[0]

    @storage_errors()
    def act(
        self, game_id: str, owner: str, action: Callable[[Game], tuple[T, Sequence[dict[str, Any]]]]
    ) -> tuple[Game, T]:
        """Run ``action`` on the owner's game: it returns a result and the
        events to record; the game and the events are saved after it, in one
        transaction, if no other process has changed the game meanwhile (if
        one has, ``action`` runs again on the game as it is now, or is
        :class:`NotYourGame` if it has moved to another owner). If it
        raises, nothing is saved."""
        with self._one_at_a_time(game_id):
            while True:
                game, state = self._row(self._connect(), game_id, owner)
                result, events = action(game)  # no lock held: other games' actions go on
                with self._transaction() as db:
                    saved = db.execute(
                        "UPDATE games SET state = ?, updated = ? WHERE id = ? AND state = ? AND owner = ?",
                        (json.dumps(game.to_state()), time.time(), game_id, state, owner),
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

    @storage_errors()
    def round_events(self, game_id: str, round_number: int | None) -> list[dict[str, Any]]:
        """The events of one round (its number), oldest first."""
        if round_number is None:
            return []
        rows = self._connect().execute(
            "SELECT data FROM events WHERE game = ? AND round = ? ORDER BY seq", (game_id, round_number)
        )
        return [json.loads(data) for (data,) in rows]

    @storage_errors()
    def settled(self, game_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The last ``limit`` settled rounds' events, oldest first."""
        rows = self._connect().execute(
            "SELECT data FROM events WHERE game = ? AND type = 'round_settled' ORDER BY seq DESC LIMIT ?",
            (game_id, limit),
        ).fetchall()
        return [json.loads(data) for (data,) in reversed(rows)]
