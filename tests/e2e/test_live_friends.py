"""Friends in a real browser, in English and in Arabic: one person adds
another by username from the lobby's Friends panel, the other accepts from
their lobby (which updates without a reload: a ``notice`` frame), the first
creates a Private table and invites the friend from the waiting room's
"Invite a friend", and the friend joins from the lobby's invitations and is
seated. The friend uses a 360 px phone; the Arabic pages hold no English."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from fh_e2e import say

PHONE = {"width": 360, "height": 740}
PASSWORD = "correct horse battery"


def register(page: Any, base: str, lang: str, username: str) -> None:
    page.goto(f"{base}/?pace=fast&lang={lang}")
    page.get_by_role("tab", name=say(lang, "auth.register")).click()
    page.get_by_label(say(lang, "auth.username"), exact=True).fill(username)
    page.get_by_label(say(lang, "auth.password"), exact=True).fill(PASSWORD)
    page.get_by_role("button", name=say(lang, "auth.register"), exact=True).click()
    page.locator(".lobby").wait_for()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_add_a_friend_invite_them_and_they_join_from_the_lobby(
    pages: Any, server: str, checks: Any, lang: str
) -> None:
    tag = secrets.token_hex(2)
    host_name, friend_name = f"hala_{lang}{tag}", f"sami_{lang}{tag}"
    host = pages.new(locale=lang)
    friend = pages.new(locale=lang, viewport=PHONE)
    register(host, server, lang, host_name)
    register(friend, server, lang, friend_name)
    for page in (host, friend):
        assert page.evaluate("document.documentElement.lang") == lang
        page.locator(".friends").wait_for()

    # The host asks by username from the lobby's Friends panel.
    panel = host.locator(".friends")
    panel.get_by_label(say(lang, "friends.username")).fill(friend_name)
    panel.get_by_role("button", name=say(lang, "friends.add"), exact=True).click()
    panel.get_by_role("button", name=say(lang, "friends.cancel_name", name=friend_name)).wait_for()

    # The friend's lobby shows the request without a reload; they accept.
    accept = friend.get_by_role("button", name=say(lang, "friends.accept_name", name=host_name))
    accept.wait_for(timeout=10000)
    if lang == "ar":
        assert checks.untranslated(friend) == []
    assert checks.horizontal_overflow(friend) <= 0
    accept.click()
    friend.locator(".friends .friend-row.online").filter(has_text=host_name).wait_for()
    host.locator(".friends .friend-row.online").filter(has_text=friend_name).wait_for(timeout=10000)

    # The host creates a Private table and invites the friend from it.
    host.get_by_role("button", name=say(lang, "create.button")).first.click()
    host.locator("dialog[open]").get_by_role("button", name=say(lang, "create.submit")).click()
    host.locator(".room").wait_for()
    invite = host.get_by_role("button", name=say(lang, "friends.invite_name", name=friend_name))
    invite.click()
    if lang == "ar":
        assert checks.untranslated(host) == []

    # The friend sees the invitation in the lobby and joins: seated.
    join = friend.get_by_role("button", name=say(lang, "invites.join_name", name=host_name))
    join.wait_for(timeout=10000)
    if lang == "ar":
        assert checks.untranslated(friend) == []
    assert checks.horizontal_overflow(friend) <= 0
    join.click()
    friend.locator(".room .room-seat.me").wait_for(timeout=15000)
    host.locator(".room-seat:not(.empty)").filter(has_text=friend_name).wait_for()
    assert host.evaluate("location.hash") == friend.evaluate("location.hash")
    assert checks.horizontal_overflow(friend) <= 0
    for page in (host, friend):
        assert checks.missing_keys(page) == []
        assert checks.unnamed_controls(page) == []
