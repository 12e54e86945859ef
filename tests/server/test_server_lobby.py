"""The lobby and the waiting room: Casual tables are listed with their open
seats and settings; Private ones are reached only by their invite; the host
changes the rules and the timer, moves players, adds a bot, removes someone;
the game starts when four are seated and ready."""

from __future__ import annotations

import asyncio

from fh_server_helpers import Player, Server, saw


async def test_waiting_room_host_controls_and_start(server: Server) -> None:
    host = await Player(server, "Host").guest()
    guest = await Player(server, "Guest").guest()
    tid = await _listed_casual_table(host, guest)
    await _spectator_sits(tid, host, guest)
    await _host_changes_the_rules(host, guest)
    await _host_moves_adds_and_removes(host, guest)
    # Back in, two bots, everyone ready: the game starts; with bots, unrated.
    await guest.ok("sit", seat=1)
    await host.ok("add_bot", seat=2)
    await host.ok("add_bot", seat=3)
    await host.ok("ready", ready=True)
    assert not saw(host, "started")
    await guest.ok("ready", ready=True)
    await host.wait(lambda: saw(host, "started") and host.view is not None)
    assert host.room is not None
    assert host.room["status"] == "playing" and host.room["rated"] is False
    assert host.view is not None and host.view["rules"]["scoring"] == "classic"
    # Nothing of the waiting room works any more.
    assert (await host.cmd("configure", timer=30))["code"] == "not_allowed"
    assert (await host.cmd("add_bot", seat=2))["code"] == "not_allowed"
    stranger = await Player(server, "Late").guest()
    await stranger.connect()
    await stranger.join(table=tid)
    assert (await stranger.cmd("sit"))["code"] == "not_allowed"
    # Both people leave: nobody is left, the game is abandoned.
    await host.ok("leave")
    await guest.ok("leave")
    await host.wait(lambda: saw(host, "game_over"))
    for p in (host, guest, stranger):
        await p.aclose()


async def _listed_casual_table(host: Player, guest: Player) -> str:
    """The host creates a Casual table with changed rules; the lobby lists it."""
    r = await host.http.post(
        "/api/tables",
        json={"kind": "casual", "preset": "traditional", "settings": {"target": 51}, "timer": 60},
    )
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    assert table["preset"] == "traditional" and table["changes"] == {"target": 51}
    assert table["timer"] == 60 and table["open_seats"] == 3 and "invite" not in r.json()
    listed = (await guest.http.get("/api/tables")).json()["tables"]
    assert any(t["id"] == table["id"] and t["open_seats"] == 3 for t in listed)
    return str(table["id"])


async def _spectator_sits(tid: str, host: Player, guest: Player) -> None:
    """Both join; the guest watches, then sits (the lobby counts the seat)."""
    for p in (host, guest):
        await p.connect()
        await p.join(table=tid)
    assert host.you == {"seat": 0, "role": "player", "host": True}
    assert guest.you == {"seat": None, "role": "spectator", "host": False}
    # A spectator cannot be ready; it sits (on a taken seat: refused).
    assert (await guest.cmd("ready", ready=True))["code"] == "not_seated"
    assert (await guest.cmd("sit", seat=0))["code"] == "not_allowed"
    await guest.ok("sit", seat=2)
    await host.wait(lambda: host.room is not None and host.room["seats"][2]["user"] is not None)
    assert host.room is not None and host.room["open_seats"] == 2
    listed = (await guest.http.get("/api/tables")).json()["tables"]
    assert next(t for t in listed if t["id"] == tid)["open_seats"] == 2


async def _host_changes_the_rules(host: Player, guest: Player) -> None:
    """Only the host changes the rules; a bad value names the setting."""
    assert (await guest.cmd("configure", timer=30))["code"] == "not_host"
    bad = await host.cmd("configure", settings={"min_bid": 7})
    assert bad["code"] == "bad_setting" and "min_bid" in bad["message"]
    bad = await host.cmd("configure", timer=20)
    assert bad["code"] == "bad_setting" and "timer" in bad["message"]
    bad = await host.cmd("configure", preset="nonesuch")
    assert bad["code"] == "bad_setting" and "preset" in bad["message"]
    bad = await host.cmd("configure", settings={"colour": "red"})
    assert bad["code"] == "bad_setting" and "colour" in bad["message"]
    await guest.ok("ready", ready=True)
    await host.ok("configure", preset="classic", settings={"min_total": 12}, timer=45)
    await guest.wait(lambda: saw(guest, "configured"))
    assert guest.room is not None
    assert guest.room["settings"]["scoring"] == "classic"
    assert guest.room["settings"]["min_total"] == 12 and guest.room["timer"] == 45
    assert guest.room["changes"] == {"min_total": 12}
    assert guest.room["seats"][2]["ready"] is False  # new rules: ready again


