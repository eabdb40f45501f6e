"""The bulk writers' wild hands against the single-hand path.

What a hand's wild cards became, and where its cards stand in showdown
order, are settled by the batch path once per case (:mod:`fivecard.vector.wild`),
not once per hand. Here every hand of the deck (``deuces-wild``,
``one-eyed-jacks``, the decks of two jokers and of one) is settled alone, as :func:`evaluate`
settles it (its rule functions applied to the hand's own cards), and must
get what the writers use; and the writers' whole output (text, JSON, CSV,
the table of ``solve``) must equal the single-hand ``evaluate`` and report
path on every hand of a sample that holds every kind of wild hand.
"""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Callable
import random
from pathlib import Path

import numpy as np
import pytest
from helpers import dealt_as_the_rounds_say

from fivecard import evaluate, get_rules
from fivecard.vector import batch
from fivecard.files.writers import order as writers_order
from fivecard.files.pipeline import chunk_of_indices
from fivecard.vector.wild import wild_cases
from fivecard.cli import main
from fivecard.core.cards import CARDS
from fivecard.core.lookup import KEY_SPACE, SUIT_MASK, SUIT_SHIFT, codes_for, lookup_index
from fivecard.core.evaluate import showdown_places, wild_cards_made
from fivecard.core.hand import Hand
from fivecard.core.report import Painter, evaluation_json
from fivecard.core.lookup import tables_for

WILD_RULES = ["deuces-wild", "one-eyed-jacks", "joker", "one-joker"]


@functools.cache
def showdown_places_cached() -> Callable[..., tuple[int, ...]]:
    """:func:`showdown_places`, remembered by its arguments (it is a pure
    function of them: many hands share them)."""
    return functools.cache(showdown_places)


@pytest.mark.parametrize("name", WILD_RULES)
@pytest.mark.slow
def test_every_wild_hand_of_the_deck_as_the_single_hand_path_settles_it(name: str) -> None:
    """Every hand of the deck that holds a wild card: the cards its wild
    cards became and its showdown order, as the writers have them, equal
    the single-hand rules applied to that hand alone."""
    rules = get_rules(name)
    tables = tables_for(rules)
    deck = [c.index for c in rules.deck()]
    indices = np.array(deck, dtype=np.int32)[batch.combinations(len(deck))]
    wild = np.isin(indices, list(rules.wild_indices)).any(axis=1)
    indices = indices[wild]
    assert len(indices) == {"deuces-wild": 886_656, "one-eyed-jacks": 480_200, "joker": 563_550, "one-joker": 270_725}[name]
    cases = wild_cases(rules)
    # what evaluate reads of a hand, for all at once: its lookup index (wild
    # cards as the joker) and its cards in sorted order
    looked = np.array(codes_for(rules), dtype=np.int32)[indices]
    key_sum = looked.astype(np.int64).sum(axis=1) >> SUIT_SHIFT
    flush = np.bitwise_and.reduce(looked, axis=1) & SUIT_MASK
    index = key_sum + np.where(flush > 0, KEY_SPACE, 0)
    assert index[:: 1 << 15].tolist() == [lookup_index(row) for row in looked[:: 1 << 15].tolist()]
    by_sort = np.argsort(indices, axis=1, kind="stable")
    place = showdown_places_cached()
    card_of = CARDS
    checked = 0
    for start in range(0, len(indices), 1 << 15):
        chunk = chunk_of_indices(indices[start : start + (1 << 15), None, :], rules)
        found = writers_order.wild(chunk)
        assert found is not None and np.array_equal(found.rows, np.arange(len(chunk.indices)))
        order = writers_order.showdown_order(chunk).tolist()
        made = [cases.values[n] for n in found.numbers.tolist()]
        stop = start + len(chunk.indices)
        for row, strength, at, in_sort, shown, became in zip(
            chunk.indices.tolist(), chunk.strength.tolist(), index[start:stop].tolist(),
            by_sort[start:stop].tolist(), order, made,
        ):
            # the hand alone, as evaluate settles it (_joker_cards, _arrange)
            cards = [card_of[c] for c in row]
            naturals = [c for c in cards if not rules.is_wild(c)]
            hand_class = tables.hand_class(strength)
            flush_suit = naturals[0].suit if hand_class.category.flush else None
            expected = wild_cards_made(tables.substitutes[at], frozenset(naturals), flush_suit, suits=True)
            assert became == expected, cards
            in_order = [cards[i] for i in in_sort]
            ranks = tuple([None if rules.is_wild(c) else c.rank for c in in_order])
            places = place(ranks, hand_class.order, tuple([c.rank for c in expected]))
            assert [cards[i] for i in shown] == [in_order[i] for i in places], cards
            checked += 1
    assert checked == len(indices)


