"""Fixtures shared by the browser tests (``tests/web``, ``tests/e2e``): a
static file server for the client's assets and Debian's Chromium driven by
Playwright for Python.

Chromium comes from ``apt-get install -y chromium`` (``make services`` does
it); Playwright's own browser download is never used.
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

DEMO_SERVER = Path(__file__).resolve().parent / "web" / "demo_server.py"
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


@pytest.fixture(scope="session")
def static_url() -> Iterator[str]:
    """The web client served as static files on a free loopback port, with
    the demo scenes and the two API answers its demo mode asks for
    (``tests/web/demo_server.py``)."""
    spec = importlib.util.spec_from_file_location("demo_server", DEMO_SERVER)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with mod.serve() as url:
        yield url


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
