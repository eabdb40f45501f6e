"""The best five of six or seven cards, and a hold'em board, through the
library (evaluate, strength, showdown) and the command line (classify
--best-five, compare --best-five / --board): the five that play, the
explanation on them, the errors, and agreement with the batch path."""

from __future__ import annotations

import io
import itertools
import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivecard import Card, Suit, evaluate, get_rules, showdown, strength
from fivecard.vector import seven
from fivecard.cli import main
from fivecard.core.rules import RULE_SETS, RuleSet, wild_rules
from fivecard.core.errors import HandError, ParseError

RULES = [*RULE_SETS.values(), wild_rules("2")]


def dealt(rules: RuleSet, rng: random.Random, n: int) -> list[Card]:
    """n cards dealt from the rule set's deck."""
    return rng.sample(list(rules.deck()), n)


def brute_best(cards: list[Card], rules: RuleSet) -> tuple[int, list[tuple[Card, ...]]]:
    """The best strength of any five of the cards, and every five that has it."""
    fives = list(itertools.combinations(cards, 5))
    strengths = [evaluate(list(f), rules=rules).strength for f in fives]
    best = max(strengths)
    return best, [f for f, s in zip(fives, strengths) if s == best]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
@pytest.mark.slow
def test_the_best_five_is_the_best_of_every_five(rules: RuleSet) -> None:
    rng = random.Random(rules.name)
    for n in (5, 6, 7) * 40:
        cards = dealt(rules, rng, n)
        e = evaluate(cards, rules=rules, best_five=True)
        best, fives = brute_best(cards, rules)
        assert e.strength == best == strength(cards, rules=rules, best_five=True)
        # of the equal fives, the one whose cards come first in sorted order
        first = min(fives, key=lambda f: sorted(c.index for c in f))
        assert sorted(e.hand.cards, key=lambda c: c.sort_key) == sorted(first, key=lambda c: c.sort_key)
        assert e.dealt == tuple(c.rank_only() if not rules.suits else c for c in cards)
        assert sorted(map(str, (*e.hand.cards, *e.unused))) == sorted(map(str, e.dealt))


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
@pytest.mark.slow
def test_single_hand_and_batch_paths_agree(rules: RuleSet) -> None:
    rng = random.Random(f"batch {rules.name}")
    for n in (5, 6, 7):
        hands = [dealt(rules, rng, n) for _ in range(300)]
        indices = np.array([[c.index for c in h] for h in hands], dtype=np.int32)
        strengths = seven.best_strengths(indices, rules=rules)
        positions = seven.best_positions(indices, rules=rules)
        for hand, s, chosen in zip(hands, strengths.tolist(), positions.tolist()):
            e = evaluate(hand, rules=rules, best_five=True)
            assert s == e.strength
            played = [hand[i].rank_only() if not rules.suits else hand[i] for i in chosen]
            assert played == list(e.hand.cards)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(5, 7))
def test_card_order_does_not_matter(rng: random.Random, n: int) -> None:
    cards = dealt(get_rules("standard"), rng, n)
    e = evaluate(cards, best_five=True)
    again = evaluate(rng.sample(cards, n), best_five=True)
    assert again.strength == e.strength
    assert set(again.hand.cards) == set(e.hand.cards)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(5, 7), st.permutations(list(Suit)))
def test_renaming_suits_does_not_matter(rng: random.Random, n: int, suits: list[Suit]) -> None:
    rename = dict(zip(Suit, suits))
    for name in ("standard", "short-deck", "joker"):
        rules = get_rules(name)
        cards = dealt(rules, rng, n)
        renamed = [c if c.suit is None else Card(c.rank, rename[c.suit]) for c in cards]
        assert strength(renamed, rules=rules, best_five=True) == strength(cards, rules=rules, best_five=True)


