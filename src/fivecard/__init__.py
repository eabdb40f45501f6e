"""fivecard: read, classify and settle five-card poker hands, and say why.

>>> import fivecard
>>> fivecard.evaluate('KD, 9C, 4H, KS, 9D').description
'Two Pair, Kings and Nines, Four kicker'
>>> fivecard.showdown(['8C TS KC 9H 4S', '7D 2S 5D 3S AC']).explanation
'Hand 2 wins: both High Card; the first card decides, A beats K'
"""

from __future__ import annotations

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
from .showdown import Showdown, check_decks, compare, explain, showdown

__version__ = "0.1.0"

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
