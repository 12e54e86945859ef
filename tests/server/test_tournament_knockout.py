"""A 12-team knockout played over the protocol with fast timers: thirteen
teams enter, one never checks in (dropped at the start, which the server
makes at the start time), the top four seeds get byes, one team never sits
down for its first match (it forfeits when the scaled three minutes are
up), one player leaves mid-game (a bot plays on and the match counts), and
every result equals what the game's record says."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fh_server_helpers import Databases, Player, Server
from fh_tournaments import (
    check_against_record,
    create,
    detail,
    enter_team,
    matched_tables,
    play_own,
    post,
    registered,
    wait_detail,
)

SCALE = 0.05
"""Turn timers 30 s -> 1.5 s; a team has 180 s -> 9 s to be ready."""


@pytest.fixture(scope="module")
def kserver(backend: str, databases: Databases, logs_dir: Path) -> Iterator[Server]:
    s = Server(
        databases.new(backend),
        timer_scale=SCALE,
        log_path=logs_dir / f"tournament-knockout-{backend}.log",
        extra=["--auth-limit", "1000", "--tournament-poll", "0.1", "--ws-rate", "100000"],
    ).start()
    yield s
    s.stop()


class Drivers:
    """Each player answers its ``matched`` frames: joins, readies and plays
    its own turns, except the players told to stay away or to leave."""

    def __init__(self, players: list[Player]) -> None:
        self.players = players
        self.absent: set[str] = set()
        self.leaver: str | None = None
        self.go = asyncio.Event()
        self.done = asyncio.Event()
        self.ended: dict[str, list[str]] = {}

    async def drive(self, p: Player) -> None:
        await self.go.wait()
        played: set[str] = set()
        while not self.done.is_set():
            todo = [t for t in matched_tables(p) if t not in played]
            if not todo:
                with contextlib.suppress(TimeoutError):
                    await p.wait(
                        lambda: self.done.is_set() or bool(set(matched_tables(p)) - played), 2
                    )
                continue
            table = todo[-1]
            played.add(table)
            if p.id in self.absent:
                continue
            leave = 3 if p.id == self.leaver else None
            if leave is not None:
                self.leaver = None  # once
            how = await play_own(p, table, leave)
            self.ended.setdefault(table, []).append(how)


async def test_a_twelve_team_knockout(kserver: Server) -> None:
    org, *players = await registered(kserver, "ko", 27)
    made = await create(org, start_in_ms=20_000, max_teams=16, name="Knockout 12")
    tid = made["tournament"]["id"]
    teams = []
    for i in range(13):
        a, b = players[2 * i], players[2 * i + 1]
        teams.append(await enter_team(tid, a, b, check_in=i < 12))
    late = teams[12]
    for p in players:
        await p.connect()
    await org.connect()
    await org.ok("follow", tournament=tid)
    drivers = Drivers(players)
    tasks = [asyncio.create_task(drivers.drive(p)) for p in players]
    try:
        # The server starts it at its start time.
        d = await wait_detail(org, tid, lambda d: d["status"] == "running", 60)
        r1 = d["rounds"][0]
        assert len(r1["matches"]) == 4 and len(r1["byes"]) == 4
        seeds = {t["id"]: t["seed"] for t in d["teams"]}
        assert sorted(seeds[t] for t in r1["byes"]) == [1, 2, 3, 4]
        assert late not in seeds
        by_team = {t["id"]: [p["id"] for p in t["players"]] for t in d["teams"]}
        no_show = r1["matches"][0]["b"]
        drivers.absent.update(by_team[no_show])
        drivers.leaver = by_team[r1["matches"][1]["a"]][0]
        drivers.go.set()
        d = await wait_detail(org, tid, lambda d: d["status"] != "running", 600)
    finally:
        drivers.done.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    assert d["status"] == "finished", d["status"]
    await check_knockout(org, d, late, no_show)
    frames = [f for f in org.frames if f["type"] == "tournament"]
    assert frames and frames[-1]["tournament"]["status"] == "finished"
    assert "left" in drivers.ended[r1["matches"][1]["table"]]
    csv = (await org.http.get(f"/api/tournaments/{tid}/export.csv")).text
    exported = (await org.http.get(f"/api/tournaments/{tid}/export.json")).json()
    assert exported["winner"] == d["winner"]
    assert len(csv.strip().splitlines()) == 1 + 11 + 4  # header, matches, byes
    for p in [org, *players]:
        await p.aclose()


async def check_knockout(org: Player, d: dict[str, Any], late: str, no_show: str) -> None:
    log = d["log"]
    assert {"kind": "dropped", "team": late, "reason": "not_checked_in"}.items() <= next(
        e for e in log if e["kind"] == "dropped"
    ).items()
    assert [len(r["matches"]) for r in d["rounds"]] == [4, 4, 2, 1]
    forfeits = [e for e in log if e["kind"] == "forfeit"]
    assert [(e["round"], e["team"], e["reason"]) for e in forfeits] == [(1, no_show, "not_seated")]
    results = {(e["round"], e["a"], e["b"]): e for e in log if e["kind"] == "match_result"}
    assert len(results) == 10
    for r in d["rounds"]:
        for m in r["matches"]:
            if m["forfeit"] is not None:
                assert m["winner"] == (m["a"] if m["forfeit"] == m["b"] else m["b"])
                continue
            game = (await org.http.get(f"/api/games/{m['table']}")).json()
            assert game["rated"] is False
            await check_against_record(org, m)
    final = d["rounds"][-1]["matches"][0]
    assert d["winner"] == final["winner"]
    out = {t["id"] for t in d["teams"] if t["out"]}
    assert out == {t["id"] for t in d["teams"]} - {d["winner"]}


async def test_the_organiser_pauses_and_removes(kserver: Server) -> None:
    """Pause between rounds: no new round until resumed; a removed team
    forfeits its match; every act is in the log."""
    org, *players = await registered(kserver, "kp", 9)
    tid = (await create(org, max_teams=4))["tournament"]["id"]
    for i in range(4):
        await enter_team(tid, players[2 * i], players[2 * i + 1])
    assert (await post(org, tid, "start")).status_code == 200
    assert (await post(org, tid, "pause")).status_code == 200
    d = await detail(org, tid)
    m1, m2 = d["rounds"][0]["matches"]
    assert (await post(org, tid, "remove", {"team": m1["a"]})).status_code == 200
    assert (await post(org, tid, "remove", {"team": m2["a"]})).status_code == 200
    d = await detail(org, tid)
    assert [m["winner"] for m in d["rounds"][0]["matches"]] == [m1["b"], m2["b"]]
    await asyncio.sleep(1)  # several director looks: still no second round
    assert len((await detail(org, tid))["rounds"]) == 1
    assert (await post(org, tid, "resume")).status_code == 200
    d = await wait_detail(org, tid, lambda d: len(d["rounds"]) == 2, 30)
    kinds = [(e["kind"], e["by"]) for e in d["log"] if e["by"] == org.id]
    assert [k for k, _ in kinds] == [
        "created", "started", "paused", "team_removed", "team_removed", "resumed",
    ]  # fmt: skip
    assert (await post(org, tid, "cancel")).status_code == 200
    assert (await detail(org, tid))["status"] == "cancelled"
    for p in [org, *players]:
        await p.aclose()
