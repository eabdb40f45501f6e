"""What a command loads when it starts: the parser of the command it runs
and no other command's, and none of the modules only other commands (or
other forms of output) use. Classifying a hand is the quick command whose
start is most of its time: it must not load the dataclass machinery,
typing, pathlib, the pay tables, the shell completion, numpy or any layer
above the core."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

import fivecard
from fivecard.cli import commands  # noqa: F401  (the commands register themselves)
from fivecard.cli import registry

#: What ``fivecard classify HAND`` must not import, and why it need not.
NOT_FOR_A_HAND = {
    "dataclasses": "the core's values are plain classes (its import brings inspect, ast, dis)",
    "inspect": "dataclasses' import",
    "typing": "type names are for the type checker",
    "pathlib": "paths are os.path strings",
    "shutil": "argparse's formatters read the width from os",
    "json": "the text output is not JSON",
    "tomllib": "commands.toml is read from the cache once read",
    "tempfile": "nothing is written to the cache once it holds the tables",
    "numpy": "one hand is evaluated by the single-hand library",
    "openpyxl": "workbooks are solve's and mark's",
    "fivecard.core.showdown": "one hand is no showdown",
    "fivecard.core.seven": "five cards play as they are",
    "fivecard.core.reason": "no showdown to explain",
    "fivecard.vector": "a layer above the core",
    "fivecard.play": "a layer above the core (the pay tables' names are for advise and strategy)",
    "fivecard.files": "a layer above the core",
    "fivecard.web": "a layer above the core",
    "fivecard.cli.completion": "only the completion command makes scripts",
}

#: The two ways the command starts: the ``fivecard`` script (its wrapper
#: imports fivecard.cli and calls run) and ``python -m fivecard``.
STARTS = {
    "script": ["-c", "import sys; from fivecard.cli import run; sys.argv[0] = 'fivecard'; run()"],
    "module": ["-m", "fivecard"],
}


def imported(start: str, argv: list[str], cache: Path) -> tuple[str, list[str]]:
    """Run the command as ``start`` starts it, under ``-X importtime``: its
    standard output and every module it imported."""
    environment = {**os.environ, "FIVECARD_CACHE": str(cache)}
    environment["PYTHONPATH"] = str(Path(fivecard.__file__).resolve().parent.parent)
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *STARTS[start], *argv],
        capture_output=True, text=True, env=environment, check=True, timeout=60,
    )  # fmt: skip
    modules = [line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    return done.stdout, modules[1:]  # (the first line is the table's heading)


@pytest.mark.slow
@pytest.mark.parametrize("start", STARTS)
def test_classifying_a_hand_imports_only_what_it_uses(start: str, tmp_path: Path) -> None:
    first, _ = imported(start, ["classify", "AS KS QS JS TS"], tmp_path)  # fills the cache
    out, modules = imported(start, ["classify", "AS KS QS JS TS"], tmp_path)
    assert first == out == "A♠  K♠  Q♠  J♠  10♠ ->  A♠  K♠  Q♠  J♠  10♠ Royal Flush  (score 10, strength 7,462)\n"
    assert "fivecard.core.evaluate" in modules and "argparse" in modules  # (the list is read right)
    loaded = {name: why for name, why in NOT_FOR_A_HAND.items() for m in modules if m == name or m.startswith(name + ".")}
    assert loaded == {}


def _made(parser: argparse.ArgumentParser) -> list[str]:
    """The commands whose parsers a lazy parser has made."""
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [name for name, made in action.choices.items() if made is not None]


@pytest.mark.parametrize("name", list(registry.COMMANDS))
def test_a_command_line_makes_the_parser_of_its_command_alone(name: str) -> None:
    """Every command's --help from a parser that makes only the command a
    command line names is the whole parser's, and makes that one alone."""
    lazy, whole = registry.build_parser(lazy=True), registry.build_parser()
    assert _made(lazy) == []
    helps = []
    for parser in (lazy, whole):
        shown = io.StringIO()
        with contextlib.redirect_stdout(shown), pytest.raises(SystemExit):
            parser.parse_args([name, "--help"])
        helps.append(shown.getvalue())
    assert helps[0] == helps[1] and f"usage: fivecard {name}" in helps[0]
    assert _made(lazy) == [name]


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["nonsense"], []])
def test_the_program_s_own_help_and_errors_make_no_command_s_parser(argv: list[str]) -> None:
    lazy, whole = registry.build_parser(lazy=True), registry.build_parser()
    said = []
    for parser in (lazy, whole):
        shown = io.StringIO()
        with contextlib.redirect_stdout(shown), pytest.raises((SystemExit, registry.UsageError)) as stopped:
            parser.parse_args(argv)
        said.append((shown.getvalue(), str(stopped.value)))
    assert said[0] == said[1]
    assert _made(lazy) == []


