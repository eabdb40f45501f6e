"""Every way a process is stopped is an interrupt: Ctrl-C (SIGINT), SIGTERM
and SIGHUP, sent to a real ``fivecard`` process in the middle of its run,
end it alike for every command: exit code 128 plus the signal, one line on
stderr that names the signal (Ctrl-C needs no name) and says what became of
the output, every temporary file removed, an earlier output file left as it
was, checkpoints kept, and no helper process left running.

Each run is paused at a known point by a hook (a wrapper around one function
of fivecard, as the test names it) that says ``paused`` on stderr and waits:
the signal always lands mid-run, never before or after it. (A game's
session, stopped by each signal at its prompt: tests/cli/test_game_screen.py.)
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from fivecard.core import kernel
from fivecard.vector.stops import STOP_SIGNALS
from fivecard.cli import STOP_SIGNALS as NAMED

from helpers import read_until

STOPS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
NAMES: dict[int, str] = {signal.SIGINT: "", signal.SIGTERM: " (SIGTERM)", signal.SIGHUP: " (SIGHUP)"}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TEXT_ROWS = "8C TS KC 9H 4S | 7D 2S 5D 3S AC\n5C AD 5D AC 9C | 7C 5H 8D TD KS\n"

#: Runs the command with one function of fivecard wrapped: its call number
#: ``skip`` + 1 says "paused" on stderr and waits for the test's signal.
HOOK = textwrap.dedent(
    """
    import importlib, os, sys, time
    target, skip = sys.argv[1], int(sys.argv[2])
    module, _, path = target.partition(":")
    owner = importlib.import_module(module)
    *outer, name = path.split(".")
    for part in outer:
        owner = getattr(owner, part)
    real = getattr(owner, name)
    calls = []

    def paused(*args, **kwargs):
        calls.append(None)
        if len(calls) == skip + 1:
            os.write(2, b"paused\\n")
            # The test's signal comes here. In short steps: a signal the system
            # gives to another of the process's threads (numpy's) wakes no sleep
            # of this one; Python handles it at the next step.
            for _ in range(3000):
                time.sleep(0.1)
        return real(*args, **kwargs)

    setattr(owner, name, paused)
    sys.argv = ["fivecard", *sys.argv[3:]]
    from fivecard.cli import run
    run()
    """
)


@dataclass
class Stopped:
    code: int
    before: str  # stderr up to the pause
    after: str  # stderr after the signal


def _until_paused(child: subprocess.Popen[bytes]) -> str:
    """What the child wrote on stderr before it said "paused"."""
    assert child.stderr is not None
    before, _, rest = read_until(child.stderr.fileno(), b"paused\n").partition(b"paused\n")
    assert rest == b"", rest
    return before.decode()


def _stop_paused(
    argv: list[str],
    hook: str,
    stop: int,
    cwd: Path,
    *,
    skip: int = 0,
    group: bool = False,
    env: dict[str, str] | None = None,
    while_paused: Callable[[int], None] | None = None,
    pipe: bool = False,
) -> Stopped:
    """Run ``fivecard argv`` in ``cwd`` (a session of its own), paused at
    ``hook``; check it there (``while_paused(pid)``), then send ``stop`` to
    the process (or to its whole group) and wait for it to end. Standard
    output is the file ``stdout.txt``, or (``pipe``) a pipe read at the end."""
    with open(cwd / "stdout.txt", "wb") as out:
        child = subprocess.Popen(
            [sys.executable, "-c", HOOK, hook, str(skip), *argv],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE if pipe else out,
            stderr=subprocess.PIPE,
            env={**os.environ, "NO_COLOR": "1", **(env or {})},
            start_new_session=True,
        )
    try:
        before = _until_paused(child)
        if while_paused is not None:
            while_paused(child.pid)
        if group:
            os.killpg(child.pid, stop)
        else:
            child.send_signal(stop)
        try:
            _, after = child.communicate(timeout=120)  # a guard against hanging, not a timing test
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running after the signal: {_signal_state(child.pid)}")
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return Stopped(child.returncode, before, after.decode())


def _signal_state(pid: int) -> str:
    """What each thread of a process blocks and has pending (Linux)."""
    lines = []
    for task in sorted(os.listdir(f"/proc/{pid}/task")):
        status = Path(f"/proc/{pid}/task/{task}/status").read_text()
        lines.append(f"{task}: " + ", ".join(line for line in status.splitlines() if line.startswith(("Sig", "ShdPnd"))))
    return "; ".join(lines)


def _one_line(stopped: Stopped, stop: int, note: str = "") -> None:
    """The exit code of the signal and one line that names it."""
    assert stopped.code == 128 + stop, stopped
    assert "Traceback" not in stopped.after and "Exception" not in stopped.after, stopped.after
    # After Ctrl-C the line starts on a line of its own (the terminal showed ^C).
    assert stopped.after == ("\n" if stop == signal.SIGINT else "") + f"fivecard: interrupted{NAMES[stop]}{note}\n"


def _session(leader: int) -> list[int]:
    """The processes still running (not zombies) in the session ``leader``
    started: a helper process left behind would be one."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[3]) == leader and fields[0] != "Z":  # session id, state
            found.append(int(entry))
    return found


