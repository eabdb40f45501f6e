"""``deal`` runs through the bulk pipeline (dealt_chunks, DealWriter); it
writes, byte for byte, what the library's per-round objects (deal_rounds,
Painter, Round.to_json) say, for every rule set, player count and format."""

from __future__ import annotations

import io

import pytest

from fivecard.cli import main
from fivecard.files.pipeline import dealt_chunks
from fivecard.core.rules import get_rules
from fivecard.play.deal import DealTally, deal_rounds
from helpers import dealt_as_the_rounds_say


@pytest.mark.parametrize("rules", ["standard", "ace-king", "semi", "joker", "one-joker", "deuces-wild", "one-eyed-jacks"])
@pytest.mark.parametrize(("players", "rounds"), [(1, 3), (2, 1), (3, 70), (10, 5)])
@pytest.mark.parametrize("as_json", [False, True])
@pytest.mark.slow
def test_deal_writes_what_the_per_round_objects_say(rules: str, players: int, rounds: int, as_json: bool) -> None:
    argv = ["deal", "--rules", rules, "--players", str(players), "--rounds", str(rounds), "--seed", "11"]
    out = io.StringIO()
    code = main(argv + (["--json"] if as_json else ["--color", "never"]), stdout=out, stderr=io.StringIO())
    assert code == 0
    want = dealt_as_the_rounds_say(players, rules, 11, rounds, as_json, color=False)
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


@pytest.mark.parametrize("as_json", [False, True])
def test_the_library_writes_a_deal_as_the_command_does_and_tallies_it(as_json: bool) -> None:
    from fivecard.core.report import Painter
    from fivecard.files.writers.deal import write_deal

    ruleset = get_rules("joker")
    out = io.StringIO()
    tally = write_deal(out, 4, rules=ruleset, seed=5, rounds=40, painter=Painter(color=False), as_json=as_json)
    assert out.getvalue() == dealt_as_the_rounds_say(4, "joker", 5, 40, as_json, color=False)
    by_round = DealTally(4, ruleset)
    for played in deal_rounds(4, rules=ruleset, seed=5, rounds=40):
        by_round.add(played)
    assert (tally.rounds, tally.wins, tally.splits) == (40, by_round.wins, by_round.splits)


@pytest.mark.parametrize("fmt", ["text", "json", "chat"])
def test_a_named_deal_names_every_explanation_whatever_deals_came_before(fmt: str) -> None:
    """The writers of a process share one register of the outcomes met, so
    a named deal meets outcomes of other counts of hands (dealt before it,
    here of four and of two hands): each of its own explanations names its
    players, and it fails on none of the others."""
    from fivecard.core.report import Painter
    from fivecard.core.showdown import name_hands
    from fivecard.files.writers.deal import write_deal

    ruleset, names = get_rules("standard"), ["Ann", "Bob", "Cy"]

    def written(players: int, named: list[str] | None) -> str:
        out = io.StringIO()
        write_deal(out, players, rules=ruleset, seed=8, rounds=300, painter=Painter(color=False),
                   as_json=fmt == "json", names=named, chat=fmt == "chat")  # fmt: skip
        return out.getvalue()

    written(4, None), written(2, None)
    numbered, named = written(3, None), written(3, names)
    explanations = [line for line in numbered.splitlines() if any(w in line for w in ("wins:", "split:", "Draw"))]
    assert explanations and all(name_hands(line, names) in named for line in explanations)
    assert "Hand " not in named and "hand " not in named
