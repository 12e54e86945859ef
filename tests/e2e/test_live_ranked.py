"""Ranked in a real browser: four registered players ask for a Ranked game,
wait in the queue, are matched and all land at the same table, which plays
the standard rules and says it is rated. (A separate module: a fresh
server, so registration limits of the other tests do not count here.)"""

from __future__ import annotations

import time
from typing import Any

import pytest

PASSWORD = "correct horse battery"


def test_four_players_queue_for_ranked_and_are_seated_together(
    pages: Any, server: str, checks: Any
) -> None:
    players = [pages.new() for _ in range(4)]
    for i, page in enumerate(players):
        page.goto(f"{server}/?pace=fast")
        page.get_by_role("tab", name="Register").click()
        page.get_by_label("Username").fill(f"ranked{i}")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Register").click()
        page.locator(".lobby").wait_for()
    for i, page in enumerate(players):
        page.get_by_role("button", name="Find a Ranked game").click()
        if i == 0:
            # Alone in the queue: the wait is shown and can be cancelled.
            page.locator(".queue-wait").wait_for()
            assert "Looking for players" in page.locator(".queue-wait").inner_text()
            assert page.get_by_role("button", name="Stop looking").is_visible()
    deadline = time.monotonic() + 60
    while not all(p.locator(".table-screen").count() for p in players):
        if time.monotonic() > deadline:
            pytest.fail("the four players were not all seated at a Ranked table")
        players[0].wait_for_timeout(100)
    urls = {p.url.split("#")[1] for p in players}
    assert len(urls) == 1, urls
    seats = sorted(p.locator(".seat.me").get_attribute("data-seat") for p in players)
    assert seats == ["0", "1", "2", "3"]
    for page in players:
        assert page.locator(".table-info").inner_text().count("Ranked · rated") == 1
        assert "Target 41" in page.locator(".table-info").inner_text()
        assert checks.horizontal_overflow(page) <= 0
