#!/usr/bin/env bash
# Quick start, step 1: set up, then solve the showdowns of the rule books
# (examples/rulebook-showdowns.txt) and print the table.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
.venv/bin/fivecard solve examples/rulebook-showdowns.txt "$@"
