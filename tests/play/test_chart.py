"""A strategy chart a person can follow (fivecard.play.chart): the names of
its lines, the rule that plays it, and the chart derived from a solved pay
table, played over every class of deals for its exact return, against the
per-hand advisor."""

from __future__ import annotations

import functools
import json
import random
from fractions import Fraction

import numpy as np
import pytest

from fivecard.core.cards import Card, Rank, parse_cards
from fivecard.core.rules import DEUCES_WILD, ONE_JOKER, STANDARD, RuleSet
from fivecard.play.advise import advise
from fivecard.play.chart import (
    CHART_COLUMNS,
    ChartLine,
    StrategyChart,
    discard_attributes,
    hold_pattern,
    play_chart,
    play_classes,
    strategy_chart,
)
from fivecard.play.paytables import DEUCES_WILD_FULL_PAY, JACKS_OR_BETTER, PAYTABLES, PayTable
from fivecard.play.strategy import HOLDS, PayTableSolution, solve_paytable
from fivecard.vector.batch import strengths_of_indices

JOB = JACKS_OR_BETTER
DW = DEUCES_WILD_FULL_PAY
JOKER = PAYTABLES["joker-poker-two-pair"]
#: A short-deck table: solved and charted in about two seconds.
SHORT = PayTable(
    "short-jacks",
    {"royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 25, "flush": 9, "full_house": 6,
     "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "one_pair": 1},
    min_pair=Rank.JACK,
    rules="short-deck",
)


TABLES = {table.name: table for table in (JOB, DW, SHORT)}


def solved(table: PayTable) -> PayTableSolution:
    """Each pay table solved once per test run, every hold's value kept."""
    return _solved(table.name)


def charted(table: PayTable) -> StrategyChart:
    """Each pay table's chart derived once per test run."""
    return _charted(table.name)


@functools.cache
def _solved(name: str) -> PayTableSolution:
    return solve_paytable(TABLES[name], values=True)


@functools.cache
def _charted(name: str) -> StrategyChart:
    return strategy_chart(_solved(name))


@pytest.mark.parametrize(
    ("kept", "rules", "paytable", "expected"),
    [
        ("", STANDARD, JOB, "Discard everything"),
        ("AS KS QS JS TS", STANDARD, JOB, "Pat Royal Flush"),
        ("AS KS QS JS", STANDARD, JOB, "4 to a Royal Flush (4 high cards)"),
        ("9H TH JH", STANDARD, JOB, "3 to a Straight Flush (1 high card, fits 3 straights)"),
        ("AS 2S 3S", STANDARD, JOB, "3 to a Straight Flush (1 high card, fits 1 straight)"),
        ("3S 4S 5S", STANDARD, JOB, "3 to a Straight Flush (0 high cards, fits 3 straights)"),
        ("5S 6D 7C 8H", STANDARD, JOB, "4 to an outside Straight (0 high cards)"),
        ("KH KD", STANDARD, JOB, "High pair (J or better)"),
        ("KH KD 7S", STANDARD, JOB, "High pair (J or better) with 1 kicker"),
        ("7S 7H 7D 2C", STANDARD, JOB, "Three of a Kind with 1 kicker"),
        ("KS QD", STANDARD, JOB, "K Q unsuited"),
        # deuces wild: straights through the deuce are made by wild cards only
        ("AS 5D 4S 3S", DEUCES_WILD, DW, "4 to an inside Straight (fits 0 straights)"),
        ("6H 5D 4S 3S", DEUCES_WILD, DW, "4 to an inside Straight (fits 1 straight)"),
        ("2C 6S 7S", DEUCES_WILD, DW, "One wild card: 3 to a Straight Flush (fits 4 straights)"),
        ("2C 4S 5S", DEUCES_WILD, DW, "One wild card: 3 to a Straight Flush (fits 2 straights)"),
        ("2C KD KS 7H", DEUCES_WILD, DW, "One wild card: Three of a Kind with 1 kicker"),
        ("2C 2D", DEUCES_WILD, DW, "Two wild cards"),
        # a joker kept to a straight fills one gap of several: the straights its natural ranks fit
        ("JK 5S 6D 7C", ONE_JOKER, JOKER, "One wild card: 4 to an outside Straight (fits 3 straights)"),
        ("JK 5S 6D 8C", ONE_JOKER, JOKER, "One wild card: 4 to an outside Straight (fits 2 straights)"),
        ("JK 9S", ONE_JOKER, JOKER, "One wild card: 9"),
    ],
)
def test_hold_pattern_names_kickers_high_cards_and_straights(
    kept: str, rules: RuleSet, paytable: PayTable, expected: str
) -> None:
    assert hold_pattern(parse_cards(kept) if kept else (), rules, paytable) == expected


@pytest.mark.parametrize(
    ("table", "kept", "expected"),
    [
        # four of a kind paid by its rank (A, 2-4, 5-K) and kicker (2-4 beside Aces, A-4 beside 2-4)
        ("triple-double-bonus-9-7", "AS AH AD 3C", "Three Aces with a 2, 3 or 4 kicker"),
        ("triple-double-bonus-9-7", "AS AH AD KC", "Three Aces with a 5-K kicker"),
        ("triple-double-bonus-9-7", "AS AH AD", "Three Aces"),
        ("triple-double-bonus-9-7", "3S 3H 3D AC", "Three 2s, 3s or 4s with an A-4 kicker"),
        ("triple-double-bonus-9-7", "9S 9H 9D", "Three 5s through Kings"),
        ("triple-double-bonus-9-7", "9S 9H 9D 3C", "Three 5s through Kings with 1 kicker"),
        ("triple-double-bonus-9-7", "AS AH AD AC 2S", "Four Aces with a 2, 3 or 4 kicker"),
        ("triple-double-bonus-9-7", "AS AH AD AC", "Four Aces"),
        ("triple-double-bonus-9-7", "AS AH", "Pair of Aces"),
        ("triple-double-bonus-9-7", "KS KH 7C", "High pair (J to K) with 1 kicker"),
        ("triple-double-bonus-9-7", "3S 3H", "Low pair (2 to 4)"),
        ("triple-double-bonus-9-7", "7S 7H", "Low pair (5 to 10)"),
        ("triple-double-bonus-9-7", "AS AH 3S 3H", "Two Pair"),
        ("aces-and-faces-8-5", "KS KH KD", "Three Jacks, Queens or Kings"),
        ("aces-and-faces-8-5", "7S 7H", "Low pair (2 to 10)"),
        ("royal-aces-bonus-10-5", "KS KH", "Low pair (5 to K)"),
        # wild cards: five of a kind paid by rank, four deuces with an ace
        ("bonus-deuces", "2S 2H 2D 2C AS", "Four wild cards: Pat Five Aces"),
        ("bonus-deuces", "2S AH AD", "One wild card: Three Aces"),
        ("bonus-deuces", "5S 5H", "Pair of 3s, 4s or 5s"),
        # tables that tell apart the paying pairs alone keep the plain names
        ("jacks-or-better-9-6", "AS AH", "High pair (J or better)"),
        ("jacks-or-better-9-6", "7S 7H 7D 2C", "Three of a Kind with 1 kicker"),
        ("deuces-wild-full-pay", "2S AH AD", "One wild card: Three of a Kind"),
    ],
)
def test_hold_pattern_names_the_ranks_and_kickers_a_table_pays_apart(table: str, kept: str, expected: str) -> None:
    paytable = PAYTABLES[table]
    assert hold_pattern(parse_cards(kept), paytable.rules_to_play(), paytable) == expected


def _pays(paytable: PayTable, rules: RuleSet, hands: list[list[Card]]) -> list[float]:
    indices = np.array([[c.index for c in hand] for hand in hands], dtype=np.int32)
    return [float(p) for p in paytable.hand_pays(rules, indices, strengths_of_indices(indices, rules=rules))]


@pytest.mark.parametrize("name", sorted(PAYTABLES))
def test_holds_of_one_name_make_hands_the_table_pays_alike(name: str) -> None:
    """Walk every rank's pair, three and four of a kind and every kicker:
    where two holds have one name on a chart, the four of a kind (and
    five of a kind, with a wild card) they draw to pays alike, and so do
    the pairs."""
    paytable = PAYTABLES[name]
    rules = paytable.rules_to_play()
    deck = rules.deck()
    wild = [c for c in deck if rules.is_wild(c)][:1]
    by_rank = {r: [c for c in deck if c.rank == r and not rules.is_wild(c)] for r in rules.ranks}
    ranks = [r for r, cards in by_rank.items() if len(cards) == 4]
    quads = dict(zip([(r, k) for r in ranks for k in ranks if k != r], _pays(
        paytable, rules, [by_rank[r] + by_rank[k][:1] for r in ranks for k in ranks if k != r]
    )))
    fives = dict(zip(ranks, _pays(paytable, rules, [wild + by_rank[r] for r in ranks]))) if wild else {}
    for count in (2, 3, 4):
        names: dict[str, Rank] = {}
        for r in ranks:
            seen = names.setdefault(hold_pattern(by_rank[r][:count], rules, paytable), r)
            if count == 2:
                assert (r in paytable.paying_pairs) == (seen in paytable.paying_pairs)
            assert all(quads[r, k] == quads[seen, k] for k in ranks if k not in (r, seen))
            assert fives.get(r) == fives.get(seen)
    for r in ranks:
        beside: dict[str, Rank] = {}
        for k in ranks:
            if k != r:
                seen = beside.setdefault(hold_pattern(by_rank[r][:3] + by_rank[k][:1], rules, paytable), k)
                assert quads[r, k] == quads[r, seen]
                pat = beside.setdefault(hold_pattern(by_rank[r] + by_rank[k][:1], rules, paytable), k)
                assert quads[r, k] == quads[r, pat]


@pytest.mark.parametrize(
    ("kept", "discarded", "rules", "paytable", "expected"),
    [
        ("QH JH", "9H 5C 2D", STANDARD, JOB, (True, True, False)),
        ("QH JH", "8C 5C 2D", STANDARD, JOB, (False, True, False)),  # 8 9 10 J Q
        ("QH JH", "4C 5C 2H", STANDARD, JOB, (True, False, False)),
        ("QH JD", "4H 5C 2H", STANDARD, JOB, (False, False, False)),  # unsuited: no flush penalty
        ("7H 7D", "8C 9C AD", STANDARD, JOB, (False, False, True)),  # a pair: no straight penalty
        ("7H 7D", "8C 9C TD", STANDARD, JOB, (False, False, False)),  # 10 pays no pair
        ("2C 7H 8H", "9H 2D KS", DEUCES_WILD, DW, (True, True, False)),  # a deuce discarded is no penalty
        ("2C 7H 8H", "2D 2S KS", DEUCES_WILD, DW, (False, False, False)),
        ("", "AS KD 7H 5C 2D", STANDARD, JOB, (False, False, True)),
    ],
)
def test_discard_attributes_find_each_penalty(
    kept: str, discarded: str, rules: RuleSet, paytable: PayTable, expected: tuple[bool, bool, bool]
) -> None:
    found = discard_attributes(parse_cards(kept) if kept else (), parse_cards(discarded), rules, paytable)
    assert tuple(found.values()) == expected
    assert list(found) == ["flush_penalty", "straight_penalty", "high_card"]


HANDMADE = (
    ChartLine("4 to a Royal Flush", ("4 to a Royal Flush (4 high cards)", "4 to a Royal Flush (3 high cards)")),
    ChartLine("High pair (J or better)", ("High pair (J or better)", "High pair (J or better) with 1 kicker")),
    ChartLine("Q J suited", ("Q J suited",), (("flush_penalty", True),)),
    ChartLine("Low pair (2 to 10)", ("Low pair (2 to 10)",)),
    ChartLine("A, K, Q or J alone", ("A alone", "K alone", "Q alone", "J alone")),
    ChartLine("Discard everything", ("Discard everything",)),
)


@pytest.mark.parametrize(
    ("hand", "kept"),
    [
        ("KS QS JS TS KH", "KS QS JS TS"),  # the first line that fits
        ("KS KH 7D 5C 2S", "KS KH"),  # of two holds of a line, the fewer cards: no kicker
        ("AS KH 7D 5C 2S", "AS"),  # then the higher cards
        ("QH JH 9H 5C 2D", "QH JH"),  # an exception line: the discards hold a heart
        ("QH JH 9S 5C 2D", "QH"),  # ... and not
        ("9S 8H 6D 4C 2C", ""),
    ],
)
def test_a_chart_keeps_what_its_first_fitting_line_fits(hand: str, kept: str) -> None:
    cards = parse_cards(hand)
    assert set(play_chart(HANDMADE, cards, STANDARD, JOB)) == set(parse_cards(kept) if kept else ())


def test_a_chart_that_fits_no_hold_is_refused() -> None:
    with pytest.raises(ValueError, match="fits none"):
        play_chart(HANDMADE[:1], parse_cards("9S 8H 6D 4C 2C"), STANDARD, JOB)


def test_a_chart_writes_text_json_and_rows() -> None:
    chart = StrategyChart(
        JOB, STANDARD, HANDMADE, HANDMADE[:2] + HANDMADE[-1:], Fraction(99, 100), Fraction(98, 100),
        Fraction(995, 1000), 2_598_960,
    )
    text = chart.text()
    assert "\n3. Q J suited, with a flush penalty card  decides  0.000% of deals\n" in text
    assert "Flush penalty card: a discarded card of the suit of the cards kept." in text
    assert "return of this chart (6 lines, 1 of them exceptions): 99.0000%" in text
    assert "return of the chart without exceptions (3 lines): 98.0000%" in text
    plain = json.loads(json.dumps(chart.to_json()))
    assert plain["return"] == {"percent": 99.0, "fraction": "99/100"}
    assert plain["optimum"]["fraction"] == "199/200"
    assert [line["hold"] for line in plain["lines"]] == [line.describe(JOB) for line in HANDMADE]
    assert plain["lines"][2]["conditions"] == {"flush_penalty": True}
    rows = chart.rows()
    assert len(rows) == len(HANDMADE) + 3 and all(len(row) == len(CHART_COLUMNS) for row in rows)
    assert rows[0][:3] == ("with exceptions", 1, "4 to a Royal Flush") and rows[-1][:2] == ("simple", 3)


@pytest.mark.slow
@pytest.mark.parametrize("table", [JOB, DW], ids=["jacks-or-better", "deuces-wild"])
def test_the_chart_returns_at_most_the_optimum_and_within_a_tenth_of_a_percent(table: PayTable) -> None:
    chart = charted(table)
    assert chart.optimum == solved(table).expected_return
    assert chart.simple_return <= chart.chart_return <= chart.optimum
    assert chart.optimum - chart.chart_return < Fraction(1, 1000)
    assert len(chart.lines) <= 45 and chart.lines[-1].name == "Discard everything"
    assert sum(line.deals for line in chart.lines) == chart.deals
    if table is JOB:  # a published simple strategy returns 99.46%
        assert chart.simple_return > Fraction(9946, 10000) and len(chart.lines) >= 30


@pytest.mark.slow
@pytest.mark.parametrize("table", [JOB, DW], ids=["jacks-or-better", "deuces-wild"])
def test_the_chart_return_is_its_play_over_every_class(table: PayTable) -> None:
    chart = charted(table)
    assert play_classes(solved(table), chart.lines)[0] == chart.chart_return
    assert play_classes(solved(table), chart.simple)[0] == chart.simple_return


@pytest.mark.slow
@pytest.mark.parametrize(
    ("table", "hand", "kept"),
    [
        (JOB, "KS QS JS TS KH", "KS QS JS TS"),  # 4 to a royal over a high pair
        (JOB, "8S 8H 5D 6C 7H", "8S 8H"),  # a low pair over 4 to an outside straight
        (JOB, "2S 5S 8S TS QS", "2S 5S 8S TS QS"),  # a pat flush kept
        (JOB, "7S 7H 2S 9S KS", "7S 2S 9S KS"),  # 4 to a flush over a low pair
        (JOB, "AS KS QS 5S 2H", "AS KS QS"),  # 3 to a royal over 4 to a flush
        (JOB, "AH KD QC 7S 3H", "KD QC"),  # of three high cards, the two lowest
        (DW, "2C 2D 2H 2S 9H", "2C 2D 2H 2S"),
        (DW, "2C KS QS JS TS", "2C KS QS JS TS"),  # a wild royal flush kept
        (DW, "KS KH 7D 5C 3S", "KS KH"),
    ],
)
def test_the_chart_plays_classic_hands_as_the_books(table: PayTable, hand: str, kept: str) -> None:
    assert set(charted(table).hold(parse_cards(hand))) == set(parse_cards(kept))


@pytest.mark.slow
@pytest.mark.parametrize("table", [JOB, DW], ids=["jacks-or-better", "deuces-wild"])
def test_the_chart_holds_of_classes_are_its_hands_holds_worth_what_the_advisor_says(table: PayTable) -> None:
    solution, chart = solved(table), charted(table)
    _, masks = play_classes(solution, chart.lines)
    deck = solution.rules.deck()
    rows = random.Random(7).sample(range(len(masks)), 300)
    for row in rows:  # the vectorised play and the one-hand rule agree
        cards = [deck[int(i)] for i in solution.classes.first[row]]
        assert chart.hold(cards) == tuple(cards[i] for i in HOLDS[int(masks[row])])
    assert solution.values is not None
    for row in rows[:6]:  # the value of the hold kept, by brute force
        cards = [deck[int(i)] for i in solution.classes.first[row]]
        kept = set(chart.hold(cards))
        choice = next(c for c in advise(cards, paytable=table).choices if set(c.keep) == kept)
        assert choice.ev == pytest.approx(float(solution.values[row, int(masks[row])]), abs=1e-12)


@pytest.mark.slow
def test_a_kicker_games_chart_keeps_kickers_and_is_within_a_fifth_of_a_percent() -> None:
    """Double Double Bonus pays four Aces with a 2, 3 or 4 (and four 2s-4s
    with an A-4) above the others: its chart keeps those kickers."""
    table = PAYTABLES["double-double-bonus-9-6"]
    chart = strategy_chart(solve_paytable(table, values=True))
    assert "Four Aces with a 2, 3 or 4 kicker" in [line.name for line in chart.lines]
    assert chart.optimum - chart.chart_return < Fraction(2, 1000)
    assert len(chart.lines) <= 45
    assert set(chart.hold(parse_cards("AS AH AD AC 2S"))) == set(parse_cards("AS AH AD AC 2S"))  # 400 for 5
    assert set(chart.hold(parse_cards("AS AH AD AC KS"))) == set(parse_cards("AS AH AD AC"))  # a kicker to draw


@pytest.mark.slow
def test_the_chart_is_derived_the_same_every_time() -> None:
    solution = solve_paytable(SHORT, values=True)
    first = strategy_chart(solution, lines=20, exceptions=3)
    second = strategy_chart(solution, lines=20, exceptions=3)
    assert first == second
    assert len(first.lines) <= 20 and first.chart_return <= first.optimum


@pytest.mark.slow
def test_a_chart_needs_every_holds_value() -> None:
    solution = solve_paytable(SHORT)
    with pytest.raises(ValueError, match="values=True"):
        strategy_chart(solution)
