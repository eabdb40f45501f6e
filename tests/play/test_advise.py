"""The hold advisor: exact enumeration, checked against brute force on a
restricted deck; probabilities sum to 1; pay tables."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from fivecard import Card, FivecardError, Hand, parse_cards, strength
from fivecard.files.paytable_file import load_paytable
from fivecard.play.advise import advise, unseen_cards
from fivecard.core.report import Painter
from fivecard.play.paytables import JACKS_OR_BETTER, PAYTABLES, PayTable
from fivecard.play.percent import percent


def key(cards: tuple[Card, ...]) -> tuple[str, ...]:
    """A keep choice by its cards (rank-only hands may hold one card twice)."""
    return tuple(sorted(c.code_str for c in cards))


def brute_force(hand: Hand, pool: tuple[Card, ...]) -> dict[tuple[str, ...], tuple[float, float, float]]:
    """Every keep choice: every completion against every dealer hand, with
    the single-hand evaluator and nothing shared with the library's batch code."""
    rules = hand.rules
    dealer = [strength(Hand.of(d, rules=rules)) for d in itertools.combinations(pool, 5)]
    out = {}
    for size in range(6):
        for kept in itertools.combinations(hand.cards, size):
            win = draw = lose = 0
            for drawn in itertools.combinations(pool, 5 - size):
                mine = strength(Hand.of(kept + drawn, rules=rules))
                for theirs in dealer:
                    if mine > theirs:
                        win += 1
                    elif mine == theirs:
                        draw += 1
                    else:
                        lose += 1
            total = win + draw + lose
            out[key(kept)] = (win / total, draw / total, lose / total)
    return out


@pytest.mark.parametrize(
    ("hand", "pool", "rules"),
    [
        ("AS AH 7C 4D 2S", "AD KD QD JD TD 9C 9H 3S 3C 5H", "standard"),
        ("JK 7H 7D 2S 9C", "7S 7C JK 3D 4D 5D 6D KH", "joker"),
        ("Q Q 9 5 2", "Q 9 9 K A 3 4 5 6", "semi"),
    ],
)
def test_advice_equals_brute_force_on_a_small_deck(hand: str, pool: str, rules: str) -> None:
    played = Hand.parse(hand, rules=rules)
    cards = parse_cards(pool)
    advice = advise(played, unseen=cards)
    expected = brute_force(played, cards)
    assert len(advice.choices) == 32
    for choice in advice.choices:
        win, draw, lose = expected[key(choice.keep)]
        assert choice.win == pytest.approx(win, abs=1e-12)
        assert choice.draw == pytest.approx(draw, abs=1e-12)
        assert choice.lose == pytest.approx(lose, abs=1e-12)
        assert sum(choice.categories.values()) == pytest.approx(1.0)
    scores = [c.score for c in advice.choices]
    assert scores == sorted(scores, reverse=True)


def test_full_deck_advice_counts_and_sums() -> None:
    advice = advise("AS AH 7C 4D 2S")
    assert advice.completions == 2_598_960 and advice.dealer_hands == 1_533_939
    assert len(advice.unseen) == 47
    for choice in advice.choices:
        assert choice.win + choice.draw + choice.lose == pytest.approx(1.0)
        assert sum(choice.categories.values()) == pytest.approx(1.0)
    best = advice.recommended
    assert [c.code_str for c in best.keep] == ["As", "Ah"]
    assert advice.reason.startswith("Keep A♠ A♥, exchange 3: beats the dealer")
    keep_all = next(c for c in advice.choices if len(c.keep) == 5)
    assert keep_all.categories["one_pair"] == 1.0


def test_jacks_or_better_known_values() -> None:
    """A dealt royal flush returns 800; four to a royal, counted by hand."""
    royal = advise("AS KS QS JS TS", paytable=JACKS_OR_BETTER)
    assert royal.recommended.ev == 800 and len(royal.recommended.keep) == 5
    four = advise("AS KS QS JS 2D", paytable=JACKS_OR_BETTER)
    keep_four = next(c for c in four.choices if [x.code_str for x in c.keep] == ["As", "Ks", "Qs", "Js"])
    pays = {"royal_flush": 800, "flush": 6, "straight": 4, "one_pair": 1}
    # Of the 47 unseen cards: T♠ (royal), 8 other spades (flush), 3 other tens
    # (straight), 12 aces, kings, queens or jacks (a paying pair).
    assert keep_four.ev == pytest.approx((800 + 8 * 6 + 3 * 4 + 12 * 1) / 47)
    assert set(pays) <= set(keep_four.categories)
    assert four.recommended is keep_four


