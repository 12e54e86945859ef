"""Every main screen, in English and Arabic, on a 360 px phone and on a
desktop: no sideways scrolling, every control named, the Arabic pages right
to left with no English left in them; and everything done by keyboard."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

DEMO = Path(__file__).resolve().parents[1] / "web" / "demo"
SCENES = [*sorted(p.stem for p in DEMO.glob("*.json") if not p.stem.endswith("_ar")), "home"]


def arabic(name: str) -> str:
    """The scene's Arabic variant (Arabic names) when there is one."""
    return f"{name}_ar" if (DEMO / f"{name}_ar.json").exists() else name


def sent(page: Any) -> list[dict[str, Any]]:
    """What the demo page would have sent (it says so on its console)."""
    return list(page.demo_sent)


@pytest.mark.parametrize("name", SCENES)
def test_screen_on_a_360_px_phone_in_both_languages(demo: Any, checks: Any, name: str) -> None:
    """No sideways scrolling, every control named, every text translated;
    the Arabic page right to left with no English in it."""
    for lang in ("en", "ar"):
        page = demo(arabic(name) if lang == "ar" else name, lang=lang, phone=True)
        where = f"{name} {lang}"
        assert checks.horizontal_overflow(page) <= 0, where
        felt = page.locator(".felt")
        if felt.count():
            box = felt.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 360, where
            # The whole table is on screen at once (no need to scroll to see it).
            assert box["height"] <= 740, where
        assert checks.unnamed_controls(page) == [], where
        assert checks.missing_keys(page) == [], where
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
        if lang == "ar":
            assert checks.untranslated(page) == [], where
        page.context.close()


def test_desktop_controls_are_named_and_the_switch_works(demo: Any, checks: Any) -> None:
    for name in ("play", "room", "replay"):
        page = demo(arabic(name), lang="ar")
        assert checks.unnamed_controls(page) == [], name
        assert checks.untranslated(page) == [], name
        if page.locator("dialog[open]").count():
            page.keyboard.press("Escape")
        # The switch back to English is on every page and works.
        page.get_by_role("button", name="English", exact=True).click()
        assert page.evaluate("document.documentElement.dir") == "ltr"
        switch = page.get_by_role("button", name="العربية", exact=True)
        assert switch.is_visible() and switch.get_attribute("title") == "Switch to Arabic"
        assert checks.unnamed_controls(page) == [], name
        page.context.close()


def test_dialogs_are_named_and_translated(demo: Any, checks: Any) -> None:
    page = demo("lobby", lang="ar")
    page.get_by_role("button", name="أنشئ طاولة").click()
    dialog = page.locator("dialog[open]")
    assert dialog.get_by_role("heading").first.inner_text() == "إنشاء طاولة"
    assert checks.unnamed_controls(page) == []
    assert checks.untranslated(page) == []
    page.keyboard.press("Escape")
    page = demo("lobby", lang="ar", phone=True)
    page.get_by_role("button", name="أنشئ طاولة").click()
    page.locator("dialog[open]").wait_for()
    box = page.locator("dialog[open]").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert checks.horizontal_overflow(page) <= 0
    page.keyboard.press("Escape")
    page = demo("play", lang="ar", phone=True)
    for name in ("الحساب", "القواعد", "آخر لمّة"):
        page.get_by_role("button", name=name, exact=True).click()
        assert page.locator("dialog[open]").count() == 1
        assert checks.untranslated(page) == []
        assert checks.horizontal_overflow(page) <= 0
        page.keyboard.press("Escape")


def test_language_follows_the_browser_then_the_switch(pages: Any, static_url: str) -> None:
    page = pages.new(locale="ar-LB")
    page.goto(f"{static_url}/?demo=lobby")
    page.wait_for_selector(".lobby")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    page.get_by_role("button", name="English", exact=True).click()
    page.reload()
    page.wait_for_selector(".lobby")
    assert page.evaluate("document.documentElement.lang") == "en"
    page = pages.new(locale="en-US")
    page.goto(f"{static_url}/?demo=lobby")
    page.wait_for_selector(".lobby")
    assert page.evaluate("document.documentElement.lang") == "en"


