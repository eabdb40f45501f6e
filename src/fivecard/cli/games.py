"""The commands about games: ``strategy`` (a game solved), ``play`` (the
game in the terminal), ``serve`` (the web app) and ``completion`` (the
shell's scripts). Each reads its options, makes one library call and
prints the result's own report."""

from __future__ import annotations

from ..core.errors import FivecardError
from .registry import Call, Progress, UsageError, command


@command("strategy")
def _strategy(call: Call) -> int:
    from ..files.solve import solve_strategy

    args = call.args
    if args.list:
        from ..play.paytables import catalogue_report

        report = catalogue_report()
        return call.print(report.to_json() if args.json else report.text())
    if args.output is not None and not args.output.lower().endswith((".csv", ".parquet")):
        raise UsageError(f"-o writes FILE.csv or FILE.parquet, not {args.output!r}")
    if args.chart and args.output is not None and not args.output.lower().endswith(".csv"):
        raise UsageError(f"-o with --chart writes the chart's lines to FILE.csv, not {args.output!r}")
    progress = Progress(call.err, args.progress, opening="solving: making the tables")
    try:
        solved = solve_strategy(None if args.dealer else args.paytable, call.chosen_rules, workers=args.workers,
                                scheduler=args.scheduler, checkpoint=args.checkpoint, output=args.output,
                                holds=args.holds, progress=progress, on_note=progress.note,
                                resume=f"to resume, run the same command again: {call.command_line}",
                                hands_played=args.hands, bankroll=args.bankroll, coins=args.coins,
                                chart=args.chart)  # fmt: skip
    finally:
        progress.clear()
    progress.say_resumed()
    if args.output is not None:
        what = f"{len(solved.chart.lines):,} lines of the chart" if solved.chart is not None else (
            f"{len(solved.hands):,} classes of starting hands"
        )
        call.err.write(f"wrote {args.output}: {what}\n")
    return call.print(solved.to_json() if args.json else solved.text())


@command("play")
def _play(call: Call) -> int:
    import shutil

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
        game = Game(rules=call.rules, seed=seed, fold_below=args.fold_below, stacked=stacked, trainer=args.trainer)
    except FivecardError as exc:
        if args.deck is None:
            raise
        raise type(exc)(f"--deck: {exc}") from None
    delay = 0.35 if out.isatty() and stdin.isatty() else 0.0
    # On a screen the lines are broken at spaces to its width, measured before
    # each write (the window may change); piped output keeps its lines whole.
    width = (lambda: shutil.get_terminal_size().columns) if out.isatty() else None
    return play(game, stdin=stdin, out=out, painter=call.painter, delay=delay, width=width)


@command("serve")
def _serve(call: Call) -> int:
    from ..web.serve import serve

    args = call.args
    return serve(host=args.host, port=args.port, data=args.data, open_browser=args.open, check=args.check,
                 access_log=args.access_log, out=call.out, allow_hosts=args.allow_host,
                 proxies=args.proxy)  # fmt: skip


@command("completion")
def _completion(call: Call) -> int:
    from .completion import completion_script

    return call.print(completion_script(call.args.shell, call.parser))
