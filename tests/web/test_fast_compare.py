"""The compare endpoint's fast path (``_FastCompare``) answers exactly as the
FastAPI route does: the same status, headers and bytes for good requests and
for every kind of bad one (those it hands to the app, with the body)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from fivecard.web import app as web  # noqa: E402

GOOD = {"hands": ["8C TS KC 9H 4S", "7D 2S 5D 3S AC"]}
TEN = [
    "AS AD 2C 3C 4C", "KS KD 2D 3D 4D", "QS QD 2H 3H 4H", "JS JD 2S 3S 4S", "TS TD 5C 6C 7C",
    "9S 9D 5D 6D 7D", "8S 8D 5H 6H 7H", "7S 8C 5S 6S 9C", "AH KH QH JH TH", "AC KC QC JC TC",
]
BODIES: list[Any] = [
    GOOD,
    {"hands": ["AS KS QS JS TS", "9C 9D 9H 9S 2C"], "rules": "ace-king"},
    {"hands": ["JK AS AD AH AC", "KS KD KH KC 2D"], "rules": "joker"},
    {"hands": TEN},
    {"hands": ["A♠ K♠ Q♠ J♠ 10♠", "2♣ 3♣ 4♣ 5♣ 6♣"]},
    {"hands": ["AS KS QS JS TS"]},
    {"hands": ["AS KS QS JS TS", "2C 3C 4C 5C 6C"], "decks": "2", "extra": 1},
    {"hands": ["AS KS QS JS TS", "AS 2C 3C 4C 5C"]},
    {"hands": ["AS KS QS JS", "2C 3C 4C 5C 6C"]},
    {"hands": ["hello", "2C 3C 4C 5C 6C"], "rules": "nope"},
    {"hands": ["AS KS QS JS TS", "2C 3C 4C 5C 6C"], "rules": "nope"},
    {"hands": ["AS " * 100, "2C 3C 4C 5C 6C"]},
    {"hands": []},
    {"hands": ["AS KS QS JS TS"] * 11},
    {"hands": ["AS KS QS JS TS", "2C 3C 4C 5C 6C"], "decks": 9},
    {"hands": [1, 2]},
    {"hands": "AS KS QS JS TS"},
    [1, 2],
    None,
]
RAW: list[bytes] = [b'{"hands": [', b"", b'{"hands": ["\xff"]}', b'{"decks": NaN, "hands": ["AS KS QS JS TS"]}']


def _without_fast_path(app: FastAPI) -> FastAPI:
    fast: Any = web._FastCompare
    app.user_middleware = [m for m in app.user_middleware if m.cls is not fast]
    return app


@pytest.fixture(scope="module")
def clients(tmp_path_factory: pytest.TempPathFactory) -> tuple[TestClient, TestClient]:
    folder: Path = tmp_path_factory.mktemp("games")
    fast = web.create_app(folder, allow_hosts=["testserver"])
    return TestClient(fast), TestClient(_without_fast_path(web.create_app(folder, allow_hosts=["testserver"])))


def _same(fast: TestClient, route: TestClient, content: bytes, content_type: str | None, path: str) -> int:
    headers = {"content-type": content_type} if content_type else {}
    a = fast.post(path, content=content, headers=headers)
    b = route.post(path, content=content, headers=headers)
    assert (a.status_code, a.headers.multi_items(), a.content) == (b.status_code, b.headers.multi_items(), b.content)
    return int(a.status_code)


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
def test_same_answer_as_the_route(clients: tuple[TestClient, TestClient], body: Any) -> None:
    _same(*clients, json.dumps(body).encode(), "application/json", "/api/compare")


@pytest.mark.parametrize("raw", RAW, ids=range(len(RAW)))
def test_same_answer_to_bad_json(clients: tuple[TestClient, TestClient], raw: bytes) -> None:
    _same(*clients, raw, "application/json", "/api/compare")


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "text/plain", None])
def test_other_content_types_go_to_the_route(clients: tuple[TestClient, TestClient], content_type: str | None) -> None:
    _same(*clients, json.dumps(GOOD).encode(), content_type, "/api/compare")
    _same(*clients, json.dumps(GOOD).encode(), content_type, "/api/compare?x=1")


def test_security_headers_and_body_limit(clients: tuple[TestClient, TestClient]) -> None:
    fast, _ = clients
    answer = fast.post("/api/compare", json=GOOD)
    assert answer.status_code == 200 and answer.json()["winners"] == [2]
    assert answer.headers["content-security-policy"] == web.CSP
    assert answer.headers["x-frame-options"] == "DENY"
    assert _same(*clients, json.dumps({**GOOD, "pad": "x" * web.MAX_BODY}).encode(), "application/json", "/api/compare") == 413


def _run(middleware: Any, body: bytes, content_type: bytes = b"application/json") -> tuple[list[bytes], list[Any]]:
    """What the app behind the middleware read (None if it was not called), and what was sent."""
    seen: list[bytes] = []
    sent: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        seen.append(b"".join(chunks))

    async def receive_in_pieces() -> Any:
        piece, rest = pieces[0], pieces[1:]
        pieces[:] = rest
        return {"type": "http.request", "body": piece, "more_body": bool(rest)}

    async def send(message: Any) -> None:
        sent.append(message)

    pieces = [body[:7], body[7:20], body[20:]]
    scope = {
        "type": "http", "method": "POST", "path": "/api/compare", "query_string": b"",
        "headers": [(b"content-type", content_type)],
    }  # fmt: skip
    asyncio.run(middleware(app)(scope, receive_in_pieces, send))
    return seen, sent


def test_the_fast_path_answers_alone_and_hands_over_the_whole_body() -> None:
    good = json.dumps(GOOD).encode()
    seen, sent = _run(web._FastCompare, good)
    assert seen == [] and sent[0]["status"] == 200 and json.loads(sent[1]["body"])["winners"] == [2]
    bad = json.dumps({"hands": ["AS KS QS JS TS", "AS 2C 3C 4C 5C"]}).encode()
    assert _run(web._FastCompare, bad) == ([bad], [])
    assert _run(web._FastCompare, good, b"text/plain") == ([good], [])
