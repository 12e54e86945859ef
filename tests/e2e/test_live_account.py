"""The account page (issue 14, item 6) in a real browser against a real
server: from the top menu, a registered player sees where they are signed
in, logs out everywhere else, changes the password, downloads their data
and deletes the account after a confirmation that says what happens; in
Arabic on a phone, a guest does the same, right to left with no English
and no sideways scrolling.

(A module of its own: a fresh server.)"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect
from test_live import FAST, PASSWORD, as_guest, register

PHONE = {"width": 360, "height": 740}
NEW_PASSWORD = "a brand new password"


def _sign_in_elsewhere(pages: Any, server: str, username: str) -> Any:
    page = pages.new()
    page.goto(f"{server}/{FAST}")
    page.get_by_role("tab", name="Log in").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").last.click()
    page.locator(".lobby").wait_for()
    return page


def test_a_player_runs_their_account(pages: Any, server: str, checks: Any) -> None:
    page = pages.new()
    register(page, server, "keeper")
    elsewhere = _sign_in_elsewhere(pages, server, "keeper")
    page.get_by_role("link", name="Account").click()
    page.locator(".account").wait_for()
    sessions = page.locator(".session-row")
    expect(sessions).to_have_count(2)
    expect(page.locator(".session-row.current")).to_contain_text("This device")
    # Each session is named by its browser and system (the test's Chromium
    # says it runs on Linux).
    expect(page.locator(".session-row.current .session-device")).to_have_text("Chrome on Linux")
    assert checks.unnamed_controls(page) == []
    assert checks.horizontal_overflow(page) <= 0

    # Log out everywhere else: the other page's session is gone.
    page.get_by_role("button", name="Log out everywhere else").click()
    expect(page.locator(".account")).to_contain_text("Signed out of 1 other session.")
    expect(sessions).to_have_count(1)
    # The other page finds out at its next poll of the lobby, without a
    # reload: it goes to the sign-in page and says why.
    elsewhere.locator(".auth").wait_for(timeout=15_000)
    expect(elsewhere.locator(".home")).to_contain_text("your session ended")

    # Change the password: a wrong current one is refused, the right one works.
    page.get_by_label("Current password").fill("not my password")
    page.get_by_label("New password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change the password").click()
    wrong = "That password is not right."
    expect(page.locator(".account-form .form-msg").first).to_contain_text(wrong)
    page.get_by_label("Current password").fill(PASSWORD)
    page.get_by_label("New password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change the password").click()
    expect(page.locator(".account")).to_contain_text("Your password is changed.")

    # Download my data: a JSON file with the profile.
    with page.expect_download() as got:
        page.get_by_role("link", name="Download my data").click()
    data = json.loads(open(got.value.path(), encoding="utf-8").read())  # noqa: SIM115
    assert data["format"] == "fourhundred-account/1"
    assert data["profile"]["username"] == "keeper" and data["games"] == []

    # Delete: the confirmation says what happens; a wrong password keeps it.
    page.get_by_role("button", name="Delete my account").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Deleted player")
    expect(dialog).to_contain_text("other players' ratings stay")
    dialog.get_by_label("Your password, to confirm").fill(PASSWORD)
    dialog.get_by_role("button", name="Delete my account").click()
    expect(dialog.locator(".form-msg")).to_contain_text(wrong)
    dialog.get_by_label("Your password, to confirm").fill(NEW_PASSWORD)
    dialog.get_by_role("button", name="Delete my account").click()
    page.locator(".auth").wait_for()
    expect(page.locator(".home")).to_contain_text("Your account is deleted.")
    # The account is gone: its username and password no longer sign in.
    page.get_by_role("tab", name="Log in").click()
    page.get_by_label("Username").fill("keeper")
    page.get_by_label("Password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Log in").last.click()
    expect(page.locator(".auth .form-msg")).not_to_be_empty()
    assert page.console_errors == [] or all("401" in e for e in page.console_errors)
    assert checks.missing_keys(page) == []


def test_the_account_page_in_arabic_on_a_phone(pages: Any, server: str, checks: Any) -> None:
    page = pages.new(viewport=PHONE, locale="ar")
    page.goto(f"{server}/{FAST}")
    page.get_by_label("اسمك").fill("سامي")
    page.get_by_role("button", name="العب كضيف").click()
    page.locator(".lobby").wait_for()
    page.get_by_role("link", name="الحساب").click()
    page.locator(".account").wait_for()
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert checks.untranslated(page) == []
    assert checks.horizontal_overflow(page) <= 0
    assert checks.unnamed_controls(page) == []
    expect(page.locator(".session-row.current")).to_contain_text("هذا الجهاز")
    device = page.locator(".session-row.current .session-device")
    expect(device).to_have_text("Chrome على Linux")  # the names kept as they are
    page.get_by_role("button", name="احذف حسابي").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("لاعب محذوف")
    assert checks.untranslated(page) == []
    assert checks.horizontal_overflow(page) <= 0
    # A guest confirms without a password.
    assert dialog.locator("input[type=password]").count() == 0
    dialog.get_by_role("button", name="احذف حسابي").click()
    page.locator(".auth").wait_for()
    expect(page.locator(".home")).to_contain_text("حُذف حسابك")
    assert checks.missing_keys(page) == []
    assert page.console_errors == []


def test_the_account_page_on_a_desktop_in_english_for_a_guest(
    pages: Any, server: str, checks: Any
) -> None:
    page = pages.new()
    as_guest(page, server, "Visitor")
    page.goto(f"{server}/{FAST}#/account")
    page.locator(".account").wait_for()
    expect(page.locator(".account")).to_contain_text("A guest has no password.")
    assert checks.horizontal_overflow(page) <= 0
    assert checks.unnamed_controls(page) == []
    # A guest who wants an account signs out to the register tab, told why.
    page.get_by_role("button", name="Sign out and register").click()
    page.locator(".auth").wait_for()
    expect(page.get_by_role("tab", name="Register")).to_have_attribute("aria-selected", "true")
    expect(page.locator(".home")).to_contain_text("A guest's name and games are not carried over")
