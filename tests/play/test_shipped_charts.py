"""The strategy charts shipped with fivecard (fivecard.play.chart.shipped_chart,
src/fivecard/play/charts, made by scripts/make_charts.py): one for every
catalogue pay table, each file exactly what the script writes for the chart
it holds, each chart's return what playing its lines over every deal
returns, and a loader that opens the files of catalogue ids alone."""

from __future__ import annotations

import importlib.resources
import importlib.util
import json
import sys
import tomllib
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers import watch_opens

from fivecard.core.cards import Rank, parse_cards
from fivecard.core.errors import FivecardError
from fivecard.play import chart as chart_module
from fivecard.play.chart import StrategyChart, play_classes, shipped_chart
from fivecard.play.paytables import ALIASES, PAYTABLES, PayTableError
from fivecard.play.strategy import solve_paytable

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "src" / "fivecard" / "play" / "charts"


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("make_charts", ROOT / "scripts" / "make_charts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _script()


def test_every_catalogue_table_has_a_shipped_chart_and_nothing_else_does() -> None:
    assert sorted(p.stem for p in FOLDER.glob("*.json")) == sorted(PAYTABLES)
    assert [p.name for p in FOLDER.iterdir() if p.suffix != ".json"] == []
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "play/charts/*.json" in package_data["fivecard"]  # installed with the package


@pytest.mark.parametrize("name", sorted(PAYTABLES))
def test_a_shipped_chart_is_the_file_the_script_writes_for_it(name: str) -> None:
    """The file is the chart's card_json as the script lays it out, so the
    chart rebuilt from it is the chart that was written; its pay table's
    lines are the catalogue's today (a table changed since its chart was
    made fails here: run scripts/make_charts.py)."""
    chart = shipped_chart(name)
    text = (FOLDER / f"{name}.json").read_text("utf-8")
    assert chart.paytable is PAYTABLES[name]
    assert json.loads(text) == chart.card_json()
    assert MAKE.chart_text(chart) == text
    assert StrategyChart.from_json(chart.to_json(), chart.paytable) == chart


@pytest.mark.parametrize("name", sorted(PAYTABLES))
def test_a_shipped_chart_is_a_whole_chart_below_the_optimum(name: str) -> None:
    chart = shipped_chart(name)
    assert chart.optimum == chart.paytable.exact  # the return the catalogue states
    assert chart.rules == chart.paytable.rules_to_play()
    assert chart.simple_return <= chart.chart_return <= chart.optimum
    assert 2 <= len(chart.simple) <= len(chart.lines) <= 45
    assert chart.lines[-1].name == chart.simple[-1].name == "Discard everything"
    assert sum(line.deals for line in chart.lines) == sum(line.deals for line in chart.simple) == chart.deals
    assert all(not line.conditions for line in chart.simple)
    assert chart.text().startswith(f"{chart.paytable.title} under {chart.rules.name}: a strategy chart")


@pytest.mark.parametrize("name", sorted(PAYTABLES))
def test_a_shipped_chart_is_within_a_tenth_of_a_percent_and_keeps_its_wild_cards(name: str) -> None:
    """Wild tables pay a pat five of a kind well above the four of a kind it
    holds: no chart breaks it up; nor throws a wild card away."""
    chart = shipped_chart(name)
    assert chart.optimum - chart.chart_return < Fraction(1, 1000)
    rules = chart.rules
    wild = [c for c in rules.deck() if rules.is_wild(c)][:1]
    if wild:
        hand = wild + [c for c in rules.deck() if not rules.is_wild(c) and c.rank == Rank.NINE]
        assert set(chart.hold(hand)) == set(hand)
        for ranks in ("KS QD 3C 2H", "AS KD 3C 2H"):  # nothing else worth keeping: never the wild card thrown
            assert wild[0] in chart.hold([*wild, *parse_cards(ranks)])


def test_an_alias_names_its_tables_chart() -> None:
    for alias, name in ALIASES.items():
        assert shipped_chart(alias) is shipped_chart(name) is shipped_chart(name.upper())


@pytest.fixture
def opened() -> Iterator[list[str]]:
    """The files opened while the test runs."""
    list(PAYTABLES)  # the catalogue's ids, listed once before
    yield from watch_opens()


@pytest.mark.parametrize(
    "name",
    [
        "../catalogue/jacks-or-better-9-6",
        "..",
        "%2e%2e",
        "jacks-or-better-9-6.json",
        "charts/jacks-or-better-9-6",
        str(FOLDER / "jacks-or-better-9-6.json"),
        "/etc/passwd",
        "",
        "jacks-or-better-9-6\x00",
        "x" * 100_000,
    ],
    ids=["parent", "dots", "encoded-dots", "file-name", "folder", "absolute", "passwd", "empty", "nul", "long"],
)
def test_the_loader_takes_catalogue_ids_only_and_opens_no_file_for_others(name: str, opened: list[str]) -> None:
    with pytest.raises(PayTableError, match="unknown pay table") as refused:
        shipped_chart(name)
    assert len(str(refused.value)) < 300
    assert opened == []


def test_a_chart_that_is_not_the_tables_is_refused() -> None:
    jacks = shipped_chart("jacks-or-better-9-6")
    deuces = PAYTABLES["deuces-wild-full-pay"]
    with pytest.raises(FivecardError):
        StrategyChart.from_json(jacks.to_json(), deuces)
    broken = jacks.to_json()
    broken["lines"] = [{"hold": "Pat Flush"}]
    with pytest.raises(FivecardError, match="not a strategy chart of 'Jacks or Better 9/6'"):
        StrategyChart.from_json(broken, jacks.paytable)


def test_a_missing_shipped_chart_is_said_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(importlib.resources, "files", lambda package: tmp_path)
    chart_module._shipped.cache_clear()
    try:
        with pytest.raises(FivecardError, match="no chart is shipped for 'jacks-or-better-9-6'"):
            shipped_chart("jacks-or-better-9-6")
    finally:
        chart_module._shipped.cache_clear()


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["jacks-or-better-9-6", "deuces-wild-full-pay", "double-double-bonus-9-6", "joker-poker-kings-20-7-5"]
)
def test_a_shipped_chart_played_over_every_deal_returns_what_it_says(name: str) -> None:
    chart = shipped_chart(name)
    solution = solve_paytable(PAYTABLES[name], values=True)
    assert solution.expected_return == chart.optimum
    assert play_classes(solution, chart.lines)[0] == chart.chart_return
    assert play_classes(solution, chart.simple)[0] == chart.simple_return