def test_bidding_by_keyboard(demo: Any) -> None:
    page = demo("bid")
    first = page.locator(".bid-panel .bid-btn").first
    # It is this seat's turn: the focus is on the bids already.
    assert first.evaluate("e => e === document.activeElement")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    legal = page.locator(".bid-btn").evaluate_all("els => els.map(e => +e.dataset.bid)")
    assert sent(page) == [{"type": "bid", "bid": legal[1]}]


def test_playing_a_card_by_keyboard_and_refusing_an_illegal_one(demo: Any) -> None:
    page = demo("play")
    hand = page.locator(".hand")
    # It is this seat's turn: the focus is on the hand already; away and
    # back by Tab, it comes to the hand's one tab stop.
    assert page.evaluate("document.activeElement.closest('.hand') !== null")
    page.locator(".tool").first.focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('.hand') !== null"):
            break
    else:
        pytest.fail("Tab never reached the hand")
    # One tab stop for the whole hand: the first legal card.
    focused = page.evaluate("document.activeElement.dataset.card")
    legal = hand.locator("button.card:not([aria-disabled])").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert focused == legal[0]
    page.keyboard.press("Home")
    first = page.evaluate("document.activeElement.dataset.card")
    if first not in legal:
        page.keyboard.press("Enter")
        assert sent(page) == []
        assert "must follow" in page.locator(".notice").inner_text()
    page.keyboard.press("End")
    last = page.evaluate("document.activeElement.dataset.card")
    for _ in range(13):
        if page.evaluate("document.activeElement.dataset.card") in legal:
            break
        page.keyboard.press("ArrowLeft")
    card = page.evaluate("document.activeElement.dataset.card")
    assert card in legal and last is not None
    page.keyboard.press("Enter")
    assert sent(page) == [{"type": "play", "card": card}]


def test_replay_steps_hand_by_hand_and_card_by_card(demo: Any) -> None:
    page = demo("replay")
    # Nobody watching sits at the table: its teams are named by their players.
    assert page.locator(".team-0 .team-name").inner_text() == "Rami and Karim"
    assert page.locator(".team-1 .team-name").inner_text() == "Nour and Layla"
    action = page.locator(".replay-action")
    assert "dealt" in action.inner_text()
    assert page.locator(".open-hand .card").count() == 52
    page.get_by_role("button", name="Step forward").click()
    assert " bid " in action.inner_text()
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert "played" in action.inner_text()
    assert page.locator(".open-hand .card").count() == 51
    assert page.locator(".trick .card.played").count() == 1
    page.get_by_role("button", name="End of the hand").click()
    assert page.locator(".replay-result").is_visible()
    page.select_option("#replay-hand", "2")
    assert page.locator(".open-hand .card").count() == 52
    assert page.get_by_role("heading", name="Analysis").is_visible()


def test_waiting_room_has_every_host_control(demo: Any) -> None:
    page = demo("room")
    for name in ("Change the rules", "Fill empty seats with bots", "Copy", "Leave the table"):
        assert page.get_by_role("button", name=name).is_visible()
    # The host is ready: the toggle says so and offers to take it back.
    toggle = page.get_by_role("button", name="Not ready yet")
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.get_by_role("button", name="Add a bot at Seat 3").is_visible()
    assert page.get_by_role("button", name="Remove Nour").is_visible()
    assert page.get_by_label("Move Seat 2 to another seat").is_visible()
    link = page.get_by_role("textbox", name="Invite link").input_value()
    assert link.endswith("/?invite=q3Vx9kTz0bLw7mPa2RcY4g")
    # Every setting in plain words.
    assert page.locator(".settings-list .setting").count() == 13
    page.get_by_role("button", name="Add a bot at Seat 3").click()
    page.get_by_label("Move Seat 2 to another seat").select_option("3")
    toggle.click()
    assert sent(page) == [
        # The level the host picked beside the button (intermediate unless changed).
        {"type": "add_bot", "seat": 2, "level": "intermediate"},
        {"type": "move", "from": 1, "to": 3},
        {"type": "ready", "ready": False},
    ]


