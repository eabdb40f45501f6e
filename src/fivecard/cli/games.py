"""The commands about games: ``strategy`` (a game solved), ``play`` (the
game in the terminal), ``serve`` (the web app) and ``completion`` (the
shell's scripts). Each reads its options, makes one library call and
prints the result's own report."""

from __future__ import annotations

import argparse
import time
from typing import Any

from ..core.errors import FivecardError
from .registry import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    Call,
    Progress,
    UsageError,
    command,
    count,
    option,
    probability,
)


def _holds_count(text: str) -> int:
    """``--holds``: a whole number of lines, 0 or more, or ``all`` (-1)."""
    return -1 if text.strip().lower() == "all" else count(text, "expected a whole number, 0 or more, or 'all'")


def _strategy_arguments(parser: argparse.ArgumentParser) -> None:
    game = parser.add_mutually_exclusive_group(required=True)
    option(
        game,
        "--paytable",
        metavar="NAME|FILE",
        help="the video-poker pay table to solve: 'jacks-or-better' (9/6), 'deuces-wild' (full pay, "
        "with --rules deuces-wild) or a JSON file, as advise takes (whole-number pays)",
        words=("jacks-or-better", "deuces-wild"),
        files=True,
    )
    game.add_argument(
        "--dealer",
        action="store_true",
        help="solve the game against the dealer (Poker vs Dealer's house bet, 1:1, a draw returns it; "
        "the advisor's model: the dealer's five come from the cards the player has not seen): the "
        "player's chances to win, draw and lose and the house edge under the best holds",
    )
    option(
        parser,
        "-o",
        "--output",
        metavar="FILE",
        help="also write the strategy, FILE.csv or FILE.parquet (the optional pyarrow): every class of "
        "starting hands (suits renamed alike), its deals, the best hold and its value (return per coin, "
        "or with --dealer win - lose and the chances), and the runner-up's, best first",
        files=True,
    )
    parser.add_argument(
        "--workers",
        type=count,
        metavar="N",
        help="--dealer: a local Dask cluster of N processes (default: one per core, as many as half "
        "the memory holds at some 600 MB each; 0: this process, without Dask). Without the optional Dask (pip install 'fivecard[cluster]') it runs in this "
        "process. The answer is the same whatever N",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="--dealer: run on an existing Dask cluster, e.g. tcp://host:8786 (its workers need fivecard installed)",
    )
    option(
        parser,
        "--checkpoint",
        metavar="DIR",
        help="keep each finished part of the work here, so that a run interrupted (Ctrl-C, a lost machine) resumes "
        "where it stopped when run again (default: 'checkpoints' in fivecard's cache folder, $FIVECARD_CACHE, "
        "$XDG_CACHE_HOME/fivecard or ~/.cache/fivecard; the files go once the run is done)",
        files=True,
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress line on stderr with the rate and the time left (default: when stderr is a terminal)",
    )
    parser.add_argument(
        "--holds",
        type=_holds_count,
        default=0,
        metavar="N|all",
        help="also print the ranked hold list, the strategy as players learn it: the best holds of all "
        "deals grouped by what they keep ('4 to a Royal Flush', 'High pair (J or better)', 'Discard "
        "everything'), best mean value first, with each one's share of the deals and its range of "
        "values; its first N lines (all: every line). With --json: the key \"holds\"",
    )


