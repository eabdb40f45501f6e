"""Friends' tables kept behind a small interface (:class:`TableStore`), with
SQLite as the embedded default (:class:`SqliteTableStore`): the handlers use
only the interface, so another database can be added without touching them.

Each action on a table runs in one ``BEGIN IMMEDIATE`` transaction: the
table's state is read, the action applied, the state and the action's
events written, and the request's id recorded. A request retried with the
same id (after a lost answer, a reload, a restart) finds its id and acts
again on nothing: points are never awarded twice. Events are numbered per
table (1, 2, ...); the event stream resumes after the last number a browser
saw.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from ..play.friends import FriendsTable
from ..play.table_game import GameError
from .store import Capacity, Database, NoSuchGame, make_room, new_secret, storage_errors

__all__ = ["TableStore", "SqliteTableStore", "NoSuchTable"]

T = TypeVar("T")


class NoSuchTable(NoSuchGame):
    """No table has that id."""


class TableStore(Protocol):
    """What the web app needs of a place that keeps tables."""

    def create(self, table: FriendsTable, events: Sequence[dict[str, Any]], moved_from: str = "") -> str:
        """Keep a new table and its first events; its unguessable id. What
        the owner ``moved_from`` holds becomes the table's host's in the
        same transaction."""

    def load(self, table_id: str) -> FriendsTable:
        """The table (:class:`NoSuchTable` if none has that id)."""

    def act(
        self,
        table_id: str,
        request_id: str | None,
        owner: str,
        action: Callable[[FriendsTable], tuple[T, Sequence[dict[str, Any]]]],
        moved_from: str = "",
    ) -> tuple[FriendsTable, T | None, bool]:
        """Apply ``action`` (it returns a result and the events to record)
        in one transaction, unless this owner's (or ``moved_from``'s)
        ``request_id`` was applied already: then the table as it is, None
        and True. Before the action, what the owner ``moved_from`` holds
        becomes ``owner``'s, in the same transaction."""

    def events_after(self, table_id: str, seq: int, limit: int = 500) -> list[tuple[int, dict[str, Any]]]:
        """The table's events numbered after ``seq``, oldest first."""

    def last_seq(self, table_id: str) -> int:
        """The number of the table's last event (0: none)."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS friend_tables (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS friend_events (
    table_id TEXT NOT NULL REFERENCES friend_tables(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS friend_requests (
    table_id TEXT NOT NULL REFERENCES friend_tables(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    request_id TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, owner, request_id)
);
CREATE TABLE IF NOT EXISTS friend_owners (
    table_id TEXT NOT NULL REFERENCES friend_tables(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    PRIMARY KEY (table_id, owner)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS friend_tables_by_updated ON friend_tables (updated);
CREATE INDEX IF NOT EXISTS friend_owners_by_owner ON friend_owners (owner);
"""