def _ended(leader: int) -> list[str]:
    """The command lines of the processes of the session ``leader`` started
    that are still running a moment after it ended (a helper process may
    take a moment to see that the processes it served are gone)."""
    for _ in range(100):
        running = _session(leader)
        if not running:
            return []
        time.sleep(0.1)
    found = []
    for pid in running:
        with contextlib.suppress(OSError):
            found.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:200])
    return found


def _children(pid: int) -> list[int]:
    """The child processes of ``pid``, whichever of its threads started them."""
    return [int(c) for task in os.listdir(f"/proc/{pid}/task") for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]


def _kept_note(stopped: Stopped, folder: Path, argv: list[str]) -> str:
    """The note an interrupted job ends its line with: one part kept (the
    one finished first) in the job's folder under ``folder``, and the exact
    command that resumes it."""
    (job,) = folder.iterdir()
    parts = re.search(r"; 1 of ([\d,]+) parts done", stopped.after)
    assert parts is not None, stopped.after
    return (
        f"; 1 of {parts.group(1)} parts done are kept in '{folder.name}/{job.name}'; "
        f"to resume, run the same command again: {shlex.join(['fivecard', *argv])}"
    )


def _earlier(folder: Path, name: str) -> Path:
    path = folder / name
    path.write_bytes(b"earlier")
    return path


def _left(folder: Path, *names: str) -> list[str]:
    """The files in ``folder`` besides ``names`` and the run's stdout."""
    return sorted(p.name for p in folder.iterdir() if p.name not in {"stdout.txt", *names})


def test_the_command_and_its_outputs_hold_the_same_signals() -> None:
    assert set(NAMED) == set(STOP_SIGNALS) == set(STOPS)


# --- every command that writes an output ------------------------------------------------------


@pytest.mark.parametrize("stop", STOPS, ids=lambda s: signal.Signals(s).name)
@pytest.mark.parametrize("output", ["out.csv", "out.xlsx"])
@pytest.mark.slow
def test_solve_to_a_file(tmp_path: Path, stop: int, output: str) -> None:
    (tmp_path / "in.txt").write_text(TEXT_ROWS * 50)
    target = _earlier(tmp_path, output)

    def half_done(pid: int) -> None:  # the rows are written aside, the file not yet replaced
        assert [p.name for p in tmp_path.glob(f".{output}.*.part")] != []

    stopped = _stop_paused(
        ["solve", "in.txt", "-o", output], "fivecard.files.target:Target.commit", stop, tmp_path,
        while_paused=half_done,
    )
    _one_line(stopped, stop, f"; nothing was written ('{output}' is unchanged)")
    assert target.read_bytes() == b"earlier"
    assert _left(tmp_path, "in.txt", output) == []


@pytest.mark.parametrize("stop", STOPS, ids=lambda s: signal.Signals(s).name)
@pytest.mark.slow
def test_solve_to_standard_output(tmp_path: Path, stop: int) -> None:
    """A workbook for standard output is built in the temporary folder first."""
    (tmp_path / "in.txt").write_text(TEXT_ROWS * 50)
    (tmp_path / "tmp").mkdir()
    stopped = _stop_paused(
        ["solve", "in.txt", "--format", "xlsx"], "fivecard.files.target:Target.commit", stop, tmp_path,
        env={"TMPDIR": str(tmp_path / "tmp")},
        while_paused=lambda pid: None if list((tmp_path / "tmp").iterdir()) else pytest.fail("no workbook aside"),
    )
    _one_line(stopped, stop, "; nothing was written")
    assert list((tmp_path / "tmp").iterdir()) == [] and (tmp_path / "stdout.txt").read_bytes() == b""


