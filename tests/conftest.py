"""Test settings: hypothesis without per-example deadlines (a busy CI machine
must not turn slowness into failures; speed is measured by benchmarks); work
that gives the same result every time done once per run: the advice on each
hand the draw game deals, and the command's argument parser."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("fivecard", deadline=None)
settings.load_profile("fivecard")


@pytest.fixture(autouse=True, scope="session")
def advice_once() -> Iterator[None]:
    """The game's computers and hints ask the advisor, an exact enumeration
    (0.1-1 s a hand; checked against brute force in test_advise), about the
    same seeded hands in many tests. Advice depends on the hand alone, so
    the game's advisor remembers it: the first test to deal a hand computes
    its advice, the others reuse it."""
    import fivecard.game
    from fivecard.advise import advise

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fivecard.game, "advise", functools.cache(advise))
        yield


@pytest.fixture(autouse=True, scope="session")
def parser_once() -> Iterator[None]:
    """The tests run the command in process about a thousand times; a process
    builds its argument parser once, and so does the test run (building it
    is most of a small run's time). A parser keeps nothing of what it
    parsed."""
    import fivecard.commands

    with pytest.MonkeyPatch.context() as patch:
        if hasattr(fivecard.commands, "_build_parser"):
            patch.setattr(fivecard.commands, "_build_parser", functools.cache(fivecard.commands._build_parser))
        yield
