"""A big text file solved in several processes: the same output, byte for
byte, as one process; errors, a lost process and Ctrl-C leave nothing
behind."""

from __future__ import annotations

import io
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from fivecard.files import parallel
from fivecard.files.parallel import Part, line_parts
from fivecard.files.solve import solve_file
from fivecard.files.writers import CsvWriter
from fivecard.core.errors import FileAccessError, FivecardError

ROWS = [
    "8C TS KC 9H 4S 7D 2S 5D 3S AC",
    "5C AD 5D AC 9C 7C 5H 8D TD KS",
    "A♦ K♦ Q♦ J♦ 10♦ | Q♣ 10♣ 7♣ 6♣ 4♣",
    "",
    "# a comment",
    "10♦ 10♥ 4♥ 4♣ 3♠ ; 10♠ 10♣ 4♠ 4♦ 3♥",
    "1S KD 3C 4H 5D | 2C 3C 4C 5C 7D",
    "KD, 9C, 4H, KS, 9D",
    "AS KS QS JS TS AS 2D 3D 4D 5D",
    "2H 2D 4C 4D 4S 3C 3D 3S 9S 9D",
]


def _irregular(tmp_path: Path) -> Path:
    """Lines of every kind, CRLF and lone CR line ends, a byte order mark, a
    line over the limit, bytes that are not UTF-8, no final line end."""
    lines = [row.encode() for row in ROWS] * 30
    assert len(lines) == 300
    lines[40] = b"AS KS \xff QS JS | 2C 3C 4C 5C 7D"
    lines[55] = b"K" * (1 << 20) + b"S 2C 3C 4C 5C"
    lines[290] = b"AS KS QS JS TS | 2D 3D 4D 5D 7S | 9C 9D 9H 9S 8C"  # more hands than the first rows
    text = b"\xef\xbb\xbf" + b"\n".join(lines[:100]) + b"\r\n" + b"\r\n".join(lines[100:200])
    text += b"\r" + b"\r".join(lines[200:260]) + b"\n" + b"\n".join(lines[260:])
    path = tmp_path / "irregular.txt"
    path.write_bytes(text)
    return path


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Records the runs solved in several processes: how (blocks in turn,
    written where they stand; or parts laid end to end) and by how many."""
    runs: list[tuple[str, int]] = []
    interleaved, parts = parallel.solve_interleaved, parallel.solve_parts

    def in_turn(count: int, *args: Any) -> bool:
        done = interleaved(count, *args)
        runs.append(("in turn" if done else "not in turn", count))
        return done

    def end_to_end(plan: list[Part], *args: Any) -> None:
        runs.append(("parts", len(plan)))
        parts(plan, *args)

    monkeypatch.setattr(parallel, "solve_interleaved", in_turn)
    monkeypatch.setattr(parallel, "solve_parts", end_to_end)
    return runs


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "text"])
@pytest.mark.slow
def test_several_processes_write_what_one_writes(tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    source = _irregular(tmp_path)
    runs = _spy(monkeypatch)
    outputs = {}
    for workers in (1, 2, 3, 7):
        target = tmp_path / f"out{workers}.{fmt}"
        solution = solve_file(str(source), str(target), workers=workers, bom=fmt == "csv")
        outputs[workers] = (target.read_bytes(), solution.tally.summary(), solution.notes)
    assert runs == [("in turn", 2), ("in turn", 3), ("in turn", 7)]
    assert outputs[2] == outputs[1] and outputs[3] == outputs[1] and outputs[7] == outputs[1]
    data, summary, notes = outputs[1]
    assert summary.startswith("240 rows: ") and "hand 3" not in summary and not notes
    # a later part's row of three hands is an error row that says so, in every process: the header holds two
    assert data.count(b"3 hands, and the output has columns for 2") == 1
    assert data.count(b"\n") == 240 + (fmt != "jsonl")
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".part")]


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "text"])
def test_parts_end_to_end_where_the_output_cannot_be_written_at_offsets(
    tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Standard output opened for appending (``>>``) is written in order:
    the parts are laid end to end, after what the file held."""
    source = _irregular(tmp_path)
    expected = tmp_path / f"one.{fmt}"
    solve_file(str(source), str(expected), workers=1)
    runs = _spy(monkeypatch)
    target = tmp_path / f"appended.{fmt}"
    target.write_bytes(b"before\n")
    with open(target, "ab") as raw:
        stdout = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
        solve_file(str(source), None, format=fmt, workers=3, stdout=stdout)
        stdout.flush()
    assert runs == [("not in turn", 3), ("parts", 3)]
    assert target.read_bytes() == b"before\n" + expected.read_bytes()


