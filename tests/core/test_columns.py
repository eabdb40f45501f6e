"""The columns of a rule set's classes (what the pipeline and every writer
read) say of every strength of every rule set what the single-hand path's
class says: its category, score, description, ranks in showdown order and
compared key; and their arrays say the same."""

from __future__ import annotations

import numpy as np
import pytest

from fivecard.core.columns import class_columns
from fivecard.core.evaluate import describe
from fivecard.core.lookup import tables_for
from fivecard.core.rules import RULE_SETS, get_rules
from fivecard.vector.columns import NO_PLACE, class_arrays, rank_places

RULES = [*RULE_SETS, "standard+wild(2)", "standard+wild(Js Jh)"]


@pytest.mark.parametrize("name", RULES)
@pytest.mark.slow
def test_every_strength_has_its_classs_facts(name: str) -> None:
    rules = get_rules(name)
    tables = tables_for(rules)
    columns = class_columns(rules)
    assert columns.size == tables.size
    for strength in range(1, tables.size + 1):
        hand_class = tables.hand_class(strength)
        category = hand_class.category
        assert columns.category(strength) == category
        assert columns.score(strength) == rules.score(category)
        assert columns.description(strength) == describe(hand_class)
        ranks = columns.ranks(strength)
        assert tuple(ranks) == tuple(int(r) for r in hand_class.order)
        places = columns.key_places[rules.ladder.index(category)]
        assert tuple(ranks[p] for p in places) == tuple(int(r) for r in hand_class.key)
        named = columns.named[rules.ladder.index(category)]
        groups = [n for _, n in hand_class.groups]
        assert named == (0 if category.straight else sum(1 for n in groups[:2] if n >= 2))


@pytest.mark.parametrize("name", RULES)
@pytest.mark.slow
def test_the_arrays_say_what_the_columns_say(name: str) -> None:
    rules = get_rules(name)
    columns = class_columns(rules)
    arrays = class_arrays(rules)
    assert arrays.category[0] == -1 and arrays.score[0] == 0 and arrays.key[0] == 0
    for strength in range(1, columns.size + 1):
        index = rules.ladder.index(columns.category(strength))
        assert arrays.category[strength] == index
        assert arrays.score[strength] == columns.score(strength)
        ranks = columns.ranks(strength)
        key = [ranks[p] for p in columns.key_places[index]]
        assert int(arrays.key[strength]) == sum(rank << (16 - 4 * i) for i, rank in enumerate(key))
        named = columns.named[index]
        assert (bool(arrays.names_first[strength]), bool(arrays.names_second[strength])) == (named >= 1, named >= 2)
        places = rank_places(rules)[strength]
        for rank in range(2, 15):
            where = ranks.find(bytes([rank]))
            assert places[14 - rank] == (NO_PLACE if where < 0 else where)


def test_the_arrays_are_read_only() -> None:
    arrays = class_arrays(get_rules("standard"))
    tables = (arrays.category, arrays.score, arrays.key, arrays.names_first, arrays.names_second)
    for array in (*tables, rank_places(get_rules("standard"))):
        with pytest.raises(ValueError):
            array[0] = 1


def test_a_strength_with_no_class_is_an_index_error() -> None:
    columns = class_columns(get_rules("standard"))
    for strength in (0, 7463, -1):
        with pytest.raises(IndexError, match=f"no class of strength {strength} in standard"):
            columns.category(strength)
        with pytest.raises(IndexError):
            columns.description(strength)
    assert np.frombuffer(columns.category_index, np.uint8)[0] == 255
