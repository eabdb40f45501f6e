"""Percentages as the app writes them: one rule for chances and returns.

The server's sentences (the advisor's reason, the trainer's verdict, a
machine's return) use :func:`percent`; the pages use ``percent`` in
``web/static/common.js``, the same function in JavaScript (a test holds the
two to one table of values).

The rule: ``digits`` decimals (one for a chance, two for a return or a
cost), a tie rounded up (on the float's own value times 100, as
JavaScript's ``toFixed`` rounds); a value that is not
zero but would show as zero is written ``<0.1%`` (``<0.01%``), and one
below 100% that would show as 100% is ``>99.9%``, so that "draws 0.0%"
never stands for a draw that can happen, nor "100.0%" for a hand that can
lose. Zero and 100% exactly stay ``0.0%`` and ``100.0%``.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

__all__ = ["percent", "points"]


def percent(value: float | Fraction, digits: int = 1) -> str:
    """``value`` (a fraction: 0.25 for 25%) as a percentage with ``digits``
    decimals, by the rule above.

    >>> percent(0.4613), percent(0.0004), percent(0.0), percent(0.99996), percent(1.0)
    ('46.1%', '<0.1%', '0.0%', '>99.9%', '100.0%')
    >>> percent(Fraction(99_5439, 100_0000), 2), percent(0.00004, 2)
    ('99.54%', '<0.01%')
    """
    if value < 0:
        return "-" + percent(-value, digits)
    shown = _rounded(value, digits)
    step = f"{10.0 ** -digits:.{digits}f}"  # the smallest step shown: 0.1
    if value > 0 and float(shown) == 0:
        return f"<{step}%"
    if value < 1 and float(shown) >= 100:
        return f">{100 - float(step):.{digits}f}%"
    return f"{shown}%"


def points(value: float | Fraction, digits: int = 1) -> float:
    """The percentage :func:`percent` shows, as a number, rounded by the
    same rule but never written ``<0.1%`` (46.1 for 0.4613; 0.0 for
    0.0004): what a difference of two shown chances is counted in.

    >>> points(0.4613), points(0.0004), points(0.0625)
    (46.1, 0.0, 6.3)
    """
    return float(_rounded(value, digits))


def _rounded(value: float | Fraction, digits: int) -> str:
    # the float's own value times 100 (in floating point, as JavaScript's
    # ``value * 100`` is), a tie rounded away from zero as ``toFixed`` does
    exact = Decimal(float(value) * 100)
    return f"{exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP):f}"
