"""A game saved as JSON data and restored goes on exactly as the original:
mid-round, between rounds, under every rule set; damaged data is refused
with a GameError, never restored half-way."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from fivecard.core.rules import RULE_SETS
from fivecard.play.game import Game
from fivecard.play.table_game import GameError, round_seed


def _step(game: Game, choice: random.Random) -> bool:
    """One action of a seeded player (False: the game cannot go on)."""
    phase = game.phase
    if phase == "idle":
        if not game.can_start():
            return False
        game.start_round()
    elif phase == "draw":
        if game.turn != 0:
            game.computer_acts()
        elif choice.random() < 0.15:
            game.fold(0)
        else:
            game.exchange(0, sorted(choice.sample(range(5), choice.randint(0, 5))))
    elif phase == "dealer":
        game.reveal_dealer_card()
    else:
        game.settle()
    return True


def _through_json(game: Game) -> Game:
    return Game.from_state(json.loads(json.dumps(game.to_state())))


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
@pytest.mark.slow
def test_a_restored_game_goes_on_as_the_original(rules: str) -> None:
    original = Game(rules=rules, seed=11, fold_below=0.2)
    choice = random.Random(5)
    steps = 0
    while steps < 30 and _step(original, random.Random(steps)):
        steps += 1
        copy = _through_json(original)
        assert copy.to_state() == original.to_state()
        # both take the same next step (the shuffler included) and agree after it
        seed = choice.randrange(1 << 30)
        if not _step(copy, random.Random(seed)):
            break
        _step(original, random.Random(seed))
        assert copy.to_state() == original.to_state()
        assert (copy.phase, copy.turn, copy.dealer_cards) == (original.phase, original.turn, original.dealer_cards)
    assert original.played >= 1


def test_rounds_after_a_restore_shuffle_as_the_original_would() -> None:
    original = Game(seed=3)
    copy = _through_json(original)
    for game in (original, copy):
        game.start_round()
    assert copy.hand(0) == original.hand(0) and copy.hand(2) == original.hand(2)


def test_an_unseeded_game_shuffles_each_round_from_its_secret_seed_alone() -> None:
    # What a player sees of earlier rounds (their cards, the dealer's) could
    # in principle rebuild a generator's state; an unseeded game keeps none
    # between rounds: each deck is a function of the secret seed and the
    # round's number, so a restored game still deals what the original would.
    original = Game()
    assert not original.seeded
    copy = _through_json(original)
    copy.rng.seed(0)  # the generator a seeded game would use plays no part
    for game in (original, copy):
        for _ in range(3):
            game.start_round()
            game.void_round()
        game.start_round()
    assert copy.hand(0) == original.hand(0) and copy.hand(2) == original.hand(2)
    expected = list(original.rules.deck())
    random.Random(round_seed(original.seed, 4, kind="game")).shuffle(expected)
    dealt = original.hand(0)
    assert dealt is not None and list(dealt.cards) == expected[:5]


def test_a_game_kept_without_the_seeded_mark_shuffles_as_an_unseeded_one() -> None:
    state = Game(seed=5).to_state()
    del state["seeded"]
    restored = Game.from_state(state)
    assert not restored.seeded and Game.from_state(Game(seed=5).to_state()).seeded


def _damaged(change: str) -> dict[str, Any]:
    game = Game(seed=1)
    game.start_round()
    state = game.to_state()
    if change == "version":
        state["version"] = 99
    elif change == "card":
        state["round"]["deck"][0] = "ZZ"
    elif change == "missing":
        del state["pot"]
    elif change == "stacks":
        state["stacks"] = [1, 2]
    elif change == "seat":
        state["round"]["hands"]["7"] = state["round"]["hands"]["0"]
    elif change == "rng":
        state["rng"][1] = "not numbers"
    elif change == "rules":
        state["rules"] = "no such rules"
    return state


@pytest.mark.parametrize("change", ["version", "card", "missing", "stacks", "seat", "rng", "rules"])
def test_damaged_state_is_refused(change: str) -> None:
    with pytest.raises(GameError, match="saved game|rules"):
        Game.from_state(_damaged(change))


@pytest.mark.parametrize("trainer", [True, False])
def test_the_trainer_setting_is_kept(trainer: bool) -> None:
    game = Game(seed=4, trainer=trainer)
    game.start_round()
    copy = _through_json(game)
    assert copy.trainer is trainer and copy.to_state() == game.to_state()
    # the restored game judges your exchange exactly as the original does
    theirs, mine = copy.exchange(0, [0, 1]), game.exchange(0, [0, 1])
    assert theirs == mine and (mine.verdict is not None) is trainer


def test_a_game_kept_without_the_trainer_setting_has_it_off() -> None:
    state = Game(seed=5, trainer=True).to_state()
    del state["trainer"]
    assert Game.from_state(state).trainer is False


def _games() -> list[Any]:
    from fivecard.play.friends import FriendsTable
    from fivecard.play.machine import Machine

    game = Game(seed=3)
    game.start_round()
    table = FriendsTable(host="h" * 64, seed=3)
    table.join("s" * 64, "Ann")
    return [game, table, Machine("jacks-or-better", seed=3)]


@pytest.mark.parametrize("game", _games(), ids=lambda g: type(g).__name__)
def test_a_number_that_is_infinite_or_not_a_number_is_refused(game: Any) -> None:
    """JSON as Python reads it holds Infinity and NaN: a saved state with
    one where a whole number belongs raised OverflowError (``int(inf)``),
    not a GameError, for every kind of table game."""
    state = json.loads(json.dumps(game.to_state()))
    numbers = [k for k, v in state.items() if isinstance(v, int) and not isinstance(v, bool) and k != "version"]
    assert numbers
    for key in numbers:
        for value in (float("inf"), float("-inf"), float("nan")):
            with pytest.raises(GameError, match="cannot be restored"):
                type(game).from_state({**state, key: value})
