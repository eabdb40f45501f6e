"""The commands about files: ``solve`` (a file or workbook of showdowns),
``mark`` (a spreadsheet's answers) and ``grid`` (a test grid). Each reads
its options, makes one library call and prints what it says."""

from __future__ import annotations

import argparse
import contextlib

from ..core.rules import RuleSet
from .registry import (
    EXIT_BAD_INPUT,
    EXIT_CODES,
    EXIT_OK,
    EXIT_SOME_ROWS_BAD,
    Call,
    Progress,
    UsageError,
    can_show,
    command,
    option,
)

_SOLVE_HELP = """\
Solve every showdown of a file: one result per row, in input order.

input (by extension, or by content; '-' reads standard input; read once, so
pipes and FIFOs work; UTF-8):
  text  one showdown per line: hands separated by |, ; a tab or 'vs', or a line
        of ten cards (Project Euler 54: the first five against the last five);
        a line with one hand is classified only; blank lines and lines starting
        with # are skipped but keep their line numbers
  csv   one column per hand, or one column per card (five per hand); other
        columns (labels) are kept but not read; decided by the cells' shape and
        said on stderr (--hands states it); a title row above the header is
        skipped
  xlsx  the same layouts, one row per showdown (as in the ModelOff 2012
        workbook); --sheet

output (by -o's extension, or --format; default text):
  text  an aligned table    jsonl  one JSON object per row (--json: to stdout)
  csv   the input columns, then per hand its sorted cards, category and
        score, then winner, explanation and error (jsonl has every detail)
  xlsx  the same as a workbook: the ModelOff 2012 steps 1-3, ready to hand in

Nothing lost: every data row gives one output row; a bad row (a typo, an empty
hand, a line over 1 MiB, an unclosed quote, a cell over 131,072 characters)
becomes an error row naming its line and the problem; no row is dropped or
shifted. An output file appears only when the run succeeds (after an error,
--strict, Ctrl-C, SIGTERM or SIGHUP the earlier file stays), never over its
own input. Output
cells are never formulas. A summary follows the rows (on stderr for machine
formats).
"""


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    option(parser, "input", metavar="INPUT", help="a text, CSV or .xlsx file; '-' reads standard input", files=True)
    option(parser, "-o", "--output", metavar="FILE", help="write here (format from its extension)", files=True)
    parser.add_argument(
        "--format",
        choices=("text", "jsonl", "csv", "xlsx", "parquet"),
        help="output format (default: by -o's extension, else text); parquet needs the "
        "optional pyarrow (pip install 'fivecard[parquet]')",
    )
    parser.add_argument(
        "--bom",
        action="store_true",
        help="start CSV output with a UTF-8 byte order mark, so that Excel reads suit "
        "symbols and other non-ASCII text right",
    )
    parser.add_argument(
        "--input-format", choices=("text", "csv", "xlsx"), help="input format (default: by extension or content)"
    )
    parser.add_argument("--sheet", metavar="NAME", help="the workbook's sheet (default: the first)")
    parser.add_argument(
        "--hands",
        metavar="COLUMNS",
        help="a table's hand columns, in hand order: letters or numbers (B,C,D), ranges of one-card columns "
        "(B-F,G-K) or header names ('Player 1,Player 2'); default: decided by the cells' shape, and said on stderr",
    )
    parser.add_argument("--decks", type=int, metavar="N", help="hands of a row come from N decks (default 1)")
    parser.add_argument("--strict", action="store_true", help="stop at the first bad row (exit 2)")
    parser.add_argument(
        "--best-five",
        action="store_true",
        help="hands of 5 to 7 cards play their best five (seven-card stud); a text line then "
        "marks where hands end (|, ;, a tab or 'vs'), or writes each hand's cards together",
    )
    parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="processes for a big text file written as text, CSV or JSON Lines (default: one "
        "per core, each given at least 4 MiB; 1: one process); the output is the same",
    )


def _solve_format(args: argparse.Namespace) -> str:
    from ..files.formats import output_format

    if args.json and args.format not in (None, "jsonl"):
        raise UsageError(f"--json writes JSON Lines; it cannot be combined with --format {args.format}")
    if args.json and args.output not in (None, "-"):
        raise UsageError("--json writes to standard output; for a file use -o FILE.jsonl")
    return "jsonl" if args.json else output_format(args.output, args.format)


