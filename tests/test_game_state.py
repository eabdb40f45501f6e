"""A game saved as JSON data and restored goes on exactly as the original:
mid-round, between rounds, under every rule set; damaged data is refused
with a GameError, never restored half-way."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from fivecard.core.rules import RULE_SETS
from fivecard.play.game import Game, GameError


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
