"""A table for friends through its API and event stream (the ASGI test
client): seats, rounds, hidden hands, points and ties, host-only actions,
retried requests applied once, a restart on the same database, the event
stream resumed after the last event seen, chat, export, limits; one hand a
round for each browser, whatever seats it takes; what a table keeps (chat,
request ids) and what reading it costs (the export, a stream resumed from
far back) bounded."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import sqlite3
import threading
import time
import tracemalloc
import warnings
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from fastapi import FastAPI

import fivecard.web.friends_api
from fivecard import showdown
from fivecard.files.solve import solve_file
from fivecard.play.friends import KEPT_CHAT, MAX_JOINS, MAX_NAME, FriendsTable
from fivecard.play.table_game import GameError, round_deck, round_seed
from fivecard.web.app import create_app
from fivecard.web.errors import AtCapacity
from fivecard.files.writers.cells import inert
from fivecard.web.friends_api import REPLAY, Exports, _named_csv_line, _PlaceTaken, _Played
from fivecard.web.store import FRIENDS_TABLES, KEPT_REQUEST_IDS, Database, TableGameStore


#: The longest a test waits for the app to do what it says (it does it well before).
PATIENCE = 10.0


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def app(data: Path) -> FastAPI:
    return create_app(data, allow_hosts=["testserver"])


def browser(app: FastAPI) -> TestClient:
    return TestClient(app)


def open_table(host: TestClient, **settings: Any) -> str:
    response = host.post("/api/tables", json={"rules": "standard", "seed": 7, **settings})
    assert response.status_code == 201, response.text
    table_id: str = response.json()["id"]
    assert response.headers["location"] == f"/api/tables/{table_id}"
    return table_id


def post(client: TestClient, path: str, status: int = 200, **body: Any) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    return data


def seated(app: FastAPI, table_id: str, *names: str) -> list[TestClient]:
    players = []
    for name in names:
        player = browser(app)
        view = post(player, f"/api/tables/{table_id}/seats", 201, name=name)
        assert view["seats"][view["you"] - 1]["name"] == name
        players.append(player)
    return players


def events(client: TestClient, table_id: str, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
    """Every event after ``after`` (the stream is read until it has them all)."""
    last = client.get(f"/api/tables/{table_id}").json()["last_event"]
    found: list[tuple[int, dict[str, Any]]] = []
    if last <= after:
        return found
    with client.stream("GET", f"/api/tables/{table_id}/events", params={"after": after}) as stream:
        seq = 0
        for line in stream.iter_lines():
            if line.startswith("id: "):
                seq = int(line[4:])
            elif line.startswith("data: "):
                found.append((seq, json.loads(line[6:])))
                if seq == last:
                    break
    return found


# --- a table's life -------------------------------------------------------------------------


def test_a_round_settles_when_everyone_has_dealt(app: FastAPI) -> None:
    host = browser(app)
    table_id = open_table(host, rules="semi")
    ann, bob = seated(app, table_id, "Ann", "Bob")
    assert post(host, f"/api/tables/{table_id}/rounds")["round"]["number"] == 1
    mine = post(ann, f"/api/tables/{table_id}/deal")
    assert len(mine["round"]["your_hand"]) == 5 and mine["round"]["open"]
    # Bob sees that Ann dealt, never her cards
    seen = bob.get(f"/api/tables/{table_id}").json()
    assert seen["round"]["dealt"] == [1] and seen["round"]["your_hand"] is None
    assert all("cards" not in e and "hands" not in e for _, e in events(bob, table_id))
    closed = post(bob, f"/api/tables/{table_id}/deal")
    assert not closed["round"]["open"] and closed["played"] == 1
    settled = events(host, table_id)[-1][1]
    assert settled["type"] == "round_closed"
    # the hands are the round's deck in dealing order, settled by the library
    deck = [c.code_str for c in round_deck("semi", round_seed(7, 1))]
    assert [h["cards"] for h in settled["hands"]] == [deck[:5], deck[5:10]]
    result = showdown([" ".join(h["cards"]) for h in settled["hands"]], rules="semi")
    assert settled["winners"] == [[1, 2][i] for i in result.winners]
    points = {s["name"]: s["points"] for s in closed["standings"]}
    if len(result.winners) == 1:
        assert sorted(points.values()) == [0, 25] and settled["text"].startswith("Round 1: ")
        assert settled["explanation"] == result.explanation.replace("Hand 1", "Ann").replace("Hand 2", "Bob")
    else:
        assert points == {"Ann": 0, "Bob": 0}


#: A table seed whose first round, dealt to two seats, is a tie (two hands of
#: one rank multiset: about one round in ten thousand; found by a search of
#: seeds, and checked with the library here).
TIED_SEED = 22180


def _tied_seed(rules: str = "semi") -> int:
    deck = round_deck(rules, round_seed(TIED_SEED, 1))
    assert len(showdown([deck[:5], deck[5:10]], rules=rules).winners) == 2
    return TIED_SEED


@pytest.mark.parametrize(("tie", "expected"), [("none", [0, 0]), ("split", [13, 12])])
def test_a_tie_scores_as_the_table_says(app: FastAPI, tie: str, expected: list[int]) -> None:
    host = browser(app)
    table_id = open_table(host, rules="semi", seed=_tied_seed(), tie=tie)
    ann, bob = seated(app, table_id, "Ann", "Bob")
    post(host, f"/api/tables/{table_id}/rounds")
    post(ann, f"/api/tables/{table_id}/deal")
    view = post(bob, f"/api/tables/{table_id}/deal")
    assert [s["points"] for s in sorted(view["standings"], key=lambda s: s["seat"])] == expected
    text = events(host, table_id)[-1][1]["text"]
    assert ("nobody scores" in text) == (tie == "none") and ("split 25 points" in text) == (tie == "split")


def test_the_host_closes_a_round_and_ends_the_table(app: FastAPI) -> None:
    host = browser(app)
    table_id = open_table(host, rounds=2)
    ann, bob, cy = seated(app, table_id, "Ann", "Bob", "Cy")
    post(host, f"/api/tables/{table_id}/rounds")
    post(ann, f"/api/tables/{table_id}/deal")
    view = post(host, f"/api/tables/{table_id}/close")  # Bob and Cy never dealt
    settled = events(host, table_id)[-1][1]
    assert len(settled["hands"]) == 1 and settled["winners"] == [1]
    assert view["standings"][0] == {"seat": 1, "name": "Ann", "points": 25, "active": True}
    post(host, f"/api/tables/{table_id}/rounds")
    post(bob, f"/api/tables/{table_id}/deal")
    post(cy, f"/api/tables/{table_id}/deal")
    view = post(ann, f"/api/tables/{table_id}/deal")  # the second round of two: the table ends
    assert view["ended"] and events(host, table_id)[-1][1]["type"] == "table_ended"
    assert "ended" in post(host, f"/api/tables/{table_id}/rounds", 409)["detail"]


@pytest.mark.parametrize(
    ("who", "path", "status", "message"),
    [
        ("ann", "rounds", 403, "only the table's host"),
        ("ann", "close", 403, "only the table's host"),
        ("ann", "end", 403, "only the table's host"),
        ("watcher", "deal", 403, "take a seat to deal"),
        ("watcher", "chat", 403, "take a seat to chat"),
        ("ann", "deal", 409, "no round is open"),
        ("host", "close", 409, "no round is open"),
    ],
)
@pytest.mark.slow
def test_who_may_do_what(app: FastAPI, who: str, path: str, status: int, message: str) -> None:
    host = browser(app)
    table_id = open_table(host)
    (ann,) = seated(app, table_id, "Ann")
    client = {"host": host, "ann": ann, "watcher": browser(app)}[who]
    body = {"text": "hello"} if path == "chat" else {}
    assert message in post(client, f"/api/tables/{table_id}/{path}", status, **body)["detail"]
    removed = client.delete(f"/api/tables/{table_id}/seats/1", headers={"content-type": "application/json"})
    assert removed.status_code == (200 if who == "host" else 403)


def test_seats_names_and_rejoining(app: FastAPI) -> None:
    host = browser(app)
    table_id = open_table(host)
    (ann,) = seated(app, table_id, "Ann")
    again = post(ann, f"/api/tables/{table_id}/seats", 201, name="Another name")
    assert again["you"] == 1 and len(again["seats"]) == 1  # the same browser keeps its seat
    taken = browser(app).post(f"/api/tables/{table_id}/seats", json={"name": "  ann "})
    assert taken.status_code == 409 and "the name 'ann' is taken" in taken.json()["detail"]
    assert browser(app).post(f"/api/tables/{table_id}/seats", json={"name": "x" * 41}).status_code == 422
    assert browser(app).post(f"/api/tables/{table_id}/seats", json={"name": "   "}).status_code == 409
    # a name that looks like another's, or like a role, is refused and says why
    for name, message in [
        ("ＡＮＮ", "the name 'ANN' is taken"),
        ("Ann\u200b", "cannot hold U+200B (ZERO WIDTH SPACE)"),
        ("\u202eAnn", "cannot hold U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("Host", "'Host' is a word the table uses for a role"),
        ("\u0410nn", "mixes Cyrillic and Latin letters in one word"),  # a Cyrillic А
        ("\u0391\u039d\u039d", "is taken"),  # ΑΝΝ in Greek capitals
        ("\u041d\u043est", "is a word the table uses for a role"),  # Host with a Cyrillic Н and о
    ]:
        refused = browser(app).post(f"/api/tables/{table_id}/seats", json={"name": name})
        assert refused.status_code == 409 and message in refused.json()["detail"], refused.text
        assert "set-cookie" not in refused.headers
    watcher = browser(app).get(f"/api/tables/{table_id}").json()
    assert watcher["you"] is None and not watcher["host"]
    for name in "BCDEFGHIJ":
        seated(app, table_id, name)
    full = browser(app).post(f"/api/tables/{table_id}/seats", json={"name": "K"})
    assert full.status_code == 409 and "the table is full" in full.json()["detail"]


#: Role's words drawn in every way that passed for them: letters of scripts
#: not in common use (Lisu, Cherokee), symbols drawn as letters, small
#: capitals, regional indicators, modifier letters.
DRAWN_AS_ROLES = {
    "Lisu HOST": "\ua4e7\ua4f3\ua4e2\ua4d4",  # XA, O, SA, TA
    "Lisu YOU": "\ua4ec\ua4f3\ua4f4",  # YA, O, U
    "Lisu DEALER": "\ua4d3\ua4f0\ua4ee\ua4e1\ua4f0\ua4e3",  # DA, E, A, LA, E, ZHA
    "Cherokee DEALER": "\u13a0\u13ac\u13aa\u13de\u13ac\u13a1",  # A, GV, GO, TLE, GV, E
    "negative squared HOST": "\U0001f177\U0001f17e\U0001f182\U0001f183",
    "small capitals HOST": "\u029c\u1d0f\ua731\u1d1b",
    "regional indicators HOST": "\U0001f1ed\U0001f1f4\U0001f1f8\U0001f1f9",
    "modifier letters HOST": "\u1d34\u1d3c\u02e2\u1d40",
}
#: ``ANN`` drawn in every way that passed for it.
DRAWN_AS_ANN = {
    "Lisu": "\ua4ee\ua4e0\ua4e0",  # A, NA, NA
    "Coptic": "\u2c80\u2c9a\u2c9a",  # ALFA, NI, NI
    "negative squared": "\U0001f170\U0001f17d\U0001f17d",
    "small capitals": "\u1d00\u0274\u0274",
    "regional indicators": "\U0001f1e6\U0001f1f3\U0001f1f3",
    "modifier letters": "\u1d2c\u1d3a\u1d3a",
}


@pytest.mark.parametrize("name", DRAWN_AS_ROLES.values(), ids=DRAWN_AS_ROLES.keys())
def test_a_name_drawn_as_a_role_word_is_refused_in_any_script(app: FastAPI, name: str) -> None:
    table_id = open_table(browser(app))
    joined = browser(app).post(f"/api/tables/{table_id}/seats", json={"name": name})
    assert joined.status_code == 409, f"{name!r} took a seat: {joined.json()['seats']}"
    assert "set-cookie" not in joined.headers


def test_a_name_drawn_as_a_seated_players_is_taken_in_any_script(app: FastAPI) -> None:
    table_id = open_table(browser(app))
    seated(app, table_id, "ANN")
    for how, name in DRAWN_AS_ANN.items():
        joined = browser(app).post(f"/api/tables/{table_id}/seats", json={"name": name})
        assert joined.status_code == 409, f"{name!r} ({how}) sat beside ANN: {joined.json()['seats']}"
    assert [s["name"] for s in browser(app).get(f"/api/tables/{table_id}").json()["seats"]] == ["ANN"]


def test_bad_settings_are_422(app: FastAPI) -> None:
    host = browser(app)
    for body, message in [
        ({"rules": "nope"}, "unknown rule set 'nope'"),
        ({"tie": "coin"}, "tie: Input should be 'none' or 'split'"),
        ({"points": -1}, "points: Input should be greater than or equal to 0"),
        ({"rounds": 0}, "rounds: Input should be greater than or equal to 1"),
    ]:
        response = host.post("/api/tables", json=body)
        assert response.status_code == 422 and message in response.json()["detail"], response.text
    assert host.get("/api/tables/no-such-table").status_code == 404
    assert host.get("/api/tables/no-such-table/events").status_code == 404


# --- nothing lost, nothing twice ------------------------------------------------------------


def test_a_retried_request_is_applied_once(app: FastAPI) -> None:
    host = browser(app)
    table_id = open_table(host)
    ann, bob = seated(app, table_id, "Ann", "Bob")
    post(host, f"/api/tables/{table_id}/rounds", request_id="start-1")
    post(host, f"/api/tables/{table_id}/rounds", request_id="start-1")  # the answer was lost: sent again
    post(ann, f"/api/tables/{table_id}/deal", request_id="deal-1")
    post(bob, f"/api/tables/{table_id}/deal", request_id="deal-1")  # ids are per browser
    first = host.get(f"/api/tables/{table_id}").json()
    for client in (ann, bob):
        post(client, f"/api/tables/{table_id}/deal", request_id="deal-1")  # retried after the round closed
    post(host, f"/api/tables/{table_id}/chat", request_id="c", text="gg")
    post(host, f"/api/tables/{table_id}/chat", request_id="c", text="gg")
    after = host.get(f"/api/tables/{table_id}").json()
    assert after["standings"] == first["standings"] and after["played"] == 1
    kinds = [e["type"] for _, e in events(host, table_id)]
    assert kinds.count("round_started") == 1 and kinds.count("dealt") == 2 and kinds.count("round_closed") == 1
    assert kinds.count("chat") == 1
    # without an id, a repeated deal is refused by the table itself
    post(host, f"/api/tables/{table_id}/rounds")
    post(ann, f"/api/tables/{table_id}/deal")
    assert "dealt in round 2 already" in post(ann, f"/api/tables/{table_id}/deal", 409)["detail"]


def test_a_restart_mid_round_loses_nothing(app: FastAPI, data: Path) -> None:
    host = browser(app)
    table_id = open_table(host)
    ann, bob = seated(app, table_id, "Ann", "Bob")
    post(host, f"/api/tables/{table_id}/rounds")
    hand = post(ann, f"/api/tables/{table_id}/deal")["round"]["your_hand"]
    before = events(host, table_id)
    # the server dies (nothing is kept in its memory that the file does not hold): a fresh app
    fresh = create_app(data, allow_hosts=["testserver"])
    again = {name: TestClient(fresh, cookies=dict(client.cookies)) for name, client in [("host", host), ("ann", ann), ("bob", bob)]}
    view = again["ann"].get(f"/api/tables/{table_id}").json()
    assert view["round"]["your_hand"] == hand and view["round"]["dealt"] == [1]
    assert events(again["host"], table_id) == before
    post(again["bob"], f"/api/tables/{table_id}/deal")
    resumed = events(again["host"], table_id, after=before[-1][0])
    assert [e["type"] for _, e in resumed] == ["dealt", "round_closed"]
    assert [seq for seq, _ in resumed] == [before[-1][0] + 1, before[-1][0] + 2]


def test_the_stream_resumes_after_the_last_event_seen(app: FastAPI) -> None:
    host = browser(app)
    table_id = open_table(host)
    (ann,) = seated(app, table_id, "Ann")
    every = events(host, table_id)
    assert [seq for seq, _ in every] == [1, 2]
    with host.stream("GET", f"/api/tables/{table_id}/events", headers={"last-event-id": "1"}) as stream:
        lines = stream.iter_lines()
        assert next(lines) == "retry: 1000"
        got: list[str] = []
        sent = threading.Event()

        def say() -> None:  # while the stream waits, another browser acts
            post(ann, f"/api/tables/{table_id}/chat", text="hello <b>all</b>")
            sent.set()

        speaker = threading.Thread(target=say)
        speaker.start()
        for line in lines:
            got.append(line)
            if line.startswith("data: ") and '"chat"' in line:
                break
        speaker.join()
    assert sent.is_set()
    assert got[0:2] == ["", "id: 2"]  # event 1 is not sent again
    assert "id: 3" in got and "event: chat" in got
    chat = json.loads(got[-1][6:])
    assert chat["text"] == "hello <b>all</b>" and chat["name"] == "Ann"  # the page shows it as text


def test_chat_lines_are_plain_and_bounded(app: FastAPI) -> None:
    host = browser(app)
    table_id = open_table(host)
    post(host, f"/api/tables/{table_id}/chat", text="  two\tspaces \x07bell  ")
    assert events(host, table_id)[-1][1]["text"] == "two spaces bell"
    assert host.post(f"/api/tables/{table_id}/chat", json={"text": "x" * 501}).status_code == 422
    assert host.post(f"/api/tables/{table_id}/chat", json={"text": "\x00\x01"}).status_code == 409


@pytest.mark.slow
def test_requests_are_rate_limited(app: FastAPI) -> None:
    host = browser(app)
    table_id = open_table(host)
    codes = [host.post(f"/api/tables/{table_id}/chat", json={"text": f"line {i}"}).status_code for i in range(60)]
    assert codes[0] == 200 and 429 in codes
    refused = host.post(f"/api/tables/{table_id}/chat", json={"text": "again"})
    if refused.status_code == 429:
        assert refused.headers["retry-after"] == "1" and "too many requests" in refused.json()["detail"]


def _solved(closed: list[dict[str, Any]], fmt: str, rules: str) -> str:
    """What ``fivecard solve`` makes of the closed rounds: a line per round
    (its number), the hands dealt in the order dealt."""
    text = {int(e["round"]): " | ".join(" ".join(h["cards"]) for h in e["hands"]) for e in closed}
    expected = io.StringIO()
    lines = "".join(text.get(n, "") + "\n" for n in range(1, max(text, default=0) + 1))
    solve_file("-", format=fmt, rules=rules, stdin=io.StringIO(lines), stdout=expected)
    return expected.getvalue()


def _as_the_table_says(exported: str, fmt: str, closed: list[dict[str, Any]], rules: str) -> None:
    """The export is solve's answer for the table's rounds with every hand
    called by its seat's name, its winners and explanation as the table
    settled the round (a round of one hand too: its dealer won it); no CSV
    cell could run as a formula."""
    solved = _solved(closed, fmt, rules)
    by_round = {int(e["round"]): e for e in closed if e["hands"]}
    if fmt == "jsonl":
        rows, plain = [json.loads(line) for line in exported.splitlines()], [json.loads(line) for line in solved.splitlines()]
        assert [r["line"] for r in rows] == [r["line"] for r in plain] == sorted(by_round)
        for row, answer in zip(rows, plain):
            event = by_round[row["line"]]
            assert [(h.pop("seat"), h.pop("player")) for h in row["hands"]] == [(h["seat"], h["player"]) for h in event["hands"]]
            seats = [h["seat"] for h in event["hands"]]
            assert row["winners"] == [seats.index(w) + 1 for w in event["winners"]]
            assert row["explanation"] == event["explanation"]
            if answer["winners"] is None:  # one hand: solve classifies it only
                assert len(seats) == 1 and row["order"] == [[1]]
                answer.update(winners=row["winners"], order=row["order"])
            answer["explanation"] = row["explanation"]
            assert row == answer
        return
    rows, plain = list(csv.reader(io.StringIO(exported))), list(csv.reader(io.StringIO(solved)))
    hands = (len(plain[0]) - 5) // 3
    players = [2 + 4 * k for k in range(hands)]
    assert [rows[0][i] for i in players] == [f"hand {k + 1} player" for k in range(hands)]
    assert [c for i, c in enumerate(rows[0]) if i not in players] == plain[0]
    assert [int(r[0]) for r in rows[1:]] == [int(r[0]) for r in plain[1:]] == sorted(by_round)
    winner = 2 + 4 * hands
    for row, answer in zip(rows[1:], plain[1:]):
        event = by_round[int(row[0])]
        names = [h["player"] for h in event["hands"]]
        assert [row[i] for i in players] == [inert(n) for n in names] + [""] * (hands - len(names))
        said = [h["player"] for h in event["hands"] if h["seat"] in event["winners"]]
        assert row[winner : winner + 2] == [inert(" and ".join(said)), inert(event["explanation"])]
        answer[winner - hands : winner - hands + 2] = row[winner : winner + 2]
        assert [c for i, c in enumerate(row) if i not in players] == answer
    assert all(not c.lstrip(" ").startswith(("=", "+", "-", "@")) for row in rows for c in row)


def test_the_export_names_every_hand_by_its_seat(app: FastAPI) -> None:
    """The export said "hand 1", "hand 2": it names each hand's seat, its
    winners and the explanation, as the table's rounds do; a round closed
    with one hand dealt named no winner although its points were awarded:
    it names its dealer. Names are what players type: none is a formula
    in the CSV. Every role (host, seat, a browser that watches) gets the
    same export: the names and hands of closed rounds are every viewer's."""
    host = browser(app)
    table_id = open_table(host, rules="joker", seed=3, tie="split")
    ann, bob, cy = seated(app, table_id, "=HYPERLINK(\"x.example\",\"Ann\")", "-Bob", "@Cy, Jr")
    post(host, f"/api/tables/{table_id}/rounds")
    post(host, f"/api/tables/{table_id}/close")  # round 1: nobody dealt
    for dealers in ([ann, bob, cy], [bob], [cy, ann], [ann, bob, cy], [ann]):
        post(host, f"/api/tables/{table_id}/rounds")
        for dealer in dealers:
            post(dealer, f"/api/tables/{table_id}/deal")
        if len(dealers) < 3:
            post(host, f"/api/tables/{table_id}/close")
    closed = [e for _, e in events(host, table_id) if e["type"] == "round_closed"]
    alone = [e for e in closed if len(e["hands"]) == 1]
    assert len(alone) == 2 and all(e["awarded"] and e["winners"] for e in alone)
    watcher = browser(app)
    for fmt in ("csv", "jsonl"):
        answers = [c.get(f"/api/tables/{table_id}/export", params={"format": fmt}) for c in (host, ann, watcher)]
        assert [a.status_code for a in answers] == [200] * 3 and len({a.text for a in answers}) == 1
        _as_the_table_says(answers[0].text, fmt, closed, "joker")
    text = host.get(f"/api/tables/{table_id}/export").text
    assert "'=HYPERLINK" in text and "hand 1 player" in text and "Hand 1" not in text and "hand 2:" not in text
    assert host.get(f"/api/tables/{table_id}/export", params={"format": "xml"}).status_code == 409


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_an_export_solves_the_rounds_of_a_seat_that_joined_late(data: Path, fmt: str) -> None:
    """Solve's header holds as many hands as its first 50 lines do, and a
    wider line is an error row: a table where a third friend sat down after
    the 60th round exported those rounds as errors telling the user to move
    a row of 3 hands up, which an export cannot do. Every dealt round is
    solved and named, however late its seats joined."""
    data.mkdir()
    store: TableGameStore[FriendsTable] = TableGameStore(str(data / "games.sqlite3"), FRIENDS_TABLES)
    host, owners = "h" * 64, [f"{i:064d}" for i in range(3)]
    table = FriendsTable(host=host)
    events = table.opened()
    for owner, name in zip(owners[:2], ("Ann", "Bob")):
        events += table.join(owner, name)[1]
    for number in range(1, 63):
        if number == 61:
            events += table.join(owners[2], "Cy")[1]
        events += table.start_round(host)
        for owner in owners[: 3 if number > 60 else 2]:
            events += table.deal(owner)[1]
    table_id = store.create(table, host, events)
    store.close()
    exported = browser(create_app(data, allow_hosts=["testserver"])).get(f"/api/tables/{table_id}/export?format={fmt}")
    assert exported.status_code == 200, exported.text
    if fmt == "jsonl":
        rows = [json.loads(line) for line in exported.text.splitlines()]
        assert [r["line"] for r in rows] == list(range(1, 63)) and all("error" not in r for r in rows)
        assert [[h["player"] for h in r["hands"]] for r in rows[60:]] == [["Ann", "Bob", "Cy"]] * 2
        assert all(r["winners"] for r in rows)
        return
    header, *rows = list(csv.reader(io.StringIO(exported.text)))
    assert [int(r[0]) for r in rows] == list(range(1, 63)) and {len(r) for r in rows} == {len(header)}
    assert header[-3:] == ["winner", "explanation", "error"] and all(r[-1] == "" and r[-3] for r in rows)
    players = [i for i, name in enumerate(header) if name.endswith(" player")]
    assert [[r[i] for i in players] for r in rows[60:]] == [["Ann", "Bob", "Cy"]] * 2
    assert [r[i] for i in players for r in rows[:1]] == ["Ann", "Bob", ""]


