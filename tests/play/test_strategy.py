"""A pay table solved exactly by inclusion-exclusion
(fivecard.play.strategy), against the per-hand advisor and the published
returns of Jacks or Better 9/6, full-pay Deuces Wild, Joker Poker and
Double Joker."""

from __future__ import annotations

import functools
import math
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import executed_by

from fivecard.core.errors import FivecardError
from fivecard.files.paytable_file import load_paytable
from fivecard.play.advise import advise
from fivecard.play.paytables import DEUCES_WILD_FULL_PAY, JACKS_OR_BETTER, PayTable, PayTableError, parse_paytable
from fivecard.play.strategy import HOLDS, PayTableSolution, solve_paytable

#: Video poker's Joker Poker, kings or better, 20/7/5 (per coin at five
#: coins), as a pay table file writes it: the 53-card deck of one joker.
JOKER_POKER = """{
  "name": "Joker Poker Kings or Better 20/7/5",
  "rules": "one-joker",
  "min_pair": "K",
  "pays": {"natural_royal_flush": 800, "five_of_a_kind": 200, "wild_royal_flush": 100,
           "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7, "flush": 5,
           "straight": 3, "three_of_a_kind": 2, "two_pair": 1, "one_pair": 1}
}"""
#: Double Joker 9/5/4, two pair or better: the 54-card deck of two jokers.
DOUBLE_JOKER = """{
  "name": "Double Joker 9/5/4",
  "rules": "joker",
  "pays": {"natural_royal_flush": 800, "wild_royal_flush": 100, "five_of_a_kind": 50,
           "straight_flush": 25, "four_of_a_kind": 9, "full_house": 5, "flush": 4,
           "straight": 3, "three_of_a_kind": 2, "two_pair": 1}
}"""
_WRITTEN = {"joker-poker": JOKER_POKER, "double-joker": DOUBLE_JOKER}


def paytable(table: str) -> PayTable:
    """A built-in pay table, or one of the tables written out above."""
    if table in _WRITTEN:
        return parse_paytable(_WRITTEN[table], name=table)
    return load_paytable(table)


@functools.cache
def solved(table: str, rules: str) -> PayTableSolution:
    """Each pay table solved once per test run."""
    return solve_paytable(paytable(table), rules=rules)


@pytest.mark.slow
def test_jacks_or_better_returns_exactly_99_5439_percent() -> None:
    solution = solved("jacks-or-better", "standard")
    assert solution.expected_return == Fraction(1653526326983, 1661102543100)
    assert round(solution.percent, 4) == 99.5439
    weights = solution.classes.deals  # each class stands for its deals
    assert int(weights.sum()) == 2_598_960 and len(weights) == 134_459
    mean = float((solution.best_value * weights).sum() / weights.sum())
    assert mean == pytest.approx(float(solution.expected_return), rel=1e-12)


@pytest.mark.slow
def test_deuces_wild_full_pay_returns_100_7620_percent() -> None:
    solution = solved("deuces-wild", "deuces-wild")
    assert round(solution.percent, 4) == 100.7620
    assert solution.expected_return == Fraction(32187682693, 31944279675)
    # the final hands by the entry that pays them, highest pay first
    assert list(solution.final) == [
        "natural_royal_flush", "four_wild", "wild_royal_flush", "five_of_a_kind", "straight_flush",
        "four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind", "nothing",
    ]
    assert sum(solution.final.values()) == 1
    pays = DEUCES_WILD_FULL_PAY.pays
    assert sum(p * Fraction(pays.get(name, 0)) for name, p in solution.final.items()) == solution.expected_return
    assert round(float(solution.final["four_wild"]), 6) == 0.000204  # the published 1 in 4,909


