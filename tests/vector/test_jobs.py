"""A job's parts run in this process, on a Dask LocalCluster or at a
scheduler give the same results in part order; checkpoints let an
interrupted job resume without running its finished parts again; a Dask run
leaves no process or thread behind, whatever the way out."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import psutil  # type: ignore[import-untyped]  # distributed's dependency, no stubs installed
import pytest

from fivecard.core.errors import FivecardError, HandError
from fivecard.vector import jobs
from fivecard.vector.jobs import Result, plan, run_parts
from fivecard.vector.stops import STOP_SIGNALS
from jobs_work import Spec, blas_threads, lost_worker, profiled, toy, where_run, worker_settings


def clean(size: int, parts: int) -> list[Result]:
    spec: Spec = (size, "", -1)
    return [toy(spec, part) for part in range(parts)]


def assert_same(got: list[Result], want: list[Result]) -> None:
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        assert sorted(a) == sorted(b)
        for name in a:
            assert a[name].dtype == b[name].dtype
            np.testing.assert_array_equal(a[name], b[name])


def calls(marks: Path) -> list[int]:
    """The parts the work ran, one entry a call."""
    return sorted(int(path.name.split("-")[1]) for path in marks.iterdir())


def part_files(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.glob("part-*.ckpt"))


@pytest.fixture
def marks(tmp_path: Path) -> Path:
    folder = tmp_path / "marks"
    folder.mkdir()
    return folder


def _leftovers() -> tuple[set[int], set[str]]:
    """This process's child processes and threads, less multiprocessing's
    resource tracker (a helper that lives as long as the process once
    started)."""
    children = {
        child.pid
        for child in psutil.Process().children(recursive=True)
        if not any("resource_tracker" in part for part in child.cmdline())
    }
    threads = {f"{thread.name}-{thread.ident}" for thread in threading.enumerate()}
    return children, threads


@pytest.fixture
def leaves_nothing() -> Iterator[None]:
    """The test's Dask runs leave no process and no thread behind (a
    process with threads cannot fork: fivecard.files.parallel needs none)."""
    import distributed  # noqa: F401  (its import-time threads are not the run's)

    before = _leftovers()
    yield
    children, threads = _leftovers()
    assert children <= before[0]
    assert threads <= before[1]
    assert [thread.name for thread in threading.enumerate()] == ["MainThread"]


# ---------------------------------------------------------------- in process


def test_in_process_gives_the_parts_in_order() -> None:
    seen: list[tuple[int, int]] = []
    got = run_parts(toy, (4, "", -1), 5, key="k", workers=0, progress=lambda *a: seen.append(a))
    assert_same(got, clean(4, 5))
    assert seen == [(0, 5), (1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]


def test_no_parts() -> None:
    seen: list[tuple[int, int]] = []
    assert run_parts(toy, (4, "", -1), 0, key="k", workers=0, progress=lambda *a: seen.append(a)) == []
    assert seen == [(0, 0)]


def test_resume_after_an_error_runs_only_the_parts_not_finished(tmp_path: Path, marks: Path) -> None:
    root = tmp_path / "checkpoints"
    with pytest.raises(HandError, match=r"part 3 is not a hand \('XX'\)"):
        run_parts(toy, (4, str(marks), 3), 6, key="job-1", workers=0, checkpoint=root)
    assert calls(marks) == [0, 1, 2, 3]
    assert part_files(root / "job-1") == ["part-00000.ckpt", "part-00001.ckpt", "part-00002.ckpt"]
    seen: list[tuple[int, int]] = []
    got = run_parts(
        toy, (4, str(marks), -1), 6, key="job-1", workers=0, checkpoint=root,
        progress=lambda *a: seen.append(a),
    )
    assert calls(marks) == [0, 1, 2, 3, 3, 4, 5]
    assert seen == [(3, 6), (4, 6), (5, 6), (6, 6)]
    assert_same(got, clean(4, 6))
    assert not (root / "job-1").exists()  # deleted after success,
    assert root.is_dir()  # its parent kept


def test_keep_keeps_the_checkpoints_and_a_rerun_reads_them(tmp_path: Path, marks: Path) -> None:
    run_parts(toy, (3, "", -1), 4, key="kept", workers=0, checkpoint=tmp_path, keep=True)
    folder = tmp_path / "kept"
    assert part_files(folder) == [f"part-{part:05d}.ckpt" for part in range(4)]
    assert not list(folder.glob("*.tmp"))
    seen: list[tuple[int, int]] = []
    got = run_parts(
        toy, (3, str(marks), -1), 4, key="kept", workers=0, checkpoint=tmp_path,
        progress=lambda *a: seen.append(a),
    )
    assert calls(marks) == []
    assert seen == [(4, 4)]
    assert_same(got, clean(3, 4))
    assert not folder.exists()


def test_a_damaged_part_file_is_run_again(tmp_path: Path, marks: Path) -> None:
    run_parts(toy, (3, "", -1), 4, key="damaged", workers=0, checkpoint=tmp_path, keep=True)
    folder = tmp_path / "damaged"
    one = folder / "part-00001.ckpt"
    one.write_bytes(one.read_bytes()[: one.stat().st_size // 2])  # truncated
    (folder / "part-00002.ckpt").write_bytes(b"not a part file")
    got = run_parts(toy, (3, str(marks), -1), 4, key="damaged", workers=0, checkpoint=tmp_path)
    assert calls(marks) == [1, 2]
    assert_same(got, clean(3, 4))


def test_another_number_of_parts_starts_over(tmp_path: Path, marks: Path) -> None:
    run_parts(toy, (3, "", -1), 3, key="count", workers=0, checkpoint=tmp_path, keep=True)
    got = run_parts(
        toy, (3, str(marks), -1), 4, key="count", workers=0, checkpoint=tmp_path, keep=True
    )
    assert calls(marks) == [0, 1, 2, 3]
    assert_same(got, clean(3, 4))


@pytest.mark.parametrize("key", ["", "../up", "a/b", "a b", "..", "é"])
def test_a_key_that_is_not_a_safe_file_name_is_refused(key: str, tmp_path: Path) -> None:
    with pytest.raises(FivecardError, match=f"not {key!r}"):
        run_parts(toy, (3, "", -1), 2, key=key, workers=0, checkpoint=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_result_that_is_not_arrays_is_refused() -> None:
    with pytest.raises(TypeError, match="'names' of object dtype"):
        run_parts(_objects, None, 1, key="objects", workers=0)


def _objects(spec: Any, part: int) -> Result:
    return {"names": np.array(["a", None], dtype=object)}


# ---------------------------------------------------------------- checkpoints verified


def kept(root: Path, key: str, parts: int = 4, size: int = 3) -> Path:
    """A finished job's checkpoints, kept: its folder."""
    run_parts(toy, (size, "", -1), parts, key=key, workers=0, checkpoint=root, keep=True)
    return root / key