def test_an_export_names_the_hands_past_its_headers() -> None:
    """A round with more hands than solve's header names (its header comes
    from the first rows it reads) has those hands' columns after ``error``,
    as solve puts them: each is named there too."""
    played = {4: _Played((1, 2, 3), ("Ann", "Bob", "=Cy"), (3,), "=Cy wins: a reason")}
    header: list[int] = []
    head = _named_csv_line(
        "line,input,hand 1 sorted,hand 1 category,hand 1 score,hand 2 sorted,hand 2 category,hand 2 score,winner,explanation,error",
        played, header,
    )  # fmt: skip
    assert head.startswith("line,input,hand 1 player,hand 1 sorted,") and header == [2]
    line = _named_csv_line("4,a | b | c,A,One Pair,2,B,High Card,1,3,Hand 3 wins: a reason,,C,Flush,6", played, header)
    assert next(csv.reader([line])) == [
        "4", "a | b | c", "Ann", "A", "One Pair", "2", "Bob", "B", "High Card", "1",
        "'=Cy", "'=Cy wins: a reason", "", "'=Cy", "C", "Flush", "6",
    ]  # fmt: skip
    assert played == {}


# --- one hand a round for each browser ------------------------------------------------------


def _rejoin(host: TestClient, player: TestClient, table_id: str, seat: int, name: str) -> None:
    removed = host.delete(f"/api/tables/{table_id}/seats/{seat}", headers={"content-type": "application/json"})
    assert removed.status_code == 200, removed.text
    post(player, f"/api/tables/{table_id}/seats", 201, name=name)


