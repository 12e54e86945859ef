"""The product in a real browser against a real `fourhundred serve`: people
register, create a Private table, join it through its invite link, bid and
play by clicking; one person plays a whole game against three bots; a page
reloaded (or a connection dropped) mid-trick comes back to the same state;
an illegal card cannot be played; the Arabic pages are right to left with
no English; a 360 px phone shows the whole table without sideways scrolling.

Pages open with ``?pace=fast`` so that finished tricks stay on screen only
briefly (players get the full pause)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from fourhundred.engine import STANDARD, bid_value

PHONE = {"width": 360, "height": 740}
PASSWORD = "correct horse battery"
FAST = "?pace=fast"


# ----------------------------------------------------------------- steps


def register(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/{FAST}")
    page.get_by_role("tab", name="Register").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Register").click()
    page.locator(".lobby").wait_for()


def as_guest(page: Any, base: str, name: str, query: str = FAST) -> None:
    page.goto(f"{base}/{query}")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Play as a guest").click()
    page.locator(".lobby").wait_for()


def create_table(page: Any, *, kind: str = "Private", target: int | None = None) -> None:
    page.get_by_role("button", name="Create a table").first.click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label(kind).check()
    if target is not None:
        dialog.get_by_label("Target score", exact=True).fill(str(target))
    dialog.get_by_role("button", name="Create the table").click()
    page.locator(".room").wait_for()


def my_turn(page: Any) -> str | None:
    """ "bid" or "play" when this page may act now, else None."""
    if page.locator(".bid-panel .bid-btn:not([disabled])").count():
        return "bid"
    if page.locator(".hand.active:not(.pending) button.card:not([aria-disabled])").count():
        return "play"
    return None


def act(page: Any, *, bid: int | None = None) -> bool:
    """Take this page's turn by clicking (a set bid, else the lowest; the
    highest legal card while short of the bid, else the lowest)."""
    turn = my_turn(page)
    if turn == "bid":
        buttons = page.locator(".bid-panel .bid-btn")
        offered = buttons.evaluate_all("els => els.map(e => +e.dataset.bid)")
        choice = bid if bid in offered else offered[0]
        page.locator(f'.bid-panel .bid-btn[data-bid="{choice}"]').click()
        return True
    if turn == "play":
        legal = page.locator(".hand button.card:not([aria-disabled])")
        cards = legal.evaluate_all("els => els.map(e => e.dataset.card)")
        seat = page.locator(".seat.me")
        line = seat.locator(".bid").inner_text()
        m = re.search(r"(\d+)\D+(\d+)", line)
        short = m is not None and int(m.group(2)) < int(m.group(1))
        ranks = "23456789TJQKA"
        cards.sort(key=lambda c: ranks.index(c[0]))
        card = cards[-1] if short else cards[0]
        page.locator(f'.hand button[data-card="{card}"]').click()
        return True
    return False


def sheet(page: Any) -> list[dict[str, Any]]:
    """The score sheet beside the table, read back by seat."""
    return list(
        page.locator(".game-side table.score-sheet").evaluate(
            """(table) => [...table.querySelectorAll('tbody tr:not(.in-progress)')].map((tr) => {
                const row = {hand: tr.querySelector('th').textContent.trim(), seats: {}};
                if (tr.classList.contains('thrown')) { row.thrown = true; return row; }
                for (const td of tr.querySelectorAll('td[data-seat]')) {
                    const [bid, won] = td.querySelector('.bw').textContent.split('/').map(Number);
                    const num = (s) => Number(s.replace('\\u2212', '-'));
                    row.seats[td.dataset.seat] = {
                        bid, won,
                        delta: num(td.querySelector('.delta').textContent),
                        score: num(td.querySelector('.run').textContent),
                    };
                }
                return row;
            })"""
        )
    )


def table_state(page: Any) -> dict[str, Any]:
    """What a player sees at the table, to compare before and after a reload."""
    return dict(
        page.evaluate(
            """() => ({
                hand: [...document.querySelectorAll('.hand button.card')].map(e => e.dataset.card),
                legal: [...document.querySelectorAll('.hand button.card:not([aria-disabled])')]
                    .map(e => e.dataset.card),
                trick: [...document.querySelectorAll('.trick .card.played')]
                    .map(e => e.getAttribute('aria-label')),
                seats: [...document.querySelectorAll('.seat')]
                    .map(e => e.dataset.seat + ':' + e.querySelector('.seat-line').textContent),
                status: document.querySelector('.status-text').textContent,
            })"""
        )
    )


def wait_until(
    page: Any, condition: Any, timeout: float = 60.0, what: str = "the condition"
) -> None:
    """Poll `condition`; waiting through the page lets Playwright deliver
    its events (a sleep would hold them back)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        page.wait_for_timeout(50)


