"""Reports and moderation in a real browser against a real server (issue
14, items 3 to 5): at a table a player says something the chat filter
masks; the other player sees it masked, reports it from the chat line,
then turns the filter off for themselves and reads it as said; a
moderator (granted with ``fourhundred admin grant-moderator``) opens the
moderator page, finds the report, reads the chat around the moment as it
was written, sees the proposed step and suspends the player; the
suspended player, on a phone, is told at once why and until when (in
English, and in Arabic after a reload) and is refused the next line.

(A module of its own: a fresh server whose database the command line opens.)"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_live import FAST, as_guest, create_table, register

from conftest import serve_with_db

PHONE = {"width": 360, "height": 740}
SAID = "what a shit lead, ya 3ars"
MASKED = "what a **** lead, ya ****"


@pytest.fixture(scope="module")
def mod_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server and its database URL (the command line grants the role)."""
    yield from serve_with_db(tmp_path_factory)


def _grant(db: str, username: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fourhundred.cli", "admin", "grant-moderator", username],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "FOURHUNDRED_DATABASE_URL": db},
        cwd=Path(__file__).parent,
    )
    assert done.returncode == 0, done.stderr


def _report(line: Any) -> None:
    """Report the chat ``line``'s author for abuse in chat."""
    line.get_by_role("button", name="Report Rude").click()
    dialog = line.page.locator("dialog[open]")
    expect(dialog.get_by_role("heading")).to_have_text("Report Rude")
    dialog.get_by_label("Abuse in chat").check()
    dialog.get_by_label("Note (optional)").fill("insults in chat")
    dialog.get_by_role("button", name="Send the report").click()
    expect(dialog.locator(".report-sent")).to_contain_text("a moderator will look")


def _suspend(mod: Any, base: str, db: str) -> None:
    """A moderator (registered, granted at the command line) suspends Rude."""
    register(mod, base, "modmaria")
    _grant(db, "modmaria")
    mod.reload()
    mod.get_by_role("link", name="Moderation").click()
    report = mod.locator(".mod-report", has_text="Rude")
    expect(report).to_contain_text("Abuse in chat")
    expect(report).to_contain_text("insults in chat")
    report.get_by_role("link", name="Open").click()
    expect(mod.locator(".page-title")).to_have_text("Report about Rude")
    expect(mod.locator(".mod-chat .text").first).to_have_text(SAID)  # as written
    expect(mod.locator(".mod-proposal")).to_have_text("Proposed next step: Warn")
    mod.get_by_label("Penalty").select_option("suspend")
    expect(mod.get_by_label("Hours (mute or suspension)")).to_have_value("168")
    mod.get_by_label("Reason (the player is told)").fill("insults in chat")
    mod.get_by_role("button", name="Apply").click()
    expect(mod.locator(".banner", has_text="Done")).to_have_text("Done: Suspend recorded.")
    expect(mod.locator(".mod-proposal")).to_have_text("Proposed next step: Ban")
    mod.get_by_role("link", name="All reports").click()
    expect(mod.locator(".mod-audit li").first).to_contain_text("Suspend")
    expect(mod.locator(".mod-audit li").first).to_contain_text("modmaria")


def _told_why_and_until_when(offender: Any) -> None:
    """The offender's page says at once why and until when; their next line
    is refused."""
    banner = offender.locator(".standing")
    expect(banner).to_contain_text("Your account is suspended until")
    offender.locator("#chat-input").fill("hello?")
    offender.locator("#chat-input").press("Enter")
    expect(offender.locator(".chat .form-msg")).to_have_text("Your account is suspended for now.")
    expect(offender.locator(".chat-msg")).to_have_count(1)
    expect(banner).to_contain_text("Reason: insults in chat")
    until = offender.evaluate(
        """() => new Intl.DateTimeFormat("en-GB", {dateStyle: "medium"}).format(
            new Date(Date.now() + 7 * 24 * 3600 * 1000))"""
    )
    expect(banner).to_contain_text(until)
    # And after a reload, in Arabic.
    offender.reload()
    offender.locator(".lang-switch").click()
    banner = offender.locator(".standing")
    expect(banner).to_contain_text("حسابك موقوف حتى")
    expect(banner).to_contain_text("السبب: insults in chat")
    assert offender.evaluate("document.documentElement.dir") == "rtl"


def test_a_report_from_the_chat_to_a_suspension(pages: Any, mod_server: tuple[str, str]) -> None:
    base, db = mod_server
    # The offender hosts a Casual table, on a phone; the reporter joins it.
    offender = pages.new(viewport=PHONE)
    as_guest(offender, base, "Rude")
    create_table(offender, kind="Casual")
    table = offender.url.split("#/table/", 1)[1].split("?")[0]
    reporter = pages.new()
    as_guest(reporter, base, "Polite")
    reporter.goto(f"{base}/{FAST}#/table/{table}")
    reporter.locator(".room").wait_for()

    offender.locator("#chat-input").fill(SAID)
    offender.locator("#chat-input").press("Enter")
    line = reporter.locator(".chat-msg", has_text="Rude")
    expect(line.locator(".text")).to_have_text(MASKED)
    expect(offender.locator(".chat-msg .text")).to_have_text(MASKED)

    _report(line)
    # The reporter chooses to read chat unfiltered: the line as said.
    reporter.keyboard.press("Escape")
    reporter.get_by_label("Show chat unfiltered").check()
    expect(line.locator(".text")).to_have_text(SAID)
    expect(offender.locator(".chat-msg .text")).to_have_text(MASKED)
    _suspend(pages.new(), base, db)
    _told_why_and_until_when(offender)
    assert pages.errors == []