@pytest.mark.usefixtures("no_rate_limits")
@pytest.mark.parametrize("again", ["the same name", "another name", "a seat the host removed"])
def test_one_browser_is_shown_at_most_one_hand_a_round(app: FastAPI, again: str) -> None:
    """The host sat at its own table, dealt, removed its own seat (the hand
    dealt was dropped), took a seat again and dealt again: measured on
    ``fivecard serve``, four hands (20 cards) seen in one round, the best
    one kept, and it won the round's 25 points. A browser is shown one hand
    a round, whatever seats it takes (its secret renewed at each: what the
    round knows of it moves along)."""
    host = browser(app)
    table_id = open_table(host)
    player = host if again != "a seat the host removed" else browser(app)
    post(player, f"/api/tables/{table_id}/seats", 201, name="Hal")
    (bob,) = seated(app, table_id, "Bob")
    post(host, f"/api/tables/{table_id}/rounds")
    seen: set[str] = set()
    for turn in range(3):
        dealt = player.post(f"/api/tables/{table_id}/deal", json={})
        if dealt.status_code != 200:
            assert dealt.status_code == 409 and "dealt a hand in round 1 already" in dealt.json()["detail"]
            break
        view = dealt.json()
        seen.update(card["code"] for card in view["round"]["your_hand"])
        _rejoin(host, player, table_id, view["you"], "Hal" if again == "the same name" else f"Hal {turn}")
    assert len(seen) <= 5, f"one browser was shown {len(seen)} cards of round 1: {sorted(seen)}"
    assert player.get(f"/api/tables/{table_id}").json()["round"]["your_hand"] is None
    closed = post(bob, f"/api/tables/{table_id}/deal")  # Bob deals: every seat that may deal has
    assert not closed["round"]["open"]