@pytest.mark.slow
def test_joker_poker_returns_exactly_100_6463_percent() -> None:
    """Joker Poker, kings or better, 20/7/5, on the 53-card deck: the
    published 100.64%, and a natural royal flush 1 in 41,214 deals as
    published for the game under perfect play."""
    solution = solved("joker-poker", "one-joker")
    assert solution.expected_return == Fraction(412127554537, 409481092020)
    assert round(solution.percent, 4) == 100.6463
    # the 134,459 classes of 52 cards, and with the joker one per class of
    # the other four cards (16,432, as Omaha's starting hands): a renaming
    # of the suits keeps the joker
    assert solution.classes.total == 2_869_685 and len(solution.classes) == 134_459 + 16_432
    assert list(solution.final) == [
        "natural_royal_flush", "five_of_a_kind", "wild_royal_flush", "straight_flush", "four_of_a_kind",
        "full_house", "flush", "straight", "three_of_a_kind", "two_pair", "one_pair", "nothing",
    ]  # fmt: skip
    assert sum(solution.final.values()) == 1
    pays = paytable("joker-poker").pays
    assert sum(p * Fraction(pays.get(name, 0)) for name, p in solution.final.items()) == solution.expected_return
    assert round(1 / solution.final["natural_royal_flush"]) == 41_214


@pytest.mark.slow
def test_double_joker_returns_the_published_99_97_percent() -> None:
    """The 54-card deck of two jokers solves too: Double Joker 9/5/4."""
    solution = solved("double-joker", "joker")
    assert solution.expected_return == Fraction(50239621370, 50254497657)
    assert round(solution.percent, 2) == 99.97
    # and with both jokers, one class per class of the other three (1,755)
    assert solution.classes.total == 3_162_510 and len(solution.classes) == 134_459 + 16_432 + 1_755


