"""The commands about files: ``solve`` (a file or workbook of showdowns),
``mark`` (a spreadsheet's answers) and ``grid`` (a test grid). Each reads
its options, makes one library call and prints what it says."""

from __future__ import annotations

import argparse

from ..core.rules import RuleSet
from .registry import EXIT_OK, EXIT_SOME_ROWS_BAD, EXIT_WRONG_ANSWERS, Call, Progress, UsageError, can_show, command

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any


def _solve_format(args: argparse.Namespace, rules: RuleSet | None = None) -> str:
    """The output's format, once the options are checked against it."""
    from ..files.formats import output_format

    fmt = "jsonl" if args.json else output_format(args.output, args.format)
    if args.color is not None and fmt != "text":
        raise UsageError(f"--color colours the text table; it does nothing for {fmt} output")
    if args.bom and fmt != "csv":
        raise UsageError(f"--bom starts a CSV file for Excel; it does nothing for {fmt} output")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be 1 or more, not {args.workers}")
    if args.json and args.format not in (None, "jsonl"):
        raise UsageError(f"--json writes JSON Lines; it cannot be combined with --format {args.format}")
    if args.json and args.output not in (None, "-"):
        raise UsageError("--json writes to standard output; for a file use -o FILE.jsonl")
    return fmt


def wrote(call: Call, output: str, what: str) -> str:
    """The line on stderr after an output file is written: ``wrote FILE:
    what it holds``."""
    if call.lang.english:
        return f"wrote {output}: {what}\n"
    return call.lang.phrase("wrote {file}: {what}", "cli", file=output, what=what) + "\n"


def _terminal_width(out: Any) -> int | None:
    """The columns of a terminal written to; None for a file or a pipe."""
    import shutil

    isatty = getattr(out, "isatty", None)
    return shutil.get_terminal_size().columns if isatty is not None and isatty() else None


@command("solve", check=_solve_format)
def _solve(call: Call) -> int:
    from ..files.solve import solve_file

    args, out, err = call.args, call.out, call.err
    fmt = _solve_format(args, call.rules)
    progress = Progress(err)
    try:
        solution = solve_file(
            args.input, args.output, format=fmt, input_format=args.input_format, sheet=args.sheet,
            hands=args.hands, rules=call.rules, decks=1 if args.decks is None else args.decks,
            strict=args.strict, bom=args.bom, painter=call.painter, stdin=call.stdin, stdout=out,
            on_layout=call.say, progress=progress.rows, workers=args.workers, best_five=args.best_five,
            width=_terminal_width(out) if args.output in (None, "-") else None,
        )  # fmt: skip
    finally:
        progress.clear()
    for note in solution.notes:
        call.say(f"note: {note}")
    tally = solution.tally
    if args.output in (None, "-"):
        (out if fmt == "text" else err).write(tally.summary(call.lang) + "\n")
    else:
        err.write(wrote(call, args.output, tally.summary(call.lang)))
    return EXIT_SOME_ROWS_BAD if tally.errors else EXIT_OK


@command("mark")
def _mark(call: Call) -> int:
    from ..files.sources import binary_stdin
    from ..modeloff.mark import open_marking, report_marking

    args, out = call.args, call.out
    stdin = binary_stdin(call.stdin) if args.input == "-" else None
    with open_marking(
        args.input, sheet=args.sheet, answers=args.answers, hands=args.hands, rules=call.rules, stdin=stdin
    ) as marking:
        notes = report_marking(marking, out, output=args.output, as_json=args.json, ascii=not can_show(out), say=call.say)
    for note in notes:
        call.say(f"note: {note}")
    if args.output is not None:
        wrong = marking.totals.wrong_answers
        call.err.write(f"wrote {args.output}: {wrong} wrong answer{'s' if wrong != 1 else ''} marked\n")
    totals = marking.totals
    if totals.errors:
        return EXIT_SOME_ROWS_BAD
    return EXIT_WRONG_ANSWERS if args.fail_on_wrong and totals.correct < totals.total else EXIT_OK


@command("grid")
def _grid(call: Call) -> int:
    from ..modeloff.grid import grid_rows, grid_text, write_grid

    args, rules = call.args, call.rules
    rows = grid_rows(rules)
    if args.output is None:
        return call.print(grid_text(rows, rules, answers=not args.no_answers))
    write_grid(args.output, rows, rules=rules, answers=not args.no_answers)
    call.err.write(f"wrote {args.output}: {len(rows)} showdowns\n")
    return EXIT_OK
