"""The draw game: the engine through complete seeded games, and `fivecard
play` with piped input."""

from __future__ import annotations

import io
import json

import pytest

from fivecard import parse_cards
from fivecard.cli import main
from collections.abc import Callable
from typing import Any

from fivecard.core.errors import FivecardError
from fivecard.play.game import (
    DealerCard,
    Exchanged,
    Folded,
    Game,
    GameError,
    RoundSettled,
    RoundVoided,
    breaks_made_hand,
    keep_positions,
    split_pot,
)
from fivecard.core.evaluate import evaluate
from fivecard.core.hand import Hand
from fivecard.core.rules import RULE_SETS, get_rules
from fivecard.play.table_game import MAX_ROUNDS

TOTAL = 3_000


def books(game: Game) -> int:
    """Chips are neither made nor lost: stacks + pot + bets in play - house."""
    in_play = 0
    if game.current is not None:
        in_play = 10 * sum(1 for s in game.current.hands if s not in game.current.folded)
    return sum(game.stacks) + game.pot + in_play + game.house


def play_round(game: Game, human: str) -> RoundSettled:
    game.start_round()
    assert books(game) == TOTAL
    while game.phase == "draw":
        if game.turn == 0:
            if human == "fold":
                assert isinstance(game.fold(0), Folded)
            elif human == "all":
                event = game.exchange(0, [0, 1, 2, 3, 4])
                assert isinstance(event, Exchanged) and not event.drawn
            else:
                event = game.exchange(0, [])
                assert isinstance(event, Exchanged) and len(event.drawn) == 5
        else:
            game.computer_acts()
        assert books(game) == TOTAL
    reveals = []
    while game.can_reveal():
        reveals.append(game.reveal_dealer_card())
    assert [r.position for r in reveals] == [1, 2, 3, 4, 5]
    assert all(isinstance(r, DealerCard) for r in reveals)
    settled = game.settle()
    assert books(game) == TOTAL
    return settled


@pytest.mark.slow
def test_complete_seeded_game_through_the_engine() -> None:
    game = Game(seed=2026)
    first = play_round(game, "fold")
    assert first.results[0].against_dealer == "fold" and first.results[0].house == -10
    second = play_round(game, "all")
    third = play_round(game, "none")
    for settled in (first, second, third):
        assert "dealer" in " ".join(r.explanation for r in settled.results)
        assert settled.pot_explanation
    again = Game(seed=2026)
    assert play_round(again, "fold").dealer.hand == first.dealer.hand  # reproducible


def test_actions_are_validated() -> None:
    game = Game(seed=1)
    assert game.phase == "idle" and not game.can_reveal() and not game.can_settle()
    with pytest.raises(GameError, match="no seat is to act"):
        game.fold(0)
    game.start_round()
    assert not game.can_start()
    with pytest.raises(GameError, match="still in play"):
        game.verify_start()
    assert game.turn == 0 and not game.can_fold(1)
    with pytest.raises(GameError, match="it is You's turn"):
        game.verify_fold(1)
    with pytest.raises(GameError, match="positions are 1-5"):
        game.exchange(0, [5])
    with pytest.raises(GameError, match="twice"):
        game.exchange(0, [1, 1])
    with pytest.raises(GameError, match="after the draw"):
        game.reveal_dealer_card()
    assert not game.can_computer_act()
    with pytest.raises(GameError, match="no computer player"):
        game.computer_acts()
    game.exchange(0, [0, 1, 2, 3, 4])
    assert game.can_computer_act() and game.turn == 1
    with pytest.raises(GameError, match="after the dealer"):
        game.settle()


SPLIT_DECK = (
    "9S 8D 7C 6H 5S "  # You: a 9-high straight
    "9H 8C 7D 6S 5H "  # Computer 1: the same straight
    "2C 3D 7S JH KC "  # Computer 2: nothing
    "2D 3C 4H 4S JD 2S 3S QD QH AS AD KD"  # draws, then the dealer
)


def test_split_pot_with_a_stacked_deck() -> None:
    game = Game(seed=5, stacked=[parse_cards(SPLIT_DECK)])
    settled = play_round(game, "all")
    assert settled.pot_winners == (0, 1)
    assert [r.pot for r in settled.results[:2]] == [15, 15]
    assert settled.pot_explanation.startswith("You and Computer 1 split the pot of 30 (15, 15)")


