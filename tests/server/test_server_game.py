"""A whole game over real WebSockets: four players meet at a Private table
through its invite link, play to the end, and a spectator watches; nobody
ever sees a card they should not, and the stored record replays to the same
result."""

from __future__ import annotations

import asyncio
from typing import Any

from fh_server_helpers import Player, Server, check_no_leaks, play_turns

from fourhundred.engine import replay, replay_result


async def seat_four(
    server: Server, kind: str = "private", timer: int = 90, **settings: Any
) -> tuple[list[Player], str, dict[str, Any]]:
    """Four connected players seated and ready at a new table; returns them,
    the table id and the creation answer."""
    names = ["Rami", "Nour", "Karim", "Hala"]
    players = [await Player(server, n).guest() for n in names]
    host = players[0]
    r = await host.http.post(
        "/api/tables",
        json={"kind": kind, "preset": "quick", "settings": settings, "timer": timer},
    )
    assert r.status_code == 201, r.text
    created = r.json()
    table = created["table"]["id"]
    for p in players:
        await p.connect()
    await host.join(table=table)
    for p in players[1:]:
        if kind == "private":
            await p.join(invite=created["invite"])
        else:
            await p.join(table=table)
        await p.ok("sit")
    for p in players:
        await p.ok("ready", ready=True)
    for p in players:
        await p.wait(lambda p=p: p.view is not None)
    return players, table, created


async def test_whole_game_four_clients_and_a_spectator(server: Server) -> None:
    players, table, created = await seat_four(server, target=11)
    watcher = await Player(server, "Watcher").guest()
    await watcher.connect()
    snap = await watcher.join(invite=created["invite"])
    assert snap["you"] == {"seat": None, "role": "spectator", "host": False}
    assert snap["room"]["invite"] == created["invite"]
    everyone = [*players, watcher]

    def over() -> bool:
        return players[0].view is not None and players[0].view["phase"] == "over"

    n = await play_turns(players, over)
    assert n >= 56
    for p in everyone:
        # The last card's view already shows the game over; the game_over
        # event (the command's last) follows it.
        await p.wait(lambda p=p: p.view is not None and p.view["phase"] == "over")
        await p.wait(lambda p=p: bool(p.events("game_over")))
    over = players[0].events("game_over")
    assert len(over) == 1 and over[0]["reason"] == "won"
    winner = over[0]["winner"]
    assert winner in (0, 1)

    # Every client ends in the same state at the same version.
    versions = {p.version for p in everyone}
    assert len(versions) == 1
    final = players[0].view
    assert final is not None
    for p in everyone:
        assert p.view is not None
        assert p.view["scores"] == final["scores"] and p.view["winner"] == winner
        assert p.room is not None and p.room["status"] == "over"

    # The stored record replays to the same result, and every acknowledged
    # move is in it, in order.
    r = await players[0].http.get(f"/api/games/{table}/record")
    assert r.status_code == 200
    record = r.json()
    assert record["format"] == "fourhundred-record/1"
    result = replay_result(record)
    assert result["scores"] == final["scores"] and result["winner"] == winner
    state = replay(record)
    moves = [(h.hand_index, list(h.bids), list(h.plays)) for h in state.history]
    assert sum(len(b) + len(pl) for _, b, pl in moves) == n
    sheet_events = players[0].events("hand_over")
    assert [e["scores"] for e in sheet_events] == [h["scores"] for h in result["hands"]]

    # Nobody saw a card they should not have, ever.
    for p in players:
        assert check_no_leaks(p.raw, p.seat, record) > n
    assert check_no_leaks(watcher.raw, None, record) > n
    assert all("hand" not in (f.get("view") or {}) for f in watcher.frames)

    # The game is in each player's history, with the result.
    for p in players:
        r = await p.http.get(f"/api/users/{p.id}/games")
        games = r.json()["games"]
        assert games[0]["id"] == table and games[0]["winner"] == winner
        mine = next(x for x in games[0]["players"] if x["seat"] == p.seat)
        assert mine["won"] == ((p.seat or 0) % 2 == winner)
        assert mine["bids"] >= 1
    r = await players[0].http.get(f"/api/games/{table}")
    assert r.status_code == 200 and r.json()["scores"] == final["scores"]
    assert r.json()["rated"] is False
    for p in everyone:
        await p.aclose()


async def test_record_is_hidden_until_the_game_ends(server: Server) -> None:
    players, table, _ = await seat_four(server)
    r = await players[0].http.get(f"/api/games/{table}/record")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"
    await asyncio.gather(*(p.aclose() for p in players))
