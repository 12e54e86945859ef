"""Reconnection: a client that drops mid-trick and comes back with its last
version gets exactly the events it missed and ends in exactly the right
state; one with no usable version gets a full snapshot; a second socket of
the same user takes over and the first is told why."""

from __future__ import annotations

import asyncio

from fh_server_helpers import (
    Player,
    Server,
    cards_played,
    caught_up,
    hand_index,
    is_over,
    play_turns,
)
from test_server_game import seat_four

from fourhundred.engine import next_seat


async def test_reconnect_mid_trick_gets_missed_events(server: Server) -> None:
    players, table, _ = await seat_four(server)
    # Play into the middle of the first trick: bids, then two cards.
    await play_turns(players, lambda: cards_played(players[0]) == 2)
    view0 = players[0].view
    assert view0 is not None and view0["phase"] == "play"
    # Drop someone who is not to act next, so the game can go on without them.
    turn = view0["turn"]
    gone = next(p for p in players if p.seat not in (turn, next_seat(turn)))
    last_version = gone.version
    hand_before = list(gone.view["hand"]) if gone.view else []
    await gone.close()
    others = [p for p in players if p is not gone]
    for p in others:
        await p.wait(lambda p=p: p.room is not None and not p.room["seats"][gone.seat]["connected"])
    # Two more cards are played while it is away (the turn never reaches it).
    start = others[0].version
    await play_turns(others, lambda: others[0].version >= start + 2, max_actions=2)
    missed_to = others[0].version
    assert missed_to > last_version
    await gone.connect()
    sync = await gone.join(table=table, last_version=last_version)
    assert sync["type"] == "catchup"
    assert [e["version"] for e in sync["events"]] == list(range(last_version + 1, missed_to + 1))
    assert all(e["event"]["kind"] == "play" for e in sync["events"])
    # Exactly the state the others see: same version, same public view, and
    # its own hand unchanged (it did not play while away).
    ref = others[0].view
    assert ref is not None and gone.view is not None
    assert gone.version == missed_to
    for key in ("tricks", "bids", "tricks_won", "turn", "scores", "phase", "hand_index"):
        assert gone.view[key] == ref[key], key
    assert gone.view["hand"] == hand_before
    for p in players:
        await p.wait(lambda p=p: p.room is not None and p.room["seats"][gone.seat]["connected"])
    # And the game goes on with it: finish the hand.
    hand = gone.view["hand_index"]
    await play_turns(players, lambda: hand_index(players[0]) > hand or is_over(players[0]))
    # Every client reaches the same version and sees the same public state.
    await caught_up(players)
    await asyncio.gather(*(p.aclose() for p in players))


async def test_reconnect_without_a_usable_version_gets_a_snapshot(server: Server) -> None:
    players, table, _ = await seat_four(server)
    p = players[1]
    await p.close()
    await p.connect()
    for last in (None, 10**6):
        kw = {} if last is None else {"last_version": last}
        sync = await p.join(table=table, **kw)
        assert sync["type"] == "snapshot"
        assert sync["version"] == players[0].version
        assert sync["view"]["hand"] == p.view["hand"]
        assert sync["you"]["seat"] == 1
    sync = await p.join(table=table, last_version=players[0].version)
    assert sync["type"] == "catchup" and sync["events"] == []
    await asyncio.gather(*(p.aclose() for p in players))


async def test_second_device_takes_over(server: Server) -> None:
    players, table, _ = await seat_four(server)
    first = players[2]
    second = Player(server, first.name)
    second.http.cookies.set("fh_session", first.token)
    await second.connect()
    await first.wait(lambda: first.close_code is not None)
    assert first.close_code == 4000
    closing = [f for f in first.frames if f["type"] == "closing"]
    assert closing and closing[-1]["code"] == "replaced"
    assert "another" in closing[-1]["message"]
    sync = await second.join(table=table)
    assert sync["you"]["seat"] == 2 and "hand" in sync["view"]
    await second.aclose()
    await asyncio.gather(*(p.aclose() for p in players))
