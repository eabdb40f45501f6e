"""The catalogue of pay tables: every table solved exactly, against the
return its source published (to the last digit published) and, where a
source published the combinations of each final hand under perfect play,
against those to the integer; and the bankroll figures against published
ones.

Where each figure comes from is said beside it. Wizard of Odds' return
tables count final hands out of C(52,5)*5*C(47,5) = 19,933,230,517,200,
each deal's draws weighed alike.
"""

from __future__ import annotations

import functools
import re
from fractions import Fraction

import pytest

from fivecard.play.paytables import ALIASES, PAYTABLES, PayTable, catalogue, catalogue_report
from fivecard.play.strategy import PayTableSolution, solve_paytable

#: The tables the catalogue must hold (players' usual names), at least.
EXPECTED = {
    "jacks-or-better-9-6", "jacks-or-better-9-5", "jacks-or-better-8-6", "jacks-or-better-8-5",
    "jacks-or-better-7-5", "jacks-or-better-6-5", "bonus-poker-8-5", "bonus-poker-7-5",
    "bonus-poker-deluxe-9-6", "bonus-poker-deluxe-8-6", "double-bonus-10-7", "double-bonus-9-7-5",
    "double-double-bonus-9-6", "double-double-bonus-9-5", "triple-double-bonus-9-7", "aces-and-faces-8-5",
    "tens-or-better-6-5", "royal-aces-bonus-10-5", "deuces-wild-full-pay", "not-so-ugly-ducks",
    "deuces-wild-15-11", "illinois-deuces", "loose-deuces", "bonus-deuces", "joker-poker-kings-20-7-5",
    "joker-poker-two-pair",
}  # fmt: skip

#: Wizard of Odds' combinations of each final hand under perfect play, by
#: the line that pays it. Jacks or Better 9/6: its pay-table analysis (as a
#: design document reproducing it to the last digit also prints it); Bonus
#: Poker 8/5 and Double Bonus 10/7: its strategy pages for those games;
#: Royal Aces Bonus 10-5: its Royal Aces Bonus Poker tables page; Not So
#: Ugly Ducks: the first lines of its Deuces Wild tables page's table.
PUBLISHED_COUNTS: dict[str, dict[str, int]] = {
    "jacks-or-better-9-6": {
        "royal_flush": 493_512_264, "straight_flush": 2_178_883_296, "four_of_a_kind": 47_093_167_764,
        "full_house": 229_475_482_596, "flush": 219_554_786_160, "straight": 223_837_565_784,
        "three_of_a_kind": 1_484_003_070_324, "two_pair": 2_576_946_164_148, "one_pair_J-A": 4_277_372_890_968,
        "nothing": 10_872_274_993_896,
    },
    "bonus-poker-8-5": {
        "royal_flush": 495_443_136, "straight_flush": 2_129_604_264, "four_of_a_kind_A": 3_903_775_812,
        "four_of_a_kind_2-4": 10_509_866_328, "four_of_a_kind": 32_688_417_336, "full_house": 229_516_869_924,
        "flush": 216_873_645_000, "straight": 223_676_319_912, "three_of_a_kind": 1_484_391_167_856,
        "two_pair": 2_577_523_603_752, "one_pair_J-A": 4_290_810_981_444, "nothing": 10_860_710_822_436,
    },
    "double-bonus-10-7": {
        "royal_flush": 414_860_472, "straight_flush": 2_254_539_360, "four_of_a_kind_A": 3_962_537_892,
        "four_of_a_kind_2-4": 10_446_264_684, "four_of_a_kind": 32_045_992_176, "full_house": 223_050_658_608,
        "flush": 298_068_519_408, "straight": 299_385_345_432, "three_of_a_kind": 1_439_168_246_364,
        "two_pair": 2_484_844_034_580, "one_pair_J-A": 3_834_735_881_328, "nothing": 11_304_853_636_896,
    },
    "not-so-ugly-ducks": {
        "natural_royal_flush": 458_696_304, "four_wild": 3_721_737_204, "wild_royal_flush": 38_006_962_464,
        "five_of_a_kind": 61_961_233_656, "straight_flush": 102_392_435_976,
    },
}  # fmt: skip

#: Royal Aces Bonus 10-5 (Wizard of Odds' tables page), whose program broke
#: ties between equally good holds the other way: the higher variance.
ROYAL_ACES_COUNTS = {
    "royal_flush": 490_090_668, "straight_flush": 2_417_714_292, "four_of_a_kind_A": 4_936_967_256,
    "four_of_a_kind_2-4": 10_579_511_880, "four_of_a_kind": 31_662_193_440, "full_house": 213_464_864_880,
    "flush": 280_594_323_000, "straight": 276_071_121_072, "three_of_a_kind": 1_470_711_394_284,
    "two_pair": 2_398_705_865_028, "one_pair_A": 1_307_753_371_584, "nothing": 13_935_843_099_816,
}  # fmt: skip

