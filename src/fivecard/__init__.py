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

from importlib import import_module

from .core.version import __version__ as __version__

TYPE_CHECKING = False  # typing itself is not imported: it costs more than the rest

#: Each public name and the module that defines it.
_HOME = {
    "Card": "core.cards",
    "JOKER": "core.cards",
    "Rank": "core.cards",
    "Suit": "core.cards",
    "format_cards": "core.cards",
    "full_deck": "core.cards",
    "parse_card": "core.cards",
    "parse_cards": "core.cards",
    "FivecardError": "core.errors",
    "HandError": "core.errors",
    "ParseError": "core.errors",
    "RulesError": "core.errors",
    "Evaluation": "core.evaluate",
    "describe": "core.evaluate",
    "evaluate": "core.evaluate",
    "strength": "core.evaluate",
    "strength_function": "core.evaluate",
    "Hand": "core.hand",
    "Language": "core.lang",
    "language": "core.lang",
    "Verdict": "core.reason",
    "RULE_SETS": "core.rules",
    "Category": "core.rules",
    "RuleSet": "core.rules",
    "get_rules": "core.rules",
    "rule_names": "core.rules",
    "Showdown": "core.showdown",
    "check_decks": "core.showdown",
    "cmp_hands": "core.showdown",
    "explain": "core.showdown",
    "showdown": "core.showdown",
}

__all__ = [
    "Card",
    "Category",
    "Evaluation",
    "FivecardError",
    "Hand",
    "HandError",
    "Language",
    "JOKER",
    "ParseError",
    "RULE_SETS",
    "Rank",
    "RuleSet",
    "RulesError",
    "Showdown",
    "Suit",
    "Verdict",
    "check_decks",
    "cmp_hands",
    "describe",
    "evaluate",
    "explain",
    "format_cards",
    "full_deck",
    "get_rules",
    "language",
    "parse_card",
    "parse_cards",
    "rule_names",
    "showdown",
    "strength",
    "strength_function",
]

if TYPE_CHECKING:
    from typing import Any

    from .core.cards import JOKER, Card, Rank, Suit, format_cards, full_deck, parse_card, parse_cards
    from .core.errors import FivecardError, HandError, ParseError, RulesError
    from .core.evaluate import (
        Evaluation,
        describe,
        evaluate,
        strength,
        strength_function,
    )
    from .core.hand import Hand
    from .core.lang import Language, language
    from .core.reason import Verdict
    from .core.rules import RULE_SETS, Category, RuleSet, get_rules, rule_names
    from .core.showdown import Showdown, check_decks, cmp_hands, explain, showdown


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'fivecard' has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
