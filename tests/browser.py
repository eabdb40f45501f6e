"""What the browser tests share: ``fivecard serve`` in a subprocess, Debian's
chromium through Playwright, and pages that record their console errors
and CSP violations."""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Locator, Page, ViewportSize, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Screenshots: a temporary folder, or FIVECARD_SCREENSHOTS (docs/screenshots for the manual's).
SHOTS = Path(os.environ.get("FIVECARD_SCREENSHOTS") or Path(tempfile.gettempdir()) / "fivecard-screenshots")
DESKTOP: ViewportSize = {"width": 1000, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}  # a phone held upright

# Record every CSP violation as a console error (init scripts are exempt
# from the page's CSP, so this runs on every page).
CSP_WATCH = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline code"}`);
});
"""


class Server:
    """``fivecard serve`` in a subprocess, on 127.0.0.1."""

    def __init__(
        self, data: Path, port: int = 0, env: dict[str, str] | None = None, options: tuple[str, ...] = ()
    ) -> None:
        """``env``: variables set for the server (``FIVECARD_CACHE``: a cache
        of its own); ``options``: more of ``serve``'s options (it still
        listens on 127.0.0.1 alone)."""
        self.data = data
        self.log = data.parent / f"{data.name}-serve.log"
        command = [sys.executable, "-m", "fivecard", "serve", *options, "--host", "127.0.0.1", "--port", str(port)]
        command += ["--data", str(data)]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=log, text=True, env={**os.environ, **(env or {})}
            )
        assert self.process.stdout is not None
        # (a selector, not select(): a long test process may hold more than
        # the 1,024 descriptors select() can watch)
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            ready = selector.select(timeout=30)
        line = self.process.stdout.readline() if ready else ""
        found = re.search(r"at (http://127\.0\.0\.1:(\d+)/)", line)
        if not found:
            self.kill()
            pytest.fail(f"fivecard serve did not start: {line!r}; its log: {self.log.read_text()!r}")
        self.url = found.group(1).rstrip("/")
        self.port = int(found.group(2))
        self._wait_until_up()

    def _wait_until_up(self) -> None:
        for _ in range(200):
            try:
                with urllib.request.urlopen(self.url + "/static/app.css", timeout=2):
                    return
            except OSError:
                time.sleep(0.05)
        pytest.fail(f"fivecard serve at {self.url} does not answer")

    def stop(self) -> None:
        """Ctrl-C's signal's kin (SIGTERM): a graceful stop."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._close()

    def kill(self) -> None:
        """SIGKILL: nothing is saved on the way out."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._close()

    def _close(self) -> None:
        if self.process.stdout is not None:
            self.process.stdout.close()


def launch() -> Iterator[Browser]:
    """Debian's chromium (Playwright's own download cannot reach the
    internet here); a clear failure, not a skip, when it is missing."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"the browser tests need Debian's chromium at {CHROMIUM}: "
            "apt-get install -y chromium (scripts/test.sh installs it when run as root)"
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@dataclass
class Tab:
    """A browser context's page and the console errors (CSP violations
    included) seen on it."""

    page: Page
    errors: list[str] = field(default_factory=list)

    def watch(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"{message.text} ({message.location.get('url', '?')})")


def open_tab(
    browser: Browser, viewport: ViewportSize = DESKTOP, proxy: str | None = None, locale: str | None = None
) -> Tab:
    """A new context (its own cookies) and page, watched for errors.
    ``proxy``: every request of the context goes through that HTTP proxy
    (the browser still believes it reaches the address it was given);
    ``locale``: the browser's language (its ``Accept-Language``, ``ja-JP``)."""
    context = browser.new_context(viewport=viewport, proxy={"server": proxy} if proxy else None, locale=locale)
    context.add_init_script(CSP_WATCH)
    tab = Tab(context.new_page())
    tab.page.on("console", tab.watch)
    tab.page.on("pageerror", lambda error: tab.errors.append(f"uncaught: {error}"))
    return tab


def labels(page: Page, selector: str) -> list[str]:
    """The accessible names (aria-label) of the elements selected."""
    return [str(x) for x in page.locator(selector).evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")]


def card_names(page: Page, selector: str) -> list[str]:
    """The cards' labels without what a page says after the name (", new",
    ", as Ace of hearts", ", held")."""
    return [label.split(", ")[0] for label in labels(page, selector)]


def tab_of(browser: Browser, viewport: ViewportSize) -> Iterator[Tab]:
    """A fixture's tab: closed after the test, which fails on any console
    error or CSP violation seen in it."""
    opened = open_tab(browser, viewport)
    yield opened
    opened.page.context.close()
    assert opened.errors == [], "console errors or CSP violations"


# The dealer page, as its tests drive it.


def new_game(page: Page, base: str, *, seed: int, rules: str = "standard", stack: int | None = None) -> str:
    """Start a game from the start screen (its seed and stack prefilled from
    the URL); the page deals the first round. Returns the game's id."""
    query = f"seed={seed}&rules={rules}&fast=1" + (f"&stack={stack}" if stack else "")
    page.goto(f"{base}/?{query}")
    expect(page.locator(f'input[name="rules"][value="{rules}"]')).to_be_checked()
    page.get_by_role("button", name="New game").click()
    page.wait_for_url(re.compile(r"/play/[^/?]+\?fast=1$"))
    expect(my_cards(page)).to_have_count(5)
    return urlsplit(page.url).path.rsplit("/", 1)[1]


def my_cards(page: Page) -> Locator:
    return page.locator("#seat-0 button.card")


def pressed(page: Page) -> list[int]:
    states = my_cards(page).evaluate_all("els => els.map(e => e.getAttribute('aria-pressed'))")
    return [i for i, state in enumerate(states) if state == "true"]


# The fixtures the browser tests share (a test module imports them by name):
# one chromium and one server (a data folder of its own) for each module.


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launch()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web") / "data")
    yield running
    running.stop()
