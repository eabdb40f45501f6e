"""A friends' table's event stream in each browser's language: two browsers
at one table, one asking in Japanese (Accept-Language), one in Russian (the
remembered switch's cookie, or ?lang=), read the same round each in their
own; the JSON keys and data are the same for all; a language a client sends
is only ever one of en, ja, ru."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about its test client's HTTP library
    from fastapi.testclient import TestClient

from helpers import table_events

from fivecard import showdown
from fivecard.web.app import create_app
from fivecard.web.i18n import COOKIE


@pytest.fixture
def client_of(tmp_path: Path) -> Any:
    app = create_app(tmp_path / "data", allow_hosts=["testserver"])

    def make(lang_cookie: str | None = None, **headers: str) -> TestClient:
        client = TestClient(app, headers=headers)
        if lang_cookie is not None:  # the switch remembered
            client.cookies.set(COOKIE, lang_cookie)
        return client

    return make


def _post(client: TestClient, path: str, status: int = 200, **body: Any) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _events(client: TestClient, table_id: str, **params: str) -> list[dict[str, Any]]:
    """Every event of the table, as this browser's stream sends them."""
    return table_events(client, table_id, **params)


def _a_round(client_of: Any, **host_headers: str) -> tuple[str, TestClient, TestClient, TestClient]:
    host = client_of(**host_headers)
    table_id = _post(host, "/api/tables", 201, rules="standard", seed=11, draw=1)["id"]
    ja = client_of(**{"accept-language": "ja-JP,ja;q=0.9,en;q=0.5"})
    ru = client_of("ru", **{"accept-language": "en-US"})
    _post(ja, f"/api/tables/{table_id}/seats", 201, name="山田")
    _post(ru, f"/api/tables/{table_id}/seats", 201, name="Борис")
    _post(host, f"/api/tables/{table_id}/rounds")
    _post(ja, f"/api/tables/{table_id}/deal")
    _post(ru, f"/api/tables/{table_id}/deal")
    _post(ja, f"/api/tables/{table_id}/draw", keep=[1, 2, 3, 4, 5])
    _post(ru, f"/api/tables/{table_id}/draw", keep=[1, 2, 3, 4])
    return table_id, host, ja, ru


def test_two_browsers_read_one_round_each_in_their_language(client_of: Any) -> None:
    table_id, host, ja, ru = _a_round(client_of)
    english, japanese, russian = (_events(c, table_id) for c in (host, ja, ru))
    assert [e["type"] for e in japanese] == [e["type"] for e in russian] == [e["type"] for e in english]
    closed = {lang: events[-1] for lang, events in (("en", english), ("ja", japanese), ("ru", russian))}
    assert all(e["type"] == "round_closed" for e in closed.values())
    # the same data, keys and values; only the sentences are the browser's
    for lang in ("ja", "ru"):
        assert closed[lang].keys() == closed["en"].keys()
        for key in ("round", "seed", "winners", "awarded", "standings"):
            assert closed[lang][key] == closed["en"][key]
        assert [h["cards"] for h in closed[lang]["hands"]] == [h["cards"] for h in closed["en"]["hands"]]
    names = [h["player"] for h in closed["en"]["hands"]]
    result = showdown([" ".join(h["cards"]) for h in closed["en"]["hands"]])
    for lang in ("en", "ja", "ru"):
        assert closed[lang]["explanation"] == result.explain(lang, names)
    assert closed["ja"]["text"].startswith("第1ラウンド：") and closed["ru"]["text"].startswith("Раунд 1: ")
    # what happened before the round, each in its language, the names as typed
    joined = [e["text"] for e in japanese if e["type"] == "seat_joined"]
    assert joined == ["山田が着席しました", "Борисが着席しました"]
    assert [e["text"] for e in russian if e["type"] == "drew"] == ["山田 оставляет все пять карт", "Борис меняет 1 карту"]
    assert [e["text"] for e in english if e["type"] == "drew"] == ["山田 keeps all five cards", "Борис exchanges 1 card"]


def test_a_page_asks_for_its_language_in_the_address(client_of: Any) -> None:
    table_id, host, _, _ = _a_round(client_of)
    for lang, start in (("ja", "第1ラウンド："), ("ru", "Раунд 1: "), ("en", "Round 1: ")):
        assert _events(host, table_id, lang=lang)[-1]["text"].startswith(start)


@pytest.mark.parametrize(
    "asked",
    [
        {"params": {"lang": "../../../etc/passwd"}},
        {"params": {"lang": "<script>"}},
        {"params": {"lang": "fr"}},
        {"headers": {"accept-language": "fr-CH, de;q=0.9, " + "x" * 5000}},
        {"cookie": "../ja"},
        {"cookie": "ja\r\nx: y"},
    ],
)
def test_a_language_a_client_sends_is_one_of_three_or_english(client_of: Any, asked: dict[str, Any]) -> None:
    host = client_of(asked.get("cookie"), **asked.get("headers", {}))
    table_id = _post(host, "/api/tables", 201, seed=3)["id"]
    _post(host, f"/api/tables/{table_id}/seats", 201, name="Ann")
    events = _events(host, table_id, **asked.get("params", {}))
    assert [e["text"] for e in events] == [
        "A standard table: the high hand wins 25 points; a tie scores nothing; the host chose the shuffle seed, "
        "so every hand can be known in advance",
        "Ann sits down",
    ]
    # (the language asked for is never echoed: nothing of it is in an event)
    assert not any("passwd" in json.dumps(e) or "script" in json.dumps(e) for e in events)
    page = host.get(f"/tables/{table_id}", params=asked.get("params", {}))
    assert page.status_code == 200 and '<html lang="en">' in page.text and "passwd" not in page.text


def test_streams_of_one_table_in_several_languages_share_their_frames_by_language(client_of: Any) -> None:
    table_id, host, ja, ru = _a_round(client_of)
    # read twice by each: the second read is the first's (the kept frames of its language)
    for client in (ja, ru, host, ja, ru, host):
        texts = [e["text"] for e in _events(client, table_id)]
        assert texts[-1].startswith({id(ja): "第1", id(ru): "Раунд 1", id(host): "Round 1"}[id(client)])
