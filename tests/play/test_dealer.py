"""The game against the dealer solved (fivecard.play.dealer),
against a brute force written here (every hold, every draw, every dealer
hand, counted with integers), against the per-hand advisor, by the
compiled kernel and by numpy alike, in this process and on a Dask
LocalCluster (whose workers map the tables this process made), and
resumed from checkpoints."""

from __future__ import annotations

import functools
import io
import json
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path
from typing import TypeVar

import numpy as np
import pytest
import oracle
from helpers import executed_by

from fivecard.core import kernel, lookup_cache
from fivecard.play import dealer
from fivecard.vector import batch
from fivecard.cli import main
from fivecard.core.cards import Card, parse_cards
from fivecard.core.rules import RULE_SETS, get_rules
from fivecard.core.errors import FivecardError
from fivecard.play.advise import advise
from fivecard.vector.classes import deal_classes
from fivecard.play.dealer import (
    DealerSolution,
    _ranked,
    _tables,
    dealer_hands,
    default_workers,
    kept_shares,
    solve_dealer,
)
from fivecard.vector.jobs import plan


_Made = TypeVar("_Made")


def _deck(ranks: str, rules: str, jokers: int = 0) -> tuple[Card, ...]:
    """The rule set's dealt cards of these ranks (and jokers)."""
    cards = tuple(c for c in get_rules(rules).deck() if c.rank is not None and c.rank.char in ranks)
    return cards + parse_cards(" ".join(["JK"] * jokers)) if jokers else cards


#: Small decks, one per rule set: every hand of them is solved by brute force.
SMALL: dict[str, tuple[Card, ...]] = {
    "standard": _deck("TJQKA", "standard"),
    "ace-king": _deck("JQKA", "ace-king"),
    "semi": _deck("9TJQKA", "semi"),
    "joker": _deck("JQKA", "joker", jokers=2),
    "one-joker": _deck("JQKA", "one-joker", jokers=1),
    "short-deck": _deck("A6789", "short-deck"),
    "deuces-wild": _deck("2QKA", "deuces-wild"),
    "one-eyed-jacks": _deck("JQKA", "one-eyed-jacks"),
    "ace-to-five": _deck("A2345", "ace-to-five"),
    "deuce-to-seven": _deck("2347", "deuce-to-seven"),
    "standard+wild(2)": _deck("2QKA", "standard+wild(2)"),
}


@functools.cache
def solved(rules: str) -> DealerSolution:
    return solve_dealer(rules, deck=SMALL[rules], workers=0)


@functools.cache
def _every_hand(rules: str) -> dict[tuple[int, ...], int]:
    """The strength of every five of the small deck, by its deck indices."""
    deck = SMALL[rules]
    hands = list(combinations(range(len(deck)), 5))
    indices = np.array([[deck[i].index for i in hand] for hand in hands], dtype=np.int32)
    found = batch.strengths_of_indices(indices, rules=get_rules(rules))
    return dict(zip(hands, found.tolist()))


def _brute_force(rules: str, deck: Sequence[Card], hand: Sequence[int]) -> list[tuple[int, int, int]]:
    """Per hold mask over ``hand`` (deck indices): (pairs won, pairs drawn,
    pairs in all) over every draw and every dealer hand of the unseen
    cards."""
    strength = _every_hand(rules)
    unseen = [i for i in range(len(deck)) if i not in hand]
    dealer = np.sort([strength[five] for five in combinations(unseen, 5)])
    out = []
    for mask in range(32):
        kept = tuple(hand[i] for i in range(5) if mask >> i & 1)
        mine = np.array([strength[tuple(sorted(kept + more))] for more in combinations(unseen, 5 - len(kept))])
        below = np.searchsorted(dealer, mine, side="left")
        equal = np.searchsorted(dealer, mine, side="right") - below
        out.append((int(below.sum()), int(equal.sum()), len(mine) * len(dealer)))
    return out


