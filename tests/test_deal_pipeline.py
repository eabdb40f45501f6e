"""``deal`` runs through the bulk pipeline (dealt_chunks, DealWriter); it
writes, byte for byte, what the library's per-round objects (deal_rounds,
Painter, Round.to_json) say, for every rule set, player count and format."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest

from fivecard.cli import main
from fivecard.core.report import Painter, write_json_object
from fivecard.core.rules import get_rules
from fivecard.files.pipeline import dealt_chunks
from fivecard.play.deal import DealTally, deal_rounds


def reference(players: int, rules: str, seed: int, rounds: int, as_json: bool, color: bool) -> str:
    ruleset = get_rules(rules)
    painter = Painter(color=color)
    out = io.StringIO()
    tally = DealTally(players, ruleset)
    dealt = deal_rounds(players, rules=ruleset, seed=seed, rounds=rounds)
    if as_json:
        def counted() -> Iterator[dict[str, Any]]:
            for played in dealt:
                tally.add(played)
                yield played.to_json()

        def fields() -> Iterator[tuple[str, Any]]:
            yield "rules", ruleset.name
            yield "seed", seed
            yield "players", players
            yield "rounds", counted()
            yield "tally", tally.to_json()

        write_json_object(out, fields())
        return out.getvalue()
    for played in dealt:
        tally.add(played)
        out.write(f"Round {played.number}\n" if rounds > 1 else "")
        for i, evaluation in enumerate(played.evaluations):
            mark = ""
            if played.showdown is not None and i in played.showdown.winners:
                mark = "  <- splits" if played.showdown.is_split else "  <- wins"
            out.write(f"Hand {i + 1}: {painter.evaluation(evaluation)}{mark}\n")
        if played.showdown is not None:
            out.write(painter.bold(played.showdown.explanation) + "\n")
        out.write("\n" if rounds > 1 else "")
    return out.getvalue()


@pytest.mark.parametrize("rules", ["standard", "ace-king", "semi", "joker", "deuces-wild", "one-eyed-jacks"])
@pytest.mark.parametrize(("players", "rounds"), [(1, 3), (2, 1), (3, 70), (10, 5)])
@pytest.mark.parametrize("as_json", [False, True])
def test_deal_writes_what_the_per_round_objects_say(rules: str, players: int, rounds: int, as_json: bool) -> None:
    argv = ["deal", "--rules", rules, "--players", str(players), "--rounds", str(rounds), "--seed", "11"]
    out = io.StringIO()
    code = main(argv + (["--json"] if as_json else ["--color", "never"]), stdout=out, stderr=io.StringIO())
    assert code == 0
    want = reference(players, rules, 11, rounds, as_json, color=False)
    got = out.getvalue()
    if not as_json:
        got = got[: len(want)]  # the tally and the seed line follow
    assert got == want


def test_chunks_deal_the_same_cards_and_tally_as_rounds() -> None:
    ruleset = get_rules("joker")
    by_round = DealTally(4, ruleset)
    strengths = []
    for played in deal_rounds(4, rules=ruleset, seed=3, rounds=300):
        by_round.add(played)
        strengths += [e.strength for e in played.evaluations]
    by_chunk = DealTally(4, ruleset)
    chunked = []
    for chunk in dealt_chunks(4, rules=ruleset, seed=3, rounds=300, size=64):
        by_chunk.add_chunk(chunk)
        chunked += chunk.strength.tolist()
    assert chunked == strengths
    assert (by_chunk.wins, by_chunk.splits) == (by_round.wins, by_round.splits)
