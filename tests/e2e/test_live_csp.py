"""The whole client under the server's Content-Security-Policy (issue 14,
item 2), in a real browser: the lobby, creating a table, the waiting room,
filling it with bots, a few moves, the replay of the finished game, the
profile and the account page, with no CSP violation reported (neither a
``securitypolicyviolation`` event nor a console message) and no console
error. A last step breaks the policy on purpose, to show the watch works.

(A module of its own: a fresh server.)"""

from __future__ import annotations

import time
from typing import Any

import pytest
from test_live import FAST, act, as_guest, create_table

from fourhundred.server.headers import CSP

_WATCH = """() => document.addEventListener('securitypolicyviolation', (e) =>
    window.fhCspViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`))"""


def _watched(pages: Any) -> tuple[Any, list[str]]:
    """A page whose CSP violations and CSP console messages are collected."""
    page = pages.new(strict_csp=True)
    violations: list[str] = []

    def record(text: str) -> None:
        violations.append(text)

    # A bound method cannot carry Playwright's marker: a plain function.
    page.expose_function("fhCspViolation", record)
    page.add_init_script(script=f"({_WATCH})()")

    def console(msg: Any) -> None:
        if "Content Security Policy" in msg.text or "Content-Security-Policy" in msg.text:
            violations.append(f"console: {msg.text}")

    page.on("console", console)
    return page, violations


def _replay_when_finished(page: Any, base: str, table: str, timeout: float = 240) -> None:
    """The replay page of ``table``, once its game has ended (bots finish it).
    The wait asks the API outside the page: the page's own 404 for a game
    not yet over would be a console error this test rightly counts."""
    deadline = time.monotonic() + timeout
    while page.request.get(f"{base}/api/games/{table}").status != 200:
        if time.monotonic() > deadline:
            pytest.fail("the game left to the bots did not end")
        page.wait_for_timeout(1000)
    page.goto("about:blank")  # a fresh load, not a hash change on the table's page
    page.goto(f"{base}/{FAST}#/replay/{table}")
    page.locator(".replay-controls").wait_for()


def test_the_client_works_under_the_policy(pages: Any, server: str) -> None:
    page, violations = _watched(pages)
    response = page.goto(f"{server}/{FAST}")
    assert response is not None and response.headers["content-security-policy"] == CSP
    as_guest(page, server, "Strict")
    # The create dialog, the waiting room, the rules dialog.
    create_table(page, kind="Private", target=11)
    page.get_by_role("button", name="Change the rules").click()
    page.locator("dialog[open]").get_by_role("button", name="Close").click()
    table = page.evaluate("() => location.hash").rsplit("/", 1)[-1]
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.locator(".table-screen").wait_for(timeout=20000)
    # A few moves: the hand, the bid panel, cards flying to the trick.
    moves, deadline = 0, time.monotonic() + 120
    while moves < 4 and time.monotonic() < deadline:
        if act(page):
            moves += 1
        else:
            page.wait_for_timeout(50)
    assert moves == 4
    # Leave: a bot takes the seat and the bots finish the game.
    page.locator("button[data-key=leave]").click()
    page.locator("dialog[open]").get_by_role("button", name="Leave").click()
    _replay_when_finished(page, server, table)
    page.locator(".open-hand .card").first.wait_for()
    page.get_by_role("link", name="My profile").click()
    page.locator(".profile").wait_for()
    page.get_by_role("link", name="Account").click()
    page.locator(".account").wait_for()
    page.get_by_role("button", name="Delete my account").click()
    page.locator("dialog[open]").get_by_role("button", name="Keep my account").click()
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    assert violations == []
    assert page.console_errors == []
    # The watch sees a violation when there is one: an inline style attribute.
    page.evaluate(
        "() => document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')"
    )
    page.wait_for_timeout(500)
    assert any("style-src" in v for v in violations), violations