@pytest.mark.parametrize("rules", list(SMALL))
@pytest.mark.slow
def test_every_class_and_the_totals_equal_the_brute_force(rules: str) -> None:
    solution = solved(rules)
    deck = SMALL[rules]
    win = draw = Fraction(0)
    for row, (hand, deals) in enumerate(zip(solution.classes.first.tolist(), solution.classes.deals.tolist())):
        counts = _brute_force(rules, deck, hand)
        values = [Fraction(2 * w + d - all_, all_) for w, d, all_ in counts]
        best = int(solution.best[row])
        assert values[best] == max(values), (rules, hand)
        assert float(solution.best_value[row]) == pytest.approx(float(values[best]), abs=1e-12)
        w, d, all_ = counts[best]
        assert float(solution.best_win[row]) == pytest.approx(w / all_, abs=1e-12)
        win += deals * Fraction(w, all_)
        draw += deals * Fraction(d, all_)
        # the runner-up: another choice of cards (under semi, keeping one ace or another is one choice)
        kept = [tuple(sorted(deck[hand[i]].index for i in range(5) if m >> i & 1)) for m in range(32)]
        rest = sorted((values[kept.index(k)] for k in set(kept) if k != kept[best]), reverse=True)
        assert float(solution.second_value[row]) == pytest.approx(float(rest[0]), abs=1e-12)
    deals_in_all = comb(len(deck), 5)
    assert solution.win == win / deals_in_all
    assert solution.draw == draw / deals_in_all
    assert solution.lose == 1 - solution.win - solution.draw
    assert solution.house_edge == solution.lose - solution.win
    assert sum(solution.final.values()) == 1
    assert sum(kept_shares(solution).values()) == 1


@pytest.mark.slow
def test_the_classes_hold_every_deal_once() -> None:
    for rules, count in (("standard", 134_459), ("semi", 6_175)):
        ruleset = get_rules(rules)
        classes = deal_classes(ruleset.deck(), ruleset)
        assert len(classes) == count
        assert int(classes.deals.sum()) == 2_598_960
    one_eyed = get_rules("one-eyed-jacks")
    # renaming suits must keep J♠ and J♥ wild: only 4 of the 24 renamings do
    assert 4 * len(deal_classes(one_eyed.deck(), one_eyed)) > 2_598_960


def test_renaming_the_suits_does_not_change_a_deals_values() -> None:
    deck = SMALL["standard"]
    tables = _tables(get_rules("standard"), tuple(c.index for c in deck))
    where = {c: i for i, c in enumerate(deck)}
    rng = random.Random(4)
    suits = "shdc"
    for _ in range(20):
        hand = sorted(rng.sample(range(len(deck)), 5))
        renaming = dict(zip(suits, rng.sample(suits, 4)))
        moved = sorted(where[Card.parse(deck[i].code_str[0] + renaming[deck[i].code_str[1]])] for i in hand)
        cards = np.array([hand, moved], dtype=np.int64)
        win, draw = tables.holds(cards)
        values = tables.value(win, draw)
        best, second = _ranked(tables, cards, win, draw, values)
        assert values[0, best[0]] == values[1, best[1]] and values[0, second[0]] == values[1, second[1]]
        assert sorted(win[0].tolist()) == sorted(win[1].tolist())