def test_parts_start_at_line_starts_with_their_numbers(tmp_path: Path) -> None:
    path = tmp_path / "ends.txt"
    path.write_bytes(b"a\r\nb\rc\nd\r\n\r\ne\nf")
    parts = line_parts(str(path), 4)
    data = path.read_bytes()
    assert parts[0] == Part(0, parts[1].start, 1)
    for part, after in zip(parts, parts[1:]):
        assert part.end == after.start and data[after.start - 1 : after.start] == b"\n"
    assert parts[-1].end is None
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    for part in parts:
        before = data[: part.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        assert part.first == before.count(b"\n") + 1
        assert lines[part.first - 1] == data[part.start : part.start + 1]
    assert line_parts(str(path), 1) == [Part(0, None, 1)]
    (tmp_path / "one.txt").write_bytes(b"AS KS QS JS TS\n")
    assert line_parts(str(tmp_path / "one.txt"), 4) == [Part(0, None, 1)]  # one line: one part


def test_a_failed_part_stops_the_run_and_keeps_the_old_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _irregular(tmp_path)
    target = tmp_path / "out.csv"
    target.write_text("earlier\n")
    real = CsvWriter.write

    def full_disk(self: CsvWriter, chunk: Any) -> None:
        if int(chunk.line[0]) > 150:  # a later part's rows
            raise OSError(28, "No space left on device")
        real(self, chunk)

    monkeypatch.setattr(CsvWriter, "write", full_disk)
    with pytest.raises(FileAccessError, match="No space left on device") as caught:
        solve_file(str(source), str(target), workers=3)
    assert "unchanged" in " ".join(getattr(caught.value, "__notes__", []))
    assert target.read_text() == "earlier\n"
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".part")]
    assert not multiprocessing.active_children()


def test_a_lost_process_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = _irregular(tmp_path)
    monkeypatch.setattr(parallel, "_solve_part", lambda *args: os._exit(3))
    monkeypatch.setattr(parallel, "_take_turns", lambda *args: os._exit(3))
    with pytest.raises(FivecardError, match=r"stopped"):
        solve_file(str(source), str(tmp_path / "out.jsonl"), workers=2)
    assert not (tmp_path / "out.jsonl").exists()
    with open(tmp_path / "appended.jsonl", "ab") as raw, pytest.raises(FivecardError, match=r"exit code 3"):
        solve_file(str(source), None, format="jsonl", workers=2, stdout=io.TextIOWrapper(raw))
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".part")]


def test_where_one_process_solves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard input, --strict, a workbook or Parquet output, workers=1,
    and a small file by default are solved in one process."""
    source = _irregular(tmp_path)
    runs = _spy(monkeypatch)
    solve_file(str(source), str(tmp_path / "a.csv"))  # small: one process
    solve_file(str(source), str(tmp_path / "b.xlsx"), workers=2)
    solve_file(str(source), str(tmp_path / "c.parquet"), workers=2)
    solve_file("-", str(tmp_path / "d.csv"), workers=2, stdin=io.TextIOWrapper(io.BytesIO(source.read_bytes())))
    with pytest.raises(FivecardError):
        solve_file(str(source), str(tmp_path / "e.csv"), workers=2, strict=True)
    assert runs == []
    with pytest.raises(FivecardError, match="workers must be 1 or more"):
        solve_file(str(source), str(tmp_path / "f.csv"), workers=0)
    assert (tmp_path / "d.csv").read_bytes() == (tmp_path / "a.csv").read_bytes()


@pytest.mark.slow
def test_ctrl_c_stops_every_process(tmp_path: Path) -> None:
    """Ctrl-C while parts are solved: exit 130, no output, no part files, no
    process left running."""
    source = tmp_path / "big.txt"
    source.write_bytes(b"8C TS KC 9H 4S 7D 2S 5D 3S AC\n5C AD 5D AC 9C 7C 5H 8D TD KS\n" * 600_000)
    target = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "fivecard", "solve", str(source), "-o", str(target), "--workers", "2"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while len(_running(source)) < 2:  # the second process is forked: the parts are being solved
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.005)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130 and "Traceback" not in err and "nothing was written" in err
    time.sleep(0.2)
    assert os.listdir(tmp_path) == ["big.txt"]
    assert _running(source) == []


def _running(source: Path) -> list[str]:
    """The processes whose command line names ``source`` (a forked process
    has its parent's)."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if str(source).encode() in cmdline:
                found.append(pid)
    return found


def test_progress_counts_every_part(tmp_path: Path) -> None:
    source = _irregular(tmp_path)
    heard: list[tuple[int, float | None]] = []
    solve_file(
        str(source), str(tmp_path / "out.csv"), workers=3,
        progress=lambda tally, fraction: heard.append((tally.rows, fraction)),
    )
    assert heard and heard[-1] == (240, 1.0)
    assert all(a[0] <= b[0] for a, b in zip(heard, heard[1:]))
