"""The compiled kernels, and whether this process uses them.

The hot loops (a hand scored per call, many rows at once, every hand of a
deck, the solvers' sums, rows of output joined) run in C where ``pip
install`` found a C compiler:
extension modules beside the Python that feeds them, such as
``fivecard.core._kernel``. They know no poker: they read the tables the
Python code builds, so a kernel and the Python or numpy path that stands in
for it are two executions of one model, and the tests hold them equal over
whole decks.

Where a kernel was not built (no compiler at install time), or where
``FIVECARD_KERNEL=numpy`` is set in the environment, the Python and numpy
paths serve instead: the same answers, slower.
"""

from __future__ import annotations

import os
from importlib import import_module
from types import ModuleType

__all__ = ["ENVIRONMENT", "load", "built", "digest"]

#: The environment variable that turns the kernels off (``numpy``).
ENVIRONMENT = "FIVECARD_KERNEL"
#: The extension modules fivecard builds.
MODULES = ("fivecard.core._kernel", "fivecard.play._solver", "fivecard.play._dealer", "fivecard.files._rows")

_loaded: dict[str, ModuleType | None] = {}


def load(name: str) -> ModuleType | None:
    """The extension module ``name`` (one of :data:`MODULES`), or None where
    it was not built or the environment turns the kernels off."""
    if name not in _loaded:
        module: ModuleType | None = None
        if os.environ.get(ENVIRONMENT, "").strip().lower() != "numpy":
            try:
                module = import_module(name)
            except ImportError:
                module = None
        _loaded[name] = module
    return _loaded[name]


def built() -> dict[str, bool]:
    """Each of :data:`MODULES`: whether it is built and in use."""
    return {name: load(name) is not None for name in MODULES}


def digest(name: str) -> int:
    """A checksum of the built extension module ``name`` (0 where this
    process does not use it), for the keys of what a kernel counted and the
    user's cache keeps: what another build (or the numpy path) made is
    never read as this one's."""
    module = load(name)
    path = getattr(module, "__file__", None)
    if not path:
        return 0
    from .lookup_cache import module_digest

    return module_digest(path)
