"""The chips of every dealer round and the game's session figures through
the JSON API: every settled round's seats say their ante, house bet, pot
share and net (adding up to the change of each stack) with their
sentences; the view's ``session`` is the figures of every settled round,
the same as the library's from the engine's own rounds, whether the app
kept them or read them again (a restart, another process on the same
data, rounds kept by an earlier version without the new keys)."""

from __future__ import annotations

import json
import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import api_game_act, api_new_game

with warnings.catch_warnings():  # starlette's notice about its test client's HTTP library
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivecard.play.game import Game
from fivecard.play.view import event_json, session_json, signed
from fivecard.web.app import OWNER_COOKIE, create_app

#: The player's moves, round by round: fold, keep all five, exchange all five.
MOVES = ["fold", "keep", "exchange", "keep"]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def client(data: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data, allow_hosts=["testserver"])) as made:
        yield made


def play_api(client: TestClient, game_id: str, move: str) -> dict[str, Any]:
    """One round through the API; the view after it."""
    api_game_act(client, game_id, "start")
    if move == "exchange":
        api_game_act(client, game_id, "exchange", keep=[])
    else:
        api_game_act(client, game_id, move)
    for _ in range(5):
        api_game_act(client, game_id, "reveal")
    return api_game_act(client, game_id, "settle")


def play_engine(game: Game, move: str) -> dict[str, Any]:
    """The same round through the library: the settled round's event JSON."""
    game.start_round()
    if move == "fold":
        game.fold(0)
    else:
        game.exchange(0, [0, 1, 2, 3, 4] if move == "keep" else [])
    while game.can_computer_act():
        game.computer_acts()
    while game.can_reveal():
        game.reveal_dealer_card()
    return event_json(game, game.settle())


@pytest.mark.slow
def test_every_settled_round_says_each_seats_chips_and_the_view_the_session(client: TestClient) -> None:
    view = api_new_game(client, seed=31, stack=500)
    game_id = view["id"]
    assert view["session"] == session_json((), 500)
    engine = Game(seed=31, stack=500)
    settled_rounds = []
    for move in MOVES:
        before = [seat["stack"] for seat in view["seats"]]
        view = play_api(client, game_id, move)
        settled = view["events"][-1]
        assert settled == play_engine(engine, move)
        settled_rounds.append(settled)
        # each seat's chips add up to the change of its stack
        dealt = {r["seat"]: r for r in settled["results"]}
        for seat in view["seats"]:
            change = seat["stack"] - before[seat["seat"]]
            row = dealt.get(seat["seat"])
            if row is None:
                assert change == 0
                continue
            assert row["ante"] == view["ante"] and row["chips"] == row["house"] + row["pot"] - row["ante"] == change
            assert row["chips_text"].startswith(f"{row['name']} ")
            assert row["chips_text"].endswith(f", {signed(-row['ante'])} ante, {signed(change)} net")
        assert settled["pot"] == settled["carried_in"] + view["ante"] * len(dealt)
        assert settled["chips_text"].startswith(dealt[0]["chips_text"] + "; ")
        assert settled["pot_text"].lower() in settled["chips_text"].lower()
        # the session: every settled round so far, as the library says
        session = view["session"]
        assert session == session_json(settled_rounds, 500)
        assert session["rounds"] == view["played"] and session["chips"][-1] == view["seats"][0]["stack"]
        assert session["chips"] == [500, *(h["stack"] for h in view["history"])]
        assert sum(session["against_dealer"].values()) == view["played"]
    assert session["against_dealer"]["fold"] == 1
    # mid-round, the session is the settled rounds' (the stack before the round in play)
    mid = api_game_act(client, game_id, "start")
    assert mid["session"] == session and mid["seats"][0]["stack"] == session["chips"][-1] - 20
    assert client.get(f"/api/games/{game_id}").json()["session"] == session


@pytest.mark.slow
def test_the_session_is_the_same_read_again_from_the_history(client: TestClient, data: Path) -> None:
    """A restarted app (nothing kept), another app on the same data (rounds
    it did not see played), and rounds kept by an earlier version (without
    the new keys): the same figures."""
    game_id = api_new_game(client, seed=8)["id"]
    for move in MOVES[:2]:
        view = play_api(client, game_id, move)
    kept = view["session"]
    with TestClient(create_app(data, allow_hosts=["testserver"])) as other:
        other.cookies.set(OWNER_COOKIE, client.cookies[OWNER_COOKIE])
        assert other.get(f"/api/games/{game_id}").json()["session"] == kept
        later = play_api(other, game_id, "keep")  # a round the first app did not see
    assert later["session"]["rounds"] == 3
    assert client.get(f"/api/games/{game_id}").json()["session"] == later["session"]
    # the rounds in an earlier version's form
    with sqlite3.connect(data / "games.sqlite3") as db:
        rows = db.execute(
            "SELECT seq, data FROM table_game_events WHERE game_id = ? AND type = 'round_settled'", (game_id,)
        ).fetchall()
        for seq, text in rows:
            event = json.loads(text)
            for key in ("carried_in", "pot_text", "chips_text"):
                del event[key]
            for row in event["results"]:
                del row["ante"], row["chips_text"]
            db.execute("UPDATE table_game_events SET data = ? WHERE seq = ?", (json.dumps(event), seq))
    with TestClient(create_app(data, allow_hosts=["testserver"])) as restarted:
        restarted.cookies.set(OWNER_COOKIE, client.cookies[OWNER_COOKIE])
        view = restarted.get(f"/api/games/{game_id}").json()
        assert view["session"] == later["session"]
        assert "chips_text" not in view["events"][-1]  # shown as it was kept


def test_a_new_game_keeps_no_figures_in_its_state(client: TestClient, data: Path) -> None:
    game_id = api_new_game(client, seed=3)["id"]
    api_game_act(client, game_id, "start")
    with sqlite3.connect(data / "games.sqlite3") as db:
        (state,) = db.execute("SELECT state FROM table_games WHERE id = ?", (game_id,)).fetchone()
    assert not {"session", "chips", "against_dealer"} & set(json.loads(state))
