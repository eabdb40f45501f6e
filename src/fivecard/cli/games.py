"""The commands about games: ``strategy`` (a game solved), ``play`` (the
game in the terminal), ``serve`` (the web app) and ``completion`` (the
shell's scripts). Each reads its options, makes one library call and
prints the result's own report."""

from __future__ import annotations

import time
from typing import Any

from ..core.errors import FivecardError
from .registry import Call, Progress, UsageError, command


@command("strategy")
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
    timed: dict[str, Any] = {} if isinstance(solved, PayTableSolution) else {"seconds": seconds, "ran": ran}
    return call.print(solved.to_json(holds, **timed) if args.json else solved.text(holds, **timed))


@command("play")
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


@command("serve")
def _serve(call: Call) -> int:
    from ..web.serve import serve

    args = call.args
    return serve(host=args.host, port=args.port, data=args.data, open_browser=args.open, check=args.check,
                 access_log=args.access_log, out=call.out, allow_hosts=args.allow_host)  # fmt: skip


@command("completion")
def _completion(call: Call) -> int:
    from .completion import completion_script

    return call.print(completion_script(call.args.shell, call.parser))
