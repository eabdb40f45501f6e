"""Every route says the same in every language, only in other words.

The walk takes every route of the app (every method, path parameters filled
with a real game, machine, table and seat, bodies built from the OpenAPI
document's required fields, as the owners' walk does) and asks each in
English, Japanese and Russian, as each role: a stranger (no cookie: a
spectator of the table), the host of the table who sits at it, and another
seat. Each request is asked of the same world (the data file put back as it
was). In every language an answer has the same status and type; a JSON
answer has the same keys and the same machine values (only its sentences
differ); a page has the same elements with the same ids and data; anything
else (a script, a stylesheet, a log, a picture) is the same bytes."""

from __future__ import annotations

import json
import re
import sqlite3
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

from routes import route_requests
from fivecard.core.lang import LANGUAGES
from fivecard.web.app import OWNER_COOKIE, create_app
from fivecard.web.friends_api import RateLimit

#: Fields of a JSON answer that are words for people (a card's ``rank`` and
#: ``text`` as the language writes them: Russian К♦).
SENTENCES = {"description", "explanation", "label", "name", "rank", "reason", "text"}
#: A page's data attributes that are words for people (a rule set's summary).
SAID_DATA = {"data-summary"}
#: Fresh ids in answers (a new game's or table's).
NEW_ID = re.compile(rb'[A-Za-z0-9_-]{22}')


@dataclass
class World:
    app: FastAPI
    database: Path
    pristine: Path
    client: TestClient
    roles: dict[str, str | None]  # a role -> its owner secret (None: a stranger)
    ids: dict[str, str]

    def restore(self) -> None:
        source, target = sqlite3.connect(self.pristine), sqlite3.connect(self.database)
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()

    def requests(self) -> Iterator[tuple[str, str, Any]]:
        """Every route of the app, every method: (method, path, body)."""
        return route_requests(self.app, self.ids, ("app.css", "common.js"))

    def ask(self, method: str, path: str, body: Any, role: str, code: str) -> tuple[int, str, bytes]:
        self.restore()
        client = self.client
        client.cookies.clear()
        headers = {"content-type": "application/json", "accept-language": code}
        secret = self.roles[role]
        if secret is not None:
            headers["cookie"] = f"{OWNER_COOKIE}={secret}"
        content = None if body is None else json.dumps(body).encode()
        if path.endswith("/events"):  # a stream that stays open: its first event frames
            with client.stream(method, path, headers=headers) as streamed:
                status = streamed.status_code
                raw = b"".join(islice(streamed.iter_bytes(), 2)) if status == 200 else streamed.read()
                kind = streamed.headers.get("content-type", "")
        else:
            answer = client.request(method, path, headers=headers, content=content)
            status, raw, kind = answer.status_code, answer.content, answer.headers.get("content-type", "")
        return status, kind, raw


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    folder = tmp_path_factory.mktemp("languages")
    unlimited = RateLimit(rate=1e6, burst=1e6, create_rate=1e6, create_burst=1e6)
    app = create_app(folder / "data", limit=unlimited, allow_hosts=["testserver"], lan_url="http://192.0.2.7:8000/")
    host, other = TestClient(app), TestClient(app)
    game_id = host.post("/api/games", json={"seed": 7}).json()["id"]
    assert host.post(f"/api/games/{game_id}/actions", json={"action": "start"}).status_code == 200
    machine_id = host.post("/api/machines", json={"paytable": "jacks-or-better-9-6", "seed": 5}).json()["id"]
    assert host.post(f"/api/machines/{machine_id}/actions", json={"action": "deal"}).status_code == 200
    table_id = host.post("/api/tables", json={"draw": 5, "seed": 3}).json()["id"]
    assert host.post(f"/api/tables/{table_id}/seats", json={"name": "Vic"}).json()["you"] == 1
    assert other.post(f"/api/tables/{table_id}/seats", json={"name": "Ola"}).json()["you"] == 2
    assert host.post(f"/api/tables/{table_id}/rounds", json={}).status_code == 200
    assert host.post(f"/api/tables/{table_id}/deal", json={}).json()["round"]["your_hand"]
    assert host.post(f"/api/tables/{table_id}/chat", json={"text": "hi"}).status_code == 200
    database = folder / "data" / "games.sqlite3"
    made = World(
        app, database, folder / "pristine.sqlite3", TestClient(app),
        {"stranger": None, "host": str(host.cookies[OWNER_COOKIE]), "seat": str(other.cookies[OWNER_COOKIE])},
        {"game_id": game_id, "table_id": table_id, "seat": "2", "paytable_id": "jacks-or-better-9-6", "machine_id": machine_id},
    )  # fmt: skip
    source, target = sqlite3.connect(database), sqlite3.connect(made.pristine)
    source.backup(target)
    source.close()
    target.close()
    return made


def _shape(data: Any, key: str = "") -> Any:
    """A JSON answer with its sentences' words taken out."""
    if isinstance(data, dict):
        return {k: _shape(v, k) for k, v in data.items()}
    if isinstance(data, list):
        return [_shape(v, key) for v in data]
    if key in SENTENCES and isinstance(data, str):
        return "(said)" if data else ""
    return data


def _elements(page: str) -> list[tuple[str, ...]]:
    """A page's elements: each tag with its id, class, name and data."""
    found = []
    for tag, attributes in re.findall(r"<([a-zA-Z][\w-]*)([^>]*)>", page):
        kept = re.findall(r'\s((?:id|class|name|type|value|data-[\w-]+)="[^"]*")', attributes)
        found.append((tag, *[k for k in kept if k.split("=")[0] not in SAID_DATA]))
    return found


def _events(raw: bytes) -> list[Any]:
    return [json.loads(line[6:]) for line in raw.decode().splitlines() if line.startswith("data: ")]


@pytest.mark.slow
@pytest.mark.parametrize("role", ["stranger", "host", "seat"])
def test_every_route_reveals_the_same_in_every_language(world: World, role: str) -> None:
    for method, path, body in world.requests():
        said = {code: world.ask(method, path, body, role, code) for code in LANGUAGES}
        status, kind, english = said["en"]
        for code, (their_status, their_kind, raw) in said.items():
            where = (role, method, path, code)
            assert (their_status, their_kind) == (status, kind), where
            english_, raw_ = NEW_ID.sub(b"NEW", english), NEW_ID.sub(b"NEW", raw)
            if kind.startswith("application/json"):
                assert _shape(json.loads(raw_)) == _shape(json.loads(english_)), where
            elif kind.startswith("text/event-stream"):
                assert _shape(_events(raw_)) == _shape(_events(english_)), where
            elif kind.startswith("text/html"):
                assert _elements(raw_.decode()) == _elements(english_.decode()), where
            else:
                assert raw_ == english_, where
