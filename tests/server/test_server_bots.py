"""One person against three bots: the bots think in the server's process
pool, are labelled in the room, and a game with bots is never rated."""

from __future__ import annotations

import asyncio

from fh_server_helpers import Player, Server, choose, hand_index, saw


async def test_one_player_and_three_bots(server: Server, backend: str) -> None:
    p = await Player(server, "Solo").guest()
    r = await p.http.post("/api/tables", json={"kind": "casual", "preset": "quick"})
    table = r.json()["table"]["id"]
    await p.connect()
    await p.join(table=table)
    for seat in (1, 2, 3):
        await p.ok("add_bot", seat=seat)
    await p.ok("ready", ready=True)
    await p.wait(lambda: p.view is not None)
    assert p.room is not None and p.room["rated"] is False
    assert [s["bot"] for s in p.room["seats"]] == [None, "random", "random", "random"]
    # Play a whole hand: the person plays its own turns, the bots theirs.
    while hand_index(p) < 1 and not saw(p, "game_over"):
        await p.wait(lambda: bool(p.view and p.view["legal"]) or hand_index(p) >= 1, timeout=30)
        if p.view and p.view["legal"] and hand_index(p) < 1:
            kind, value = choose(p.view)
            reply = await p.cmd(kind, **{("bid" if kind == "bid" else "card"): value})
            assert reply["type"] == "ack", reply
            await p.wait(lambda v=reply["version"]: p.version >= v)
    bot_moves = [e for e in p.events() if e.get("by") == "bot"]
    assert {e["seat"] for e in bot_moves} == {1, 2, 3}
    assert all(e["by"] == "player" for e in p.events() if e.get("seat") == 0 and "by" in e)
    metrics = (await p.http.get("/metrics")).text
    count = next(
        float(line.split()[1])
        for line in metrics.splitlines()
        if line.startswith("fourhundred_bot_seconds_count")
    )
    assert count >= len(bot_moves)
    # The only person leaves: the game ends, abandoned and unrated.
    await p.ok("leave")
    await p.wait(lambda: saw(p, "game_over"))
    over = p.events("game_over")[0]
    assert over["reason"] == "abandoned" and over["rated"] is False
    if backend == "sqlite":  # the analysis does not depend on the database
        await check_analysis(p, table)
    await p.aclose()


async def check_analysis(p: Player, table: str) -> None:
    """The replay's analysis: asked for, computed in the background, served."""
    r = await p.http.get(f"/api/games/{table}/analysis")
    assert r.status_code in (200, 202), r.text
    ready = 0
    for _ in range(600):
        if r.status_code == 200:
            break
        body = r.json()
        assert body["status"] == "pending"
        # The hands ready so far come along, in order, never fewer than before.
        assert body["hands_done"] >= ready and body["hands_total"] >= 1
        assert [h["hand"] for h in body["hands"]] == sorted(h["hand"] for h in body["hands"])
        ready = body["hands_done"]
        await asyncio.sleep(0.5)
        r = await p.http.get(f"/api/games/{table}/analysis")
    assert r.status_code == 200, r.text
    analysis = r.json()
    assert analysis["hands"] and analysis["hands"][0]["hand"] == 0
    seats = analysis["hands"][0]["seats"]
    assert {s["seat"] for s in seats} == {0, 1, 2, 3}
    assert all(s["bid"] is not None for s in seats)