# --- what a table keeps, and what reading it costs -------------------------------------------


def _chatty_table(
    data: Path, lines: int, rounds: int = 1, line: str = "x" * 494, undealt: frozenset[int] = frozenset()
) -> str:
    """A table (host and two seats) with ``rounds`` closed rounds (those
    numbered in ``undealt`` closed by the host, nobody having dealt) and
    ``lines`` chat lines (numbered, then ``line``), kept as the API keeps them."""
    store = TableGameStore(Database(str(data / "games.sqlite3")), FRIENDS_TABLES)
    host, ann, bob = "a" * 64, "b" * 64, "c" * 64
    table = FriendsTable(host=host)
    table_id = store.create(table, host, table.opened())
    store.act(table_id, ann, lambda t: (None, t.join(ann, "Ann")[1]))
    store.act(table_id, bob, lambda t: (None, t.join(bob, "Bob")[1]))
    for number in range(1, rounds + 1):
        store.act(table_id, host, lambda t: (None, t.start_round(host)))
        if number in undealt:
            store.act(table_id, host, lambda t: (None, t.close(host)))
            continue
        store.act(table_id, ann, lambda t: (None, t.deal(ann)[1]))
        store.act(table_id, bob, lambda t: (None, t.deal(bob)[1]))
    for i in range(lines):
        said = f"{i:05d} " + line
        store.act(table_id, ann, lambda t: (None, t.chat(ann, said)))
    return table_id


