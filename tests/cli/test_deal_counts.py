"""fivecard deal: counts are checked before anything is allocated; --json
streams a round at a time."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import textwrap
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fivecard import FivecardError
from fivecard.cli import main
from fivecard.play.deal import DealTally, check_players, check_rounds, deal, deal_rounds, max_players
from fivecard.core.rules import get_rules
from fivecard.core.lookup import tables_for
from fivecard.core.report import evaluation_json, write_json_object


def run(argv: list[str], stdout: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = stdout if stdout is not None else io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


class Discard(io.StringIO):
    """An output stream that keeps nothing (so only the writer's memory counts)."""

    def write(self, text: str) -> int:
        return len(text)


# --- counts, in the library ------------------------------------------------------

BAD_PLAYERS = [0, -1, 11, 300_000_000, 10**12]


@pytest.mark.parametrize("players", BAD_PLAYERS)
@pytest.mark.parametrize(
    "call",
    [
        lambda n: deal(n, rng=random.Random(1)),
        lambda n: deal_rounds(n, seed=1),  # raises when called, not when first read
        lambda n: DealTally(n),
        lambda n: check_players(n),
    ],
    ids=["deal", "deal_rounds", "DealTally", "check_players"],
)
def test_bad_player_counts_are_refused_by_the_library(
    players: int, call: Callable[[int], object]
) -> None:
    with pytest.raises(FivecardError) as caught:
        call(players)
    message = str(caught.value)
    assert message == (
        f"players must be from 1 to 10 under the standard rules (52 cards), got {players}"
    )
    assert "--" not in message  # the library names no command-line flags


@pytest.mark.parametrize(("rules", "most"), [("standard", 10), ("ace-king", 10), ("semi", 10), ("joker", 10)])
def test_the_most_players_per_rule_set(rules: str, most: int) -> None:
    assert max_players(rules) == most
    assert len(deal(most, rules=rules, rng=random.Random(2))) == most
    with pytest.raises(FivecardError, match=f"from 1 to {most} under the {rules} rules"):
        DealTally(most + 1, rules)


@pytest.mark.parametrize("players", [2.5, True, "3", None])
def test_a_player_count_must_be_a_whole_number(players: Any) -> None:
    with pytest.raises(FivecardError, match=r"players must be a whole number, got"):
        check_players(players)


@pytest.mark.parametrize("rounds", [0, -1, -(10**12)])
def test_bad_round_counts_are_refused_by_the_library(rounds: int) -> None:
    for call in (lambda: deal_rounds(2, seed=1, rounds=rounds), lambda: check_rounds(rounds)):
        with pytest.raises(FivecardError) as caught:
            call()
        assert str(caught.value) == f"rounds must be at least 1, got {rounds}"


def test_a_huge_round_count_is_dealt_lazily() -> None:
    dealt = deal_rounds(3, seed=1, rounds=10**12)
    first, second = next(dealt), next(dealt)
    assert (first.number, second.number) == (1, 2)
    # The same seed deals the same rounds however many are asked for.
    again = next(deal_rounds(3, seed=1, rounds=1))
    assert [e.hand for e in again.evaluations] == [e.hand for e in first.evaluations]


def test_the_tally_counts_rounds_of_its_own_size() -> None:
    tally = DealTally(2)
    with pytest.raises(FivecardError, match="round 1 has 3 hands; the tally counts 2 players"):
        tally.add(next(deal_rounds(3, seed=1)))


# --- counts, through the command -------------------------------------------------

@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "0"], "argument --players: players must be from 1 to 10 under the standard rules (52 cards), got 0"),
        (["--players", "-1"], "argument --players: players must be from 1 to 10 under the standard rules (52 cards), got -1"),
        (["--players", "11"], "argument --players: players must be from 1 to 10 under the standard rules (52 cards), got 11"),
        (["--players", "11", "--rules", "joker"], "argument --players: players must be from 1 to 10 under the joker rules (54 cards), got 11"),
        (["--players", "300000000"], "argument --players: players must be from 1 to 10 under the standard rules (52 cards), got 300000000"),
        (["--players", "300000000", "--json"], "argument --players: players must be from 1 to 10 under the standard rules (52 cards), got 300000000"),
        (["--players", "3", "--rounds", "0"], "argument --rounds: rounds must be at least 1, got 0"),
        (["--players", "3", "--rounds", "-1", "--json"], "argument --rounds: rounds must be at least 1, got -1"),
    ],
)
def test_bad_counts_from_the_command(argv: list[str], message: str) -> None:
    code, out, err = run(["deal", *argv])
    assert (code, out, err) == (2, "", f"fivecard: error: {message}\n")


