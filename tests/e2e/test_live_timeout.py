"""When the turn timer runs out, the server moves for the player and the
page tells them what it did, in a real browser against a real server whose
timers run ten times faster (the 15 s timer: 1.5 s). The events say which
moves were the timer's (``by``: ``"timeout"``).

(A module of its own: a server of its own.)"""

from __future__ import annotations

import time
from typing import Any

import pytest
from fh_e2e import received_frames

FAST = "?pace=fast"
RANKS = {
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
NOTICE_RECORDER = """
window.fhNotices = [];
new MutationObserver(() => {
  const text = document.querySelector('.notice')?.textContent;
  if (text && window.fhNotices[window.fhNotices.length - 1] !== text) {
    window.fhNotices.push(text);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def test_a_player_whose_time_ran_out_is_told_what_was_played_for_them(
    pages: Any, quick_timer_server: str
) -> None:
    page = pages.new()
    received = received_frames(page)
    # Every notice shown, kept as it appears: polling alone can miss one
    # that a later notice replaces while a loaded machine is slow to answer.
    page.add_init_script(NOTICE_RECORDER)
    page.goto(f"{quick_timer_server}/{FAST}")
    page.get_by_label("Your name").fill("Sleepy")
    page.get_by_role("button", name="Play as a guest").click()
    page.locator(".lobby").wait_for()
    page.get_by_role("button", name="Create a table").first.click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Private").check()
    dialog.get_by_label("Turn timer").select_option("15")
    dialog.get_by_role("button", name="Create the table").click()
    page.locator(".room").wait_for()
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.locator(".table-screen").wait_for(timeout=20000)
    me = int(page.locator(".seat.me").get_attribute("data-seat") or "-1")

    def timed_out(kind: str) -> list[dict[str, Any]]:
        return [
            f["event"]
            for f in received
            if f.get("type") == "event"
            and f["event"]["kind"] == kind
            and f["event"]["seat"] == me
            and f["event"]["by"] == "timeout"
        ]

    # The player does nothing: first a bid, then a card is chosen for them
    # (a bot takes the seat only after three in a row).
    notices: set[str] = set()
    deadline = time.monotonic() + 120
    while not (timed_out("bid") and timed_out("play")) or len(notices) < 2:
        if time.monotonic() > deadline:
            pytest.fail(f"no bid and card played on timeout with their notices: {notices}")
        notices.update(page.evaluate("() => window.fhNotices"))
        # Once the timer has bid for them, the player bids themselves when the
        # bids fall short and the hand is dealt again: three timeouts in a
        # row would give their seat to a bot before any card was played.
        if timed_out("bid") and not timed_out("play"):
            bids = page.locator(".bid-panel .bid-btn:not([disabled])")
            if bids.count():
                bids.first.click()
        page.wait_for_timeout(50)
    bid = timed_out("bid")[0]["bid"]
    card = timed_out("play")[0]["card"]
    assert f"Time ran out: we bid {bid} for you." in notices
    played = f"Time ran out: we played the {RANKS[card[0]]} of {SUITS[card[1]]} for you."
    assert played in notices
