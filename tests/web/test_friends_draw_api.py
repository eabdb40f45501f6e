"""A friends' table's draw through the API (``POST .../draw``): who may draw
what and when (the host without a seat, a seat, a spectator, a stranger;
before dealing, after, twice), what every other browser learns of a draw
(its count, never its cards until the showdown), the round closing after
every draw, the export's hands as drawn; and the table's other wording:
a removal announced as the host's, the names in the export."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

from helpers import table_events

from fivecard.play.table_game import round_deck, round_seed
from fivecard.web.app import create_app
from fivecard.web.friends_api import RateLimit


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    limit = RateLimit(rate=1e6, burst=1e6, create_rate=1e6, create_burst=1e6)
    return create_app(tmp_path / "data", allow_hosts=["testserver"], limit=limit)


def table(app: FastAPI, draw: int, *names: str) -> tuple[TestClient, str, list[TestClient]]:
    host = TestClient(app)
    answer = host.post("/api/tables", json={"seed": 5, "draw": draw})
    assert answer.status_code == 201, answer.text
    table_id = answer.json()["id"]
    seats = []
    for name in names:
        seat = TestClient(app)
        assert seat.post(f"/api/tables/{table_id}/seats", json={"name": name}).status_code == 201
        seats.append(seat)
    return host, table_id, seats


def events(client: TestClient, table_id: str) -> list[dict[str, Any]]:
    return table_events(client, table_id)


def test_a_tables_draw_is_0_to_5_cards(app: FastAPI) -> None:
    host = TestClient(app)
    for draw in (0, 3, 5):
        answer = host.post("/api/tables", json={"draw": draw})
        assert answer.status_code == 201 and answer.json()["draw"] == draw
    for bad in (-1, 6, "2", 2.0, True):
        assert host.post("/api/tables", json={"draw": bad}).status_code == 422, bad
    assert host.post("/api/tables", json={"draw": 3}).json()["max_seats"] == 6  # 52 cards: 8 a seat


def test_who_may_draw_what_and_when(app: FastAPI) -> None:
    host, table_id, (ann, bob) = table(app, 2, "Ann", "Bob")
    url = f"/api/tables/{table_id}"
    spectator = TestClient(app)
    spectator.post("/api/tables", json={})  # a cookie of its own: it watches this table
    stranger = TestClient(app)

    def draw(who: TestClient, keep: list[Any]) -> int:
        return int(who.post(f"{url}/draw", json={"keep": keep}).status_code)

    assert [draw(b, [1, 2, 3]) for b in (host, spectator, stranger)] == [403, 403, 403]
    assert draw(ann, [1, 2, 3]) == 409  # no round
    host.post(f"{url}/rounds", json={})
    assert draw(ann, [1, 2, 3]) == 409  # not dealt yet
    dealt = ann.post(f"{url}/deal", json={}).json()["round"]["your_hand"]
    for keep in ([0, 1, 2], [1, 2, 6], [1.0, 2, 3], ["1", 2, 3], [1, 2, 3, 4, 5, 1]):
        assert draw(ann, keep) == 422, keep  # no such position: refused as a field
    assert draw(ann, [1, 1, 2]) == 409  # a position twice
    assert draw(ann, [1, 2]) == 409  # three exchanged, the table allows two
    assert [draw(b, [1, 2, 3]) for b in (host, spectator, stranger)] == [403, 403, 403]
    before = host.get(url).json()
    mine = ann.post(f"{url}/draw", json={"keep": [2, 3, 5]})
    assert mine.status_code == 200
    hand = mine.json()["round"]["your_hand"]
    assert [hand[1], hand[2], hand[4]] == [dealt[1], dealt[2], dealt[4]] and mine.json()["round"]["your_draw"] == [1, 4]
    deck = [c.code_str for c in round_deck("standard", round_seed(5, 1))]
    assert [hand[0]["code"], hand[3]["code"]] == deck[5:7]  # the next cards of the round's deck
    assert draw(ann, [1, 2, 3, 4, 5]) == 409  # once a round
    after = host.get(url).json()
    assert after["round"]["drawn"] == [1] and after["last_event"] == before["last_event"] + 1
    # before the showdown no other browser learns a card of Ann's, drawn or
    # exchanged, nor the deck: not from the view, the events or the export
    for who in (host, bob, spectator, stranger):
        seen = json.dumps(who.get(url).json()) + json.dumps(events(who, table_id))
        seen += who.get(f"{url}/export?format=jsonl").text + who.get(f"{url}/export?format=csv").text
        for card in (hand[0], hand[3], dealt[0], dealt[3]):
            assert card["label"] not in seen and f'"{card["code"]}"' not in seen, card
        assert str(round_seed(5, 1)) not in seen
    drew = {k: v for k, v in events(stranger, table_id)[-1].items() if k != "at"}
    assert drew == {"type": "drew", "round": 1, "seat": 1, "name": "Ann", "count": 2, "text": "Ann exchanges 2 cards"}


def test_the_round_closes_after_every_draw_and_the_export_has_the_hands_drawn(app: FastAPI) -> None:
    host, table_id, (ann, bob) = table(app, 1, "Ann", "Bob")
    url = f"/api/tables/{table_id}"
    host.post(f"{url}/rounds", json={})
    ann.post(f"{url}/deal", json={})
    bob.post(f"{url}/deal", json={})
    assert host.get(url).json()["round"]["open"]  # dealt, not drawn
    ann_hand = ann.post(f"{url}/draw", json={"keep": [1, 2, 3, 4]}).json()["round"]["your_hand"]
    closed = bob.post(f"{url}/draw", json={"keep": [1, 2, 3, 4, 5]}).json()
    assert not closed["round"]["open"]
    result = events(host, table_id)[-1]
    assert result["type"] == "round_closed"
    assert [h["drew"] for h in result["hands"]] == [1, 0]
    assert result["hands"][0]["cards"] == [c["code"] for c in ann_hand]
    exported = host.get(f"{url}/export?format=jsonl").text.splitlines()
    row = json.loads(exported[0])
    assert [h["player"] for h in row["hands"]] == ["Ann", "Bob"]
    assert row["hands"][0]["cards"] == result["hands"][0]["cards"]


def test_a_table_without_a_draw_refuses_one(app: FastAPI) -> None:
    host, table_id, (ann,) = table(app, 0, "Ann")
    url = f"/api/tables/{table_id}"
    host.post(f"{url}/rounds", json={})
    ann.post(f"{url}/deal", json={})  # the round closes: its only seat dealt
    answer = ann.post(f"{url}/draw", json={"keep": [1, 2, 3, 4, 5]})
    assert answer.status_code == 409


def test_a_removal_is_announced_as_the_hosts_and_the_export_names_the_seats(app: FastAPI) -> None:
    host, table_id, (ann, bob, cy) = table(app, 0, "Ann", "Bob", "Cy")
    url = f"/api/tables/{table_id}"
    host.post(f"{url}/rounds", json={})
    ann.post(f"{url}/deal", json={})
    bob.post(f"{url}/deal", json={})
    answer = host.delete(f"{url}/seats/3", headers={"content-type": "application/json"})
    assert answer.status_code == 200
    said = [e["text"] for e in events(host, table_id) if e["type"] == "seat_removed"]
    assert said == ["The host removed Cy from the table"]
    host.post(f"{url}/rounds", json={})
    ann.post(f"{url}/deal", json={})
    host.post(f"{url}/close", json={})  # closed with one hand: Ann won its points
    assert host.get(url).json()["standings"][0]["points"] >= 25
    lines = host.get(f"{url}/export?format=csv").text.splitlines()
    assert lines[0].startswith("line,input,hand 1 player,") and "Hand 1" not in "\n".join(lines)
    second = lines[2].split(",")
    assert second[2] == "Ann" and "Ann" in second[-3] and "Ann wins" in lines[2]
    first = lines[1]
    assert "Ann" in first and "Bob" in first


def test_the_hosts_form_says_what_the_draw_is_before_it_is_chosen(app: FastAPI) -> None:
    """The start page's introduction names the draw beside the form's field
    for it: a host learns of it before opening a table."""
    page = TestClient(app).get("/tables")
    assert page.status_code == 200
    lead = re.search(r'<p class="lead">(.*?)</p>', page.text, re.S)
    assert lead is not None
    words = " ".join(lead.group(1).split())
    assert "With a draw (see Draw below), each player may exchange up to that many cards, once" in words
    assert 'for="draw"' in page.text


def test_a_round_the_host_closes_names_the_seats_that_did_not_deal(app: FastAPI) -> None:
    """Every browser at the table (the host, a seat, one that only watches) is told,
    in the round's closing sentence, who never dealt."""
    host, table_id, (ann, _bob, _cy) = table(app, 0, "Ann", "Bob", "Cy")
    url = f"/api/tables/{table_id}"
    assert host.post(f"{url}/rounds", json={}).status_code == 200
    assert ann.post(f"{url}/deal", json={}).status_code == 200
    assert host.post(f"{url}/close", json={}).status_code == 200
    for client in (host, ann, TestClient(app)):
        closed = [e for e in events(client, table_id) if e["type"] == "round_closed"]
        assert len(closed) == 1 and closed[0]["text"].endswith("; Bob and Cy did not deal"), closed
