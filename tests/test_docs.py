"""The manual (``docs/``, built with MkDocs) and the README say what the code
does: every ``$ fivecard ...`` session on every page is run and its output
compared (``>>>`` examples run as doctests: see pyproject's pytest options),
the parts made from the code (each command's ``--help``, the layers and
modules, the library reference) are what the code makes now (``cog
--check``), every command and option has its entry and its help, every
page is in the site's navigation, and the site builds with no warning.

``FIVECARD_OUTPUTS=record`` writes the sessions' outputs into the pages
instead of comparing them (review the diff), as it does for the recorded
command outputs.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fivecard.cli import commands  # noqa: F401  (the commands register themselves)
from fivecard.cli import main, registry

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = [README, *sorted(DOCS.rglob("*.md"))]
RECORD = os.environ.get("FIVECARD_OUTPUTS") == "record"
SESSION = re.compile(r"(```console\n)(.*?)(```)", re.S)


def page_id(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def sessions(text: str) -> list[tuple[str, str]]:
    """A page's ``$ fivecard`` commands, each with the output shown under it."""
    found = []
    for block in SESSION.finditer(text):
        command: str | None = None
        output: list[str] = []
        for line in block.group(2).splitlines():
            if line.startswith("$ "):
                if command is not None:
                    found.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            found.append((command, "\n".join(output)))
    return found


def screen_of(command: str) -> str:
    """What a terminal shows for ``command``: standard output and error in
    the order they are written. ``printf 'ANSWERS' | fivecard ...`` pipes
    the answers in (``\\n`` ends a line), as a page shows a game played."""
    answers = ""
    if command.startswith("printf "):
        feed, _, command = command.partition(" | ")
        answers = shlex.split(feed)[1].replace("\\n", "\n")
    argv = shlex.split(command)
    assert argv[0] == "fivecard", f"a session runs fivecard only: {command}"
    screen = io.StringIO()
    main(argv[1:], stdin=io.StringIO(answers), stdout=screen, stderr=screen)
    return screen.getvalue().rstrip("\n")


def record(text: str) -> str:
    """``text`` with each session's output made anew."""

    def block(match: re.Match[str]) -> str:
        lines = []
        for line in match.group(2).splitlines():
            if line.startswith("$ "):
                lines += [line, *filter(None, [screen_of(line[2:])])]
        return match.group(1) + "\n".join(lines) + "\n" + match.group(3)

    return SESSION.sub(block, text)


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder to run a page's sessions in: the checkout's examples/ are
    there, and what a session writes stays there for the next ones. Each
    page keeps its own checkpoints, so that two pages that solve the same
    game at once (on two test workers) do not resume each other's work."""
    from fivecard.vector import jobs

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.setattr(jobs, "default_checkpoints", lambda: str(tmp_path / "checkpoints"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("page", [p for p in PAGES if sessions(p.read_text(encoding="utf-8"))], ids=page_id)
@pytest.mark.slow
def test_every_session_shows_what_the_command_prints(page: Path, checkout: Path) -> None:
    text = page.read_text(encoding="utf-8")
    if RECORD:
        page.write_text(record(text), encoding="utf-8")
        return
    for command, expected in sessions(text):
        assert screen_of(command) == expected, f"{page_id(page)}: $ {command}"


def test_the_manual_has_sessions_on_its_command_pages() -> None:
    for name in registry.COMMANDS:
        if name not in ("serve", "completion"):  # one serves until stopped, one prints a script
            assert sessions((DOCS / "commands" / f"{name}.md").read_text(encoding="utf-8")), name


# Made from the code ------------------------------------------------------------


def test_the_pages_made_from_the_code_are_up_to_date() -> None:
    """``cog --check``: each generated part is what the code makes now
    (``cog -r -I scripts FILES`` writes them again)."""
    from cogapp import Cog

    pages = [str(p) for p in PAGES if "[[[cog" in p.read_text(encoding="utf-8")]
    err = io.StringIO()
    cog = Cog()
    cog.set_output(stdout=io.StringIO(), stderr=err)
    code = cog.main(["cog", "--check", "-I", str(ROOT / "scripts"), *pages])
    assert code == 0, f"{err.getvalue()}: run cog -r -I scripts {' '.join(pages)}"


def test_every_command_has_a_page_with_its_help() -> None:
    made = {p.stem for p in (DOCS / "commands").glob("*.md")} - {"index"}
    assert made == set(registry.COMMANDS)
    for name in registry.COMMANDS:
        text = (DOCS / "commands" / f"{name}.md").read_text(encoding="utf-8")
        assert f'docgen.command_help("{name}")' in text, name


def test_every_command_and_option_has_help_text() -> None:
    top = registry.parser()
    subparsers = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    for choice in subparsers._choices_actions:
        assert choice.help and len(choice.help) > 10, choice.dest
    for name, parser in {"": top, **subparsers.choices}.items():
        assert parser.description, name
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help and action.help is not argparse.SUPPRESS and len(action.help) > 10, (name, action.dest)


def test_every_page_is_in_the_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s*([\w/.-]+\.md)\s*$", config, re.M))
    assert listed == {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}


def test_the_readme_is_a_front_door() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 250
    assert len(sessions(text)) >= 5 and text.count(">>> ") >= 3
    for link in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / link).exists(), link


def test_the_speed_page_names_a_script_and_the_machine_for_each_time() -> None:
    """Every row of the speed tables names the benchmark script that
    measures it, and the page names the machine."""
    text = (DOCS / "speed.md").read_text(encoding="utf-8")
    assert "2 cores" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| what")]
    assert rows
    for row in rows:
        scripts = re.findall(r"`(bench_\w+\.(?:py|sh))`", row)
        assert scripts, row
        assert all((ROOT / "benchmarks" / s).exists() for s in scripts), row


@pytest.mark.slow
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "commands" / "solve" / "index.html").exists()


def test_the_changelog_keeps_a_changelog_s_form() -> None:
    """Releases newest first (Unreleased on top), and under each only the
    kinds of change Keep a Changelog names, in its order."""
    kinds = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"]
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.split(r"^## ", text, flags=re.M)[1:]
    assert releases[0].startswith("Unreleased\n")
    for release in releases[1:]:
        assert re.match(r"\d+\.\d+\.\d+\b", release), release[:40]
    for release in releases:
        found = re.findall(r"^### (.*)$", release, re.M)
        assert all(kind in kinds for kind in found), found
        assert found == sorted(found, key=kinds.index), found