#: Full-pay Deuces Wild (Wizard of Odds' Deuces Wild tables page): the lines
#: no tie between equal holds decides; the page breaks the ties of three
#: kinds of hand (3 to a straight flush or 4 to an inside straight; 4 to a
#: flush or 4 to an outside straight, both paying 2; keeping four deuces
#: with or without the fifth card) neither way throughout, so the straight
#: flushes, flushes, straights, three of a kinds and nothings differ.
DEUCES_WILD_COUNTS = {
    "natural_royal_flush": 440_202_756, "four_wild": 4_060_462_824, "wild_royal_flush": 35_796_957_696,
    "five_of_a_kind": 63_818_309_856, "four_of_a_kind": 1_294_427_430_576, "full_house": 423_165_297_240,
}  # fmt: skip


@functools.cache
def solved(name: str, ties: str = "lower-variance") -> PayTableSolution:
    return solve_paytable(PAYTABLES[name], ties=ties)


def digits(published: str) -> tuple[Fraction, int]:
    """A published return ("99.5439%", "99.1%") and its decimals."""
    match = re.fullmatch(r"(\d+)\.(\d+)%", published)
    assert match, published
    return Fraction(published.removesuffix("%")), len(match.group(2))


def test_the_catalogue_holds_the_tables_players_look_up() -> None:
    assert EXPECTED <= set(PAYTABLES) and len(PAYTABLES) >= 20
    assert {PAYTABLES[name].title for name in ALIASES.values()} == {"Jacks or Better 9/6", "Deuces Wild (full pay)"}
    for table in catalogue():
        assert table.exact is not None, table.name  # every shipped table states its exact return
        assert table.published is None or (table.source and digits(table.published))


def test_the_list_names_every_table_with_its_return() -> None:
    report = catalogue_report()
    text = report.text()
    for table in catalogue():
        assert table.name in text and table.title in text
        assert table.exact is not None and f"{float(table.exact * 100):.4f}%" in text
    listed = report.to_json()
    assert [t["name"] for t in listed] == [t.name for t in catalogue()]
    assert next(t for t in listed if t["name"] == "jacks-or-better-9-6")["aliases"] == ["jacks-or-better"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_table_returns_what_it_states_and_what_was_published(name: str) -> None:
    """The exact return is the one the file states, and rounds to the
    published return at the published digits (each file names its
    source). Where two sources disagree (Not So Ugly Ducks: 99.7278% on
    one Wizard of Odds page, 99.73% on another, 99.7283% at vpgenius), the
    exact solution decides, and the file keeps the source it agrees with."""
    table: PayTable = PAYTABLES[name]
    solution = solved(name)
    assert solution.expected_return == table.exact
    if table.published is not None:
        value, places = digits(table.published)
        assert round(solution.expected_return * 100, places) == value, (name, solution.percent)
    counts = solution.counts
    assert sum(counts.values()) == solution.weighting
    assert solution.weighting == (19_933_230_517_200 if solution.rules.jokers == 0 else 24_568_865_521_200)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PUBLISHED_COUNTS))
def test_published_combinations_to_the_integer(name: str) -> None:
    counts = solved(name).counts
    assert {key: counts[key] for key in PUBLISHED_COUNTS[name]} == PUBLISHED_COUNTS[name]


@pytest.mark.slow
def test_royal_aces_counts_with_ties_broken_the_other_way() -> None:
    """Royal Aces Bonus 10-5's published counts are those of breaking ties
    by the higher variance; the return is the same either way."""
    higher = solved("royal-aces-bonus-10-5", "higher-variance")
    assert higher.counts == ROYAL_ACES_COUNTS
    assert higher.expected_return == solved("royal-aces-bonus-10-5").expected_return


@pytest.mark.slow
def test_deuces_wild_counts_that_no_tie_decides() -> None:
    counts = solved("deuces-wild-full-pay").counts
    assert {key: counts[key] for key in DEUCES_WILD_COUNTS} == DEUCES_WILD_COUNTS


@pytest.mark.slow
def test_the_variance_and_frequencies_players_quote() -> None:
    """Jacks or Better 9/6: variance 19.51468 (a Southern Gaming column's
    table of the game), standard deviation 4.4175 (as printed with its
    return table), a royal 1 in 40,391 hands (WinPoker's frequencies);
    Double Double Bonus 9/6: variance 41.98498, four aces with a kicker
    once every 16,236 hands (the same column)."""
    jacks = solved("jacks-or-better-9-6")
    assert round(float(jacks.variance), 5) == 19.51468 and round(jacks.deviation, 4) == 4.4175
    assert round(1 / jacks.final["royal_flush"]) == 40_391
    double = solved("double-double-bonus-9-6")
    assert round(float(double.variance), 5) == 41.98498
    assert round(1 / double.final["four_of_a_kind_A_kicker_2-4"]) == 16_236


@pytest.mark.slow
def test_bankrolls_players_quote() -> None:
    """Jacks or Better 9/6 at five quarters a hand: John Grochowski's
    bankroll for a 5% risk of ruin over 1,000 hands is $165 (660 coins);
    Dunbar's Risk Analyzer, as Henry Tamburin quotes it, gives "just an 8%
    chance of going broke" with $200 (800 coins) over 1,600 hands."""
    jacks = solved("jacks-or-better-9-6")
    session = jacks.bankroll(None, 1_000)
    assert dict(session.bankrolls)[0.05] == 660
    dunbar = jacks.bankroll(800, 1_600)
    assert dunbar.ruin is not None and round(dunbar.ruin, 2) == 0.08
    assert dunbar.royal is not None and 0 < dunbar.royal < dunbar.ruin
