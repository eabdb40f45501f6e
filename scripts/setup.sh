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
.venv/bin/python -m pip install --quiet --disable-pip-version-check --editable "$spec"
