"""The first visit, in a real browser against a real server (issue 11): a
visitor who has not signed in yet meets no error on the console.

(A module of its own: a fresh server.)"""

from __future__ import annotations

from typing import Any

FAST = "?pace=fast"


def test_a_first_visit_logs_no_console_error(pages: Any, server: str) -> None:
    page = pages.new()
    page.goto(f"{server}/{FAST}")
    page.locator(".auth").wait_for()
    page.wait_for_load_state("networkidle")
    assert page.console_errors == []
    # Signed in, the same page knows who it is at once.
    page.get_by_label("Your name").fill("Visitor")
    page.get_by_role("button", name="Play as a guest").click()
    page.locator(".lobby").wait_for()
    page.reload()
    page.locator(".lobby").wait_for()
    page.wait_for_load_state("networkidle")
    assert page.console_errors == []