def _check_solve(args: argparse.Namespace, rules: RuleSet) -> None:
    from ..files.formats import output_format

    fmt = "jsonl" if args.json else output_format(args.output, args.format)
    if args.color is not None and fmt != "text":
        raise UsageError(f"--color colours the text table; it does nothing for {fmt} output")
    if args.bom and fmt != "csv":
        raise UsageError(f"--bom starts a CSV file for Excel; it does nothing for {fmt} output")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be 1 or more, not {args.workers}")


@command(
    "solve",
    help="solve a file or workbook of showdowns",
    description=_SOLVE_HELP,
    examples=(
        "fivecard solve examples/showdowns.csv",
        "fivecard solve examples/rulebook-showdowns.txt -o answers.xlsx",
        "fivecard solve examples/showdowns.csv --hands B,C -o answers.csv",
        "fivecard solve --json --rules joker examples/rulebook-showdowns.txt",
    ),
    arguments=_solve_arguments,
    shared=("rules", "color", "json"),
    check=_check_solve,
    exit_codes=tuple(EXIT_CODES),
    exit_meanings={
        EXIT_OK: "every row was solved",
        EXIT_SOME_ROWS_BAD: "the run finished, but some rows were errors (each an error row)",
        EXIT_BAD_INPUT: "bad usage, an unreadable input or unwritable output, or a bad\n"
        "       row under --strict: one line on stderr; an earlier output file stays",
    },
)
def _solve(call: Call) -> int:
    from ..files.solve import solve_file

    args, out, err = call.args, call.out, call.err
    fmt = _solve_format(args)
    progress = Progress(err)
    try:
        solution = solve_file(
            args.input, args.output, format=fmt, input_format=args.input_format, sheet=args.sheet,
            hands=args.hands, rules=call.rules, decks=1 if args.decks is None else args.decks,
            strict=args.strict, bom=args.bom, painter=call.painter, stdin=call.stdin, stdout=out,
            on_layout=call.say, progress=progress.rows, workers=args.workers, best_five=args.best_five,
        )  # fmt: skip
    finally:
        progress.clear()
    for note in solution.notes:
        call.say(f"note: {note}")
    tally = solution.tally
    if args.output in (None, "-"):
        (out if fmt == "text" else err).write(tally.summary() + "\n")
    else:
        err.write(f"wrote {args.output}: {tally.summary()}\n")
    return EXIT_SOME_ROWS_BAD if tally.errors else EXIT_OK


def _mark_arguments(parser: argparse.ArgumentParser) -> None:
    option(
        parser,
        "input",
        metavar="FILE",
        help="a CSV file or .xlsx workbook of showdowns and answers; '-' reads standard input",
        files=True,
    )
    parser.add_argument("--sheet", metavar="NAME", help="the workbook's sheet (default: the first)")
    parser.add_argument(
        "--answers",
        metavar="COLS",
        help="the answer columns, in the order hand 1's classification, hand 2's "
        "classification, winner: letters, numbers or header names ('D,E,F'); default: "
        "found by their headers (e.g. 'Player 1 classification', 'Winner')",
    )
    parser.add_argument(
        "--hands", metavar="COLUMNS", help="the two hand columns, as for solve (default: decided by the cells' shape)"
    )
    option(
        parser,
        "-o",
        "--output",
        metavar="FILE",
        help="also write the marked file: the workbook back with wrong answers "
        "highlighted (.xlsx; .xlsm keeps its macros; up to 32 MiB of XML), or the rows "
        "with columns expected and verdict (.csv, from CSV or a workbook of any size)",
        files=True,
    )


_MARK_HELP = """Mark a spreadsheet's answers to showdowns of two hands, as the ModelOff 2012
marking macro does: settle each row, and report every row whose answers
differ (what was said, the right answer, and why), then the totals.

The file (CSV or .xlsx; --sheet) holds the two hands as solve reads them and
three answer columns, found by their headers (case, spaces and punctuation
aside) or named with --answers:
  classification  a header with 'classification', 'class', 'category', 'score'
                  or 'type' and the hand's number or name ('Player 1
                  classification', 'Classification 2', 'P1 Class', 'Hand 1
                  score'); an answer is a category ('Flush', 'one pair',
                  'Pair', 'Quads', 'Trips', 'Nothing') or its score, 1 to 10
  winner          a header with 'winner', 'winning', 'result' or 'outcome'; an
                  answer is a player's number (1, 'Player 2', 'P1'), the name
                  over that player's hand column, or a draw: draw, tie, dead
                  heat, split, chop, push, 0, none, no winner, '1,2'

An outcome is right when the winner and the strongest hand's classification
(both hands' for a draw) are right; other differences are reported but the
outcome counts. ModelOff mark: 1 per right outcome up to 20, 2 per right
outcome above 20, out of 25 outcomes (30 at most); another number of
outcomes is scaled to 25 first (right x 25 / total), then rounded to one
decimal. A bad row is reported with its line and not marked; an answer that
cannot be read counts as wrong. Numbers are read as written, digits alone:
-2, +2, 2.0, 02 or a full-width digit is no player's number and no score.
Rows are marked as they are read, in bounded memory.
"""


