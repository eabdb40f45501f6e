"""The fivecard command's recorded outputs: every command, each of its
output formats and main options, run and compared byte for byte with what
was recorded in ``tests/cli/outputs/`` (one file per case).

A case is a command line, its standard input, the files it writes and
any change to the environment (a language: ``LANG=ja_JP.UTF-8`` without
``LC_ALL``). It
runs the real command in this process (:func:`fivecard.cli.main`, with
byte streams beneath its standard input, output and error, so binary output
and ``-`` inputs take the paths a real process takes), or, for the few marked
``process`` (the program's own start: console streams, arguments, exit),
as ``python -m fivecard``. Each run has a fixed environment:
``COLUMNS=100``, ``LC_ALL=C.UTF-8``, ``TZ=UTC``, ``NO_COLOR=1``, a
``FIVECARD_CACHE`` and a temporary folder of its own, and a fresh working
folder holding a copy of ``examples/`` (and any file the case gives), so
paths in messages are the relative ones typed.

Compared: the exit code, standard output, standard error, and every file
the case writes, byte for byte; a workbook (``.xlsx``) by its cells instead
(each sheet's name and order, frozen panes and column widths, and each
cell's value and type, number format, bold, fill and comment: the zip's
timestamps vary), a Parquet file by its schema and rows. An output whose
compared form passes 64 KiB (a strategy's table of every class of starting
hands) is recorded as its SHA-256 with its first and last lines. A run must
write exactly the files its case names, and leave no temporary file behind.

Only these substitutions are made before comparing (:data:`NORMALISED`):

* ``solved in 4.2 s`` -> ``solved in <seconds> s``: the time ``strategy
  --dealer`` took, in its text output;
* ``"seconds": 4.213`` -> ``"seconds": <seconds>``: the same, in its JSON.

Nothing else varies between runs, hash seeds or processes.

On a difference the test fails with a short unified diff of the first
output that differs. When a change is intended, record the outputs again
and review the change to ``tests/cli/outputs/`` like any other diff::

    FIVECARD_OUTPUTS=record pytest tests/cli/test_command_outputs.py

(recording also removes the recorded file of a case that is gone).
"""

from __future__ import annotations

import difflib
import hashlib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import fivecard
from fivecard.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
OUTPUTS = Path(__file__).resolve().parent / "outputs"
RECORD = os.environ.get("FIVECARD_OUTPUTS", "") == "record"

#: The environment every case runs in (a process case gets these and no
#: other variables, besides PATH, HOME, PYTHONPATH, the cache and TMPDIR).
ENVIRONMENT = {"COLUMNS": "100", "LC_ALL": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "1"}

#: What is substituted in every output before comparing: (pattern,
#: replacement, what it hides). Each hides something that differs from run
#: to run by nature; keep this list short.
NORMALISED: tuple[tuple[re.Pattern[bytes], bytes, str], ...] = (
    (re.compile(rb"solved in \d+\.\d s"), b"solved in <seconds> s", "strategy --dealer's time taken (text)"),
    (re.compile(rb'"seconds": [0-9.eE+-]+'), b'"seconds": <seconds>', "strategy --dealer's time taken (JSON)"),
)


@dataclass(frozen=True)
class Case:
    """One run of the command. ``writes``: the files it writes (relative to
    its working folder); ``given``: files made there before it runs (name,
    text); ``stdout``: ``xlsx`` or ``parquet`` when standard output is that
    binary format (compared as a written file of it is); ``process``: run as
    a real process; ``environment``: variables set (a value) or unset (None)
    on top of :data:`ENVIRONMENT`."""

    name: str
    argv: tuple[str, ...]
    stdin: str | None = None
    writes: tuple[str, ...] = ()
    given: tuple[tuple[str, str], ...] = ()
    stdout: str = "text"
    process: bool = False
    environment: tuple[tuple[str, str | None], ...] = ()

    @property
    def command_line(self) -> str:
        return shlex.join(["fivecard", *self.argv])


def case(
    name: str,
    *argv: str,
    stdin: str | None = None,
    writes: tuple[str, ...] = (),
    given: tuple[tuple[str, str], ...] = (),
    stdout: str = "text",
    process: bool = False,
    environment: tuple[tuple[str, str | None], ...] = (),
) -> Case:
    return Case(name, argv, stdin, writes, given, stdout, process, environment)


def in_locale(locale: str) -> tuple[tuple[str, str | None], ...]:
    """The environment of a user whose locale is ``locale`` (``LANG``, no
    ``LC_ALL``)."""
    return (("LC_ALL", None), ("LC_MESSAGES", None), ("LANGUAGE", None), ("LANG", locale))


#: The languages besides English, each with a locale that asks for it.
LOCALES = {"ja": "ja_JP.UTF-8", "ru": "ru_RU.UTF-8"}


# --- the inputs the cases give ------------------------------------------------

