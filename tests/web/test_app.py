"""The web app's JSON API through the ASGI test client: every endpoint, every
illegal action, bad input, ownership, restart persistence, limits and
headers. The pages themselves are driven in a real browser by
``test_web_browser.py``."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import api_game_act, api_new_game

with warnings.catch_warnings():  # starlette's notice about its test client's HTTP library
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from fivecard import showdown
from fivecard.core.report import showdown_json
from fivecard.play.game import Game
from fivecard.play.table_game import MAX_ROUNDS
from fivecard.play.view import a_hand
from fivecard.web import app as web
from fivecard.web.app import CSP, MAX_BODY, OWNER_COOKIE, create_app

ROYAL = "AS KS QS JS TS"
PAIR = "2C 2D 3H 4S 5C"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def client(data: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data, allow_hosts=["testserver"])) as made:
        yield made


def refused(client: TestClient, game_id: str, action: str, status: int = 409, **fields: Any) -> str:
    response = client.post(f"/api/games/{game_id}/actions", json={"action": action, **fields})
    assert response.status_code == status, response.text
    detail: str = response.json()["detail"]
    return detail


# --- hands ---------------------------------------------------------------------------------


def test_evaluate_answers_as_classify_json(client: TestClient) -> None:
    response = client.post("/api/evaluate", json={"hand": "10h jh qh kh ah"})
    assert response.status_code == 200
    data = response.json()
    assert data["name"] == "Royal Flush" and data["input"] == "10h jh qh kh ah" and data["score"] == 10
    semi = client.post("/api/evaluate", json={"hand": "Q Q Q Q Q", "rules": "semi"}).json()
    assert semi["name"] == "Five of a Kind"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"hand": "AS KS QS JS"}, "expected 5 cards, got 4 in 'AS KS QS JS'"),
        ({"hand": "AS KS QS JS ZZ"}, "unknown card 'ZZ'"),
        ({"hand": ROYAL, "rules": "nope"}, "unknown rule set 'nope'"),
        ({"hand": "A" * 300}, "hand: String should have at most 200 characters"),
        ({}, "hand: Field required"),
        ({"hand": 5}, "hand: Input should be a valid string"),
    ],
)
def test_bad_hands_are_422_with_the_librarys_message(client: TestClient, body: Any, message: str) -> None:
    response = client.post("/api/evaluate", json=body)
    assert response.status_code == 422
    assert message in response.json()["detail"]
    assert "Traceback" not in response.text


def test_compare_answers_as_compare_json(client: TestClient) -> None:
    hands = ["8C TS KC 9H 4S", "7D 2S 5D 3S AC"]
    response = client.post("/api/compare", json={"hands": hands})
    assert response.status_code == 200
    assert response.json() == json.loads(json.dumps(showdown_json(showdown(hands), hands)))
    split = client.post("/api/compare", json={"hands": ["AS KD 7C 7H 2S", "AH KC 7D 7S 2C", "3C 3D 4H 5S 9C"]}).json()
    assert split["winners"] == [1, 2] and split["explanation"].startswith("Hands 1 and 2 split")


def test_compare_and_evaluate_play_the_best_five(client: TestClient) -> None:
    holdem = {"hands": ["QS JS", "7C 7H"], "board": "AS KS 7D 2C 9H"}
    response = client.post("/api/compare", json=holdem)
    assert response.status_code == 200
    expected = showdown(holdem["hands"], board=holdem["board"])
    assert response.json() == json.loads(json.dumps(showdown_json(expected, holdem["hands"])))
    assert response.json()["board"] == ["As", "Ks", "7d", "2c", "9h"]
    stud = client.post("/api/compare", json={"hands": ["AS AH KS KH 2C 3D 4H", "AD AC KD KC 2S 3H 5D"], "best_five": True})
    assert stud.json()["explanation"] == "Hand 2 wins: both Two Pair of Aces and Kings; the fifth card decides, 5 beats 4"
    seven = client.post("/api/evaluate", json={"hand": "AS KS QS JS TS 9S 2D", "best_five": True}).json()
    assert seven["description"] == "Royal Flush" and seven["unused"] == ["9s", "2d"]
    six = client.post("/api/evaluate", json={"hand": "AS KS QS JS TS 9S"})
    assert six.status_code == 422 and "play their best five when asked" in six.json()["detail"]
    clash = client.post("/api/compare", json={"hands": ["QS JS", "7C 7H"], "board": "AS KS 7D 2C QS"})
    assert clash.status_code == 422 and "duplicate card Q♠" in clash.json()["detail"]


def test_compare_errors_name_the_hand(client: TestClient) -> None:
    bad = client.post("/api/compare", json={"hands": [ROYAL, "AS 2C 3D 4H 5S"]})
    assert bad.status_code == 422 and "is in hands 1 and 2" in bad.json()["detail"]
    assert client.post("/api/compare", json={"hands": [ROYAL, "AS 2C 3D 4H 5S"], "decks": 2}).status_code == 200
    unknown = client.post("/api/compare", json={"hands": [ROYAL, "XX 2C 3D 4H 5S"]})
    assert unknown.status_code == 422 and unknown.json()["detail"].startswith("hand 2: unknown card 'XX'")
    assert client.post("/api/compare", json={"hands": []}).status_code == 422
    assert client.post("/api/compare", json={"hands": [PAIR] * 11}).status_code == 422


@pytest.mark.slow
def test_advise_gives_the_best_choices(client: TestClient) -> None:
    data = client.post("/api/advise", json={"hand": "AS AD 7C 4H 2S", "top": 3}).json()
    assert len(data["choices"]) == 3 and data["recommended"] == 0
    assert sorted(data["choices"][0]["keep"]) == ["Ad", "As"]
    assert 0 < data["choices"][0]["win"] < 1
    paid = client.post("/api/advise", json={"hand": "AS AD 7C 4H 2S", "paytable": "jacks-or-better", "top": 1})
    assert paid.status_code == 200 and "ev" in paid.json()["choices"][0]
    assert paid.json()["choices"][0]["likeliest"] == {"name": "one_pair_J-A", "label": "Jacks or Better (pays 1)",
                                                      "chance": paid.json()["choices"][0]["final"]["one_pair_J-A"]}
    wild = client.post("/api/advise", json={"hand": "2H 2D 7C 8S 9S", "paytable": "deuces-wild", "top": 1})
    assert wild.status_code == 200 and wild.json()["rules"] == "deuces-wild"  # the table's own rule set
    refused = client.post("/api/advise", json={"hand": "2H 2D 7C 8S 9S", "paytable": "deuces-wild", "rules": "joker"})
    assert refused.status_code == 422 and "plays under the deuces-wild rules, not joker" in refused.json()["detail"]
    bad = client.post("/api/advise", json={"hand": "AS AD 7C 4H 2S", "paytable": "no-such-table"})
    assert bad.status_code == 422 and "no-such-table" in bad.json()["detail"]


# --- games ----------------------------------------------------------------------------------


def test_a_new_game_sets_an_httponly_owner_cookie(client: TestClient) -> None:
    response = client.post("/api/games", json={"rules": "joker", "seed": 1})
    assert response.status_code == 201
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{OWNER_COOKIE}=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    game = response.json()
    assert response.headers["location"] == f"/api/games/{game['id']}"
    assert game["rules"] == "joker" and game["phase"] == "idle" and game["can"]["start"]
    assert len(game["id"]) >= 20  # unguessable
    # its next game gives it a fresh secret, which keeps the first game too
    first = client.cookies[OWNER_COOKIE]
    again = client.post("/api/games", json={})
    assert again.status_code == 201 and again.headers["set-cookie"].startswith(f"{OWNER_COOKIE}=")
    assert client.cookies[OWNER_COOKIE] != first
    assert client.get(f"/api/games/{game['id']}").status_code == 200


@pytest.mark.slow
def test_a_round_through_the_api(client: TestClient) -> None:
    game_id = api_new_game(client)["id"]
    state = api_game_act(client, game_id, "start")
    assert state["phase"] == "draw" and state["turn"] == 0 and state["pot"] == 30
    you, first, second = state["seats"]
    assert len(you["cards"]) == 5 and you["cards"][0]["label"].count(" of ") == 1
    assert first["cards"] is None and second["cards"] is None  # face down
    hint = client.get(f"/api/games/{game_id}/hint").json()
    assert len(hint["choices"]) == 5 and hint["choices"][0]["positions"] == [0, 1, 2, 3]
    state = api_game_act(client, game_id, "exchange", keep=[1, 2, 3, 4])
    types = [e["type"] for e in state["events"]]
    assert types == ["round_started", "exchanged", "exchanged", "exchanged"] or "folded" in types
    mine = state["events"][1]
    assert mine["text"] == "You exchange 1 card" and len(mine["drawn"]) == 1
    # a computer's cards stay hidden: how many it drew, nothing about which
    assert all(set(e) <= {"type", "round", "seat", "count", "text"} for e in state["events"][2:])
    assert state["phase"] == "dealer"
    for position in range(1, 6):
        state = api_game_act(client, game_id, "reveal")
        assert len(state["dealer"]) == position
        assert state["events"][-1]["text"].startswith(f"The dealer's card {position}: ")
    state = api_game_act(client, game_id, "settle")
    settled = state["events"][-1]
    assert state["phase"] == "idle" and settled["type"] == "round_settled"
    assert len(settled["dealer_cards"]) == 5 and all(len(r["cards"]) == 5 for r in settled["results"] if r["hand"])
    # the books: what the seats gained on the house bets, the house lost
    assert sum(seat["stack"] for seat in state["seats"]) + state["pot"] - 3000 == sum(
        r["house"] for r in settled["results"]
    )
    assert state["history"] == [
        {
            "round": 1,
            "outcome": settled["results"][0]["outcome"],
            "hand": settled["results"][0]["hand"]["name"],
            "dealer": settled["dealer"]["name"],
            "dealer_had": a_hand(settled["dealer"]["name"]),
            "pot": 30,
            "pot_winners": settled["pot_winners"],
            "stack": state["seats"][0]["stack"],
            "text": settled["text"],
        }
    ]


@pytest.mark.slow
def test_the_api_plays_as_the_engine(client: TestClient) -> None:
    # The same seed and actions through the API and through the library.
    game_id = api_new_game(client, rules="ace-king", seed=77)["id"]
    engine = Game(rules="ace-king", seed=77)
    for _ in range(3):
        api_game_act(client, game_id, "start")
        engine.start_round()
        api_game_act(client, game_id, "keep")
        engine.exchange(0, [0, 1, 2, 3, 4])
        while engine.can_computer_act():
            engine.computer_acts()
        for _ in range(5):
            api_game_act(client, game_id, "reveal")
            engine.reveal_dealer_card()
        state = api_game_act(client, game_id, "settle")
        engine.settle()
        assert [s["stack"] for s in state["seats"]] == engine.stacks and state["pot"] == engine.pot


@pytest.mark.parametrize(
    ("setup", "action", "fields", "status", "reason"),
    [
        ([], "exchange", {"keep": [1]}, 409, "no seat is to act now"),
        ([], "reveal", {}, 409, "the dealer's cards come after the draw (now: idle)"),
        ([], "settle", {}, 409, "the showdown comes after the dealer's five cards (now: idle)"),
        (["start"], "start", {}, 409, "round 1 is still in play"),
        (["start"], "exchange", {"keep": [0, 6]}, 422, "keep.0: Input should be greater than or equal to 1"),
        (["start"], "exchange", {"keep": [2, 2]}, 409, "a card position is given twice"),
        (["start"], "reveal", {}, 409, "(now: draw)"),
        (["start", "fold"], "fold", {}, 409, "no seat is to act now"),
        (["start"], "deal", {}, 422, "action: Input should be"),
        (["start"], "exchange", {"keep": [1, 2, 3, 4, 5, 1]}, 422, "keep: List should have at most 5 items"),
    ],
)
@pytest.mark.slow
def test_illegal_actions_are_refused_with_the_engines_reason(
    client: TestClient, setup: list[str], action: str, fields: dict[str, Any], status: int, reason: str
) -> None:
    game_id = api_new_game(client)["id"]
    for step in setup:
        api_game_act(client, game_id, step)
    before = client.get(f"/api/games/{game_id}").json()
    assert reason in refused(client, game_id, action, status, **fields)
    assert client.get(f"/api/games/{game_id}").json() == before  # nothing changed


def test_a_hint_is_for_your_turn(client: TestClient) -> None:
    game_id = api_new_game(client)["id"]
    response = client.get(f"/api/games/{game_id}/hint")
    assert response.status_code == 409 and "your turn" in response.json()["detail"]


def test_game_over_when_you_cannot_pay(client: TestClient) -> None:
    game_id = api_new_game(client, stack=20)["id"]
    api_game_act(client, game_id, "start")
    state = api_game_act(client, game_id, "fold")
    while state["phase"] != "idle":
        state = api_game_act(client, game_id, "reveal" if state["phase"] == "dealer" else "settle")
    assert state["seats"][0]["stack"] == 0 and state["game_over"] and not state["can"]["start"]
    assert "cannot pay the ante and the bet" in refused(client, game_id, "start")


def test_a_dealer_game_has_a_bound_on_its_rounds_as_a_friends_table_has(client: TestClient, data: Path) -> None:
    """A friends' table ends after MAX_ROUNDS rounds; a dealer game never
    did while its chips lasted (a stack of up to 1,000,000 chips pays for
    50,000 rounds at a loss), and each round keeps about 6.6 KB of events:
    its history grew without bound. At its bound it is over: ``start`` is
    409 with a sentence, and the view says ``game_over``."""
    game_id = api_new_game(client, stack=1_000_000)["id"]
    with sqlite3.connect(data / "games.sqlite3") as db:
        (state,) = db.execute("SELECT state FROM table_games WHERE id = ?", (game_id,)).fetchone()
        played = json.loads(state) | {"rounds": MAX_ROUNDS, "played": MAX_ROUNDS}
        db.execute("UPDATE table_games SET state = ? WHERE id = ?", (json.dumps(played), game_id))
    assert refused(client, game_id, "start") == "this game has played 10,000 rounds, the most a game may: start a new game"
    view = client.get(f"/api/games/{game_id}").json()
    assert view["game_over"] and not view["can"]["start"] and view["seats"][0]["stack"] == 1_000_000


def test_another_browser_cannot_see_or_act_on_a_game(client: TestClient, data: Path) -> None:
    game_id = api_new_game(client)["id"]
    with TestClient(create_app(data, allow_hosts=["testserver"])) as stranger:
        for response in (
            stranger.get(f"/api/games/{game_id}"),
            stranger.post(f"/api/games/{game_id}/actions", json={"action": "start"}),
        ):
            assert response.status_code == 403 and "no games" in response.json()["detail"]
        stranger.post("/api/games", json={})  # now it has a secret of its own
        response = stranger.post(f"/api/games/{game_id}/actions", json={"action": "start"})
        assert response.status_code == 403 and "belongs to another browser" in response.json()["detail"]
    assert client.get(f"/api/games/{game_id}").json()["phase"] == "idle"
    missing = client.get("/api/games/no-such-game")
    assert missing.status_code == 404 and "no game 'no-such-game'" in missing.json()["detail"]


def test_a_game_survives_a_restart(client: TestClient, data: Path) -> None:
    game_id = api_new_game(client)["id"]
    api_game_act(client, game_id, "start")
    state = api_game_act(client, game_id, "exchange", keep=[2, 4])
    api_game_act(client, game_id, "reveal")
    state = api_game_act(client, game_id, "reveal")
    assert state["phase"] == "dealer"
    # a new app on the same data folder: the same browser carries on
    with TestClient(create_app(data, allow_hosts=["testserver"])) as restarted:
        restarted.cookies.set(OWNER_COOKIE, client.cookies[OWNER_COOKIE])
        after = restarted.get(f"/api/games/{game_id}").json()
        assert after == state
        for _ in range(3):
            after = api_game_act(restarted, game_id, "reveal")
        assert api_game_act(restarted, game_id, "settle")["history"][0]["round"] == 1
    assert (data / "games.sqlite3").exists()
    import sqlite3

    with sqlite3.connect(data / "games.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_actions_on_one_game_at_once_run_one_after_the_other(client: TestClient) -> None:
    game_id = api_new_game(client)["id"]
    results: list[int] = []

    def start() -> None:
        results.append(client.post(f"/api/games/{game_id}/actions", json={"action": "start"}).status_code)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [200, 409, 409, 409]  # exactly one round started
    assert client.get(f"/api/games/{game_id}").json()["rounds"] == 1


# --- numbers -------------------------------------------------------------------------------

#: Numbers out of every range the API takes: SQLite's 64 bits and beyond, and below zero.
BAD_NUMBERS = [2**63, -1, 2**64, 10**100, -(2**63) - 1]


def _alternatives(schema: dict[str, Any], schemas: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The schemas a value may match (``anyOf`` and ``$ref`` followed)."""
    if "$ref" in schema:
        yield from _alternatives(schemas[schema["$ref"].rsplit("/", 1)[1]], schemas)
    elif "anyOf" in schema:
        for option in schema["anyOf"]:
            yield from _alternatives(option, schemas)
    else:
        yield schema