# ----------------------------------------------------------------- tests


def test_four_players_invite_bid_play_a_hand_and_agree_on_the_score_sheet(
    pages: Any, server: str
) -> None:
    players = [pages.new() for _ in range(4)]
    for i, page in enumerate(players):
        register(page, server, f"player{i}x")
    host = players[0]
    create_table(host, kind="Private")
    link = host.get_by_role("textbox", name="Invite link").input_value()
    assert "/?invite=" in link
    for page in players[1:]:
        # Each friend opens the link and is seated by it.
        page.goto(link)
        page.locator(".room .room-seat.me").wait_for()
    for page in players:
        wait_until(
            page, lambda p=page: p.locator(".room-seat:not(.empty)").count() == 4, 20, "seats"
        )
    seats = [int(p.locator(".room-seat.me").get_attribute("data-seat")) for p in players]
    assert sorted(seats) == [0, 1, 2, 3]
    for page in players:
        page.get_by_role("button", name="I'm ready").click()
    for page in players:
        page.locator(".table-screen").wait_for(timeout=20000)

    # Everyone bids 3 (12 >= 11: the hand is played), then plays by clicking.
    deadline = time.monotonic() + 240
    while not all(len(sheet(p)) >= 1 for p in players):
        if time.monotonic() > deadline:
            pytest.fail("the hand did not finish in 4 minutes")
        if not any(act(p, bid=3) for p in players):
            host.wait_for_timeout(50)

    rows = [sheet(p)[0] for p in players]
    assert all(r == rows[0] for r in rows), rows
    row = rows[0]
    assert not row.get("thrown")
    assert sum(row["seats"][str(s)]["won"] for s in range(4)) == 13
    for s in range(4):
        cell = row["seats"][str(s)]
        assert cell["bid"] == 3
        value = bid_value(STANDARD, 3, 0)
        assert cell["delta"] == (value if cell["won"] >= 3 else -value)
        assert cell["score"] == cell["delta"]
    # The totals row and the seat plates agree with the sheet on every page.
    for page in players:
        for s in range(4):
            plate = page.locator(f'.seat[data-seat="{s}"] .score').inner_text()
            assert plate.endswith(str(row["seats"][str(s)]["score"]))


def test_one_person_plays_a_whole_game_against_three_bots(pages: Any, server: str) -> None:
    page = pages.new()
    as_guest(page, server, "Solo")
    create_table(page, kind="Private", target=11)
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.locator(".table-screen").wait_for(timeout=20000)
    names = page.locator(".seat .seat-name bdi").all_inner_texts()
    assert sorted(names) == ["Bot 2", "Bot 3", "Bot 4", "Solo"]
    deadline = time.monotonic() + 420
    while not page.locator("dialog.game-over-dialog[open]").count():
        if time.monotonic() > deadline:
            pytest.fail("the game did not end in 7 minutes")
        if not act(page):
            page.wait_for_timeout(50)
    dialog = page.locator("dialog.game-over-dialog[open]")
    headline = dialog.locator(".headline").inner_text()
    assert headline in ("You and your partner win!", "Your team lost this one.")
    # Games with bots are never rated.
    assert "This game was not rated." in dialog.inner_text()
    final = page.locator(".table-screen").get_attribute("class")
    assert "phase-over" in final
    rows = sheet(page)
    assert len(rows) >= 1
    # The record of the finished game opens in the replay viewer.
    dialog.get_by_role("button", name="Watch the replay").click()
    page.locator(".replay-controls").wait_for()
    assert page.locator(".open-hand .card").count() == 52
    # The analysis is worked out by the server; the panel says so meanwhile.
    panel = page.locator("section").filter(has=page.get_by_role("heading", name="Analysis"))
    assert panel.inner_text() != ""
    # The finished game is in the player's history, with its replay.
    page.get_by_role("link", name="My profile").click()
    page.locator(".profile").wait_for()
    assert page.locator(".history-row").count() == 1
    stats = page.locator(".stats").inner_text()
    assert "Games" in stats and "Bids made" in stats
    page.locator(".history-row a").click()
    page.locator(".replay-controls").wait_for()


