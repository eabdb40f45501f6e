"""Pay tables: the most specific line pays, and the short form is the
lines it stands for. Over random tables of four of a kind lines narrowed
by rank, kicker and wild cards, either the table is refused as
overlapping, or every four of a kind (of every rank, kicker and count of
wild cards) is paid by a line whose hands lie within those of every other
line that matches it; a table with a line for every overlap is taken."""

from __future__ import annotations

import json
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fivecard.core.cards import Rank
from fivecard.core.lookup import tables_for
from fivecard.core.rules import get_rules
from fivecard.play.paytables import CATEGORY_NAMES, PAY_NAMES, PayEntry, PayTable, PayTableError, parse_paytable

T = TypeVar("T")
RANKS = list(Rank)
ALL_WILDS = frozenset(range(6))

rank_sets = st.one_of(st.none(), st.frozensets(st.sampled_from(RANKS), min_size=1, max_size=13))
wild_sets = st.one_of(st.none(), st.frozensets(st.integers(0, 5), min_size=1, max_size=6))


@st.composite
def four_of_a_kind_lines(draw: st.DrawFn, wild: bool) -> list[PayEntry]:
    count = draw(st.integers(1, 6))
    return [
        PayEntry(
            "four_of_a_kind",
            draw(st.integers(1, 500)),
            draw(rank_sets),
            draw(rank_sets),
            draw(wild_sets) if wild else None,
            key=f"line{n}",
        )
        for n in range(count)
    ]


def space(entry: PayEntry) -> tuple[frozenset[Rank], frozenset[Rank], frozenset[int]]:
    return (entry.ranks or frozenset(RANKS), entry.kicker or frozenset(RANKS), entry.wilds or ALL_WILDS)


def within(inner: PayEntry, outer: PayEntry) -> bool:
    return all(a <= b for a, b in zip(space(inner), space(outer)))


def check_most_specific(entries: list[PayEntry], rules_name: str) -> None:
    rules = get_rules(rules_name)
    try:
        table = PayTable("random", entries=entries, rules=rules.name)
    except PayTableError as exc:
        assert "overlap" in str(exc) or "pay the same hands" in str(exc), str(exc)
        return
    paid = table.entry_table(rules)
    tables = tables_for(rules)
    seen = 0
    for strength in range(1, tables.size + 1):
        hand_class = tables.hand_class(strength)
        if hand_class.category.name != "four_of_a_kind":
            continue
        rank, kicker = hand_class.key[0], hand_class.key[1]
        for wilds in range(paid.shape[1]):
            seen += 1
            matching = [e for e in table.entries if e.matches("four_of_a_kind", rank, kicker, wilds)]
            chosen = int(paid[strength, wilds])
            if not matching:
                assert chosen == len(table.entries), (rank, kicker, wilds)
                continue
            assert chosen < len(table.entries), (rank, kicker, wilds)
            line = table.entries[chosen]
            assert line in matching
            for other in matching:
                assert within(line, other), (rank, kicker, wilds, line.key, other.key)
    assert seen


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(four_of_a_kind_lines(wild=False))
def test_the_most_specific_four_of_a_kind_line_pays(entries: list[PayEntry]) -> None:
    check_most_specific(entries, "standard")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(four_of_a_kind_lines(wild=True))
def test_the_most_specific_line_pays_under_wild_cards(entries: list[PayEntry]) -> None:
    check_most_specific(entries, "deuces-wild")


def narrowing(part: frozenset[T], whole: frozenset[T]) -> frozenset[T] | None:
    return None if part == whole else part


@st.composite
def closed_tables(draw: st.DrawFn) -> list[PayEntry]:
    """Lines and every overlap of them as a line of its own: a table the
    checker must take."""
    spaces = {space(e) for e in draw(four_of_a_kind_lines(wild=True))}
    while True:
        more = {
            (first[0] & second[0], first[1] & second[1], first[2] & second[2])
            for first in spaces
            for second in spaces
            if first[0] & second[0] and first[1] & second[1] and first[2] & second[2]
        } - spaces
        if not more:
            break
        spaces |= more
    return [
        PayEntry(
            "four_of_a_kind",
            draw(st.integers(1, 500)),
            narrowing(ranks, frozenset(RANKS)),
            narrowing(kicker, frozenset(RANKS)),
            narrowing(wilds, ALL_WILDS),
            key=f"line{n}",
        )
        for n, (ranks, kicker, wilds) in enumerate(sorted(spaces, key=repr))
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(closed_tables())
def test_lines_with_a_line_for_every_overlap_are_taken(entries: list[PayEntry]) -> None:
    PayTable("closed", entries=entries, rules="deuces-wild")  # not refused
    check_most_specific(entries, "deuces-wild")


SHORT_RULES = ("standard", "deuces-wild", "one-joker", "joker", "one-eyed-jacks", "short-deck")


@pytest.mark.parametrize("name", PAY_NAMES)
def test_every_short_form_name_is_the_line_it_stands_for(name: str) -> None:
    """Each name the short form takes ({name: pay}, and with min_pair for
    one_pair) pays as the long form's line: the same hands under every rule
    set that takes it, and the same refusal under those that do not."""
    kind, _, base = name.partition("_")
    line: dict[str, object] = {"pays": 7}
    if name == "four_wild":
        line.update(hand="five_of_a_kind", wilds=4)
    elif kind in ("natural", "wild") and base in CATEGORY_NAMES:
        line.update(hand=base, natural=kind == "natural")
    else:
        line["hand"] = name
    forms: list[tuple[dict[str, object], dict[str, object]]] = [({"pays": {name: 7}}, {"pays": [line]})]
    if line["hand"] == "one_pair":
        forms.append(({"pays": {name: 7}, "min_pair": "J"}, {"pays": [{**line, "ranks": "J-A"}]}))
    for short, long in forms:
        tables = parse_paytable(json.dumps(short), name="short"), parse_paytable(json.dumps(long), name="long")
        assert tables[0].entries[0].space() == tables[1].entries[0].space()
        for rules in map(get_rules, SHORT_RULES):
            refused = []
            for table in tables:
                try:
                    table.check_rules(rules)
                except PayTableError:
                    refused.append(table.name)
            assert refused in ([], ["short", "long"]), (rules.name, refused)
            if not refused:
                assert (tables[0].entry_table(rules) == tables[1].entry_table(rules)).all(), rules.name
