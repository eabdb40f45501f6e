"""name_hands: a showdown's explanation with its hands called by name."""

from __future__ import annotations

import random
import re

import pytest

from fivecard import get_rules
from fivecard.core.showdown import name_hands, showdown
from fivecard.core.hand import Hand

NAMES = ["Ann", "Bob Lee", "Cy", "Дмитрий", "山田", "Eve", "Fay", "Gus", "Hal", "Ida"]


@pytest.mark.parametrize("rules", ["standard", "semi", "joker", "deuces-wild", "ace-to-five"])
@pytest.mark.parametrize("players", range(1, 11))
def test_every_hand_an_explanation_names_is_called_by_its_name(rules: str, players: int) -> None:
    rng, ruleset = random.Random(players), get_rules(rules)
    for _ in range(60):
        cards = rng.sample(ruleset.deck(), 5 * players)
        result = showdown([Hand(tuple(cards[5 * i : 5 * i + 5]), ruleset) for i in range(players)])
        named = name_hands(result.explanation, NAMES[:players])
        assert not re.search(r"\b[Hh]ands? \d", named), named
        head = named.split(":", 1)[0]
        winners = [NAMES[w] for w in result.winners]
        if len(winners) < players or players == 1:  # (a draw of every hand names none)
            assert head.startswith(" and ".join(winners)), (result.explanation, named)
        # what follows the head (the cards' reasons) is left as it was
        assert named.split(":", 1)[1].split(" (next best")[0] == result.explanation.split(":", 1)[1].split(" (next best")[0]
