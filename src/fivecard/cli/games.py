"""The commands about games: ``strategy`` (a game solved), ``play`` (the
game in the terminal), ``serve`` (the web app) and ``completion`` (the
shell's scripts). Each reads its options, makes one library call and
prints the result's own report."""

from __future__ import annotations

from collections.abc import Callable

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
    from ..play.game import FOLD_BELOW, Game
    from .game_screen import play

    args, stdin, out = call.args, call.stdin, call.out
    # On a screen the lines are broken at spaces to its width, measured before
    # each write (the window may change); piped output keeps its lines whole.
    width = (lambda: shutil.get_terminal_size().columns) if out.isatty() else None
    if args.paytable is not None:
        return _play_machine(call, width)
    # Everything is checked before the first line is printed (--fold-below by
    # the parser, --deck when the Game is made).
    try:
        stacked = [parse_cards(args.deck)] if args.deck is not None else []
        # a seed is always chosen here, so the one the game prints replays it (--seed)
        seed = args.seed if args.seed is not None else new_seed()
        # --fold-below's default is None, so that --paytable can refuse it given
        fold_below = FOLD_BELOW if args.fold_below is None else args.fold_below
        game = Game(rules=call.rules, seed=seed, fold_below=fold_below, stacked=stacked, trainer=args.trainer)
    except FivecardError as exc:
        if args.deck is None:
            raise
        raise type(exc)(f"--deck: {exc}") from None
    delay = 0.35 if out.isatty() and stdin.isatty() else 0.0
    return play(game, stdin=stdin, out=out, painter=call.painter, delay=delay, width=width, lang=call.lang)


def _play_machine(call: Call, width: Callable[[], int] | None) -> int:
    """``play --paytable``: the video-poker machine. The table is read, the
    machine made and its holds' values counted or loaded before the first
    line is printed; counting them (the first time a game is played here)
    says so on a terminal's stderr."""
    from ..files.paytable_file import load_paytable
    from ..play.deal import new_seed
    from ..play.machine import Machine, preparing
    from .machine_screen import play_machine

    args = call.args
    seed = args.seed if args.seed is not None else new_seed()
    machine = Machine(load_paytable(args.paytable), rules=call.chosen_rules, coins=args.coins, seed=seed,
                      trainer=args.trainer)  # fmt: skip
    shown: list[Progress] = []

    def counting(done: int, parts: int) -> None:
        if not shown:
            shown.append(Progress(call.err, opening=preparing(machine, call.lang)))
        shown[0](done, parts)

    try:
        machine.prepare(counting)
    finally:
        for progress in shown:
            progress.clear()
    return play_machine(machine, stdin=call.stdin, out=call.out, painter=call.painter, width=width, lang=call.lang)


@command("serve")
def _serve(call: Call) -> int:
    from ..web.serve import serve

    args = call.args
    host = args.host if args.host is not None else "0.0.0.0" if args.lan else "127.0.0.1"
    return serve(host=host, port=args.port, data=args.data, open_browser=args.open, check=args.check,
                 access_log=args.access_log, out=call.out, allow_hosts=args.allow_host,
                 proxies=args.proxy, lan=args.lan, lan_host=args.lan_address)  # fmt: skip


@command("completion")
def _completion(call: Call) -> int:
    from .completion import completion_script
    from .registry import parser

    # (the whole parser: the one that read this command line holds only completion's options)
    return call.print(completion_script(call.args.shell, parser()))