def test_split_pot_odd_chips_go_to_the_earliest_seat() -> None:
    assert split_pot(50, [1, 2, 0]) == {0: 17, 1: 17, 2: 16}
    assert split_pot(30, [2, 1]) == {1: 15, 2: 15}


def test_carried_pot_when_everyone_folds() -> None:
    game = Game(seed=9, fold_below=1)  # the computers always fold
    settled = play_round(game, "fold")
    assert settled.pot_winners == () and settled.carried == 30
    assert "carries" in settled.pot_explanation
    started = game.start_round()
    assert started.carried == 30 and started.pot == 60


def test_a_seat_that_cannot_pay_sits_out() -> None:
    game = Game(seed=3)
    game.stacks[2] = 15
    started = game.start_round()
    assert started.seats == (0, 1)
    game.stacks[0] = 0
    game.current = None
    assert not game.can_start()


# --- voiding a round (quitting) ----------------------------------------------------


def table(game: Game) -> tuple[tuple[int, ...], int, int]:
    return tuple(game.stacks), game.pot, game.house


# Actions through one round, each followed by the phase it leaves.
ROUND: list[tuple[str, Callable[[Game], object], str]] = [
    ("start", Game.start_round, "draw"),
    ("you fold", lambda g: g.fold(0), "draw"),
    ("computer 1", Game.computer_acts, "draw"),
    ("computer 2", Game.computer_acts, "dealer"),
    ("dealer card 1", Game.reveal_dealer_card, "dealer"),
    ("dealer card 2", Game.reveal_dealer_card, "dealer"),
    ("dealer card 3", Game.reveal_dealer_card, "dealer"),
    ("dealer card 4", Game.reveal_dealer_card, "dealer"),
    ("dealer card 5", Game.reveal_dealer_card, "showdown"),
]


@pytest.mark.parametrize("fold_below", [0.0, 1.0], ids=["computers play", "computers fold"])
@pytest.mark.parametrize("stop", range(1, len(ROUND) + 1), ids=[step[0] for step in ROUND])
def test_void_gives_back_every_chip_of_the_round_in_any_phase(stop: int, fold_below: float) -> None:
    game = Game(seed=9, fold_below=fold_below)
    before = table(game)
    for _, action, phase in ROUND[:stop]:
        action(game)
        assert game.phase == phase and books(game) == TOTAL
        assert game.can_void()
    assert game.house == 10 * len(game.current.folded if game.current else ())  # house bets of folds
    voided = game.void_round()
    assert isinstance(voided, RoundVoided)
    assert voided.round == 1 and voided.returned == (20, 20, 20) and voided.pot == 0
    assert table(game) == before and voided.stacks == (1_000, 1_000, 1_000)
    assert game.phase == "idle" and game.current is None and books(game) == TOTAL
    assert game.played == 0 and not game.can_void()
    assert game.start_round().round == 2  # the game goes on; a voided round keeps its number


def test_void_is_refused_when_no_round_is_in_play() -> None:
    game = Game(seed=2)
    assert not game.can_void()
    with pytest.raises(GameError, match="no round is in play"):
        game.verify_void()
    play_round(game, "all")
    assert game.phase == "idle" and game.played == 1 and not game.can_void()
    settled = table(game)
    with pytest.raises(GameError, match="a settled round stands"):
        game.void_round()
    assert table(game) == settled and books(game) == TOTAL


def test_a_dealer_game_has_a_bound_on_its_rounds_as_a_friends_table_has() -> None:
    """A friends' table ends after MAX_ROUNDS rounds; a dealer game went on
    while its chips lasted (a stack of 1,000,000 chips pays for 50,000
    rounds at a loss), each round keeping about 7 KB of events: its history
    grew without bound. It starts no round past MAX_ROUNDS, with a sentence."""
    game = Game(seed=5)
    game.rounds = game.played = MAX_ROUNDS - 1  # the last round it may have
    play_round(game, "all")
    assert game.played == MAX_ROUNDS and game.can_play(0) and not game.can_start()
    with pytest.raises(GameError, match="^this game has played 10,000 rounds, the most a game may: start a new game$"):
        game.start_round()


