#!/usr/bin/env bash
# Quick start, step 2: set up with the test tools, check types, run every test
# (unit, property, whole-deck, README and docstring examples).
FIVECARD_EXTRAS=test
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
.venv/bin/python -m mypy
.venv/bin/python -m pytest "$@"
