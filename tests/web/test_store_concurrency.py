"""The table-game store under concurrent actions, for every kind of table
game (the dealer game, the friends' table): an action's work holds no lock,
so other games go on meanwhile; actions on one game still run one after
the other; and an action that another process overtook acts again on its
result."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from fivecard.play.friends import FriendsTable
from fivecard.play.game import Game
from fivecard.play.table_game import GameError, TableGame
from fivecard.web.store import DEALER_GAMES, FRIENDS_TABLES, Kind, TableGameStore

GameStore = TableGameStore[Any]

OWNER = "o" * 64
KINDS: dict[str, Kind[Any]] = {"dealer game": DEALER_GAMES, "friends' table": FRIENDS_TABLES}


def _start(game: TableGame) -> tuple[None, list[dict[str, Any]]]:
    """Start a round: the one action both kinds have."""
    if isinstance(game, FriendsTable):
        return None, game.start_round(OWNER)
    assert isinstance(game, Game)
    game.start_round()
    return None, [{"type": "round_started", "round": game.rounds}]


def _started_rounds(store: GameStore, game_id: str) -> int:
    return len([e for e in store.round_events(game_id, 1) if e["type"] == "round_started"])


def _phase(game: TableGame) -> str:
    """"idle" before the first round, "draw" once it has started."""
    if isinstance(game, FriendsTable):
        return "idle" if game.round is None else "draw"
    assert isinstance(game, Game)
    return game.phase


@pytest.fixture(params=sorted(KINDS))
def kind(request: pytest.FixtureRequest) -> Kind[Any]:
    return KINDS[request.param]


def _new(kind: Kind[Any], seed: int) -> TableGame:
    if kind is DEALER_GAMES:
        return Game(seed=seed)
    table = FriendsTable(seed=seed, host=OWNER)
    table.join(OWNER, "Ann")
    return table


@pytest.fixture
def store(tmp_path: Path, kind: Kind[Any]) -> GameStore:
    return TableGameStore(str(tmp_path / "games.sqlite3"), kind)


def test_other_games_go_on_while_one_acts(store: GameStore) -> None:
    slow_game, quick_game = store.create(_new(store.kind, 1), OWNER), store.create(_new(store.kind, 2), OWNER)
    working, release = threading.Event(), threading.Event()

    def slow(game: TableGame) -> tuple[None, list[dict[str, Any]]]:
        working.set()
        assert release.wait(10)
        return _start(game)

    slow_thread = threading.Thread(target=store.act, args=(slow_game, OWNER, slow))
    slow_thread.start()
    try:
        assert working.wait(10)
        quick = threading.Thread(target=store.act, args=(quick_game, OWNER, _start))
        quick.start()
        quick.join(5)  # before: it waited for the slow action's transaction
        assert not quick.is_alive()
        assert _started_rounds(store, quick_game) == 1 and _started_rounds(store, slow_game) == 0
    finally:
        release.set()
        slow_thread.join(10)
    assert _started_rounds(store, slow_game) == 1


@pytest.mark.slow
def test_actions_on_one_game_run_one_after_the_other(store: GameStore) -> None:
    game_id = store.create(_new(store.kind, 3), OWNER)
    first_in, outcomes = threading.Event(), []

    def first(game: TableGame) -> tuple[None, list[dict[str, Any]]]:
        first_in.set()
        threading.Event().wait(0.3)  # the second request arrives meanwhile
        return _start(game)

    def run(action: Any) -> None:
        try:
            store.act(game_id, OWNER, action)
            outcomes.append("started")
        except GameError as exc:
            outcomes.append(str(exc))

    one = threading.Thread(target=run, args=(first,))
    one.start()
    assert first_in.wait(10)
    two = threading.Thread(target=run, args=(_start,))
    two.start()
    one.join(10)
    two.join(10)
    assert outcomes[0] == "started" and outcomes[1] != "started"  # the second saw the round started
    assert _started_rounds(store, game_id) == 1


def test_an_action_overtaken_by_another_process_acts_again(tmp_path: Path, kind: Kind[Any]) -> None:
    path = str(tmp_path / "games.sqlite3")
    here, other = TableGameStore(path, kind), TableGameStore(path, kind)  # two processes' stores: no lock in common
    game_id = here.create(_new(kind, 5), OWNER)
    calls = []

    def overtaken(game: TableGame) -> tuple[None, list[dict[str, Any]]]:
        calls.append(_phase(game))
        if len(calls) == 1:
            other.act(game_id, OWNER, _start)  # the other process starts the round first
        return _start(game)

    with pytest.raises(GameError):
        here.act(game_id, OWNER, overtaken)
    assert calls == ["idle", "draw"]  # the second time, on the game as the other process left it
    assert _started_rounds(here, game_id) == 1
    kept = here.load(game_id, OWNER)
    assert _phase(kept) == "draw" and (kept.rounds if isinstance(kept, Game) else kept.played + 1) == 1
