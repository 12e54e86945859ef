"""The first visit and the waiting room, in a real browser against a real
server (issue 11): a visitor who has not signed in yet meets no error on
the console; the waiting room names the rules the table started from, says
what "Fill empty seats with bots" does besides, and a settings error goes
once the value is put right.

(A module of its own: a fresh server.)"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

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


def _host(pages: Any, server: str, name: str) -> Any:
    """A guest's page in the waiting room of a new Private table (Standard rules)."""
    page = pages.new()
    page.goto(f"{server}/{FAST}")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Play as a guest").click()
    page.locator(".lobby").wait_for()
    page.get_by_role("button", name="Create a table").first.click()
    page.locator("dialog[open]").get_by_role("button", name="Create the table").click()
    page.locator(".room").wait_for()
    return page


def _rules(page: Any) -> Any:
    """The waiting room's rules dialog, opened."""
    page.get_by_role("button", name="Change the rules").click()
    return page.locator("dialog[open]")


def test_the_waiting_room_names_the_rules_the_table_started_from(pages: Any, server: str) -> None:
    page = _host(pages, server, "Namer")
    named = page.locator(".room .preset-name")
    expect(named).to_have_text("Rules: Standard")
    dialog = _rules(page)
    dialog.get_by_label("Jawaker").check()
    dialog.get_by_role("button", name="Save the rules").click()
    expect(named).to_have_text("Rules: Jawaker")
    dialog = _rules(page)
    dialog.get_by_label("Target score", exact=True).fill("51")
    dialog.get_by_role("button", name="Save the rules").click()
    expect(named).to_have_text("Rules: Custom, from Jawaker")
    assert "51 points" in page.locator(".settings-list").inner_text()


def test_a_settings_error_goes_once_the_value_is_right(pages: Any, server: str) -> None:
    page = _host(pages, server, "Fixer")
    dialog = _rules(page)
    target = dialog.get_by_label("Target score", exact=True)
    target.fill("7")
    dialog.get_by_role("button", name="Save the rules").click()
    message = dialog.locator(".form-msg")
    expect(message).to_contain_text("11 to 200")
    # Still wrong: the message stays.
    target.fill("5")
    expect(message).to_contain_text("11 to 200")
    target.fill("41")
    expect(message).to_have_text("")
    dialog.get_by_role("button", name="Save the rules").click()
    expect(page.locator("dialog[open]")).to_have_count(0)


def test_filling_with_bots_says_it_also_makes_the_host_ready_and_starts(
    pages: Any, server: str
) -> None:
    page = _host(pages, server, "Filler")
    fill = page.get_by_role("button", name="Fill empty seats with bots")
    expect(fill).to_have_accessible_name(re.compile(r"and start"))
    expect(fill).to_have_accessible_description(re.compile(r"you are marked ready"))
    fill.click()
    page.locator(".table-screen").wait_for(timeout=20000)
