"""Hints and levels over real WebSockets: the host adds an expert by level
(its label on the seat), turns hints on, and the player to act asks; the
suggestion reaches that player alone, worked out in the bot pool from that
seat's view; everyone sees the mark (``hint_used``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fh_server_helpers import Databases, Player, Server

from fourhundred.engine import CARD_NAMES


async def test_an_expert_by_level_and_a_hint_to_the_asker_alone(server: Server) -> None:
    host = await Player(server, "Rami").guest()
    guest = await Player(server, "Nour").guest()
    watcher = await Player(server, "Hala").guest()
    r = await host.http.post("/api/tables", json={"kind": "casual", "preset": "quick"})
    table = r.json()["table"]["id"]
    for pl in (host, guest, watcher):
        await pl.connect()
        await pl.join(table=table)
    await guest.ok("sit", seat=2)
    bad = await host.cmd("add_bot", seat=1, level="genius")
    assert (
        bad["code"] == "not_allowed" and "levels: beginner, intermediate, expert" in bad["message"]
    )
    assert host.room is not None and host.room["seats"][1]["bot"] is None
    await host.ok("add_bot", seat=1, level="expert")
    await host.ok("add_bot", seat=3, level="beginner")
    await host.ok("configure", hints=True)
    await guest.wait(lambda: guest.room is not None and guest.room["hints"] is True)
    assert guest.room is not None
    assert guest.room["seats"][1]["level"] == "expert"
    assert guest.room["seats"][1]["label"] == "Expert bot"
    assert guest.room["seats"][3]["label"] == "Beginner bot"
    for pl in (host, guest):
        await pl.ok("ready", ready=True)
    people = {0: host, 2: guest}

    def a_person_to_act() -> bool:
        return host.view is not None and host.view.get("turn") in people

    await host.wait(a_person_to_act, timeout=60)
    assert host.view is not None
    asker = people[host.view["turn"]]
    other = guest if asker is host else host
    assert (await watcher.cmd("hint"))["code"] == "not_seated"
    assert (await other.cmd("hint"))["code"] == "not_your_turn"
    await asker.wait(lambda: asker.view is not None and asker.view["turn"] == asker.seat)
    assert asker.view is not None
    legal = asker.view["legal"]
    phase = asker.view["phase"]
    ack = await asker.ok("hint")

    def answered() -> list[dict[str, Any]]:
        return [f for f in asker.frames if f["type"] in ("hint", "error") and f["id"] == ack["id"]]

    await asker.wait(lambda: bool(answered()), timeout=30)
    hint = answered()[0]
    assert hint["type"] == "hint", hint
    assert hint["id"] == ack["id"] and hint["seat"] == asker.seat and hint["table"] == table
    if phase == "bid":
        assert hint["action"].startswith("bid ") and int(hint["action"][4:]) in legal
        assert "chance of making it" in hint["reason"] and 0 <= hint["chance"] <= 1
    else:
        assert hint["action"] in [c if isinstance(c, str) else CARD_NAMES[c] for c in legal]
        assert "expected points" in hint["reason"] or "only" in hint["reason"]
    # The mark reaches everyone; the hint itself nobody else.
    for pl in (other, watcher):
        await pl.wait(lambda pl=pl: bool(pl.events("hint_used")))
        assert pl.events("hint_used")[0]["seat"] == asker.seat
        assert not any(f["type"] == "hint" for f in pl.frames)
    for pl in (host, guest, watcher):
        await pl.aclose()


async def test_a_player_who_leaves_is_replaced_by_the_expert(
    databases: Databases, logs_dir: Path
) -> None:
    """The server's own default: the substitute is the expert (its label on
    the seat), and it plays; the pool's fallbacks are a metric."""
    server = Server(
        databases.new("sqlite"),
        log_path=logs_dir / "expert-substitute.log",
        extra=["--substitute", "expert", "--bot-budget-ms", "100"],
    ).start()
    try:
        host = await Player(server, "Rami").guest()
        guest = await Player(server, "Nour").guest()
        r = await host.http.post("/api/tables", json={"kind": "casual", "preset": "quick"})
        table = r.json()["table"]["id"]
        for pl in (host, guest):
            await pl.connect()
            await pl.join(table=table)
        await guest.ok("sit", seat=2)
        await host.ok("add_bot", seat=1, level="intermediate")
        await host.ok("add_bot", seat=3, level="beginner")
        for pl in (host, guest):
            await pl.ok("ready", ready=True)
        await host.wait(lambda: host.view is not None)
        await guest.ok("leave")
        await host.wait(lambda: bool(host.events("substituted")))
        sub = host.events("substituted")[0]
        assert sub["seat"] == 2 and sub["bot"] == "expert" and sub["reason"] == "left"
        assert host.room is not None
        seat = host.room["seats"][2]
        assert (seat["substitute"], seat["level"], seat["label"]) == (True, "expert", "Expert bot")
        # The expert (or, when the pool is behind, the heuristic) moves for the seat.
        await host.wait(
            lambda: any(e.get("seat") == 2 and e.get("by") == "bot" for e in host.events()),
            timeout=60,
        )
        metrics = (await host.http.get("/metrics")).text
        assert "# TYPE fourhundred_bot_fallbacks_total counter" in metrics
        for pl in (host, guest):
            await pl.aclose()
    finally:
        server.stop()