def test_a_board_is_shared_by_every_hand() -> None:
    result = showdown(["QS JS", "7C 7H"], board="AS KS 7D 2C 9H")
    assert result.winners == (1,)
    assert result.explanation == "Hand 2 wins: Three of a Kind beats High Card"
    first, second = result.evaluations
    assert str(first.hand) == "Q♠ J♠ A♠ K♠ 9♥" and first.description == "High Card, A-K-Q-J-9"
    assert [str(c) for c in second.unused] == ["2♣", "9♥"]
    # the same as each hand's cards and the board's played as seven
    alike = showdown(["QS JS AS KS 7D 2C 9H", "7C 7H AS KS 7D 2C 9H"], best_five=True, decks=2)
    assert [e.strength for e in alike.evaluations] == [e.strength for e in result.evaluations]
    # the board plays for both: a split
    split = showdown(["2C 3D", "2H 3S"], board="AS KS QS JS TS")
    assert split.winners == (0, 1) and split.explanation.startswith("Draw: both Royal Flush")
    # the explanation reaches the kicker the board does not fix
    kicker = showdown(["AH 4C", "AD 9C"], board="AS KD 8H 5C 2S")
    assert kicker.winners == (1,)
    assert kicker.explanation == "Hand 2 wins: both One Pair of Aces; the fourth card decides, 9 beats 8"


def test_every_rule_set_takes_a_board() -> None:
    assert showdown(["Q J", "7 7"], board="A K 7 2 9", rules="semi").winners == (1,)
    deuces = showdown(["QS JS", "7C 7H"], board="AS KS 7D 2C 9H", rules="deuces-wild")
    assert deuces.winners == (0,) and deuces.evaluations[0].category_id == "royal_flush"
    joker = evaluate("JK 7H", board="7D 7S 7C 2C 9H", rules="joker")
    assert joker.category_id == "five_of_a_kind"
    short = showdown(["AS 6H", "TD 9C"], board="7D 8C 9S KH KD", rules="short-deck")
    assert short.explanation == "Hand 1 wins: Straight beats Two Pair"  # A-6-7-8-9, the ace low
    assert " ".join(map(str, short.evaluations[0].showdown)) == "9♠ 8♣ 7♦ 6♥ A♠"


