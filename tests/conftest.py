"""Test settings: hypothesis without per-example deadlines (a busy CI machine
must not turn slowness into failures; speed is measured by benchmarks); a
table cache of the session's own (unless FIVECARD_CACHE chooses one), so the
tests neither read nor write the user's cache; English, whatever the
user's locale (the recorded outputs and the manual's sessions are English:
a test of another language sets its own); and the advice on each hand
the draw game deals computed once per run."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import settings

if "FIVECARD_CACHE" not in os.environ:
    _cache = tempfile.mkdtemp(prefix="fivecard-test-cache-")
    atexit.register(shutil.rmtree, _cache, ignore_errors=True)
    os.environ["FIVECARD_CACHE"] = _cache

# fivecard speaks the environment's language (LC_ALL, LC_MESSAGES, LANG,
# LANGUAGE): every command run here, in this process or another, speaks English.
os.environ["LC_ALL"] = "C.UTF-8"

settings.register_profile("fivecard", deadline=None)
settings.load_profile("fivecard")


@pytest.fixture(autouse=True, scope="session")
def advice_once() -> Iterator[None]:
    """The game's computers and hints ask the advisor, an exact enumeration
    (0.1-1 s a hand; checked against brute force in test_advise), about the
    same seeded hands in many tests. Advice depends on the hand alone, so
    the game's advisor remembers it: the first test to deal a hand computes
    its advice, the others reuse it."""
    import fivecard.play.game
    from fivecard.play.advise import advise

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fivecard.play.game, "advise", functools.cache(advise))
        yield



@pytest.fixture(params=["kernel", "numpy"])
def execution(request: pytest.FixtureRequest) -> Iterator[str]:
    """A test that asks for it runs twice: by the compiled kernels, and by
    the numpy and Python paths that serve where none is built."""
    from helpers import executed_by

    with executed_by(request.param):
        yield request.param


@pytest.fixture
def no_rate_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The web app's rate limits off (their own tests' subject): for tests
    that walk many answers, so that every answer is the one they ask for."""
    from fivecard.web import friends_api as table_api

    monkeypatch.setattr(table_api.RateLimit, "check", lambda self, request, kind: None)