@pytest.mark.parametrize("rules", list(SMALL))
def test_a_holds_draws_by_final_category_equal_the_oracles(rules: str) -> None:
    """Per deal and every hold: the draws that end in each final category
    (``_Tables.made``, the chosen hold's alone) equal those counted draw by
    draw with the reference evaluator."""
    deck = SMALL[rules]
    ruleset = get_rules(rules)
    reference = oracle.rules_named(rules)
    tables = _tables(ruleset, tuple(c.index for c in deck))
    names = [c.name for c in ruleset.ladder]
    rng = random.Random(11)
    hands = [sorted(rng.sample(range(len(deck)), 5)) for _ in range(6)]
    cards = np.array([hand for hand in hands for _ in range(32)], dtype=np.int64)
    kept = np.tile(np.arange(32, dtype=np.int64), len(hands))
    finals, owner = [], []  # every final hand of every (deal, hold), and its row
    for row, (hand, mask) in enumerate(zip(cards.tolist(), kept.tolist())):
        held = [hand[i] for i in range(5) if mask >> i & 1]
        unseen = [i for i in range(len(deck)) if i not in hand]
        for more in combinations(unseen, 5 - len(held)):
            finals.append(held + list(more))
            owner.append(row)
    ranks, suits = oracle.cards([deck[i].code_str for five in finals for i in five])
    found = oracle.category_names(reference, oracle.keys(reference, ranks.reshape(-1, 5), suits.reshape(-1, 5)))
    expected = np.zeros((len(cards), len(names)), dtype=np.int64)
    np.add.at(expected, (np.array(owner), np.array([names.index(name) for name in found])), 1)
    made = tables.made(cards, kept)
    for row in range(len(cards)):
        assert made[row].tolist() == expected[row].tolist(), (rules, cards[row].tolist(), int(kept[row]))


@pytest.mark.slow
def test_sampled_deals_of_the_full_deck_hold_what_the_advisor_holds() -> None:
    for rules, sample in (("standard", 5), ("joker", 3), ("one-joker", 3)):
        ruleset = get_rules(rules)
        deck = ruleset.deck()
        tables = _tables(ruleset, tuple(c.index for c in deck))
        rng = random.Random(14)
        hands = np.array([sorted(rng.sample(range(len(deck)), 5)) for _ in range(sample)], dtype=np.int64)
        win, draw = tables.holds(hands)
        values = tables.value(win, draw)
        best, second = _ranked(tables, hands, win, draw, values)
        for row, hand in enumerate(hands.tolist()):
            advice = advise([deck[i] for i in hand], rules=ruleset)
            assert float(values[row, best[row]]) == pytest.approx(advice.choices[0].score, abs=1e-12)
            assert float(values[row, second[row]]) == pytest.approx(advice.choices[1].score, abs=1e-12)


def test_the_strategy_lists_every_class_best_first() -> None:
    solution = solved("standard")
    hands = dealer_hands(solution)
    assert len(hands) == len(solution.classes)
    assert sum(h.deals for h in hands) == comb(20, 5)
    assert [h.value for h in hands] == sorted((h.value for h in hands), reverse=True)
    top = hands[0]
    assert top.hold == top.cards and top.lose == 0  # a royal flush stands pat and cannot lose
    for h in hands:
        assert h.win + h.draw + h.lose == pytest.approx(1)
        assert h.value == pytest.approx(h.win - h.lose)


def test_exchanging_all_five_is_an_even_game() -> None:
    # the player's five and the dealer's come alike from the unseen cards
    solution = solved("semi")
    for h in dealer_hands(solution):
        if not h.hold:
            assert h.value == pytest.approx(0, abs=1e-12)


def test_a_deck_too_small_is_an_error() -> None:
    with pytest.raises(FivecardError, match="at least 10 cards"):
        solve_dealer("standard", deck=SMALL["standard"][:9], workers=0)


