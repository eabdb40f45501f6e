"""Every explanation fivecard can give, said in Japanese and Russian, reads
as a sentence: every class's description of every rule set, every kind of
step (a category, a draw, a wild draw, the top card, a group, a card) and
verdicts of one to five hands (wins, splits, draws between all, the next
best), by number and by name; no field is left unfilled, no space doubled,
no punctuation doubled or after a space, and no word of English left (in
Russian, not even a Latin letter: ranks are В Д К Т)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from fivecard.core.evaluate import describe
from fivecard.core.lookup import HandClass, tables_for
from fivecard.core.reason import Step, step, verdict
from fivecard.core.rules import RULE_SETS, RuleSet

LANGS = ["ja", "ru"]
#: Names in no alphabet's letters, so that a Latin word found is fivecard's.
NAMES = ["①", "②", "③", "④", "⑤"]
FAULTS = {
    "a field left unfilled": re.compile(r"[{}]"),
    "a doubled space": re.compile(r"  "),
    "a space at an end": re.compile(r"^\s|\s$"),
    "doubled punctuation": re.compile(r"[;,:.。、；：]\s*[;,:.。、；：]"),
    "punctuation after a space": re.compile(r"\s[,;:.。、；：]"),
    "an English word": re.compile(r"[A-Za-z]{2,}"),
}


def faults(text: str, code: str) -> list[str]:
    found = [name for name, pattern in FAULTS.items() if pattern.search(text)]
    if code == "ru" and re.search(r"[A-Za-z]", text):
        found.append("a Latin letter")
    return found


def steps(rules: RuleSet, classes: list[HandClass], rng: random.Random) -> Iterator[Step]:
    """Steps of every kind: each class against the next weaker and itself
    (a draw; a wild draw), and pairs of one category drawn at random (each
    group, each card position)."""
    by_category: dict[object, list[HandClass]] = {}
    for c in classes:
        by_category.setdefault(c.category, []).append(c)
    pairs = [(c, classes[i - 1]) for i, c in enumerate(classes) if i]
    pairs += [(c, c) for c in classes[:: max(1, len(classes) // 200)]]
    for members in by_category.values():
        pairs += [(rng.choice(members), rng.choice(members)) for _ in range(60)]
    pairs += [tuple(rng.sample(classes, 2)) for _ in range(100)]  # type: ignore[misc]
    for a, b in pairs:
        yield step(a, b, rules=rules)
        yield step(a, b, rules=rules, naturals=(True, False))


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(RULE_SETS))
def test_every_description_and_step_reads_as_a_sentence(rules: str) -> None:
    ruleset = RULE_SETS[rules]
    classes = list(tables_for(ruleset).classes())
    bad = []
    for code in LANGS:
        bad += [(code, text, f) for c in classes for text in [describe(c, code)] for f in faults(text, code)]
    kinds = set()
    for s in steps(ruleset, classes, random.Random(rules)):
        kinds.add(s.kind)
        for code in LANGS:
            text = s.text(code)
            bad += [(code, text, f) for f in faults(text, code)]
    assert bad[:5] == []
    assert {"category", "draw", "wild_draw", "group", "card"} <= kinds
    assert ("top" in kinds) == any(c.category.straight for c in classes)


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(RULE_SETS))
def test_every_shape_of_verdict_reads_as_a_sentence(rules: str) -> None:
    ruleset = RULE_SETS[rules]
    classes = list(tables_for(ruleset).classes())
    rng = random.Random(rules)
    bad = []
    for _ in range(30):
        a, b, c = sorted(rng.sample(classes, 3), key=lambda x: -x.strength)
        shapes = [
            ([a], [[0]]), ([a, b], [[0], [1]]), ([a, a], [[0, 1]]), ([a, a, b], [[0, 1], [2]]),
            ([a, a, a], [[0, 1, 2]]), ([a, b, c], [[0], [1], [2]]), ([a, b, b], [[0], [1, 2]]),
            ([a, a, b, b], [[0, 1], [2, 3]]), ([a] * 5, [[0, 1, 2, 3, 4]]),
        ]  # fmt: skip
        for hands, order in shapes:
            for naturals in (None, [True] + [False] * (len(hands) - 1)):
                said = verdict(hands, order, rules=ruleset, naturals=naturals)
                for code in LANGS:
                    for names in (None, NAMES[: len(hands)]):
                        for text in (said.text(code, names=names), said.reason(code, names=names)):
                            bad += [(code, text, f) for f in faults(text, code)]
    assert bad[:5] == []
