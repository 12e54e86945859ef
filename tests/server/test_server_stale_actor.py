"""A table's actor that is behind its stored log: another process wrote to
the log after this one loaded it (in a cluster, two processes both held
the table's lease while Redis restarted empty). A socket that has seen a
later version joins it: the actor stops, as when a commit of its finds
another writer, and the table is loaded again; the socket gets the stored
state, not the stale one. A version the stored log does not have changes
nothing.

Two single-process servers on one database make the two writers without
timing luck: each loads every unfinished table when it starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from fh_server_helpers import Databases, Player, Server, cards_played, play_turns
from test_server_game import seat_four


def _server(db: str, log: Path) -> Server:
    return Server(db, log_path=log, extra=["--auth-limit", "1000", "--ws-rate", "100000"])


@pytest.fixture
def db(backend: str, databases: Databases) -> str:
    return databases.new(backend)


async def test_an_actor_behind_its_log_stops_and_the_socket_gets_the_stored_state(
    db: str, backend: str, logs_dir: Path
) -> None:
    a = _server(db, logs_dir / f"stale-a-{backend}.log").start()
    b_log = logs_dir / f"stale-b-{backend}.log"
    b = None
    try:
        players, table, _ = await seat_four(a, kind="casual", timer=60)
        await play_turns(players, lambda: cards_played(players[0]) >= 1)
        b = _server(db, b_log).start()  # its actor: the table as stored now
        loaded = players[0].version
        await play_turns(players, lambda: cards_played(players[0]) >= 5)  # on A
        seen = players[0].version
        assert seen > loaded
        # A socket that has seen ``seen`` (at A) comes to B with it.
        watcher = await Player(b, "Watcher").guest()
        await watcher.connect()
        reply = await watcher.cmd("join", table=table, last_version=seen)
        # Answered ``unavailable`` (the actor stopped before deciding it),
        # and the client tries again, as docs/protocol.md says.
        assert reply["type"] == "error" and reply["code"] == "unavailable", reply
        await watcher.ok("join", table=table, last_version=seen)
        await watcher.wait(lambda: watcher.version >= seen)
        assert watcher.view is not None and cards_played(watcher) == cards_played(players[0])
        assert b_log.read_text().count('"table_lost"') == 1
        # A version from nowhere: the stored log has nothing later, the
        # actor carries on (no second stop) and the socket gets its state.
        other = await Player(b, "Other").guest()
        await other.connect()
        await other.ok("join", table=table, last_version=seen + 1000)
        await other.wait(lambda: other.version == seen)
        assert b_log.read_text().count('"table_lost"') == 1
        for p in [*players, watcher, other]:
            await p.aclose()
    finally:
        a.stop()
        if b is not None:
            b.stop()
