"""The commands about hands: ``classify``, ``compare``, ``deal``, ``stats``,
``advise`` and ``rules``. Each reads its options, makes one library call
and prints the result's own report (its ``to_json()`` or text)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from ..core.errors import FileError, FivecardError, in_context
from ..core.evaluate import evaluate
from ..core.hand import Hand
from ..core.report import evaluation_json, showdown_json
from ..core.rules import RULE_SETS, RuleSet
from ..core.showdown import showdown
from .registry import EXIT_OK, Call, UsageError, can_show, command, option


def _hands_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "hands", nargs="+", metavar="HAND", help="a hand, e.g. 'KD 9C 4H KS 9D'; '-' reads standard input"
    )
    parser.add_argument(
        "--best-five",
        action="store_true",
        help="hands of 5 to 7 cards play their best five (seven-card stud; --board implies it)",
    )


def _standard_input(stdin: TextIO) -> Any:
    """The bytes of standard input (``-``)."""
    from ..files.sources import binary_stdin

    raw = binary_stdin(stdin)
    if raw is None:
        raise FileError("no standard input")
    return raw


@command(
    "classify",
    help="sort and classify hands",
    description="Sort and classify each hand: category, score (the category's "
    "place in the ladder), strength (1 = weakest class; equal strengths draw) "
    "and a description. HAND '-' reads hands from standard input, one per line.",
    examples=(
        'fivecard classify "AS KS QS JS TS" "KD, 9C, 4H, KS, 9D"',
        'fivecard classify --rules ace-king "AS KD 8C 7H 3S"',
        'echo "8C TS KC 9H 4S" | fivecard classify -',
        'fivecard classify --best-five "AS KS QS JS TS 9S 2D"',
    ),
    shared=("rules", "color", "json"),
    arguments=_hands_arguments,
)
def _classify(call: Call) -> int:
    args, out = call.args, call.out
    if "-" in args.hands:  # many hands: the bulk pipeline, a chunk at a time
        from ..files.solve import classify_stream

        sources = (_standard_input(call.stdin) if hand == "-" else hand for hand in args.hands)
        classify_stream(sources, out, rules=call.rules, painter=call.painter, as_json=args.json,
                        ascii=not can_show(out), best_five=args.best_five)  # fmt: skip
        return EXIT_OK
    evaluations = []  # a few hands: the single-hand library, no numpy to load
    for number, text in enumerate(args.hands, 1):
        try:
            evaluations.append(evaluate(text, rules=call.rules, best_five=args.best_five))
        except FivecardError as exc:
            raise in_context(exc, f"hand {number}: ") from None
    if args.json:
        return call.print([evaluation_json(e, t) for e, t in zip(evaluations, args.hands)])
    return call.print("".join(call.painter.evaluation(e) + "\n" for e in evaluations))


def _read_hands(arguments: Sequence[str], stdin: TextIO) -> list[str]:
    """The hands of the arguments; ``-`` reads standard input, a hand a line
    (blank lines skipped; a line over 1 MiB is an error naming its hand)."""
    from ..files.sources import read_lines

    texts: list[str] = []
    for argument in arguments:
        if argument != "-":
            texts.append(argument)
            continue
        for _, text, error in read_lines(_standard_input(stdin)):
            if error is not None:
                raise FileError(f"hand {len(texts) + 1}: {error}")
            if text.strip():
                texts.append(text)
    return texts


def _compare_arguments(parser: argparse.ArgumentParser) -> None:
    _hands_arguments(parser)
    parser.add_argument(
        "--decks", type=int, metavar="N", help="the hands come from N decks: up to N copies of a card (default 1)"
    )
    parser.add_argument(
        "--board",
        metavar="CARDS",
        help="cards every hand shares (hold'em: up to five); each hand plays the best five "
        "of its own cards and the board's",
    )


@command(
    "compare",
    help="settle a showdown of two or more hands and say why",
    description="Settle a showdown: every winner (several on a split), the full order, and why. Hands of one "
    "showdown come from one deck, so they may not share a card unless --decks allows it. HAND '-' reads hands from "
    "standard input, one per line.",
    examples=(
        'fivecard compare "8C TS KC 9H 4S" "7D 2S 5D 3S AC"',
        'fivecard compare --json "10D 10H 4H 4C 3S" "2c 3c 5d 7s 9s" "10S 10C 4S 4D 3H"',
        'fivecard compare --rules semi "Q, Q, Q, Q, 9" "Q, Q, Q, Q, 5"',
        'fivecard compare --board "AS KS 7D 2C 9H" "QS JS" "7C 7H"',
    ),
    shared=("rules", "color", "json"),
    arguments=_compare_arguments,
)
def _compare(call: Call) -> int:
    args = call.args
    texts = _read_hands(args.hands, call.stdin)
    decks = 1 if args.decks is None else args.decks
    result = showdown(texts, rules=call.rules, decks=decks, best_five=args.best_five, board=args.board)
    return call.print(showdown_json(result, texts) if args.json else "\n".join(call.painter.showdown(result)) + "\n")


def _deal_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players", type=int, default=2, metavar="N", help="players, 1 to 10 (five cards each; default 2)"
    )
    parser.add_argument("--seed", type=int, metavar="S", help="a seed: the same seed, the same deal")
    parser.add_argument("--rounds", type=int, default=1, metavar="K", help="rounds to play, 1 or more (default 1)")


@command(
    "deal",
    help="deal hands and settle the showdown",
    description="Shuffle the rule set's deck (54 cards under joker, 36 under short-deck; semi deals from 52 and "
    "hides suits), deal five cards to each player (two players unless --players says otherwise), classify each "
    "hand and settle the showdown. --rounds plays several rounds and keeps a tally of wins per player, as "
    "Semi-Poker's host does. Without --seed the seed comes from the operating system's randomness and is printed, "
    "so a deal can be replayed.",
    examples=(
        "fivecard deal",
        "fivecard deal --players 4 --rounds 3",
        "fivecard deal --rules joker --seed 7",
        "fivecard deal --json --players 3 --seed 1",
    ),
    shared=("rules", "color", "json"),
    arguments=_deal_arguments,
)
def _deal(call: Call) -> int:
    from ..core.report import RawJson, write_json_object
    from ..files.pipeline import dealt_chunks
    from ..files.writers import DealWriter
    from ..play.deal import DealTally, check_players, check_rounds, new_seed

    args, rules, out = call.args, call.rules, call.out
    # The counts first, before anything is allocated, dealt or written.
    for flag, check in (
        ("--players", lambda: check_players(args.players, rules)),
        ("--rounds", lambda: check_rounds(args.rounds)),
    ):
        try:
            check()
        except FivecardError as exc:
            raise type(exc)(f"argument {flag}: {exc}") from None
    seed = args.seed if args.seed is not None else new_seed()
    tally = DealTally(args.players, rules)
    writer = DealWriter(call.painter, rules, several=args.rounds > 1)

    def dealt() -> Iterator[Any]:  # each chunk of rounds as it is dealt, tallied
        for chunk in dealt_chunks(args.players, rules=rules, seed=seed, rounds=args.rounds):
            tally.add_chunk(chunk)
            yield chunk

    def fields() -> Iterator[tuple[str, Any]]:  # streamed: each round as it is dealt, the tally last
        yield from (("rules", rules.name), ("seed", seed), ("players", args.players))
        yield "rounds", (RawJson(item) for chunk in dealt() for item in writer.json_items(chunk))
        yield "tally", tally.to_json()

    if args.json:
        write_json_object(out, fields())
        return EXIT_OK
    for chunk in dealt():
        out.write(writer.text(chunk).decode("utf-8"))
    return call.print((tally.text() if args.rounds > 1 else "") + f"(seed {seed}: --seed {seed} deals the same again)\n")


def _stats_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cards",
        type=int,
        choices=(5, 6, 7),
        default=5,
        metavar="N",
        help="hands of N cards: 5 (default), or 6 or 7, each playing its best five "
        "(seven-card stud; 133,784,560 hands of 52 cards, a few seconds)",
    )


@command(
    "stats",
    help="count every hand of the rule set's deck",
    description="Enumerate every five-card hand of the rule set's deck (or of six or seven cards, each playing its "
    "best five) and print, per category, the distinct classes, the hands, the probability and the odds.",
    examples=(
        "fivecard stats",
        "fivecard stats --rules joker",
        "fivecard stats --json --rules semi",
        "fivecard stats --cards 7 --rules short-deck",
    ),
    shared=("rules", "json"),
    arguments=_stats_arguments,
)
def _stats(call: Call) -> int:
    from ..vector.census import census  # numpy: imported only by the commands that count

    counted = census(call.rules, cards=call.args.cards)
    return call.print(counted.to_json() if call.args.json else counted.text())


def _advise_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", metavar="HAND", help="the five cards dealt, e.g. 'AS AH 7C 4D 2S'")
    option(
        parser,
        "--paytable",
        metavar="NAME|FILE",
        help="a video-poker pay table: 'jacks-or-better' (9/6), 'deuces-wild' (full pay, with --rules deuces-wild) "
        'or a JSON file of at most 1 MiB: {"name": ..., "pays": {"royal_flush": 800, ...}, "min_pair": "J", '
        '"rules": ...} (not under the lowball rule sets)',
        words=("jacks-or-better", "deuces-wild"),
        files=True,
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="show all 32 choices (default: the best 10; --json always has all 32, so it takes no --all)",
    )


def _check_advise(args: argparse.Namespace, rules: RuleSet) -> None:
    if args.all and args.json:
        raise UsageError("--json lists all 32 choices; --all is for the text table")


@command(
    "advise",
    help="which cards to keep: exact odds of every choice",
    description="For each of the 32 ways to keep some of the five cards, enumerate every draw exactly (all C(47, "
    "k) completions from the 47 unseen cards, 54-card deck under joker) and give the chance to beat, draw with and "
    "lose to the dealer, and of each final category. The dealer's hand is modelled as a random five of the cards "
    "the player has not seen. With --paytable, each choice's expected return per coin under a video-poker pay "
    "table instead.",
    examples=(
        'fivecard advise "AS AH 7C 4D 2S"',
        'fivecard advise --paytable jacks-or-better "JH JD 7C 4S 2S"',
        'fivecard advise --all --rules joker "JK 9S TS 4D 2C"',
    ),
    shared=("rules", "color", "json"),
    arguments=_advise_arguments,
    check=_check_advise,
)
def _advise(call: Call) -> int:
    from ..files.paytable_file import load_paytable
    from ..play.advise import advise

    args = call.args
    table = load_paytable(args.paytable) if args.paytable is not None else None
    advice = advise(Hand.parse(args.hand, rules=call.rules), paytable=table)
    return call.print(advice.to_json() if args.json else advice.text(call.painter, top=None if args.all else 10))


@command(
    "rules",
    help="list the rule sets",
    description="List the rule sets (with their aliases) and their categories, "
    "strongest first, each with its score.",
    examples=("fivecard rules", "fivecard rules --json"),
    shared=("json",),
)
def _rules(call: Call) -> int:
    if call.args.json:
        return call.print([r.to_json() for r in RULE_SETS.values()])
    return call.print("".join(r.text() for r in RULE_SETS.values()))
