"""The rematch in a real browser: two people and two bots finish a game
(left to the turn timer, then to the substitute bots), one asks for a
rematch from the game-over dialog and waits, the other accepts, and both are
taken to the new table, in English and in Arabic."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fh_e2e import say


def as_guest(page: Any, base: str, name: str, lang: str = "en") -> None:
    page.goto(f"{base}/?pace=fast&lang={lang}")
    page.get_by_label(say(lang, "auth.name"), exact=True).fill(name)
    page.get_by_role("button", name=say(lang, "auth.play_guest")).click()
    page.locator(".lobby").wait_for()


def create_table(page: Any, *, kind: str, target: int, lang: str = "en") -> None:
    page.get_by_role("button", name=say(lang, "create.button")).first.click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label(say(lang, f"kind.{kind.lower()}")).check()
    dialog.get_by_label(say(lang, "set.target"), exact=True).fill(str(target))
    dialog.get_by_role("button", name=say(lang, "create.submit")).click()
    page.locator(".room").wait_for()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_rematch_from_the_game_over_dialog(pages: Any, quick_timer_server: str, lang: str) -> None:
    base = quick_timer_server
    host, guest = pages.new(), pages.new()
    as_guest(host, base, "Hostess", lang)
    as_guest(guest, base, "Guest", lang)
    create_table(host, kind="Private", target=11, lang=lang)
    link = host.get_by_role("textbox", name=say(lang, "room.invite_title")).input_value()
    guest.goto(f"{link}&lang={lang}")
    guest.locator(".room .room-seat.me").wait_for()
    host.get_by_role("button", name=say(lang, "room.fill_bots")).click()
    for page in (host, guest):
        page.wait_for_function("document.querySelectorAll('.room-seat:not(.empty)').length === 4")
    # Filling the seats readies the host; the guest says so.
    guest.get_by_role("button", name=say(lang, "room.ready_button")).click()
    for page in (host, guest):
        page.locator(".table-screen").wait_for(timeout=20000)
    old = host.evaluate("location.hash")
    # Nobody acts: the timer plays, then substitute bots finish the game.
    for page in (host, guest):
        page.locator("dialog.game-over-dialog[open]").wait_for(timeout=300_000)
    dialog = host.locator("dialog.game-over-dialog[open]")
    dialog.get_by_role("button", name=say(lang, "rematch.offer"), exact=True).click()
    waiting = dialog.locator(".rematch-waiting")
    waiting.wait_for(timeout=10000)
    assert waiting.inner_text() == say(lang, "rematch.waiting")
    # The bots accepted too.
    assert say(lang, "rematch.open", accepted="1") not in dialog.inner_text()
    assert say(lang, "rematch.open", accepted="3") in dialog.inner_text()
    # The time left to answer counts down by the server's clock.
    left = dialog.locator("[data-key='rematch-left']")
    first = int(re.search(r"\d+", left.inner_text()).group())  # type: ignore[union-attr]
    assert 50 <= first <= 60, left.inner_text()
    host.wait_for_function(
        "parseInt(document.querySelector(\"[data-key='rematch-left']\")"
        f".textContent.match(/\\d+/)[0]) < {first}",
        timeout=5000,
    )
    other = guest.locator("dialog.game-over-dialog[open]")
    other.get_by_role("button", name=say(lang, "rematch.accept")).click()
    for page in (host, guest):
        page.wait_for_function(f"location.hash !== {old!r}", timeout=20000)
        assert re.fullmatch(r"#/table/[\w-]+", page.evaluate("location.hash"))
        page.locator(".table-screen").wait_for(timeout=20000)
    assert host.evaluate("location.hash") == guest.evaluate("location.hash")
