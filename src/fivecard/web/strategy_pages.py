"""Video-poker strategy cards: the catalogue's games (``/strategy``), each
game's printable card (``/strategy/{paytable_id}``: its pay table, its
strategy chart's numbered lines, the returns, the words the lines use) and
the same as JSON (``/api/strategy``, ``/api/strategy/{paytable_id}``).

Everything shown is the chart shipped with fivecard
(:func:`~fivecard.play.chart.shipped_chart`, derived ahead from the exact
solution): a request reads at most one small file, once (each answer is
kept: 26 games), and solves nothing. Anyone may read the cards (they hold
nothing of anyone's); they change nothing, so another origin gains nothing
by asking. The id in the path is looked up among the catalogue's ids
(:data:`~fivecard.play.paytables.PAYTABLES`, listed once from the package)
before anything is read: any other text, a path or an alias alike, is a
404 that says so, and no file is opened for it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates

from ..core.errors import quote
from ..core.lang import ENGLISH, Language
from ..core.rules import get_rules
from ..core.words import category_name, rules_title
from ..play.chart import shipped_chart
from ..play.paytables import PAYTABLES, catalogue
from .errors import NotFound
from .i18n import request_language

__all__ = ["add_strategy_routes", "strategy_card", "strategy_games", "page_card", "page_games"]


def _known(paytable_id: str) -> str:
    """The id, when it is a catalogue id (nothing else is looked up)."""
    if paytable_id not in PAYTABLES:
        raise NotFound(f"no strategy card for {quote(paytable_id)}: /strategy lists the games")
    return paytable_id


@cache  # one per catalogue id: _known comes first
def strategy_card(paytable_id: str) -> dict[str, Any]:
    """A game's card (a catalogue id's): its shipped chart's
    :meth:`~fivecard.play.chart.StrategyChart.card_json` and the rule set's
    title (``rules_title``)."""
    chart = shipped_chart(_known(paytable_id))
    return {**chart.card_json(), "rules_title": chart.rules.title or chart.rules.name}


@cache
def strategy_games() -> list[dict[str, Any]]:
    """Every catalogue game, as :func:`~fivecard.play.paytables.catalogue`
    orders them: its id, title, rule set (and its title), the return of
    perfect play and of its chart, and how many lines the chart has."""
    games = []
    for table in catalogue():
        card = strategy_card(table.name)
        games.append(
            {
                "id": card["id"],
                "title": card["title"],
                "rules": card["rules"],
                "rules_title": get_rules(card["rules"]).title or card["rules"],
                "optimum": card["optimum"],
                "return": card["return"],
                "lines": len(card["lines"]),
            }
        )
    return games


@cache  # one per game and language
def page_card(paytable_id: str, lang: Language) -> dict[str, Any]:
    """A game's card as its page shows it in ``lang``: the rule set's
    title, and each pay-table line that is a category of the rule set, in
    the language (the chart's lines and the other pay lines as the chart
    says them, in English: such a pay line has ``"lang": "en"``, which the
    page marks for screen readers)."""
    card = strategy_card(paytable_id)
    if lang is ENGLISH:
        return card
    rules = get_rules(card["rules"])
    names = {c.label: c.name for c in rules.ladder}
    pays = [
        {**p, "line": category_name(names[p["line"]], p["line"], lang)} if p["line"] in names else {**p, "lang": "en"}
        for p in card["pays"]
    ]
    return {**card, "rules_title": rules_title(card["rules"], card["rules_title"], lang), "pays": pays}


@cache  # one per language
def page_games(lang: Language) -> list[dict[str, Any]]:
    """The games as ``/strategy`` shows them in ``lang`` (the rule sets' titles)."""
    if lang is ENGLISH:
        return strategy_games()
    return [{**g, "rules_title": rules_title(g["rules"], g["rules_title"], lang)} for g in strategy_games()]


def add_strategy_routes(app: FastAPI, templates: Jinja2Templates, json_response: Callable[[Any], Response]) -> None:
    """Register the strategy pages and their JSON on ``app``
    (``json_response``: the app's one way to answer JSON)."""

    @app.get("/api/strategy", tags=["strategy"], summary="The video-poker games with a strategy card")
    def api_strategy_games() -> Response:
        return json_response({"games": strategy_games()})

    @app.get("/api/strategy/{paytable_id}", tags=["strategy"], summary="A game's strategy card")
    def api_strategy_card(paytable_id: str) -> Response:
        return json_response(strategy_card(_known(paytable_id)))

    @app.get("/strategy", response_class=HTMLResponse, include_in_schema=False)
    def page_strategy_games(request: Request) -> Response:
        return templates.TemplateResponse(
            request, "strategy.html", {"games": page_games(request_language(request)), "error": None}
        )

    @app.get("/strategy/{paytable_id}", response_class=HTMLResponse, include_in_schema=False)
    def page_strategy_card(request: Request, paytable_id: str) -> Response:
        lang = request_language(request)
        if paytable_id not in PAYTABLES:
            error = lang.phrase("no strategy card for {id}: /strategy lists the games", "web", id=quote(paytable_id))
            return templates.TemplateResponse(
                request, "strategy.html", {"games": page_games(lang), "error": error}, status_code=404
            )
        return templates.TemplateResponse(request, "strategy_card.html", {"card": page_card(paytable_id, lang)})