@pytest.mark.parametrize("stop", STOPS, ids=lambda s: signal.Signals(s).name)
@pytest.mark.parametrize("output", ["marked.csv", "marked.xlsx"])
@pytest.mark.slow
def test_mark_to_a_file(tmp_path: Path, stop: int, output: str) -> None:
    source = "answered" + Path(output).suffix
    (tmp_path / source).write_bytes((EXAMPLES / source).read_bytes())
    target = _earlier(tmp_path, output)
    stopped = _stop_paused(
        ["mark", source, "-o", output], "fivecard.files.target:Target.commit", stop, tmp_path,
        while_paused=lambda pid: None if list(tmp_path.glob(".marked.*.part")) else pytest.fail("no file aside"),
    )
    _one_line(stopped, stop, f"; nothing was written ('{output}' is unchanged)")
    assert target.read_bytes() == b"earlier"
    assert _left(tmp_path, source, output) == []


@pytest.mark.parametrize("stop", STOPS, ids=lambda s: signal.Signals(s).name)
@pytest.mark.slow
def test_grid_to_a_file(tmp_path: Path, stop: int) -> None:
    target = _earlier(tmp_path, "grid.xlsx")
    stopped = _stop_paused(["grid", "-o", "grid.xlsx"], "fivecard.files.target:Target.commit", stop, tmp_path)
    _one_line(stopped, stop, "; nothing was written ('grid.xlsx' is unchanged)")
    assert target.read_bytes() == b"earlier"
    assert _left(tmp_path, "grid.xlsx") == []


@pytest.mark.parametrize("stop", STOPS, ids=lambda s: signal.Signals(s).name)
@pytest.mark.slow
def test_strategy_keeps_its_checkpoints(tmp_path: Path, stop: int) -> None:
    """Stopped after its first part: the part is kept, the output untouched,
    and its line says so and how to resume; that command, run, resumes from
    the part. (By the numpy path, which works the classes in parts of 8,192:
    the compiled kernel works a deck in one.)"""
    target = _earlier(tmp_path, "s.csv")
    argv = ["strategy", "--paytable", "jacks-or-better", "--rules", "short-deck", "-o", "s.csv", "--checkpoint", "ck"]
    parts = {kernel.ENVIRONMENT: "numpy"}
    stopped = _stop_paused(argv, "fivecard.vector.jobs:_Checkpoints.save", stop, tmp_path, skip=1, env=parts)
    _one_line(stopped, stop, _kept_note(stopped, tmp_path / "ck", argv))
    assert target.read_bytes() == b"earlier"
    (job,) = (tmp_path / "ck").iterdir()
    assert sorted(p.name for p in job.iterdir()) == ["part-00000.ckpt"]
    assert _left(tmp_path, "s.csv", "ck") == []
    if stop == signal.SIGTERM:  # once: the command the line gives takes up the part kept
        said = shlex.split(stopped.after.split("run the same command again: ")[1])
        assert said[0] == "fivecard"
        done = subprocess.run(
            [sys.executable, "-m", *said], cwd=tmp_path, capture_output=True, text=True, check=False,
            env={**os.environ, **parts},
        )
        assert done.returncode == 0, done.stderr
        assert "fivecard: resumed: 1 of " in done.stderr and target.read_text().startswith("hand,")


@pytest.mark.parametrize("stop", STOPS, ids=lambda s: signal.Signals(s).name)
@pytest.mark.parametrize(
    ("argv", "hook"),
    [
        (["stats"], "fivecard.vector.census:census"),
        (["deal", "--seed", "1", "--rounds", "3"], "fivecard.files.writers:DealWriter.text"),
    ],
    ids=["stats", "deal"],
)
@pytest.mark.slow
def test_commands_that_print(tmp_path: Path, stop: int, argv: list[str], hook: str) -> None:
    stopped = _stop_paused(argv, hook, stop, tmp_path)
    _one_line(stopped, stop)
    assert _left(tmp_path) == []


# --- helper processes -------------------------------------------------------------------------


@pytest.mark.parametrize("group", [False, True], ids=["to fivecard", "to its group"])
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=lambda s: signal.Signals(s).name)
@pytest.mark.parametrize("output", ["file", "pipe"])
@pytest.mark.slow
def test_solve_in_several_processes(tmp_path: Path, stop: int, group: bool, output: str) -> None:
    """The processes that solve parts stop with the first (to a file they
    write in place; to a pipe each into a file of its own): none is left,
    and neither is any file of theirs."""
    (tmp_path / "in.txt").write_text(TEXT_ROWS * 100)  # what the first process writes fits in a pipe
    (tmp_path / "tmp").mkdir()
    target = _earlier(tmp_path, "out.jsonl")
    argv = ["solve", "in.txt", "--workers", "2", *(["-o", "out.jsonl"] if output == "file" else ["--format", "csv"])]
    leader: list[int] = []

    def working(pid: int) -> None:
        leader.append(pid)
        assert _children(pid) != []
        aside = list(tmp_path.glob(".out.jsonl.*.part")) if output == "file" else list((tmp_path / "tmp").iterdir())
        assert aside != []

    stopped = _stop_paused(
        argv, "fivecard.files.parallel:_finished", stop, tmp_path, group=group,
        env={"TMPDIR": str(tmp_path / "tmp")}, while_paused=working, pipe=output == "pipe",
    )
    _one_line(stopped, stop, "; nothing was written ('out.jsonl' is unchanged)" if output == "file" else "")
    assert target.read_bytes() == b"earlier"
    assert _left(tmp_path, "in.txt", "out.jsonl", "tmp") == [] and list((tmp_path / "tmp").iterdir()) == []
    assert _ended(leader[0]) == []