@pytest.mark.slow
def test_the_command_solves_the_short_deck(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    target = tmp_path / "dealer.csv"
    code = main(
        ["strategy", "--dealer", "--rules", "short-deck", "--workers", "0", "--json", "-o", str(target)],
        stdout=out,
        stderr=err,
    )
    assert code == 0, err.getvalue()
    data = json.loads(out.getvalue())
    assert data["game"] == "dealer" and data["rules"] == "short-deck"
    assert data["deals"] == comb(36, 5) and data["classes"] == 19_998
    win, draw, lose = (Fraction(data[k]) for k in ("win", "draw", "lose"))
    assert win + draw + lose == 1
    assert data["house_edge"] == pytest.approx(float((lose - win) * 100))
    assert sum(data["final"].values()) == pytest.approx(1)
    lines = target.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "hand,deals,hold,value,win,draw,lose,runner_up,runner_up_value"
    assert len(lines) == 1 + 19_998
    assert lines[1].startswith("As Ks Qs Js Ts,4,As Ks Qs Js Ts,")
    text = io.StringIO()
    assert main(["strategy", "--dealer", "--rules", "short-deck", "--workers", "0"], stdout=text, stderr=io.StringIO()) == 0
    shown = text.getvalue()
    assert f"({win.numerator}/{win.denominator})" in shown
    assert "house edge -" in shown and "the player has the edge" in shown


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--paytable", "jacks-or-better", "--workers", "2"], "--workers is for --dealer"),
        (["--paytable", "jacks-or-better", "--dealer"], "not allowed with argument"),
        ([], "one of the arguments --paytable --dealer --list is required"),
        (["--dealer", "--workers", "-1"], "expected a whole number, 0 or more, got '-1'"),
        (["--dealer", "-o", "x.txt"], "FILE.csv or FILE.parquet"),
        (["--dealer", "-o", "/no/such/dir/x.csv"], "cannot write '/no/such/dir/x.csv': no folder '/no/such/dir'"),
        (["--dealer", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "with --scheduler the cluster's own"),
        (["--paytable", "jacks-or-better", "--holds", "x"], "expected a whole number, 0 or more, or 'all', got 'x'"),
    ],
)
def test_the_commands_usage_errors_are_one_line(arguments: list[str], message: str) -> None:
    err = io.StringIO()
    assert main(["strategy", *arguments], stdout=io.StringIO(), stderr=err) == 2
    assert message in err.getvalue()
    assert "Traceback" not in err.getvalue()