class SqliteTableStore:
    """Tables in a :class:`~fivecard.web.store.Database` (or the SQLite
    file at that path). Thread-safe."""

    @storage_errors()
    def __init__(self, database: Database | str, capacity: Capacity = Capacity()) -> None:
        self.database = Database(database) if isinstance(database, str) else database
        self.path = self.database.path
        self.capacity = capacity
        self._db = self.database.connect
        self._transaction = self.database.transaction
        self._db().executescript(_SCHEMA)
        self.database.on_move("tables", self._move_owner)

    def _move_owner(self, db: sqlite3.Connection, old: str, new: str) -> None:
        """What ``old`` holds at any table (its part in the state, its
        applied request ids) becomes ``new``'s: only its own tables are read."""
        held = [t for (t,) in db.execute("SELECT table_id FROM friend_owners WHERE owner = ?", (old,)).fetchall()]
        for table_id in held:
            try:
                table = self._read(db, table_id)
            except GameError:  # kept by a later version: nobody can use it here, nor lose it by this
                continue
            table.move_owner(old, new)
            db.execute("UPDATE friend_tables SET state = ? WHERE id = ?", (json.dumps(table.to_state()), table_id))
            db.execute(
                "UPDATE friend_requests SET owner = ? WHERE table_id = ? AND owner = ?", (new, table_id, old)
            )
        db.execute("UPDATE friend_owners SET owner = ? WHERE owner = ?", (new, old))

    @staticmethod
    def _add_owners(db: sqlite3.Connection, table_id: str, owners: set[str]) -> None:
        db.executemany(
            "INSERT OR IGNORE INTO friend_owners (table_id, owner) VALUES (?, ?)", [(table_id, o) for o in owners]
        )

    @storage_errors()
    def create(self, table: FriendsTable, events: Sequence[dict[str, Any]], moved_from: str = "") -> str:
        table_id = new_secret()
        now = time.time()
        with self._transaction() as db:
            make_room(db, "friend_tables", self.capacity.tables, self.capacity.days, "table")
            self.database.move_owner(db, moved_from, table.host)
            db.execute(
                "INSERT INTO friend_tables (id, state, created, updated) VALUES (?, ?, ?, ?)",
                (table_id, json.dumps(table.to_state()), now, now),
            )
            self._add_owners(db, table_id, table.owners())
            self._add_events(db, table_id, events)
        return table_id

    def _read(self, db: sqlite3.Connection, table_id: str) -> FriendsTable:
        row = db.execute("SELECT state FROM friend_tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise NoSuchTable(
                f"no table {table_id!r}: check the link (a table untouched for {self.capacity.days:g} days is removed)"
            )
        return FriendsTable.from_state(json.loads(row[0]))

    @storage_errors()
    def load(self, table_id: str) -> FriendsTable:
        return self._read(self._db(), table_id)

    @storage_errors()
    def act(
        self,
        table_id: str,
        request_id: str | None,
        owner: str,
        action: Callable[[FriendsTable], tuple[T, Sequence[dict[str, Any]]]],
        moved_from: str = "",
    ) -> tuple[FriendsTable, T | None, bool]:
        with self._transaction() as db:
            table = self._read(db, table_id)
            if request_id is not None:
                done = db.execute(
                    "SELECT 1 FROM friend_requests WHERE table_id = ? AND owner IN (?, ?) AND request_id = ?",
                    (table_id, owner, moved_from or owner, request_id),
                ).fetchone()
                if done is not None:
                    return table, None, True
            if moved_from:
                self.database.move_owner(db, moved_from, owner)
                table = self._read(db, table_id)  # as it is now its owner's
            before = table.owners()
            result, events = action(table)
            now = time.time()
            db.execute(
                "UPDATE friend_tables SET state = ?, updated = ? WHERE id = ?",
                (json.dumps(table.to_state()), now, table_id),
            )
            self._add_events(db, table_id, events)
            self._add_owners(db, table_id, table.owners() - before)
            if request_id is not None:
                db.execute(
                    "INSERT INTO friend_requests (table_id, owner, request_id, at) VALUES (?, ?, ?, ?)",
                    (table_id, owner, request_id, now),
                )
        return table, result, False

    @staticmethod
    def _add_events(db: sqlite3.Connection, table_id: str, events: Sequence[dict[str, Any]]) -> None:
        if not events:
            return
        (last,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM friend_events WHERE table_id = ?", (table_id,)).fetchone()
        now = time.time()
        db.executemany(
            "INSERT INTO friend_events (table_id, seq, type, data, at) VALUES (?, ?, ?, ?, ?)",
            [
                (table_id, last + i, event["type"], json.dumps({**event, "at": now}), now)
                for i, event in enumerate(events, 1)
            ],
        )

    @storage_errors()
    def events_after(self, table_id: str, seq: int, limit: int = 500) -> list[tuple[int, dict[str, Any]]]:
        rows = self._db().execute(
            "SELECT seq, data FROM friend_events WHERE table_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (table_id, seq, limit),
        )
        return [(int(n), json.loads(data)) for n, data in rows]

    @storage_errors()
    def last_seq(self, table_id: str) -> int:
        (last,) = self._db().execute(
            "SELECT COALESCE(MAX(seq), 0) FROM friend_events WHERE table_id = ?", (table_id,)
        ).fetchone()
        return int(last)
