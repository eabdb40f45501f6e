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
    "Card": "core.cards",
    "JOKER": "core.cards",
    "Rank": "core.cards",
    "Suit": "core.cards",
    "format_cards": "core.cards",
    "full_deck": "core.cards",
    "parse_card": "core.cards",
    "parse_cards": "core.cards",
    "FivecardError": "errors",
    "HandError": "errors",
    "ParseError": "errors",
    "RulesError": "errors",
    "Evaluation": "core.evaluate",
    "describe": "core.evaluate",
    "evaluate": "core.evaluate",
    "strength": "core.evaluate",
    "strength_function": "core.evaluate",
    "text_strength_function": "core.evaluate",
    "Hand": "core.hand",
    "RULE_SETS": "core.rules",
    "Category": "core.rules",
    "RuleSet": "core.rules",
    "get_rules": "core.rules",
    "rule_names": "core.rules",
    "Showdown": "core.showdown",
    "check_decks": "core.showdown",
    "cmp_hands": "core.showdown",
    "compare": "core.showdown",
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

    from .core.cards import JOKER, Card, Rank, Suit, format_cards, full_deck, parse_card, parse_cards
    from .errors import FivecardError, HandError, ParseError, RulesError
    from .core.evaluate import (
        Evaluation,
        describe,
        evaluate,
        strength,
        strength_function,
        text_strength_function,
    )
    from .core.hand import Hand
    from .core.rules import RULE_SETS, Category, RuleSet, get_rules, rule_names
    from .core.showdown import Showdown, check_decks, cmp_hands, compare, explain, showdown


#: The modules of the first release, before the layers (one release of grace).
_MOVED = {
    **dict.fromkeys(("cards", "hand", "rules", "tables", "evaluate", "showdown", "report"), "core"),
    **dict.fromkeys(("batch", "pipeline", "rows", "sources", "workbook", "writers", "target", "solve", "stats"), "bulk"),
    **dict.fromkeys(("deal", "advise", "game"), "play"),
    "commands": "cli",
}


class _Moved:
    """``import fivecard.batch`` (the old place) gives ``fivecard.bulk.batch``
    with a DeprecationWarning: a finder for the moved modules' old names."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> Any:
        package, _, module = name.rpartition(".")
        if package != __name__ or module not in _MOVED:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(name, _Moved, origin=f"{__name__}.{_MOVED[module]}.{module}")  # type: ignore[arg-type]  # a loader by protocol

    @staticmethod
    def create_module(spec: Any) -> types.ModuleType:
        import warnings

        new = spec.origin
        warnings.warn(f"{spec.name} is deprecated: it is now {new}", DeprecationWarning, stacklevel=4)
        module = import_module(new)
        spec.loader_state = module.__spec__  # the import system sets __spec__ next: put it back
        return module

    @staticmethod
    def exec_module(module: types.ModuleType) -> None:
        alias = module.__spec__
        if alias is not None and alias.loader_state is not None:
            module.__spec__ = alias.loader_state


sys.meta_path.append(_Moved)


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
        if name in _MOVED:  # fivecard.batch, the old place of fivecard.bulk.batch
            return import_module(f".{name}", __name__)
        raise AttributeError(f"module 'fivecard' has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