def test_a_huge_player_count_allocates_nothing_big() -> None:
    run(["deal", "--players", "2", "--seed", "1"])  # imports and tables first
    tracemalloc.start()
    try:
        code, out, err = run(["deal", "--players", "300000000", "--rounds", "1000000000000", "--json"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 2 and out == "" and err.count("\n") == 1
    assert peak < 1 << 20  # the old tally alone was 4.8 GB


def fivecard_in_little_memory(megabytes: int) -> list[str]:
    """The command line of a ``fivecard`` process whose address space is
    limited (where the platform can), so a regression fails instead of
    eating the machine's memory."""
    script = textwrap.dedent(
        f"""
        import sys
        try:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, ({megabytes} << 20, {megabytes} << 20))
        except (ImportError, AttributeError, ValueError, OSError):
            pass
        from fivecard.cli import main
        sys.exit(main(sys.argv[1:]))
        """
    )
    return [sys.executable, "-c", script]


def test_a_huge_player_count_in_a_process_with_little_memory() -> None:
    argv = [*fivecard_in_little_memory(1024), "deal", "--players", "300000000"]
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        "fivecard: error: argument --players: players must be from 1 to 10 "
        "under the standard rules (52 cards), got 300000000\n"
    )


# --- streaming JSON --------------------------------------------------------------

def old_deal_json(players: int, rules: str, seed: int, rounds: int) -> dict[str, Any]:
    """The structure `deal --json` built in memory before it streamed."""
    tally = DealTally(players, rules)
    listed = []
    for played in deal_rounds(players, rules=rules, seed=seed, rounds=rounds):
        tally.add(played)
        listed.append(
            {
                "round": played.number,
                "hands": [evaluation_json(e) for e in played.evaluations],
                "winners": None if played.showdown is None else [i + 1 for i in played.showdown.winners],
                "order": None if played.showdown is None else [[i + 1 for i in t] for t in played.showdown.order],
                "explanation": None if played.showdown is None else played.showdown.explanation,
            }
        )
    return {
        "rules": rules,
        "seed": seed,
        "players": players,
        "rounds": listed,
        "tally": [
            {"player": i + 1, "wins": tally.wins[i], "splits": tally.splits[i]} for i in range(players)
        ],
    }


@pytest.mark.parametrize(
    ("players", "rules", "seed", "rounds"),
    [(3, "standard", 1, 1), (4, "standard", 2026, 7), (1, "standard", 4, 2), (10, "joker", 9, 3), (5, "semi", 3, 4), (2, "ace-king", 8, 5)],
)
def test_streamed_json_is_the_old_structure(players: int, rules: str, seed: int, rounds: int) -> None:
    argv = ["deal", "--players", str(players), "--rules", rules, "--seed", str(seed), "--rounds", str(rounds), "--json"]
    code, out, err = run(argv)
    assert code == 0 and err == ""
    old = old_deal_json(players, rules, seed, rounds)
    assert json.loads(out) == old
    # Byte for byte as the old json.dump(indent=2) wrote it, too.
    assert out == json.dumps(old, ensure_ascii=False, indent=2) + "\n"


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@given(st.dictionaries(st.text(max_size=6), JSON_VALUES | st.lists(JSON_VALUES, max_size=5), max_size=5))
@pytest.mark.slow
def test_write_json_object_writes_what_json_dump_writes(data: dict[str, Any]) -> None:
    streamed = io.StringIO()
    write_json_object(streamed, ((k, iter(v) if isinstance(v, list) else v) for k, v in data.items()))
    assert streamed.getvalue() == json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def test_streaming_writer_memory_is_flat_in_rounds() -> None:
    played = next(deal_rounds(1, seed=1))

    def peak(rounds: int) -> int:
        def fields() -> Iterator[tuple[str, Any]]:
            yield "rounds", (played.to_json() for _ in range(rounds))
            yield "tally", []

        tracemalloc.start()
        try:
            write_json_object(Discard(), fields())
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak(200), peak(1_200)
    # Kept in a list, 1,000 more rounds would be about 1.4 MB more; streamed,
    # the peak is what a few rounds and the garbage collector's lag take
    # (within 20 kB).
    assert large < small + (256 << 10)


@pytest.mark.slow
def test_deal_json_memory_is_flat_in_rounds() -> None:
    def peak(rounds: int) -> int:
        tracemalloc.start()
        try:
            code, _, _ = run(["deal", "--players", "3", "--seed", "5", "--rounds", str(rounds), "--json"], Discard())
            assert code == 0
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    peak(10)  # imports and tables first
    for _ in tables_for(get_rules("standard")).classes():
        pass  # and every hand class the evaluator memoizes (bounded: 7,462)
    small, large = peak(600), peak(3_000)
    # Rounds are dealt and written 512 at a time. Kept in a list, 2,400 more
    # rounds would take about 10.6 MB more (4.4 kB a round); streamed, the
    # peak moves only with how full the bounded caches of outcomes are (at
    # most 1,024 outcomes of three or more hands in the pipeline's register,
    # 4,096 in showdown.outcome's: a few MB).
    assert large < small + (4 << 20)


@pytest.mark.parametrize("json_flag", [["--json"], []], ids=["json", "text"])
@pytest.mark.slow
def test_a_closed_pipe_mid_stream_is_quiet(json_flag: list[str]) -> None:
    proc = subprocess.Popen(
        [*fivecard_in_little_memory(256), "deal", "--players", "3", "--rounds", "1000000000000", *json_flag],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        first = proc.stdout.readline()
        proc.stdout.close()  # as `| head -n 1` does
        code = proc.wait(timeout=600)  # only a guard against hanging for ever
        err = proc.stderr.read()
    finally:
        proc.kill()
        proc.stderr.close()
    assert first.strip() in (b"{", b"Round 1")
    assert code == 141 and err == b""