async def _host_moves_adds_and_removes(host: Player, guest: Player) -> None:
    """The host moves the guest, adds a bot, removes the bot and the guest."""
    # Move the guest from seat 2 to seat 1; its own seat follows.
    assert (await guest.cmd("move", **{"from": 2, "to": 1}))["code"] == "not_host"
    await host.ok("move", **{"from": 2, "to": 1})
    await guest.wait(lambda: guest.you is not None and guest.you["seat"] == 1)
    # Bots: on an empty seat only, known names only.
    assert (await host.cmd("add_bot", seat=1))["code"] == "not_allowed"
    assert (await host.cmd("add_bot", seat=3, bot="skynet"))["code"] == "not_allowed"
    await host.ok("add_bot", seat=3, bot="random")
    await guest.wait(lambda: guest.room is not None and guest.room["seats"][3]["bot"] == "random")
    assert guest.room is not None and guest.room["seats"][3]["ready"] is True
    # Removing: not the host's own seat; a bot; a player (who then watches).
    assert (await host.cmd("remove", seat=0))["code"] == "not_allowed"
    assert (await host.cmd("remove", seat=2))["code"] == "not_allowed"  # empty
    await host.ok("remove", seat=3)
    await host.ok("remove", seat=1)
    await guest.wait(lambda: guest.you is not None and guest.you["role"] == "spectator")


async def test_host_leaving_passes_the_role_and_an_empty_room_closes(server: Server) -> None:
    a = await Player(server, "A").guest()
    b = await Player(server, "B").guest()
    tid = (await a.http.post("/api/tables", json={"kind": "casual"})).json()["table"]["id"]
    for p in (a, b):
        await p.connect()
        await p.join(table=tid)
    await b.ok("sit")
    await a.ok("leave")
    await b.wait(lambda: b.you is not None and b.you["host"])
    assert b.room is not None and b.room["host"] == b.id
    await b.ok("leave")
    await b.wait(lambda: saw(b, "closed"))
    assert b.room is not None and b.room["status"] == "closed"
    listed = (await a.http.get("/api/tables")).json()["tables"]
    assert all(t["id"] != tid for t in listed)
    await asyncio.gather(a.aclose(), b.aclose())


async def test_private_tables_are_reached_only_by_invite(server: Server) -> None:
    host = await Player(server, "PrivHost").guest()
    other = await Player(server, "Other").guest()
    r = await host.http.post("/api/tables", json={"kind": "private", "preset": "syrian"})
    body = r.json()
    tid, invite = body["table"]["id"], body["invite"]
    assert body["invite_url"] == f"/?invite={invite}" and len(invite) >= 20
    assert all(t["id"] != tid for t in (await other.http.get("/api/tables")).json()["tables"])
    assert (await other.http.get(f"/api/tables/{tid}")).status_code == 404
    assert (await other.http.get(f"/api/tables/{tid}?invite=wrong")).status_code == 404
    assert (await other.http.get(f"/api/tables/{tid}?invite={invite}")).status_code == 200
    assert (await host.http.get(f"/api/tables/{tid}")).status_code == 200  # seated
    r = await other.http.get(f"/api/invites/{invite}")
    assert r.status_code == 200 and r.json()["table"]["id"] == tid
    assert (await other.http.get("/api/invites/not-a-code")).status_code == 404
    await other.connect()
    refused = await other.cmd("join", table=tid)
    assert refused["type"] == "error" and refused["code"] == "not_found"
    assert (await other.cmd("join", invite="nope"))["code"] == "not_found"
    sync = await other.join(invite=invite)
    assert sync["room"]["invite"] == invite and sync["room"]["preset"] == "syrian"
    await other.ok("sit")
    # Seated now: a user sits at one unfinished table at a time.
    r = await other.http.post("/api/tables", json={"kind": "casual"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
    await asyncio.gather(host.aclose(), other.aclose())


async def test_one_unfinished_table_at_a_time_also_for_taking_a_seat_back(server: Server) -> None:
    """A player who left a game under way (a bot plays the seat) may sit
    elsewhere; coming back to the old seat (join or reclaim) is then refused
    and changes nothing, until they leave the other table."""
    a = await Player(server, "Leaver").guest()
    b = await Player(server, "Stayer").guest()
    first = (await a.http.post("/api/tables", json={"kind": "casual"})).json()["table"]["id"]
    for p in (a, b):
        await p.connect()
        await p.join(table=first)
    await b.ok("sit")
    await a.ok("add_bot", seat=2)
    await a.ok("add_bot", seat=3)
    await a.ok("ready", ready=True)
    await b.ok("ready", ready=True)
    await b.wait(lambda: saw(b, "started"))
    await a.ok("leave")
    await b.wait(lambda: b.room is not None and b.room["seats"][0]["substitute"] is True)
    # Free to play elsewhere: a new table, seated as its host.
    made = await a.http.post("/api/tables", json={"kind": "casual"})
    assert made.status_code == 201, made.text
    second = made.json()["table"]["id"]
    await a.join(table=second)
    # The old seat stays the bot's while the new table is unfinished.
    reply = await a.cmd("join", table=first)
    assert reply["type"] == "error" and reply["code"] == "not_allowed", reply
    assert f"seated at table {second}: leave it first" in reply["message"]
    assert not saw(b, "reclaimed")
    # A refused join leaves the socket at no table (protocol.md, `join`).
    assert (await a.cmd("leave"))["code"] == "not_attached"
    # Leaving the new room (it closes) frees the player to come back.
    await a.join(table=second)
    await a.ok("leave")
    await a.join(table=first)
    await b.wait(lambda: saw(b, "reclaimed"))
    assert a.you is not None and a.you["seat"] == 0 and a.you["role"] == "player"
    await asyncio.gather(a.aclose(), b.aclose())