@command(
    "strategy",
    help="solve a game: a pay table's exact return, or the house edge against the dealer",
    description="Find the best hold of every deal of the deck exactly and print what the game returns under "
    "perfect play. --paytable: a video-poker pay table (2,598,960 deals of 52 cards, counted once and valued by "
    "inclusion-exclusion): the exact return per coin (as a fraction and a percentage) and how often each final "
    "hand comes; rule sets of suited cards without jokers, about 6 s. --dealer: Poker vs Dealer's house bet, every "
    "class of starting hands (134,459 for 52 cards) against every dealer hand of the unseen cards, for any rule "
    "set: the player's exact chances to win, draw and lose, and the house edge; about a minute on one core for 52 "
    "cards, spread over a Dask cluster (--workers, --scheduler), resumable from checkpoints.",
    examples=(
        "fivecard strategy --paytable jacks-or-better --rules short-deck",
        "fivecard strategy --json --paytable jacks-or-better --rules short-deck",
        "fivecard strategy --paytable jacks-or-better --rules short-deck --holds 10",
        "fivecard strategy --dealer --rules short-deck --workers 2 -o dealer.csv",
    ),
    shared=("rules", "json"),
    arguments=_strategy_arguments,
)
def _strategy(call: Call) -> int:
    from ..files.paytable_file import load_paytable
    from ..files.writers.strategy import check_strategy_path, write_strategy
    from ..play.dealer import DealerSolution, dealer_hands, default_workers, solve_dealer
    from ..play.holds import HoldList
    from ..play.strategy import PayTableSolution, solve_paytable, starting_hands
    from ..vector.jobs import dask_available, default_checkpoints, plan

    args, rules = call.args, call.rules
    if args.output is not None:
        if not args.output.lower().endswith((".csv", ".parquet")):
            raise UsageError(f"-o writes FILE.csv or FILE.parquet, not {args.output!r}")
        check_strategy_path(args.output)  # before the work, not after it
    if args.dealer and args.workers is not None and args.scheduler is not None:
        raise UsageError("--workers starts a local cluster; with --scheduler the cluster's own workers run")
    for name in () if args.dealer else ("workers", "scheduler"):
        if getattr(args, name) is not None:
            raise UsageError(f"--{name} is for --dealer: a pay table is solved in this process, in seconds")
    table = load_paytable(args.paytable) if not args.dealer else None
    workers = default_workers(len(rules.deck()), args.workers, args.scheduler) if args.dealer else 0
    ran = plan(workers, args.scheduler)
    if args.dealer and args.workers and args.scheduler is None and not dask_available():
        call.say(f"note: --workers {args.workers}: Dask is not installed (pip install 'fivecard[cluster]'), "
                 "so this runs in this process")  # fmt: skip
    progress = Progress(call.err, args.progress, opening="solving: making the tables")
    run: dict[str, Any] = {"progress": progress, "on_note": progress.note}
    run["checkpoint"] = args.checkpoint if args.checkpoint is not None else default_checkpoints()
    started = time.monotonic()
    try:
        if table is not None:
            solved: PayTableSolution | DealerSolution = solve_paytable(table, rules=rules, **run)
        else:
            solved = solve_dealer(rules, workers=workers, scheduler=args.scheduler, **run)
    finally:
        progress.clear()
    seconds = time.monotonic() - started
    progress.say_resumed()
    hands: list[Any] = []
    if args.output is not None or args.holds:
        hands = starting_hands(solved) if isinstance(solved, PayTableSolution) else dealer_hands(solved)
    if args.output is not None:
        write_strategy(args.output, hands)
        call.err.write(f"wrote {args.output}: {len(hands):,} classes of starting hands\n")
    holds = HoldList.ranked(hands, rules, table, args.holds) if args.holds else None
    if isinstance(solved, PayTableSolution):
        return call.print(solved.to_json(holds) if args.json else solved.text(holds))
    if args.json:
        return call.print(solved.to_json(holds, seconds=seconds, ran=ran))
    return call.print(solved.text(holds, seconds=seconds, ran=ran))


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, metavar="S", help="a seed: the same seed, the same game")
    parser.add_argument(
        "--fold-below",
        type=probability,
        default=0.30,
        metavar="P",
        help="computer players fold when their best chance to beat the dealer is below P, "
        "a number from 0 to 1 (default 0.30)",
    )
    parser.add_argument(
        "--deck",
        metavar="CARDS",
        help="deal the first round from these cards in this order instead of shuffling (demonstrations and tests)",
    )


