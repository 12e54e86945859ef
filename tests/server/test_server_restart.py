"""Persistence: the server is killed with SIGKILL in the middle of a hand and
started again on the same database; every table comes back from its stored
log, clients resync from their last version, and the game goes on from the
last acknowledged action."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from fh_server_helpers import (
    Databases,
    Player,
    Server,
    cards_played,
    caught_up,
    hand_index,
    play_turns,
)
from test_server_game import seat_four

from fourhundred.engine import replay


@pytest.fixture
def own_server(backend: str, databases: Databases, logs_dir: Path) -> Iterator[Server]:
    s = Server(
        databases.new(backend),
        log_path=logs_dir / f"restart-{backend}.log",
        extra=["--auth-limit", "1000", "--ws-rate", "100000"],
    ).start()
    yield s
    s.stop()


async def test_sigkill_mid_hand_then_the_game_goes_on(own_server: Server) -> None:
    # A waiting room with no one connected comes back too.
    host = await Player(own_server, "Host").guest()
    r = await host.http.post("/api/tables", json={"kind": "casual", "settings": {"target": 61}})
    waiting = r.json()["table"]["id"]
    players, table, _ = await seat_four(own_server, timer=30)
    # Into the middle of the first hand: every bid and six cards.
    await play_turns(players, lambda: cards_played(players[0]) >= 6)
    acked_version = players[0].version
    before = {p.seat: dict(p.view or {}) for p in players}
    own_server.kill()
    for p in players:
        await p.wait(lambda p=p: p.close_code is not None, timeout=20)
        p.ws = None
    own_server.start()  # same port, same database
    r = await host.http.get(f"/api/tables/{waiting}")
    assert r.status_code == 200
    room = r.json()["table"]
    assert room["status"] == "waiting" and room["settings"]["target"] == 61
    assert room["seats"][0]["user"]["id"] == host.id
    await host.connect()
    sync = await host.join(table=waiting)
    assert sync["you"] == {"seat": 0, "role": "player", "host": True}
    await host.aclose()
    for p in players:
        await p.connect()
        sync = await p.join(table=table, last_version=acked_version)
        # Nothing acknowledged was lost, nothing was added.
        assert sync["type"] == "catchup" and sync["events"] == []
        assert sync["version"] == acked_version
        old = before[p.seat]
        for key in ("hand", "tricks", "bids", "tricks_won", "turn", "scores", "legal", "dealer"):
            assert sync["view"][key] == old[key], key
        # The turn timer resumed with at most the time that was left.
        assert sync["clock"] is not None
        assert 0 <= sync["clock"]["remaining_ms"] <= 30_000
    # The game goes on: finish the hand, then check the whole log replays.
    await play_turns(players, lambda: hand_index(players[0]) >= 1)
    # Every client reaches the same version and sees the same public state.
    await caught_up(players)
    # Leave, so the game ends and its record can be read back.
    for p in players:
        assert (await p.cmd("leave"))["type"] == "ack"
    await players[0].wait(lambda: bool(players[0].events("game_over")))
    r = await players[0].http.get(f"/api/games/{table}/record")
    assert r.status_code == 200
    state = replay(r.json())
    assert len(state.history) >= 1
    first = state.history[0]
    assert (len(first.bids) == 4 and len(first.plays) == 52) or first.thrown_in
    await asyncio.gather(*(p.aclose() for p in players))