def rerun(root: Path, key: str, marks: Path, parts: int = 4, size: int = 3) -> tuple[list[Result], list[str]]:
    """The job run again over its checkpoints: its results and its notes."""
    notes: list[str] = []
    got = run_parts(toy, (size, str(marks), -1), parts, key=key, workers=0, checkpoint=root, on_note=notes.append)
    return got, notes


def test_a_part_replaced_by_a_copy_of_another_is_run_again(tmp_path: Path, marks: Path) -> None:
    # trusted, the copy gave part 1's arrays for part 2: a wrong answer
    folder = kept(tmp_path, "copied")
    (folder / "part-00002.ckpt").write_bytes((folder / "part-00001.ckpt").read_bytes())
    got, notes = rerun(tmp_path, "copied", marks)
    assert calls(marks) == [2]
    assert_same(got, clean(3, 4))
    assert notes == [
        f"the checkpoints in {str(folder)!r}: 1 of 4 parts failed their checks and are run again: "
        "a copy of another part: part 2"
    ]


def test_another_jobs_part_is_run_again(tmp_path: Path, marks: Path) -> None:
    other = kept(tmp_path, "other", size=5)
    folder = kept(tmp_path, "mine")
    (folder / "part-00003.ckpt").write_bytes((other / "part-00003.ckpt").read_bytes())
    got, notes = rerun(tmp_path, "mine", marks)
    assert calls(marks) == [3] and notes[0].endswith("another job's part: part 3")
    assert_same(got, clean(3, 4))


def _forged(path: Path, change: Callable[[bytes, bytes], tuple[bytes, bytes]]) -> None:
    """A part file with its header and data changed by ``change``, its
    checksum left as it was."""
    data = path.read_bytes()
    magic, rest = data[: len(jobs._MAGIC)], data[len(jobs._MAGIC) : -32]
    header, body = rest.split(b"\n", 1)
    header, body = change(header, body)
    path.write_bytes(magic + header + b"\n" + body + data[-32:])


def _without_share(header: bytes, body: bytes) -> tuple[bytes, bytes]:
    layout = json.loads(header)
    layout["arrays"] = [entry for entry in layout["arrays"] if entry[0] != "share"]
    return json.dumps(layout).encode(), body[:24] + body[40:]  # values (3 x 8 bytes), share (2 x 8), flag