def test_voided_rounds_count_toward_a_games_bound_on_its_rounds() -> None:
    """Each round started keeps events, settled or voided: a game that voids
    every round (quitting mid-round, again and again) meets the bound as
    one that settles them does (``played`` counts settled rounds only)."""
    game = Game(seed=6)
    game.rounds = MAX_ROUNDS - 1
    game.start_round()
    game.void_round()
    assert game.played == 0 and game.rounds == MAX_ROUNDS and not game.can_start()
    with pytest.raises(GameError, match="the most a game may"):
        game.start_round()
    restored = Game.from_state(game.to_state())  # the bound holds for a game kept and read again
    assert not restored.can_start()


def test_void_leaves_a_carried_pot_in_the_pot() -> None:
    game = Game(seed=9, fold_below=1)  # the computers always fold
    assert play_round(game, "fold").carried == 30
    after_first = table(game)
    started = game.start_round()
    assert started.pot == 60 and started.carried == 30
    game.fold(0)
    game.computer_acts()
    assert books(game) == TOTAL
    voided = game.void_round()
    assert voided.round == 2 and voided.returned == (20, 20, 20) and voided.pot == 30
    assert table(game) == after_first == ((980, 980, 980), 30, 30)
    assert books(game) == TOTAL and game.played == 1


def test_void_gives_nothing_to_a_seat_sitting_out() -> None:
    game = Game(seed=3)
    game.stacks[2] = 15
    game.start_round()
    voided = game.void_round()
    assert voided.returned == (20, 20, 0) and voided.stacks == (1_000, 1_000, 15)


# --- the constructor checks its arguments -----------------------------------------


@pytest.mark.parametrize("bad", [2, 1.01, -0.1, float("nan"), float("inf"), float("-inf"), "x", None, True])
def test_fold_below_must_be_a_number_from_0_to_1(bad: Any) -> None:
    with pytest.raises(GameError, match="fold_below must be a number from 0 to 1, got") as caught:
        Game(fold_below=bad)
    assert isinstance(caught.value, FivecardError) and isinstance(caught.value, ValueError)
    assert "--" not in str(caught.value)  # the library does not speak of command-line flags


def test_fold_below_at_the_limits() -> None:
    assert Game(fold_below=0).fold_below == 0.0 and Game(fold_below=1).fold_below == 1.0


FULL = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH JH TH 9H 8H"  # 20 cards, just enough


@pytest.mark.parametrize(
    ("rules", "deck", "message"),
    [
        ("standard", "AH " + FULL[3:], r"holds A♥ twice \(cards 1 and 14\)"),
        ("standard", FULL[:-3], "has 19 cards; 3 seats and the dealer need at least 20"),
        ("standard", "", "has 0 cards"),
        ("standard", FULL[:-3] + " JK", "card 20 of the stacked deck is a joker, which the standard rules do not use"),
        ("joker", "JK JK JK " + FULL[9:], "holds 3 jokers; the joker rules have 2"),
        ("standard", FULL[:-3] + " Q", r"card 20 of the stacked deck \('Q'\) has no suit"),
        ("semi", "A A A A A " + FULL[15:], r"holds five Aces \(card 5 is the fifth\); a deck has four"),
    ],
    ids=["duplicate", "too few", "empty", "joker", "three jokers", "no suit", "five aces"],
)
def test_a_stacked_deck_is_checked_when_the_game_is_made(rules: str, deck: str, message: str) -> None:
    with pytest.raises(GameError, match=message) as caught:
        Game(rules=rules, stacked=[parse_cards(deck)])
    assert str(caught.value).startswith(("the stacked deck", "card ")) and "--" not in str(caught.value)
    with pytest.raises(GameError, match="stacked deck 2 "):
        Game(rules=rules, stacked=[parse_cards(FULL), parse_cards(deck)])


def test_a_short_stacked_deck_keeps_the_dealers_cards() -> None:
    game = Game(seed=1, stacked=[parse_cards(FULL)])
    game.start_round()
    assert not game.can_exchange(0, [1, 2, 3, 4])
    with pytest.raises(GameError, match="cannot draw 1: 0 cards left in the deck besides the dealer's five"):
        game.exchange(0, [1, 2, 3, 4])
    game.exchange(0, [0, 1, 2, 3, 4])
    while game.can_computer_act():  # the computers keep what they can
        event = game.computer_acts()
        assert isinstance(event, Folded) or not event.drawn
    while game.can_reveal():
        game.reveal_dealer_card()
    assert "Q♥ J♥ 10♥ 9♥ 8♥" == " ".join(map(str, game.dealer_cards))
    game.settle()
    assert books(game) == TOTAL


