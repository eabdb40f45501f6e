"""Every sentence the dealer game says, as a person writes it: each starts
with a capital, and the player, "You" as a subject, is "you" anywhere else
("The dealer beats you"). Walked over whole games under several rule sets,
folds, exchanges and a round everyone folds, in both the page's words
(view.event_json: the event texts, each seat's explanation, the pot's) and
the terminal's (view.event_lines)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from fivecard.core.report import Painter
from fivecard.play.game import Game
from fivecard.core.rules import RULE_SETS
from fivecard.play.view import Event, a_hand, event_json, event_lines, history_entry

#: "You" where a sentence or a clause starts, or as a name in a list of stacks or chips.
YOU_ALLOWED = re.compile(r"(^|[.:;] |\()You\b|, You \d")


def _rounds(rules: str, seed: int, fold_below: float = 0.30) -> Iterator[tuple[Game, Event]]:
    game = Game(rules=rules, seed=seed, trainer=True, fold_below=fold_below)
    for number in range(3):
        if not game.can_start():
            return
        yield game, game.start_round()
        if (seed + number) % 3 == 0:
            yield game, game.fold(0)
        else:
            yield game, game.exchange(0, [] if (seed + number) % 3 == 1 else [0, 1])
        while game.can_computer_act():
            yield game, game.computer_acts()
        while game.can_reveal():
            yield game, game.reveal_dealer_card()
        yield game, game.settle()


def _sentences(game: Game, event: Event) -> Iterator[str]:
    data = event_json(game, event)
    yield data["text"]
    if data["type"] == "round_settled":
        yield data["pot_explanation"]
        yield from (r["explanation"] for r in data["results"])
    if "verdict" in data:
        yield data["verdict"]["text"]
    yield from (line.strip() for line in event_lines(game, event, Painter(color=False)) if line.strip())


def _walk(rules: str, seeds: range, fold_below: float = 0.30) -> list[str]:
    return [s for seed in seeds for game, event in _rounds(rules, seed, fold_below) for s in _sentences(game, event)]


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["standard", "joker", "deuces-wild", "ace-to-five", "semi"])
def test_every_sentence_starts_with_a_capital_and_says_you_mid_sentence(rules: str) -> None:
    sentences = _walk(rules, range(6))
    assert len(sentences) > 100
    assert [s for s in sentences if not s[:1].isupper()] == []
    assert [s for s in sentences if "You" in YOU_ALLOWED.sub("", s)] == []
    assert any("The dealer beats you:" in s for s in sentences)


@pytest.mark.slow
def test_a_round_everyone_folds_says_so_with_a_capital() -> None:
    """Computers that fold every hand (fold_below 1) and a player who folds:
    the pot carries, and the sentence saying so starts with a capital."""
    sentences = _walk("standard", range(1), fold_below=1.0)
    assert any(s.startswith("Everyone folded: the pot of 30 carries") for s in sentences)
    assert [s for s in sentences if not s[:1].isupper()] == []


#: Every hand's name after "the dealer had", as a person writes it: a
#: count of cards or no combination takes no article, "an" goes before a vowel.
HAD = {
    "High Card": "High Card",
    "No Pair": "No Pair",
    "Ace-King": "an Ace-King",
    "One Pair": "One Pair",
    "Two Pair": "Two Pair",
    "Three of a Kind": "Three of a Kind",
    "Straight": "a Straight",
    "Flush": "a Flush",
    "Full House": "a Full House",
    "Four of a Kind": "Four of a Kind",
    "Straight Flush": "a Straight Flush",
    "Royal Flush": "a Royal Flush",
    "Five of a Kind": "Five of a Kind",
}


@pytest.mark.parametrize("rules", list(RULE_SETS))
def test_every_hand_of_every_rule_set_is_said_with_its_article(rules: str) -> None:
    for category in RULE_SETS[rules].ladder:
        assert category.label in HAD, f"{category.label!r} of {rules}: how is it said after 'the dealer had'?"
        assert a_hand(category.label) == HAD[category.label]


def test_the_history_says_what_the_dealer_had_with_its_article() -> None:
    game = Game(rules="standard", seed=3, trainer=False)
    for _ in range(3):
        game.start_round()
        game.exchange(0, [])
        while game.can_computer_act():
            game.computer_acts()
        while game.can_reveal():
            game.reveal_dealer_card()
        settled = event_json(game, game.settle())
        entry = history_entry(settled)
        assert entry["dealer_had"] == HAD[entry["dealer"]]