def _as_int32(header: bytes, body: bytes) -> tuple[bytes, bytes]:
    return header.replace(b'"<i8", [3]', b'"<i4", [6]'), body


def _renamed(header: bytes, body: bytes) -> tuple[bytes, bytes]:
    return header.replace(b'"share"', b'"shore"'), body


def _npz(path: Path) -> None:
    with path.open("wb") as handle:  # the former format
        np.savez(handle, values=np.arange(3))


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda path: path.write_bytes(path.read_bytes()[:-1]), "damaged (truncated or extended)"),
        (lambda path: path.write_bytes(path.read_bytes() + b"\0"), "damaged (truncated or extended)"),
        (lambda path: path.write_bytes(b""), "not a checkpoint part (damaged?)"),
        (lambda path: path.write_bytes(path.read_bytes().replace(b"part 1\n", b"part 9\n", 1)),
         "made by another version of fivecard's checkpoint format"),
        (lambda path: _forged(path, lambda h, b: (h, b[:-1] + bytes([b[-1] ^ 1]))), "damaged (its checksum does not match)"),
        (lambda path: _forged(path, _without_share), "damaged (its checksum does not match)"),
        (lambda path: _forged(path, _as_int32), "damaged (its checksum does not match)"),
        (lambda path: _forged(path, _renamed), "damaged (its checksum does not match)"),
        (lambda path: _forged(path, lambda h, b: (h.replace(b'"<f8"', b'"|O8"'), b)), "damaged (its header is not a part's)"),
        (lambda path: _forged(path, lambda h, b: (h[:-1], b)), "damaged (its header is not readable)"),
        (_npz, "not a checkpoint part (damaged?)"),
    ],
    ids=[
        "truncated", "extended", "emptied", "another version", "a byte changed", "an array missing",
        "a dtype and a shape changed", "an array renamed", "an object dtype", "a header cut", "an npz file",
    ],
)
def test_a_damaged_part_is_run_again_with_a_note(
    tmp_path: Path, marks: Path, damage: Callable[[Path], object], reason: str
) -> None:
    # trusted, a changed or missing array was a traceback
    folder = kept(tmp_path, "kept")
    damage(folder / "part-00001.ckpt")
    got, notes = rerun(tmp_path, "kept", marks)
    assert calls(marks) == [1]
    assert_same(got, clean(3, 4))
    assert notes == [
        f"the checkpoints in {str(folder)!r}: 1 of 4 parts failed their checks and are run again: {reason}: part 1"
    ]