def test_errors_say_what_and_where() -> None:
    with pytest.raises(HandError, match=r"expected 5 cards, got 6 \(six or seven cards play their best five") as info:
        evaluate("AS KS QS JS TS 9S")
    assert info.value.option == ("best-five", "")
    with pytest.raises(HandError, match=r"expected 5 to 7 cards \(the best five play\), got 8 in 'AS KS QS JS TS 9S 8S 7S'"):
        evaluate("AS KS QS JS TS 9S 8S 7S", best_five=True)
    with pytest.raises(HandError, match=r"expected 5 to 7 cards \(the best five play\), got 4"):
        evaluate("AS KS", board="2C 3C")
    with pytest.raises(HandError, match=r"duplicate card Q♠ \(cards 1 and 5\) in 'QS JS' with the board 'AS KS QS 2C'"):
        evaluate("QS JS", board="AS KS QS 2C")
    with pytest.raises(ParseError, match=r"^the board: unknown rank 'X' in card 5 \('XH'\) of 'AS KS 7D 2C XH'"):
        showdown(["QS JS", "7C 7H"], board="AS KS 7D 2C XH")
    with pytest.raises(HandError, match=r"^card Q♠ is in hands 1 and 2"):
        showdown(["QS JS", "QS 7H"], board="AS KS 7D 2C 9H")
    with pytest.raises(HandError, match=r"card 2 \(5♣\) is not in the short-deck deck"):
        evaluate("AS 5C", board="7D 8C 9S KH KD", rules="short-deck")


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_command_line() -> None:
    code, out, _ = run("compare", "--board", "AS KS 7D 2C 9H", "QS JS", "7C 7H")
    assert code == 0
    assert out.splitlines() == [
        "Board: A♠  K♠  7♦  2♣  9♥",
        "Hand 1: Q♠  J♠  ->  A♠  K♠  Q♠  J♠  9♥  High Card, A-K-Q-J-9  (score 1, strength 1,277)",
        "Hand 2: 7♣  7♥  ->  7♥  7♦  7♣  A♠  K♠  Three of a Kind, Sevens, A-K kickers  (score 4, strength 5,391)  <- wins",
        "Hand 2 wins: Three of a Kind beats High Card",
    ]
    code, out, _ = run("compare", "--json", "--board", "AS KS 7D 2C 9H", "QS JS", "7C 7H")
    data = json.loads(out)
    assert code == 0 and data["board"] == ["As", "Ks", "7d", "2c", "9h"] and data["winners"] == [2]
    assert data["hands"][0]["cards"] == ["Qs", "Js", "As", "Ks", "9h"]
    assert data["hands"][0]["dealt"] == ["Qs", "Js", "As", "Ks", "7d", "2c", "9h"]
    assert data["hands"][0]["unused"] == ["7d", "2c"]
    code, out, _ = run("classify", "--best-five", "AS KS QS JS TS 9S 2D")
    assert code == 0
    assert out == "A♠  K♠  Q♠  J♠  10♠ 9♠  2♦  ->  A♠  K♠  Q♠  J♠  10♠ Royal Flush  (score 10, strength 7,462)\n"
    code, out, _ = run("classify", "--best-five", "--json", "-", stdin="AsKsQsJsTs9s2d\n\n2c 3d 4h 5s 7c 8d\n")
    hands = json.loads(out)
    assert code == 0 and [h["description"] for h in hands] == ["Royal Flush", "High Card, 8-7-5-4-3"]
    assert hands[1]["unused"] == ["2c"]
    code, out, _ = run("compare", "--best-five", "AS AH KS KH 2C 3D 4H", "AD AC KD KC 2S 3H 5D")
    assert code == 0 and out.splitlines()[-1] == (
        "Hand 2 wins: both Two Pair of Aces and Kings; the fifth card decides, 5 beats 4"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["classify", "AS KS QS JS TS 9S"], "hand 1: expected 5 cards, got 6 (six or seven cards play their best five when asked) in 'AS KS QS JS TS 9S' (use --best-five)"),
        (["compare", "--board", "AS KS 7D 2C 9H", "QS JS", "QS 7H"], "card Q♠ is in hands 1 and 2;"),
        (["compare", "--board", "AS KS 7D 2C 9H 8H", "QS JS", "7C 7H"], "hand 1: expected 5 to 7 cards (the best five play), got 8"),
        (["classify", "--best-five", "AS KS QS JS TS 9S 8S 7S"], "got 8"),
    ],
)
def test_command_line_errors_are_one_line(argv: list[str], message: str) -> None:
    code, out, err = run(*argv)
    assert code == 2 and out == ""
    assert err.startswith("fivecard: error: ") and message in err and err.count("\n") == 1


def random_lines(rules: RuleSet, rng: random.Random, rows: int) -> list[str]:
    """Rows of two or three hands of 5 to 7 cards from one deck, in
    several spellings, separated by '|'."""
    lines = []
    for _ in range(rows):
        players = rng.choice((2, 3))
        sizes = [rng.randint(5, 7) for _ in range(players)]
        cards = dealt(rules, rng, sum(sizes))
        hands, at = [], 0
        for size in sizes:
            mine, at = cards[at : at + size], at + size
            joiner = rng.choice((" ", ", ", "") if rules.suits else (" ", ", "))  # ranks alone need a space
            hands.append(joiner.join(c.code_str if rng.random() < 0.8 else str(c) for c in mine))
        lines.append(" | ".join(hands))
    return lines