def integer_inputs(document: dict[str, Any]) -> Iterator[tuple[str, str, str, str, dict[str, Any]]]:
    """Every integer the API takes, from its OpenAPI document: (method, path,
    where: path, query, header, body or item (of a body's list), name, schema)."""
    schemas = document["components"]["schemas"]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                for schema in _alternatives(parameter["schema"], schemas):
                    if schema.get("type") == "integer":
                        yield method, path, parameter["in"], parameter["name"], schema
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            for model in _alternatives(body, schemas) if body else ():
                for name, field in model.get("properties", {}).items():
                    for schema in _alternatives(field, schemas):
                        if schema.get("type") == "integer":
                            yield method, path, "body", name, schema
                        elif schema.get("type") == "array":
                            for item in _alternatives(schema["items"], schemas):
                                if item.get("type") == "integer":
                                    yield method, path, "item", name, item


def _ask(client: TestClient, method: str, path: str, where: str, name: str, value: Any) -> Any:
    url = path.replace("{" + name + "}", str(value)) if where == "path" else path
    url = re.sub(r"\{\w+\}", "some-id", url)
    headers = {"content-type": "application/json"}
    params, body = {}, None
    if where == "query":
        params[name] = str(value)
    elif where == "header":
        headers[name] = str(value)
    elif where == "body":
        body = {name: value}
    elif where == "item":
        body = {name: [value]}
    content = json.dumps(body).encode() if body is not None else None
    return client.request(method.upper(), url, params=params, headers=headers, content=content)