def test_an_unreadable_part_is_run_again(tmp_path: Path, marks: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    folder = kept(tmp_path, "locked")
    locked = str(folder / "part-00002.ckpt")
    real = os.open

    def refuse(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(path) == locked:
            raise PermissionError(13, "Permission denied", locked)
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)  # root reads a file of mode 0 too: refused here instead
    got, notes = rerun(tmp_path, "locked", marks)
    assert calls(marks) == [2] and notes[0].endswith("unreadable (Permission denied): part 2")
    assert_same(got, clean(3, 4))


def test_what_is_not_a_regular_file_is_never_opened_as_a_part(tmp_path: Path, marks: Path) -> None:
    # a FIFO in a part's place hung the run; a link is not followed, its target untouched
    import os

    folder = kept(tmp_path, "odd", parts=5)
    for part in range(4):
        (folder / f"part-{part:05d}.ckpt").unlink()
    os.mkfifo(folder / "part-00000.ckpt")
    target = tmp_path / "target"
    target.write_bytes(b"someone's file")
    (folder / "part-00001.ckpt").symlink_to(target)
    (folder / "part-00002.ckpt").mkdir()
    (folder / "part-00003.ckpt").symlink_to(tmp_path / "nowhere")
    outcome: list[object] = []

    def attempt() -> None:
        try:
            outcome.append(rerun(tmp_path, "odd", marks, parts=5))
        except BaseException as error:  # noqa: BLE001 (handed to the test's thread)
            outcome.append(error)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(60)  # a bound for a hang, not a timing check
    if thread.is_alive():  # release it: a writer lets the open return
        with open(folder / "part-00000.ckpt", "wb"):
            thread.join(60)
    assert not thread.is_alive() and len(outcome) == 1 and isinstance(outcome[0], tuple)
    got, notes = outcome[0]
    assert calls(marks) == [0, 1, 2, 3]
    assert_same(got, clean(3, 5))
    assert notes == [
        f"the checkpoints in {str(folder)!r}: 4 of 5 parts failed their checks and are run again: "
        "not a regular file: part 0; a symbolic link (not followed): parts 1 and 3; "
        "a folder in its place (left alone, so the part is not kept): part 2"
    ]
    assert target.read_bytes() == b"someone's file"
    assert sorted(path.name for path in folder.iterdir()) == ["part-00002.ckpt"]  # the folder, left alone


def test_only_the_files_a_run_made_or_accepted_are_removed(tmp_path: Path, marks: Path) -> None:
    # every *.tmp in the folder was deleted, whoever made it
    folder = kept(tmp_path, "strays")
    (folder / "part-00001.ckpt").unlink()
    (folder / "part-00003.ckpt").write_bytes(b"damaged")
    strays = {
        "notes.tmp": b"mine",
        ".part-00001.ckpt.12345-0123456789ab-1.tmp": b"another run's",
        "part-00009.ckpt": b"not of this job's 4 parts",
        "part-1.ckpt": b"",
        "job.json": b"{}",
    }
    for name, data in strays.items():
        (folder / name).write_bytes(data)
    got, notes = rerun(tmp_path, "strays", marks)
    assert calls(marks) == [1, 3] and len(notes) == 1
    assert_same(got, clean(3, 4))
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == strays


def test_a_run_removes_no_part_it_did_not_write_or_accept(tmp_path: Path, marks: Path) -> None:
    # a part swapped after the run accepted it is someone else's file: it stays
    folder = kept(tmp_path, "swapped")
    seen: list[int] = []

    def swap(done: int, parts: int) -> None:
        seen.append(done)
        if len(seen) == 1:
            (folder / "part-00000.ckpt").unlink()
            (folder / "part-00000.ckpt").write_bytes(b"put there meanwhile")

    run_parts(toy, (3, "", -1), 4, key="swapped", workers=0, checkpoint=tmp_path, progress=swap)
    assert [path.name for path in folder.iterdir()] == ["part-00000.ckpt"]
    assert (folder / "part-00000.ckpt").read_bytes() == b"put there meanwhile"


def test_a_run_interrupted_while_writing_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = kept(tmp_path, "stop", parts=2)
    (folder / "part-00001.ckpt").unlink()
    real = jobs._encode_part

    def stopping(*args: Any) -> Iterator[Any]:
        for count, piece in enumerate(real(*args)):
            if count == 2:
                raise KeyboardInterrupt
            yield piece

    monkeypatch.setattr(jobs, "_encode_part", stopping)
    with pytest.raises(KeyboardInterrupt):
        run_parts(toy, (3, "", -1), 2, key="stop", workers=0, checkpoint=tmp_path)
    assert [path.name for path in folder.iterdir()] == ["part-00000.ckpt"]


@pytest.mark.parametrize("resume", [None, "to resume, run the same command again: fivecard strategy ..."])
def test_an_interrupt_notes_the_parts_kept_and_how_to_resume(tmp_path: Path, resume: str | None) -> None:
    """Stopped after its second part, a job's interrupt carries one note:
    the parts kept, where, and how to resume (the caller's words, else the
    library's); a job that keeps nothing (no checkpoints, or stopped before
    its first part) adds none."""

    def stop_at(after: int) -> Callable[[int, int], None]:
        def progress(done: int, parts: int) -> None:
            if done == after:
                raise KeyboardInterrupt

        return progress

    with pytest.raises(KeyboardInterrupt) as caught:
        run_parts(toy, (3, "", -1), 4, key="noted", workers=0, checkpoint=tmp_path, progress=stop_at(2), resume=resume)
    how = resume or "the same job run again resumes from them"
    assert caught.value.__notes__ == [f"2 of 4 parts done are kept in '{tmp_path / 'noted'}'; {how}"]
    assert part_files(tmp_path / "noted") == ["part-00000.ckpt", "part-00001.ckpt"]
    with pytest.raises(KeyboardInterrupt) as caught:  # the 2 kept are read: stopped at the third, 3 are kept
        run_parts(toy, (3, "", -1), 4, key="noted", workers=0, checkpoint=tmp_path, progress=stop_at(3), resume=resume)
    assert caught.value.__notes__ == [f"3 of 4 parts done are kept in '{tmp_path / 'noted'}'; {how}"]
    for checkpoint, key in ((None, "noted"), (tmp_path, "fresh")):
        with pytest.raises(KeyboardInterrupt) as caught:
            run_parts(toy, (3, "", -1), 4, key=key, workers=0, checkpoint=checkpoint, progress=stop_at(2 if checkpoint is None else 0))
        assert getattr(caught.value, "__notes__", []) == []


def test_a_part_holds_every_dtype_a_result_may_have(tmp_path: Path) -> None:
    results = [_dtypes(None, 0)]
    run_parts(_dtypes, None, 1, key="dtypes", workers=0, checkpoint=tmp_path, keep=True)
    notes: list[str] = []
    again = run_parts(_fails, None, 1, key="dtypes", workers=0, checkpoint=tmp_path, on_note=notes.append)
    assert_same(again, results)
    assert notes == []
    with pytest.raises(TypeError, match="'when' of dtype datetime64.*which checkpoints do not hold"):
        run_parts(_datetimes, None, 1, key="dates", workers=0)


def _dtypes(spec: Any, part: int) -> Result:
    return {
        "bool": np.array([True, False]),
        "scalar": np.array(7, dtype=np.uint16),
        "empty": np.zeros((0, 3), dtype=np.float32),
        "complex": np.array([1 + 2j]),
        "big-endian": np.arange(4, dtype=">i4").reshape(2, 2),
        "text": np.array(["AS", "KD"]),
        "bytes": np.array([b"xy"]),
        "strided": np.arange(10, dtype=np.int64)[::3],
        "fortran": np.asfortranarray(np.arange(6, dtype=np.int8).reshape(2, 3)),
    }


def _fails(spec: Any, part: int) -> Result:
    raise AssertionError("read from the checkpoint, not run")


def _datetimes(spec: Any, part: int) -> Result:
    return {"when": np.array(["2024-01-01"], dtype="datetime64[D]")}



# ---------------------------------------------------------------- modes


def test_plan_says_where_the_parts_run(monkeypatch: pytest.MonkeyPatch) -> None:
    assert plan(0) == "in this process"
    assert plan(1) == "a local cluster of 1 process"
    assert plan(2) == "a local cluster of 2 processes"
    assert plan(1, threads=True) == "1 thread of this process"
    assert plan(2, threads=True) == "2 threads of this process"
    assert plan(0, threads=True) == "in this process"
    assert plan(None) == plan(jobs.cores())
    assert plan(3, "tcp://10.0.0.1:8786") == "the cluster at tcp://10.0.0.1:8786"
    with pytest.raises(FivecardError, match="not -1"):
        plan(-1)


def test_without_dask_workers_run_here_and_a_scheduler_is_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jobs, "dask_available", lambda: False)
    assert plan(2) == "in this process"
    assert plan(None) == "in this process"
    assert_same(run_parts(toy, (2, "", -1), 3, key="k", workers=2), clean(2, 3))
    message = r"'tcp://10.0.0.1:8786' needs Dask distributed: pip install 'fivecard\[cluster\]'"
    with pytest.raises(FivecardError, match=message):
        plan(0, "tcp://10.0.0.1:8786")
    with pytest.raises(FivecardError, match=message):
        run_parts(toy, (2, "", -1), 3, key="k", scheduler="tcp://10.0.0.1:8786")


