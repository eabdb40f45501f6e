"""The ``fivecard`` command: translates arguments to library calls and results
to text or JSON. It holds no poker logic.

Exit codes: 0 success, 2 bad input or bad usage (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from . import __version__
from .errors import FivecardError
from .evaluate import evaluate
from .hand import Hand
from .report import Painter, evaluation_json, showdown_json
from .rules import RULE_SETS, get_rules
from .showdown import showdown

__all__ = ["main"]

EXIT_OK = 0
EXIT_BAD_INPUT = 2

_DESCRIPTION = """\
Read, classify and settle five-card poker hands, and say why.

Cards are written rank then suit: 2-9, 10 or T, J, Q, K, A and C D H S or
♣ ♦ ♥ ♠, in any case, separated by spaces and/or commas: "KD, 9C, 4H, KS, 9D",
"8C TS KC 9H 4S", "10♦ A♥ ...". Quote each hand.
"""

_EPILOG = """\
examples:
  fivecard classify "AS KS QS JS TS" "KD, 9C, 4H, KS, 9D"
  fivecard compare "8C TS KC 9H 4S" "7D 2S 5D 3S AC"
  fivecard compare --json "10D 10H 4H 4C 3S" "10S 10C 4S 4D 3H"
  echo "A♥ 2♥ 3♠ 4♥ 5♣" | fivecard classify -
  fivecard classify --rules ace-king "AS KD 8C 7H 3S"
  fivecard compare --rules semi "Q, Q, Q, Q, 9" "Q, Q, Q, Q, 5"
  fivecard compare --rules joker "JK 7H 7D 7S 7C" "AS KS QS JS TS"

exit codes: 0 success; 2 bad input or usage (one line on stderr).
"""


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error becomes one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{message} (see '{self.prog} --help')")


def _rules_help() -> str:
    return "rule set: " + ", ".join(RULE_SETS) + " (default: standard; see 'fivecard rules')"


def _build_parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument("--rules", default="standard", metavar="R", help=_rules_help())
    common.add_argument("--json", action="store_true", help="print JSON instead of text")
    common.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour red suits: auto (on a terminal, unless NO_COLOR is set), always, never",
    )

    parser = _Parser(
        prog="fivecard",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"fivecard {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    classify = commands.add_parser(
        "classify",
        parents=[common],
        help="sort and classify hands",
        description="Sort and classify each hand: category, score (the category's "
        "place in the ladder), strength (1 = weakest class; equal strengths draw) "
        "and a description. HAND '-' reads hands from standard input, one per line.",
    )
    classify.add_argument("hands", nargs="+", metavar="HAND", help="a hand, e.g. 'KD 9C 4H KS 9D'")

    compare = commands.add_parser(
        "compare",
        parents=[common],
        help="settle a showdown of two or more hands and say why",
        description="Settle a showdown: every winner (several on a split), the full "
        "order, and why. Hands of one showdown come from one deck, so they may not "
        "share a card unless --decks allows it. HAND '-' reads hands from standard "
        "input, one per line.",
    )
    compare.add_argument("hands", nargs="+", metavar="HAND", help="a hand")
    compare.add_argument(
        "--decks",
        type=int,
        default=1,
        metavar="N",
        help="the hands come from N decks: up to N copies of a card (default 1)",
    )

    commands.add_parser(
        "rules",
        parents=[common],
        help="list the rule sets",
        description="List the rule sets with their categories.",
    )
    return parser


def _read_hands(arguments: Sequence[str], stdin: TextIO) -> list[str]:
    texts: list[str] = []
    for argument in arguments:
        if argument == "-":
            texts.extend(line.rstrip("\r\n") for line in stdin if line.strip())
        else:
            texts.append(argument)
    return texts


def _use_color(choice: str, stream: TextIO) -> bool:
    if choice != "auto":
        return choice == "always"
    return stream.isatty() and "NO_COLOR" not in os.environ


def _print_json(data: Any, out: TextIO) -> None:
    json.dump(data, out, ensure_ascii=False, indent=2)
    out.write("\n")


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command; return its exit code (never raises on bad input)."""
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help or --version
        return int(exc.code or 0)
    except _UsageError as exc:
        err.write(f"fivecard: error: {exc}\n")
        return EXIT_BAD_INPUT
    try:
        rules = get_rules(args.rules)
        painter = Painter(color=_use_color(args.color, out))
        if args.command == "rules":
            return _rules(args.json, out)
        texts = _read_hands(args.hands, stdin)
        if args.command == "classify":
            hands = []
            for number, text in enumerate(texts, 1):
                try:
                    hands.append(evaluate(Hand.parse(text, rules=rules)))
                except FivecardError as exc:
                    raise type(exc)(f"hand {number}: {exc}") from None
            if args.json:
                _print_json([evaluation_json(e, t) for e, t in zip(hands, texts)], out)
            else:
                for evaluation in hands:
                    out.write(painter.evaluation(evaluation) + "\n")
        else:
            result = showdown(texts, rules=rules, decks=args.decks)
            if args.json:
                _print_json(showdown_json(result, texts), out)
            else:
                out.write("\n".join(painter.showdown(result)) + "\n")
    except FivecardError as exc:
        err.write(f"fivecard: error: {_one_line(str(exc))}\n")
        return EXIT_BAD_INPUT
    return EXIT_OK


def _rules(as_json: bool, out: TextIO) -> int:
    if as_json:
        _print_json(
            [
                {
                    "name": r.name,
                    "aliases": list(r.aliases),
                    "summary": r.summary,
                    "categories": [c.name for c in reversed(r.ladder)],
                }
                for r in RULE_SETS.values()
            ],
            out,
        )
        return EXIT_OK
    for ruleset in RULE_SETS.values():
        aliases = f" (also: {', '.join(ruleset.aliases)})" if ruleset.aliases else ""
        out.write(f"{ruleset.name}{aliases}: {ruleset.summary}\n")
        ladder = ", ".join(
            f"{ruleset.score(c)} {c.label}" for c in reversed(ruleset.ladder)
        )
        out.write(f"  {ladder}\n")
    return EXIT_OK


def _one_line(message: str) -> str:
    return " ".join(message.split())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
