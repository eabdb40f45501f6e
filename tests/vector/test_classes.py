"""Deal classes: the quick grouping by the suits' rank sets names the same
classes, in the same order, as trying every suit renaming on every deal."""

from __future__ import annotations

import numpy as np
import pytest

from fivecard.core.rules import RULE_SETS, get_rules
from fivecard.vector import batch
from fivecard.vector.classes import _classes_by_renamings, _renamings, deal_classes


def _both(name: str) -> None:
    rules = get_rules(name)
    deck = rules.deck()
    quick = deal_classes(deck, rules)
    deals = batch.combinations(len(deck))
    tried = _classes_by_renamings(deck, deals, _renamings(deck, rules), len(set(deck)) < len(deck))
    assert np.array_equal(quick.first, tried.first) and np.array_equal(quick.deals, tried.deals)
    assert quick.total == len(deals)


def test_the_short_deck_classes_are_the_renamings_classes() -> None:
    _both("short-deck")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_every_rule_sets_classes_are_the_renamings_classes(name: str) -> None:
    """Every rule set, whichever way its classes are found (semi and
    one-eyed jacks keep trying renamings)."""
    _both(name)