def _same(a: DealerSolution, b: DealerSolution) -> None:
    assert (a.win, a.draw, a.lose, a.final) == (b.win, b.draw, b.lose, b.final)
    for name in ("best", "best_value", "best_win", "best_draw", "best_lose", "second", "second_value"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert np.array_equal(a.classes.first, b.classes.first)


@pytest.mark.slow
@pytest.mark.parametrize("threads", [False, True], ids=["processes", "threads"])
def test_two_dask_workers_give_the_answer_of_one_process(threads: bool) -> None:
    alone = solve_dealer("standard", deck=SMALL["standard"], workers=0, part_classes=64)
    spread = solve_dealer("standard", deck=SMALL["standard"], workers=2, part_classes=64, threads=threads)
    _same(alone, spread)
    _same(alone, solved("standard"))  # and the size of the parts changes nothing


@pytest.mark.slow
def test_an_interrupted_run_resumes_from_its_checkpoints(tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []

    def interrupt(done: int, parts: int) -> None:
        calls.append((done, parts))
        if done == 3:
            raise KeyboardInterrupt

    deck = SMALL["ace-to-five"]
    with pytest.raises(KeyboardInterrupt):
        solve_dealer("ace-to-five", deck=deck, workers=0, part_classes=32, checkpoint=tmp_path, progress=interrupt)
    parts = calls[0][1]
    assert parts > 3 and calls[-1] == (3, parts)
    assert len(list(tmp_path.glob("*/part-*.ckpt"))) == 3
    (job,) = tmp_path.iterdir()
    (job / "part-00002.ckpt").write_bytes((job / "part-00000.ckpt").read_bytes())  # checked, not trusted
    seen: list[tuple[int, int]] = []
    notes: list[str] = []
    resumed = solve_dealer(
        "ace-to-five", deck=deck, workers=0, part_classes=32, checkpoint=tmp_path,
        progress=lambda d, p: seen.append((d, p)), on_note=notes.append,
    )
    assert seen[0] == (2, parts) and seen[-1] == (parts, parts)  # two parts were not solved again
    assert len(notes) == 1 and notes[0].endswith(f"1 of {parts} parts failed their checks and are run again: "
                                                 "a copy of another part: part 2")
    _same(resumed, solved("ace-to-five"))
    assert not list(tmp_path.glob("*/part-*.ckpt"))  # the checkpoints go once the run is done


@pytest.mark.slow
def test_the_command_on_an_existing_cluster_gives_the_answer_of_one_process() -> None:
    from fivecard.vector import jobs

    arguments = ["strategy", "--dealer", "--rules", "short-deck", "--json"]
    here = io.StringIO()
    assert main([*arguments, "--workers", "0"], stdout=here, stderr=io.StringIO()) == 0
    with jobs._local_cluster(2) as cluster:
        there, err = io.StringIO(), io.StringIO()
        assert main([*arguments, "--scheduler", cluster.scheduler_address], stdout=there, stderr=err) == 0, err.getvalue()
    mine, theirs = json.loads(here.getvalue()), json.loads(there.getvalue())
    assert theirs["ran"] == f"the cluster at {cluster.scheduler_address}"
    for name in ("win", "draw", "lose", "final", "kept"):
        assert mine[name] == theirs[name]


@pytest.mark.slow
def test_a_jobs_key_is_the_same_in_every_process() -> None:
    # a wild rule set's sets of cards iterate in an order that follows string
    # hashes; the key (the checkpoints' folder) must not
    import os
    import subprocess
    import sys

    code = (
        "from fivecard.core.rules import get_rules; from fivecard.play.dealer import job_key; "
        "r = get_rules('deuces-wild'); print(job_key(r, r.deck()))"
    )
    keys = {
        subprocess.run(
            [sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True, text=True, check=True
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(keys) == 1


def test_a_worker_makes_a_rule_sets_tables_once() -> None:
    # each Dask task unpickles its own copy of the rule set (compared by
    # identity): the tables are kept by its value
    import pickle

    rules = get_rules("deuces-wild")
    deck = tuple(c.index for c in SMALL["deuces-wild"])
    assert _tables(pickle.loads(pickle.dumps(rules)), deck) is _tables(rules, deck)


def both_executions(function: Callable[[], _Made], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[_Made, _Made]:
    """What ``function`` gives by the compiled kernel, then by the numpy
    path, each with a cache of its own (so each builds its own tables)."""
    found = []
    for execution in ("kernel", "numpy"):
        monkeypatch.setenv(lookup_cache.ENVIRONMENT, str(tmp_path / execution))
        with executed_by(execution):
            found.append(function())
    return found[0], found[1]


@pytest.mark.parametrize("rules", list(SMALL))
def test_the_kernel_and_numpy_solve_alike(rules: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A small deck of every rule set: the tables, and the whole solve, by
    both executions (the figures and every class's holds and values)."""
    deck = tuple(c.index for c in SMALL[rules])
    ruleset = get_rules(rules)
    made, fallback = both_executions(lambda: dealer._build(ruleset, deck), monkeypatch, tmp_path)
    assert made.keys() == fallback.keys()
    for name in made:
        assert made[name].dtype == fallback[name].dtype and np.array_equal(made[name], fallback[name]), name
    by_kernel, by_numpy = both_executions(
        lambda: solve_dealer(rules, deck=SMALL[rules], workers=0, part_classes=64), monkeypatch, tmp_path
    )
    _same(by_kernel, by_numpy)
    _same(by_kernel, solved(rules))


ALL_RULES = [*RULE_SETS, "standard+wild(2)"]


@pytest.mark.parametrize("rules", ALL_RULES)
@pytest.mark.slow
def test_the_kernel_and_numpy_build_a_whole_decks_tables_alike(
    rules: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The whole deck of every rule set: the tables by both executions, and
    each hold's sums over a sample of its classes of deals."""
    ruleset = get_rules(rules)
    deck = tuple(c.index for c in ruleset.deck())
    made, fallback = both_executions(lambda: dealer._build(ruleset, deck), monkeypatch, tmp_path)
    for name in made:
        assert np.array_equal(made[name], fallback[name]), name
    tables = dealer._Tables(ruleset, deck, made)
    classes = dealer._classes(ruleset, deck)
    rng = np.random.default_rng(7)
    sample = np.concatenate([classes.first[:40], classes.first[rng.choice(len(classes), 200, replace=False)]])
    held = both_executions(lambda: tables.holds(sample), monkeypatch, tmp_path)
    for by_kernel, by_numpy in zip(*held):
        assert np.array_equal(by_kernel, by_numpy)
    win, draw = held[0]
    assert (win >= 0).all() and (draw >= 0).all()
    assert (win + draw <= tables.draws * tables.dealer_hands).all()


@pytest.mark.slow
def test_the_kernel_and_numpy_solve_the_whole_standard_game_alike() -> None:
    """The sums by both executions over the same tables (each execution's
    tables are compared above)."""
    with executed_by("kernel"):
        by_kernel = solve_dealer("standard", workers=0)
    with executed_by("numpy"):
        by_numpy = solve_dealer("standard", workers=0)
    _same(by_kernel, by_numpy)
    assert by_kernel.win == Fraction(443939175441124477, 637007493465067725)


def test_the_kernel_refuses_deals_that_are_not_five_ascending_positions() -> None:
    deck = tuple(c.index for c in SMALL["standard"])
    tables = _tables(get_rules("standard"), deck)
    counts = tables.compiled()
    assert counts is not None, "the compiled kernels are not built"
    win = np.empty((1, 32), dtype=np.int64)
    for row in ([0, 1, 2, 3, 20], [0, 1, 2, 3, -1], [0, 2, 1, 3, 4], [0, 1, 1, 3, 4]):
        with pytest.raises(ValueError, match="five ascending positions"):
            counts.holds(np.array([row], dtype=np.int64), win, win.copy())
    with pytest.raises(ValueError, match="32 int64 a row"):
        counts.holds(np.array([[0, 1, 2, 3, 4]], dtype=np.int64), win[:, :16].copy(), win.copy())


@pytest.mark.slow
@pytest.mark.parametrize("cache", ["on", "off"])
def test_dask_workers_map_the_tables_this_process_made(
    cache: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Each worker maps the file of tables that the process handing out the
    parts made (in the cache, or where the cache is off in a temporary
    folder, removed after): none builds its own."""
    import tempfile

    from fivecard.vector import jobs

    monkeypatch.setenv(lookup_cache.ENVIRONMENT, str(tmp_path / "cache") if cache == "on" else "off")
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    monkeypatch.setattr(dealer, "_kept_things", {})
    built_here = dealer.tables_made["built"]
    with jobs._local_cluster(2) as cluster, jobs._distributed().Client(cluster) as client:
        spread = solve_dealer("one-joker", deck=SMALL["one-joker"], client=client, part_classes=16)
        made = client.run(lambda: dict(dealer.tables_made))
    assert dealer.tables_made["built"] == built_here + 1
    assert len(made) == 2 and all(m["built"] == 0 and m["mapped"] <= 1 for m in made.values()), made
    assert sum(m["mapped"] for m in made.values()) >= 1
    _same(spread, solved("one-joker"))
    assert not [p for p in (tmp_path / "tmp").iterdir() if p.name.startswith("fivecard")]
    assert (tmp_path / "cache").exists() == (cache == "on")


@pytest.mark.slow
def test_a_local_clusters_threads_use_this_processs_tables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With the kernel, ``--workers N`` runs N threads of this process: the
    tables made here once, no file written for workers to map, even with
    the cache off."""
    import tempfile

    monkeypatch.setenv(lookup_cache.ENVIRONMENT, "off")
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    monkeypatch.setattr(dealer, "_kept_things", {})
    made = dict(dealer.tables_made)
    assert dealer.threaded()
    spread = solve_dealer("one-joker", deck=SMALL["one-joker"], workers=2, part_classes=16)
    assert dealer.tables_made == {"built": made["built"] + 1, "mapped": made["mapped"]}
    assert not [p for p in (tmp_path / "tmp").iterdir() if p.name.startswith("fivecard")]
    _same(spread, solved("one-joker"))


def test_the_numpy_path_runs_a_local_cluster_on_processes() -> None:
    # numpy holds the GIL for much of a part: threads would take turns
    assert dealer.threaded() == (kernel.load("fivecard.play._dealer") is not None)
    with executed_by("numpy"):
        assert not dealer.threaded()
        assert plan(2, threads=dealer.threaded()) == "a local cluster of 2 processes"


@pytest.mark.parametrize("execution", ["kernel", "numpy"])
def test_without_dask_threads_still_run_and_processes_say_they_cannot(
    monkeypatch: pytest.MonkeyPatch, execution: str
) -> None:
    from fivecard.vector import jobs

    monkeypatch.setattr(jobs, "dask_available", lambda: False)
    out, err = io.StringIO(), io.StringIO()
    with executed_by(execution):
        arguments = ["strategy", "--dealer", "--rules", "short-deck", "--workers", "2", "--json"]
        assert main(arguments, stdout=out, stderr=err) == 0
    if execution == "kernel":
        assert (json.loads(out.getvalue())["ran"], err.getvalue()) == ("2 threads of this process", "")
    else:
        assert json.loads(out.getvalue())["ran"] == "in this process"
        assert "2 workers asked for, but Dask is not installed" in err.getvalue()


def test_a_thread_of_a_local_cluster_needs_less_memory_than_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from fivecard.vector import jobs

    monkeypatch.setattr(jobs, "cores", lambda: 64)
    monkeypatch.setattr(jobs, "memory", lambda: 4 * 2**30)  # half of it: 2 GiB
    assert default_workers(52, threads=False) == 8  # some 250 MB a process
    assert default_workers(52, threads=True) == 32  # 64 MB a thread


@pytest.mark.parametrize("largest", [1000, 2**62, 2**63 - 1])
def test_a_parts_sums_by_cards_kept_are_exact(largest: int) -> None:
    rng = np.random.default_rng(7)
    rows, columns = 500, 4
    counts = rng.integers(0, largest, size=(rows, columns), dtype=np.int64, endpoint=True)
    kept = rng.integers(0, 6, size=rows)
    sums = dealer._kept_sums(kept, counts)
    for k in range(6):
        for column in range(columns):
            high, low = (int(x) for x in sums[k, column])
            expected = sum(int(v) for v, keep in zip(counts[:, column], kept) if keep == k)
            assert (high << 62) + low == expected


def test_a_part_of_no_classes_sums_to_nothing() -> None:
    sums = dealer._kept_sums(np.zeros(0, dtype=np.int64), np.zeros((0, 3), dtype=np.int64))
    assert sums.shape == (6, 3, 2) and not sums.any()


@pytest.mark.parametrize("rows", [1, 3, 1000])
def test_a_parts_sums_at_the_int64_bound_are_exact(rows: int) -> None:
    bound = (2**63 - 1) // rows
    for largest in {bound, min(bound + 1, 2**63 - 1)}:
        counts = np.full((rows, 2), largest, dtype=np.int64)
        counts[0, 1] = 0
        sums = dealer._kept_sums(np.full(rows, 3), counts)
        assert [(int(h) << 62) + int(lo) for h, lo in sums[3]] == [rows * largest, (rows - 1) * largest]
        assert not sums[[0, 1, 2, 4, 5]].any()



def test_a_parts_sums_of_negative_counts_are_exact() -> None:
    counts = np.array([[-(2**62)], [-(2**62)], [-(2**62)], [1]], dtype=np.int64)
    sums = dealer._kept_sums(np.zeros(4, dtype=np.int64), counts)
    high, low = (int(x) for x in sums[0, 0])
    assert (high << 62) + low == -3 * 2**62 + 1
