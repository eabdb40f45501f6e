"""Shared helpers for the tests."""

from __future__ import annotations

import io
import os
import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import oracle

from fivecard import Card, Hand, Suit, get_rules
from fivecard.core.cards import CARDS
from fivecard.core.report import Painter, write_json_object
from fivecard.play.deal import DealTally, deal_rounds
from fivecard.play.game import Game, RoundSettled
from fivecard.vector import batch

SUIT_CYCLE = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def ranked(text: str, *, offset: int = 0) -> Hand:
    """A standard hand from ranks alone ('K, 4, 7, K, 9'): suits go round in
    turn (starting ``offset`` places on), so the hand is never a flush and
    never holds a card twice."""
    cards: list[Card] = []
    for i, token in enumerate(text.replace(",", " ").split()):
        rank = Card.parse(token).rank
        assert rank is not None
        step = offset + i
        while Card(rank, SUIT_CYCLE[step % 4]) in cards:
            step += 1
        cards.append(Card(rank, SUIT_CYCLE[step % 4]))
    return Hand.of(cards)


@dataclass(frozen=True)
class WholeDeck:
    """Every five-card hand of a rule set's dealt deck (``semi``: the 52
    cards with suits hidden; ``joker``: 54 cards; ``short-deck``: 36),
    scored once by the batch path and shared by the tests
    (:func:`whole_deck`)."""

    rules: str
    #: Deck positions (card indices, ``CARDS``: the dealt deck is its first
    #: cards) of each hand, in the order of ``itertools.combinations(range(n), 5)``.
    indices: npt.NDArray[np.uint8]
    #: The card index of each deck position as the rule set sees it (rank-only for semi).
    cards: npt.NDArray[np.int32]
    #: The batch path's strength of each hand.
    strengths: npt.NDArray[np.uint16]


@cache
def whole_deck(rules: str) -> WholeDeck:
    """The whole deck of ``rules``, enumerated and scored once per test run."""
    dealt = get_rules(rules).deck()
    assert [c.rank for c in dealt] == [c.rank for c in CARDS[: len(dealt)]]
    cards = np.array([c.index for c in dealt], dtype=np.int32)
    indices = batch.combinations(len(dealt))
    return WholeDeck(rules, indices, cards, batch.strengths_of_indices(cards[indices], rules=rules))


#: Rank (2 ... 14; a joker 0) and suit (0 ... 3; a joker 4) of each deck
#: index (``CARDS``, 0-53: the jokers 52 and 53), as the reference evaluator reads the cards' text.
RANKS, SUITS = oracle.cards(c.code_str for c in CARDS[:54])


@cache
def oracle_keys(rules: str) -> npt.NDArray[np.int64]:
    """The reference evaluator's key of every hand of :func:`whole_deck`
    (``rules`` a built-in rule set or ``standard+wild(...)``), once per run."""
    deck = whole_deck(rules)
    ranks, suits = oracle.cards(c.code_str for c in get_rules(rules).deck())
    small = deck.indices.astype(np.intp)
    return oracle.keys(oracle.rules_named(rules), ranks.astype(np.int8)[small], suits.astype(np.int8)[small])


def assert_same_order(keys: npt.NDArray[np.int64], strengths: npt.NDArray[np.uint16]) -> None:
    """Strength is a strictly increasing function of the reference key: for
    any two hands, the stronger by one is the stronger by the other, and
    equal is equal. (Sorted by strength, the keys rise where the strengths
    rise and stay where they stay.)"""
    order = np.argsort(strengths, kind="stable")
    s, k = strengths[order].astype(np.int64), keys[order]
    wrong = np.flatnonzero(np.sign(np.diff(k)) != np.sign(np.diff(s)))
    assert not len(wrong), f"rows {order[wrong[0]]} and {order[wrong[0] + 1]} are ordered differently"


