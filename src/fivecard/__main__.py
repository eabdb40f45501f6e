"""``python -m fivecard``: the same as the ``fivecard`` command."""

from .cli import run

run()
