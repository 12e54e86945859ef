"""Spectators and chat: spectators of a Casual game see public information
only and cannot act; players' and spectators' chats are separate, limited in
length and rate, and a user can mute another."""

from __future__ import annotations

import asyncio
import re

from fh_server_helpers import Player, Server
from test_server_game import seat_four


def chats(p: Player) -> list[tuple[str, str, str]]:
    return [(f["channel"], f["from"]["name"], f["text"]) for f in p.frames if f["type"] == "chat"]


async def test_chat_channels_limits_and_mute(server: Server) -> None:
    players, table, _ = await seat_four(server, kind="casual")
    a, b = players[0], players[1]
    spec = await Player(server, "Watcher").guest()
    await spec.connect()
    snap = await spec.join(table=table)  # Casual: no invite needed
    assert snap["you"]["role"] == "spectator" and "hand" not in snap["view"]
    assert (await spec.cmd("sit"))["code"] == "not_allowed"
    assert (await spec.cmd("play", card="2C"))["code"] == "not_seated"

    await a.ok("chat", text="  yalla!\u200b  ")
    await spec.ok("chat", text="nice hand")
    await players[3].ok("chat", text="after")
    # Frames reach a socket in order: once "after" is in, "nice hand" would
    # have been too.
    for p in (*players, spec):
        await p.wait(lambda p=p: ("players", "Hala", "after") in chats(p))
        assert ("players", "Rami", "yalla!") in chats(p)
    assert ("spectators", "Watcher", "nice hand") in chats(spec)
    for p in players:
        assert all(ch == "players" for ch, _, _ in chats(p))

    # Length: 1 to 300 characters after trimming.
    assert (await a.cmd("chat", text="x" * 301))["code"] == "bad_message"
    assert (await a.cmd("chat", text="   "))["code"] == "bad_message"
    assert (await a.cmd("chat", text="x" * 300))["type"] == "ack"
    # Rate: five in ten seconds.
    # Ten sent at once: five pass (a sixth at most, if the machine is slow
    # enough for the bucket to refill), the rest are refused.
    replies = await asyncio.gather(*(b.cmd("chat", text=f"m{i}") for i in range(10)))
    accepted = sum(r["type"] == "ack" for r in replies)
    assert 5 <= accepted <= 6
    assert {r["code"] for r in replies if r["type"] == "error"} == {"chat_rate_limited"}
    # ... each saying how long to wait (protocol.md, "Errors").
    assert all(
        re.search(r"try again in [0-9]+ s$", r["message"]) for r in replies if r["type"] == "error"
    )

    # Mute: a stops seeing c; the others still do; unmute restores it.
    c = players[2]
    await a.ok("mute", user=c.id, muted=True)
    await c.ok("chat", text="can you hear me")
    await a.ok("mute", user=c.id, muted=False)
    await c.ok("chat", text="now?")
    await a.wait(lambda: ("players", "Karim", "now?") in chats(a))
    assert ("players", "Karim", "can you hear me") not in chats(a)
    assert ("players", "Karim", "can you hear me") in chats(b)

    # The history comes with a snapshot: spectators read both channels.
    late = await Player(server, "Late").guest()
    await late.connect()
    snap = await late.join(table=table)
    texts = [m["text"] for m in snap["chat"]]
    assert "nice hand" in texts and "yalla!" in texts
    await a.close()
    await a.connect()
    snap = await a.join(table=table)
    assert "nice hand" not in [m["text"] for m in snap["chat"]]
    for p in (*players, spec, late):
        await p.aclose()
