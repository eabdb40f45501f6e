"""Every request that may change something proves it comes from the app's
own pages (``_SameOrigin``): a JSON content type, and ``Origin`` /
``Sec-Fetch-Site`` naming the app itself when the browser sends them. The
routes are walked from the app, so a route added later is covered; the
same check in a real browser, from a page on another port, is
``test_web_same_origin_browser.py``."""

from __future__ import annotations

import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient
    from starlette.routing import Route

from fivecard.web.app import SAFE_METHODS, create_app

#: What a page elsewhere can send without a CORS preflight, and other non-JSON types.
NOT_JSON: list[dict[str, str]] = [
    {},
    {"content-type": "text/plain"},
    {"content-type": "text/plain;charset=UTF-8"},
    {"content-type": "application/x-www-form-urlencoded"},
    {"content-type": "multipart/form-data; boundary=x"},
    {"content-type": "text/json"},
    {"content-type": "application/jsonx"},
]
#: Requests a browser marks as coming from another page (TestClient's app is http://testserver).
ELSEWHERE: list[dict[str, str]] = [
    {"origin": "http://127.0.0.1:9999"},
    {"origin": "http://testserver:8080"},
    {"origin": "https://testserver"},
    {"origin": "http://testserver.example"},
    {"origin": "null"},
    {"origin": ""},
    {"sec-fetch-site": "same-site"},
    {"sec-fetch-site": "cross-site"},
    {"origin": "http://testserver", "sec-fetch-site": "same-site"},
]
#: What the app's own pages send.
HERE: list[dict[str, str]] = [
    {},
    {"origin": "http://testserver"},
    {"origin": "http://TestServer:80", "sec-fetch-site": "same-origin"},
    {"sec-fetch-site": "none"},
]
JSON = {"content-type": "application/json"}


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(tmp_path / "data", allow_hosts=["testserver"])


def changing_routes(app: FastAPI) -> Iterator[tuple[str, str]]:
    """Every (method, path) of the app that may change something, its path
    parameters filled in."""
    for route in app.routes:
        if isinstance(route, Route) and route.methods:
            for method in sorted(route.methods - SAFE_METHODS):
                yield method, route.path_format.format(**{name: "1" for name in route.param_convertors})


def test_the_walk_finds_every_kind_of_change(app: FastAPI) -> None:
    found = set(changing_routes(app))
    assert {("POST", "/api/games"), ("POST", "/api/games/1/actions"), ("POST", "/api/compare")} <= found
    assert {("POST", "/api/tables/1/end"), ("DELETE", "/api/tables/1/seats/1"), ("POST", "/api/tables/1/chat")} <= found
    assert all(method not in SAFE_METHODS for method, _ in found)


@pytest.mark.slow
def test_a_change_that_is_not_json_is_415(app: FastAPI) -> None:
    client = TestClient(app)
    for method, path in changing_routes(app):
        for headers in NOT_JSON:
            for content in (b"", b'{"action": "start"}'):
                answer = client.request(method, path, content=content, headers=headers)
                assert answer.status_code == 415, (method, path, headers, answer.text)
                assert "sends JSON (content-type: application/json)" in answer.json()["detail"]
                assert answer.headers["content-security-policy"]  # a refusal is an answer like any other


@pytest.mark.slow
def test_a_change_from_a_page_elsewhere_is_403(app: FastAPI) -> None:
    client = TestClient(app)
    for method, path in changing_routes(app):
        for headers in ELSEWHERE:
            answer = client.request(method, path, content=b"{}", headers={**JSON, **headers})
            assert answer.status_code == 403, (method, path, headers, answer.text)
            assert "only this app's own pages may change things here" in answer.json()["detail"]


def test_the_refusal_says_what_came_and_what_was_expected(app: FastAPI) -> None:
    client = TestClient(app)
    page = client.post("/api/tables", json={}, headers={"origin": "http://127.0.0.1:9999"}).json()["detail"]
    assert page.startswith("this request comes from a page at 'http://127.0.0.1:9999', not from this app ('http://testserver')")
    site = client.post("/api/tables", json={}, headers={"sec-fetch-site": "same-site"}).json()["detail"]
    assert "another site (Sec-Fetch-Site: 'same-site')" in site
    form = client.post("/api/tables", content=b"a=1", headers={"content-type": "application/x-www-form-urlencoded"})
    assert form.json()["detail"].endswith("got 'application/x-www-form-urlencoded'")


@pytest.mark.slow
def test_the_apps_own_pages_and_scripts_are_not_refused(app: FastAPI) -> None:
    client = TestClient(app)
    for method, path in changing_routes(app):
        for headers in HERE:
            for kind in ("application/json", "application/json; charset=utf-8", "Application/JSON"):
                answer = client.request(method, path, content=b"{}", headers={"content-type": kind, **headers})
                assert answer.status_code not in (403, 415), (method, path, headers, answer.text)
    made = client.post("/api/tables", json={}, headers={"origin": "http://testserver", "sec-fetch-site": "same-origin"})
    assert made.status_code == 201
    compared = client.post("/api/compare", json={"hands": ["AS KS QS JS TS", "2C 3C 4C 5C 7D"]}, headers={"origin": "http://testserver"})
    assert compared.status_code == 200 and compared.json()["winners"] == [1]


def test_reading_is_never_refused_for_where_it_comes_from(app: FastAPI) -> None:
    client = TestClient(app)
    for headers in ELSEWHERE:  # a link to a table followed from another site
        assert client.get("/tables", headers=headers).status_code == 200
        for path in ("/manifest.webmanifest", "/sw.js", "/offline"):  # the installed app's
            assert client.get(path, headers=headers).status_code == 200
        assert client.get("/", headers={"content-type": "text/plain", **headers}).status_code == 200


def _dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return list(db.iterdump())


@pytest.mark.slow
def test_refused_changes_change_nothing(app: FastAPI, tmp_path: Path) -> None:
    owner = TestClient(app)
    table = owner.post("/api/tables", json={"seed": 1}).json()["id"]
    game = owner.post("/api/games", json={"seed": 1}).json()["id"]
    owner.post(f"/api/tables/{table}/seats", json={"name": "Ann"})
    machine = owner.post("/api/machines", json={"paytable": "jacks-or-better-9-6", "seed": 1}).json()["id"]
    before = _dump(tmp_path / "data" / "games.sqlite3")
    ids = {"table_id": table, "game_id": game, "seat": "1", "paytable_id": "jacks-or-better-9-6", "machine_id": machine}
    for route in app.routes:
        if isinstance(route, Route) and route.methods:
            path = route.path_format.format(**{name: ids[name] for name in route.param_convertors})
            for method in route.methods - SAFE_METHODS:
                bodies = [b"", b'{"action":"start","text":"hi","name":"Eve"}', b"action=start&text=hi"]
                for content in bodies:
                    for headers in NOT_JSON:
                        assert owner.request(method, path, content=content, headers=headers).status_code == 415
                    for headers in ELSEWHERE:
                        assert owner.request(method, path, content=content, headers={**JSON, **headers}).status_code == 403
    assert _dump(tmp_path / "data" / "games.sqlite3") == before