@command(
    "play",
    help="five-card draw against the dealer and two computer players",
    description="Five-card draw against the dealer with two computer players, as in Poker vs Dealer. Each round "
    "everyone antes 10 into the pot and bets 10 against the house; keep any cards and exchange the rest once, or "
    "fold; the dealer's five cards are turned up one at a time; each hand still in plays the dealer for the house "
    "bet (1:1; a draw returns it) and the best of them takes the pot (ties split it, odd chips to the earliest "
    "seat; if all fold it carries over). Answer with the positions of the cards to keep, shown as [1]-[5] (type 1 "
    "3 4), a (all), n (none), h (the advisor's hint), f (fold) or q (quit). Quitting, the end of input or Ctrl-C "
    "in the middle of a round voids it: every chip of it goes back, and the standings are printed. Reads piped "
    "input too.",
    examples=(
        "fivecard play",
        "fivecard play --rules semi --seed 1",
        "fivecard play --fold-below 0.5 --rules joker",
    ),
    shared=("rules", "color"),
    arguments=_play_arguments,
    exit_meanings={
        EXIT_OK: "the game ended: you quit, the input ended or you ran out of chips",
        EXIT_INTERRUPTED: "interrupted (Ctrl-C): the round in play is void, the standings printed",
    },
)
def _play(call: Call) -> int:
    from ..core.cards import parse_cards
    from ..play.deal import new_seed
    from ..play.game import Game
    from .game_screen import play

    args, stdin, out = call.args, call.stdin, call.out
    # Everything is checked before the first line is printed (--fold-below by
    # the parser, --deck when the Game is made).
    try:
        stacked = [parse_cards(args.deck)] if args.deck is not None else []
        # a seed is always chosen here, so the one the game prints replays it (--seed)
        seed = args.seed if args.seed is not None else new_seed()
        game = Game(rules=call.rules, seed=seed, fold_below=args.fold_below, stacked=stacked)
    except FivecardError as exc:
        if args.deck is None:
            raise
        raise type(exc)(f"--deck: {exc}") from None
    delay = 0.35 if out.isatty() and stdin.isatty() else 0.0
    return play(game, stdin=stdin, out=out, painter=call.painter, delay=delay)


def _serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this computer only; "
        "0.0.0.0 lets others on your network play)",
    )
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free port)")
    parser.add_argument("--open", action="store_true", help="open the app in the web browser once it is up")
    option(
        parser,
        "--data",
        metavar="DIR",
        help="where games are kept (a SQLite file; default $XDG_DATA_HOME/fivecard or ~/.local/share/fivecard)",
        files=True,
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="start, ask the app for its pages and API once, print what answered and stop (checks an installation)",
    )
    parser.add_argument("--access-log", action="store_true", help="print a line per request")
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="answer requests that name this host too (repeatable; e.g. a name on your network, or a "
        "reverse proxy's): IP addresses, localhost and this computer's names are answered anyway, "
        "any other name is refused (421), so that no page elsewhere can reach the app by pointing its "
        "own name at this computer",
    )


@command(
    "serve",
    help="Poker vs Dealer, a hand checker and tables for friends in your web browser",
    description="Start the web app: Poker vs Dealer (five-card draw against the dealer and two computer players, "
    "with hints), a hand checker, and tables for friends (/tables: a host's rounds, everyone dealing in their own "
    "browser, the high hand winning points), in any browser, fully offline: every page, script and card is served "
    "by the app itself. Games and tables are kept in a SQLite file under --data and survive a restart. It prints "
    "its address; Ctrl-C stops it. Needs the web extra: pip install 'fivecard[web]'.",
    examples=(
        "fivecard serve",
        "fivecard serve --port 8080 --open",
        "fivecard serve --allow-host poker.example.org",
        "fivecard serve --check",
    ),
    arguments=_serve_arguments,
    exit_meanings={
        EXIT_OK: "--check found the app working",
        EXIT_BAD_INPUT: "bad usage, the port is taken, or the web extra is not installed: one line on stderr",
        EXIT_INTERRUPTED: "stopped with Ctrl-C (the usual way to stop it)",
    },
)
def _serve(call: Call) -> int:
    from ..web.serve import serve

    args = call.args
    return serve(host=args.host, port=args.port, data=args.data, open_browser=args.open, check=args.check,
                 access_log=args.access_log, out=call.out, allow_hosts=args.allow_host)  # fmt: skip


def _completion_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", choices=("bash", "zsh", "fish"), metavar="SHELL", help="bash, zsh or fish")


@command(
    "completion",
    help="print a shell completion script (bash, zsh, fish)",
    description="Print a script that completes fivecard's commands, options, rule sets, formats and file names in "
    "the shell, made from the command's own options. Install it once (a new shell then completes; 'source "
    "<(fivecard completion bash)' in ~/.bashrc works too). For zsh, the directory must be on fpath before compinit "
    "runs: 'fpath=(~/.zfunc $fpath)' in ~/.zshrc.",
    examples=(
        "fivecard completion bash > ~/.local/share/bash-completion/completions/fivecard",
        "fivecard completion zsh > ~/.zfunc/_fivecard",
        "fivecard completion fish > ~/.config/fish/completions/fivecard.fish",
    ),
    arguments=_completion_arguments,
)
def _completion(call: Call) -> int:
    from .completion import completion_script

    return call.print(completion_script(call.args.shell, call.parser))
