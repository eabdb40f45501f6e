#!/usr/bin/env bash
# Quick start, step 2: set up with the test tools, check types, run every test
# (unit, property, whole-deck, the examples of the README, the manual and the
# docstrings), and build the manual.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Set up (scripts/setup.sh) unless .venv has the test tools installed since
# pyproject.toml and setup.sh last changed (the install is editable: changes
# to the code need none).
stamp=.venv/.fivecard-test-tools
if ! { [ -x .venv/bin/python ] && [ "$stamp" -nt pyproject.toml ] && [ "$stamp" -nt scripts/setup.sh ]; }; then
    FIVECARD_EXTRAS=test
    source scripts/setup.sh
    touch "$stamp"
fi

# The compiled kernels (C, src/fivecard/*/_*.c, and the header they share,
# src/fivecard/_buffers.h): built again when a source or the header is newer
# than a build (an editable install compiles them only when it runs).
if command -v "${CC:-cc}" >/dev/null; then
    for source in src/fivecard/*/_*.c; do
        built=$(ls "${source%.c}".*.so 2>/dev/null | head -n 1)
        if [ -z "$built" ] || [ "$source" -nt "$built" ] || [ src/fivecard/_buffers.h -nt "$built" ]; then
            echo "building the compiled kernels ($source changed)" >&2
            .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --editable .
            break
        fi
    done
fi

# The browser tests drive Debian's chromium (Playwright's own browser download
# cannot reach the internet here): install it when missing and we may.
if ! [ -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing chromium for the browser tests (apt-get)" >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "the browser tests need /usr/bin/chromium: sudo apt-get install chromium" >&2
    fi
fi

.venv/bin/python -m compileall -q src/fivecard  # the code changed since set-up: compile it once
.venv/bin/python -m mypy
# The whole suite, or a selection of it by options alone (-m "not slow", -k
# traditions), runs on up to four cores (pytest-xdist); naming tests (a file,
# a folder, a test id) or -n runs as told, in one process unless -n says more.
given=$#  # arguments given (the fuzzing below follows a run of everything only)
spread=yes
for argument in "$@"; do
    case "$argument" in
        -n|-n*|--numprocesses*|tests*|src*|*.py|*.py::*|*.md) spread=no ;;
    esac
done
if [ "$spread" = yes ]; then
    jobs=$(nproc 2>/dev/null || echo 1)
    [ "$jobs" -gt 4 ] && jobs=4
    set -- -n "$jobs" "$@"
fi
.venv/bin/python -m pytest "$@"

# In CI (CI set), when the code differs from where it left the main branch in
# the code the fuzz tests drive (src/, tests/files/test_readers_fuzz.py, tests/strategies.py),
# fuzz again with ten times the examples and fresh random inputs.
if [ -n "${CI:-}" ] && [ -z "${FIVECARD_FUZZ:-}" ] && [ "$given" -eq 0 ]; then
    base=""
    for main in ${FIVECARD_MAIN:-} origin/HEAD origin/main main; do
        if base=$(git merge-base HEAD "$main" 2>/dev/null); then break; fi
    done
    if [ -n "$base" ] && [ -n "$(git diff --name-only "$base" -- src tests/files/test_readers_fuzz.py tests/strategies.py)" ]; then
        echo "fuzzing the changed code (FIVECARD_FUZZ=10)" >&2
        FIVECARD_FUZZ=10 .venv/bin/python -m pytest -q tests/files/test_readers_fuzz.py
    fi
fi
