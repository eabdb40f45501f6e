"""fivecard deal and fivecard stats."""

from __future__ import annotations

import io
import json
import random

import pytest
from helpers import JOKER_TABLE, SEMI_52_HANDS, STANDARD_TABLE

from fivecard import FivecardError
from fivecard.cli import main
from fivecard.play.deal import deal, deal_rounds
from fivecard.vector.census import census, odds


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_deal_with_a_seed_is_reproducible() -> None:
    first = run(["deal", "--players", "4", "--seed", "2026", "--rounds", "3", "--json"])
    again = run(["deal", "--players", "4", "--seed", "2026", "--rounds", "3", "--json"])
    assert first == again and first[0] == 0
    data = json.loads(first[1])
    assert data["seed"] == 2026 and data["rules"] == "standard" and len(data["rounds"]) == 3
    cards = [c for h in data["rounds"][0]["hands"] for c in h["cards"]]
    assert len(cards) == 20 == len(set(cards))  # one deck, no card twice
    tally = data["tally"]
    assert sum(t["wins"] for t in tally) + sum(
        1 for r in data["rounds"] if len(r["winners"]) > 1
    ) == 3


def test_deal_without_a_seed_differs_and_says_its_seed() -> None:
    a, b = run(["deal", "--players", "2"]), run(["deal", "--players", "2"])
    assert a[1] != b[1]
    seed = a[1].rsplit("(seed ", 1)[1].split(":")[0]
    replay = run(["deal", "--players", "2", "--seed", seed])
    assert replay[1] == a[1]


def test_deal_text_and_tally() -> None:
    code, out, _ = run(["deal", "--players", "3", "--seed", "1", "--rounds", "2"])
    assert code == 0 and "Round 2" in out and "Tally after 2 rounds:" in out
    assert sum(line.startswith("Hand 1:") for line in out.splitlines()) == 2


@pytest.mark.parametrize(("rules", "cards"), [("joker", 54), ("semi", 52), ("ace-king", 52)])
def test_deal_uses_the_rule_sets_deck(rules: str, cards: int) -> None:
    hands = deal(cards // 5, rules=rules, rng=random.Random(3))
    assert all(h.rules.name == rules for h in hands)
    if rules == "semi":
        assert all(c.suit is None for h in hands for c in h.cards)
    if rules == "joker":
        jokers = sum(c.is_joker for h in deal(10, rules="joker", rng=random.Random(9)) for c in h.cards)
        assert jokers <= 2


def test_deal_errors() -> None:
    with pytest.raises(FivecardError, match="players must be from 1 to 10"):
        deal(11, rng=random.Random(1))
    code, _, err = run(["deal", "--players", "0"])
    assert code == 2 and err.count("\n") == 1
    with pytest.raises(FivecardError, match="rounds"):
        list(deal_rounds(2, seed=1, rounds=0))


def test_one_player_is_classified_only() -> None:
    code, out, _ = run(["deal", "--players", "1", "--seed", "4", "--json"])
    assert json.loads(out)["rounds"][0]["winners"] is None


def test_stats_standard_text_matches_rules() -> None:
    code, out, _ = run(["stats"])
    assert code == 0
    assert "Royal Flush             1           4    0.000154%  1 in 649,740" in out
    assert out.splitlines()[-1].startswith("total               7,462   2,598,960")


@pytest.mark.parametrize(
    ("rules", "hands", "classes", "expected"),
    [
        ("standard", 2_598_960, 7_462, {k: v[1] for k, v in STANDARD_TABLE.items()}),
        ("semi", 2_598_960, 6_175, SEMI_52_HANDS),
        ("joker", 3_162_510, 7_475, {k: v[1] for k, v in JOKER_TABLE.items()}),
    ],
)
def test_stats_json_per_rule_set(
    rules: str, hands: int, classes: int, expected: dict[str, int]
) -> None:
    code, out, _ = run(["stats", "--rules", rules, "--json"])
    data = json.loads(out)
    assert (data["rules"], data["hands"], data["classes"]) == (rules, hands, classes)
    assert {c["category"]: c["hands"] for c in data["categories"]} == expected
    assert [c["category"] for c in data["categories"]][0] in ("royal_flush", "five_of_a_kind")
    assert abs(sum(c["probability"] for c in data["categories"]) - 1) < 1e-12


def test_stats_ace_king() -> None:
    counted = {c.category.name: (c.classes, c.hands) for c in census("russian").categories}
    assert counted["ace_king"] == (164, 167_280)
    assert counted["high_card"] == (1_113, 1_135_260)


def test_odds() -> None:
    assert odds(36 / 2_598_960) == "1 in 72,193"
    assert odds(1_098_240 / 2_598_960) == "1 in 2.37"
