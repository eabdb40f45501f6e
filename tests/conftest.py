"""Test settings: hypothesis without per-example deadlines (a busy CI machine
must not turn slowness into failures; speed is measured by benchmarks)."""

from hypothesis import settings

settings.register_profile("fivecard", deadline=None)
settings.load_profile("fivecard")