#: Semi-Poker's "beats" table (the chat room's ranks-only poker): (better, worse).
SEMI_POKER_BEATS = [
    ("Q, Q, Q, Q, 9", "7, 7, 7, 7, 3"),
    ("Q, Q, Q, Q, 9", "Q, Q, Q, Q, 5"),
    ("7, 7, J, J, 7", "3, 3, 9, 9, 3"),
    ("7, 7, J, J, 7", "3, 3, K, K, 3"),
    ("7, 8, 9, 10, J", "2, 3, 4, 5, 6"),
    ("Q, A, 5, A, A", "2, 4, 2, K, 2"),
    ("Q, A, 5, A, A", "A, 4, A, J, A"),
    ("Q, A, 5, A, A", "A, 4, A, Q, A"),
    ("9, 10, 3, 3, 10", "2, 2, 8, 6, 6"),
    ("9, 10, 3, 3, 10", "2, 2, 7, 5, 5"),
    ("9, 10, 3, 3, 10", "4, 10, 3, 3, 10"),
    ("K, 4, 7, K, 9", "Q, Q, 8, 7, 6"),
    ("K, 4, 7, K, 9", "K, K, 7, 5, 3"),
    ("K, 4, 7, K, 9", "K, K, 9, 5, 3"),
    ("K, 4, 7, K, 9", "K, K, 9, 7, 3"),
    ("3, 4, 9, 8, 5", "2, 3, 4, 5, 7"),
    ("3, 4, 9, 8, 5", "2, 3, 4, 5, 9"),
    ("3, 4, 9, 8, 5", "2, 3, 4, 8, 9"),
    ("3, 4, 9, 8, 5", "2, 3, 5, 8, 9"),
    ("3, 4, 9, 8, 5", "2, 4, 5, 8, 9"),
]

#: Semi-Poker's hand examples: (ranks, category).
SEMI_POKER_HANDS = [
    ("9, 9, 9, 9, 3", "four_of_a_kind"),
    ("4, Q, 4, 4, Q", "full_house"),
    ("2, 3, 4, 5, 6", "straight"),
    ("Q, A, 5, A, A", "three_of_a_kind"),
    ("9, 10, 3, 3, 10", "two_pair"),
    ("K, 4, 7, K, 9", "one_pair"),
    ("2, 3, 9, 8, 4", "high_card"),
]

STANDARD_TABLE = {  # category: (classes, hands) of the standard rules
    "royal_flush": (1, 4),
    "straight_flush": (9, 36),
    "four_of_a_kind": (156, 624),
    "full_house": (156, 3_744),
    "flush": (1_277, 5_108),
    "straight": (10, 10_200),
    "three_of_a_kind": (858, 54_912),
    "two_pair": (858, 123_552),
    "one_pair": (2_860, 1_098_240),
    "high_card": (1_277, 1_302_540),
}

JOKER_TABLE = {  # the joker rules, 54-card deck: (classes, hands)
    "five_of_a_kind": (13, 78),
    "royal_flush": (1, 84),
    "straight_flush": (9, 540),
    "four_of_a_kind": (156, 9_360),
    "full_house": (156, 9_360),
    "flush": (1_277, 11_388),
    "straight": (10, 34_704),
    "three_of_a_kind": (858, 232_968),
    "two_pair": (858, 123_552),
    "one_pair": (2_860, 1_437_936),
    "high_card": (1_277, 1_302_540),
}

JOKER_53_HANDS = {
    "five_of_a_kind": 13,
    "royal_flush": 24,
    "straight_flush": 180,
    "four_of_a_kind": 3_120,
    "full_house": 6_552,
    "flush": 7_804,
    "straight": 20_532,
    "three_of_a_kind": 137_280,
    "two_pair": 123_552,
    "one_pair": 1_268_088,
    "high_card": 1_302_540,
}

SEMI_52_HANDS = {  # the semi rules: dealt from 52 cards, suits hidden
    "five_of_a_kind": 0,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "straight": 9_216,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "one_pair": 1_098_240,
    "high_card": 1_308_672,
}


class CtrlCInput(io.StringIO):
    """Piped answers; Ctrl-C at the prompt after the last one."""

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed's StringIO
        line = super().readline(size)
        if not line:
            raise KeyboardInterrupt
        return line


#: Each way a terminal game is stopped, with the one line fivecard writes
#: on stderr: Ctrl-C, SIGTERM, a closed terminal's SIGHUP (as ``stop``, ``line``).
STOPS: list[Any] = [
    pytest.param(signal.SIGINT, "\nfivecard: interrupted\n", id="SIGINT"),
    pytest.param(signal.SIGTERM, "fivecard: interrupted (SIGTERM)\n", id="SIGTERM"),
    pytest.param(signal.SIGHUP, "fivecard: interrupted (SIGHUP)\n", id="SIGHUP"),
]