@pytest.mark.parametrize(
    ("stop", "group"),
    [(signal.SIGTERM, False), (signal.SIGHUP, True)],
    ids=["SIGTERM to fivecard", "SIGHUP to its group"],
)
@pytest.mark.parametrize("workers", ["threads", "processes"])
@pytest.mark.slow
def test_a_dask_cluster_stops_with_the_command(tmp_path: Path, stop: int, group: bool, workers: str) -> None:
    """The workers of a local Dask cluster (threads of the command with the
    compiled kernel, processes without it, and the helper processes that
    start with them) never hear the signal themselves: the command closes
    them, keeps the finished parts, and nothing is left running."""
    pytest.importorskip("distributed")
    argv = ["strategy", "--dealer", "--rules", "short-deck", "--workers", "2", "--checkpoint", "ck"]
    leader: list[int] = []

    def working(pid: int) -> None:
        leader.append(pid)
        assert (_children(pid) != []) == (workers == "processes")

    # paused as the first part is reported done (its checkpoint written)
    hook = "fivecard.cli.registry:Progress.__call__"
    env = {"FIVECARD_KERNEL": "numpy"} if workers == "processes" else None
    stopped = _stop_paused(argv, hook, stop, tmp_path, skip=1, group=group, env=env, while_paused=working)
    _one_line(stopped, stop, _kept_note(stopped, tmp_path / "ck", argv))
    (job,) = (tmp_path / "ck").iterdir()
    assert len(list(job.glob("part-*.ckpt"))) == 1  # the part finished first, whichever it is
    assert _ended(leader[0]) == []


# --- the web app ------------------------------------------------------------------------------


@pytest.mark.parametrize("stop", STOPS, ids=lambda s: signal.Signals(s).name)
@pytest.mark.slow
def test_serve_stops_gracefully_with_streams_open(tmp_path: Path, stop: int) -> None:
    """Every stop signal stops the server as Ctrl-C does: the open event
    streams end, requests are not cut in the middle, one line."""
    pytest.importorskip("uvicorn")
    server = subprocess.Popen(
        [sys.executable, "-m", "fivecard", "serve", "--port", "0", "--data", str(tmp_path / "data")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    streams = []
    try:
        base = server.stdout.readline().split(" at ")[1].split(" ")[0]
        request = urllib.request.Request(base + "api/tables", data=b"{}", headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            table_id = json.loads(answer.read())["id"]
        host, port = base.split("/")[2].split(":")
        for _ in range(2):
            stream = socket.create_connection((host, int(port)), timeout=30)
            stream.sendall(f"GET /api/tables/{table_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            received = b""
            while b"retry: 1000" not in received:  # the stream is open and waiting
                received += stream.recv(4096)
            streams.append(stream)
        server.send_signal(stop)
        _, err = server.communicate(timeout=60)
    finally:
        for stream in streams:
            stream.close()
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.returncode == 128 + stop
    assert "Traceback" not in err and "ERROR" not in err, err
    assert err == ("\n" if stop == signal.SIGINT else "") + f"fivecard: interrupted{NAMES[stop]}\n"


def test_a_signal_while_an_output_is_put_in_place_comes_after_it(tmp_path: Path) -> None:
    """The rename that puts an output in place is done or not done: a
    SIGTERM meanwhile is delivered after it, to the handler there was."""
    from fivecard.files.target import Target

    heard: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda number, frame: heard.append(number))
    try:
        target = Target(str(tmp_path / "o.csv"), None, binary=False)
        target.text.write("new")
        real_replace = os.replace

        def replace_then_stop(source: str, destination: str) -> None:
            os.kill(os.getpid(), signal.SIGTERM)
            assert heard == []  # held: handled once the rename is done
            real_replace(source, destination)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(os, "replace", replace_then_stop)
            target.commit()
        assert heard == [signal.SIGTERM]
        assert (tmp_path / "o.csv").read_text() == "new"
    finally:
        signal.signal(signal.SIGTERM, previous)