@pytest.mark.parametrize(
    ("table", "rules", "deals"),
    [
        ("jacks-or-better", "short-deck", 150),
        ("deuces-wild", "deuces-wild", 20),
        ("jacks-or-better", "standard", 20),
        ("joker-poker", "one-joker", 40),
        ("double-joker", "joker", 20),
    ],
)
@pytest.mark.slow
def test_every_deal_holds_what_the_advisor_holds(table: str, rules: str, deals: int) -> None:
    """The solver's best and second-best hold of a sample of classes (half
    of them, under jokers, with a joker dealt), against the advisor's
    enumeration of every draw of the class's first deal."""
    solution = solved(table, rules)
    deck = solution.rules.deck()
    rng = random.Random(14)
    rows = rng.sample(range(len(solution.classes)), deals)
    if solution.rules.jokers:
        jokers = [r for r, first in enumerate(solution.classes.first.tolist()) if first[-1] >= 52]
        rows = rows[: deals // 2] + rng.sample(jokers, deals - deals // 2)
    for row in rows:
        cards = [deck[i] for i in solution.classes.first[row].tolist()]
        advice = advise(cards, rules=rules, paytable=paytable(table))
        first, second = advice.choices[0], advice.choices[1]
        assert first.ev is not None and second.ev is not None
        assert float(solution.best_value[row]) == pytest.approx(first.ev, abs=1e-12)
        assert float(solution.second_value[row]) == pytest.approx(second.ev, abs=1e-12)
        kept = {cards[i] for i in HOLDS[int(solution.best[row])]}
        assert kept == set(first.keep)  # ties go to fewer cards exchanged, as the advisor's


@pytest.mark.slow
def test_a_tie_keeps_more_cards_as_the_advisor_does() -> None:
    from fivecard.play.strategy import starting_hands

    hands = {" ".join(c.code_str for c in h.cards): h for h in starting_hands(solved("jacks-or-better", "standard"))}
    quads = hands["As Ah Ad Ac Ks"]  # keeping the king or not: 25 either way
    assert quads.value == quads.runner_up_value == 25 and quads.hold == quads.cards


def test_the_final_hands_under_optimal_play() -> None:
    solution = solved("jacks-or-better", "short-deck")
    assert sum(solution.final.values()) == 1
    pays = {"nothing": 0, **JACKS_OR_BETTER.pays}
    assert sum(p * Fraction(pays[name]) for name, p in solution.final.items()) == solution.expected_return
    assert list(solution.final)[0] == "royal_flush" and list(solution.final)[-1] == "nothing"


def test_what_cannot_be_solved_yet_says_so() -> None:
    with pytest.raises(PayTableError, match="low hands"):
        solve_paytable(JACKS_OR_BETTER, rules="deuce-to-seven")
    with pytest.raises(FivecardError, match="a deck of suited cards for now, not semi$"):
        solve_paytable(JACKS_OR_BETTER, rules="semi")
    with pytest.raises(PayTableError, match=r"plays under the deuces-wild rules, not standard$") as caught:
        solve_paytable(DEUCES_WILD_FULL_PAY, rules="standard")
    assert caught.value.option == ("rules", "deuces-wild")  # the command line: "(use --rules deuces-wild)"
    import io

    from fivecard.cli import main

    err = io.StringIO()
    assert main(["strategy", "--paytable", "deuces-wild", "--rules", "standard"], stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue() == (
        "fivecard: error: Deuces Wild (full pay) plays under the deuces-wild rules, not standard (use --rules deuces-wild)\n"
    )


@pytest.mark.slow
def test_a_pay_table_pays_natural_and_wild_hands_apart() -> None:
    rules = "deuces-wild"
    assert advise("AS KS QS JS TS", rules=rules, paytable=DEUCES_WILD_FULL_PAY).choices[0].ev == 800
    assert advise("2S KS QS JS TS", rules=rules, paytable=DEUCES_WILD_FULL_PAY).choices[0].ev == 25
    assert advise("2S 2H 2D 2C 7S", rules=rules, paytable=DEUCES_WILD_FULL_PAY).choices[0].ev == 200
    with pytest.raises(PayTableError, match="needs wild cards; the standard rules have none"):
        advise("AS KS QS JS TS", paytable=PayTable("mine", {"natural_royal_flush": 800}))
    with pytest.raises(PayTableError, match='"rules": unknown rule set'):
        PayTable("mine", {"flush": 6}, rules="texas")
    with pytest.raises(PayTableError, match="unknown category"):
        PayTable("mine", {"natural_nothing": 6})


@pytest.mark.slow
def test_the_command() -> None:
    import io
    import json

    from fivecard.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(["strategy", "--paytable", "jacks-or-better", "--rules", "short-deck", "--json"], stdout=out, stderr=err)
    data = json.loads(out.getvalue())
    assert code == 0 and data["return"] == "17196047/9296280" and data["deals"] == 376_992 and data["classes"] == 19_998
    assert sum(data["final"].values()) == pytest.approx(1)
    out, err = io.StringIO(), io.StringIO()
    code = main(["strategy", "--paytable", "jacks-or-better", "--rules", "semi"], stdout=out, stderr=err)
    assert code == 2 and err.getvalue().startswith("fivecard: error: solving a pay table takes") and out.getvalue() == ""


def _run(argv: list[str]) -> tuple[int, str, str]:
    import io

    from fivecard.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_json_has_every_figure_a_player_asks_for() -> None:
    """The return (exact and as a decimal), the variance (exact), the final
    hands as integer combinations in the published weighting, and the
    bankroll figures of the session asked for."""
    code, out, _ = _run(["strategy", "--paytable", "jacks-or-better", "--rules", "short-deck", "--json",
                         "--hands", "500", "--bankroll", "400", "--coins", "1"])  # fmt: skip
    data = json.loads(out)
    assert code == 0 and Fraction(data["return"]) == Fraction(17196047, 9296280)
    assert Fraction(data["variance"]) > 0 and data["variance_decimal"] == pytest.approx(float(Fraction(data["variance"])))
    assert all(isinstance(n, int) for n in data["counts"].values())
    assert sum(data["counts"].values()) == data["weighting"] == 376_992 * 5 * 169_911  # C(36,5) * 5 * C(31,5)
    assert set(data["counts"]) == set(data["final"]) == set(data["pays"])
    bankroll = data["bankroll"]
    assert (bankroll["bet"], bankroll["bankroll"], bankroll["hands"]) == (1, 400, 500)
    assert 0 <= bankroll["ruin"] <= 1 and 0 <= bankroll["royal_before_ruin"] <= 1
    assert [b["risk"] for b in bankroll["bankrolls"]] == [0.01, 0.05, 0.5]


def test_the_list_of_pay_tables() -> None:
    code, out, _ = _run(["strategy", "--list", "--json"])
    listed = json.loads(out)
    assert code == 0 and len(listed) >= 20
    assert {"name", "aliases", "title", "rules", "coins", "return", "percent", "published", "source"} == set(listed[0])
    code, out, _ = _run(["strategy", "--list"])
    assert code == 0 and "jacks-or-better-9-6 (jacks-or-better)" in out and "99.5439%" in out


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--dealer", "--hands", "10"], "--hands is for the bankroll figures of a --paytable"),
        (["--dealer", "--bankroll", "10"], "--bankroll is for the bankroll figures of a --paytable"),
        (["--dealer", "--coins", "1"], "--coins is for the bankroll figures of a --paytable"),
        (["--dealer", "--chart"], "--chart is for a --paytable; the game against the dealer has the ranked hold list (--holds)"),
        (["--paytable", "jacks-or-better", "--hands", "0"], "hands must be a whole number of at least 1, got 0"),
        (["--paytable", "jacks-or-better", "--hands", "100001"], "hands must be at most 100,000 (the work grows as its square), got 100,001"),
        (["--paytable", "jacks-or-better", "--chart", "-o", "chart.parquet"], "-o with --chart writes the chart's lines to FILE.csv, not 'chart.parquet'"),
    ],
)  # fmt: skip
def test_the_figures_options_say_what_they_are_for(argv: list[str], problem: str) -> None:
    """Each is refused before any work, in one line."""
    code, out, err = _run(["strategy", *argv])
    assert (code, out) == (2, "") and err.startswith("fivecard: error: ") and problem in err