#: Video poker's Joker Poker (kings or better, 20/7/5): a pay table of the
#: one-joker deck, natural and wild royal flushes paid apart.
JOKER_POKER = json.dumps(
    {
        "name": "Joker Poker Kings or Better 20/7/5",
        "rules": "one-joker",
        "min_pair": "K",
        "pays": {
            "natural_royal_flush": 800,
            "five_of_a_kind": 200,
            "wild_royal_flush": 100,
            "straight_flush": 50,
            "four_of_a_kind": 20,
            "full_house": 7,
            "flush": 5,
            "straight": 3,
            "three_of_a_kind": 2,
            "two_pair": 1,
            "one_pair": 1,
        },
    },
    indent=2,
)
#: A pay table of the JSON form advise and strategy read.
TENS_OR_BETTER = json.dumps(
    {
        "name": "Tens or Better",
        "pays": {
            "royal_flush": 800,
            "straight_flush": 50,
            "four_of_a_kind": 25,
            "full_house": 6,
            "flush": 5,
            "straight": 4,
            "three_of_a_kind": 3,
            "two_pair": 2,
            "one_pair": 1,
        },
        "min_pair": "10",
    },
    indent=2,
)
#: A table saved between tabs: a header, a label column and two hand columns.
TSV_TABLE = (
    "Deal\tNorth\tSouth\n"
    "1\tAS KS QS JS TS\t9H 9D 9S 9C 2D\n"
    "2\t7H 7D 4C 4S 2H\t7S 7C 4H 4D 2C\n"
    "3\t2H 3D 4S 5C 6H\tAH 2S 3C 4D 5D\n"
)
#: Showdowns written as text: separators |, ;, a tab and 'vs', a line of
#: ten cards, a comment, a blank line, a lone hand and a bad row.
TEXT_SHOWDOWNS = (
    "# separators\n"
    "AS KS QS JS TS | 9H 9D 9S 9C 2D\n"
    "7H 7D 4C 4S 2H ; 7S 7C 4H 4D 2C\n"
    "2H 3D 4S 5C 6H\tAH 2S 3C 4D 5D\n"
    "QC QD 3S 3H 8C vs QH QS 3D 3C 9C\n"
    "\n"
    "5H 5C 6S 7S KD 2C 3S 8S 8D 3D\n"
    "KH KD KS 2C 2D\n"
    "AH AH KS 2C 2D | 3H 3D 4S 5C 6H\n"
)
#: Two decks: the same card in both hands.
TWO_DECKS = "AS AH KD KC 2S | AS AH KD KC 2D\nAS AS AS KD 2C | AH AD AC KS 2H\n"
#: A marked file's columns under other headers, named with --answers.
ANSWERS_OTHER_HEADERS = (
    "Hand A,Hand B,First,Second,Who\n"
    "AD KD QD JD TD,QC TC 7C 6C 4C,Royal Flush,Flush,1\n"
    "QC TC 7C 6C 4C,QD TD 7D 5D 4D,Flush,Flush,2\n"
    "TD TH 4H 4C 3S,TS TC 4S 4D 3H,2,3,draw\n"
    "JH JC 4C 4S 9H,XX KD 8C 7D 2S,One Pair,One Pair,1\n"
)
#: A marked file's answer columns under headers that do not say what they hold.
ANSWERS_BY_CELLS = (
    "Player 1,Player 2,Player 1 hand,Player 2 hand,Winner\n"
    "AD KD QD JD TD,QC TC 7C 6C 4C,Royal Flush,Flush,Player 1\n"
    "QC TC 7C 6C 4C,QD TD 7D 5D 4D,Flush,Flush,Player 2\n"
    "TD TH 4H 4C 3S,TS TC 4S 4D 3H,Two Pair,Two Pair,draw\n"
)

STUD_HANDS = "AsKsQsJsTs9s2d\n\n2c 3d 4h 5s 7c 8d\n7h7d7s7c2d3d\n"
#: Keystrokes of a scripted game: a hint, a hold, the next round, keep all,
#: an answer that is no answer, then quit in the middle of a round.
#: The first round's cards (you, the two computers, the dealer, then the
#: draws); its first 20 leave no card to draw.
STACKED_DECK = "AS AH AD AC KS 2C 3C 4C 5C 7D 9H TH JH QH 8D 2S 3S 4S 5S 7C 6H 6D 6C 6S 8C 8H 8S 9C 9S 9D"
PLAY_KEYS = "h\n1 2\n\na\n\nx\nf\n\nq\n"


# --- the cases -----------------------------------------------------------------

#: The commands of ``fivecard --help``, each with a case of its --help.
COMMANDS = (
    "classify", "compare", "solve", "mark", "deal", "stats", "grid",
    "advise", "strategy", "play", "serve", "rules", "completion",
)