@command(
    "mark",
    help="mark a spreadsheet's answers (ModelOff 2012)",
    description=_MARK_HELP,
    examples=(
        "fivecard mark examples/answered.xlsx",
        "fivecard mark examples/answered.csv --json",
        "fivecard mark examples/answered.xlsx -o answers.xlsx",
        "fivecard mark examples/answered.csv --answers D,E,F -o answers.csv",
    ),
    arguments=_mark_arguments,
    shared=("rules", "json"),
    exit_codes=tuple(EXIT_CODES),
    exit_meanings={
        EXIT_OK: "every row was marked (wrong answers are a result, not an error)",
        EXIT_SOME_ROWS_BAD: "the run finished, but some rows were errors (not marked)",
    },
)
def _mark(call: Call) -> int:
    from ..files.sources import binary_stdin
    from ..modeloff.mark import MarkJson, open_marked, open_marking

    args, out = call.args, call.out
    stdin = binary_stdin(call.stdin) if args.input == "-" else None
    with open_marking(
        args.input, sheet=args.sheet, answers=args.answers, hands=args.hands, rules=call.rules, stdin=stdin
    ) as marking:
        # the output is checked (and a workbook to copy loaded) before any row is marked
        marked = open_marked(marking, args.output, stdout=out) if args.output is not None else None
        with marked if marked is not None else contextlib.nullcontext():
            if marking.note is not None:
                call.say(marking.note)
            report = MarkJson(out, ascii=not can_show(out)) if args.json else None
            try:
                for row in marking.stream():  # a chunk of rows at a time: memory stays bounded
                    if marked is not None:
                        marked.add(row)
                    if report is not None:
                        report.add(row)
                    else:
                        out.write(row.text())
                if marked is not None:
                    marked.commit()
            except BaseException:
                if report is not None:
                    report.close()
                raise
    totals = marking.totals
    if report is not None:
        report.finish(marking)
    else:
        out.write(totals.text())
    if marked is not None:
        for note in marked.notes:
            call.say(f"note: {note}")
        wrong = totals.wrong_answers
        call.err.write(f"wrote {args.output}: {wrong} wrong answer{'s' if wrong != 1 else ''} marked\n")
    return EXIT_SOME_ROWS_BAD if totals.errors else EXIT_OK


def _grid_arguments(parser: argparse.ArgumentParser) -> None:
    option(
        parser, "-o", "--output", metavar="FILE", help="write FILE.xlsx (sheets Grid and Answers) or FILE.csv", files=True
    )
    parser.add_argument(
        "--no-answers",
        action="store_true",
        help="leave out the expected answers (the Answers sheet, or the answer columns of a CSV file)",
    )


@command(
    "grid",
    help="write a test grid of showdowns covering every outcome",
    description="Write a fixed grid of two-hand showdowns that tests every outcome a spreadsheet solution "
    "(ModelOff 2012) must get right: every category against its neighbours in both orders, every tie-break down to "
    "the last kicker, the draws one deck allows, the wheel, ace-high straights and royal flushes, Q-K-A-2-3, cards "
    "in no order and ModelOff 2012's own examples (the standard grid, designed by hand; another rule set's grid, "
    "--rules or --wild, is found by searching every hand of its deck). The expected answers (each hand's "
    "classification, the winner 1, 2 or draw, and why) come from fivecard. Without -o, a text table; -o grid.xlsx "
    "writes the sheets Grid and Answers, -o grid.csv one table.",
    examples=(
        "fivecard grid",
        "fivecard grid -o grid.xlsx",
        "fivecard grid -o grid.csv --no-answers",
        "fivecard grid --rules deuces-wild",
    ),
    shared=("rules",),
    arguments=_grid_arguments,
)
def _grid(call: Call) -> int:
    from ..modeloff.grid import grid_rows, grid_text, write_grid

    args, rules = call.args, call.rules
    rows = grid_rows(rules)
    if args.output is None:
        return call.print(grid_text(rows, rules, answers=not args.no_answers))
    write_grid(args.output, rows, rules=rules, answers=not args.no_answers)
    call.err.write(f"wrote {args.output}: {len(rows)} showdowns\n")
    return EXIT_OK
