"""A tournament survives a SIGKILL mid-round: the server is killed just as
one match of the round ends (its result perhaps not yet read) while the
other is mid-game; started again on the same database, the director comes
back from its log, reads the finished game's record, the other game goes on
from its last acknowledged move, and the tournament plays to its end with
every result once and none lost."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from fh_server_helpers import Databases, Player, Server
from fh_tournaments import (
    check_against_record,
    create,
    detail,
    enter_team,
    play_own,
    post,
    registered,
    wait_detail,
)


@pytest.fixture
def rserver(backend: str, databases: Databases, logs_dir: Path) -> Iterator[Server]:
    s = Server(
        databases.new(backend),
        timer_scale=0.05,
        log_path=logs_dir / f"tournament-restart-{backend}.log",
        extra=["--auth-limit", "1000", "--tournament-poll", "0.2", "--ws-rate", "100000"],
    ).start()
    yield s
    s.stop()


async def test_sigkill_mid_round_then_the_tournament_goes_on(rserver: Server) -> None:
    org, *players = await registered(rserver, "rs", 9)
    tid = (await create(org, fmt="swiss", rounds=2, max_teams=4))["tournament"]["id"]
    for i in range(4):
        await enter_team(tid, players[2 * i], players[2 * i + 1])
    for p in players:
        await p.connect()
    assert (await post(org, tid, "start")).status_code == 200
    d = await detail(org, tid)
    by_team = {t["id"]: t["players"] for t in d["teams"]}
    by_id = {p.id: p for p in players}

    def seated(match: dict[str, object]) -> list[Player]:
        a, b = by_team[str(match["a"])], by_team[str(match["b"])]
        return [by_id[u["id"]] for u in (a[0], b[0], a[1], b[1])]

    m1, m2 = d["rounds"][0]["matches"]
    round_at = d["rounds"][0]["at_ms"]
    first = [asyncio.create_task(play_own(p, m1["table"])) for p in seated(m1)]
    second = [asyncio.create_task(play_own(p, m2["table"])) for p in seated(m2)]
    await asyncio.gather(*first)
    rserver.kill()
    for t in second:
        t.cancel()
        with contextlib.suppress(BaseException):
            await t
    for p in players:
        await p.wait(lambda p=p: p.close_code is not None, timeout=20)
        p.ws = None
    rserver.start()

    for p in players:
        await p.connect()
    await asyncio.gather(*(play_own(p, m2["table"]) for p in seated(m2)))
    d = await wait_detail(org, tid, lambda d: len(d["rounds"]) == 2, 60)
    assert d["rounds"][0]["at_ms"] == round_at
    await asyncio.gather(
        *(play_own(p, m["table"]) for m in d["rounds"][1]["matches"] for p in seated(m))
    )
    d = await wait_detail(org, tid, lambda d: d["status"] == "finished", 60)
    results = [e for e in d["log"] if e["kind"] == "match_result"]
    assert len(results) == 4
    assert len({(e["round"], e["a"]) for e in results}) == 4
    played = [frozenset((m["a"], m["b"])) for r in d["rounds"] for m in r["matches"]]
    assert len(set(played)) == 4  # no pair met twice
    for r in d["rounds"]:
        for m in r["matches"]:
            await check_against_record(org, m)
    for p in [org, *players]:
        await p.aclose()