CASES: tuple[Case, ...] = (
    # the program
    case("help", "--help"),
    case("bare"),
    case("version", "--version", process=True),
    case("usage-error-no-hand", "classify"),
    case("usage-error-unknown-command", "shuffle"),
    case("usage-error-unknown-option", "compare", "--frobnicate", "AS KS QS JS TS"),
    *(case(f"help-{name}", name, "--help") for name in COMMANDS),
    # classify
    case("classify-text", "classify", "AS KS QS JS TS", "KD, 9C, 4H, KS, 9D", "A♥ 2♥ 3♠ 4♥ 5♣", "10♦ 10♣ 4♠ 4♦ 3♥"),
    case("classify-json", "classify", "--json", "AS KS QS JS TS", "KD, 9C, 4H, KS, 9D", "2c 3d 4h 5s 7c"),
    case("classify-color", "classify", "--color", "always", "AH KH QH JH TH", "2c 3d 4h 5s 7c"),
    case("classify-stdin", "classify", "-", stdin="8C TS KC 9H 4S\n\nA♥ 2♥ 3♠ 4♥ 5♣\r\n7d 7h 7s 2c 2d\n"),
    case("classify-stdin-process", "classify", "-", stdin="8C TS KC 9H 4S\nA♥ 2♥ 3♠ 4♥ 5♣\n", process=True),
    case("classify-best-five", "classify", "--best-five", "AS KS QS JS TS 9S 2D", "2c 3d 4h 5s 7c 8d"),
    case("classify-best-five-stdin-json", "classify", "--best-five", "--json", "-", stdin=STUD_HANDS),
    case("classify-standard", "classify", "--rules", "standard", "9H 9D 9S 9C 2D"),
    case("classify-ace-king", "classify", "--rules", "ace-king", "AS KD 8C 7H 3S", "AS KS QS JS TS"),
    case("classify-russian-json", "classify", "--json", "--rules", "russian", "AS KD 8C 7H 3S"),
    case("classify-semi", "classify", "--rules", "semi", "Q, Q, Q, Q, 9", "A K Q J 10", "7 7 3 3 2"),
    case("classify-joker-json", "classify", "--json", "--rules", "joker", "JK 2D 3S 4S 5S", "AS KS QS JS TS"),
    case("classify-joker", "classify", "--rules", "joker", "JK 7H 7D 7S 7C", "JK AS KD 8C 3H"),
    case("classify-one-joker", "classify", "--rules", "one-joker", "JK 7H 7D 7S 7C", "JK AS KD 8C 3H", "AH KH QH JK TH"),
    case("classify-short-deck", "classify", "--rules", "short-deck", "AS 6D 7C 8H 9S", "AH QH 9H 7H 6H", "KS KD KC 7S 7D"),
    case("classify-deuces-wild", "classify", "--rules", "deuces-wild", "2H 2D 7C 8S 9S", "2C AS AH AD AC", "2S 2C 2H 2D AS"),
    case("classify-one-eyed-jacks-json", "classify", "--json", "--rules", "one-eyed-jacks", "JS JH AS AD 4C", "KH KS QD 9C 3D"),
    case("classify-ace-to-five", "classify", "--rules", "ace-to-five", "AS 2H 3C 4D 5S", "7S 5H 4C 3D 2S", "KS KH 9D 7C 2S"),
    case("classify-deuce-to-seven-json", "classify", "--json", "--rules", "deuce-to-seven", "7S 5H 4C 3D 2S", "AS 2H 3C 4D 5S"),
    case("classify-wild-cards", "classify", "--wild", "JS JH", "JS JH AS AD 4C", "JH 9S TS QS KS"),
    case("classify-wild-rank-json", "classify", "--json", "--wild", "2", "2S 2C AH AD 4C"),
    case("classify-bad-card", "classify", "AS KS QS JS 1S"),
    case("classify-bad-card-process", "classify", "AS KS QS JS 1S", process=True),
    case("classify-unknown-rules", "classify", "--rules", "texas", "AS KS QS JS TS"),
    case("classify-color-with-json", "classify", "--json", "--color", "never", "AS KS QS JS TS"),
    case("classify-unquoted", "classify", "AS", "KS", "QS", "JS", "TS"),
    case("classify-unquoted-two-hands", "classify", "AS", "KS", "QS", "JS", "TS", "9H", "9D", "9S", "9C", "2D"),
    # compare
    case("compare-text", "compare", "8C TS KC 9H 4S", "7D 2S 5D 3S AC"),
    case("compare-json-split", "compare", "--json", "10D 10H 4H 4C 3S", "2c 3c 5d 7s 9s", "10S 10C 4S 4D 3H"),
    case("compare-color", "compare", "--color", "always", "AH AD KC 7S 2H", "AS AC QD JD 9H"),
    case("compare-board", "compare", "--board", "AS KS 7D 2C 9H", "QS JS", "7C 7H"),
    case("compare-board-json", "compare", "--json", "--board", "AS KS 7D", "QS JS", "7C 7H", "2D 2H"),
    case("compare-best-five", "compare", "--best-five", "AsKsQsJsTs9s2d", "2c 3d 4h 5s 7c 8d 9h"),
    case("compare-decks", "compare", "--decks", "2", "AS AH KD KC 2S", "AS AH KD KC 2D"),
    case("compare-shared-card", "compare", "AS AH KD KC 2S", "AS 3H 3D 3C 2D"),
    case("compare-stdin", "compare", "-", stdin="QC QD 3S 3H 8C\nQH QS 3D 3C 9C\n"),
    case("compare-semi-json", "compare", "--json", "--rules", "semi-poker", "Q Q Q Q 9", "Q Q Q Q 5"),
    case("compare-joker", "compare", "--rules", "joker", "JK 7H 7D 7S 7C", "AS KS QS JS TS"),
    case("compare-one-joker", "compare", "--rules", "one-joker", "AS KS QS JS TS", "AH KH QH JK TH"),
    case("compare-short-deck", "compare", "--rules", "short-deck", "AH QH 9H 7H 6H", "KS KD KC 7S 7D"),
    case("compare-ace-to-five", "compare", "--rules", "ace-to-five", "AS 2H 3C 4D 5S", "7S 5H 4C 3D 2S"),
    case("compare-deuce-to-seven", "compare", "--rules", "deuce-to-seven", "AS 2H 3C 4D 5S", "7S 5H 4C 3D 2S"),
    case("compare-deuces-wild", "compare", "--rules", "deuces-wild", "2H 2D 7C 8S 9S", "AS AH AD AC KS"),
    case("compare-one-eyed-jacks", "compare", "--rules", "one-eyed-jacks", "JS QS KS AS 3D", "JH JD JC 4C 4D"),
    case("compare-ace-king", "compare", "--rules", "ace-king", "AS KD 8C 7H 3S", "QS QD 8S 7D 3C"),
    case("compare-wild", "compare", "--wild", "JS JH", "JS 9H 9D 9C 4S", "AS AH AD AC KS"),
    case("compare-unquoted", "compare", "8C", "TS", "KC", "9H", "4S", "7D", "2S", "5D", "3S", "AC"),
    # solve: every file of examples/, every output format, its options
    case("solve-showdowns-csv", "solve", "examples/showdowns.csv"),
    case("solve-showdowns-csv-to-csv", "solve", "examples/showdowns.csv", "-o", "answers.csv", writes=("answers.csv",)),
    case("solve-showdowns-csv-hands-bom", "solve", "examples/showdowns.csv", "--hands", "B,C", "--bom", "-o", "answers.csv",
         writes=("answers.csv",)),
    case("solve-showdowns-csv-strict", "solve", "examples/showdowns.csv", "--strict", "-o", "answers.csv"),
    case("solve-showdowns-csv-color", "solve", "--color", "always", "examples/showdowns.csv", "--hands", "Player 1,Player 3"),
    case("solve-rulebook", "solve", "examples/rulebook-showdowns.txt"),
    case("solve-rulebook-xlsx", "solve", "examples/rulebook-showdowns.txt", "-o", "answers.xlsx", writes=("answers.xlsx",)),
    case("solve-rulebook-parquet", "solve", "examples/rulebook-showdowns.txt", "-o", "answers.parquet",
         writes=("answers.parquet",)),
    case("solve-rulebook-jsonl", "solve", "examples/rulebook-showdowns.txt", "-o", "answers.jsonl", writes=("answers.jsonl",)),
    case("solve-rulebook-json-joker", "solve", "--json", "--rules", "joker", "examples/rulebook-showdowns.txt"),
    case("solve-rulebook-semi", "solve", "--rules", "semi", "examples/rulebook-showdowns.txt", "--workers", "1"),
    case("solve-rulebook-deuce-to-seven-csv", "solve", "--rules", "deuce-to-seven", "examples/rulebook-showdowns.txt",
         "--format", "csv"),
    case("solve-stud", "solve", "examples/stud.txt", "--best-five"),
    case("solve-stud-csv", "solve", "examples/stud.txt", "--best-five", "-o", "stud.csv", writes=("stud.csv",)),
    case("solve-stud-json-short-deck", "solve", "--json", "--rules", "short-deck", "examples/stud.txt", "--best-five"),
    case("solve-answered-csv", "solve", "examples/answered.csv"),
    case("solve-answered-xlsx", "solve", "examples/answered.xlsx"),
    case("solve-answered-xlsx-to-xlsx", "solve", "examples/answered.xlsx", "--sheet", "Answers", "-o", "answers.xlsx",
         writes=("answers.xlsx",)),
    case("solve-answered-xlsx-to-csv", "solve", "examples/answered.xlsx", "--hands", "B,C", "-o", "answers.csv",
         writes=("answers.csv",)),
    case("solve-answered-xlsx-bad-sheet", "solve", "examples/answered.xlsx", "--sheet", "Nope"),
    case("solve-stdin", "solve", "-", stdin=TEXT_SHOWDOWNS),
    case("solve-stdin-csv-json", "solve", "-", "--input-format", "csv", "--json",
         stdin=(EXAMPLES / "showdowns.csv").read_text(encoding="utf-8")),
    case("solve-text-ace-to-five", "solve", "--rules", "ace-to-five", "showdowns.txt", given=(("showdowns.txt", TEXT_SHOWDOWNS),)),
    case("solve-tsv", "solve", "table.tsv", given=(("table.tsv", TSV_TABLE),)),
    case("solve-tabs-as-text-to-csv", "solve", "table.txt", "-o", "table-answers.csv", given=(("table.txt", TSV_TABLE),),
         writes=("table-answers.csv",)),
    case("solve-tabs-input-format-text", "solve", "table.tsv", "--input-format", "text", given=(("table.tsv", TSV_TABLE),)),
    case("solve-decks", "solve", "--decks", "2", "two-decks.txt", given=(("two-decks.txt", TWO_DECKS),)),
    case("solve-wild", "solve", "--wild", "JS JH", "showdowns.txt", "--format", "jsonl",
         given=(("showdowns.txt", TEXT_SHOWDOWNS),)),
    case("solve-deuces-wild", "solve", "--rules", "deuces-wild", "examples/showdowns.csv"),
    case("solve-one-eyed-jacks", "solve", "--rules", "one-eyed-jacks", "examples/rulebook-showdowns.txt"),
    case("solve-ace-king", "solve", "--rules", "ace-king", "examples/answered.csv", "--format", "text"),
    case("solve-stdout-xlsx", "solve", "examples/showdowns.csv", "--format", "xlsx", stdout="xlsx"),
    case("solve-stdout-xlsx-process", "solve", "examples/answered.csv", "--format", "xlsx", stdout="xlsx", process=True),
    case("solve-stdout-parquet", "solve", "examples/showdowns.csv", "--format", "parquet", stdout="parquet"),
    case("solve-over-its-input", "solve", "examples/showdowns.csv", "-o", "examples/showdowns.csv"),
    case("solve-missing-file", "solve", "no-such-file.csv"),
    # mark: examples/answered.csv and examples/answered.xlsx
    case("mark-answered-csv", "mark", "examples/answered.csv"),
    case("mark-answered-xlsx", "mark", "examples/answered.xlsx"),
    case("mark-answered-csv-json", "mark", "examples/answered.csv", "--json"),
    case("mark-answered-xlsx-json-semi", "mark", "examples/answered.xlsx", "--json", "--rules", "semi"),
    case("mark-answered-xlsx-to-xlsx", "mark", "examples/answered.xlsx", "-o", "marked.xlsx", writes=("marked.xlsx",)),
    case("mark-answered-xlsx-to-csv", "mark", "examples/answered.xlsx", "--sheet", "Answers", "-o", "marked.csv",
         writes=("marked.csv",)),
    case("mark-answered-csv-to-csv", "mark", "examples/answered.csv", "--answers", "D,E,F", "-o", "marked.csv",
         writes=("marked.csv",)),
    case("mark-answered-csv-to-xlsx-refused", "mark", "examples/answered.csv", "-o", "marked.xlsx"),
    case("mark-stdin", "mark", "-", stdin=(EXAMPLES / "answered.csv").read_text(encoding="utf-8")),
    case("mark-other-headers", "mark", "other.csv", "--answers", "First,Second,Who", "--hands", "Hand A,Hand B",
         given=(("other.csv", ANSWERS_OTHER_HEADERS),)),
    case("mark-wild", "mark", "--wild", "2", "examples/answered.csv"),
    case("mark-fail-on-wrong", "mark", "--fail-on-wrong", "examples/answered.csv"),
    case("mark-answers-by-cells", "mark", "by-cells.csv", given=(("by-cells.csv", ANSWERS_BY_CELLS),)),
    # deal: seeded
    case("deal-seed", "deal", "--seed", "7"),
    case("deal-players-rounds", "deal", "--players", "4", "--rounds", "3", "--seed", "1"),
    case("deal-json", "deal", "--json", "--players", "3", "--seed", "1"),
    case("deal-json-rounds", "deal", "--json", "--rounds", "2", "--seed", "5", "--rules", "ace-to-five"),
    case("deal-color", "deal", "--color", "always", "--seed", "2"),
    case("deal-joker", "deal", "--rules", "joker", "--seed", "7", "--players", "5"),
    case("deal-one-joker", "deal", "--rules", "one-joker", "--seed", "8", "--players", "6"),
    case("deal-semi", "deal", "--rules", "semi", "--seed", "3", "--rounds", "3"),
    case("deal-short-deck", "deal", "--rules", "short-deck", "--seed", "4", "--players", "7"),
    case("deal-deuces-wild", "deal", "--rules", "deuces-wild", "--seed", "9", "--players", "10"),
    case("deal-one-eyed-jacks", "deal", "--rules", "one-eyed-jacks", "--seed", "11", "--players", "3"),
    case("deal-deuce-to-seven", "deal", "--rules", "deuce-to-seven", "--seed", "12", "--players", "3"),
    case("deal-ace-king", "deal", "--rules", "ace-king", "--seed", "13", "--players", "1"),
    case("deal-wild", "deal", "--wild", "JS JH 2C", "--seed", "14", "--players", "4"),
    case("deal-too-many-players", "deal", "--players", "11", "--seed", "1"),
    case("deal-names", "deal", "--names", "Ann,Bob Lee,Cy", "--rounds", "2", "--seed", "1"),
    case("deal-names-json", "deal", "--json", "--names", "Ann,Bob", "--seed", "1"),
    case("deal-chat", "deal", "--chat", "--names", "Ann,Bob,Cy", "--rounds", "3", "--seed", "6"),
    case("deal-chat-numbered", "deal", "--chat", "--rules", "joker", "--players", "4", "--seed", "7"),
    case("deal-names-taken", "deal", "--names", "Ann,ANN", "--seed", "1"),
    # stats
    case("stats", "stats"),
    case("stats-json", "stats", "--json"),
    case("stats-ace-king", "stats", "--rules", "ace-king"),
    case("stats-semi-json", "stats", "--json", "--rules", "semi"),
    case("stats-joker", "stats", "--rules", "joker"),
    case("stats-one-joker", "stats", "--rules", "one-joker"),
    case("stats-short-deck-seven", "stats", "--cards", "7", "--rules", "short-deck"),
    case("stats-short-deck-six-json", "stats", "--cards", "6", "--rules", "short-deck", "--json"),
    case("stats-deuces-wild", "stats", "--rules", "deuces-wild"),
    case("stats-one-eyed-jacks", "stats", "--rules", "one-eyed-jacks"),
    case("stats-ace-to-five", "stats", "--rules", "ace-to-five"),
    case("stats-deuce-to-seven", "stats", "--rules", "deuce-to-seven"),
    case("stats-wild", "stats", "--wild", "2"),
    # grid
    case("grid", "grid"),
    case("grid-xlsx", "grid", "-o", "grid.xlsx", writes=("grid.xlsx",)),
    case("grid-csv", "grid", "-o", "grid.csv", writes=("grid.csv",)),
    case("grid-csv-no-answers", "grid", "-o", "grid.csv", "--no-answers", writes=("grid.csv",)),
    case("grid-xlsx-no-answers-semi", "grid", "--rules", "semi", "-o", "grid.xlsx", "--no-answers", writes=("grid.xlsx",)),
    case("grid-no-answers", "grid", "--no-answers", "--rules", "ace-to-five"),
    case("grid-deuces-wild", "grid", "--rules", "deuces-wild"),
    case("grid-wild", "grid", "--wild", "JS JH", "-o", "grid.csv", writes=("grid.csv",)),
    # advise
    case("advise", "advise", "AS AH 7C 4D 2S"),
    case("advise-json", "advise", "--json", "AS AH 7C 4D 2S"),
    case("advise-all-joker", "advise", "--all", "--rules", "joker", "JK 9S TS 4D 2C"),
    case("advise-color", "advise", "--color", "always", "KH QH JH 4D 2S"),
    case("advise-paytable", "advise", "--paytable", "jacks-or-better", "JH JD 7C 4S 2S"),
    case("advise-paytable-json", "advise", "--json", "--paytable", "jacks-or-better", "TH JH QH KH 2S"),
    case("advise-paytable-low-pair", "advise", "--paytable", "jacks-or-better", "7H 7D KC 4S 2S"),
    case("advise-paytable-deuces-wild", "advise", "--paytable", "deuces-wild", "2H 2D 7C 8S 9S"),  # its rules implied
    case("advise-paytable-file", "advise", "--paytable", "tens.json", "TH TD 7C 4S 2S", given=(("tens.json", TENS_OR_BETTER),)),
    case("advise-short-deck", "advise", "--rules", "short-deck", "AS AH 7C 8D 9S"),
    case("advise-semi", "advise", "--rules", "semi", "A A 7 8 9"),
    case("advise-ace-to-five", "advise", "--rules", "ace-to-five", "AS 2H 3C 8D KS"),
    case("advise-deuce-to-seven-json", "advise", "--json", "--rules", "deuce-to-seven", "7S 5H 4C 3D KS"),
    case("advise-one-eyed-jacks", "advise", "--rules", "one-eyed-jacks", "JS 9S TS 4D 2C"),
    case("advise-paytable-one-joker", "advise", "--paytable", "joker-poker.json", "JK KH 7C 4S 2S",
         given=(("joker-poker.json", JOKER_POKER),)),  # its rules implied
    case("advise-ace-king", "advise", "--rules", "ace-king", "AS KD 8C 7H 3S"),
    case("advise-wild", "advise", "--wild", "JS JH", "JS 9S TS 4D 2C"),
    case("advise-json-all", "advise", "--json", "--all", "AS AH 7C 4D 2S"),
    case("advise-paytable-lowball", "advise", "--paytable", "jacks-or-better", "--rules", "ace-to-five", "AS 2H 3C 8D KS"),
    # strategy: the quick ones (short-deck's 376,992 deals)
    case("strategy-paytable", "strategy", "--paytable", "jacks-or-better", "--rules", "short-deck"),
    case("strategy-paytable-json-holds", "strategy", "--json", "--paytable", "jacks-or-better", "--rules", "short-deck",
         "--holds", "5"),
    case("strategy-paytable-holds-csv", "strategy", "--paytable", "jacks-or-better", "--rules", "short-deck", "--holds", "10",
         "-o", "strategy.csv", writes=("strategy.csv",)),
    case("strategy-paytable-file-parquet", "strategy", "--paytable", "tens.json", "--rules", "short-deck",
         "-o", "strategy.parquet", "--no-progress", given=(("tens.json", TENS_OR_BETTER),), writes=("strategy.parquet",)),
    case("strategy-dealer", "strategy", "--dealer", "--rules", "short-deck", "--workers", "0", "--holds", "8",
         "-o", "dealer.csv", writes=("dealer.csv",)),
    case("strategy-dealer-json", "strategy", "--json", "--dealer", "--rules", "short-deck", "--workers", "0",
         "--holds", "3", "-o", "dealer.parquet", writes=("dealer.parquet",)),
    case("strategy-paytable-semi-refused", "strategy", "--paytable", "jacks-or-better", "--rules", "semi"),
    case("strategy-paytable-one-joker", "strategy", "--paytable", "joker-poker.json", "--holds", "8",
         given=(("joker-poker.json", JOKER_POKER),)),  # 2,869,685 deals: seconds
    # play: scripted games
    case("play", "play", "--seed", "1", stdin=PLAY_KEYS),
    case("play-semi-end-of-input", "play", "--rules", "semi", "--seed", "2", stdin="f\n"),
    case("play-joker-fold-below", "play", "--rules", "joker", "--fold-below", "0.5", "--seed", "3", stdin="n\n\n2 3\nq\n"),
    case("play-deck", "play", "--deck", STACKED_DECK, "--seed", "4", stdin="1 2 3 4\n\nq\n"),
    case("play-deck-runs-out", "play", "--deck", STACKED_DECK[:59], "--seed", "4", stdin="1 2 3 4\nq\n"),
    case("play-color", "play", "--color", "always", "--rules", "deuces-wild", "--seed", "5", stdin="h\nh\na\nq\n"),
    case("play-short-deck", "play", "--rules", "short-deck", "--seed", "6", stdin="1\n\n1 2\nq\n"),
    case("play-wild", "play", "--wild", "2", "--seed", "7", stdin="a\nq\n"),
    case("play-trainer", "play", "--trainer", "--seed", "1", stdin="1\n\na\nq\n"),
    case("play-bad-fold-below", "play", "--fold-below", "2"),
    # play --paytable: a machine session, the trainer on (a hint, a bad answer, two hands, q mid-hand)
    case("play-paytable-trainer", "play", "--paytable", "jacks-or-better", "--trainer", "--seed", "1",
         stdin="\nh\n1 2\n\nx\n1 5\n\nq\n"),
    case("play-paytable-deuces-wild-coins", "play", "--paytable", "deuces-wild", "--coins", "1", "--seed", "2",
         stdin="\na\n"),
    case("play-paytable-fold-below-refused", "play", "--paytable", "jacks-or-better", "--fold-below", "0.5"),
    # rules and completion
    case("rules", "rules"),
    case("rules-json", "rules", "--json"),
    case("completion-bash", "completion", "bash"),
    case("completion-zsh", "completion", "zsh"),
    case("completion-fish", "completion", "fish"),
    case("completion-unknown-shell", "completion", "tcsh"),
    # other languages: the user's locale (LANG), or --lang
    *(
        one
        for code, locale in LOCALES.items()
        for one in (
            case(f"lang-{code}-classify", "classify", "AS KS QS JS TS", "KD, 9C, 4H, KS, 9D", "2c 3d 4h 5s 7c",
                 environment=in_locale(locale)),
            case(f"lang-{code}-classify-json", "classify", "--json", "--lang", code, "KD 9C 4H KS 9D", "JK 7H 7D 7S 7C",
                 "--rules", "joker"),
            case(f"lang-{code}-classify-stdin-wild", "classify", "--rules", "deuces-wild", "-",
                 stdin="2H 2D KS KC 5D\nAS KS QS JS TS\n7C 7D 2S 4H 9S\n", environment=in_locale(locale)),
            case(f"lang-{code}-compare", "compare", "8C TS KC 9H 4S", "7D 2S 5D 3S AC", "AH KD QC 4S 2D",
                 environment=in_locale(locale)),
            case(f"lang-{code}-compare-board", "compare", "--lang", code, "--board", "AS KS 7D 7C 2H", "QS JS",
                 "7H 2S"),
            case(f"lang-{code}-compare-json", "compare", "--json", "--lang", code, "10D 10H 4H 4C 3S",
                 "10S 10C 4S 4D 3H"),
            case(f"lang-{code}-deal", "deal", "--players", "3", "--rounds", "2", "--seed", "1",
                 environment=in_locale(locale)),
            case(f"lang-{code}-deal-chat", "deal", "--chat", "--names", "Ann,Bob", "--seed", "6", "--lang", code),
            case(f"lang-{code}-solve", "solve", "examples/rulebook-showdowns.txt", environment=in_locale(locale)),
            case(f"lang-{code}-solve-csv", "solve", "--lang", code, "examples/showdowns.csv", "-o", "answers.csv",
                 writes=("answers.csv",)),
            case(f"lang-{code}-solve-jsonl", "solve", "--lang", code, "examples/rulebook-showdowns.txt", "-o",
                 "answers.jsonl", writes=("answers.jsonl",)),
            case(f"lang-{code}-solve-xlsx", "solve", "--lang", code, "examples/rulebook-showdowns.txt", "-o",
                 "answers.xlsx", writes=("answers.xlsx",)),
            case(f"lang-{code}-bad-card", "classify", "AS KS QS JS 1S", environment=in_locale(locale)),
            case(f"lang-{code}-stats", "stats", environment=in_locale(locale)),
            case(f"lang-{code}-stats-ace-king", "stats", "--lang", code, "--rules", "ace-king"),
            case(f"lang-{code}-advise", "advise", "AS KD 7C 7H 2S", environment=in_locale(locale)),
            case(f"lang-{code}-advise-paytable", "advise", "--lang", code, "--paytable", "jacks-or-better-9-6",
                 "--json", "AS KD 7C 7H 2S"),
        )
    ),
    case("lang-unknown", "classify", "--lang", "fr", "AS KS QS JS TS"),
    case("lang-beats-locale", "compare", "--lang", "ru", "8C TS KC 9H 4S", "7D 2S 5D 3S AC",
         environment=in_locale(LOCALES["ja"])),
    case("lang-process", "compare", "8C TS KC 9H 4S", "7D 2S 5D 3S AC", process=True,
         environment=in_locale(LOCALES["ru"])),
)