def _play_until_illegal_choice(page: Any, timeout: float = 180) -> None:
    """Play until it is this page's turn in the middle of a trick, holding a
    card the rules forbid (one of another suit while able to follow)."""
    deadline = time.monotonic() + timeout
    while True:
        if time.monotonic() > deadline:
            pytest.fail("never reached a trick where a card was forbidden")
        if (
            my_turn(page) == "play"
            and page.locator(".trick .card.played:not(.win)").count() >= 1
            and page.locator(".hand button.card[aria-disabled]").count() >= 1
        ):
            return
        if not act(page):
            page.wait_for_timeout(50)


def test_reload_mid_trick_restores_the_state_and_illegal_cards_cannot_be_played(
    pages: Any, server: str
) -> None:
    page = pages.new()
    as_guest(page, server, "Reloader")
    create_table(page, kind="Private")
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.locator(".table-screen").wait_for(timeout=20000)
    _play_until_illegal_choice(page)
    page.wait_for_timeout(300)  # let the pacing queue settle
    before = table_state(page)
    url = page.url
    assert "#/table/" in url

    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: frames.append(str(f))))
    page.reload()
    page.locator(".table-screen .hand").wait_for(timeout=20000)
    wait_until(page, lambda: my_turn(page) == "play", 20, "the turn after the reload")
    after = table_state(page)
    assert after == before
    assert page.url == url

    illegal = page.locator(".hand button.card[aria-disabled]").first
    card = illegal.get_attribute("data-card")
    illegal.click(force=True)
    assert "You must follow" in page.locator(".notice").inner_text()
    # A later message from the page, rather than a pause: the socket sends
    # frames in order, so once the message's frame has gone any frame the
    # click made has gone before it; and the server's answer to the message
    # comes after its answer to anything the click sent.
    page.get_by_role("textbox", name="Message").fill("after the click")
    page.get_by_role("button", name="Send").click()
    page.locator(".chat-msg").filter(has_text="after the click").wait_for()
    wait_until(page, lambda: any("after the click" in f for f in frames), 10, "the message's frame")
    assert not [f for f in frames if '"play"' in f and card in f]
    assert table_state(page)["hand"] == before["hand"]


def test_a_dropped_connection_reconnects_by_itself_and_catches_up(pages: Any, server: str) -> None:
    page = pages.new()
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket(re.compile(r".*/ws$"), route)
    as_guest(page, server, "Dropper")
    create_table(page, kind="Private")
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.locator(".table-screen").wait_for(timeout=20000)
    _play_until_illegal_choice(page)
    before = table_state(page)
    opened = len(sockets)
    sockets[-1].close(code=4999, reason="network drop")
    page.locator(".banner.warn").filter(has_text="reconnecting").wait_for(timeout=5000)
    wait_until(page, lambda: len(sockets) > opened, 20, "a new connection")
    page.locator(".banner.warn").wait_for(state="detached", timeout=20000)
    wait_until(page, lambda: my_turn(page) == "play", 20, "the turn after reconnecting")
    assert table_state(page) == before


def test_arabic_pages_are_right_to_left_with_no_english(
    pages: Any, server: str, checks: Any
) -> None:
    page = pages.new(locale="ar")
    page.goto(f"{server}/{FAST}")
    page.locator(".auth").wait_for()
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert checks.untranslated(page) == []
    page.get_by_label("اسمك").fill("سامي")
    page.get_by_role("button", name="العب كضيف").click()
    page.locator(".lobby").wait_for()
    assert checks.untranslated(page) == []
    page.get_by_role("button", name="أنشئ طاولة").first.click()
    assert checks.untranslated(page) == []
    page.locator("dialog[open]").get_by_role("button", name="أنشئ الطاولة").click()
    page.locator(".room").wait_for()
    assert checks.untranslated(page) == []
    page.get_by_role("button", name="املأ المقاعد الشاغرة بروبوتات").click()
    page.locator(".table-screen").wait_for(timeout=20000)
    wait_until(page, lambda: my_turn(page) is not None, 30, "the first turn")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert checks.untranslated(page) == []
    assert checks.missing_keys(page) == []
    assert checks.unnamed_controls(page) == []


