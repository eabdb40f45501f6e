"""The chips of every dealer round, and a game's session figures: for every
seat of every settled round the ante, the house bet's result and the pot's
share add up to the net, which is exactly the change of its stack; the
round's sentences say the same figures; the session figures are what the
rounds say. Walked over many seeded games of every rule set with every
kind of round: folds, rounds everyone folds, carried pots, split pots,
seats sitting out, voided rounds."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from fivecard import parse_cards
from fivecard.core.rules import RULE_SETS
from fivecard.play.game import ANTE, BET, Game, RoundSettled
from fivecard.play.view import event_json, event_lines, session_json, Session
from fivecard.core.report import Painter

SPLIT_DECK = (
    "9S 8D 7C 6H 5S "  # You: a 9-high straight
    "9H 8C 7D 6S 5H "  # Computer 1: the same straight
    "2C 3D 7S JH KC "  # Computer 2: nothing
    "2D 3C 4H 4S JD 2S 3S QD QH AS AD KD"  # draws, then the dealer
)

DRAW_DECK = (
    "9S 8D 7C 6H 5S "  # You: a 9-high straight
    "2C 3D 7S JH KC "  # Computer 1: nothing
    "2D 3C 4H 4S JD "  # Computer 2: a pair
    "9H 8C 7D 6S 5H 2S 3S QD QH AS AD KD"  # the dealer: the same straight
)

#: The figures of a chips sentence: "+10 house bet", "−10 ante", ...
FIGURE = re.compile(r"([+−]?[\d,]+) (house bet|pot|ante|net)")


def figures(text: str) -> dict[str, int]:
    found = {what: int(n.replace("−", "-").replace(",", "")) for n, what in FIGURE.findall(text)}
    assert len(found) == len(FIGURE.findall(text)), text  # each figure once
    return found


def played(game: Game, rng: random.Random, fold: float, void: float, mode: str) -> Iterator[tuple[tuple[int, ...], Any]]:
    """One round played by ``rng`` for every seat (the computers' seats too,
    so that no advisor is asked): each folds with chance ``fold`` or keeps
    a random choice of its cards (every seat folds in the ``"fold"``
    ``mode``, keeps all five in the ``"keep"`` one); the round is voided
    with chance ``void`` at a random moment. Yields the stacks before the
    round and each event."""
    before = tuple(game.stacks)
    yield before, game.start_round()
    if rng.random() < void:
        yield before, game.void_round()
        return
    while game.phase == "draw":
        seat = game.turn
        assert seat is not None
        if mode == "fold" or (mode == "random" and rng.random() < fold):
            yield before, game.fold(seat)
        else:
            keep = [p for p in range(5) if mode == "keep" or rng.random() < 0.5]
            if not game.can_exchange(seat, keep):
                keep = [0, 1, 2, 3, 4]
            yield before, game.exchange(seat, keep)
    if rng.random() < void:
        yield before, game.void_round()
        return
    while game.can_reveal():
        yield before, game.reveal_dealer_card()
    yield before, game.settle()


def games() -> Iterator[tuple[Game, random.Random, float, float]]:
    """Seeded games of every rule set: stacks that last or run out, few or
    many folds, few or many voids; some start with a split pot after a pot
    everyone folded."""
    for n, rules in enumerate(RULE_SETS):
        for k, (stack, fold, void) in enumerate([(1000, 0.1, 0.05), (100, 0.5, 0.2), (60, 0.9, 0.0)]):
            seed = 100 * n + k
            yield Game(rules=rules, seed=seed, stack=stack), random.Random(seed), fold, void
            if rules == "standard":  # a round everyone folds, a split pot of 60, a draw with the dealer
                stacked = [parse_cards(SPLIT_DECK), parse_cards(SPLIT_DECK), parse_cards(DRAW_DECK)]
                yield Game(rules=rules, seed=seed, stack=stack, stacked=stacked), random.Random(seed), fold, void


def test_every_seats_chips_add_up_in_every_round_of_many_seeded_games() -> None:
    seen: Counter[str] = Counter()
    for game, rng, fold, void in games():
        carried = 0
        settled_json: list[dict[str, Any]] = []
        for number in range(40):
            if not game.can_start():
                seen["game over"] += 1
                break
            # the stacked split deck's round comes after a round everyone folds
            if game.stacked:
                mode = "fold" if len(game.stacked) == 3 else "keep"
            else:
                mode = "fold" if rng.random() < 0.05 else "random"
            for before, event in played(game, rng, fold, void if mode == "random" else 0.0, mode):
                pass
            if not isinstance(event, RoundSettled):
                seen["void"] += 1
                assert tuple(game.stacks) == before and game.pot == carried
                continue
            assert event.carried_in == carried
            data = event_json(game, event)
            check_round(game, event, data, before, seen)
            settled_json.append(data)
            carried = event.carried
        check_session(game, settled_json)
    # every kind of round was walked
    for kind in ("fold", "win", "lose", "draw", "all fold", "carried in", "split", "sits out", "void", "game over"):
        assert seen[kind] > 0, kind


def check_round(game: Game, event: RoundSettled, data: dict[str, Any], before: Sequence[int], seen: Counter[str]) -> None:
    results = {r.seat: r for r in event.results}
    rows = {row["seat"]: row for row in data["results"]}
    for seat, name in enumerate(game.names):
        change = event.stacks[seat] - before[seat]
        if seat not in results:  # not dealt in: the round cost nothing
            seen["sits out"] += 1
            assert change == 0
            continue
        result, row = results[seat], rows[seat]
        seen[result.against_dealer] += 1
        assert result.ante == ANTE
        assert result.house == {"win": BET, "lose": -BET, "draw": 0, "fold": -BET}[result.against_dealer]
        assert result.net == result.house + result.pot - result.ante == change
        assert (row["ante"], row["house"], row["pot"], row["chips"]) == (result.ante, result.house, result.pot, change)
        said = figures(row["chips_text"])
        assert said == {"house bet": result.house, "ante": -ANTE, "net": change} | ({"pot": result.pot} if result.pot else {})
        assert said["net"] == sum(v for k, v in said.items() if k != "net")
        assert row["chips_text"].startswith(name + " ")
    # the pot: its size, what was carried into it, who took it
    shares = sum(r.pot for r in event.results)
    assert event.pot == event.carried_in + ANTE * len(event.results)
    assert data["carried_in"] == event.carried_in and data["pot"] == event.pot
    if event.carried_in:
        seen["carried in"] += 1
        assert f"{event.carried_in:,} of it carried in" in data["pot_text"]
    if event.pot_winners:
        assert shares == event.pot and event.carried == 0
        assert f"the pot of {event.pot:,}" in data["pot_text"]
        assert all(f" {r.pot:,}" in data["pot_text"] for r in event.results if r.pot) or len(event.pot_winners) == 1
        if len(event.pot_winners) > 1:
            seen["split"] += 1
            assert " split the pot of " in data["pot_text"]
    else:
        seen["all fold"] += 1
        assert shares == 0 and event.carried == event.pot
        assert data["pot_text"].startswith("Everyone folded: ")
    # the player's line: the seat's sentence, then the pot's
    mine = rows[0]
    assert data["chips_text"].startswith(mine["chips_text"] + "; ")
    assert data["chips_text"][len(mine["chips_text"]) + 2 :].lower() == data["pot_text"].lower()
    # the terminal says the same figures
    lines = "\n".join(event_lines(game, event, Painter(color=False)))
    for row in data["results"]:
        assert (row["chips_text"].partition(": ")[2] + ".") in lines


def check_session(game: Game, settled: list[dict[str, Any]]) -> None:
    opening = settled[0]["stacks"][0] - settled[0]["results"][0]["chips"] if settled else game.stacks[0]
    figures = session_json(settled, game.stacks[0])
    assert figures["rounds"] == len(settled) == game.played
    assert figures["chips"] == [opening, *(e["stacks"][0] for e in settled)]
    assert figures["chips"][-1] == game.stacks[0] and figures["net"] == game.stacks[0] - opening
    outcomes = Counter(e["results"][0]["outcome"] for e in settled)
    assert figures["against_dealer"] == {k: outcomes[k] for k in ("win", "lose", "draw", "fold")}
    assert figures["pots"] == sum(1 for e in settled if 0 in e["pot_winners"])
    assert figures["pot_chips"] == sum(e["results"][0]["pot"] for e in settled)
    # events an earlier version kept (without the new keys) say the same
    old = [
        {k: v for k, v in e.items() if k not in ("carried_in", "pot_text", "chips_text")}
        | {"results": [{k: v for k, v in r.items() if k not in ("ante", "chips_text")} for r in e["results"]]}
        for e in settled
    ]
    assert session_json(old, game.stacks[0]) == figures
    # one round at a time, as a page's figures are kept up to date
    session = Session()
    for event in settled:
        session.add(event)
    assert session.to_json(game.stacks[0]) == figures


def test_the_session_figures_start_at_the_stack_before_the_first_round() -> None:
    game = Game(seed=4, stack=500)
    assert session_json((), game.stacks_before[0])["chips"] == [500]
    game.start_round()  # in play: the stack before it
    assert game.stacks[0] == 480 and game.stacks_before == (500, 500, 500)
    figures = session_json((), game.stacks_before[0])
    assert figures == {
        "rounds": 0, "against_dealer": {"win": 0, "lose": 0, "draw": 0, "fold": 0}, "pots": 0,
        "pot_chips": 0, "chips": [500], "net": 0, "text": "No round settled yet; chips 500.",
    }  # fmt: skip


def test_the_session_sentence_counts_as_a_person_writes() -> None:
    game = Game(seed=5, stacked=[parse_cards(SPLIT_DECK)])
    game.start_round()
    for seat in (0, 1, 2):
        game.exchange(seat, [0, 1, 2, 3, 4])
    while game.can_reveal():
        game.reveal_dealer_card()
    data = event_json(game, game.settle())
    assert data["pot_text"] == "You and Computer 1 split the pot of 30 (you 15, Computer 1 15)"
    assert data["chips_text"] == (
        "You beat the dealer: +10 house bet, +15 pot, −10 ante, +15 net; "
        "you and Computer 1 split the pot of 30 (you 15, Computer 1 15)"
    )
    assert session_json([data], 0)["text"] == (
        "1 round against the dealer: 1 win, 0 losses, 0 draws, 0 folds; 1 pot won; chips 1,000 → 1,015 (+15)."
    )


def test_a_fold_and_a_carried_pot_in_words() -> None:
    game = Game(seed=9)
    game.start_round()
    for seat in (0, 1, 2):
        game.fold(seat)
    while game.can_reveal():
        game.reveal_dealer_card()
    folded = event_json(game, game.settle())
    assert [r["chips_text"] for r in folded["results"]] == [
        "You folded: −10 house bet, −10 ante, −20 net",
        "Computer 1 folded: −10 house bet, −10 ante, −20 net",
        "Computer 2 folded: −10 house bet, −10 ante, −20 net",
    ]
    assert folded["chips_text"] == (
        "You folded: −10 house bet, −10 ante, −20 net; everyone folded: the pot of 30 carries to the next round"
    )
    game.start_round()
    game.fold(0)
    game.fold(1)
    game.exchange(2, [0, 1, 2, 3, 4])
    while game.can_reveal():
        game.reveal_dealer_card()
    data = event_json(game, game.settle())
    assert data["carried_in"] == 30 and data["pot"] == 60
    assert data["pot_text"] == "Computer 2 took the pot of 60, 30 of it carried in"


@pytest.mark.parametrize("stop", ["draw", "dealer", "showdown"])
def test_a_game_saved_in_the_middle_of_a_round_settles_the_same_chips(stop: str) -> None:
    """The state keeps what a round's chips are made of (the stacks and the
    pot before it): a restored game, and a state an earlier version saved,
    settle the round with the same figures."""
    game = Game(seed=9)
    game.start_round()
    for seat in (0, 1, 2):
        game.fold(seat)
    while game.can_reveal():
        game.reveal_dealer_card()
    game.settle()  # a pot of 30 carried
    game.start_round()
    game.exchange(0, [0, 1, 2, 3, 4])
    if stop != "draw":
        game.exchange(1, [0, 1, 2, 3, 4])
        game.fold(2)
        if stop == "showdown":
            while game.can_reveal():
                game.reveal_dealer_card()
    state = game.to_state()
    assert "session" not in state and "chips" not in state  # nothing derivable is kept
    again = Game.from_state(state)

    def finish(g: Game) -> dict[str, Any]:
        while g.phase == "draw":
            seat = g.turn
            assert seat is not None
            g.exchange(seat, [0, 1, 2, 3, 4])
        while g.can_reveal():
            g.reveal_dealer_card()
        return event_json(g, g.settle())

    assert finish(again) == finish(game)
    assert game.stacks == again.stacks
