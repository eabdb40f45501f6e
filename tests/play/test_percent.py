"""The one rule of percentages in the app's sentences (fivecard.play.percent):
one decimal for a chance, two for a return; a chance that is not zero never
shows as 0.0%, nor one below certainty as 100.0%; a tie rounds up, as the
pages' JavaScript rounds (tests/web/test_table_keys_browser.py holds the
pages' helper to the same table)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from fivecard.core.report import Painter
from fivecard.play.advise import advise
from fivecard.play.game import ExchangeVerdict
from fivecard.play.percent import percent, points

#: (value, digits, shown): the table both the server and the pages are held to.
TABLE = [
    (0.0, 1, "0.0%"),
    (1e-9, 1, "<0.1%"),
    (0.0004999, 1, "<0.1%"),
    (0.0005, 1, "0.1%"),
    (0.001, 1, "0.1%"),
    (0.4613, 1, "46.1%"),
    (0.0625, 1, "6.3%"),  # 6.25 exactly: a tie rounds up
    (0.5, 1, "50.0%"),
    (0.9994, 1, "99.9%"),
    (0.99996, 1, ">99.9%"),
    (1.0, 1, "100.0%"),
    (1.0076, 1, "100.8%"),
    (0.00004, 2, "<0.01%"),
    (0.995439, 2, "99.54%"),
    (0.99999, 2, ">99.99%"),
    (1.0, 2, "100.00%"),
    (-0.0123, 2, "-1.23%"),
]


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

