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


@contextlib.contextmanager
def modules_page(browser: Any, static_url: str, **modules: str) -> Iterator[Any]:
    """:func:`blank_page` with each of ``modules`` (a global name for a
    module's path, e.g. ``T="/js/screens/tournament.js"``) imported, and
    ``page.missing`` collecting the text keys the page had no words for."""
    with blank_page(browser, static_url) as page:
        page.missing = []
        page.on(
            "console",
            lambda m: page.missing.append(m.text) if m.text.startswith("i18n: no") else None,
        )
        page.evaluate(
            """async (modules) => {
                for (const [name, path] of Object.entries(modules)) {
                    window[name] = await import(path);
                }
            }""",
            modules,
        )
        yield page
