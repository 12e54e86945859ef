"""A rematch over real WebSockets: four players finish a game, then all
accept (and sit at the new table in the same seats, same rules), or one
declines and the others open it with a bot; a spectator is told the new
table's id."""

from __future__ import annotations

from typing import Any

from fh_server_helpers import Player, Server, play_turns, saw
from test_server_game import seat_four


async def finished_game(server: Server) -> tuple[list[Player], str, Player]:
    players, table, _created = await seat_four(server, kind="casual", target=11)
    watcher = await Player(server, "Watcher").guest()
    await watcher.connect()
    await watcher.join(table=table)
    await play_turns(players, lambda: all(saw(p, "game_over") for p in players))
    await watcher.wait(lambda: saw(watcher, "game_over"))
    return players, table, watcher


def rematch(p: Player) -> dict[str, Any]:
    assert p.room is not None
    state: dict[str, Any] = p.room["rematch"]
    return state


async def test_all_four_accept_and_sit_at_the_new_table(server: Server) -> None:
    players, table, watcher = await finished_game(server)
    old = players[0].room
    assert old is not None and rematch(watcher) == {"state": "available"}
    refused = await watcher.cmd("rematch", accept=True)
    assert refused["type"] == "error" and refused["code"] == "not_seated"
    await players[1].ok("rematch", accept=True)
    await watcher.wait(lambda: rematch(watcher)["state"] == "open")
    assert rematch(watcher)["offered_by"] == 1
    twice = await players[1].cmd("rematch", accept=True)
    assert twice["type"] == "error" and "already accepted" in twice["message"]
    for p in (players[0], players[2], players[3]):
        await p.ok("rematch", accept=True)
    for p in [*players, watcher]:
        await p.wait(lambda p=p: rematch(p)["state"] == "opened")
    new = rematch(watcher)["table"]
    assert isinstance(new, str) and new != table
    assert saw(watcher, "rematch_opened")
    for seat, p in enumerate(players):
        snap = await p.join(table=new)
        assert snap["you"]["seat"] == seat
    room = players[0].room
    assert room is not None
    for key in ("kind", "preset", "settings", "timer"):
        assert room[key] == old[key], key
    assert [s["user"]["id"] for s in room["seats"]] == [p.id for p in players]
    await players[0].wait(lambda: players[0].view is not None)  # its game has begun
    for p in [*players, watcher]:
        await p.aclose()


async def test_a_decline_and_the_others_start_with_a_bot(server: Server) -> None:
    players, _table, watcher = await finished_game(server)
    await players[0].ok("rematch", accept=True)
    await players[1].ok("rematch", accept=True)
    early = await players[0].cmd("rematch_bots")
    assert early["type"] == "error" and "still open" in early["message"]
    await players[3].ok("rematch", accept=False)
    await watcher.wait(lambda: rematch(watcher)["state"] == "ended")
    assert rematch(watcher)["reason"] == "declined"
    late = await players[2].cmd("rematch", accept=True)
    assert late["type"] == "error" and "declined" in late["message"]
    await players[1].ok("rematch_bots")
    await watcher.wait(lambda: rematch(watcher)["state"] == "opened")
    new = rematch(watcher)["table"]
    snap = await players[0].join(table=new)
    seats = snap["room"]["seats"]
    assert [s["user"]["id"] if s["user"] else None for s in seats[:2]] == [
        players[0].id,
        players[1].id,
    ]
    assert seats[2]["user"] is None and seats[3]["user"] is None
    assert seats[2]["bot"] and seats[3]["bot"]
    # The decliner is free: the new table does not hold them.
    decliner = await players[3].join(table=new)
    assert decliner["you"]["seat"] is None
    for p in [*players, watcher]:
        await p.aclose()
