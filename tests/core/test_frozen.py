"""The core's value classes: set once, and by default equal, hashed and
shown by their fields, as frozen dataclasses are."""

from __future__ import annotations

import copy
import pickle

import pytest

from fivecard.core.cards import Card
from fivecard.core.errors import Listed, Phrase
from fivecard.core.evaluate import evaluate
from fivecard.core.frozen import Frozen
from fivecard.core.lookup import HandClass
from fivecard.core.rules import STANDARD, Category, get_rules


class Point(Frozen):
    __slots__ = ("x", "y")
    x: int
    y: int

    def __init__(self, x: int, y: int) -> None:
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)


class Labelled(Point):
    __slots__ = ("label",)
    label: str

    def __init__(self, x: int, y: int, label: str = "") -> None:
        super().__init__(x, y)
        object.__setattr__(self, "label", label)


def test_a_value_is_equal_to_one_of_its_class_with_equal_fields() -> None:
    assert Point(1, 2) == Point(1, 2)
    assert Point(1, 2) != Point(2, 1)
    assert hash(Point(1, 2)) == hash(Point(1, 2))
    assert len({Point(1, 2), Point(1, 2), Point(2, 1)}) == 2


def test_a_value_is_never_equal_to_one_of_another_class() -> None:
    assert Point(1, 2) != Labelled(1, 2)
    assert Labelled(1, 2) != Point(1, 2)
    assert Point(1, 2) != (1, 2)


def test_a_subclass_has_its_bases_fields_first() -> None:
    assert Labelled._fields == ("x", "y", "label")
    assert repr(Labelled(1, 2, "a")) == "Labelled(x=1, y=2, label='a')"
    assert Labelled(1, 2, "a") != Labelled(1, 2, "b")


def test_a_value_is_shown_by_its_fields_in_order() -> None:
    assert repr(Point(1, 2)) == "Point(x=1, y=2)"
    assert repr(Listed(("a",), 2)) == "Listed(items=('a',), more=2)"


def test_a_field_is_set_once() -> None:
    point = Point(1, 2)
    with pytest.raises(AttributeError, match="cannot assign to field 'x'"):
        point.x = 3
    with pytest.raises(AttributeError, match="cannot delete field 'y'"):
        del point.y


def test_copies_and_pickles_are_equal_to_the_value() -> None:
    for value in (Point(1, 2), Labelled(3, 4, "c"), STANDARD.ladder[0], Listed((1, 2), 0)):
        assert copy.copy(value) == value
        assert copy.deepcopy(value) == value
        assert pickle.loads(pickle.dumps(value)) == value


def test_replace_makes_a_new_value_from_the_fields() -> None:
    assert Labelled(1, 2, "a").replace(y=5) == Labelled(1, 5, "a")
    with pytest.raises(TypeError, match="no field 'z'"):
        Point(1, 2).replace(z=3)


def test_the_cores_values_compare_by_their_fields() -> None:
    category = STANDARD.ladder[3]
    assert category == Category(*(getattr(category, name) for name in Category._fields))
    assert Phrase("a {x}", {"x": 1}) == Phrase("a {x}", {"x": 1})
    assert Phrase("a {x}", {"x": 1}) != Phrase("a {x}", {"x": 2})
    hand_class = evaluate("AS KS QS JS TS").hand_class
    twin = HandClass(*(getattr(hand_class, name) for name in HandClass._fields))
    assert twin is not hand_class
    assert twin == hand_class
    assert hash(twin) == hash(hand_class)
    assert twin != evaluate("AS KS QS JS 9S").hand_class


def test_a_rule_set_is_equal_only_to_itself() -> None:
    twin = STANDARD.replace(name="standard")
    assert twin != STANDARD
    assert STANDARD == get_rules("standard")
    assert len({STANDARD, twin}) == 2


def test_a_card_compares_by_rank_and_suit() -> None:
    assert Card.parse("As") == Card.parse("AS")
    assert repr(Card.parse("As")) == "Card.parse('As')"


def test_a_private_field_is_read_by_the_name_python_gives_it() -> None:
    class Secret(Frozen):
        __slots__ = ("__code",)

        def __init__(self, code: int) -> None:
            object.__setattr__(self, "_Secret__code", code)

    assert Secret._fields == ("_Secret__code",)
    assert Secret(1) == Secret(1) and Secret(1) != Secret(2)
    assert hash(Secret(1)) == hash(Secret(1))
    assert repr(Secret(1)) == "Secret(_Secret__code=1)"


def test_slots_given_as_one_name_are_one_field() -> None:
    class Single(Frozen):
        __slots__ = "rank"  # one name, as Python allows

        def __init__(self, rank: int) -> None:
            object.__setattr__(self, "rank", rank)

    assert Single._fields == ("rank",)
    assert repr(Single(3)) == "Single(rank=3)"


def test_a_weak_reference_slot_is_not_a_field() -> None:
    import weakref

    class Referable(Point):
        __slots__ = ("__weakref__",)

    first, second = Referable(1, 2), Referable(1, 2)
    refs = weakref.ref(first), weakref.ref(second)
    assert Referable._fields == ("x", "y")
    assert first == second and hash(first) == hash(second)
    assert repr(first) == "Referable(x=1, y=2)"
    assert all(ref() is not None for ref in refs)
