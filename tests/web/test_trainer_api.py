"""The trainer in the web app: a dealer game has it on unless created
without it; your exchange's event carries the verdict (the library's, to
the number), the computers' never do; the owner alone changes the setting
(POST /api/games/{id}/settings) or sees the verdict; and the advisor run
behind the verdict takes a turn at the advisor's gate, as every other does."""

from __future__ import annotations

import json
import threading
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from helpers import api_game_act, api_new_game

with warnings.catch_warnings():  # starlette's notice about its test client's HTTP library
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import fivecard.play.game
from fivecard.play.advise import Advice, advise
from fivecard.play.game import GAME_EVENT_FIELDS, ExchangeVerdict
from fivecard.web.app import AdvisorGate, create_app

T = TypeVar("T")


class _WatchedGate(AdvisorGate):
    """A gate that knows whether the work of one of its turns is running."""

    def __init__(self) -> None:
        super().__init__()
        self.turn = threading.local()

    async def run(self, work: Callable[[], T], client: str = "") -> T:
        def watched() -> T:
            self.turn.inside = True
            try:
                return work()
            finally:
                self.turn.inside = False

        return await super().run(watched, client)


@pytest.fixture
def gate() -> _WatchedGate:
    return _WatchedGate()


@pytest.fixture
def client(tmp_path: Path, gate: _WatchedGate, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    outside: list[str] = []

    def watched_advise(hand: Any, **options: Any) -> Advice:
        if not getattr(gate.turn, "inside", False):
            outside.append(str(hand))
        return advise(hand, **options)

    monkeypatch.setattr(fivecard.play.game, "advise", watched_advise)
    with TestClient(create_app(tmp_path / "data", advisor=gate, allow_hosts=["testserver"])) as made:
        yield made
    assert outside == [], "the advisor ran without a turn at the gate"


def _hand(view: dict[str, Any]) -> str:
    return " ".join(card["code"] for card in view["seats"][0]["cards"])


def test_a_new_game_has_the_trainer_on_unless_asked_otherwise(client: TestClient) -> None:
    assert api_new_game(client)["trainer"] is True
    assert api_new_game(client, trainer=False)["trainer"] is False
    assert client.post("/api/games", json={"trainer": "no"}).status_code == 422


@pytest.mark.parametrize("keep", [[1], [1, 2, 3, 4, 5], []], ids=["one card", "all five", "none"])
def test_your_exchange_carries_the_librarys_verdict(client: TestClient, keep: list[int]) -> None:
    game_id = api_new_game(client)["id"]
    dealt = api_game_act(client, game_id, "start")
    advice = advise(_hand(dealt))
    view = api_game_act(client, game_id, "exchange", keep=keep)
    mine = next(e for e in view["events"] if e["type"] == "exchanged" and e["seat"] == 0)
    expected = ExchangeVerdict.of(advice, [p - 1 for p in keep]).to_json()
    assert mine["verdict"] == json.loads(json.dumps(expected))
    for event in view["events"]:
        assert set(event) <= GAME_EVENT_FIELDS[event["type"]] | {"type"}
        if event.get("seat") not in (0, None):
            assert "verdict" not in event  # a computer's advice stays its own
    # kept with the round's events: the table shows it again after a reload
    assert client.get(f"/api/games/{game_id}").json()["events"] == view["events"]


def test_the_owner_turns_the_trainer_off_and_on(client: TestClient) -> None:
    game_id = api_new_game(client)["id"]
    settings = f"/api/games/{game_id}/settings"
    off = client.post(settings, json={"trainer": False})
    assert off.status_code == 200 and off.json()["trainer"] is False
    assert client.post(settings, json={}).json()["trainer"] is False  # absent: as it is
    api_game_act(client, game_id, "start")
    view = api_game_act(client, game_id, "keep")
    assert all("verdict" not in e for e in view["events"])
    assert client.post(settings, json={"trainer": True}).json()["trainer"] is True
    for bad in ({"trainer": "yes"}, {"trainer": 1}, {"trainer": "on"}):
        assert client.post(settings, json=bad).status_code == 422, bad


def test_only_the_owner_may_change_or_see_the_trainer(client: TestClient) -> None:
    game_id = api_new_game(client)["id"]
    api_game_act(client, game_id, "start")
    api_game_act(client, game_id, "exchange", keep=[1])
    stranger = TestClient(client.app)
    with stranger:
        changed = stranger.post(f"/api/games/{game_id}/settings", json={"trainer": False})
        seen = stranger.get(f"/api/games/{game_id}")
    assert changed.status_code in (403, 404) and seen.status_code in (403, 404)
    assert "verdict" not in seen.text
    assert client.get(f"/api/games/{game_id}").json()["trainer"] is True
