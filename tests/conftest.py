"""Test settings: hypothesis without per-example deadlines (a busy CI machine
must not turn slowness into failures; speed is measured by benchmarks), and a
table cache of the session's own (unless FIVECARD_CACHE chooses one), so the
tests neither read nor write the user's cache."""

import atexit
import os
import shutil
import tempfile

from hypothesis import settings

if "FIVECARD_CACHE" not in os.environ:
    _cache = tempfile.mkdtemp(prefix="fivecard-test-cache-")
    atexit.register(shutil.rmtree, _cache, ignore_errors=True)
    os.environ["FIVECARD_CACHE"] = _cache

settings.register_profile("fivecard", deadline=None)
settings.load_profile("fivecard")