@pytest.mark.parametrize("rules", [get_rules(n) for n in ("standard", "short-deck", "deuces-wild", "semi", "joker")], ids=str)
@pytest.mark.slow
def test_solve_agrees_with_the_single_hand_path(rules: RuleSet, tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    rng = random.Random(f"solve {rules.name}")
    lines = random_lines(rules, rng, 400)
    bad = {5: "AS KS QS JS", 77: "AS KS QS JS TS 9S 8S 7S 6S", 150: "QS TC JC KC AC | QS 6C 7C 8C 9C"}
    for at, text in bad.items():
        lines[at] = text
    if not rules.one_deck:
        del bad[150]
    source = folder / "seven.txt"
    source.write_text("# seven-card showdowns\n" + "\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run("solve", "--best-five", "--rules", rules.name, "--json", str(source))
    errors = len(bad)  # semi: hands are not checked against one deck
    assert code == 1 and err.startswith(f"400 rows: {400 - errors} solved, {errors} errors")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in records] == list(range(2, len(lines) + 2))  # nothing dropped or shifted
    for number, (line, record) in enumerate(zip(lines, records)):
        if number in bad:
            assert "error" in record
            continue
        hands = [h.strip() for h in line.split("|")]
        expected = showdown(hands, rules=rules, best_five=True)
        assert record["explanation"] == expected.explanation
        assert [h["strength"] for h in record["hands"]] == [e.strength for e in expected.evaluations]
        assert [h["cards"] for h in record["hands"]] == [[c.code_str for c in e.hand.cards] for e in expected.evaluations]
        assert [h["unused"] for h in record["hands"]] == [[c.code_str for c in e.unused] for e in expected.evaluations]
    assert "expected 5 to 7 cards (the best five play), got 4" in records[5]["error"]
    assert "9 cards and no mark between hands" in records[77]["error"]
    if rules.one_deck:
        assert records[150]["error"].startswith("card Q♠ is in hands 1 and 2")
    # every format, and standard input, say the same of each row
    code, csv_out, _ = run("solve", "--best-five", "--rules", rules.name, "-", "-o", str(folder / "out.csv"),
                           stdin=source.read_text(encoding="utf-8"))
    assert code == 1
    import csv

    with open(folder / "out.csv", encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [row["explanation"] for row in table] == [r.get("explanation", "") for r in records]
    code, text_out, _ = run("solve", "--best-five", "--rules", rules.name, str(source))
    assert code == 1
    for record in records[:50]:
        if "explanation" in record:
            assert record["explanation"] in text_out


def test_a_table_of_seven_card_hands(tmp_path: object) -> None:
    from pathlib import Path

    source = Path(str(tmp_path)) / "stud.csv"
    source.write_text(
        "round,player 1,player 2\n"
        '1,"AS KS QS JS TS 9S 2D","2C 3D 4H 5S 7C 8D 9H"\n'
        '2,"7H 7D 7S 7C 2D 3D","AH KH QH JH 9H 8C 8S"\n'
        "3,,2C 3D 4H 5S 7C\n",
        encoding="utf-8",
    )
    code, out, _ = run("solve", "--best-five", "--json", str(source))
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert records[0]["explanation"] == "Hand 1 wins: Royal Flush beats High Card"
    assert records[1]["explanation"] == "Hand 1 wins: Four of a Kind beats Flush"
    assert records[2]["error"] == "hand 1: no cards (an empty hand) in ''"


def test_classify_many_hands_agrees_with_one_at_a_time() -> None:
    rng = random.Random("classify")
    rules = get_rules("standard")
    hands = ["".join(c.code_str for c in dealt(rules, rng, rng.randint(5, 7))) for _ in range(200)]
    for flag in ((), ("--json",)):
        code, many, _ = run("classify", "--best-five", *flag, "-", stdin="\n".join(hands) + "\n")
        assert code == 0
        code, each, _ = run("classify", "--best-five", *flag, *hands)
        assert code == 0 and many == each
    code, _, err = run("classify", "--best-five", "-", stdin="AsKsQsJsTs9s2d\nAS KS\n")
    assert code == 2 and err == (
        "fivecard: error: hand 2: expected 5 to 7 cards (the best five play), got 2 in 'AS KS'\n"
    )


@pytest.mark.slow
def test_stats_counts_every_hand_of_six_or_seven_cards() -> None:
    from math import comb

    code, out, _ = run("stats", "--cards", "7", "--rules", "short-deck", "--json")
    data = json.loads(out)
    assert code == 0 and data["cards"] == 7 and data["hands"] == comb(36, 7)
    assert sum(c["hands"] for c in data["categories"]) == comb(36, 7)
    counts = seven.seven_card_counts("short-deck", cards=7)
    assert data["classes"] == int((counts > 0).sum())
    code, out, _ = run("stats", "--cards", "6", "--rules", "semi")
    assert code == 0 and out.startswith("semi: every six-card hand of 52 cards (suits hidden), each playing its best five\n")
    code, _, err = run("stats", "--cards", "8")
    assert code == 2 and "--cards" in err and err.count("\n") == 1
