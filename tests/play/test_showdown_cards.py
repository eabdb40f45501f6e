"""The cards of a settled round as the page shows them (view.event_json's
round_settled): every hand and the dealer's in showdown order (groups
first, then kickers), each wild card saying what it became (``as``); the
player's own folded hand face up to the player, a computer's folded hand
never shown."""

from __future__ import annotations

from collections import Counter

import pytest

from fivecard import evaluate
from fivecard.core.cards import Card
from fivecard.core.evaluate import Evaluation
from fivecard.play.game import Game, RoundSettled
from fivecard.play.view import card_json, event_json, showdown_cards_json


def _settled(rules: str, seed: int, *, fold: bool = False, fold_below: float = 0.30) -> tuple[Game, RoundSettled]:
    game = Game(rules=rules, seed=seed, fold_below=fold_below)
    game.start_round()
    if fold:
        game.fold(0)
    else:
        game.exchange(0, [0, 1])
    while game.can_computer_act():
        game.computer_acts()
    while game.can_reveal():
        game.reveal_dealer_card()
    return game, game.settle()


def _check_laid_out(cards: list[dict[str, object]], evaluation: Evaluation) -> None:
    assert [c["code"] for c in cards] == [c.code_str for c in evaluation.showdown]
    rules = evaluation.rules
    became = [c["as"] for c in cards if "as" in c]
    assert [("as" in c) for c in cards] == [rules.is_wild(c) for c in evaluation.showdown]  # each wild card
    assert Counter(str(c["code"]) for c in became) == Counter(c.code_str for c in evaluation.jokers)  # type: ignore[index]
    for card, rank in zip(cards, evaluation.hand_class.order):
        if "as" in card:  # it stands where the card it became goes
            assert card["as"]["rank"] == card_json(Card(rank, None))["rank"]  # type: ignore[index]


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["standard", "joker", "deuces-wild", "ace-to-five"])
def test_every_hand_of_a_showdown_is_laid_out_in_showdown_order(rules: str) -> None:
    wild = 0
    for seed in range(8):
        game, settled = _settled(rules, seed)
        data = event_json(game, settled)
        _check_laid_out(data["dealer_cards"], settled.dealer)
        for result, shown in zip(settled.results, data["results"], strict=True):
            if result.evaluation is not None:
                _check_laid_out(shown["cards"], result.evaluation)
                wild += sum("as" in c for c in shown["cards"])
    assert wild > 0 or rules in ("standard", "ace-to-five")


@pytest.mark.parametrize(
    ("hand", "rules", "shown"),
    [
        ("JK 5S 6S 7S 9S", "joker", [("9♠", None), ("JK", "8♠"), ("7♠", None), ("6♠", None), ("5♠", None)]),
        ("JK JK AS AD AC", "joker", [("A♠", None), ("A♦", None), ("A♣", None), ("JK", "A♥"), ("JK", "A")]),
        ("2S 2H 9S 9D 4C", "deuces-wild", [("9♠", None), ("9♦", None), ("2♥", "9♥"), ("2♠", "9♣"), ("4♣", None)]),
        ("KH 4D KS 4C AS", "standard", [("K♠", None), ("K♥", None), ("4♦", None), ("4♣", None), ("A♠", None)]),
    ],
)
def test_a_wild_card_says_what_it_became(hand: str, rules: str, shown: list[tuple[str, str | None]]) -> None:
    cards = showdown_cards_json(evaluate(hand, rules=rules))
    assert [(c["text"], c["as"]["text"] if "as" in c else None) for c in cards] == shown


@pytest.mark.slow
def test_your_folded_hand_is_shown_to_you_and_a_computers_is_not() -> None:
    """Computers that fold every hand (fold_below 1) and a player who folds."""
    game, settled = _settled("standard", 3, fold=True, fold_below=1.0)
    data = event_json(game, settled)
    mine, *computers = data["results"]
    assert mine["outcome"] == "fold" and mine["hand"] is None
    folded = settled.results[0].folded
    assert folded is not None and mine["cards"] == [card_json(c) for c in folded.cards]
    assert computers and all(r["outcome"] == "fold" and r["cards"] is None for r in computers)