def _kept(data: Path, table_id: str, what: str = "LENGTH(data)") -> int:
    with sqlite3.connect(data / "games.sqlite3") as db:
        (kept,) = db.execute(
            f"SELECT COALESCE(SUM({what}), 0) FROM table_game_events WHERE game_id = ?", (table_id,)
        ).fetchone()
    return int(kept)


@pytest.mark.slow
def test_a_tables_chat_is_kept_within_a_bound(data: Path) -> None:
    """Eleven browsers at a table (a host and ten seats: eleven of an
    address's 300 new things) may each chat 10 lines a second: 110 lines a
    second, 400,000 an hour, every one was kept (measured: 100,000 lines of
    500 characters and 1,000 rounds made an 81 MB data file). A table's chat
    is kept as its latest KEPT_CHAT lines: within 1 MiB after 3,000 lines of
    500 characters (1.5 MB of text), and after lines of characters that take
    four bytes each."""
    data.mkdir()
    table_id = _chatty_table(data, lines=3000)
    assert _kept(data, table_id) <= 1 << 20, f"{_kept(data, table_id):,} characters of events kept for one table"
    wide = _chatty_table(data, lines=KEPT_CHAT + 50, line="\U0001f0a1" * 494)  # a playing card: 4 bytes in UTF-8
    kept = _kept(data, wide, "LENGTH(CAST(data AS BLOB))")
    assert kept <= 1 << 20, f"{kept:,} bytes of events kept for one table"
    with sqlite3.connect(data / "games.sqlite3") as db:
        said = [json.loads(d)["text"][:5] for (d,) in db.execute(
            "SELECT data FROM table_game_events WHERE game_id = ? AND type = 'chat' ORDER BY seq", (table_id,)
        )]  # fmt: skip
    assert said == [f"{i:05d}" for i in range(3000 - KEPT_CHAT, 3000)]  # the latest, in order