def test_create_form_offers_every_setting_and_preset_explained(demo: Any) -> None:
    page = demo("lobby")
    page.get_by_role("button", name="Create a table").click()
    dialog = page.locator("dialog[open]")
    dialog.wait_for()  # it opens once the server's catalogue (GET /api/presets) is in
    assert dialog.get_by_role("radio").count() == 2 + 6  # kinds + presets
    for label in (
        "Target score",
        "Lowest bid",
        "Rising lowest bid",
        "Combined minimum",
        "Rising combined minimum",
        "Scoring",
        "5 and 6 at face value from 30",
        "Big bids",
        "The 13 bid",
        "Partner's score to win",
        "Five to run",
        "Redeal without face cards",
        "Turn timer",
    ):
        control = dialog.get_by_label(label, exact=True)
        assert control.count() == 1, label
        described = control.get_attribute("aria-describedby")
        assert described and dialog.locator(f"#{described}").inner_text().strip(), label
    dialog.get_by_label("Jawaker").check()
    assert dialog.get_by_label("The 13 bid", exact=True).is_checked()
    assert dialog.get_by_label("Big bids", exact=True).input_value() == "ten_40"


def _open(pages: Any, url: str, size: dict[str, int]) -> Any:
    page = pages.new(viewport=size)
    page.goto(url)
    page.locator(".table-screen").wait_for()
    return page


@pytest.mark.parametrize("name", ["bid", "play"])
def test_a_phone_shows_the_hand_number_the_target_and_the_bid_total(
    pages: Any, static_url: str, name: str
) -> None:
    view = json.loads((DEMO / f"{name}.json").read_text(encoding="utf-8"))["frame"]["view"]
    page = _open(pages, f"{static_url}/?demo={name}&lang=en", {"width": 390, "height": 844})
    for text in (
        f"Hand {view['hand_index'] + 1}",  # counted from 1
        f"Target {view['rules']['target']}",
        f"Bids must reach {view['required_total']}",
    ):
        shown = page.locator(".table-screen").get_by_text(text).filter(visible=True)
        assert shown.count() >= 1, text
        box = shown.first.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, text


def test_a_1280_by_800_desktop_shows_the_table_and_the_bidding_panel_without_scrolling(
    pages: Any, static_url: str
) -> None:
    """The bid scene: the bidding panel open and a score sheet of 16 hands
    beside the table."""
    page = _open(pages, f"{static_url}/?demo=bid&lang=en", {"width": 1280, "height": 800})
    page.locator(".bid-panel").wait_for()
    height, inner = page.evaluate("() => [document.scrollingElement.scrollHeight, innerHeight]")
    assert height <= inner
    for part in (".felt", ".status", ".bid-panel", ".hand", ".game-side"):
        box = page.locator(part).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= inner, part


@pytest.mark.parametrize(
    ("lang", "viewport"),
    [
        ("en", {"width": 1280, "height": 800}),
        ("ar", {"width": 1280, "height": 800}),
        ("en", {"width": 360, "height": 740}),
        ("ar", {"width": 360, "height": 740}),
        ("en", {"width": 800, "height": 900}),
    ],
)
def test_no_seat_plate_covers_a_card_of_the_trick(
    pages: Any, static_url: str, lang: str, viewport: dict[str, int]
) -> None:
    """The play scene (three cards on the table): each played card's box
    is clear of every seat's plate, on a short desktop, a phone and between."""
    page = _open(pages, f"{static_url}/?demo=play&lang={lang}", viewport)
    page.locator(".card.played").first.wait_for()
    page.wait_for_timeout(450)  # the cards' flight in
    cards = [c.bounding_box() for c in page.locator(".card.played").all()]
    plates = [s.bounding_box() for s in page.locator(".felt .seat").all()]
    assert len(cards) >= 2 and len(plates) == 4
    for c in cards:
        for p in plates:
            apart = (
                c["x"] + c["width"] <= p["x"] + 1
                or p["x"] + p["width"] <= c["x"] + 1
                or c["y"] + c["height"] <= p["y"] + 1
                or p["y"] + p["height"] <= c["y"] + 1
            )
            assert apart, (c, p)