def test_every_integer_the_api_takes_has_a_range(client: TestClient) -> None:
    inputs = list(integer_inputs(client.get("/openapi.json").json()))
    names = {(path, name) for _, path, _, name, _ in inputs}
    assert {("/api/tables/{table_id}/events", "after"), ("/api/tables/{table_id}/events", "last-event-id")} <= names
    assert {("/api/tables/{table_id}/seats/{seat}", "seat"), ("/api/games/{game_id}/actions", "keep")} <= names
    for method, path, where, name, schema in inputs:
        assert "minimum" in schema and ("maximum" in schema or "exclusiveMaximum" in schema), (method, path, name)
        assert float(schema.get("maximum", schema.get("exclusiveMaximum", 0))) <= 2**63, (method, path, name)


def test_numbers_out_of_range_are_422_everywhere(client: TestClient) -> None:
    """Walked from the OpenAPI document, so a number added later is covered."""
    for method, path, where, name, schema in integer_inputs(client.get("/openapi.json").json()):
        for value in BAD_NUMBERS + (["9" * 5000] if where in ("path", "query", "header") else []):
            answer = _ask(client, method, path, where, name, value)
            assert answer.status_code == 422, (method, path, where, name, value, answer.text)
            assert name in answer.json()["detail"], (name, answer.text)
        fine = _ask(client, method, path, where, name, int(schema["minimum"]))
        assert fine.status_code != 422 or name not in fine.json()["detail"], (method, path, name, fine.text)


