"""A tournament's director and another process's writes: what the other
process acknowledged counts for the next command the director decides,
before the director's own poll has read it (read your writes across
processes)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from fourhundred.server.clock import SystemClock
from fourhundred.server.competitions.commands import (
    AcceptPartner,
    CheckIn,
    Create,
    EnterTeam,
    Player,
    Start,
)
from fourhundred.server.competitions.director import DirectorDeps
from fourhundred.server.competitions.directors import Directors, LocalLeases
from fourhundred.server.config import ServerConfig
from fourhundred.store import Store


class NoLeases(LocalLeases):
    """A process that directs nothing: it writes people's commands to the
    stored log itself, as a cluster's other process does."""

    async def acquire(self, key: str) -> bool:
        return False

    def held(self, key: str) -> bool:
        return False


async def _no_table(_spec: Any) -> None:
    raise AssertionError("no table is opened in this test")


async def _no_notice(_user: str, _m: Any) -> None:
    return None


def directors(store: Store, leases: LocalLeases) -> Directors:
    # A poll far away: only the command itself may bring the director up to date.
    config = ServerConfig(tournament_poll_s=3600.0, bot_workers=0)
    deps = DirectorDeps(store, SystemClock(), config, _no_table, _no_notice)
    return Directors(deps, leases)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
    yield s
    await s.close()


async def test_a_start_counts_the_check_ins_another_process_stored(store: Store) -> None:
    here, there = directors(store, LocalLeases()), directors(store, NoLeases())
    org = Player("org")
    start_ms = SystemClock().now_ms() + 3_600_000
    row, _ = await here.create("org", Create("Cup", "knockout", 4, start_ms), invite=False)
    director = here.running[row.id]
    try:
        for a, b in (("p1", "p2"), ("p3", "p4")):
            await there.act(row.id, Player(a), EnterTeam(partner=b))
            view = await there.view(row.id)
            assert view is not None
            team = next(t for t, v in view.model.teams.items() if v.players[0] == a)
            await there.act(row.id, Player(b), AcceptPartner(team=team))
            for p in (a, b):
                await there.act(row.id, Player(p), CheckIn())
        # The director read the store once, as it began; not since.
        assert "p4" not in director.model.checked_in
        await here.act(row.id, org, Start())
        assert director.model.status == "running"
        assert len(director.model.teams) == 2
    finally:
        await here.stop()