def test_threads_need_no_dask_and_import_none_of_it() -> None:
    # a job whose parts release the GIL runs on two threads from a plain install
    code = """
import sys, threading
sys.modules["dask"] = sys.modules["distributed"] = None  # an import of either fails
from fivecard.vector import jobs
print(jobs.plan(2, threads=True))
ran = []
def work(spec, part):
    ran.append(threading.get_ident())
    return jobs._square(spec, part)
got = jobs.run_parts(work, 3, 4, key="plain", workers=2, threads=True)
print([r["x"].tolist() for r in got], threading.get_ident() not in ran)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["2 threads of this process", "[[0, 3], [1, 3], [2, 3], [3, 3]] True"]


def test_importing_the_module_does_not_import_dask() -> None:
    code = (
        "import sys, fivecard.vector.jobs; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- Dask


@pytest.mark.slow
@pytest.mark.parametrize("threads", [False, True], ids=["processes", "threads"])
def test_a_local_cluster_gives_the_same_results(tmp_path: Path, threads: bool, leaves_nothing: None) -> None:
    seen: list[tuple[int, int]] = []
    got = run_parts(
        toy, (5, "", -1), 6, key="dask", workers=2, checkpoint=tmp_path,
        progress=lambda *a: seen.append(a), threads=threads,
    )
    assert_same(got, clean(5, 6))
    assert seen == [(done, 6) for done in range(7)]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_workers_run_blas_on_one_thread(monkeypatch: pytest.MonkeyPatch, leaves_nothing: None) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    got = run_parts(blas_threads, None, 2, key="blas", workers=1)
    assert [result["threads"].tolist() for result in got] == [[1, 1, 1], [1, 1, 1]]
    import os

    assert os.environ["OPENBLAS_NUM_THREADS"] == "3"  # this process's own settings kept
    assert "OMP_NUM_THREADS" not in os.environ


@pytest.mark.slow
def test_workers_ignore_ctrl_c_and_keep_the_c_librarys_memory_settings(leaves_nothing: None) -> None:
    # a terminal's Ctrl-C reaches the whole process group: the workers leave
    # it to this process (else each printed a traceback); and Dask's default
    # MALLOC_TRIM_THRESHOLD_ made numpy's big temporaries slow
    import signal

    (got,) = run_parts(worker_settings, None, 1, key="settings", workers=1)
    assert got["ignores_sigint"].tolist() == [True] and got["trim"].tolist() == [False]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # this process's own kept


@pytest.mark.slow
@pytest.mark.parametrize("threads", [False, True], ids=["processes", "threads"])
def test_an_error_in_a_worker_reaches_the_caller_as_itself(
    tmp_path: Path, marks: Path, threads: bool, leaves_nothing: None
) -> None:
    with pytest.raises(HandError, match=r"^part 2 is not a hand \('XX'\)$") as caught:
        run_parts(toy, (3, str(marks), 2), 4, key="fails", workers=1, checkpoint=tmp_path, threads=threads)
    assert type(caught.value) is HandError
    folder = tmp_path / "fails"
    done = [int(name[5:10]) for name in part_files(folder)]
    got = run_parts(toy, (3, "", -1), 4, key="fails", workers=0, checkpoint=tmp_path)
    assert_same(got, clean(3, 4))
    assert 2 not in done


@pytest.mark.slow
@pytest.mark.parametrize("threads", [False, True], ids=["processes", "threads"])
def test_an_interrupt_keeps_the_finished_parts_and_closes_the_cluster(
    tmp_path: Path, marks: Path, threads: bool, leaves_nothing: None
) -> None:
    def interrupt(done: int, parts: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_parts(
            toy, (3, "", -1), 5, key="stop", workers=1, checkpoint=tmp_path, progress=interrupt, threads=threads
        )
    finished = [int(name[5:10]) for name in part_files(tmp_path / "stop")]
    assert len(finished) == 2
    got = run_parts(toy, (3, str(marks), -1), 5, key="stop", workers=0, checkpoint=tmp_path)
    assert calls(marks) == sorted(set(range(5)) - set(finished))
    assert_same(got, clean(3, 5))


@pytest.mark.slow
def test_a_local_clusters_workers_do_not_profile_themselves(leaves_nothing: None) -> None:
    # Dask's profiler samples every thread's stack 100 times a second, holding the GIL
    got = run_parts(profiled, None, 2, key="profiler", workers=2)
    assert [result["profiled"].tolist() for result in got] == [[False], [False]]


@pytest.mark.slow
def test_a_second_interrupt_while_the_cluster_closes_still_closes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, leaves_nothing: None
) -> None:
    # Ctrl-C pressed twice: the cluster left half-closed held the process's
    # exit 10 s (distributed closing it at exit), its threads running meanwhile
    import signal

    from distributed.deploy.spec import SpecCluster

    real = SpecCluster.close
    pressed: list[int] = []

    def close_pressed_again(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not pressed:
            pressed.append(signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SpecCluster, "close", close_pressed_again)

    def interrupt(done: int, parts: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as caught:
        run_parts(
            toy, (3, "", -1), 5, key="twice", workers=1, checkpoint=tmp_path, progress=interrupt
        )
    assert pressed
    assert "2 of 5 parts done are kept" in "".join(getattr(caught.value, "__notes__", []))
    assert len(part_files(tmp_path / "twice")) == 2


@pytest.mark.slow
def test_threads_run_the_parts_in_this_process_on_no_port(leaves_nothing: None) -> None:
    # they share this process's memory and open no port (whatever this test
    # process listens on is on the loopback)
    got = run_parts(where_run, None, 4, key="threads", workers=2, threads=True)
    assert {int(result["pid"][0]) for result in got} == {os.getpid()}
    assert len({int(result["thread"][0]) for result in got} - {threading.get_ident()}) >= 1
    assert threading.get_ident() not in {int(result["thread"][0]) for result in got}
    assert all(result["loopback"].tolist() == [True] for result in got)


@pytest.mark.slow
def test_an_unreachable_scheduler_is_an_error_naming_it(leaves_nothing: None) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    outcome: list[BaseException] = []

    def attempt() -> None:
        try:
            run_parts(toy, (3, "", -1), 2, key="far", scheduler=address, connect_timeout=1)
        except BaseException as error:  # noqa: BLE001 (handed to the test's thread)
            outcome.append(error)

    thread = threading.Thread(target=attempt)
    thread.start()
    thread.join(120)  # a bound for a hang, not a timing check
    assert not thread.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], FivecardError)
    assert f"the Dask scheduler at {address!r}" in str(outcome[0])


@pytest.mark.slow
def test_an_existing_cluster_by_address_or_client(leaves_nothing: None) -> None:
    with jobs._local_cluster(2) as cluster:
        address = cluster.scheduler_address
        assert plan(0, address) == f"the cluster at {address}"
        got = run_parts(toy, (4, "", -1), 5, key="remote", scheduler=address, workers=0)
        assert_same(got, clean(4, 5))
        client = jobs._distributed().Client(cluster)
        try:
            got = run_parts(toy, (4, "", -1), 5, key="client", client=client)
            assert_same(got, clean(4, 5))
            assert client.status == "running"  # a client given is the caller's to close
        finally:
            client.close()


def test_the_default_workers_leave_half_the_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert jobs.memory() == memory
    assert jobs.cores() == 64
    assert jobs.default_workers() == 64
    assert jobs.default_workers(memory_each=memory // 8) == 4  # half the memory, an eighth each
    assert jobs.default_workers(memory_each=memory * 2) == 1  # always one


@pytest.mark.slow
def test_a_cluster_that_gives_up_is_one_error_and_the_finished_parts_stay(
    tmp_path: Path, leaves_nothing: None
) -> None:
    with pytest.raises(FivecardError, match=r"the Dask cluster stopped the run \(CommClosedError: .*run again to resume"):
        run_parts(lost_worker, None, 2, key="lost", workers=1, checkpoint=tmp_path)


def test_a_checkpoint_folder_removed_meanwhile_is_made_again(tmp_path: Path) -> None:
    # two runs of one key: the first to finish removes the folder the other still writes to
    import shutil

    def remove_after_first(done: int, parts: int) -> None:
        if done == 1:
            shutil.rmtree(tmp_path / "again")

    got = run_parts(toy, (4, "", -1), 3, key="again", workers=0, checkpoint=tmp_path, progress=remove_after_first)
    assert_same(got, clean(4, 3))


def test_two_runs_of_one_job_at_once_both_finish(tmp_path: Path) -> None:
    # the first to finish removes the folder the other still writes to
    from concurrent.futures import ThreadPoolExecutor

    def one() -> list[Result]:
        return run_parts(toy, (4, "", -1), 40, key="twice", workers=0, checkpoint=tmp_path)

    with ThreadPoolExecutor(2) as pool:
        runs = [pool.submit(one) for _ in range(4)]
        for run in runs:
            assert_same(run.result(), clean(4, 40))


# ---------------------------------------------------------------- forked processes


def _forked_run(forked: jobs.Forked, work: Callable[..., Any], spec: Any, parts: int, **options: Any) -> list[tuple[int, Any]]:
    """The parts run by ``forked``: (part, answer) in the order handed on."""
    heard: list[tuple[int, Any]] = []
    forked.run(work, spec, range(parts), lambda part, answer: heard.append((part, answer)), **options)
    return heard


@pytest.fixture
def no_process_left() -> Iterator[None]:
    """The test's forked processes are all stopped and reaped."""
    import multiprocessing

    before = _leftovers()[0]
    yield
    assert multiprocessing.active_children() == []
    assert _leftovers()[0] <= before


