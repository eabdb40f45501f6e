"""The app as a web app a browser can install: its manifest
(``/manifest.webmanifest``), its service worker (``/sw.js``, whose scope
is the whole app) and the offline page (``/offline``).

The service worker keeps the app's shell (the offline page, the static
files: style sheets, scripts, icons) in a cache named by the app's
version and a digest of its static files and templates, so a new release
replaces it. A page loaded while ``fivecard serve`` is stopped shows the
offline page, which tries again and goes back to the page once the app
answers; the strategy pages (which read nothing more) are kept as they
were last seen. Requests to the API are never kept (network only), and
the worker answers for no request to another origin: nothing leaves the
machine. Browsers run service workers in secure contexts only (https,
``localhost``, ``127.0.0.1``): on a home network's address over plain
http the pages work without it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates

from ..core.version import __version__

__all__ = ["add_install_routes", "manifest", "shell_digest", "THEME_COLOUR"]

#: The felt's green (app.css ``--felt``): the browser's title bar for the app.
THEME_COLOUR = "#14532d"
#: The pages' background (app.css ``--paper``): the splash screen's.
BACKGROUND_COLOUR = "#f3f4f6"


def manifest() -> dict[str, Any]:
    """The web app manifest: the app's names, where it starts, its icons
    (``scripts/make_icons.py`` draws them) and colours."""
    icons: list[dict[str, str]] = [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}]
    for purpose, prefix in (("any", "icon"), ("maskable", "icon-maskable")):
        for size in (192, 512):
            icons.append(
                {"src": f"/static/{prefix}-{size}.png", "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            )
    return {
        "id": "/",
        "name": "fivecard: five-card poker",
        "short_name": "fivecard",
        "description": "Poker vs Dealer, a hand checker, video poker and tables for friends: on your own computer.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }


def shell_digest(folders: list[Path]) -> str:
    """A digest of every file in ``folders`` (names and contents): the
    service worker's cache changes with any of them."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(p for p in folder.iterdir() if p.is_file()):
            digest.update(f"{folder.name}/{path.name}\0".encode())
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:16]


def add_install_routes(app: FastAPI, templates: Jinja2Templates, static: Path, template_folder: Path) -> None:
    """Register the manifest, the service worker and the offline page on ``app``."""
    shell = ["/offline", "/manifest.webmanifest"] + [
        f"/static/{p.name}" for p in sorted(static.iterdir()) if p.is_file() and not p.name.startswith(".")
    ]
    version = f"{__version__}-{shell_digest([static, template_folder])}"
    worker = templates.get_template("sw.js").render(version=version, shell=shell).encode()
    manifest_bytes = json.dumps(manifest(), ensure_ascii=False, separators=(",", ":")).encode()
    fresh = {"cache-control": "no-cache"}  # asked anew each time: a new release is seen at once

    @app.get("/manifest.webmanifest", include_in_schema=False)
    def web_manifest() -> Response:
        return Response(manifest_bytes, media_type="application/manifest+json", headers=fresh)

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> Response:
        return Response(worker, media_type="text/javascript", headers=fresh)

    @app.get("/offline", response_class=HTMLResponse, include_in_schema=False)
    def offline_page(request: Request) -> Response:
        return templates.TemplateResponse(request, "offline.html", {})
