#!/usr/bin/env bash
# Quick start, step 1: set up, then settle the showdowns of the seed documents
# (examples/seed-showdowns.txt) with the fivecard command.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
        "") continue ;;
        "#"*) printf '\n%s\n' "$line"; continue ;;
    esac
    IFS='|' read -r -a hands <<< "$line"
    args=()
    for hand in "${hands[@]}"; do args+=("$(echo "$hand" | xargs)"); done
    .venv/bin/fivecard compare "${args[@]}"
done < examples/seed-showdowns.txt
