# Sourced by the other scripts: make .venv with Python >= 3.11 and install
# fivecard into it with the extras named in $FIVECARD_EXTRAS (e.g. "test").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
    echo "fivecard needs Python 3.11 or newer; $PYTHON is $("$PYTHON" --version 2>&1)" >&2
    exit 1
}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
spec="."
[ -n "${FIVECARD_EXTRAS:-}" ] && spec=".[${FIVECARD_EXTRAS}]"
# The install compiles the kernels (C) where a C compiler is found; without
# one it still succeeds, and the numpy path serves (slower).
.venv/bin/python -m pip install --quiet --disable-pip-version-check --editable "$spec"
# Byte-compile fivecard's modules, as a regular (not editable) install does:
# a process then starts without compiling them (80-140 ms where
# PYTHONDONTWRITEBYTECODE is set, as on the project's machine). Only changed
# modules are compiled again; a stale file is never used.
.venv/bin/python -m compileall -q src/fivecard
