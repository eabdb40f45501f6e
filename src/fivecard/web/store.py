"""Table games (the dealer game, the friends' table) kept in SQLite (the
standard library's), so that they survive a restart: one file, WAL mode,
one transaction per action, one store for every kind
(:class:`TableGameStore` of a :class:`Kind`).

A game's row holds its whole state
(:meth:`~fivecard.play.table_game.TableGame.to_state`); the hashes of its
owners' secrets (the browser that made it holds the secret in a cookie:
:class:`Owners`) are kept beside it; its events are rows of their own,
numbered. An action reads the game, acts, and writes it back in a short
``BEGIN IMMEDIATE`` transaction only if the game's row is still the one it
read (else it acts again on the new one): the acting itself (the dealer
game's computer players consult the advisor, tens of milliseconds) holds
no lock, so actions on other games go on meanwhile and never wait out
SQLite's busy timeout. Two requests on one game run one after the other
(in one process, in turn; across processes, the second acts again on the
first one's result), a request id is applied once, and a failed action
changes nothing.

At most so many games and friends' tables are kept (:class:`Capacity`): a
new one first removes those of its kind untouched for its days, then is
refused (:class:`~fivecard.web.errors.AtCapacity`) if as many as the limit
are left, or if the client's address (its network) keeps its share of them
already (a keyed hash of the network is kept with each game, never the
address).

A data folder that cannot keep a change is one error (an :class:`OSError`),
never a traceback or a transaction left open: :class:`StorageFull` (the disk is full) or
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
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, TypeVar

from ..play.friends import FriendsTable
from ..play.game import Game
from ..play.machine import Machine
from ..play.table_game import GameError, TableGame
from .errors import AtCapacity, NotFound, NotYours, WebError

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection

__all__ = ["Database", "TableGameStore", "Kind", "DEALER_GAMES", "FRIENDS_TABLES", "MACHINES", "Owners", "Claim", "remember_owner", "new_secret", "secret_hash", "OWNER_COOKIE", "MAX_STORED", "StorageError", "StorageFull", "StorageUnavailable", "storage_errors", "Capacity"]

#: The largest whole number SQLite keeps (a signed 64-bit integer): no number
#: the API takes is larger.
MAX_STORED = 2**63 - 1

#: The cookie that holds the browser's owner secret (HttpOnly, SameSite=Strict):
#: its games, its seats, the tables it hosts.
OWNER_COOKIE = "fivecard_owner"

T = TypeVar("T")
G = TypeVar("G", bound=TableGame)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS table_games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    network TEXT
);
CREATE TABLE IF NOT EXISTS table_game_events (
    game_id TEXT NOT NULL REFERENCES table_games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    round INTEGER,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS table_game_owners (
    game_id TEXT NOT NULL REFERENCES table_games(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    PRIMARY KEY (game_id, owner)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS table_game_requests (
    game_id TEXT NOT NULL REFERENCES table_games(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    request_id TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, owner, request_id)
);
CREATE INDEX IF NOT EXISTS table_games_by_kind ON table_games (kind, updated);
CREATE INDEX IF NOT EXISTS table_game_owners_by_owner ON table_game_owners (owner);
CREATE INDEX IF NOT EXISTS table_game_events_by_type ON table_game_events (game_id, type, seq);
CREATE INDEX IF NOT EXISTS table_game_events_by_round ON table_game_events (game_id, round, seq);
"""
#: What a data file an earlier version kept lacks: added once, in a write transaction.
_ADDED_COLUMNS = {"table_games": {"network": "TEXT"}}
_INDEXES = """
CREATE INDEX IF NOT EXISTS table_games_by_network ON table_games (kind, network);
"""
#: The request ids kept for each browser at a game: a retry comes soon after
#: its request, never after this many newer ones.
KEPT_REQUEST_IDS = 64


