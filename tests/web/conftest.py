"""A real Chromium and a static file server for the browser client's assets.

The client is plain files (``src/fourhundred/web``); these tests load its
ES modules in Debian's Chromium to check that they import, that the two
languages match, and that its copy of the rules agrees with the engine.
Chromium comes from ``apt-get install -y chromium`` (``make services``);
Playwright's own browser download is never used.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "fourhundred" / "web"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    "--headless",
    "--no-sandbox",
]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the stdlib attribute
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".json": "application/json",
        ".svg": "image/svg+xml",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def static_url() -> Iterator[str]:
    """The web client served as static files on a free loopback port."""
    handler = functools.partial(_Quiet, directory=str(WEB))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium (the test fails, never skips, when it is missing).

    Started and stopped per test module: a running sync Playwright marks an
    asyncio loop as running in this thread, which would break the asyncio
    tests that follow (and two sync Playwrights cannot run at once)."""
    if not CHROMIUM.exists():
        pytest.fail(
            "Chromium is not installed at /usr/bin/chromium: run "
            "`apt-get install -y chromium` (make services does it); never `playwright install`"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            with contextlib.suppress(Exception):
                b.close()


@pytest.fixture
def page(browser: Any, static_url: str) -> Iterator[Any]:
    """A blank page on the static server's origin (so modules can load)."""
    context = browser.new_context()
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    blank = f"{static_url}/__blank__.html"
    pg.route(
        blank,
        lambda r: r.fulfill(body="<!doctype html><title>test</title>", content_type="text/html"),
    )
    pg.goto(blank)
    pg.errors = errors
    try:
        yield pg
    finally:
        context.close()