def test_forked_parts_give_what_the_other_places_give(no_process_left: None) -> None:
    # the same work, the same answers in part order: in this process, on Dask, or forked
    heard = _forked_run(jobs.Forked(), toy, (4, "", -1), 5)
    assert [part for part, _ in heard] == list(range(5))
    assert_same([answer for _, answer in heard], clean(4, 5))


def test_forked_parts_run_elsewhere_the_first_here_and_count_as_they_go(no_process_left: None) -> None:
    import os

    def work(spec: int, part: int, counters: Any) -> tuple[int, int]:
        counters[0], counters[1] = spec * part, part
        return part, os.getpid()

    forked = jobs.Forked(counters=2)
    heard = _forked_run(forked, work, 10, 4, here=lambda: ("here", os.getpid()))
    assert [part for part, _ in heard] == [0, 1, 2, 3]
    assert heard[0][1] == ("here", os.getpid())
    pids = [answer[1] for _, answer in heard[1:]]
    assert len(set(pids)) == 3 and os.getpid() not in pids
    assert forked.counted(0) == 10 + 20 + 30 and forked.counted(1) == 1 + 2 + 3
    assert forked.counted(0, unfinished=True) == 0  # every answer received


def test_an_error_in_a_forked_part_reaches_the_caller_as_itself(marks: Path, no_process_left: None) -> None:
    with pytest.raises(HandError, match=r"^part 2 is not a hand \('XX'\)$") as caught:
        _forked_run(jobs.Forked(), toy, (3, str(marks), 2), 4)
    assert type(caught.value) is HandError

    def unsendable(spec: Any, part: int) -> Result:
        class Local(Exception):  # not picklable: its text comes instead
            pass

        raise Local(f"part {part} failed")

    with pytest.raises(FivecardError, match=r"^Local: part 0 failed$"):
        _forked_run(jobs.Forked(), unsendable, None, 1)


