#!/usr/bin/env bash
# Quick start, step 1: set up, then solve the showdowns of the rule books
# (examples/rulebook-showdowns.txt) and print the table.
# (fivecard[web] too: then `.venv/bin/fivecard serve` starts the browser app)
FIVECARD_EXTRAS=${FIVECARD_EXTRAS:-web}
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
.venv/bin/fivecard solve examples/rulebook-showdowns.txt "$@"
