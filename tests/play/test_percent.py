"""The one rule of percentages in the app's sentences (fivecard.play.percent):
one decimal for a chance, two for a return; a chance that is not zero never
shows as 0.0%, nor one below certainty as 100.0%; a tie rounds up, as the
pages' JavaScript rounds (tests/web/test_table_keys_browser.py holds the
pages' helper to the same table)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from helpers import PERCENT_TABLE

from fivecard.core.report import Painter
from fivecard.play.advise import advise
from fivecard.play.game import ExchangeVerdict
from fivecard.play.percent import percent, points

TABLE = PERCENT_TABLE


@pytest.mark.parametrize(("value", "digits", "shown"), TABLE)
def test_percent_follows_the_one_rule(value: float, digits: int, shown: str) -> None:
    assert percent(value, digits) == shown


def test_fractions_are_shown_as_their_floats() -> None:
    assert percent(Fraction(1, 3)) == "33.3%" and percent(Fraction(2, 3), 2) == "66.67%"


def test_points_are_the_shown_percent_as_a_number() -> None:
    for value, digits, shown in TABLE:
        if shown[0] not in "<>":
            assert f"{points(value, digits):.{digits}f}%" == shown
    assert points(0.0004) == 0.0  # "<0.1%" counts as nothing in a difference


def test_the_advisors_sentences_never_say_a_possible_draw_is_zero() -> None:
    """A hand whose draw with the dealer is possible but rarer than 0.05%:
    the hint's sentence says "<0.1%", as its list does."""
    advice = advise("AS KS QS JS TS")  # a royal flush: a draw needs another royal
    best = advice.choices[0]
    assert 0 < best.draw < 0.0005
    assert f"(draws {percent(best.draw)})" in advice.reason and "(draws <0.1%)" in advice.reason
    assert "0.0%" not in advice.reason
    lines = advice.text(Painter(color=False)).splitlines()
    assert "<0.1%" in lines[2] and ">99.9%" in lines[2]


def test_the_trainers_verdict_writes_chances_by_the_rule() -> None:
    advice = advise("KS KH 7C 4D 2S")
    verdict = ExchangeVerdict.of(advice, [0])
    assert f"(beats the dealer {percent(verdict.chosen.win)})" in verdict.text()
    assert f"({percent(verdict.advised.win)})" in verdict.text()