def run_with_cache(argv: list[str], cache: str) -> tuple[int, str, str]:
    """``python -m fivecard`` with ``FIVECARD_CACHE`` set: its exit code,
    standard output and standard error."""
    environment = {**os.environ, "FIVECARD_CACHE": cache, "COLUMNS": "80"}
    environment["PYTHONPATH"] = str(Path(fivecard.__file__).resolve().parent.parent)
    done = subprocess.run(
        [sys.executable, "-m", "fivecard", *argv], capture_output=True, text=True, env=environment, timeout=60
    )
    return done.returncode, done.stdout, done.stderr


def commands_entry(cache: Path) -> Path:
    """The cache's file of commands.toml, read (filled by a command's start)."""
    run_with_cache(["--version"], str(cache))
    [entry] = cache.glob("commands-*")
    return entry


def damaged_by_truncation(cache: Path) -> None:
    entry = commands_entry(cache)
    entry.write_bytes(entry.read_bytes()[:100])


def damaged_by_a_byte(cache: Path) -> None:
    entry = commands_entry(cache)
    data = bytearray(entry.read_bytes())
    data[len(data) // 2] ^= 0xFF
    entry.write_bytes(bytes(data))


def of_another_version(cache: Path) -> None:
    """The entry kept in full, with a checksum that holds, by a fivecard of
    another version (its key names it) under the file name of this one's."""
    import marshal

    from fivecard.core import lookup_cache

    entry = commands_entry(cache)
    data = entry.read_bytes()
    (form, _, *rest), payload = marshal.loads(data[len(lookup_cache._MAGIC) + 4 :])
    payload["exit-codes"] = {}  # what this version would trip over, were it read
    body = marshal.dumps(((form, "0.0.1", *rest), payload))
    entry.write_bytes(lookup_cache._MAGIC + zlib.crc32(body).to_bytes(4, "little") + body)


def a_file(cache: Path) -> None:
    cache.write_text("in the way")


def a_folder_at_the_entry(cache: Path) -> None:
    entry = commands_entry(cache)
    entry.unlink()
    entry.mkdir()


CACHES = {
    "filled": commands_entry,
    "truncated": damaged_by_truncation,
    "a byte changed": damaged_by_a_byte,
    "of another version": of_another_version,
    "a file": a_file,
    "a folder at the entry": a_folder_at_the_entry,
}


@pytest.mark.slow
@pytest.mark.parametrize("cache", CACHES)
def test_commands_start_alike_whatever_the_cache_holds(cache: str, tmp_path: Path) -> None:
    """commands.toml is read from the cache: a command, its help and its
    usage errors are what they are with no cache, whether the cache holds
    the file read, a damaged or another version's copy, or is no folder."""
    folder = tmp_path / "cache"
    CACHES[cache](folder)
    for argv in (["classify", "AS KS QS JS TS"], ["classify", "--help"], ["classify", "--nope"], ["--help"]):
        assert run_with_cache(argv, str(folder)) == run_with_cache(argv, "off"), argv
