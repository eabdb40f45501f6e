"""The video-poker strategy pages and their JSON through the ASGI test
client: every catalogue game listed and carded (its title, every chart
line, its pay table, its returns, its glossary), the same data as JSON,
and any other id a 404 that opens no file. The pages in a real browser:
test_strategy_browser.py."""

from __future__ import annotations

import html
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import watch_opens

with warnings.catch_warnings():  # starlette's notice about its test client's HTTP library
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from fivecard.play.chart import shipped_chart
from fivecard.play.paytables import PAYTABLES, catalogue
from fivecard.web.app import CSP, create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path_factory.mktemp("data"), allow_hosts=["testserver"])) as made:
        yield made


def text_of(page: str) -> str:
    """A page's HTML as its text reads (entities undone)."""
    return html.unescape(page)


def test_the_list_names_every_game_with_its_returns_in_catalogue_order(client: TestClient) -> None:
    page = client.get("/strategy")
    assert page.status_code == 200 and page.headers["content-security-policy"] == CSP
    shown = text_of(page.text)
    places = []
    for table in catalogue():
        chart = shipped_chart(table.name)
        link = f'<a href="/strategy/{table.name}">{table.title}</a>'
        assert link in shown
        places.append(shown.index(link))
        row = shown[shown.index(link) :].split("</tr>", 1)[0]
        assert f"{float(chart.optimum * 100):.4f}%" in row and f"{float(chart.chart_return * 100):.4f}%" in row
        assert (chart.rules.title or chart.rules.name) in row
    assert places == sorted(places)
    assert 'href="/strategy" aria-current="page"' in page.text


def test_the_list_as_json(client: TestClient) -> None:
    games = client.get("/api/strategy").json()["games"]
    assert [g["id"] for g in games] == [t.name for t in catalogue()]
    for game in games:
        chart = shipped_chart(game["id"])
        assert game["title"] == chart.paytable.title and game["rules"] == chart.rules.name
        assert game["optimum"]["fraction"] == f"{chart.optimum.numerator}/{chart.optimum.denominator}"
        assert game["return"]["percent"] == float(chart.chart_return * 100)
        assert game["lines"] == len(chart.lines)


@pytest.mark.parametrize("name", sorted(PAYTABLES))
def test_every_game_has_a_card_with_its_pay_table_lines_returns_and_words(client: TestClient, name: str) -> None:
    chart = shipped_chart(name)
    page = client.get(f"/strategy/{name}")
    assert page.status_code == 200 and page.headers["content-security-policy"] == CSP
    shown = text_of(page.text)
    assert f'<h1 id="card-title">{chart.paytable.title}</h1>' in shown
    listed = shown[shown.index('<ol class="chart-lines"') : shown.index("</ol>")]
    holds = [item.split('<span class="hold">', 1)[1].split("</span>", 1)[0] for item in listed.split("<li")[1:]]
    assert holds == [line.describe(chart.paytable) for line in chart.lines]
    pays = shown[shown.index('<table class="pays"') : shown.index("</table>")]
    for entry in chart.paytable.entries:
        assert f'<th scope="row">{chart.paytable.entry_label(entry.key, chart.rules)}</th>' in pays
        assert f">{entry.pays:,.0f}" in pays if entry.pays == int(entry.pays) else f">{entry.pays:g}" in pays
        if entry.below_max is not None:
            assert f"{entry.below_max:g} below {chart.paytable.coins} coins" in pays
    for value in (chart.chart_return, chart.simple_return, chart.optimum):
        assert f"{float(value * 100):.4f}%" in shown
    exceptions = sum(1 for line in chart.lines if line.conditions)
    assert f"This card ({len(chart.lines)} lines, {exceptions} of them exceptions)" in shown
    for words in chart.glossary():
        assert f"<li>{words}</li>" in shown
    assert "http://" not in page.text and "https://" not in page.text


@pytest.mark.parametrize("name", sorted(PAYTABLES))
def test_every_games_card_as_json(client: TestClient, name: str) -> None:
    chart = shipped_chart(name)
    answer = client.get(f"/api/strategy/{name}")
    assert answer.status_code == 200 and answer.headers["content-security-policy"] == CSP
    data: dict[str, Any] = answer.json()
    assert data == {**chart.card_json(), "rules_title": chart.rules.title or chart.rules.name}
    assert data["title"] == chart.paytable.title
    assert [line["hold"] for line in data["lines"]] == [line.describe(chart.paytable) for line in chart.lines]


@pytest.fixture
def opened() -> Iterator[list[str]]:
    """The files opened while the test runs."""
    yield from watch_opens()


OTHERS = [
    "no-such-game",
    "jacks-or-better",  # an alias: the pages take ids alone
    "Jacks-or-Better-9-6",
    "jacks-or-better-9-6.json",
    "%2e%2e",
    "%2E%2E%2Fcatalogue%2Fjacks-or-better-9-6",
    "..%2F..%2F..%2Fetc%2Fpasswd",
    "%2Fetc%2Fpasswd",
    "%00",
    "x" * 10_000,
]


@pytest.mark.parametrize("name", OTHERS, ids=lambda n: n[:24])
def test_any_other_id_is_a_404_that_opens_no_file(client: TestClient, name: str, opened: list[str]) -> None:
    client.get("/strategy")  # the list page's template read before: the 404 page shows it
    client.get("/strategy/no-such-game")
    opened.clear()
    for path in (f"/api/strategy/{name}", f"/strategy/{name}"):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert answer.headers["content-security-policy"] == CSP
        if path.startswith("/api/"):
            detail = answer.json()["detail"]
            assert detail == "Not Found" or (detail.startswith("no strategy card for ") and len(detail) < 200)
    assert [p for p in opened if "fivecard" in p or "etc" in p or "passwd" in p] == []


def test_an_unknown_games_page_says_so_and_lists_the_games(client: TestClient) -> None:
    page = client.get("/strategy/double-bonus-10-6")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    shown = text_of(page.text)
    assert "no strategy card for 'double-bonus-10-6': /strategy lists the games" in shown
    assert '<a href="/strategy/double-bonus-10-7">' in shown
