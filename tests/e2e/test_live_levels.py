"""Bot levels and hints in a real browser against a real server (issue 12):
the host turns hints on, adds an expert and a beginner by level (the seats
show their labels), starts, and on their turn asks for a hint: the
expert's suggestion appears with its reason, for this player only.

(A module of its own: a fresh server.)"""

from __future__ import annotations

from typing import Any

from fh_e2e import received_frames
from playwright.sync_api import expect

FAST = "?pace=fast"


def test_the_host_adds_an_expert_by_level_and_asks_a_hint(pages: Any, server: str) -> None:
    page = pages.new()
    frames = received_frames(page)
    page.goto(f"{server}/{FAST}")
    page.get_by_label("Your name").fill("Leveller")
    page.get_by_role("button", name="Play as a guest").click()
    page.locator(".lobby").wait_for()
    page.get_by_role("button", name="Create a table").first.click()
    page.locator("dialog[open]").get_by_role("button", name="Create the table").click()
    page.locator(".room").wait_for()
    # Hints: off by default; the host turns them on.
    switch = page.get_by_label("Allow hints")
    expect(switch).not_to_be_checked()
    switch.check()
    expect(switch).to_be_checked()
    # One bot of each level, picked by level.
    for seat, level in ((1, "Expert bot"), (2, "Beginner bot"), (3, "Intermediate bot")):
        page.get_by_label(f"Level of the bot for Seat {seat + 1}").select_option(label=level)
        page.get_by_role("button", name=f"Add a bot at Seat {seat + 1}").click()
        card = page.locator(f".room-seat[data-seat='{seat}']")
        expect(card.locator(".badge.bot")).to_have_text(level)
    page.locator("[data-key='ready']").click()
    # In the game, the expert's seat still shows its label.
    expect(page.locator(".seat .badge.level[data-level='expert']")).to_have_text("Expert bot")
    # The host's turn comes (bots bid before when they are first): ask.
    ask = page.locator("[data-key='ask-hint']")
    expect(ask).to_be_visible(timeout=90_000)
    ask.click()
    shown = page.locator(".banner.hint[data-key='hint']")
    expect(shown).to_be_visible(timeout=30_000)
    text = shown.inner_text()
    assert text.startswith("The expert suggests:"), text
    assert "chance of making it" in text or "expected points" in text or "only" in text, text
    hints = [f for f in frames if f.get("type") == "hint"]
    assert len(hints) == 1 and hints[0]["seat"] == 0
    used = [f for f in frames if f.get("type") == "event" and f["event"]["kind"] == "hint_used"]
    assert used and used[0]["event"]["seat"] == 0
    assert page.console_errors == []


def test_the_replay_shows_the_analysis_hand_by_hand(pages: Any, quick_timer_server: str) -> None:
    """A game finished by the timer and the substitute bots; its replay's
    analysis arrives hand by hand: the first hand is shown while the server
    works on, and every answer holds the hands ready so far."""
    page = pages.new()
    answers: list[tuple[int, dict[str, Any]]] = []
    page.on(
        "response",
        lambda r: answers.append((r.status, r.json())) if r.url.endswith("/analysis") else None,
    )
    page.goto(f"{quick_timer_server}/{FAST}")
    page.get_by_label("Your name").fill("Waiter")
    page.get_by_role("button", name="Play as a guest").click()
    page.locator(".lobby").wait_for()
    page.get_by_role("button", name="Create a table").first.click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Target score", exact=True).fill("11")
    dialog.get_by_role("button", name="Create the table").click()
    page.locator(".room").wait_for()
    page.get_by_role("button", name="Fill empty seats with bots").click()
    # Nobody acts: the timer plays, then a substitute finishes the game.
    over = page.locator("dialog.game-over-dialog[open]")
    over.wait_for(timeout=300_000)
    over.get_by_role("button", name="Watch the replay").click()
    page.locator(".replay-controls").wait_for()
    panel = page.locator("section").filter(has=page.get_by_role("heading", name="Analysis"))
    expect(panel.locator("ul.analysis")).to_be_visible(timeout=60_000)  # the first hand
    page.wait_for_function(
        "() => !document.querySelector(\"[data-key='analysis-progress']\")", timeout=300_000
    )
    for _ in range(100):  # the page drew the last answer; its event may come just after
        if answers and answers[-1][0] == 200:
            break
        page.wait_for_timeout(100)
    statuses = [status for status, _ in answers]
    assert statuses[-1] == 200 and set(statuses[:-1]) <= {202}
    done = [body["hands_done"] for _, body in answers]
    assert done == sorted(done) and done[-1] == answers[-1][1]["hands_total"]
    for _, body in answers:
        assert [h["hand"] for h in body["hands"]] == sorted(h["hand"] for h in body["hands"])
        assert all(h["hand"] < body["hands_done"] for h in body["hands"])