def test_an_export_reads_the_rounds_it_exports_not_the_whole_history(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``GET /api/tables/{id}/export`` (anyone with the link, no rate limit)
    read every event the table had ever had to find its closed rounds.
    Measured on ``fivecard serve``: 100,000 chat lines and no round, 1.95 s
    of the server's time per export; with 1,000 rounds too, 2.2-3.3 s (four
    at once: 8.7 s each). What one read costs follows what it answers."""
    data.mkdir()
    table_id = _chatty_table(data, lines=600, rounds=1)
    read: list[int] = []
    real = TableGameStore.events_after

    def events_after(self: TableGameStore[Any], *args: Any, **kwargs: Any) -> Any:
        found = real(self, *args, **kwargs)
        read.append(len(found))
        return found

    monkeypatch.setattr(TableGameStore, "events_after", events_after)
    app = create_app(data, allow_hosts=["testserver"])
    exported = browser(app).get(f"/api/tables/{table_id}/export", params={"format": "jsonl"})
    assert exported.status_code == 200 and len(exported.text.splitlines()) == 1
    assert sum(read) <= 50, f"{sum(read):,} events read to export one round"


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
@pytest.mark.slow
def test_an_export_is_the_named_answer_for_every_round_whatever_pages_it_is_read_in(data: Path, fmt: str) -> None:
    """An export is read and sent a page of rounds at a time (100): what it
    sends is what ``fivecard solve`` makes of the whole history at once, named, a
    line per round (a round nobody dealt, or one the store lacks, an empty
    line: here at the first round, either side of every page's end, and the
    last)."""
    data.mkdir()
    undealt = frozenset({1, 99, 100, 101, 200, 201, 250})
    table_id = _chatty_table(data, lines=0, rounds=250, undealt=undealt)
    with sqlite3.connect(data / "games.sqlite3") as db:  # rounds 150 and 151 lost (none is, but an export says so)
        db.execute(
            "DELETE FROM table_game_events WHERE game_id = ? AND type = 'round_closed'"
            " AND json_extract(data, '$.round') IN (150, 151)", (table_id,)
        )  # fmt: skip
        kept = {
            json.loads(d)["round"]: json.loads(d)["hands"]
            for (d,) in db.execute("SELECT data FROM table_game_events WHERE game_id = ? AND type = 'round_closed'", (table_id,))
        }
    assert len(kept) == 248 and all(not kept[n] for n in undealt)
    with sqlite3.connect(data / "games.sqlite3") as db:
        closed = [json.loads(d) for (d,) in db.execute(
            "SELECT data FROM table_game_events WHERE game_id = ? AND type = 'round_closed' ORDER BY seq", (table_id,)
        )]  # fmt: skip
    exported = browser(create_app(data, allow_hosts=["testserver"])).get(f"/api/tables/{table_id}/export?format={fmt}")
    assert exported.status_code == 200
    _as_the_table_says(exported.text, fmt, closed, "standard")


def _table_at_its_bounds(path: Path, rounds: int, given: int = MAX_JOINS) -> str:
    """A friends' table kept as the app keeps it: ``given`` seats given in
    its life (names of the longest, in four-byte characters), the last ten
    seated, and ``rounds`` rounds each dealt to every seat; its id."""
    store: TableGameStore[FriendsTable] = TableGameStore(str(path / "games.sqlite3"), FRIENDS_TABLES)
    host = "h" * 64
    table = FriendsTable(host=host)
    events = table.opened()
    for i in range(given):
        owner = f"{i:064d}"
        events += table.join(owner, "\U00020000" * (MAX_NAME - 4) + f"{i:04d}")[1]
        if i < given - 10:
            seat = table.seat_of(owner)
            assert seat is not None
            events += table.remove(host, seat.id)
    for _ in range(rounds):
        events += table.start_round(host)
        for seat in [s for s in table.seats if s.active]:
            events += table.deal(seat.owner)[1]
    table_id = store.create(table, host, events)
    store.close()
    return table_id


def _export_peak(client: TestClient, table_id: str) -> int:
    """The most memory the app holds at once while it answers an export (bytes)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        answer = client.get(f"/api/tables/{table_id}/export?format=csv")
        assert answer.status_code == 200, answer.text
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_an_export_holds_no_more_at_once_for_a_longer_history(tmp_path: Path) -> None:
    """The export read a table's closed rounds alone, but all of them at
    once, each parsed whole (every hand's evaluation, the seats'
    standings), and answered them in one piece: at a table at its bounds
    (10,000 rounds, 100 seats given, ten seated) one export took 7 s and a
    gigabyte of the server's memory, three at once 31 s and 3 GB, and
    nothing limited how many ran at once (GET, no rate limit, 40 worker
    threads). Measured here: an export of 500 rounds held 28 MiB at once,
    one of 2,000 rounds 110 MiB. The store is read 100 rounds at a time,
    each page solved and sent before the next is read: an export of 500
    rounds and one of 2,000 hold about as much (7 and 8 MiB, the test
    client's copy of the answer included) at once."""
    data = tmp_path / "data"
    client = TestClient(create_app(data, allow_hosts=["testserver"]))
    short, long = _table_at_its_bounds(data, 500), _table_at_its_bounds(data, 2000)
    # Not counted: what the first export loads once, and the solver's register of
    # the outcomes met (kept for every solve of the process, and bounded: 1,024
    # showdowns of three hands or more, then it starts afresh), filled here.
    _export_peak(client, long)
    small, large = _export_peak(client, short), _export_peak(client, long)
    assert large <= 1.5 * small, f"an export of 500 rounds held {small / 2**20:.0f} MiB; of 2,000 rounds {large / 2**20:.0f} MiB"


