"""A blank page in a real Chromium (the browser and the static file server
are the fixtures of ``tests/conftest.py``).

The client is plain files (``src/fourhundred/web``); these tests load its
ES modules in Debian's Chromium to check that they import, that the two
languages match, and that its copy of the rules agrees with the engine.
Chromium comes from ``apt-get install -y chromium`` (``make services``);
Playwright's own browser download is never used.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


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