def test_a_lost_forked_process_is_an_error_naming_its_exit_code(no_process_left: None) -> None:
    import os

    def lost(spec: Any, part: int) -> Result:
        os._exit(3)

    with pytest.raises(FivecardError, match=r"^a process solving a toy stopped \(exit code 3\)$"):
        _forked_run(jobs.Forked(doing="solving a toy"), lost, None, 2)


def test_forked_processes_leave_the_stop_signals_to_this_one(no_process_left: None) -> None:
    import signal

    def handlers(spec: Any, part: int) -> list[bool]:
        return [signal.getsignal(number) == signal.SIG_IGN for number in STOP_SIGNALS]

    heard = _forked_run(jobs.Forked(), handlers, None, 2)
    assert [answer for _, answer in heard] == [[True] * len(STOP_SIGNALS)] * 2
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # this process's own kept


def test_an_interrupt_while_waiting_stops_every_forked_process(no_process_left: None) -> None:
    import time

    def slow(spec: Any, part: int) -> Result:
        time.sleep(60)
        return {}

    def interrupt() -> None:
        raise KeyboardInterrupt

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        _forked_run(jobs.Forked(poll=0.01), slow, None, 3, waiting=interrupt)
    assert time.monotonic() - started < 30  # killed, not waited for


def test_forked_runs_only_where_fork_is_safe() -> None:
    assert jobs.Forked.available() == sys.platform.startswith("linux")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not jobs.Forked.available()  # a fork copies only the calling thread
    finally:
        stop.set()
        other.join()


