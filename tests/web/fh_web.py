"""Helpers for the browser tests of the client's modules."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def blank_page(browser: Any, static_url: str) -> Iterator[Any]:
    """A blank page on the static server's origin (so modules can load);
    ``page.errors`` collects the page's uncaught errors."""
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