def test_the_final_hands_under_a_pay_table_are_what_it_pays() -> None:
    """Four to a royal flush under Jacks or Better, counted by hand: of the
    47 unseen cards, 1 royal, 8 flushes, 3 straights, 12 paying pairs and
    23 hands that pay nothing (a pair of tens or less among them), which is
    the likeliest."""
    four = advise("AS KS QS JS 2D", paytable=JACKS_OR_BETTER)
    keep_four = next(c for c in four.choices if [x.code_str for x in c.keep] == ["As", "Ks", "Qs", "Js"])
    counts = {"royal_flush": 1, "flush": 8, "straight": 3, "one_pair_J-A": 12, "nothing": 23}
    assert keep_four.final == pytest.approx({name: n / 47 for name, n in counts.items()})
    name, label, chance = four.likeliest(keep_four)
    assert (name, label) == ("nothing", "Nothing (pays 0)") and chance == pytest.approx(23 / 47)


@pytest.mark.parametrize(
    ("hand", "kept", "likeliest"),
    [
        ("7H 7D KC 4S 2S", ["7h", "7d"], ("nothing", "Nothing (pays 0)")),  # a low pair never pays
        ("JH JD 7C 4S 2S", ["Jh", "Jd"], ("one_pair_J-A", "Jacks or Better (pays 1)")),
    ],
)
def test_a_pair_is_likeliest_only_where_it_pays(hand: str, kept: list[str], likeliest: tuple[str, str]) -> None:
    advice = advise(hand, paytable=JACKS_OR_BETTER)
    pair = next(c for c in advice.choices if [x.code_str for x in c.keep] == kept)
    name, label, chance = advice.likeliest(pair)
    assert (name, label) == likeliest and chance == pytest.approx(pair.categories["one_pair"])
    line = next(line for line in advice.text(Painter(color=False, ascii=True), top=None).splitlines() if f"{pair.ev:7.4f}" in line)
    assert line.endswith(f"   {label} {percent(chance)}") and ("Jacks or Better" in line) is (name == "one_pair_J-A")


@pytest.mark.slow
@pytest.mark.parametrize("table", list(PAYTABLES.values()), ids=list(PAYTABLES))
def test_every_choice_reports_its_final_hands_in_one_wording(table: PayTable) -> None:
    """Under every built-in table, for every choice: the final hands' chances
    sum to 1 and give the expected return with the table's pays; the text,
    the JSON (which the web app serves) and the likeliest agree."""
    advice = advise("2H 2D 7C 8S 9S", paytable=table)
    text = advice.text(Painter(color=False, ascii=True), top=None).splitlines()[2:34]
    data = advice.to_json()
    for choice, line, row in zip(advice.choices, text, data["choices"], strict=True):
        assert sum(choice.final.values()) == pytest.approx(1.0)
        assert sum(p * table.pays.get(n, 0.0) for n, p in choice.final.items()) == pytest.approx(choice.ev)
        name, label, chance = advice.likeliest(choice)
        assert choice.final[name] == chance == max(choice.final.values())
        assert row["final"] == choice.final and row["likeliest"] == {"name": name, "label": label, "chance": chance}
        assert line.endswith(f"   {label} {percent(chance)}")  # the app's one rule


def test_against_the_dealer_the_likeliest_is_a_category() -> None:
    advice = advise("AS AH 7C 4D 2S")
    best = advice.recommended
    assert best.final == {} and "final" not in advice.to_json()["choices"][0]
    name, label, chance = advice.likeliest(best)
    assert (name, label, chance) == ("one_pair", "One Pair", best.categories["one_pair"])


def test_paytable_file_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"name": "Pairs pay", "pays": {"one_pair": 1, "two_pair": 3}, "min_pair": "2"}))
    table = load_paytable(str(path))
    assert table.title == "Pairs pay"
    advice = advise("2S 2H 7C 9D KS", paytable=table)
    assert advice.recommended.ev is not None and advice.recommended.ev > 1
    assert load_paytable("Jacks-or-Better") is JACKS_OR_BETTER
    with pytest.raises(FivecardError, match="unknown pay table"):
        load_paytable("bonus-poker")
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(FivecardError, match="bad pay table file"):
        load_paytable(str(bad))


def test_unseen_cards_per_rule_set() -> None:
    assert len(unseen_cards(Hand.parse("JK AS KS QS JS", rules="joker"))) == 49
    semi = unseen_cards(Hand.parse("Q Q Q Q 9", rules="semi"))
    assert len(semi) == 47 and sum(c.code_str == "Q" for c in semi) == 0