def test_rank_only_stacked_deck_under_semi() -> None:
    deck = parse_cards("A A A A K K K K Q Q Q Q J J J J 10 10 10 10 9 9")
    game = Game(rules="semi", seed=1, stacked=[deck])
    game.start_round()
    hand = game.hand(0)
    assert hand is not None and " ".join(map(str, hand.cards)) == "A A A A K"


def test_keep_positions_with_repeated_ranks() -> None:
    cards = parse_cards("Q 5 Q K 9")
    assert keep_positions(cards, parse_cards("Q Q 9")) == [0, 2, 4]
    assert keep_positions(cards, ()) == []


@pytest.mark.parametrize(
    ("keep", "message"),
    [
        ([5], "there is no card 6 (the card positions are 1-5)"),
        ([0, -1], "there is no card 0 (the card positions are 1-5)"),
        ([14], "there is no card 15 (the card positions are 1-5)"),
        ([0, 2, 0], "a card position is given twice (position 1)"),
        ([4, 3, 4], "a card position is given twice (position 5)"),
    ],
)
def test_a_refused_exchange_names_the_position(keep: list[int], message: str) -> None:
    game = Game(seed=1)
    game.start_round()
    with pytest.raises(GameError) as refused:
        game.exchange(0, keep)
    assert str(refused.value) == message


# (rules, hand, positions kept (1-based), the made hand broken or None)
MADE_HANDS = [
    ("standard", "KH 4D KS 4C AS", "1 2 3 4", None),  # Two Pair draws to its kicker
    ("standard", "KH 4D KS 4C AS", "1 3", "Two Pair"),
    ("standard", "KH 4D KS 4C AS", "", "Two Pair"),
    ("standard", "7H 7D 7S QC 2S", "1 2 3", None),
    ("standard", "7H 7D 7S QC 2S", "1 2 4 5", "Three of a Kind"),
    ("standard", "9H 8D 7S 6C 5S", "1 2 3 4", "Straight"),
    ("standard", "AH JH 8H 4H 2H", "1 2 3 4", "Flush"),
    ("standard", "QH QD QS 5C 5S", "1 2 3", "Full House"),
    ("standard", "8H 8D 8S 8C 2S", "1 2 3 4", None),
    ("standard", "KH KD 7S 4C 2S", "", None),  # One Pair is no made hand
    ("standard", "AH KD 7S 4C 2S", "", None),
    ("ace-king", "AH KD 7S 4C 2S", "", None),  # Ace-King sits below One Pair
    ("semi", "K 4 K 4 A", "1 2 3 4", None),
    ("semi", "K 4 K 4 A", "1 3", "Two Pair"),
    ("short-deck", "AH 9D 8S 7C 6S", "2 3 4 5", "Straight"),  # A-6-7-8-9
    ("joker", "JK KS KD 4C 2S", "1 2 3", None),
    ("joker", "JK KS KD 4C 2S", "2 3", "Three of a Kind"),  # the joker is one of the three
    ("deuces-wild", "2H 2D 5H 9D AD", "1 2 5", None),
    ("deuces-wild", "2H 2D 5H 9D AD", "5", "Three of a Kind"),
    ("deuces-wild", "2H QD 5H 9D AD", "", None),  # a wild card's pair is One Pair
    ("ace-to-five", "2H QH 5H 9D AD", "1 3 4 5", "No Pair"),
    ("ace-to-five", "2H 2D 5H 9D AD", "", None),
    ("deuce-to-seven", "7H 5D 4C 3S 2H", "1 2 3 4 5", None),
    ("deuce-to-seven", "8H 7H 5H 3H 2H", "", None),  # a flush is a bad low
]


