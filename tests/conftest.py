"""Fixtures shared by the browser tests (``tests/web``, ``tests/e2e``): a
static file server for the client's assets and Debian's Chromium driven by
Playwright for Python.

Chromium comes from ``apt-get install -y chromium`` (``make services`` does
it); Playwright's own browser download is never used.
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

WEB = Path(__file__).resolve().parents[1] / "src" / "fourhundred" / "web"
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


class _Static(http.server.SimpleHTTPRequestHandler):
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
    """The web client served as static files on a free loopback port (its
    demo mode and its modules need nothing else)."""
    handler = functools.partial(_Static, directory=str(WEB))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
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