@dataclass(frozen=True)
class Capacity:
    """How much the app keeps: at most ``games`` games, ``tables``
    tables and ``machines`` video-poker machines, each removed once
    untouched (no action taken) for ``days`` days. A new one past the limit is :class:`~fivecard.web.errors.AtCapacity` (503).

    One client address (its network: :func:`~fivecard.web.clients.client_network`)
    keeps at most a part of each limit (:meth:`per_address`: a twentieth,
    500 of 10,000, or ``address_floor`` if that is more), so that no one
    address can take every place for 30 days: past it, its new one is
    refused (503) while every other address's is made."""

    games: int = 10_000
    tables: int = 10_000
    days: float = 30.0
    machines: int = 10_000
    #: One address keeps at most a ``1/address_part`` of each limit ...
    address_part: int = 20
    #: ... or so many, if that is more (a small server's few places are not all refused to a household).
    address_floor: int = 10

    def per_address(self, limit: int) -> int:
        """How many of ``limit`` places one address may keep."""
        return max(self.address_floor, limit // self.address_part)


class StorageError(OSError):
    """The data folder cannot keep (or give back) what the app stores;
    nothing was changed (an :class:`OSError`: the file system's, or
    SQLite's on it). ``reason`` says what is wrong with the folder, in a
    clause ("its disk is full"); ``status`` is the web answer's."""

    status: ClassVar[int] = 503

    def __init__(self, reason: str, hint: str = "") -> None:
        super().__init__(f"the server's data folder cannot keep this: {reason}; nothing was changed{hint}")
        self.reason = reason


class StorageFull(StorageError):
    """The disk under the data file is full (507 Insufficient Storage)."""

    status = 507


class StorageUnavailable(StorageError):
    """The data folder is read-only, not the server's to write, unreadable,
    or held by another process past the wait (503)."""


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
    except StorageError:
        raise
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
        it; :class:`~fivecard.web.errors.WebError` (400) if it sends more than one."""
        found = [
            value.strip()
            for header in request.headers.getlist("cookie")
            for name, _, value in (chunk.partition("=") for chunk in header.split(";"))
            if name.strip() == OWNER_COOKIE
        ]
        if len(found) > 1:
            raise WebError(
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


def _wal(db: sqlite3.Connection) -> None:
    """WAL mode for the connection's file. The first connections to a new
    file, at once (processes starting together), may find it locked while
    another sets the mode, and SQLite does not wait on that lock for them:
    they try again for up to the connection's own ten seconds."""
    for _ in range(500):
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc):
                raise
            time.sleep(0.02)
    db.execute("PRAGMA journal_mode=WAL")


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
        self._opened: list[sqlite3.Connection] = []  # every thread's, for close_all
        self._opening = threading.Lock()

    @storage_errors()
    def connect(self) -> sqlite3.Connection:
        """This thread's connection."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None or db not in self._opened:  # (one close_all closed)
            db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
            try:
                _wal(db)
                db.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash loses no committed action's consistency
                db.execute("PRAGMA foreign_keys=ON")
            except BaseException:
                db.close()  # opened, not usable: the next request opens it again
                raise
            with self._opening:
                self._opened.append(db)
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
            self._forget(db)
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
            self._forget(db)
            db.close()
            self._local.db = None

    def close_all(self) -> None:
        """Close every thread's connection (the app stopping: no request is
        running); a thread that asks again later opens a new one."""
        with self._opening:
            opened, self._opened = self._opened, []
        for db in opened:
            db.close()
        self._local.db = None

    def _forget(self, db: sqlite3.Connection) -> None:
        with self._opening:
            if db in self._opened:
                self._opened.remove(db)


@dataclass(frozen=True)
class Kind(Generic[G]):
    """A kind of table game a :class:`TableGameStore` keeps: its class, its
    ``id`` in the database, what a message calls one (``noun``), whether only its
    owners may read it (``private``: the dealer game; a friends' table is
    seen by anyone with its link, each browser by its role), and which
    :class:`Capacity` limit counts it."""

    game: type[G]
    id: str
    noun: str
    private: bool
    limit: Callable[[Capacity], int]


#: The dealer game: each is its one owner's.
DEALER_GAMES: Final = Kind(Game, "game", "game", private=True, limit=lambda c: c.games)
#: The friends' table: anyone with the link watches; its owners are its host and seats.
FRIENDS_TABLES: Final = Kind(FriendsTable, "friends_table", "table", private=False, limit=lambda c: c.tables)
#: The video-poker machine: each is its one owner's, as a dealer game is.
MACHINES: Final = Kind(Machine, "machine", "machine", private=True, limit=lambda c: c.machines)


class TableGameStore(Generic[G]):
    """The table games of one :class:`Kind` in a :class:`Database` (or the
    SQLite file at that path). Thread-safe.

    A game's row holds its state (:meth:`~fivecard.play.table_game.TableGame.to_state`);
    its owners (the hashes of browsers' secrets: the one who made it, and
    those the game itself records, as a friends' table's seats) are kept
    beside it, and what an owner holds moves with :meth:`Database.move_owner`.
    Its events are rows of their own, numbered 1, 2, ... (``at``: when kept).

    :meth:`act` reads the game, acts, and writes it back in a short ``BEGIN
    IMMEDIATE`` transaction only if the game's row is still the one it read
    (else it acts again on the new one): the acting itself (the dealer
    game's computer players consult the advisor) holds no lock, so actions
    on other games go on meanwhile. Two actions on one game run one after
    the other (in one process, in turn; across processes, the second acts
    again on the first one's result), and a failed action changes nothing.
    An action sent with a ``request_id`` is applied once: retried (after a
    lost answer, a reload, a restart), it finds its id and acts on nothing."""

    @storage_errors()
    def __init__(self, database: Database | str, kind: Kind[G], capacity: Capacity = Capacity()) -> None:
        self.database = Database(database) if isinstance(database, str) else database
        self.path = self.database.path
        self.kind = kind
        self.capacity = capacity
        self._connect = self.database.connect
        self._transaction = self.database.transaction
        # Per game, a lock and how many actions hold or wait for it.
        self._games: dict[str, tuple[threading.Lock, int]] = {}
        self._games_guard = threading.Lock()
        self._connect().executescript(_SCHEMA)
        if _missing_columns(self._connect()):
            with self._transaction() as db:  # (only a data file an earlier version kept is written to here)
                _add_columns(db)
        self._connect().executescript(_INDEXES)
        if any(_exists(self._connect(), table) for table in ("games", "friend_tables")):
            with self._transaction() as db:  # (only a data file an earlier version kept is written to here)
                _carry_over(db, kind)
        self._network_key = hmac.new(self.database.key("client networks"), b"fivecard client network\x00", hashlib.sha256)
        self.database.on_move(kind.id, self._move_owner)

    def close(self) -> None:
        """Close this thread's connection."""
        self.database.close()

    # -- owners --------------------------------------------------------------

    def _move_owner(self, db: sqlite3.Connection, old: str, new: str) -> None:
        """What ``old`` holds in any game of this kind (its part in the
        state, its applied request ids, its place among the owners) becomes
        ``new``'s. Only a kind whose games record their owners in their
        state (the friends' table's host and seats) has states to rewrite,
        and only ``old``'s own games are read."""
        held = "SELECT o.game_id FROM table_game_owners o JOIN table_games g ON g.id = o.game_id WHERE o.owner = ? AND g.kind = ?"
        if self.kind.game.owners is not TableGame.owners:
            rows = db.execute(f"SELECT id, state FROM table_games WHERE id IN ({held})", (old, self.kind.id)).fetchall()
            for game_id, state in rows:
                try:
                    game = self.kind.game.from_state(json.loads(state))
                except GameError:  # kept by a later version: nobody can use it here, nor lose it by this
                    continue
                game.move_owner(old, new)
                db.execute("UPDATE table_games SET state = ? WHERE id = ?", (json.dumps(game.to_state()), game_id))
        db.execute(
            f"UPDATE table_game_requests SET owner = ? WHERE owner = ? AND game_id IN ({held})",
            (new, old, old, self.kind.id),
        )
        db.execute(
            f"UPDATE OR REPLACE table_game_owners SET owner = ? WHERE owner = ? AND game_id IN ({held})",
            (new, old, old, self.kind.id),
        )

    @staticmethod
    def _add_owners(db: sqlite3.Connection, game_id: str, owners: set[str]) -> None:
        db.executemany(
            "INSERT OR IGNORE INTO table_game_owners (game_id, owner) VALUES (?, ?)",
            [(game_id, o) for o in owners if o],
        )

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

    # -- games ---------------------------------------------------------------

    def _network_hash(self, network: str) -> str | None:
        """What is kept of a client's network with the games it makes: a
        keyed hash (the data file holds no address), None for none."""
        if not network:
            return None
        mac = self._network_key.copy()
        mac.update(network.encode())
        return mac.hexdigest()

    @storage_errors()
    def create(
        self, game: G, owner: str, events: Sequence[dict[str, Any]] = (), moved_from: str = "", network: str = ""
    ) -> str:
        """Keep a new game for ``owner`` (a secret's :func:`secret_hash`) and
        its first events; its unguessable id. Games of this kind untouched
        for the capacity's days are removed first; :class:`~fivecard.web.errors.AtCapacity` if as
        many as its limit are left, or if the client's ``network``
        (:func:`~fivecard.web.clients.client_network`; "" for none) keeps as
        many as one may (:meth:`Capacity.per_address`). What the owner
        ``moved_from`` holds becomes ``owner``'s in the same transaction (a
        :class:`Claim`)."""
        game_id = new_secret()
        now = time.time()
        kind, noun = self.kind.id, self.kind.noun
        made_by = self._network_hash(network)
        with self._transaction() as db:
            db.execute("DELETE FROM table_games WHERE kind = ? AND updated < ?", (kind, now - self.capacity.days * 86_400))
            (count,) = db.execute("SELECT COUNT(*) FROM table_games WHERE kind = ?", (kind,)).fetchone()
            limit = self.kind.limit(self.capacity)
            if count >= limit:
                raise AtCapacity(
                    f"the server keeps at most {limit:,} {noun}s and has that many now: try again later "
                    f"(a {noun} untouched for {self.capacity.days:g} days is removed)"
                )
            if made_by is not None:
                share = self.capacity.per_address(limit)
                (mine,) = db.execute(
                    "SELECT COUNT(*) FROM table_games WHERE kind = ? AND network = ?", (kind, made_by)
                ).fetchone()
                if mine >= share:
                    raise AtCapacity(
                        f"the server keeps at most {share:,} {noun}s made from one address, and this address "
                        f"has made that many: try again later (a {noun} untouched for "
                        f"{self.capacity.days:g} days is removed)"
                    )
            self.database.move_owner(db, moved_from, owner)
            db.execute(
                "INSERT INTO table_games (id, kind, state, created, updated, network) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, kind, json.dumps(game.to_state()), now, now, made_by),
            )
            self._add_owners(db, game_id, {owner} | game.owners())
            self._add_events(db, game_id, events)
        return game_id

    def _row(self, db: sqlite3.Connection, game_id: str, owner: str) -> tuple[G, str]:
        """The game and its stored state (if it is the owner's, for a private kind)."""
        noun = self.kind.noun
        row = db.execute("SELECT state FROM table_games WHERE id = ? AND kind = ?", (game_id, self.kind.id)).fetchone()
        if row is None:
            raise NotFound(
                f"no {noun} {game_id!r}: check the link (it may be another server's or data folder's; "
                f"a {noun} untouched for {self.capacity.days:g} days is removed)"
            )
        if self.kind.private and not self._owns(db, game_id, owner):
            raise NotYours(f"{noun} {game_id!r} belongs to another browser")
        return self.kind.game.from_state(json.loads(row[0])), str(row[0])

    @staticmethod
    def _owns(db: sqlite3.Connection, game_id: str, owner: str) -> bool:
        found = db.execute(
            "SELECT 1 FROM table_game_owners WHERE game_id = ? AND owner = ?", (game_id, owner)
        ).fetchone()
        return bool(owner) and found is not None

    @storage_errors()
    def load(self, game_id: str, owner: str = "") -> G:
        """The game (if it is the owner's, for a private kind)."""
        return self._row(self._connect(), game_id, owner)[0]

    @storage_errors()
    def act(
        self,
        game_id: str,
        owner: str,
        action: Callable[[G], tuple[T, Sequence[dict[str, Any]]]],
        *,
        request_id: str | None = None,
        moved_from: str = "",
    ) -> tuple[G, T | None, bool]:
        """Run ``action`` on the game for ``owner``: it returns a result and
        the events to record; the game, the events and ``request_id`` are
        saved after it in one transaction, if no other process has changed
        the game meanwhile (if one has, ``action`` runs again on the game as
        it is now, or is :class:`NotYours` if it has moved to another
        owner). What the owner ``moved_from`` holds becomes ``owner``'s in
        that transaction (``action`` sees the game as it will be then). The
        game, the result and False; or, when this owner's (or
        ``moved_from``'s) ``request_id`` was applied already, the game as it
        is, None and True. If ``action`` raises, nothing is saved."""
        with self._one_at_a_time(game_id):
            while True:
                db = self._connect()
                game, state = self._row(db, game_id, owner if not moved_from else moved_from)
                if self._done(db, game_id, owner, moved_from, request_id):
                    return game, None, True
                game.move_owner(moved_from, owner)
                try:
                    result, events = action(game)  # no lock held: other games' actions go on
                except GameError:
                    with self._transaction():  # a store that cannot keep a change says so first
                        pass
                    raise
                with self._transaction() as db:
                    if self._done(db, game_id, owner, moved_from, request_id):
                        return self._row(db, game_id, owner)[0], None, True
                    if not self._unchanged(db, game_id, state):
                        continue  # another process acted first: again, on its result
                    if self.kind.private and not self._owns(db, game_id, moved_from or owner):
                        raise NotYours(f"{self.kind.noun} {game_id!r} belongs to another browser")
                    self.database.move_owner(db, moved_from, owner)
                    now = time.time()
                    db.execute(
                        "UPDATE table_games SET state = ?, updated = ? WHERE id = ?",
                        (json.dumps(game.to_state()), now, game_id),
                    )
                    self._add_events(db, game_id, events)
                    self._add_owners(db, game_id, game.owners())
                    if request_id is not None:
                        self._add_request(db, game_id, owner, request_id, now)
                    return game, result, False

    @staticmethod
    def _add_request(db: sqlite3.Connection, game_id: str, owner: str, request_id: str, now: float) -> None:
        """Keep a request id applied, and only the owner's latest
        :data:`KEPT_REQUEST_IDS` at the game."""
        db.execute(
            "INSERT INTO table_game_requests (game_id, owner, request_id, at) VALUES (?, ?, ?, ?)",
            (game_id, owner, request_id, now),
        )
        db.execute(
            "DELETE FROM table_game_requests WHERE game_id = ? AND owner = ? AND rowid <= ("
            "SELECT rowid FROM table_game_requests WHERE game_id = ? AND owner = ? ORDER BY rowid DESC LIMIT 1 OFFSET ?)",
            (game_id, owner, game_id, owner, KEPT_REQUEST_IDS),
        )

    @staticmethod
    def _unchanged(db: sqlite3.Connection, game_id: str, state: str) -> bool:
        row = db.execute("SELECT state FROM table_games WHERE id = ?", (game_id,)).fetchone()
        return row is not None and str(row[0]) == state

    @staticmethod
    def _done(db: sqlite3.Connection, game_id: str, owner: str, moved_from: str, request_id: str | None) -> bool:
        if request_id is None:
            return False
        found = db.execute(
            "SELECT 1 FROM table_game_requests WHERE game_id = ? AND owner IN (?, ?) AND request_id = ?",
            (game_id, owner, moved_from or owner, request_id),
        ).fetchone()
        return found is not None

    # -- events --------------------------------------------------------------

    def _add_events(self, db: sqlite3.Connection, game_id: str, events: Sequence[dict[str, Any]]) -> None:
        """Number and keep the events; then, of each type the game keeps
        only the latest of (:attr:`~fivecard.play.table_game.TableGame.KEPT_EVENTS`:
        a table's chat), drop those past its bound."""
        if not events:
            return
        (last,) = db.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM table_game_events WHERE game_id = ?", (game_id,)
        ).fetchone()
        now = time.time()
        db.executemany(
            "INSERT INTO table_game_events (game_id, seq, round, type, data, at) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id, last + i, event.get("round"), event["type"],
                    json.dumps({**event, "at": now}, ensure_ascii=False), now,
                )  # fmt: skip
                for i, event in enumerate(events, 1)
            ],
        )
        kept = self.kind.game.KEPT_EVENTS
        for kind in sorted({str(e["type"]) for e in events} & set(kept)):
            db.execute(
                "DELETE FROM table_game_events WHERE game_id = ? AND type = ? AND seq <= ("
                "SELECT seq FROM table_game_events WHERE game_id = ? AND type = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)",
                (game_id, kind, game_id, kind, kept[kind]),
            )

    @storage_errors()
    def events_after(
        self, game_id: str, seq: int, limit: int = 500, type: str | None = None
    ) -> list[tuple[int, dict[str, Any]]]:
        """The game's events numbered after ``seq`` (at most ``limit``; of
        one ``type``, if given: read by its index, never past the others),
        oldest first."""
        if type is None:
            rows = self._connect().execute(
                "SELECT seq, data FROM table_game_events WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                (game_id, seq, limit),
            )
        else:
            rows = self._connect().execute(
                "SELECT seq, data FROM table_game_events WHERE game_id = ? AND type = ? AND seq > ? ORDER BY seq LIMIT ?",
                (game_id, type, seq, limit),
            )
        return [(int(n), json.loads(data)) for n, data in rows]

    @storage_errors()
    def tail(
        self, game_id: str, limit: int, type: str | None = None, before: int | None = None
    ) -> list[tuple[int, dict[str, Any]]]:
        """The game's last ``limit`` events (of one ``type``, if given;
        numbered before ``before``, if given), oldest first."""
        where = ["game_id = ?"]
        args: list[str | int] = [game_id]
        if type is not None:
            where.append("type = ?")
            args.append(type)
        if before is not None:
            where.append("seq < ?")
            args.append(before)
        rows = self._connect().execute(
            f"SELECT seq, data FROM table_game_events WHERE {' AND '.join(where)} ORDER BY seq DESC LIMIT ?", (*args, limit)
        ).fetchall()
        return [(int(n), json.loads(data)) for n, data in reversed(rows)]

    @storage_errors()
    def last_seq(self, game_id: str) -> int:
        """The number of the game's last event (0: none)."""
        (last,) = self._connect().execute(
            "SELECT COALESCE(MAX(seq), 0) FROM table_game_events WHERE game_id = ?", (game_id,)
        ).fetchone()
        return int(last)

    @storage_errors()
    def round_events(self, game_id: str, round_number: int | None) -> list[dict[str, Any]]:
        """The events of one round (its number), oldest first."""
        if round_number is None:
            return []
        rows = self._connect().execute(
            "SELECT data FROM table_game_events WHERE game_id = ? AND round = ? ORDER BY seq", (game_id, round_number)
        )
        return [json.loads(data) for (data,) in rows]

    @storage_errors()
    def latest(self, game_id: str, type: str, limit: int = 50) -> list[dict[str, Any]]:
        """The last ``limit`` events of a ``type``, oldest first."""
        return [event for _, event in self.tail(game_id, limit, type)]