@pytest.mark.slow
def test_a_catalogue_tables_chart_is_the_shipped_one() -> None:
    """--chart for a catalogue table under its own rules prints the chart
    shipped with fivecard (derived the same way ahead), beside the fresh
    solution's return, which is the chart's optimum."""
    from fivecard.play.chart import shipped_chart

    code, out, _ = _run(["strategy", "--paytable", "deuces-wild", "--chart"])
    assert code == 0 and out.endswith(shipped_chart("deuces-wild-full-pay").text())
    assert "return 100.7620% (32187682693/31944279675 per coin)" in out


@pytest.mark.slow
def test_the_chart_goes_to_the_csv(tmp_path: Path) -> None:
    path = tmp_path / "chart.csv"
    code, out, err = _run(["strategy", "--paytable", "jacks-or-better", "--rules", "short-deck", "--chart", "-o", str(path)])
    assert code == 0 and "return of this chart" in out and "return of perfect play" in out
    rows = path.read_text(encoding="utf-8").splitlines()
    assert rows[0] == "chart,line,hold,deals,share,mean_value" and len(rows) > 10
    assert err.startswith(f"wrote {path}: ")


@pytest.mark.slow
def test_the_strategy_per_class_of_starting_hands(tmp_path: object) -> None:
    from math import comb

    from fivecard.play.strategy import starting_hands

    hands = starting_hands(solved("jacks-or-better", "standard"))
    assert len(hands) == 134_459 and sum(h.deals for h in hands) == comb(52, 5)
    assert [h.value for h in hands] == sorted((h.value for h in hands), reverse=True)
    royal = hands[0]
    assert royal.deals == 4 and royal.value == 800 and royal.hold == royal.cards
    short = starting_hands(solved("jacks-or-better", "short-deck"))
    assert sum(h.deals for h in short) == comb(36, 5)
    for hand in short[:: len(short) // 25]:  # each class's hold is the advisor's best
        advice = advise(hand.cards, rules="short-deck", paytable=JACKS_OR_BETTER)
        assert advice.choices[0].ev == pytest.approx(hand.value, abs=1e-12)
        assert advice.choices[1].ev == pytest.approx(hand.runner_up_value, abs=1e-12)


@pytest.mark.slow
def test_the_command_writes_the_strategy(tmp_path: object) -> None:
    import csv
    import io
    from pathlib import Path

    from fivecard.cli import main

    path = Path(str(tmp_path)) / "strategy.csv"
    out, err = io.StringIO(), io.StringIO()
    code = main(["strategy", "--paytable", "jacks-or-better", "--rules", "short-deck", "-o", str(path)], stdout=out, stderr=err)
    assert code == 0 and err.getvalue().startswith(f"wrote {path}: ")
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows[0] == {
        "hand": "As Ks Qs Js Ts", "deals": "4", "hold": "As Ks Qs Js Ts", "value": "800.0",
        "runner_up": "Ks Qs Js Ts", "runner_up_value": rows[0]["runner_up_value"],
    }
    assert sum(int(r["deals"]) for r in rows) == 376_992
    code = main(["strategy", "--paytable", "jacks-or-better", "-o", "x.txt"], stdout=io.StringIO(), stderr=(err := io.StringIO()))
    assert code == 2 and "-o writes FILE.csv or FILE.parquet" in err.getvalue()
    parquet = Path(str(tmp_path)) / "strategy.parquet"
    code = main(["strategy", "--paytable", "jacks-or-better", "--rules", "short-deck", "-o", str(parquet)], stdout=io.StringIO(), stderr=io.StringIO())
    import pyarrow.parquet as pq

    table = pq.read_table(parquet).to_pylist()
    assert code == 0 and len(table) == len(rows) and table[0]["hand"] == "As Ks Qs Js Ts" and table[0]["value"] == 800.0
    assert [r["hold"] for r in table[:50]] == [r["hold"] for r in rows[:50]]
    code = main(["strategy", "--paytable", "jacks-or-better", "--rules", "short-deck", "-o", "/no/such/dir/s.csv"], stdout=io.StringIO(), stderr=(err := io.StringIO()))
    assert code == 2 and err.getvalue().startswith("fivecard: error: cannot write '/no/such/dir/s.csv'")


@pytest.mark.slow
def test_an_interrupted_solve_resumes_from_its_checkpoints(tmp_path: object) -> None:
    with executed_by("numpy"):  # (classes in parts of 8,192; the compiled kernel works a deck in one)
        _interrupted_solve_resumes(tmp_path)


def _interrupted_solve_resumes(tmp_path: object) -> None:
    import io
    from pathlib import Path

    from fivecard.cli import main

    folder = Path(str(tmp_path))
    calls: list[tuple[int, int]] = []

    def interrupt(done: int, parts: int) -> None:
        calls.append((done, parts))
        if done == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_paytable(JACKS_OR_BETTER, rules="short-deck", checkpoint=folder, progress=interrupt)
    assert calls == [(0, 3), (1, 3)] and len(list(folder.glob("*/part-*.ckpt"))) == 1
    out, err = io.StringIO(), io.StringIO()
    arguments = ["strategy", "--paytable", "jacks-or-better", "--rules", "short-deck", "--json"]
    code = main([*arguments, "--checkpoint", str(folder), "--progress"], stdout=out, stderr=err)
    assert code == 0
    lines = err.getvalue().splitlines()
    assert len(lines) == 4 and lines[0] == "solving: making the tables"
    assert lines[1].startswith("solving:  33% (1/3 parts, ") and lines[2].startswith("solving: 100% (3/3 parts, ")
    assert lines[3] == "fivecard: resumed: 1 of 3 parts were done before"
    resumed = json.loads(out.getvalue())
    assert resumed["return"] == "17196047/9296280"  # what a run from the start gives
    assert not list(folder.glob("*/part-*.ckpt"))


@pytest.mark.slow
def test_a_checkpointed_part_that_fails_its_checks_is_solved_again(tmp_path: object) -> None:
    # a part replaced by a copy of another gave a wrong return, with exit 0
    with executed_by("numpy"):  # (classes in parts of 8,192; the compiled kernel works a deck in one)
        _failed_part_solved_again(tmp_path)


def _failed_part_solved_again(tmp_path: object) -> None:
    import io
    from pathlib import Path

    from fivecard.cli import main

    folder = Path(str(tmp_path))

    def interrupt(done: int, parts: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_paytable(JACKS_OR_BETTER, rules="short-deck", checkpoint=folder, progress=interrupt)
    (job,) = folder.iterdir()
    (job / "part-00001.ckpt").write_bytes((job / "part-00000.ckpt").read_bytes())
    out, err = io.StringIO(), io.StringIO()
    arguments = ["strategy", "--paytable", "jacks-or-better", "--rules", "short-deck", "--json"]
    assert main([*arguments, "--checkpoint", str(folder)], stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["return"] == "17196047/9296280"  # what a run from the start gives
    assert err.getvalue().splitlines() == [
        f"fivecard: note: the checkpoints in {str(job)!r}: 1 of 3 parts failed their checks and are run again: "
        "a copy of another part: part 1",
        "fivecard: resumed: 1 of 3 parts were done before",
    ]
    assert list(folder.iterdir()) == []


def test_a_table_with_too_many_pays_for_the_figures_is_refused_before_the_solve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bankroll figures take at most MAX_PAYS different pays: a table
    with more (each line's pay and nothing's 0) is refused before the
    solve, not after it; one at the limit is solved."""
    import fivecard.play.strategy as strategy
    from fivecard.play.risk import MAX_PAYS

    fours = [(r, k) for r in "23456789TJQKA" for k in "23456789TJQKA" if r != k]

    def table(count: int) -> Path:
        lines = [
            {"hand": "four_of_a_kind", "ranks": r, "kicker": k, "pays": 100 + n} for n, (r, k) in enumerate(fours[:count])
        ]
        path = tmp_path / f"pays-{count}.json"
        path.write_text(json.dumps({"pays": [*lines, {"hand": "flush", "pays": 6}]}))
        return path

    def no_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved before the figures' pays were checked")

    monkeypatch.setattr(strategy, "solve_paytable", no_solve)
    code, out, err = _run(["strategy", "--paytable", str(table(MAX_PAYS - 1))])  # and 6, and 0
    assert (code, out) == (2, "")
    assert err == f"fivecard: error: a distribution may have at most {MAX_PAYS} different pays, got {MAX_PAYS + 1}\n"
    with pytest.raises(AssertionError, match="solved before"):  # at the limit: on to the solve
        _run(["strategy", "--paytable", str(table(MAX_PAYS - 2))])


@pytest.mark.parametrize(
    ("name", "more"),
    [("out.csv", []), ("out.parquet", []), ("out.csv", ["--chart"]), ("out.parquet", ["--holds", "3"])],
)
def test_a_folder_as_the_output_is_refused_before_the_solve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, more: list[str]
) -> None:
    """-o naming a folder (whatever its name ends with) is refused at once,
    not after the whole solve, and the folder is left as it was."""
    import fivecard.play.strategy as strategy

    folder = tmp_path / name
    folder.mkdir()
    (folder / "kept").write_text("kept")

    def no_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved before the output was checked")

    monkeypatch.setattr(strategy, "solve_paytable", no_solve)
    code, out, err = _run(["strategy", "--paytable", "jacks-or-better", "-o", str(folder), *more])
    assert (code, out) == (2, "") and err == f"fivecard: error: cannot write {str(folder)!r}: a directory\n"
    assert [p.name for p in folder.iterdir()] == ["kept"]


@pytest.mark.parametrize("table", ["jacks-or-better", "deuces-wild", "joker-poker-two-pair"])
def test_the_bet_is_at_most_the_coins_the_table_takes(monkeypatch: pytest.MonkeyPatch, table: str) -> None:
    """--coins beyond the table's most coins is a bet no machine takes:
    refused before the solve; the table's most is taken."""
    import fivecard.play.strategy as strategy

    most = load_paytable(table)

    def no_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved")

    monkeypatch.setattr(strategy, "solve_paytable", no_solve)
    code, out, err = _run(["strategy", "--paytable", table, "--coins", str(most.coins + 1)])
    assert (code, out) == (2, "")
    assert err == f"fivecard: error: a hand bets at most {most.coins} coins on {most.title}, not {most.coins + 1}\n"
    with pytest.raises(AssertionError, match="solved"):
        _run(["strategy", "--paytable", table, "--coins", str(most.coins)])


def test_games_asked_for_at_once_from_threads_never_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """A web app asks for games' hold values from several threads at once.
    One thread found its game in memory and, before marking it the latest,
    another pushed it out with other games: a KeyError (a 500 for a draw).
    One asking holds the others off the few games in memory (a count or a
    load from the cache goes on outside)."""
    import threading
    from collections import OrderedDict
    from typing import Any

    from fivecard.play import strategy
    from fivecard.play.paytables import PAYTABLES

    keys: dict[object, PayTable] = {}
    for table in PAYTABLES.values():  # games of their own counts, one in memory and as many as are kept besides
        keys.setdefault(strategy._values_key(table, table.rules_to_play()), table)
    mine, *others = list(keys.values())[: strategy._HELD + 1]
    got, pushed_out = threading.Event(), threading.Event()
    asker = threading.current_thread()

    class Watched(OrderedDict[Any, Any]):
        def get(self, key: Any, default: Any = None) -> Any:
            found = super().get(key, default)
            if threading.current_thread() is asker and found is not None:
                got.set()
                pushed_out.wait(1)  # (held off, the others wait: then it goes on alone)
            return found

    held = Watched()
    monkeypatch.setattr(strategy, "_HELD_VALUES", held)
    monkeypatch.setattr(strategy, "_counted_kinds", lambda *args: object())  # (what is kept does not matter here)
    strategy.hold_values(mine)
    got.clear()

    def push_out() -> None:
        assert got.wait(10)
        for table in others:
            strategy.hold_values(table)
        pushed_out.set()

    other = threading.Thread(target=push_out)
    other.start()
    try:
        assert strategy.hold_values(mine).paytable is mine
    finally:
        other.join(60)
    assert pushed_out.is_set() and len(held) == strategy._HELD


def test_a_game_asked_for_at_once_is_counted_once_and_says_how_far(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two threads asking for a game not yet counted: one counts it (its
    progress heard, and told to any who asks meanwhile), the other waits
    for that count instead of making its own."""
    import threading
    from collections import OrderedDict
    from typing import Any

    from fivecard.play import strategy
    from fivecard.play.paytables import parse_paytable

    monkeypatch.setenv("FIVECARD_CACHE", "off")
    monkeypatch.setattr(strategy, "_HELD_VALUES", OrderedDict())
    table = parse_paytable(
        '{"pays": {"royal_flush": 800, "flush": 6, "full_house": 9, "one_pair": 1}, "min_pair": "J", "rules": "short-deck"}',
        name="short",
    )
    counts: list[int] = []
    made = strategy._KindTotals.__init__

    def counted(self: Any, *args: Any) -> None:
        counts.append(1)
        made(self, *args)

    monkeypatch.setattr(strategy._KindTotals, "__init__", counted)
    told: list[tuple[int, int | None]] = []
    assert strategy.hold_values_progress(table) is None

    def heard(done: int, steps: int) -> None:
        assert steps == strategy.COUNT_STEPS
        told.append((done, strategy.hold_values_progress(table)))

    found: list[strategy.HoldValues] = []
    threads = [
        threading.Thread(target=lambda: found.append(strategy.hold_values(table, progress=heard))),
        threading.Thread(target=lambda: found.append(strategy.hold_values(table))),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert counts == [1] and len(found) == 2
    assert told == [(done, done) for done in range(1, strategy.COUNT_STEPS + 1)]
    assert strategy.hold_values_progress(table) is None and strategy.hold_values_held(table)
    cards = list(found[0].rules.deck())[:5]
    assert found[0].of(cards) == found[1].of(cards)


@pytest.mark.parametrize("deck", [36, 52, 54])
def test_the_counts_the_cache_keeps_read_back_as_they_were(deck: int) -> None:
    """Each size of card set kept in the narrowest integers that hold its
    counts, read back the same; anything else read as nothing."""
    import numpy as np

    from fivecard.play import strategy

    rng = np.random.default_rng(deck)
    kinds = 11
    totals = strategy._KindTotals(rng.integers(0, kinds, math.comb(deck, 5)).astype(np.uint8), deck, kinds)
    kept = totals.to_bytes()
    assert len(kept[4]) == math.comb(deck, 4) * kinds  # a byte a count: at most deck - 4 hands hold a four-card set
    found = strategy._KindTotals.from_bytes(kept, deck, kinds)
    assert found is not None and np.array_equal(found.top, totals.top)
    assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(found.tables, totals.tables))
    assert strategy._KindTotals.from_bytes(kept, deck, kinds + 1) is None
    assert strategy._KindTotals.from_bytes(kept[:5], deck, kinds) is None
    assert strategy._KindTotals.from_bytes((*kept[:5], kept[5][:-1]), deck, kinds) is None
    emptied = (bytes(len(kept[0])), *kept[1:])
    assert strategy._KindTotals.from_bytes(emptied, deck, kinds) is None


def test_a_solve_of_one_part_keeps_no_checkpoint(tmp_path: Path) -> None:
    """The compiled kernel works a deck's classes in one part, which a
    checkpoint could not shorten: none is written, the answer is the same."""
    written: list[str] = []
    folder = tmp_path / "ck"
    with executed_by("kernel"):
        found = solve_paytable(
            JACKS_OR_BETTER, rules="short-deck", checkpoint=folder, progress=lambda done, parts: written.append(
                f"{done}/{parts} {sorted(p.name for p in folder.rglob('*'))}"
            ),
        )
    assert written == ["0/1 []", "1/1 []"] and not folder.exists()
    assert found.expected_return == Fraction(17196047, 9296280)
