"""A page on another port of 127.0.0.1 changes nothing, in a real browser
(Debian's chromium through Playwright, against ``fivecard serve``).

Another port of the same host is the same *site*: the browser sends the app's
SameSite=Strict owner cookie with its requests. The page tries every route
of the app that may change something (walked from the app, so a route added
later is tried too), against a table the browser hosts and sits at (a round
open) and a game it owns: by form posts (urlencoded, multipart, text/plain,
with the JSON-in-text/plain trick, and empty), by ``no-cors`` fetches with and without
credentials, and by CORS fetches (whose preflight the app never grants). The
store is the same byte for byte afterwards, and the app's own page still
acts.
"""

from __future__ import annotations

import html
import json
import sqlite3
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Response

from browser import Server, browser, open_tab
from fivecard.web.app import SAFE_METHODS, create_app
from starlette.routing import Route

ENCODINGS = ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]
FIELDS = {"action": "start", "name": "Eve", "text": "hi", "rules": "standard", "hand": "AS KS QS JS TS"}
#: A text/plain form whose body is JSON: {"action":"start",...,"x":"="}
TRICK = json.dumps(FIELDS)[:-1] + ',"x":"'


class Elsewhere:
    """Pages served from another port of 127.0.0.1: ``/form/N`` posts form N
    as soon as it loads, ``/fetch`` makes every fetch and then says done."""

    def __init__(self, pages: dict[str, str]) -> None:
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = pages.get(self.path, "no such page").encode()
                self.send_response(200 if self.path in pages else 404)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def targets(data: Path, ids: dict[str, str]) -> list[tuple[str, str]]:
    """Every (method, path) of the app that may change something, on the browser's table and game."""
    found = []
    for route in create_app(data).routes:
        if isinstance(route, Route) and route.methods:
            for method in sorted(route.methods - SAFE_METHODS):
                found.append((method, route.path_format.format(**{name: ids[name] for name in route.param_convertors})))
    return found


def form_page(action: str, encoding: str, fields: bool) -> str:
    if not fields:  # an empty body: what ended a table before the app checked where changes come from
        inputs = ""
    elif encoding == "text/plain":
        inputs = f'<input name="{html.escape(TRICK)}" value="&quot;}}">'
    else:
        inputs = "".join(f'<input name="{k}" value="{html.escape(v)}">' for k, v in FIELDS.items())
    return (
        f'<form method="post" action="{html.escape(action)}" enctype="{encoding}">{inputs}</form>'
        "<script>document.forms[0].submit()</script>"
    )


def fetch_page(calls: list[tuple[str, str]]) -> str:
    script = """
    const calls = %s;
    const tries = [];
    for (const [method, url] of calls) {
      for (const mode of ["no-cors", "cors"]) {
        for (const credentials of ["include", "omit"]) {
          for (const body of [JSON.stringify(%s), undefined]) {
            const options = { method, mode, credentials, headers: { "content-type": "application/json" }, body };
            if (method === "DELETE") delete options.body;
            tries.push(fetch(url, options).then(() => "sent", (err) => String(err)));
          }
        }
      }
    }
    Promise.all(tries).then((results) => { window.results = results; });
    """ % (json.dumps(calls), json.dumps(FIELDS))
    return f"<script>{script}</script>"


def dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return list(db.iterdump())


@pytest.mark.slow
def test_a_page_on_another_port_changes_nothing(browser: Browser, tmp_path: Path) -> None:
    server = Server(tmp_path / "data")
    tab = open_tab(browser)
    page = tab.page
    elsewhere: Elsewhere | None = None
    try:
        page.goto(server.url + "/tables")
        # the app's own page: this browser hosts a table, sits at it, opens a round, owns a game and a machine
        ids = page.evaluate(
            """async () => {
              const api = window.fivecard.api;
              const table = await api("POST", "/api/tables", { seed: 1 });
              await api("POST", `/api/tables/${table.id}/seats`, { name: "Ann" });
              await api("POST", `/api/tables/${table.id}/rounds`, {});
              const removed = await api("DELETE", `/api/tables/${table.id}/seats/9`).then(() => 200, (err) => err.status);
              const game = await api("POST", "/api/games", { seed: 1 });
              const machine = await api("POST", "/api/machines", { paytable: "jacks-or-better-9-6", seed: 1 });
              return { table_id: table.id, game_id: game.id, machine_id: machine.id, seat: "1", removed: String(removed) };
            }"""
        )
        assert ids.pop("removed") == "409"  # the page's DELETE reached the table (no seat 9), not refused
        calls = [(method, server.url + path) for method, path in targets(tmp_path / "scratch", ids)]
        assert ("DELETE", f"{server.url}/api/tables/{ids['table_id']}/seats/1") in calls
        assert ("POST", f"{server.url}/api/tables/{ids['table_id']}/end") in calls
        assert ("POST", f"{server.url}/api/machines/{ids['machine_id']}/actions") in calls
        forms = [(url, encoding, fields) for _, url in calls for encoding in ENCODINGS for fields in (True, False)]
        pages = {f"/form/{i}": form_page(*form) for i, form in enumerate(forms)}
        pages["/fetch"] = fetch_page(calls)
        elsewhere = Elsewhere(pages)
        database = tmp_path / "data" / "games.sqlite3"
        before = dump(database)

        seen: list[Response] = []
        page.context.on("response", lambda r: seen.append(r) if r.url.startswith(server.url + "/api/") else None)
        for number in range(len(pages) - 1):  # every form, each as the page it is
            with page.expect_response(lambda r: r.url.startswith(server.url + "/api/")) as answer:
                page.goto(f"{elsewhere.url}/form/{number}")
            response = answer.value
            assert response.status in (403, 415), (response.url, response.status, response.text())
            assert "fivecard_owner=" in (response.request.header_value("cookie") or "")  # the cookie went along
        page.goto(f"{elsewhere.url}/fetch")
        page.wait_for_function("window.results !== undefined")
        results = page.evaluate("window.results")
        assert len(results) == 8 * len(calls)
        fetched = [r for r in seen if r.request.resource_type == "fetch"]
        posts = [c for c in calls if c[0] == "POST"]
        assert len(fetched) >= 4 * len(posts)  # every no-cors POST reached the app, and was refused
        assert all(r.status in (403, 415) for r in seen), [(r.url, r.status) for r in seen if r.status not in (403, 415)]
        assert dump(database) == before

        # the app's own page still changes what it owns
        page.goto(f"{server.url}/tables/{ids['table_id']}")
        ended = page.evaluate(f"window.fivecard.api('POST', '/api/tables/{ids['table_id']}/end', {{}})")
        assert ended["ended"]
        assert dump(database) != before
    finally:
        page.context.close()
        if elsewhere is not None:
            elsewhere.close()
        server.stop()
