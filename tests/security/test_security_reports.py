"""Reports against a real server (issue 14, items 3 and 4): a report's bad
input changes nothing and the report limit answers 429; a report's detail
shows the moderator the chat around its moment as said, and a game still in
play face up (to a moderator only)."""

from __future__ import annotations

import asyncio
from typing import Any

from fh_moderation import REPORT_LIMIT, count, file, guests, moderator
from fh_sec import seat_four
from fh_server_helpers import Server
from fh_wire import Account

# ------------------------------------------------------------------ reports


async def test_a_report_with_bad_input_changes_nothing(mod_server: Server) -> None:
    alice, bob = await guests(mod_server, "Alice", "Bob")
    before = count(mod_server, "SELECT count(*) FROM reports")
    bad: list[tuple[Any, int, str | None]] = [
        ({"user": bob.id}, 422, "reason"),
        ({"user": bob.id, "reason": "rude"}, 422, "reason"),
        ({"user": alice.id, "reason": "other"}, 422, "user"),
        ({"user": "u_nobody", "reason": "other"}, 404, "user"),
        ({"user": bob.id, "reason": "other", "table": "t_nowhere"}, 404, "table"),
        ({"user": bob.id, "reason": "other", "version": 3}, 422, "version"),
        ({"user": bob.id, "reason": "other", "note": "x" * 501}, 422, "note"),
        ({"user": bob.id, "reason": "other", "version": -1, "table": "t"}, 422, "version"),
        ({"user": bob.id, "reason": "other", "extra": 1}, 422, "extra"),
        ({"user": "x" * 40, "reason": "other"}, 422, "user"),
        ([], 422, None),
    ]
    for body, status, field in bad:
        r = await alice.http.post("/api/reports", json=body)
        assert r.status_code == status, (body, r.text)
        error = r.json()["error"]
        if field is not None:
            assert error.get("field") == field, (body, error)
    r = await alice.http.post(
        "/api/reports", content=b"{", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400
    anonymous = Account(mod_server.url, "Nobody")
    assert (await file(anonymous, user=bob.id, reason="other")).status_code == 401
    assert count(mod_server, "SELECT count(*) FROM reports") == before
    # Refusals spend none of the limit: the whole budget is still there.
    for _ in range(REPORT_LIMIT):
        assert (await file(alice, user=bob.id, reason="other")).status_code == 201
    for a in (alice, bob, anonymous):
        await a.aclose()


async def test_the_report_limit_answers_429_and_files_nothing(mod_server: Server) -> None:
    carol, dan = await guests(mod_server, "Carol", "Dan")
    for i in range(REPORT_LIMIT):
        r = await file(carol, user=dan.id, reason="chat_abuse", note=f"line {i}")
        assert r.status_code == 201, r.text
        assert r.json()["report"]["status"] == "open"
    before = count(mod_server, "SELECT count(*) FROM reports")
    r = await file(carol, user=dan.id, reason="chat_abuse")
    assert r.status_code == 429
    assert int(r.headers["retry-after"]) >= 1
    assert r.json()["error"]["code"] == "rate_limited"
    assert count(mod_server, "SELECT count(*) FROM reports") == before
    # Dan's own budget is his.
    assert (await file(dan, user=carol.id, reason="other")).status_code == 201
    await carol.aclose()
    await dan.aclose()


async def test_the_report_shows_the_chat_around_its_moment_as_said(mod_server: Server) -> None:
    mod = await moderator(mod_server, "chatmod")
    hana, ivan = await guests(mod_server, "Hana", "Ivan")
    made = await hana.create_table(kind="casual")
    table = made["table"]["id"]
    hw, iw = await hana.wire(), await ivan.wire()
    await hw.join(table=table)
    await iw.join(table=table)
    assert (await iw.request("chat", text="you are a shit player"))["type"] == "ack"
    assert (await hw.request("chat", text="be nice"))["type"] == "ack"
    version = (iw.latest() or {}).get("version", 1)
    r = await file(hana, user=ivan.id, reason="chat_abuse", table=table, version=version)
    report = r.json()["report"]["id"]
    detail: dict[str, Any] = {}
    for _ in range(50):  # the chat log is written behind the table
        detail = (await mod.http.get(f"/api/mod/reports/{report}")).json()
        if len(detail["chat"]) == 2:
            break
        await asyncio.sleep(0.1)
    said = [(c["name"], c["text"]) for c in detail["chat"]]
    assert said == [("Ivan", "you are a shit player"), ("Hana", "be nice")]
    await hw.close()
    await iw.close()
    for a in (mod, hana, ivan):
        await a.aclose()


async def test_a_moderator_sees_a_running_game_face_up(mod_server: Server) -> None:
    """Only a moderator gets every hand of a game still in play."""
    mod = await moderator(mod_server, "gamemod")
    table = await seat_four(mod_server.url, "Run")
    reporter, reported = table.people[0], table.people[1]
    r = await file(reporter, user=reported.id, reason="cards_shared", table=table.id, version=3)
    report = r.json()["report"]["id"]
    detail = (await mod.http.get(f"/api/mod/reports/{report}")).json()
    game = detail["game"]
    assert game["status"] == "playing" and "replay_url" not in game
    deal = game["record"]["hands"][-1]["deal"]
    assert [len(cards) for cards in deal] == [13, 13, 13, 13]
    assert [s["id"] for s in game["seats"]] == [p.id for p in table.people]
    # The same report is nothing to its players.
    assert (await reporter.http.get(f"/api/mod/reports/{report}")).status_code == 403
    await table.aclose()
    await mod.aclose()