def test_a_360_px_phone_shows_the_whole_table_without_sideways_scrolling(
    pages: Any, server: str, checks: Any
) -> None:
    page = pages.new(viewport=PHONE)
    as_guest(page, server, "Phone")
    assert checks.horizontal_overflow(page) <= 0
    create_table(page, kind="Casual")
    assert checks.horizontal_overflow(page) <= 0
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.locator(".table-screen").wait_for(timeout=20000)
    for _ in range(3):
        wait_until(page, lambda: my_turn(page) is not None, 30, "a turn")
        assert checks.horizontal_overflow(page) <= 0
        # One look at every box (the table redraws as bots play).
        boxes = page.evaluate(
            """() => [...document.querySelectorAll('.felt, .seat, .hand, .hand button.card,'
                + ' .status, .bid-panel')].map((e) => {
                const r = e.getBoundingClientRect();
                return {what: e.className, left: r.left, right: r.right};
            })"""
        )
        assert any("felt" in b["what"] for b in boxes)
        assert any("hand" in b["what"] for b in boxes)
        outside = [b for b in boxes if b["left"] < 0 or b["right"] > PHONE["width"] + 0.5]
        assert outside == []
        act(page)


def test_spectators_see_no_hand_and_chat_on_their_own_channel(pages: Any, server: str) -> None:
    player = pages.new()
    as_guest(player, server, "Host")
    create_table(player, kind="Casual")
    table_url = player.url
    watcher = pages.new()
    as_guest(watcher, server, "Watcher")
    # The Casual table is listed in the lobby while it waits for players.
    watcher.reload()
    watcher.locator(".table-row").filter(has_text="Host").first.wait_for()
    player.get_by_role("button", name="Fill empty seats with bots").click()
    player.locator(".table-screen").wait_for(timeout=20000)
    watcher.goto(table_url.replace("?sit=1", ""))
    watcher.locator(".table-screen").wait_for(timeout=20000)
    assert "You are watching" in watcher.locator(".game-banner").inner_text()
    deadline = time.monotonic() + 60
    while not watcher.locator(".trick .card.played").count():
        if time.monotonic() > deadline:
            pytest.fail("the spectator never saw a card played")
        if not act(player):
            watcher.wait_for_timeout(50)
    assert watcher.locator(".hand").count() == 0
    assert watcher.locator(".bid-panel").count() == 0
    # Chat: the player's message reaches the spectator; the spectator's own
    # message is marked as from the spectators.
    player.get_by_role("textbox", name="Message").fill("yalla!")
    player.get_by_role("button", name="Send").click()
    watcher.locator(".chat-msg").filter(has_text="yalla!").wait_for()
    watcher.get_by_role("textbox", name="Message").fill("good luck")
    watcher.get_by_role("button", name="Send").click()
    mine = watcher.locator(".chat-msg").filter(has_text="good luck")
    mine.wait_for()
    assert mine.locator(".badge").inner_text() == "watching"


def test_the_host_runs_the_waiting_room(pages: Any, server: str) -> None:
    page = pages.new()
    as_guest(page, server, "Boss")
    create_table(page, kind="Private")
    seat = page.locator('.room-seat[data-seat="1"]')
    page.get_by_role("button", name="Add a bot at Seat 2").click()
    seat.filter(has_text="Bot 2").wait_for()
    # Swap seats 2 and 4: the bot moves to seat 4 (team 2 still).
    page.get_by_label("Move Seat 2 to another seat").select_option("3")
    page.locator('.room-seat[data-seat="3"]').filter(has_text="Bot 4").wait_for()
    assert "Empty seat" in seat.inner_text()
    page.get_by_role("button", name="Remove Bot 4").click()
    page.locator('.room-seat[data-seat="3"]').filter(has_text="Empty seat").wait_for()
    # New rules and timer: every setting is shown in words to everyone.
    page.get_by_role("button", name="Change the rules").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Jawaker").check()
    dialog.get_by_label("Turn timer").select_option("45")
    dialog.get_by_role("button", name="Save the rules").click()
    rules = page.locator(".settings-list")
    rules.filter(has_text="45 seconds").wait_for()
    text = rules.inner_text()
    assert "10 or more is 40" in text
    assert "The 13 bid" in text
    # A bad value is refused with a clear message and changes nothing.
    page.get_by_role("button", name="Change the rules").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Target score", exact=True).fill("7")
    dialog.get_by_role("button", name="Save the rules").click()
    assert "11 to 200" in dialog.locator(".form-msg").inner_text()
    page.keyboard.press("Escape")
    assert "41 points" in page.locator(".settings-list").inner_text()
