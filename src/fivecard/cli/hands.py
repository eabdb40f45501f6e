"""The commands about hands: ``classify``, ``compare``, ``deal``, ``stats``,
``advise`` and ``rules``. Each reads its options, makes one library call
and prints the result's own report (its ``to_json()`` or text)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.errors import FileError, FivecardError, in_context
from ..core.rules import RULE_SETS
from .registry import EXIT_OK, Call, UsageError, can_show, command

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any, TextIO, TypeVar

    T = TypeVar("T")


def _standard_input(stdin: TextIO) -> Any:
    """The bytes of standard input (``-``)."""
    from ..files.sources import binary_stdin

    raw = binary_stdin(stdin)
    if raw is None:
        raise FileError("no standard input")
    return raw


def _one_card_each(arguments: Sequence[str]) -> bool:
    """Whether the arguments are two or more, each one card: a hand typed
    without its quotes (the shell splits it at its spaces). A word that is
    no card at all, with no space in it, is a typo among them (``AS KS QS
    JS XJ``), for the hand's own error to name, when two or more of them
    are cards (a one-card argument is no hand anyway); standard input's
    ``-`` is never one of them."""
    from ..core.cards import parse_cards

    cards = 0
    for text in arguments:
        if text == "-" or not text.strip() or any(c.isspace() for c in text):
            return False
        try:
            count = len(parse_cards(text))
        except FivecardError:
            continue  # a typo: the hand's error names it
        if count != 1:
            return False
        cards += 1
    return cards >= 2


def _quote_each_hand(name: str, arguments: Sequence[str], problem: str) -> UsageError:
    """The error for cards that are not one hand unquoted: the problem,
    then quote each hand, as in the user's cards five to a hand (or an
    example's, when they do not come in fives)."""
    cards = list(arguments) if len(arguments) % 5 == 0 else "8C TS KC 9H 4S 7D 2S 5D 3S AC".split()
    hands = " ".join(f'"{" ".join(cards[i : i + 5])}"' for i in range(0, len(cards), 5))
    return UsageError(f"{problem}: quote each hand, as in fivecard {name} {hands}")


def hands_of_arguments(name: str, arguments: Sequence[str], *, board: bool = False) -> list[str]:
    """The hands of the arguments of classify or compare, each argument a
    hand. A hand typed without its quotes comes as arguments of one card
    each: for classify, two to seven of them are read as one hand (which
    the library then checks: five cards, or six or seven with
    --best-five); more, or any number for compare (without --board, where
    a hand of one card is a hand), cannot be told apart into hands, so it
    is a usage error that shows them quoted."""
    from ..core.hand import MOST_CARDS

    if board or not _one_card_each(arguments):
        return list(arguments)
    if name == "classify" and len(arguments) <= MOST_CARDS:
        return [" ".join(arguments)]
    if name == "classify":
        problem = f"{len(arguments)} arguments of one card each are more cards than one hand holds"
    else:
        problem = f"compare reads each argument as a hand, and these {len(arguments)} are one card each"
    raise _quote_each_hand(name, arguments, problem)


@command("classify")
def _classify(call: Call) -> int:
    args, out = call.args, call.out
    args.hands = hands_of_arguments("classify", args.hands)
    if "-" in args.hands:  # many hands: the bulk pipeline, a chunk at a time
        from ..files.solve import classify_stream

        sources = (_standard_input(call.stdin) if hand == "-" else hand for hand in args.hands)
        classify_stream(sources, out, rules=call.rules, painter=call.painter, as_json=args.json,
                        ascii=not can_show(out), best_five=args.best_five)  # fmt: skip
        return EXIT_OK
    from ..core.evaluate import evaluate  # a few hands: the single-hand library, no numpy to load
    from ..core.hand import hand_place
    from ..core.report import evaluation_json

    evaluations = []
    for number, text in enumerate(args.hands, 1):
        try:
            evaluations.append(evaluate(text, rules=call.rules, best_five=args.best_five))
        except FivecardError as exc:
            raise in_context(exc, hand_place(number)) from None
    if args.json:
        return call.print([evaluation_json(e, t, lang=call.lang) for e, t in zip(evaluations, args.hands)])
    return call.print("".join(call.painter.evaluation(e) + "\n" for e in evaluations))


@command("compare")
def _compare(call: Call) -> int:
    from ..core.report import showdown_json
    from ..core.showdown import showdown
    from ..files.sources import hand_texts

    args = call.args
    texts = hand_texts(hands_of_arguments("compare", args.hands, board=args.board is not None), call.stdin)
    decks = 1 if args.decks is None else args.decks
    result = showdown(texts, rules=call.rules, decks=decks, best_five=args.best_five, board=args.board)
    if args.json:
        return call.print(showdown_json(result, texts, call.lang))
    return call.print("\n".join(call.painter.showdown(result)) + "\n")


@command("deal")
def _deal(call: Call) -> int:
    from ..files.writers.deal import write_deal
    from ..play.deal import check_names, check_players, check_rounds, new_seed

    args, rules, out = call.args, call.rules, call.out

    def checked(flag: str, check: Callable[[], T]) -> T:
        try:
            return check()
        except FivecardError as exc:
            raise type(exc)(f"argument {flag}: {exc}") from None

    # The names and counts first, before anything is allocated, dealt or written.
    names = None if args.names is None else checked("--names", lambda: check_names(args.names.split(","), rules))
    players = args.players if args.players is not None else len(names) if names else 2
    if names and players != len(names):
        raise FivecardError(f"argument --names: {len(names)} names for --players {players}: give one name a player")
    checked("--players", lambda: check_players(players, rules))
    checked("--rounds", lambda: check_rounds(args.rounds))
    seed = args.seed if args.seed is not None else new_seed()
    tally = write_deal(out, players, rules=rules, seed=seed, rounds=args.rounds, painter=call.painter,
                       as_json=args.json, names=names, chat=args.chat)  # fmt: skip
    if args.json:
        return EXIT_OK
    if call.lang.english:
        again = f"seed {seed}: --seed {seed} deals the same again"
    else:
        again = call.lang.phrase("seed {seed}: --seed {seed} deals the same again", "cli", seed=seed)
    if args.chat:  # what is pasted on standard output; how to deal it again on stderr
        call.say(again)
        return call.print(tally.chat() if args.rounds > 1 else "")
    return call.print((tally.text() if args.rounds > 1 else "") + f"({again})\n")


@command("stats")
def _stats(call: Call) -> int:
    from ..vector.census import census  # numpy: imported only by the commands that count

    counted = census(call.rules, cards=call.args.cards)
    return call.print(counted.to_json() if call.args.json else counted.text(call.lang))


@command("advise")
def _advise(call: Call) -> int:
    from ..core.hand import Hand
    from ..files.paytable_file import load_paytable
    from ..play.advise import advise

    args = call.args
    table = load_paytable(args.paytable) if args.paytable is not None else None
    rules = table.rules_to_play(call.chosen_rules) if table is not None else call.rules
    advice = advise(Hand.parse(args.hand, rules=rules), paytable=table)
    if args.json:
        return call.print(advice.to_json(call.lang))
    return call.print(advice.text(call.painter, top=None if args.all else 10, lang=call.lang))


@command("rules")
def _rules(call: Call) -> int:
    if call.args.json:
        return call.print([r.to_json() for r in RULE_SETS.values()])
    return call.print("".join(r.text() for r in RULE_SETS.values()))
