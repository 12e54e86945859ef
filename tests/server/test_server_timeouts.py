"""Turn timers (on a server whose timers run 50 times faster, a test-only
setting read from the environment at start): the server acts as the rules
say when a timer runs out, whether or not the player is connected; after
three timeouts in a row a labelled bot takes the seat; the player reclaims
it; when everyone leaves, the game is abandoned."""

from __future__ import annotations

import asyncio
from typing import Any

from fh_server_helpers import Player, Server, saw, timeout_card
from test_server_game import seat_four


def event_frames(p: Player) -> list[dict[str, Any]]:
    return [f for f in p.frames if f["type"] == "event"]


async def test_timeouts_act_for_absent_players_then_a_bot_takes_over(fast_server: Server) -> None:
    players, table, _ = await seat_four(fast_server, timer=15)
    watcher = players[0]
    # One player drops at once: its timer keeps running.
    gone = players[3]
    await gone.close()
    await watcher.wait(lambda: len(watcher.events("substituted")) == 4, timeout=60)
    frames = event_frames(watcher)
    # Each move before a bot took the seat was the timer's, and the one the
    # rules name: the smallest legal bid or the lowest-ranked legal card.
    previous_view = None
    substituted: set[int] = set()
    for f in frames:
        ev = f["event"]
        if ev["kind"] == "substituted":
            assert ev["reason"] == "timeouts" and ev["bot"] == "random"
            substituted.add(ev["seat"])
            assert f["room"]["seats"][ev["seat"]]["substitute"] is True
            assert f["room"]["seats"][ev["seat"]]["bot"] == "random"
        if ev["kind"] in ("bid", "play") and ev["seat"] not in substituted:
            assert ev["by"] == "timeout"
            assert previous_view is not None
            if ev["kind"] == "bid":
                # Hands thrown in (every bid the smallest) change no score,
                # so the smallest legal bid stays min_bid.
                assert previous_view["scores"] == [0, 0, 0, 0]
                assert ev["bid"] == previous_view["rules"]["min_bid"]
            else:
                legal = legal_for(previous_view, ev["seat"])
                if legal is not None:
                    assert ev["card"] == timeout_card(legal)
        if f["view"] is not None:
            previous_view = f["view"]
    assert substituted == {0, 1, 2, 3}
    # The substitutes play on (as "bot").
    await watcher.wait(lambda: any(e.get("by") == "bot" for e in watcher.events()), timeout=30)
    # A connected player takes the seat back.
    p1 = players[1]
    reply = await p1.cmd("reclaim")
    assert reply["type"] == "ack"
    await watcher.wait(lambda: saw(watcher, "reclaimed", 1))
    assert watcher.room is not None and watcher.room["seats"][1]["bot"] is None
    # The dropped player comes back: joining again reclaims its seat.
    await gone.connect()
    await gone.join(table=table)
    await watcher.wait(lambda: saw(watcher, "reclaimed", 3))
    # Everyone leaves: no person is left, the game is abandoned, unrated.
    for p in players:
        r = await p.cmd("leave")
        assert r["type"] == "ack", r
    await watcher.wait(lambda: bool(watcher.events("game_over")), timeout=30)
    over = watcher.events("game_over")[0]
    assert over["reason"] == "abandoned" and over["winner"] is None and over["rated"] is False
    await asyncio.gather(*(p.aclose() for p in players))


def legal_for(view: dict[str, Any], seat: int) -> list[str] | None:
    """The legal cards of ``seat`` known from a spectator-like view: only when
    that view is the seat's own (then ``legal`` is filled)."""
    if view.get("seat") == seat and view.get("legal") is not None:
        return list(view["legal"])
    return None


async def test_timeout_plays_the_lowest_legal_card_for_the_seat(fast_server: Server) -> None:
    # Four smallest bids of 3 make 12 >= 11: the hand is played, and every
    # move is the timer's until bots take over (after three each).
    players, _, _ = await seat_four(fast_server, timer=15, min_bid=3)
    await players[0].wait(lambda: len(players[0].events("substituted")) == 4, timeout=60)
    checked = 0
    for p in players:
        last_legal: list[str] | None = None
        for f in p.frames:
            if f["type"] != "event":
                continue
            ev = f["event"]
            if ev["kind"] == "play" and ev["seat"] == p.seat and ev["by"] == "timeout":
                # The last view before it was this seat's, with its legal cards.
                assert last_legal is not None
                assert ev["card"] == timeout_card(last_legal)
                checked += 1
            v = f["view"]
            last_legal = v["legal"] if v is not None and v["phase"] == "play" else None
    assert checked == 8  # two plays per seat, the third timeout brings the bot
    for p in players:
        r = await p.cmd("leave")
        assert r["type"] == "ack", r
    await players[0].wait(lambda: bool(players[0].events("game_over")), timeout=30)
    await asyncio.gather(*(p.aclose() for p in players))
