"""The trainer: each exchange you make judged against the advisor's choices
for the hand you held (ExchangeVerdict), its numbers the advice's own, and
the dealer game carrying the verdict on your exchange only."""

from __future__ import annotations

import pytest

from fivecard import parse_cards
from fivecard.core.cards import Card, format_cards, full_deck
from fivecard.core.report import Painter
from fivecard.play.advise import Advice, Choice, advise
from fivecard.play.game import BET, Exchanged, ExchangeVerdict, Game, GameError, keep_positions
from fivecard.play.paytables import builtin_paytable
from fivecard.play.percent import percent
from fivecard.play.view import event_json, event_lines, game_view

PAIR = "KS KH 7C 4D 2S"


@pytest.fixture(scope="module")
def pair() -> Advice:
    return advise(PAIR)


def _stacked(hand: str) -> list[Card]:
    """A deck that deals ``hand`` to you, the rest in the deck's order."""
    mine = parse_cards(hand)
    return [*mine, *(c for c in full_deck() if c not in mine)]


def test_the_advisors_choice_is_the_best_play(pair: Advice) -> None:
    verdict = ExchangeVerdict.of(pair, keep_positions(pair.hand.cards, pair.recommended.keep))
    assert verdict.best and verdict.chosen == verdict.advised == pair.recommended
    assert (verdict.win, verdict.draw, verdict.chips) == (0.0, 0.0, 0.0)
    assert verdict.text() == (
        f"Best play: you kept K♠ K♥, the advisor's choice (beats the dealer {percent(pair.recommended.win)})."
    )


def test_breaking_a_pair_costs_what_the_advice_says(pair: Advice) -> None:
    verdict = ExchangeVerdict.of(pair, [0])  # the king of spades alone
    chosen = next(c for c in pair.choices if c.keep == tuple(parse_cards("KS")))
    best = pair.recommended
    assert best.keep == tuple(parse_cards("KS KH"))
    assert not verdict.best and verdict.chosen == chosen and verdict.advised == best
    assert verdict.win == best.win - chosen.win and verdict.draw == best.draw - chosen.draw
    assert verdict.chips == pytest.approx(BET * ((best.win - best.lose) - (chosen.win - chosen.lose)), abs=1e-12)
    points = round(best.win * 100, 1) - round(chosen.win * 100, 1)
    assert verdict.text() == (
        f"Not the best play: you kept K♠ (beats the dealer {percent(chosen.win)}); the advisor keeps K♠ K♥ "
        f"({percent(best.win)}): {points:.1f} points less chance to win, {verdict.chips:.2f} chips lost on "
        f"average on the house bet of {BET} (the pot aside)."
    )
    data = verdict.to_json()
    assert data == {
        "best": False,
        "chosen": {"keep": ["Ks"], "win": chosen.win, "draw": chosen.draw, "lose": chosen.lose},
        "advised": {"keep": ["Ks", "Kh"], "win": best.win, "draw": best.draw, "lose": best.lose},
        "win": verdict.win,
        "draw": verdict.draw,
        "chips": verdict.chips,
        "bet": BET,
        "text": verdict.text(),
    }


def test_every_choice_of_a_hand_is_judged_by_its_score(pair: Advice) -> None:
    cards = pair.hand.cards
    for choice in pair.choices:
        verdict = ExchangeVerdict.of(pair, keep_positions(cards, choice.keep))
        assert verdict.chosen == choice
        assert verdict.best == (choice.score == pair.recommended.score)
        assert verdict.chips >= 0 and verdict.chips == pytest.approx(BET * (pair.recommended.score - choice.score))
        assert verdict.text().startswith("Best play: " if verdict.best else "Not the best play: ")
        kept = "exchanged all five" if not choice.keep else (
            f"kept all five, {format_cards(choice.keep)}" if not choice.discard else f"kept {format_cards(choice.keep)}"
        )
        assert f"you {kept}" in verdict.text() and f"(beats the dealer {percent(choice.win)})" in verdict.text()


