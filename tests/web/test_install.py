"""The installed app's files: the manifest, the service worker, the offline
page and the icons (``scripts/make_icons.py`` draws them; the files shipped
are what it makes)."""

from __future__ import annotations

import importlib.util
import json
import re
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from fivecard.core.version import __version__
from fivecard.web import install
from fivecard.web.app import CSP, create_app

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "fivecard" / "web" / "static"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path_factory.mktemp("install") / "data", allow_hosts=["testserver"])) as made:
        yield made


def worker_constants(text: str) -> tuple[str, list[str]]:
    version = re.search(r"^const VERSION = (.*);$", text, re.M)
    shell = re.search(r"^const SHELL = (.*);$", text, re.M)
    assert version and shell
    return json.loads(version.group(1)), json.loads(shell.group(1))


def test_the_manifest_has_its_media_type_and_names_icons_that_are_there(client: TestClient) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest == install.manifest()
    assert manifest["start_url"] == manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"] == install.THEME_COLOUR
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200, icon
        assert image.headers["content-type"].split(";")[0] == icon["type"]
        if icon["type"] == "image/png":  # its size, as its header says
            width, height = struct.unpack(">II", image.content[16:24])
            assert icon["sizes"] == f"{width}x{height}"
    sizes = {(i["purpose"], i["sizes"]) for i in manifest["icons"]}
    assert {("any", "192x192"), ("any", "512x512"), ("maskable", "192x192"), ("maskable", "512x512")} <= sizes


def pages(app: FastAPI) -> list[str]:
    """Every page of the app (a route that answers HTML), its path filled in."""
    ids = {"game_id": "some-id", "table_id": "some-id", "machine_id": "some-id", "paytable_id": "jacks-or-better-9-6"}
    found = []
    for route in app.routes:
        if isinstance(route, APIRoute) and route.response_class is HTMLResponse:
            found.append(route.path_format.format(**{name: ids[name] for name in route.param_convertors}))
    return found


def test_every_page_links_the_manifest_and_the_theme_colour(client: TestClient) -> None:
    found = pages(client.app)  # type: ignore[arg-type]
    assert {"/", "/play/some-id", "/check", "/tables/some-id", "/video-poker", "/strategy", "/offline"} <= set(found)
    for path in found:
        html = client.get(path).text
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, path
        assert f'<meta name="theme-color" content="{install.THEME_COLOUR}">' in html, path
        assert '<script src="/static/common.js"' in html, path  # (which registers the worker)


def test_the_worker_is_served_at_the_root_and_keeps_the_shell(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"  # a new release is seen at once
    assert answer.headers["content-security-policy"] == CSP  # the worker runs under the app's policy
    version, shell = worker_constants(answer.text)
    assert version.startswith(f"{__version__}-")
    assert "/offline" in shell and "/static/common.js" in shell and "/static/icon-192.png" in shell
    assert all(path.startswith("/") and not path.startswith("/api/") for path in shell)  # same origin; never the API
    for path in shell:
        assert client.get(path).status_code == 200, path
    assert "http://" not in answer.text and "https://" not in answer.text


def test_the_workers_cache_changes_with_the_static_files(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "static", tmp_path / "b" / "static"
    for folder in (first, second):
        folder.mkdir(parents=True)
        (folder / "app.css").write_text("body { color: black }")
    assert install.shell_digest([first]) == install.shell_digest([second])
    (second / "app.css").write_text("body { color: red }")  # a file changed
    assert install.shell_digest([first]) != install.shell_digest([second])
    (second / "app.css").write_text("body { color: black }")
    (second / "new.js").write_text("")  # a file added
    assert install.shell_digest([first]) != install.shell_digest([second])


def test_the_offline_page_says_what_to_do(client: TestClient) -> None:
    page = client.get("/offline")
    assert page.status_code == 200
    assert "The app does not answer" in page.text and "<code>fivecard serve</code>" in page.text
    assert 'id="offline-retry"' in page.text


def test_the_icons_shipped_are_what_the_script_draws() -> None:
    spec = importlib.util.spec_from_file_location("make_icons", ROOT / "scripts" / "make_icons.py")
    assert spec and spec.loader
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    drawn = script.icons()
    assert sorted(drawn) == sorted(p.name for p in STATIC.glob("icon*"))
    for name, content in drawn.items():
        assert (STATIC / name).read_bytes() == content, f"{name}: run python scripts/make_icons.py"


def test_the_worker_keeps_only_pages_that_are_the_same_for_every_browser(client: TestClient) -> None:
    """A page the worker keeps (shown as last seen when the app is away)
    is shown to whoever uses the browser next, as on a shared computer: of
    every page, only those whose answer is the same for every browser (a
    stranger's, a browser holding a game, a table and a machine) and names
    nothing a browser holds (no game, table or machine id) are kept."""
    pattern = re.search(r"^const KEPT_PAGES = /(.*)/;$", client.get("/sw.js").text, re.M)
    assert pattern
    kept_pages = re.compile(pattern.group(1))
    holder = TestClient(client.app)
    game = holder.post("/api/games", json={}).json()["id"]
    table = holder.post("/api/tables", json={}).json()["id"]
    machine = holder.post("/api/machines", json={"paytable": "jacks-or-better-9-6"}).json()["id"]
    ids = {"game_id": game, "table_id": table, "machine_id": machine, "paytable_id": "jacks-or-better-9-6"}
    app: FastAPI = client.app  # type: ignore[assignment]
    kept = []
    for route in app.routes:
        if not (isinstance(route, APIRoute) and route.response_class is HTMLResponse):
            continue
        path = route.path_format.format(**{name: ids[name] for name in route.param_convertors})
        if not kept_pages.fullmatch(path):
            continue
        kept.append(path)
        assert set(route.param_convertors) <= {"paytable_id"}, path  # names nothing a browser holds
        stranger = TestClient(client.app).get(path)
        assert stranger.status_code == 200 and holder.get(path).content == stranger.content, path
    assert sorted(kept) == ["/strategy", "/strategy/jacks-or-better-9-6"]