@pytest.mark.parametrize(("rules", "cards", "kept", "broken"), MADE_HANDS)
def test_breaking_a_made_hand(rules: str, cards: str, kept: str, broken: str | None) -> None:
    hand = Hand(parse_cards(cards), get_rules(rules))
    made = breaks_made_hand(hand, [int(p) - 1 for p in kept.split()])
    assert (made and made.label) == broken


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_made_hands_are_two_pair_or_better_or_a_lows_best_rung(rules: str) -> None:
    """Over many deals under every rule set: keeping all five breaks
    nothing; keeping none breaks exactly the made hands, Two Pair or better
    on the ladder (lowball: its best rung)."""
    game_rules = get_rules(rules)
    game = Game(rules=rules, seed=7)
    for number in range(1, 201):
        deck = game.shoe.deck(number)
        hand = Hand(tuple(deck[:5]), game_rules)
        evaluation = evaluate(hand)
        if game_rules.low:
            made = evaluation.category == game_rules.ladder[-1]
        else:
            made = evaluation.score >= game_rules.score(next(c for c in game_rules.ladder if c.name == "two_pair"))
        assert breaks_made_hand(hand, range(5)) is None
        assert (breaks_made_hand(hand, []) is not None) == made, hand


def run(argv: list[str], stdin: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.slow
def test_play_piped_complete_game_with_bad_input() -> None:
    answers = "x\n9\n1 1\nh\n1 2\n\na\n\nn\n\nf\nq\n"
    code, out, err = run(["play", "--seed", "11"], answers)
    assert code == 0 and err == ""
    assert "Sorry: 'x' is not a card position or a command." in out
    assert "Sorry: there is no card 9 (the card positions are 1-5)." in out
    assert "Sorry: a card position is given twice (position 1)." in out
    assert "Hint: Keep" in out
    assert "You keep all five cards." in out
    assert "You fold: your ante and your house bet are lost." in out
    assert "Round 4:" in out and "After 4 rounds:" in out
    assert out.count("Dealer:") == 4
    again = run(["play", "--seed", "11"], answers)[1]
    assert again == out  # reproducible


def test_play_split_and_carried_pots_through_the_command() -> None:
    code, out, _ = run(["play", "--seed", "1", "--deck", SPLIT_DECK], "a\nq\n")
    assert "You and Computer 1 split the pot of 30 (15, 15)" in out
    code, out, _ = run(["play", "--seed", "1", "--fold-below", "1"], "f\n\nq\n")
    assert "the pot of 30 carries to the next round" in out
    assert "pot 60 (30 carried)" in out


def test_play_ends_at_end_of_input() -> None:
    code, out, _ = run(["play", "--seed", "2"], "")
    assert code == 0 and "Round 1 is void" in out and "After 0 rounds:" in out


@pytest.mark.slow
def test_play_rule_sets() -> None:
    for rules in ("joker", "semi", "ace-king"):
        code, out, _ = run(["play", "--seed", "4", "--rules", rules], "a\nq\n")
        assert code == 0 and f"({rules} rules" in out and "Dealer has" in out


@pytest.mark.slow
def test_advise_command() -> None:
    code, out, _ = run(["advise", "AS AH 7C 4D 2S"], "")
    assert code == 0 and "Recommended (*): Keep A♠ A♥, exchange 3" in out
    assert "(exact: 2,598,960 draws and 1,533,939 dealer hands enumerated)" in out
    code, out, _ = run(["advise", "--json", "--paytable", "jacks-or-better", "AS KS QS JS 2D"], "")
    data = json.loads(out)
    assert data["paytable"] == "Jacks or Better 9/6" and data["recommended"] == 0
    assert data["choices"][0]["keep"] == ["As", "Ks", "Qs", "Js"]
    assert set(data["choices"][0]) == {"keep", "discard", "ev", "categories", "final", "likeliest"}
    code, out, _ = run(["advise", "--json", "JK 7H 7D 7S 2C", "--rules", "joker"], "")
    first = json.loads(out)["choices"][0]
    assert set(first) == {"keep", "discard", "win", "draw", "lose", "categories", "likeliest"}
    assert abs(first["win"] + first["draw"] + first["lose"] - 1) < 1e-9
    code, _, err = run(["advise", "AS AH 7C 4D"], "")
    assert code == 2 and "expected 5 cards" in err
    code, _, err = run(["advise", "--paytable", "nope", "AS AH 7C 4D 2S"], "")
    assert code == 2 and "unknown pay table" in err