def _sample(name: str, size: int) -> list[str]:
    """``size`` hands of the rule set's deck, each with one to four wild
    cards (as many as the deck has), seeded."""
    rules = get_rules(name)
    deck = rules.deck()
    rng = random.Random(name)
    hands: set[tuple[str, ...]] = set()
    wild = [c for c in deck if rules.is_wild(c)]
    natural = [c for c in deck if not rules.is_wild(c)]
    while len(hands) < size:
        k = rng.choice([1, 1, 1, 2, 2, 3, 4][: 3 + min(len(wild), 4)])
        k = min(k, len(wild))
        cards = rng.sample(wild, k) + rng.sample(natural, 5 - k)
        rng.shuffle(cards)
        hands.add(tuple(c.code_str for c in cards))
    return [" ".join(h) for h in sorted(hands)]


@pytest.mark.parametrize("name", [*WILD_RULES, "standard+wild(3 Kd)"])
@pytest.mark.slow
def test_classify_of_many_wild_hands_equals_the_single_hand_path(name: str) -> None:
    """``classify -`` (the bulk writers), text and JSON, byte for byte as
    the single-hand evaluate and report path writes each hand."""
    hands = _sample(name, 4_000)
    painter = Painter(color=False)
    evaluations = [evaluate(Hand.parse(h, rules=name)) for h in hands]
    out = io.StringIO()
    code = main(["classify", "--rules", name, "-"], stdin=io.StringIO("\n".join(hands) + "\n"), stdout=out,
                stderr=io.StringIO())
    assert code == 0
    assert out.getvalue().splitlines() == [painter.evaluation(e) for e in evaluations]
    out = io.StringIO()
    code = main(["classify", "--json", "--rules", name, "-"], stdin=io.StringIO("\n".join(hands) + "\n"),
                stdout=out, stderr=io.StringIO())
    assert code == 0
    assert out.getvalue() == json.dumps([evaluation_json(e) for e in evaluations], ensure_ascii=False, indent=2) + "\n"


@pytest.mark.parametrize("name", ["deuces-wild", "joker"])
@pytest.mark.slow
def test_coloured_classify_and_deal_of_wild_hands_equal_the_single_hand_path(name: str) -> None:
    """With colour (red suits, among them the cards wild cards became):
    ``classify -`` and ``deal`` as the single-hand path writes them."""
    hands = _sample(name, 500)
    painter = Painter(color=True)
    out = io.StringIO()
    code = main(["classify", "--color", "always", "--rules", name, "-"], stdin=io.StringIO("\n".join(hands) + "\n"),
                stdout=out, stderr=io.StringIO())
    assert code == 0
    assert out.getvalue().splitlines() == [painter.evaluation(evaluate(Hand.parse(h, rules=name))) for h in hands]
    out = io.StringIO()
    code = main(["deal", "--color", "always", "--rules", name, "--players", "4", "--rounds", "200", "--seed", "5"],
                stdout=out, stderr=io.StringIO())
    assert code == 0
    want = dealt_as_the_rounds_say(4, name, 5, 200, False, color=True)
    assert f"[{'JK' if name == 'joker' else 'wild'} as " in want and out.getvalue()[: len(want)] == want


@pytest.mark.parametrize("name", [*WILD_RULES, "standard+wild(Js Jh)"])
@pytest.mark.slow
def test_solve_of_wild_hands_equals_the_single_hand_path(tmp_path: Path, name: str) -> None:
    """``solve`` of two hands a line (read as arrays), to the text table,
    JSON Lines and CSV: each hand as the single-hand path has it (its
    showdown order, what its wild cards became, its class)."""
    rules = get_rules(name)
    hands = _sample(name, 3_000)
    rng = random.Random(1)
    lines = []
    for first in hands:
        taken = set(first.split())
        spare = [c.code_str for c in rules.deck() if c.code_str not in taken]
        second = rng.sample(spare, 5)  # (no joker when the first hand holds one)
        lines.append(f"{first} {' '.join(second)}")
    source = tmp_path / "hands.txt"
    source.write_text("\n".join(lines) + "\n")
    outputs = {}
    for fmt in ("text", "jsonl", "csv"):
        target = tmp_path / f"out.{fmt}"
        code = main(["solve", "--rules", name, str(source), "-o", str(target)], stdout=io.StringIO(),
                    stderr=io.StringIO())
        assert code == 0
        outputs[fmt] = target.read_text(encoding="utf-8").splitlines()
    painter = Painter(color=False)
    rows = [json.loads(line) for line in outputs["jsonl"]]
    assert len(rows) == len(lines) == len(outputs["text"]) - 1 == len(outputs["csv"]) - 1
    for line, row, table, csv_row in zip(lines, rows, outputs["text"][1:], outputs["csv"][1:]):
        cards = line.split()
        for i, text in enumerate((" ".join(cards[:5]), " ".join(cards[5:]))):
            e = evaluate(Hand.parse(text, rules=rules))
            assert row["hands"][i] == evaluation_json(e, text)
            assert f"  {painter.cards(e.showdown)} {e.label:<16}" in table
            assert f",{' '.join(c.code_str for c in e.sorted())},{e.label},{e.score}" in csv_row