def test_equal_chances_are_no_mistake() -> None:
    # the spade king or the heart king, beside three diamonds: the same chances
    advice = advise("KS KH 8D 5D 3D")
    spade, heart = (next(c for c in advice.choices if c.keep == (card,)) for card in parse_cards("KS KH"))
    assert spade.score == pytest.approx(heart.score, abs=1e-12)
    assert ExchangeVerdict(spade, heart).best and ExchangeVerdict(heart, spade).best
    assert ExchangeVerdict(spade, heart).chips == 0.0
    assert "as good as the advisor's choice" in ExchangeVerdict(spade, heart).text()
    tied = Choice(parse_cards("KS"), (), 0.4, 0.1, 0.5, {})
    assert ExchangeVerdict(tied, Choice(parse_cards("KH"), (), 0.4, 0.1, 0.5, {})).best


def test_more_chance_to_win_can_still_be_the_worse_play() -> None:
    # a choice that wins more often but loses more often too (fewer draws)
    chosen = Choice(parse_cards("KS"), (), 0.42, 0.0, 0.58, {})
    advised = Choice(parse_cards("KH"), (), 0.41, 0.10, 0.49, {})
    verdict = ExchangeVerdict(chosen, advised)
    assert not verdict.best and verdict.win == pytest.approx(-0.01)
    assert verdict.chips == pytest.approx(10 * ((0.41 - 0.49) - (0.42 - 0.58)))
    assert "1.0 points more chance to win but more to lose, 0.80 chips lost" in verdict.text()


def test_a_pay_table_advice_is_not_judged_against_the_dealer() -> None:
    advice = advise(PAIR, paytable=builtin_paytable("jacks-or-better-9-6"))
    with pytest.raises(GameError, match="against the dealer"):
        ExchangeVerdict.of(advice, [0, 1])


# --- the dealer game --------------------------------------------------------------------


def _your_exchange(trainer: bool, keep: list[int]) -> tuple[Game, Exchanged, list[Exchanged]]:
    game = Game(seed=1, stacked=[_stacked(PAIR)], trainer=trainer)
    game.start_round()
    mine = game.exchange(0, keep)
    theirs = []
    while game.can_computer_act():
        event = game.computer_acts()
        if isinstance(event, Exchanged):
            theirs.append(event)
    return game, mine, theirs


def test_with_the_trainer_on_your_exchange_carries_the_verdict(pair: Advice) -> None:
    game, mine, theirs = _your_exchange(True, [0, 2])
    assert mine.verdict == ExchangeVerdict.of(pair, [0, 2])
    assert theirs and all(e.verdict is None for e in theirs)
    data = event_json(game, mine)
    assert data["verdict"] == mine.verdict.to_json()
    assert [e for e in (event_json(game, t) for t in theirs) if "verdict" in e] == []
    line = event_lines(game, mine, Painter(color=False))[-1]
    assert line == f"Trainer: {mine.verdict.text()}"
    assert game_view(game)["trainer"] is True


def test_with_the_trainer_off_no_exchange_is_judged() -> None:
    game, mine, theirs = _your_exchange(False, [0, 2])
    assert mine.verdict is None and "verdict" not in event_json(game, mine)
    assert not any(line.startswith("Trainer:") for line in event_lines(game, mine, Painter(color=False)))
    assert game_view(game)["trainer"] is False


def test_keeping_all_five_is_judged_too(pair: Advice) -> None:
    game, mine, _ = _your_exchange(True, [0, 1, 2, 3, 4])
    assert mine.verdict == ExchangeVerdict.of(pair, [0, 1, 2, 3, 4]) and not mine.verdict.best
    assert event_lines(game, mine, Painter(color=False)) == ["You keep all five cards.", f"Trainer: {mine.verdict.text()}"]


def test_only_your_exchange_may_show_a_verdict() -> None:
    kept = {"type": "exchanged", "round": 1, "seat": 1, "count": 2, "text": "x", "verdict": {"best": True}}
    assert "verdict" not in Game.public_event(kept)
    assert Game.public_event({**kept, "seat": 0})["verdict"] == {"best": True}