def _held_pages(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Exports held at their first page of rounds until the event is set."""
    go, real = threading.Event(), fivecard.web.friends_api._public_events

    def public_events(*args: Any, **kwargs: Any) -> Any:
        if args[4:5] == ("round_closed",) or kwargs.get("type") == "round_closed":
            assert go.wait(PATIENCE)
        return real(*args, **kwargs)

    monkeypatch.setattr(fivecard.web.friends_api, "_public_events", public_events)
    return go


def test_exports_at_once_are_bounded_in_all_and_for_each_network(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing bounded how many exports ran at once (each held a worker
    thread and its pages: three of a table at its bounds took 3 GB). At
    most ``most`` are made at once (one more is 503), and ``per_network``
    for one network (one more is 429); each place is given back when its
    answer has been taken; a request refused before its answer starts (no
    such table, no such format) takes none."""
    data.mkdir()
    table_id = _chatty_table(data, lines=0, rounds=3)
    exports = Exports(most=2, per_network=1)
    app = create_app(data, allow_hosts=["testserver"], exports=exports)
    path = f"/api/tables/{table_id}/export"

    def client(address: str) -> TestClient:
        return TestClient(app, client=(address, 40000))

    go = _held_pages(monkeypatch)
    answers: list[int] = []
    held = [
        threading.Thread(target=lambda a=address: answers.append(client(a).get(path).status_code))
        for address in ("10.0.0.1", "2001:db8::1")
    ]
    try:
        for thread in held:
            thread.start()
        deadline = time.monotonic() + PATIENCE
        while exports.held() < 2:
            assert time.monotonic() < deadline, "the exports never began"
            time.sleep(0.01)
        same = client("2001:db8:0:ff::2").get(path)  # the second's network (an IPv6 client's /48)
        assert same.status_code == 429 and same.headers["retry-after"] == "1"
        assert same.json() == {
            "detail": "too many requests: exports for this address at once are limited (1); wait until the one being made is done"
        }
        other = client("10.0.0.3").get(path)
        assert other.status_code == 503 and other.headers["retry-after"] == "1"
        assert other.json() == {"detail": "the server makes as many exports at once as it can (2): try again in a moment"}
        assert client("10.0.0.3").get("/api/tables/nosuchtable/export").status_code == 404
        assert client("10.0.0.3").get(path, params={"format": "xml"}).status_code == 409
    finally:
        go.set()
        for thread in held:
            thread.join(PATIENCE)
    assert answers == [200, 200] and exports.held() == 0
    assert client("10.0.0.3").get(path).status_code == 200


def test_an_export_past_its_time_gives_its_place_to_one_that_finds_none() -> None:
    """Every place held: a new export is refused while each has held its
    place under ``seconds``; past that, it takes the place held longest,
    and the export that held it ends before its next piece."""
    exports = Exports(most=2, per_network=1, seconds=0.2)
    first = exports.take("10.0.0.1")
    time.sleep(0.05)
    second = exports.take("10.0.0.2")
    with pytest.raises(AtCapacity):
        exports.take("10.0.0.3")
    sent = exports.pieces(iter([b"x" * 40_000]), first)
    assert len(next(sent)) == 16 * 1024
    time.sleep(0.2)
    third = exports.take("10.0.0.3")
    assert (first.taken, second.taken, third.taken) == (True, False, False) and exports.held() == 2
    with pytest.raises(_PlaceTaken):
        next(sent)
    for place in (first, second, third):
        exports.give(place)
    assert exports.held() == 0


@pytest.mark.parametrize("spec", ["2.3", "2.4"], ids=["told-by-a-message", "told-by-a-failed-send"])
def test_an_export_whose_client_goes_away_gives_its_place_back(data: Path, spec: str) -> None:
    """A client may leave before the answer is sent (a server that says so
    with a disconnect message, or whose sending fails): the export's place
    is given back all the same."""
    data.mkdir()
    table_id = _chatty_table(data, lines=0, rounds=3)
    exports = Exports(most=1, per_network=1)
    app = create_app(data, allow_hosts=["testserver"], exports=exports)
    scope = {
        "type": "http", "asgi": {"version": "3.0", "spec_version": spec}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": f"/api/tables/{table_id}/export", "raw_path": f"/api/tables/{table_id}/export".encode(),
        "query_string": b"format=csv", "root_path": "", "headers": [(b"host", b"testserver")],
        "client": ("10.0.0.1", 40000), "server": ("testserver", 80), "state": {},
    }  # fmt: skip
    sent: list[str] = []

    async def gone() -> None:
        asked = False

        async def receive() -> dict[str, Any]:
            nonlocal asked
            if not asked:
                asked = True
                return {"type": "http.request", "body": b"", "more_body": False}
            return {"type": "http.disconnect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(message["type"])
            if message["type"] == "http.response.body":
                raise OSError("the client is gone")

        try:
            await app(scope, receive, send)
        except Exception:  # (the server's to log: the answer is lost)
            pass

    asyncio.run(gone())
    assert sent[0] == "http.response.start" and exports.held() == 0
    assert TestClient(app).get(f"/api/tables/{table_id}/export").status_code == 200


def test_a_stream_resumed_from_far_back_is_sent_a_bounded_window(data: Path) -> None:
    """``?after=0`` sent the whole history (every chat line, every round).
    A stream that resumes from further back than REPLAY events is sent what
    the page draws the table from: the latest REPLAY_ROUNDS closed rounds,
    then the last REPLAY events; then the events since, as they come."""
    data.mkdir()
    table_id = _chatty_table(data, lines=REPLAY + 50, rounds=3)
    app = create_app(data, allow_hosts=["testserver"])
    client = browser(app)
    last = client.get(f"/api/tables/{table_id}").json()["last_event"]
    sent = events(client, table_id)
    rounds = [(seq, e["round"]) for seq, e in sent if e["type"] == "round_closed"]
    assert [r for _, r in rounds] == [2, 3]
    window = sent[len(rounds):]
    assert len(window) == REPLAY and window[-1][0] == last and all(e["type"] == "chat" for _, e in window)
    assert [seq for seq, _ in sent] == sorted(seq for seq, _ in sent)  # in order: a browser's Last-Event-ID holds
    near = events(client, table_id, after=last - 10)  # not far back: every event since
    assert [seq for seq, _ in near] == list(range(last - 9, last + 1))


@pytest.mark.usefixtures("no_rate_limits")
@pytest.mark.slow
def test_the_request_ids_kept_are_each_browsers_latest(app: FastAPI, data: Path) -> None:
    """Every request id was kept for ever, one row each: a browser's latest
    KEPT_REQUEST_IDS at a table are (a retry comes soon after its request)."""
    host = browser(app)
    table_id = open_table(host)
    (ann,) = seated(app, table_id, "Ann")
    for i in range(KEPT_REQUEST_IDS + 40):
        post(ann, f"/api/tables/{table_id}/chat", text=f"line {i}", request_id=f"ann-{i}")
    post(host, f"/api/tables/{table_id}/chat", text="hello", request_id="host-1")
    with sqlite3.connect(data / "games.sqlite3") as db:
        kept = [r for (r,) in db.execute("SELECT request_id FROM table_game_requests WHERE game_id = ?", (table_id,))]
    assert sorted(kept) == sorted([f"ann-{i}" for i in range(40, KEPT_REQUEST_IDS + 40)] + ["host-1"])
    last = host.get(f"/api/tables/{table_id}").json()["last_event"]
    post(ann, f"/api/tables/{table_id}/chat", text="line 103", request_id=f"ann-{KEPT_REQUEST_IDS + 39}")  # a retry
    assert host.get(f"/api/tables/{table_id}").json()["last_event"] == last  # applied once


def test_the_table_api_is_in_the_openapi_document(app: FastAPI) -> None:
    paths = browser(app).get("/openapi.json").json()["paths"]
    assert "post" in paths["/api/tables"]
    assert {p for p in paths if "table" in p} >= {
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/seats",
        "/api/tables/{table_id}/rounds",
        "/api/tables/{table_id}/deal",
        "/api/tables/{table_id}/events",
    }


def test_a_table_saved_and_restored_is_the_same() -> None:
    table = FriendsTable(rules="joker", seed=5, host="h", tie="split", rounds=3)
    table.join("a", "Ann")
    table.join("b", "Bob")
    table.start_round("h")
    table.deal("a")
    copy = FriendsTable.from_state(json.loads(json.dumps(table.to_state())))
    assert copy.to_state() == table.to_state()
    assert [e["type"] for e in copy.deal("b")[1]] == ["dealt", "round_closed"]
    with pytest.raises(GameError, match="saved friends' table"):
        FriendsTable.from_state({**table.to_state(), "version": 9})


@pytest.mark.slow
def test_a_killed_server_loses_nothing(tmp_path: Path) -> None:
    """SIGKILL mid-round (no shutdown code runs), a new server on the same
    data folder: the table, the hand dealt and the events are all there."""
    import http.cookiejar
    import os
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    def start() -> tuple[subprocess.Popen[str], str]:
        server = subprocess.Popen(
            [sys.executable, "-m", "fivecard", "serve", "--port", "0", "--data", str(tmp_path / "data")],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert server.stdout is not None
        line = server.stdout.readline()
        return server, line.split(" at ")[1].split(" ")[0]

    def opener() -> urllib.request.OpenerDirector:
        return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(who: urllib.request.OpenerDirector, url: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
        for _ in range(100):  # the new server may take a moment to answer
            try:
                with who.open(request, timeout=10) as response:
                    return json.loads(response.read())
            except ConnectionError:
                time.sleep(0.05)
        raise AssertionError(f"no answer from {url}")

    server, base = start()
    host, ann, bob = opener(), opener(), opener()
    try:
        table_id = call(host, base + "api/tables", {"seed": 1})["id"]
        for who, name in ((ann, "Ann"), (bob, "Bob")):
            call(who, f"{base}api/tables/{table_id}/seats", {"name": name})
        call(host, f"{base}api/tables/{table_id}/rounds", {"request_id": "r1"})
        hand = call(ann, f"{base}api/tables/{table_id}/deal", {"request_id": "d1"})["round"]["your_hand"]
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
    server, base = start()  # another port: cookies are per host, so the browsers are still known
    try:
        view = call(ann, f"{base}api/tables/{table_id}")
        assert view["round"]["your_hand"] == hand and view["round"]["dealt"] == [1]
        # Ann's retried deal (its answer lost in the crash) deals nothing more
        assert call(ann, f"{base}api/tables/{table_id}/deal", {"request_id": "d1"})["round"]["dealt"] == [1]
        closed = call(bob, f"{base}api/tables/{table_id}/deal", {"request_id": "d1"})
        assert not closed["round"]["open"] and closed["played"] == 1
        assert sorted(s["points"] for s in closed["standings"]) in ([0, 25], [0, 0])
    finally:
        server.terminate()
        server.wait()


@pytest.mark.slow
def test_ctrl_c_stops_the_server_at_once_with_streams_open(tmp_path: Path) -> None:
    """Browsers at a table keep event streams open: Ctrl-C still stops the
    server at once (the streams end; the browsers resume on the next
    server), with one line and no traceback."""
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    server = subprocess.Popen(
        [sys.executable, "-m", "fivecard", "serve", "--port", "0", "--data", str(tmp_path / "data")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None and server.stderr is not None
    base = server.stdout.readline().split(" at ")[1].split(" ")[0]
    request = urllib.request.Request(base + "api/tables", data=b"{}", headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        table_id = json.loads(answer.read())["id"]
    host, port = base.split("/")[2].split(":")
    streams = []
    for _ in range(3):
        stream = socket.create_connection((host, int(port)))
        stream.sendall(f"GET /api/tables/{table_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        received = b""
        while b"retry: 1000" not in received:  # the stream is open and waiting
            received += stream.recv(4096)
        assert received.startswith(b"HTTP/1.1 200 OK")
        streams.append(stream)
    started = time.monotonic()
    server.send_signal(signal.SIGINT)
    _, err = server.communicate(timeout=20)
    assert time.monotonic() - started < 2.0
    assert "Traceback" not in err and "ERROR" not in err
    assert err.strip().splitlines()[-1] == "fivecard: interrupted"
    for stream in streams:
        stream.close()


@pytest.mark.slow
def test_slow_readers_do_not_hold_every_export_place(tmp_path: Path) -> None:
    """An export's place is held until its client has taken the whole
    answer, and a client that reads slowly but steadily is never let go
    (the server's write bound lets go only a client that drains under
    about 48 KiB each ``write_seconds``): four clients from four
    addresses, each reading 16 KiB every 0.1 s of the export of a long
    table, held all four places for as long as the export lasts (at the default bounds, 1.6 KB/s each keeps
    a place: an export of a table at its bounds, 5 MB, lasts an hour), and
    every other client's export was 503. Another address asking after an
    export's time (here twice the write bound) gets its export, and the
    export whose place it takes is cut off, not finished."""
    import socket

    import uvicorn

    from fivecard.web.server import Bounds, GuardedHttpTools

    tmp_path.mkdir(exist_ok=True)
    table_id = _table_at_its_bounds(tmp_path, 2000)
    bounds = Bounds(write_seconds=2.0)
    app = create_app(tmp_path, bounds=bounds, allow_hosts=["testserver"], exports=Exports(seconds=2 * bounds.write_seconds))

    class Protocol(GuardedHttpTools):
        pass

    Protocol.bounds = bounds
    listening = socket.socket()
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
    listening.bind(("127.0.0.1", 0))
    listening.listen(64)
    port = listening.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, http=Protocol, ws="none", lifespan="off", log_level="critical"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    request = f"GET /api/tables/{table_id}/export?format=csv HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    stop = threading.Event()
    readers: list[threading.Thread] = []

    ends: dict[str, bytes] = {}  # how each reader's answer ended: its last bytes, when the server closed it

    def trickle(source: str) -> None:
        with socket.socket() as conn:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
            conn.settimeout(PATIENCE)
            conn.bind((source, 0))
            conn.connect(("127.0.0.1", port))
            conn.sendall(request)
            last = b""
            while not stop.is_set():
                got = conn.recv(16384)
                if not got:
                    ends[source] = last
                    return
                last = (last + got)[-5:]
                time.sleep(0.1)

    try:
        deadline = time.monotonic() + PATIENCE
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        for n in range(2, 6):
            readers.append(threading.Thread(target=trickle, args=(f"127.0.0.{n}",), daemon=True))
            readers[-1].start()
        while app.state.exports.held() < 4:
            assert time.monotonic() < deadline, "the exports never began"
            time.sleep(0.01)
        time.sleep(4 * bounds.write_seconds)
        with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE, source_address=("127.0.0.6", 0)) as conn:
            conn.sendall(request)
            head = conn.recv(4096)
        assert head.startswith(b"HTTP/1.1 200"), head.split(b"\r\n")[0] + f" (exports held: {app.state.exports.held()})".encode()
        while not ends:  # the export whose place it took ends before its next piece: cut off, not finished
            assert time.monotonic() < deadline, "no export gave up its place"
            time.sleep(0.05)
        assert len(ends) == 1 and not next(iter(ends.values())).endswith(b"0\r\n\r\n")
    finally:
        stop.set()
        for reader in readers:
            reader.join(PATIENCE)
        server.should_exit = True
        thread.join(PATIENCE)
