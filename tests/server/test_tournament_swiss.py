"""A Swiss of 32 teams, five rounds, played over the protocol by 64
registered players (each joins its match table, readies and plays its own
turns from its view's legal actions), with fast timers. No two teams meet
twice, and the standings equal the test's own computation from the games'
records (``GET /api/games/{id}/record``, replayed here)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fh_server_helpers import Databases, Player, Server
from fh_tournaments import (
    create,
    enter_team,
    matched_tables,
    play_own,
    post,
    record_result,
    registered,
    wait_detail,
)

TEAMS = 32
ROUNDS = 5


@pytest.fixture(scope="module")
def sserver(backend: str, databases: Databases, logs_dir: Path) -> Iterator[Server]:
    s = Server(
        databases.new(backend),
        timer_scale=0.1,
        log_path=logs_dir / f"tournament-swiss-{backend}.log",
        extra=["--auth-limit", "1000", "--tournament-poll", "0.2", "--ws-rate", "100000"],
    ).start()
    yield s
    s.stop()


async def keep_playing(p: Player, done: asyncio.Event) -> None:
    """Play every match table this player is sent to, until ``done``."""
    played: set[str] = set()
    while not done.is_set():
        todo = [t for t in matched_tables(p) if t not in played]
        if not todo:
            with contextlib.suppress(TimeoutError):
                await p.wait(lambda: done.is_set() or bool(set(matched_tables(p)) - played), 2)
            continue
        played.add(todo[-1])
        await play_own(p, todo[-1])


def expected_standings(
    d: dict[str, Any], results: dict[str, tuple[int, int, int]]
) -> list[tuple[str, int, int, int]]:
    """(team, match points, Buchholz, difference), best first, computed
    from the records alone (and the seeds, the last tie-break)."""
    teams = [t["id"] for t in d["teams"]]
    seed = {t["id"]: t["seed"] for t in d["teams"]}
    mp = dict.fromkeys(teams, 0)
    diff = dict.fromkeys(teams, 0)
    met: dict[str, list[str]] = {t: [] for t in teams}
    for r in d["rounds"]:
        for bye in r["byes"]:
            mp[bye] += 1
        for m in r["matches"]:
            side, pa, pb = results[m["table"]]
            mp[m["a"] if side == 0 else m["b"]] += 1
            diff[m["a"]] += pa - pb
            diff[m["b"]] += pb - pa
            met[m["a"]].append(m["b"])
            met[m["b"]].append(m["a"])
    rows = [(t, mp[t], sum(mp[o] for o in met[t]), diff[t]) for t in teams]
    return sorted(rows, key=lambda r: (-r[1], -r[2], -r[3], seed[r[0]]))


async def test_a_swiss_of_32_teams(sserver: Server) -> None:
    org, *players = await registered(sserver, "sw", 1 + 2 * TEAMS)
    made = await create(org, fmt="swiss", rounds=ROUNDS, max_teams=TEAMS, name="Swiss 32")
    tid = made["tournament"]["id"]
    for i in range(TEAMS):
        await enter_team(tid, players[2 * i], players[2 * i + 1])
    for p in players:
        await p.connect()
    done = asyncio.Event()
    tasks = [asyncio.create_task(keep_playing(p, done)) for p in players]
    try:
        assert (await post(org, tid, "start")).status_code == 200
        d = await wait_detail(org, tid, lambda d: d["status"] != "running", 1800)
    finally:
        done.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    assert d["status"] == "finished"
    assert len(d["rounds"]) == ROUNDS
    pairs = [frozenset((m["a"], m["b"])) for r in d["rounds"] for m in r["matches"]]
    assert len(pairs) == ROUNDS * TEAMS // 2
    assert len(set(pairs)) == len(pairs), "two teams met twice"
    results = {}
    for r in d["rounds"]:
        for m in r["matches"]:
            assert m["forfeit"] is None
            record = (await org.http.get(f"/api/games/{m['table']}/record")).json()
            results[m["table"]] = record_result(record)
    shown = [(s["team"], s["match_points"], s["buchholz"], s["difference"]) for s in d["standings"]]
    assert shown == expected_standings(d, results)
    assert d["winner"] == shown[0][0]
    for p in [org, *players]:
        await p.aclose()
