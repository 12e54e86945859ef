"""The rematch in a real browser: two people and two bots finish a game
(left to the turn timer, then to the substitute bots), one asks for a
rematch from the game-over dialog and waits, the other accepts, and both are
taken to the new table."""

from __future__ import annotations

import re
from typing import Any


def as_guest(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/?pace=fast")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Play as a guest").click()
    page.locator(".lobby").wait_for()


def create_table(page: Any, *, kind: str, target: int) -> None:
    page.get_by_role("button", name="Create a table").first.click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label(kind).check()
    dialog.get_by_label("Target score", exact=True).fill(str(target))
    dialog.get_by_role("button", name="Create the table").click()
    page.locator(".room").wait_for()


def test_rematch_from_the_game_over_dialog(pages: Any, quick_timer_server: str) -> None:
    base = quick_timer_server
    host, guest = pages.new(), pages.new()
    as_guest(host, base, "Hostess")
    as_guest(guest, base, "Guest")
    create_table(host, kind="Private", target=11)
    link = host.get_by_role("textbox", name="Invite link").input_value()
    guest.goto(link)
    guest.locator(".room .room-seat.me").wait_for()
    host.get_by_role("button", name="Fill empty seats with bots").click()
    for page in (host, guest):
        page.wait_for_function("document.querySelectorAll('.room-seat:not(.empty)').length === 4")
    # Filling the seats readies the host; the guest says so.
    guest.get_by_role("button", name="I'm ready").click()
    for page in (host, guest):
        page.locator(".table-screen").wait_for(timeout=20000)
    old = host.evaluate("location.hash")
    # Nobody acts: the timer plays, then substitute bots finish the game.
    for page in (host, guest):
        page.locator("dialog.game-over-dialog[open]").wait_for(timeout=300_000)
    dialog = host.locator("dialog.game-over-dialog[open]")
    dialog.get_by_role("button", name="Rematch").click()
    waiting = dialog.locator(".rematch-waiting")
    waiting.wait_for(timeout=10000)
    assert waiting.inner_text() == "Waiting for the others to answer…"
    assert "1 of 4 accepted" not in dialog.inner_text()  # the bots accepted too
    assert "3 of 4 accepted" in dialog.inner_text()
    other = guest.locator("dialog.game-over-dialog[open]")
    other.get_by_role("button", name="Accept the rematch").click()
    for page in (host, guest):
        page.wait_for_function(f"location.hash !== {old!r}", timeout=20000)
        assert re.fullmatch(r"#/table/[\w-]+", page.evaluate("location.hash"))
        page.locator(".table-screen").wait_for(timeout=20000)
    assert host.evaluate("location.hash") == guest.evaluate("location.hash")