# --- running a case -------------------------------------------------------------


class _Bytes(io.BytesIO):
    """A byte stream that keeps its bytes when closed."""

    def close(self) -> None:
        pass


def _text_stream(data: bytes = b"") -> tuple[io.TextIOWrapper, _Bytes]:
    """A text stream over bytes, as a process's standard streams are."""
    raw = _Bytes(data)
    return io.TextIOWrapper(raw, encoding="utf-8", errors="backslashreplace"), raw


@dataclass
class Ran:
    """What a run gave: the exit code, its streams' bytes and the files."""

    code: int
    stdout: bytes
    stderr: bytes
    files: dict[str, bytes] = field(default_factory=dict)


def _snapshot_folder(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def run_case(item: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Ran:
    """Run ``item`` in a fresh working folder; the files it wrote (new or
    changed) are checked against its ``writes`` and returned."""
    work, cache, temp, home = (tmp_path / name for name in ("work", "cache", "temp", "home"))
    shutil.copytree(EXAMPLES, work / "examples")
    for name, text in item.given:
        (work / name).write_bytes(text.encode("utf-8"))
    for folder in (cache, temp, home):
        folder.mkdir()
    before = _snapshot_folder(work)
    stdin = (item.stdin or "").encode("utf-8")
    if item.process:
        environment = {
            **ENVIRONMENT,
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "PYTHONPATH": str(Path(fivecard.__file__).resolve().parent.parent),
            "FIVECARD_CACHE": str(cache),
            "TMPDIR": str(temp),
        }
        for name, value in item.environment:
            if value is None:
                environment.pop(name, None)
            else:
                environment[name] = value
        done = subprocess.run(
            [sys.executable, "-m", "fivecard", *item.argv],
            input=stdin, capture_output=True, cwd=work, env=environment, check=False, timeout=120,
        )
        ran = Ran(done.returncode, done.stdout, done.stderr)
    else:
        for name, value in ENVIRONMENT.items():
            monkeypatch.setenv(name, value)
        for name, setting in item.environment:
            if setting is None:
                monkeypatch.delenv(name, raising=False)
            else:
                monkeypatch.setenv(name, setting)
        monkeypatch.setenv("FIVECARD_CACHE", str(cache))
        monkeypatch.setattr(tempfile, "tempdir", str(temp))
        monkeypatch.chdir(work)
        source, _ = _text_stream(stdin)
        out, out_bytes = _text_stream()
        err, err_bytes = _text_stream()
        time.tzset()
        try:
            code = main(list(item.argv), stdin=source, stdout=out, stderr=err)
        finally:
            monkeypatch.undo()
            time.tzset()
        for stream in (out, err):
            if not stream.closed:
                stream.flush()
        ran = Ran(code, out_bytes.getvalue(), err_bytes.getvalue())
    after = _snapshot_folder(work)
    written = sorted(name for name, data in after.items() if before.get(name) != data)
    removed = sorted(set(before) - set(after))
    left = sorted(_snapshot_folder(temp))
    assert (written, removed, left) == (sorted(item.writes), [], []), (
        f"{item.command_line}: wrote {written}, removed {removed}, left in the temporary folder {left}; "
        f"the case says it writes {sorted(item.writes)}"
    )
    ran.files = {name: after[name] for name in item.writes}
    return ran


# --- what is compared ------------------------------------------------------------


def normalised(data: bytes) -> bytes:
    for pattern, replacement, _ in NORMALISED:
        data = pattern.sub(replacement, data)
    return data


def workbook_cells(data: bytes) -> bytes:
    """A workbook as text: each sheet's name (in order), frozen panes and
    column widths, then each cell that holds something or is styled: its
    value (repr: the type shows), formula, number format, bold, fill and
    comment."""
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(data))
    lines: list[str] = []
    for sheet in book.worksheets:
        lines.append(f"sheet {sheet.title!r}: {sheet.dimensions}, frozen at {sheet.freeze_panes}")
        widths = [f"{letter} {dim.width:g}" for letter, dim in sorted(sheet.column_dimensions.items()) if dim.customWidth]
        if widths:
            lines.append("  column widths: " + ", ".join(widths))
        for row in sheet.iter_rows():
            for cell in row:
                notes = []
                if cell.data_type == "f":
                    notes.append("formula")
                if cell.number_format != "General":
                    notes.append(f"format {cell.number_format!r}")
                if cell.font is not None and cell.font.b:
                    notes.append("bold")
                if cell.fill is not None and cell.fill.fill_type:
                    notes.append(f"fill {cell.fill.fill_type} {cell.fill.fgColor.rgb}")
                if cell.comment is not None:
                    notes.append(f"comment {cell.comment.text!r} by {cell.comment.author!r}")
                if cell.value is None and not notes:
                    continue
                lines.append(f"  {cell.coordinate} {cell.value!r}" + "".join(f"; {note}" for note in notes))
    return "".join(line + "\n" for line in lines).encode("utf-8")


def parquet_rows(data: bytes) -> bytes:
    """A Parquet file as text: its schema (with the schema's own metadata),
    then each row as JSON."""
    import pyarrow.parquet as pq

    table = pq.read_table(io.BytesIO(data))
    lines = [table.schema.to_string(show_schema_metadata=True), f"{table.num_rows} rows:"]
    lines += [json.dumps(row, ensure_ascii=False, default=repr) for row in table.to_pylist()]
    return "".join(line + "\n" for line in lines).encode("utf-8")


#: A compared form longer than this is recorded as its digest (SHA-256)
#: with its first and last lines (a strategy's table of every class of
#: starting hands is megabytes): a change still fails, with the lines shown.
DIGEST_OVER = 64 * 1024


def digested(data: bytes, head: int = 12, tail: int = 3) -> bytes:
    lines = data.splitlines(keepends=True)
    summary = f"sha256 {hashlib.sha256(data).hexdigest()} of {len(data):,} bytes, {len(lines):,} lines; the first {head} and the last {tail}:\n"
    return summary.encode("utf-8") + b"".join(lines[:head]) + b"...\n" + b"".join(lines[-tail:])


def _as_compared(name: str, data: bytes, kind: str | None = None) -> tuple[str, bytes]:
    """A section's title and bytes: a workbook or Parquet file as its
    readable form, anything else as it is (normalised); past
    :data:`DIGEST_OVER` bytes, that form's digest and first lines."""
    kind = kind or name.rsplit(".", 1)[-1]
    if kind == "xlsx":
        title, compared = f"{name} (workbook: cells)", workbook_cells(data)
    elif kind == "parquet":
        title, compared = f"{name} (Parquet: schema and rows)", parquet_rows(data)
    else:
        title, compared = name, normalised(data)
    if len(compared) > DIGEST_OVER:
        return f"{title} (digest)", digested(compared)
    return title, compared


def sections(item: Case, ran: Ran) -> list[tuple[str, bytes]]:
    """What is compared, in order: the command line and exit code, the
    standard input given, the standard streams, then each file written."""
    head = f"$ {item.command_line}\nexit code {ran.code}\n".encode("utf-8")
    found = [("command", head)]
    if item.stdin is not None:
        found.append(("stdin", item.stdin.encode("utf-8")))
    found.append(_as_compared("stdout", ran.stdout, None if item.stdout == "text" else item.stdout))
    found.append(_as_compared("stderr", ran.stderr))
    found += [_as_compared(name, data) for name, data in ran.files.items()]
    return found


_HEADER = re.compile(rb"^--- (.*): (\d+) bytes(, no newline at end)?\n", re.M)


def serialise(found: list[tuple[str, bytes]]) -> bytes:
    """The recorded file: the command section as it is, then each section
    under a header line giving its title and length (so that the file says
    exactly which bytes were written: a missing last newline too)."""
    parts = [found[0][1]]
    for title, data in found[1:]:
        ending = data == b"" or data.endswith(b"\n")
        parts.append(f"--- {title}: {len(data)} bytes{'' if ending else ', no newline at end'}\n".encode("utf-8"))
        parts.append(data if ending else data + b"\n")
    return b"".join(parts)


def parse(recorded: bytes) -> list[tuple[str, bytes]]:
    """The sections of a recorded file, split at its header lines (to show
    what differs: the comparison itself is of the whole file's bytes)."""
    found: list[tuple[str, bytes]] = []
    title, start, added = "command", 0, False
    for header in _HEADER.finditer(recorded):
        data = recorded[start:header.start()]
        found.append((title, data[:-1] if added and data.endswith(b"\n") else data))
        title, start, added = header.group(1).decode("utf-8", "replace"), header.end(), bool(header.group(3))
    data = recorded[start:]
    found.append((title, data[:-1] if added and data.endswith(b"\n") else data))
    return found


def first_difference(expected: list[tuple[str, bytes]], actual: list[tuple[str, bytes]], limit: int = 40) -> str:
    """A short unified diff of the first section that differs, and the
    titles of any others."""
    recorded, now = dict(expected), dict(actual)
    titles = [t for t, _ in actual] + [t for t, _ in expected if t not in now]
    differing = [t for t in titles if recorded.get(t) != now.get(t)]
    if not differing:
        return "the sections are the same, in another order"
    title = differing[0]

    def lines_of(data: bytes | None) -> list[str]:  # a carriage return shown, so that line endings differ visibly
        return (data or b"").decode("utf-8", "backslashreplace").replace("\r", "\\r").splitlines(keepends=True)

    old, new = lines_of(recorded.get(title)), lines_of(now.get(title))
    lines = [
        line if line.endswith("\n") else line + "\n"
        for line in difflib.unified_diff(old, new, f"recorded {title}", f"now {title}", n=2)
    ]
    if not lines:  # the same text, other bytes (a line ending, say)
        lines = [f"recorded {recorded.get(title)!r}\n", f"now      {now.get(title)!r}\n"]
    shown = "".join(lines[:limit]) + (f"... ({len(lines) - limit} more diff lines)\n" if len(lines) > limit else "")
    others = f"also differing: {', '.join(differing[1:])}\n" if differing[1:] else ""
    return f"{title} differs:\n{shown}{others}"


# --- the tests ------------------------------------------------------------------


def _recorded_path(item: Case) -> Path:
    return OUTPUTS / f"{item.name}.txt"


@pytest.mark.parametrize("item", CASES, ids=[c.name for c in CASES])
@pytest.mark.slow
def test_command_output_is_as_recorded(item: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ran = run_case(item, tmp_path, monkeypatch)
    found = sections(item, ran)
    path = _recorded_path(item)
    if RECORD:
        OUTPUTS.mkdir(exist_ok=True)
        path.write_bytes(serialise(found))
        return
    assert path.exists(), f"no recorded output for {item.name}: record it with FIVECARD_OUTPUTS=record"
    recorded = path.read_bytes()
    if recorded != serialise(found):
        pytest.fail(
            f"{item.command_line}: the output is not as recorded in {path.relative_to(ROOT)} "
            f"(if the change is intended: FIVECARD_OUTPUTS=record pytest {Path(__file__).relative_to(ROOT)})\n"
            + first_difference(parse(recorded), found),
            pytrace=False,
        )


def test_each_recording_is_of_a_case() -> None:
    """A recorded file whose case is gone is removed when recording, and an
    error otherwise; names are unique, so no case overwrites another's."""
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    stale = sorted(
        p.name for p in OUTPUTS.iterdir() if not p.name.startswith(".") and (p.suffix != ".txt" or p.stem not in names)
    )
    if RECORD:
        for name in stale:
            (OUTPUTS / name).unlink()
        return
    assert stale == []


def _listed_commands() -> list[str]:
    """The commands ``fivecard --help`` lists."""
    out, err = io.StringIO(), io.StringIO()
    assert main(["--help"], stdin=io.StringIO(""), stdout=out, stderr=err) == 0
    text = out.getvalue()
    listing = text[text.index("positional arguments:"):text.index("\noptions:")]
    return re.findall(r"^    (\S+)  ", listing, re.M)


def _options(item: Case) -> Iterator[tuple[str, str]]:
    for option, value in zip(item.argv, item.argv[1:]):
        if option.startswith("--"):
            yield option, value


def test_the_cases_cover_every_command_and_rule_set() -> None:
    """Every command of ``fivecard --help`` has its --help case and (but
    serve) a case that runs it; every rule set is used by some case, and
    a set of wild cards of the user's own too."""
    listed = _listed_commands()
    assert sorted(listed) == sorted(COMMANDS)
    run = {c.argv[0] for c in CASES if c.argv and "--help" not in c.argv}
    assert set(COMMANDS) - run == {"serve"}
    helped = {c.argv[0] for c in CASES if c.argv[1:] == ("--help",)}
    assert helped == set(COMMANDS)
    used = {fivecard.get_rules(dict(_options(c)).get("--rules", "standard")).name
            for c in CASES if c.argv and c.argv[0] in COMMANDS and "texas" not in c.argv}
    assert used == set(fivecard.rule_names())
    assert any(option == "--wild" for c in CASES for option, _ in _options(c))