# ---------------------------------------------------------------- the machine and the cut


@pytest.mark.slow
def test_a_cut_covers_the_job_in_near_equal_parts_in_order() -> None:
    for total in (0, 1, 2, 7, 10, 1000, 4 << 20):
        for parts in (1, 2, 3, 7, 16):
            pieces = jobs.cut(total, parts)
            assert len(pieces) == parts
            assert [x for piece in pieces for x in piece] == list(range(total))
            assert max(map(len, pieces)) - min(map(len, pieces)) <= 1
    with pytest.raises(FivecardError, match="not 0"):
        jobs.cut(10, 0)


def test_the_cores_are_those_this_process_may_run_on(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 5, 9}, raising=False)
    assert jobs.cores() == 3 and jobs.default_workers() == 3
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)  # a system without it: all the machine's
    assert jobs.cores() == 64


def test_the_default_workers_give_each_at_least_its_share(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "cores", lambda: 8)
    assert jobs.default_workers(size=3 * 100, each=100) == 3
    assert jobs.default_workers(size=30 * 100, each=100) == 8
    assert jobs.default_workers(size=99, each=100) == 1  # always one
    assert jobs.default_workers(size=0) == 1


def test_the_code_digest_follows_the_kernels_sources_and_builds(tmp_path: Path) -> None:
    from importlib.machinery import EXTENSION_SUFFIXES

    (tmp_path / "core").mkdir()
    files = {
        "core/rules.py": b"x = 1\n",
        "core/_kernel.c": b"int f(void) { return 1; }\n",
        "_buffers.h": b"#define N 1\n",
        "core/_kernel" + EXTENSION_SUFFIXES[0]: b"\x7fELF built",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    first = jobs.tree_digest(tmp_path)
    for name, data in files.items():
        (tmp_path / name).write_bytes(data + b" ")
        assert jobs.tree_digest(tmp_path) != first, name
        (tmp_path / name).write_bytes(data)
    assert jobs.tree_digest(tmp_path) == first
    (tmp_path / "core" / "__pycache__").mkdir()
    (tmp_path / "core" / "__pycache__" / "rules.cpython-311.pyc").write_bytes(b"compiled")
    (tmp_path / "notes.txt").write_bytes(b"not code")
    assert jobs.tree_digest(tmp_path) == first
