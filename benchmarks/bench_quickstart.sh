#!/usr/bin/env bash
# The README's Quick start as a newcomer meets it: a fresh clone of this
# checkout in a temporary folder, a fresh HOME (no pip cache, no fivecard
# table cache), then its two commands, each timed as a whole. Prints the
# machine (cores, memory) and each command's wall-clock time; the two
# commands' own output goes to files in the temporary folder. Then the
# quick test run (-m "not slow") in the same clone, once set up.
#
#   bash benchmarks/bench_quickstart.sh [--keep]
set -euo pipefail
source_tree=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
[ "${1:-}" = --keep ] || trap 'rm -rf "$work"' EXIT
git clone --quiet "$source_tree" "$work/fivecard"
mkdir "$work/home"
echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB memory, $(python3 --version)"
cd "$work/fivecard"
for step in "bash scripts/demo.sh" "bash scripts/test.sh" "bash scripts/test.sh -m not_slow"; do
    start=$(date +%s.%N)
    status=0
    log="$work/${step//[ \/.]/_}.log"
    if [ "$step" = "bash scripts/test.sh -m not_slow" ]; then  # the quick run, once set up
        HOME="$work/home" XDG_CACHE_HOME="" bash scripts/test.sh -m "not slow" >"$log" 2>&1 || status=$?
    else
        HOME="$work/home" XDG_CACHE_HOME="" $step >"$log" 2>&1 || status=$?
    fi
    end=$(date +%s.%N)
    printf '%-34s %6.0f s  exit %s\n' "${step/not_slow/\"not slow\"}" "$(python3 -c "print($end - $start)")" "$status"
    tail -n 2 "$log" | sed 's/^/    /'
done