def test_the_event_stream_refuses_a_number_past_sqlites(client: TestClient) -> None:
    table_id = client.post("/api/tables", json={}).json()["id"]
    for value in (str(2**63), "99999999999999999999", "-1", "x"):
        answer = client.get(f"/api/tables/{table_id}/events", headers={"last-event-id": value})
        assert answer.status_code == 422 and "last-event-id" in answer.json()["detail"], answer.text
        answer = client.get(f"/api/tables/{table_id}/events", params={"after": value})
        assert answer.status_code == 422 and "after" in answer.json()["detail"], answer.text


# --- limits, headers, errors ----------------------------------------------------------------


def test_every_response_has_the_security_headers(client: TestClient) -> None:
    for response in (
        client.get("/"),
        client.get("/check"),
        client.get("/strategy/jacks-or-better-9-6"),
        client.get("/api/strategy/no-such-game"),
        client.get("/static/app.css"),
        client.get("/openapi.json"),
        client.get("/manifest.webmanifest"),
        client.get("/sw.js"),
        client.get("/offline"),
        client.get("/no/such/page"),
        client.post("/api/evaluate", json={"hand": ROYAL}),
        client.post("/api/evaluate", json={}),
    ):
        assert response.headers["content-security-policy"] == CSP, response.url
        assert response.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in CSP and "unsafe-inline" not in CSP


