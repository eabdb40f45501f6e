"""The dealer games' session figures kept in the app (:class:`~fivecard.web.sessions.Sessions`):
however many views of one game come at once, cached or not, its history is
read from the start at most once, and every view gets the figures of every
settled round (the library's :func:`~fivecard.play.view.session_json`)."""

from __future__ import annotations

import threading
import time
from typing import Any, cast

import pytest

from fivecard.play.view import session_json
from fivecard.web.sessions import Sessions
from fivecard.web.store import TableGameStore


def settled(n: int) -> list[dict[str, Any]]:
    """``n`` settled rounds' events (the fields the figures read): the
    player wins 10, loses 10, folds, in turn."""
    events, stack = [], 500
    for i in range(n):
        outcome, chips = [("win", 10), ("lose", -10), ("fold", -5)][i % 3]
        stack += chips
        events.append(
            {"type": "round_settled", "stacks": [stack, 500], "pot_winners": [],
             "results": [{"seat": 0, "outcome": outcome, "chips": chips, "pot": 0}]}
        )  # fmt: skip
    return events


class SlowHistory:
    """A store's history of one game's settled rounds, each read taking a
    while (so that views overlap), counting the reads from the start."""

    def __init__(self, rounds: int) -> None:
        self.events = settled(rounds)
        self.from_start = 0
        self.lock = threading.Lock()

    def events_after(self, game_id: str, seq: int, limit: int = 500, type: str | None = None) -> list[tuple[int, dict[str, Any]]]:
        if seq == 0:
            with self.lock:
                self.from_start += 1
        time.sleep(0.05)
        return [(n, e) for n, e in enumerate(self.events, 1) if n > seq][:limit]


def views_at_once(sessions: Sessions, viewers: int) -> list[dict[str, Any]]:
    start = threading.Barrier(viewers)
    answers: list[dict[str, Any]] = []

    def view() -> None:
        start.wait()
        answers.append(sessions.figures("g", 500))

    threads = [threading.Thread(target=view) for _ in range(viewers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


@pytest.mark.parametrize("viewers", [2, 3, 5, 8])
@pytest.mark.parametrize("cached", [False, True], ids=["first views", "views of a kept game"])
def test_views_at_once_read_a_games_history_from_the_start_once(viewers: int, cached: bool) -> None:
    history = SlowHistory(1200)  # more than one page of rounds
    sessions = Sessions(cast(TableGameStore[Any], history))
    if cached:
        sessions.figures("g", 500)
        history.events += settled(1203)[1200:]  # rounds settled since
    answers = views_at_once(sessions, viewers)
    assert history.from_start == 1
    assert answers == [session_json(history.events, 500)] * viewers


@pytest.mark.parametrize("failing_read", [1, 2, 3])
def test_a_read_that_fails_midway_leaves_no_round_counted_twice(failing_read: int) -> None:
    history = SlowHistory(1200)  # three pages of rounds
    reads = 0
    read = history.events_after

    def flaky(game_id: str, seq: int, limit: int = 500, type: str | None = None) -> list[tuple[int, dict[str, Any]]]:
        nonlocal reads
        reads += 1
        if reads == failing_read:
            raise OSError("the disk went away")
        return read(game_id, seq, limit, type)

    history.events_after = flaky  # type: ignore[method-assign]
    sessions = Sessions(cast(TableGameStore[Any], history))
    with pytest.raises(OSError):
        sessions.figures("g", 500)
    assert sessions.figures("g", 500) == session_json(history.events, 500)