def _missing_columns(db: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """The columns of :data:`_ADDED_COLUMNS` the file's tables lack: (table, column, type)."""
    missing = []
    for table, columns in _ADDED_COLUMNS.items():
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        missing += [(table, name, kind) for name, kind in columns.items() if name not in have]
    return missing


def _add_columns(db: sqlite3.Connection) -> None:
    """Inside a write transaction: add the columns a data file an earlier version kept lacks."""
    for table, name, kind in _missing_columns(db):
        db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")


def _exists(db: sqlite3.Connection, table: str) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone() is not None


def _carry_over(db: sqlite3.Connection, kind: Kind[Any]) -> None:
    """Inside a write transaction: the games of ``kind`` that an earlier
    version kept in tables of their own (``games`` and ``events``; the
    ``friend_…`` tables) moved into this store's, and those tables dropped."""
    if kind is DEALER_GAMES and _exists(db, "games"):
        db.execute(
            "INSERT OR IGNORE INTO table_games (id, kind, state, created, updated) "
            "SELECT id, ?, state, created, updated FROM games", (kind.id,)
        )
        db.execute("INSERT OR IGNORE INTO table_game_owners (game_id, owner) SELECT id, owner FROM games")
        if _exists(db, "events"):
            db.execute(
                "INSERT OR IGNORE INTO table_game_events (game_id, seq, round, type, data, at) "
                "SELECT e.game, e.seq, e.round, e.type, e.data, g.updated FROM events e JOIN games g ON g.id = e.game"
            )
            db.execute("DROP TABLE events")
        db.execute("DROP TABLE games")
    if kind is FRIENDS_TABLES and _exists(db, "friend_tables"):
        db.execute(
            "INSERT OR IGNORE INTO table_games (id, kind, state, created, updated) "
            "SELECT id, ?, state, created, updated FROM friend_tables", (kind.id,)
        )
        for game_id, state in db.execute("SELECT id, state FROM friend_tables").fetchall():
            with suppress(GameError, ValueError):  # kept by a later version: kept, unread
                TableGameStore._add_owners(db, game_id, kind.game.from_state(json.loads(state)).owners())
        moves = {
            "friend_events": "INSERT OR IGNORE INTO table_game_events (game_id, seq, round, type, data, at) "
            "SELECT table_id, seq, json_extract(data, '$.round'), type, data, at FROM friend_events",
            "friend_requests": "INSERT OR IGNORE INTO table_game_requests (game_id, owner, request_id, at) "
            "SELECT table_id, owner, request_id, at FROM friend_requests",
            "friend_owners": "INSERT OR IGNORE INTO table_game_owners (game_id, owner) SELECT table_id, owner FROM friend_owners",
        }
        for table, move in moves.items():
            if _exists(db, table):
                db.execute(move)
                db.execute(f"DROP TABLE {table}")
        db.execute("DROP TABLE friend_tables")