def test_bodies_over_the_limit_are_refused(client: TestClient) -> None:
    big = json.dumps({"hand": ROYAL, "padding": "x" * MAX_BODY}).encode()
    response = client.post("/api/evaluate", content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413 and "over 65,536 bytes" in response.json()["detail"]
    assert response.headers["content-security-policy"] == CSP

    def chunks() -> Iterator[bytes]:  # no content-length: counted as it arrives
        for _ in range(MAX_BODY // 1000 + 2):
            yield b" " * 1000

    streamed = client.post("/api/evaluate", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413


def test_an_internal_error_is_500_without_a_traceback(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("a secret detail")

    monkeypatch.setattr(web, "showdown", broken)
    with TestClient(create_app(data, allow_hosts=["testserver"]), raise_server_exceptions=False) as client:
        response = client.post("/api/compare", json={"hands": [ROYAL, PAIR]})
    assert response.status_code == 500
    assert response.json() == {"detail": "internal error (the server's log says more)"}
    assert "secret" not in response.text and "Traceback" not in response.text


def test_the_openapi_document_describes_the_api_and_no_page_loads_a_cdn(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    assert {p for p in document["paths"] if not p.startswith("/api/tables")} == {
        "/api/evaluate",
        "/api/compare",
        "/api/advise",
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/hint",
        "/api/games/{game_id}/settings",
        "/api/strategy",
        "/api/strategy/{paytable_id}",
        "/api/machines",
        "/api/machines/{machine_id}",
        "/api/machines/{machine_id}/actions",
        "/api/machines/{machine_id}/log",
        "/api/machines/{machine_id}/log.csv",
        "/api/video-poker/{paytable_id}",
    }
    actions = document["components"]["schemas"]["ActionRequest"]["properties"]["action"]
    assert set(actions["enum"]) == {"start", "exchange", "keep", "fold", "reveal", "settle"}
    assert client.get("/docs").status_code == 404  # its page would load scripts from a CDN
    pages = ("/", "/check", "/play/some-id", "/check?hand=AS+KS+QS+JS+TS&hand=2c+3c+4c+5c+7d", "/strategy",
             "/video-poker", "/video-poker/some-id", "/offline", "/sw.js", "/manifest.webmanifest")  # fmt: skip
    for page in (*pages, "/strategy/jacks-or-better-9-6"):
        html = client.get(page).text
        assert "http://" not in html and "https://" not in html and "//cdn" not in html


def test_the_checker_page_shows_results_and_the_librarys_messages(client: TestClient) -> None:
    page = client.get("/check", params=[("hand", "8C TS KC 9H 4S"), ("hand", "7D 2S 5D 3S AC")])
    assert page.status_code == 200
    assert "Hand 2 wins: both High Card; the first card decides, A beats K" in page.text
    bad = client.get("/check", params=[("hand", ROYAL), ("hand", "AS KS QS JS")])
    assert "expected 5 cards, got 4 in &#39;AS KS QS JS&#39;" in bad.text
    rules = client.get("/check", params=[("rules", "nope"), ("hand", ROYAL)])
    assert rules.status_code == 200 and "unknown rule set &#39;nope&#39;" in rules.text


def test_the_checker_offers_every_rule_set_with_its_deck(client: TestClient) -> None:
    """Every built-in rule set is a choice of the checker, with its deck for
    the card grid (one joker in one-joker's, two in joker's, as the deck
    deals them), and a showdown under it is settled."""
    import html

    from fivecard.core.rules import RULE_SETS

    page = client.get("/check", params=[("rules", "one-joker"), ("hand", ROYAL), ("hand", "AH KH QH JK TH")])
    assert page.status_code == 200
    assert "Draw: both Royal Flush; a natural hand and a wild hand of equal value draw" in page.text
    assert '<option value="one-joker" data-summary=' in page.text and "selected>Joker Poker (one joker)<" in page.text
    options = re.findall(r'<option value="([^"]+)"', page.text)
    assert options == list(RULE_SETS)
    embedded = re.search(r'<script type="application/json" id="rule-decks">(.*?)</script>', page.text, re.S)
    assert embedded is not None
    decks = dict(zip(options, json.loads(html.unescape(embedded.group(1)))))
    for name, deck in decks.items():
        rules = RULE_SETS[name]
        assert deck["jokers"] == rules.jokers
        assert len(deck["cards"]) == len(set(rules.deck())), name  # each card once, the joker too
        assert sum(deck["copies"]) == len(rules.deck()), name  # and how many of it one deck holds
    assert (decks["one-joker"]["jokers"], len(decks["one-joker"]["cards"])) == (1, 53)


def test_check_page_data() -> None:
    data = web.check_page(["AS KS QS JS TS", "nonsense", "2C 2D 3H 4S 5C"], "standard")
    assert [h["error"] is None for h in data["hands"]] == [True, False, True]
    assert data["showdown"] is None  # not every hand is good
    clash = web.check_page(["AS KS QS JS TS", "AS 2C 3D 4H 5S"], "standard")
    assert clash["showdown"] is None and "is in hands 1 and 2" in clash["error"]
    good = web.check_page(["AS KS QS JS TS", "2C 2D 3H 4S 5C"], "royal")
    assert good["error"] is not None and "unknown rule set 'royal'" in good["error"]


def test_a_blank_hand_is_no_hand_in_the_form_and_in_the_url(client: TestClient) -> None:
    """The form sends its empty boxes (``?hand=AS...&hand=``), a URL need
    not (``?hand=AS...``): both are the same hands, and the same page."""
    one = web.check_page([ROYAL], "standard")
    for texts in ([ROYAL, ""], [ROYAL, "   "], ["", ROYAL], ["", ROYAL, ""]):
        assert web.check_page(texts, "standard") == one
    assert one["texts"] == [ROYAL] and one["hands"][0]["error"] is None and one["showdown"] is None
    two = web.check_page(["", ROYAL, "", "2C 2D 3H 4S 5C"], "standard")
    assert two["texts"] == [ROYAL, "2C 2D 3H 4S 5C"] and two["showdown"]["winners"] == [1]
    pages = [client.get("/check", params=[("hand", t) for t in texts]).text for texts in ([ROYAL], [ROYAL, ""], ["", ROYAL])]
    assert pages[0] == pages[1] == pages[2] and "empty" not in pages[0] and "Royal Flush" in pages[0]


# --- fivecard serve ------------------------------------------------------------------------


def _serve(argv: list[str]) -> tuple[int, str, str]:
    import io

    from fivecard.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(["serve", *argv], stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_serve_check_starts_the_app_and_asks_it_once(data: Path) -> None:
    code, out, err = _serve(["--check", "--port", "0", "--data", str(data)])
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("fivecard: Poker vs Dealer at http://127.0.0.1:")
    assert "200 the compare API: Hand 2 wins: both High Card; the first card decides, A beats K" in lines
    assert lines[-1] == "ok: the app works" and (data / "games.sqlite3").exists()


def test_serve_says_in_one_line_why_it_cannot_start(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, out, err = _serve(["--port", str(port), "--data", str(data)])
    assert code == 2 and err == f"fivecard: error: cannot listen on 127.0.0.1 port {port}: the port is taken (is fivecard serve running already?)\n"
    code, _, err = _serve(["--port", "70000", "--data", str(data)])
    assert code == 2 and "a port is 0 to 65535" in err
    code, _, err = _serve(["--host", "no.such.host.invalid", "--data", str(data)])
    assert code == 2 and "not an address this computer can listen on" in err
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if the web extra were not installed
    code, _, err = _serve(["--check", "--port", "0", "--data", str(data)])
    assert code == 2 and err.startswith("fivecard: error: fivecard serve needs the web extra (missing: uvicorn)")
    assert "pip install 'fivecard[web]'" in err and len(err.splitlines()) == 1


def test_the_web_refusals_are_no_bad_input_and_storage_failures_are_os_errors() -> None:
    """Bad input is the library's FivecardError (a ValueError, 422); the
    server's own refusals (:mod:`fivecard.web.errors`) are not, each with its
    HTTP status; a data folder that cannot keep a change is an OSError."""
    import inspect

    from fivecard.core.errors import FivecardError
    from fivecard.play.table_game import GameError
    from fivecard.web import errors, store

    found = [c for _, c in inspect.getmembers(errors, inspect.isclass) if c.__module__ == errors.__name__]
    refusals = [c for c in found if issubclass(c, errors.WebError)]
    assert refusals == found
    assert {c.__name__ for c in refusals} == set(errors.__all__)
    assert errors.WebError.status == 400  # (raised as itself: two owner cookies)
    statuses = {c.__name__: c.status for c in refusals if c is not errors.WebError}
    assert statuses == {
        "NotFound": 404, "NotYours": 403, "TooFast": 429, "AtCapacity": 503, "AdvisorBusy": 503,
    }  # fmt: skip
    for refusal in refusals:
        assert not issubclass(refusal, (ValueError, OSError))
    for failure in (store.StorageError, store.StorageFull, store.StorageUnavailable):
        assert issubclass(failure, OSError) and not issubclass(failure, (ValueError, errors.WebError))
    assert (store.StorageFull.status, store.StorageUnavailable.status) == (507, 503)
    assert issubclass(GameError, FivecardError) and issubclass(FivecardError, ValueError)


def test_the_pages_scripts_know_no_card_notation() -> None:
    """Every card a page draws is the server's card object (view.card_json),
    and the card grid is the server's deck (view.deck_json): no script holds
    a suit's sign or name, a rank's word, or reads a card's code."""
    static = Path(web.__file__).parent / "static"
    scripts = sorted(static.glob("*.js"))
    assert {p.name for p in scripts} >= {"common.js", "check.js", "friends.js", "table.js"}
    notation = re.compile(r"[♠♥♦♣]|spades|hearts|diamonds|clubs|\b(?:Ace|King|Queen|Jack|Ten)\b|code\[|\"JK\"")
    for script in scripts:
        assert notation.findall(script.read_text()) == [], script.name
