"""Make the strategy charts shipped with fivecard: for each pay table of the
catalogue (``src/fivecard/play/catalogue``), solve it, derive its chart and
write ``src/fivecard/play/charts/<id>.json``, which
:func:`fivecard.play.chart.shipped_chart` reads (the web app's strategy
cards show them without solving anything).

Run from the checkout: ``python scripts/make_charts.py`` (every table, some
13 seconds each) or ``python scripts/make_charts.py jacks-or-better-9-6 ...``.
Each file is the chart's :meth:`~fivecard.play.chart.StrategyChart.card_json`
(its :meth:`~fivecard.play.chart.StrategyChart.to_json` after the table's
id, title, most coins and lines, what the chart was derived from, and the
glossary), one chart line per text line; nothing in it depends on when or
where it was made, so that running the script again changes nothing.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from fivecard.play.chart import StrategyChart, strategy_chart
from fivecard.play.paytables import PAYTABLES
from fivecard.play.strategy import solve_paytable

FOLDER = Path(__file__).resolve().parent.parent / "src" / "fivecard" / "play" / "charts"


def chart_text(chart: StrategyChart) -> str:
    """The file's text: the chart's :meth:`~fivecard.play.chart.StrategyChart.card_json`,
    each key on a line, each element of a list value on a line of its own."""
    parts = []
    for key, value in chart.card_json().items():
        if isinstance(value, list):
            body = "[\n" + ",\n".join("  " + json.dumps(item, ensure_ascii=False) for item in value) + "\n ]"
        else:
            body = json.dumps(value, ensure_ascii=False)
        parts.append(f" {json.dumps(key)}: {body}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main(names: Sequence[str]) -> int:
    unknown = [name for name in names if name not in PAYTABLES]
    if unknown:
        print(f"unknown pay table {unknown[0]!r}; the catalogue has {', '.join(PAYTABLES)}", file=sys.stderr)
        return 2
    FOLDER.mkdir(exist_ok=True)
    started = time.perf_counter()
    for name in names or list(PAYTABLES):
        table = PAYTABLES[name]
        began = time.perf_counter()
        chart = strategy_chart(solve_paytable(table, values=True))
        (FOLDER / f"{name}.json").write_text(chart_text(chart), encoding="utf-8")
        print(
            f"{name}: {len(chart.lines)} lines, chart {float(chart.chart_return * 100):.4f}% "
            f"of {float(chart.optimum * 100):.4f}% ({time.perf_counter() - began:.1f} s)",
            flush=True,
        )
    print(f"done in {time.perf_counter() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
