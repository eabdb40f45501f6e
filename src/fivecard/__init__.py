"""fivecard: read, classify and settle five-card poker hands, and say why.

>>> import fivecard
>>> fivecard.evaluate('KD, 9C, 4H, KS, 9D').description
'Two Pair, Kings and Nines, Four kicker'
>>> fivecard.showdown(['8C TS KC 9H 4S', '7D 2S 5D 3S AC']).explanation
'Hand 2 wins: both High Card; the first card decides, A beats K'

The names below load their module on first use, so that importing the
package (and starting the ``fivecard`` command, which catches a Ctrl-C only
once its own code runs) costs almost nothing.
"""

from __future__ import annotations

import sys
import types
from importlib import import_module

TYPE_CHECKING = False  # typing itself is not imported: it costs more than the rest

__version__ = "0.1.0"

#: Each public name and the module that defines it.
_HOME = {
    "Card": "cards",
    "JOKER": "cards",
    "Rank": "cards",
    "Suit": "cards",
    "format_cards": "cards",
    "full_deck": "cards",
    "parse_card": "cards",
    "parse_cards": "cards",
    "FivecardError": "errors",
    "HandError": "errors",
    "ParseError": "errors",
    "RulesError": "errors",
    "Evaluation": "evaluate",
    "describe": "evaluate",
    "evaluate": "evaluate",
    "strength": "evaluate",
    "strength_function": "evaluate",
    "text_strength_function": "evaluate",
    "Hand": "hand",
    "RULE_SETS": "rules",
    "Category": "rules",
    "RuleSet": "rules",
    "get_rules": "rules",
    "rule_names": "rules",
    "Showdown": "showdown",
    "check_decks": "showdown",
    "cmp_hands": "showdown",
    "compare": "showdown",
    "explain": "showdown",
    "showdown": "showdown",
}

__all__ = [
    "Card",
    "Category",
    "Evaluation",
    "FivecardError",
    "Hand",
    "HandError",
    "JOKER",
    "ParseError",
    "RULE_SETS",
    "Rank",
    "RuleSet",
    "RulesError",
    "Showdown",
    "Suit",
    "check_decks",
    "cmp_hands",
    "compare",
    "describe",
    "evaluate",
    "explain",
    "format_cards",
    "full_deck",
    "get_rules",
    "parse_card",
    "parse_cards",
    "rule_names",
    "showdown",
    "strength",
    "strength_function",
    "text_strength_function",
]

if TYPE_CHECKING:
    from typing import Any

    from .cards import JOKER, Card, Rank, Suit, format_cards, full_deck, parse_card, parse_cards
    from .errors import FivecardError, HandError, ParseError, RulesError
    from .evaluate import (
        Evaluation,
        describe,
        evaluate,
        strength,
        strength_function,
        text_strength_function,
    )
    from .hand import Hand
    from .rules import RULE_SETS, Category, RuleSet, get_rules, rule_names
    from .showdown import Showdown, check_decks, cmp_hands, compare, explain, showdown


class _Package(types.ModuleType):
    """``evaluate`` and ``showdown`` name both a function and the module that
    defines it: loading the module must not hide the function."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _HOME and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'fivecard' has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
