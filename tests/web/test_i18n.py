"""The web app in each language: how a request's language is chosen (and
remembered), what its answers say about it (``Vary``, ``Content-Language``,
``<html lang>``), the switch on every page, and the API's sentences in the
language with its keys and machine values the same in every one, the
compare fast path answering as the route does in each."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute

with warnings.catch_warnings():  # starlette's notice about its test client's HTTP library
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from fivecard import showdown
from fivecard.core.errors import FivecardError
from fivecard.core.evaluate import describe, evaluate
from fivecard.core.lang import LANGUAGES, language
from fivecard.core.words import category_name, card_name, card_text, error_text, rules_summary, rules_title
from fivecard.core.cards import Card, parse_cards
from fivecard.core.rules import RULE_SETS
from fivecard.web import app as web
from fivecard.web.i18n import COOKIE, VARY

CODES = list(LANGUAGES)
#: Each page's path with its parameters filled (an id no game has is still a page).
PAGE_PATHS = {
    "/play/{game_id}": "/play/no-such-game",
    "/tables/{table_id}": "/tables/no-such-table",
    "/strategy/{paytable_id}": "/strategy/jacks-or-better-9-6",
    "/video-poker/{machine_id}": "/video-poker/no-such-machine",
}
#: Showdowns of every kind the API settles: categories, kickers, wild cards,
#: lowball, a split, a board, two decks.
SHOWDOWNS: list[dict[str, Any]] = [
    {"hands": ["8C TS KC 9H 4S", "7D 2S 5D 3S AC"]},
    {"hands": ["KD 9C 4H KS 9D", "KH 9S 3H KC 9H", "AS AD 2C 3C 4C"]},
    {"hands": ["AS KS QS JS TS", "AH KH QH JH TH"]},
    {"hands": ["JK AS AD AH 2C", "KS KD KH KC 2D"], "rules": "joker"},
    {"hands": ["AS KD 7C 5H 2S", "9S 8D 7S 6H 2C"], "rules": "ace-king"},
    {"hands": ["7S 5D 4C 3H 2S", "8S 6D 4D 3C 2C"], "rules": "deuce-to-seven"},
    {"hands": ["AS 2D 3C 4H 5S", "6S 4D 3D 2C AC"], "rules": "ace-to-five"},
    {"hands": ["QS JS", "7C 7H"], "board": "AS KS 7D 2C 9H"},
    {"hands": ["AS AD 2C 3C 4C", "AS AD 2C 3C 4C"], "decks": 2},
]
#: Fields of an answer that are sentences for people (the rest is the same in every language).
SENTENCES = {"explanation", "description", "name"}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return web.create_app(tmp_path_factory.mktemp("data"), allow_hosts=["testserver"])


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as fresh:  # its own cookies
        yield fresh


def _pages(app: Any) -> list[str]:
    """Every page of the app (a GET route answered with HTML), its parameters filled."""
    paths = []
    for route in app.routes:
        if isinstance(route, APIRoute) and "GET" in (route.methods or ()) and route.path not in ("/sw.js", "/manifest.webmanifest"):
            if not route.path.startswith("/api/"):
                paths.append(PAGE_PATHS.get(route.path, route.path))
    assert "/check" in paths and "/offline" in paths
    assert all("{" not in p for p in paths), "a new page with a parameter: fill it in PAGE_PATHS"
    return paths


def _html_lang(text: str) -> str:
    found = re.search(r'<html lang="([^"]+)">', text)
    assert found is not None
    return found.group(1)


# --- the choice -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "cookie", "header", "expected"),
    [
        (None, None, None, "en"),
        (None, None, "fr-CH, fr;q=0.9, ru;q=0.8, en;q=0.7", "ru"),
        (None, None, "ja-JP,ja;q=0.9", "ja"),
        (None, None, "de, fr", "en"),
        (None, "ja", "ru", "ja"),  # the switch, over the browser's wish
        (None, "xx", "ru", "ru"),  # a cookie naming no language is no choice
        ("ru", "ja", "ja", "ru"),  # ?lang= over everything
        ("fr", "ja", "ru", "ja"),  # a language fivecard does not speak is no choice
        ("ru_RU", None, None, "en"),  # the switch's codes only
    ],
)
def test_the_language_is_the_address_then_the_cookie_then_the_browser(
    client: TestClient, query: str | None, cookie: str | None, header: str | None, expected: str
) -> None:
    if cookie:
        client.cookies.set(COOKIE, cookie)
    headers = {"accept-language": header} if header else {}
    page = client.get("/check", params={"lang": query} if query else {}, headers=headers)
    assert _html_lang(page.text) == expected and page.headers["content-language"] == expected
    answer = client.post("/api/compare", json=SHOWDOWNS[0], params={"lang": query} if query else {}, headers=headers)
    assert answer.json()["explanation"] == showdown(SHOWDOWNS[0]["hands"], lang=expected).explanation


def test_a_page_asked_with_lang_remembers_it(client: TestClient) -> None:
    first = client.get("/strategy", params={"lang": "ja"})
    cookie = first.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=ja;")
    for attribute in ("HttpOnly", "Max-Age=31536000", "Path=/", "SameSite=lax"):
        assert attribute in cookie
    again = client.get("/check")  # the cookie, not the address, says it now
    assert _html_lang(again.text) == "ja" and "set-cookie" not in again.headers
    assert "set-cookie" not in client.get("/check", params={"lang": "ja"}).headers  # already remembered
    assert client.get("/check", params={"lang": "ru"}).headers["set-cookie"].startswith(f"{COOKIE}=ru;")
    assert _html_lang(client.get("/check", headers={"accept-language": "ja"}).text) == "ru"


def test_only_a_page_and_a_known_language_set_the_cookie(client: TestClient) -> None:
    assert "set-cookie" not in client.get("/check", params={"lang": "fr"}).headers
    assert "set-cookie" not in client.post("/api/compare", json=SHOWDOWNS[0], params={"lang": "ja"}).headers
    assert "set-cookie" not in client.get("/api/strategy", params={"lang": "ja"}).headers
    assert "set-cookie" not in client.get("/static/common.js", params={"lang": "ja"}).headers


# --- what every answer says -----------------------------------------------------------------


@pytest.mark.parametrize("code", CODES)
def test_every_page_says_its_language(app: Any, client: TestClient, code: str) -> None:
    for path in _pages(app):
        page = client.get(path, headers={"accept-language": code})
        assert page.headers["content-type"].startswith("text/html"), path
        assert _html_lang(page.text) == code, path
        assert page.headers["content-language"] == code, path
        assert page.headers["vary"] == VARY, path
        messages = json.loads(re.search(r'id="fivecard-messages">(.*?)</script>', page.text, re.S).group(1))  # type: ignore[union-attr]
        assert messages["lang"] == code and bool(messages["messages"]) == (code != "en"), path


def test_every_page_shows_the_switch(app: Any, client: TestClient) -> None:
    for path in _pages(app):
        for code in CODES:
            page = client.get(path, headers={"accept-language": code}).text
            switch = re.search(r'<nav class="lang-switch" aria-label="([^"]+)">(.*?)</nav>', page, re.S)
            assert switch is not None, path
            assert switch.group(1) == language(code).gettext("Language", "web")
            links = re.findall(r'<a href="([^"]+)" lang="(\w+)" hreflang="(\w+)"( aria-current="true")?>([^<]+)</a>', switch.group(2))
            assert [(lang, hreflang, name) for _, lang, hreflang, _, name in links] == [(c, c, n) for c, n in LANGUAGES.items()]
            assert [bool(current) for _, lang, _, current, _ in links] == [c == code for c in CODES]
            assert all(href.startswith(path.split("?")[0] + "?") and href.endswith(f"lang={lang}") for href, lang, *_ in links)


def test_the_switch_keeps_the_page_s_address(client: TestClient) -> None:
    page = client.get("/check", params=[("hand", "AS KS QS JS TS"), ("hand", ""), ("rules", "joker"), ("lang", "ja")]).text
    assert 'href="/check?hand=AS+KS+QS+JS+TS&amp;rules=joker&amp;lang=ru" lang="ru"' in page


def test_json_answers_vary_with_the_language(client: TestClient) -> None:
    for answer in (
        client.post("/api/compare", json=SHOWDOWNS[0], headers={"accept-language": "ru"}),
        client.post("/api/evaluate", json={"hand": "AS KS QS JS TS"}, headers={"accept-language": "ru"}),
        client.post("/api/compare", json={"hands": ["AS KS QS JS TX"]}, headers={"accept-language": "ru"}),
        client.get("/api/strategy"),
    ):
        assert answer.headers["vary"] == VARY and answer.headers["content-language"] in ("ru", "en")


# --- the API's sentences ----------------------------------------------------------------------


def _without_sentences(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: "(said)" if k in SENTENCES else _without_sentences(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_without_sentences(v) for v in data]
    return data


@pytest.mark.parametrize("body", SHOWDOWNS, ids=range(len(SHOWDOWNS)))
def test_compare_says_its_sentences_in_the_language_and_nothing_else_changes(client: TestClient, body: dict[str, Any]) -> None:
    answers = {code: client.post("/api/compare", json=body, params={"lang": code}).json() for code in CODES}
    for code, data in answers.items():
        assert _without_sentences(data) == _without_sentences(answers["en"]), code
        result = showdown(body["hands"], rules=body.get("rules"), decks=body.get("decks", 1), board=body.get("board"), lang=code)
        assert data["explanation"] == result.explanation == result.explain(code)
        assert [h["description"] for h in data["hands"]] == [describe(e.hand_class, code) for e in result.evaluations]
        assert [h["name"] for h in data["hands"]] == [
            category_name(e.category.name, e.category.label, code) for e in result.evaluations
        ]
    assert answers["en"]["explanation"] == showdown(body["hands"], rules=body.get("rules"), decks=body.get("decks", 1), board=body.get("board")).explanation
    assert len({a["explanation"] for a in answers.values()}) == len(CODES)  # each language says its own


def test_evaluate_says_its_description_in_the_language(client: TestClient) -> None:
    answers = {code: client.post("/api/evaluate", json={"hand": "KD 9C 4H KS 9D"}, params={"lang": code}).json() for code in CODES}
    for code, data in answers.items():
        assert _without_sentences(data) == _without_sentences(answers["en"])
        assert data["description"] == describe(evaluate("KD 9C 4H KS 9D").hand_class, code)
    assert answers["ru"]["description"] == "Две пары, короли и девятки, кикер четвёрка"


@pytest.mark.parametrize("code", CODES)
def test_an_error_is_said_by_error_text(client: TestClient, code: str) -> None:
    for hands in (["AS KS QS JS TS", "AS 2C 3C 4C 5C"], ["AS KS QS JS TS", "1S 2C 3C 4C 5C"], ["AS KS QS JS TS", "A" * 201]):
        with pytest.raises(FivecardError) as caught:
            web._check_hands(hands)
            showdown(hands)
        answer = client.post("/api/compare", json={"hands": hands}, params={"lang": code})
        assert answer.status_code == 422 and answer.json() == {"detail": error_text(caught.value, code)}
        assert (answer.json()["detail"] == str(caught.value)) == (code == "en")


# --- the fast path ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[TestClient, TestClient]:
    folder: Path = tmp_path_factory.mktemp("both")
    fast = web.create_app(folder, allow_hosts=["testserver"])
    slow = web.create_app(folder, allow_hosts=["testserver"])
    fast_path: Any = web._FastCompare
    slow.user_middleware = [m for m in slow.user_middleware if m.cls is not fast_path]
    return TestClient(fast), TestClient(slow)


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("how", ["query", "cookie", "accept-language"])
def test_the_fast_path_answers_as_the_route_in_every_language(
    both: tuple[TestClient, TestClient], code: str, how: str
) -> None:
    for client in both:
        client.cookies.clear()
        if how == "cookie":
            client.cookies.set(COOKIE, code)
    params = {"lang": code} if how == "query" else {}
    headers = {"accept-language": code} if how == "accept-language" else {}
    for body in [*SHOWDOWNS, {"hands": ["AS KS QS JS TX", "2C 3C 4C 5C 6C"]}]:
        fast, slow = (c.post("/api/compare", json=body, params=params, headers=headers) for c in both)
        assert (fast.status_code, fast.headers.multi_items(), fast.content) == (
            slow.status_code, slow.headers.multi_items(), slow.content,
        )  # fmt: skip
        assert fast.headers["content-language"] == code


# --- the checker and the strategy pages -----------------------------------------------------------


@pytest.mark.parametrize("code", CODES)
def test_the_checker_says_everything_in_the_language(code: str) -> None:
    lang = language(code)
    hands = ["KD 9C 4H KS 9D", "KH 9S 3H KC 9H", "AS KS QS JS TX", "A" * 201]
    page = web.check_page(hands[:2], "standard", lang)
    result = showdown(hands[:2], lang=code)
    assert page["showdown"]["explanation"] == result.explanation
    assert [h["hand"]["description"] for h in page["hands"]] == [describe(e.hand_class, code) for e in result.evaluations]
    assert [c["label"] for c in page["hands"][0]["cards"]] == [card_name(c, code) for c in parse_cards("KS KD 9D 9C 4H")]
    bad = web.check_page(hands, "standard", lang)["hands"]
    with pytest.raises(FivecardError) as caught:
        evaluate(hands[2])
    assert bad[2]["error"] == error_text(caught.value, code)
    assert bad[3]["error"] == lang.phrase_n(
        "{n:,} character; a hand is at most {most}", "{n:,} characters; a hand is at most {most}", 201, "web", most=200
    )
    assert web.check_page(hands[:2], "standard") == web.check_page(hands[:2], "standard", language("en"))


@pytest.mark.parametrize("code", CODES)
def test_the_pages_rule_sets_and_decks_are_in_the_language(code: str) -> None:
    sets = web.page_rule_sets(language(code))
    assert [s["id"] for s in sets] == list(RULE_SETS)
    assert [s["title"] for s in sets] == [rules_title(r.name, r.title or r.name, code) for r in RULE_SETS.values()]
    assert [s["summary"] for s in sets] == [rules_summary(r.name, r.summary, code) for r in RULE_SETS.values()]
    for s, rules in zip(sets, RULE_SETS.values()):
        english = web.page_rule_sets(language("en"))[list(RULE_SETS).index(rules.name)]
        assert [c["code"] for c in s["deck"]["cards"]] == [c["code"] for c in english["deck"]["cards"]]
        assert [c["text"] for c in s["deck"]["cards"]] == [card_text(Card.parse(c["code"]), code) for c in english["deck"]["cards"]]
        assert [c["label"] for c in s["deck"]["cards"]] == [card_name(Card.parse(c["code"]), code) if code != "en" else c["label"] for c in english["deck"]["cards"]]


def test_the_checker_page_in_japanese_and_russian(client: TestClient) -> None:
    query = [("hand", "KD 9C 4H KS 9D"), ("hand", "AS AD 2C 3C 4C")]
    ja = client.get("/check", params=[*query, ("lang", "ja")]).text
    assert "<h1 id=\"check-title\">ハンド判定</h1>" in ja and "ハンド1の勝ちです" in ja and "1位" in ja
    assert showdown(["KD 9C 4H KS 9D", "AS AD 2C 3C 4C"], lang="ja").explanation in ja
    assert 'aria-label="スペードのキング"' in ja and 'placeholder="例：AS KS QS JS TS"' in ja
    ru = client.get("/check", params=[*query, ("lang", "ru")]).text
    assert "Проверка рук" in ru and "Побеждает рука 1" in ru and 'aria-label="король пик"' in ru
    assert "Две пары, короли и девятки, кикер четвёрка" in ru and ">Стандартные</option>" in ru


def test_the_strategy_pages_in_japanese_and_russian(client: TestClient) -> None:
    ja = client.get("/strategy/jacks-or-better-9-6", params={"lang": "ja"}).text
    assert "配当表" in ja and "1コインあたり（5コイン賭け）" in ja and "このカード（38行、うち例外6行）" in ja
    assert "<th scope=\"row\">ロイヤルフラッシュ</th>" in ja  # a pay line that is no category stays, marked English
    assert '<th scope="row" lang="en">Jacks or Better</th>' in ja and '<ol class="chart-lines" id="chart-lines" lang="en">' in ja
    ru = client.get("/strategy/jacks-or-better-9-6", params={"lang": "ru"}).text
    assert "Эта карта (38 строк, из них 6 исключений)" in ru and "на монету, ставка 5 монет" in ru
    assert "<th scope=\"row\">Роял-флеш</th>" in ru
    missing = client.get("/strategy/nope", params={"lang": "ru"})
    assert missing.status_code == 404 and "нет карты стратегии для &#39;nope&#39;" in missing.text


# --- a translation is text, never markup ------------------------------------------------------------


class _Poisoned:
    """A catalog whose every translation ends in a tag: what a page shows of
    it must be that tag escaped (as the page escapes the English)."""

    TAG = "<i>poisoned</i>"

    def __init__(self, catalog: Any) -> None:
        self._catalog = catalog._catalog  # what the page's script is given: as it is
        self.catalog = catalog

    def gettext(self, message: str) -> str:
        return str(self.catalog.gettext(message)) + self.TAG

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return str(self.catalog.ngettext(singular, plural, n)) + self.TAG

    def pgettext(self, context: str, message: str) -> str:
        return str(self.catalog.pgettext(context, message)) + self.TAG


@pytest.mark.parametrize("code", ["ja", "ru"])
def test_a_translation_with_markup_in_it_is_shown_as_text_on_every_page(
    app: Any, client: TestClient, monkeypatch: pytest.MonkeyPatch, code: str
) -> None:
    lang = language(code)
    monkeypatch.setitem(lang._catalogs, "web", _Poisoned(lang.catalog("web")))
    for path in [*_pages(app), "/video-poker/jacks-or-better-9-6"]:
        page = client.get(path, params={"lang": code}).text
        assert "&lt;i&gt;poisoned&lt;/i&gt;" in page, path
        assert _Poisoned.TAG not in page, path


def test_every_russian_page_groups_thousands_as_russian_does(app: Any, client: TestClient) -> None:
    """1,000 reads in Russian as one with three decimals: a page's figures
    are grouped as number_text groups them (1 000)."""
    for path in _pages(app):
        page = re.sub(r"<script.*?</script>", "", client.get(path, params={"lang": "ru"}).text, flags=re.S)
        assert re.findall(r"\d,\d{3}\b", page) == [], path