def stopped_at(argv: list[str], steps: list[tuple[bytes, bytes]], prompt: bytes, stop: int) -> tuple[int, str, str]:
    """``fivecard ARGV`` in a process of its own, stdin a pipe kept open:
    for each step, wait for its text and type its answer; then wait for
    ``prompt`` and send the signal ``stop``. Its exit code, all it wrote
    on stdout, and its stderr."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    source = Path(__file__).resolve().parents[1] / "src"
    env = dict(os.environ, PYTHONPATH=str(source), NO_COLOR="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "fivecard", *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=env,
    )  # fmt: skip
    assert process.stdout is not None and process.stdin is not None
    try:
        seen = b""
        for wait, answer in steps:
            seen += read_until(process.stdout.fileno(), wait)
            process.stdin.write(answer)
            process.stdin.flush()
        seen += read_until(process.stdout.fileno(), prompt)
        process.send_signal(stop)
        rest, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, (seen + rest).decode(), err.decode()


def read_until(fd: int, marker: bytes) -> bytes:
    """Read ``fd`` (a pipe from, or the terminal of, a process under test)
    until ``marker`` has come, and return all that came. The test fails if
    the stream ends first, or says nothing for two minutes (a guard against
    hanging, not a timing test)."""
    import os
    import selectors

    import pytest

    seen = b""
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while marker not in seen:
            if not selector.select(timeout=120):
                pytest.fail(f"waited for {marker!r} in vain; so far: {seen!r}")
            chunk = os.read(fd, 65536)
            if not chunk:
                pytest.fail(f"the stream ended before {marker!r}: {seen!r}")
            seen += chunk
    return seen


def dealt_as_the_rounds_say(players: int, rules: str, seed: int, rounds: int, as_json: bool, color: bool) -> str:
    """What ``fivecard deal`` writes, made from the library's per-round
    objects (deal_rounds, Painter, Round.to_json) one round at a time."""
    ruleset = get_rules(rules)
    painter = Painter(color=color)
    out = io.StringIO()
    tally = DealTally(players, ruleset)
    dealt = deal_rounds(players, rules=ruleset, seed=seed, rounds=rounds)
    if as_json:
        def counted() -> Iterator[dict[str, Any]]:
            for played in dealt:
                tally.add(played)
                yield played.to_json()

        def fields() -> Iterator[tuple[str, Any]]:
            yield "rules", ruleset.name
            yield "seed", seed
            yield "players", players
            yield "rounds", counted()
            yield "tally", tally.to_json()

        write_json_object(out, fields())
        return out.getvalue()
    for played in dealt:
        tally.add(played)
        out.write(f"Round {played.number}\n" if rounds > 1 else "")
        for i, evaluation in enumerate(played.evaluations):
            mark = ""
            if played.showdown is not None and i in played.showdown.winners:
                mark = "  <- splits" if played.showdown.is_split else "  <- wins"
            out.write(f"Hand {i + 1}: {painter.evaluation(evaluation)}{mark}\n")
        if played.showdown is not None:
            out.write(painter.bold(played.showdown.explanation) + "\n")
        out.write("\n" if rounds > 1 else "")
    return out.getvalue()


@pytest.fixture
def held_advisor(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """``/api/advise`` held at work until the test sets the event (the
    computer players' own advice is not held); set again at the end. A
    test module takes it by importing it."""
    import fivecard.play.advise
    import fivecard.web.app

    go, real = threading.Event(), fivecard.play.advise.advise

    def advise(*args: Any, **kwargs: Any) -> Any:
        assert go.wait(10.0)
        return real(*args, **kwargs)

    monkeypatch.setattr(fivecard.web.app, "advise", advise)
    yield go
    go.set()


def watch_opens() -> Iterator[list[str]]:
    """For a fixture: the files opened while a test runs (an audit hook
    sees every ``open``; a hook stays for the process, so it stops
    watching when the test is done), but fivecard's own code: FastAPI
    reads an endpoint's source lines the first time it raises (for the
    error's context), which is no file a request named."""
    import os
    import sys

    import fivecard

    own = os.path.dirname(os.path.abspath(fivecard.__file__)) + os.sep
    seen: list[str] = []
    watching = [True]

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if watching[0] and event == "open":
            name = str(args[0])
            if not (name.endswith(".py") and os.path.abspath(name).startswith(own)):
                seen.append(name)

    sys.addaudithook(hook)
    yield seen
    watching[0] = False


# --- the dealer game through the web API --------------------------------------------------


def api_new_game(client: Any, **fields: Any) -> dict[str, Any]:
    """A new dealer game (seed 4 unless given) through ``client`` (a
    TestClient): its view."""
    response = client.post("/api/games", json={"seed": 4, **fields})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def api_game_act(client: Any, game_id: str, action: str, **fields: Any) -> dict[str, Any]:
    """One action on a dealer game through ``client``: the view after it."""
    response = client.post(f"/api/games/{game_id}/actions", json={"action": action, **fields})
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


# --- percentages as the app writes them -----------------------------------------------------

#: (value, digits, shown): the one rule of percentages (fivecard.play.percent
#: and common.js percent), held to this table by tests on both sides.
PERCENT_TABLE: list[tuple[float, int, str]] = [
    (0.0, 1, "0.0%"),
    (1e-9, 1, "<0.1%"),
    (0.0004999, 1, "<0.1%"),
    (0.0005, 1, "0.1%"),
    (0.001, 1, "0.1%"),
    (0.4613, 1, "46.1%"),
    (0.0625, 1, "6.3%"),  # 6.25 exactly: a tie rounds up
    (0.8125, 1, "81.3%"),
    (0.5, 1, "50.0%"),
    (0.9994, 1, "99.9%"),
    (0.99996, 1, ">99.9%"),
    (1.0, 1, "100.0%"),
    (1.0076, 1, "100.8%"),
    (0.00004, 2, "<0.01%"),
    (0.995439, 2, "99.54%"),
    (0.99999, 2, ">99.99%"),
    (1.0, 2, "100.00%"),
    (-0.0123, 2, "-1.23%"),
]


def engine_round(rules: str, seed: int, keep: Sequence[int] | None, *, stack: int = 1000) -> tuple[Game, RoundSettled]:
    """The first round as the page plays it: you exchange keeping ``keep``
    (0-based; None: fold), the computers act, the dealer's five, settle."""
    game = Game(rules=rules, seed=seed, stack=stack)
    game.start_round()
    if keep is None:
        game.fold(0)
    else:
        game.exchange(0, list(keep))
    while game.can_computer_act():
        game.computer_acts()
    while game.can_reveal():
        game.reveal_dealer_card()
    return game, game.settle()


def table_events(client: Any, table_id: str, **params: str) -> list[dict[str, Any]]:
    """Every event of a friends' table so far, as this browser's event
    stream sends them (``params``: the stream's query, e.g. ``lang``)."""
    import json

    last = client.get(f"/api/tables/{table_id}").json()["last_event"]
    found: list[dict[str, Any]] = []
    with client.stream("GET", f"/api/tables/{table_id}/events", params={"after": "0", **params}) as stream:
        seq = 0
        for line in stream.iter_lines():
            if line.startswith("id: "):
                seq = int(line[4:])
            elif line.startswith("data: "):
                found.append(json.loads(line[6:]))
                if seq == last:
                    break
    return found


@contextmanager
def executed_by(execution: str) -> Iterator[None]:
    """Within: the compiled kernels (``kernel``) or the numpy and Python
    paths that stand in for them where none is built (``numpy``), whatever
    this process used before; the functions that hold a kernel's scorer
    are made again on each side, the games' counts per card set held in
    memory are dropped (each side counts its own where the user's cache is
    off), and so are the dealer game's tables kept in this process."""
    from fivecard.core import kernel, lookup, seven
    from fivecard.play import dealer, strategy

    made = (lookup._five_strength_function, seven._best_strength_function, seven.compiled_scorer)
    before = os.environ.get(kernel.ENVIRONMENT)

    def choose(value: str | None) -> None:
        if value is None:
            os.environ.pop(kernel.ENVIRONMENT, None)
        else:
            os.environ[kernel.ENVIRONMENT] = value
        kernel._loaded.clear()
        for function in made:
            function.cache_clear()
        with strategy._HELD_LOCK:
            strategy._HELD_VALUES.clear()
        dealer._kept_things.clear()

    choose("numpy" if execution == "numpy" else None)
    if execution == "kernel":
        assert all(kernel.built().values()), "the compiled kernels are not built"
    try:
        yield
    finally:
        choose(before)
