"""A tournament in a cluster: its director runs in the one process holding
its lease; when that process is killed (SIGKILL) mid-round, the other takes
the lease, the tables and the tournament over, and the tournament plays to
its end with every result read from its game's record, once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import redis.asyncio as aioredis
from fh_cluster_helpers import LEASE_MS, REDIS_URL
from fh_server_helpers import Player, Server
from fh_tournaments import check_against_record, create, enter_team, play_own, post, wait_detail


def node_server(db: str, prefix: str, log: Path, node: str) -> Server:
    return Server(
        db,
        timer_scale=0.05,
        log_path=log,
        extra=[
            "--redis-url", REDIS_URL, "--redis-prefix", prefix, "--lease-ms", str(LEASE_MS),
            "--node", node, "--auth-limit", "1000", "--ws-rate", "100000",
            "--bot-workers", "0", "--tournament-poll", "0.2",
        ],
    )  # fmt: skip


async def director_of(prefix: str, tid: str) -> str | None:
    r = aioredis.from_url(REDIS_URL)
    try:
        value = await r.get(f"{prefix}lease:tourney:{tid}")
    finally:
        await r.aclose()
    return None if value is None else value.decode().split(":")[0]


async def test_the_directors_process_dies_and_the_other_takes_over(
    fresh_db: str, cluster_logs: Path, redis_prefix: str
) -> None:
    prefix = redis_prefix + "t:"
    a = node_server(fresh_db, prefix, cluster_logs / "tourney-a.log", "tourney-a").start()
    b = node_server(fresh_db, prefix, cluster_logs / "tourney-b.log", "tourney-b").start()
    try:
        org = await Player(a, "organiser").register()
        tid = (await create(org, max_teams=4))["tournament"]["id"]
        assert await director_of(prefix, tid) == "tourney-a"
        # Every player talks to B; the director and the tables run on A.
        players = [await Player(b, f"tplayer{i}").register() for i in range(8)]
        for i in range(4):
            await enter_team(tid, players[2 * i], players[2 * i + 1])
        for p in players:
            await p.connect()
        assert (await post(org, tid, "start")).status_code == 200
        d = await wait_detail(org, tid, lambda d: len(d["rounds"]) == 1, 30)
        by_team = {t["id"]: [u["id"] for u in t["players"]] for t in d["teams"]}
        by_id = {p.id: p for p in players}

        def seated(m: dict[str, object]) -> list[Player]:
            ta, tb = by_team[str(m["a"])], by_team[str(m["b"])]
            return [by_id[u] for u in (ta[0], tb[0], ta[1], tb[1])]

        # Into the games (two moves each at most, then they wait: a game to
        # 11 can end within a second, and the round must still be under way
        # when A dies with the director and the tables).
        gate = asyncio.Event()
        games = [
            asyncio.create_task(play_own(p, m["table"], hold=(2, gate)))
            for m in d["rounds"][0]["matches"]
            for p in seated(m)
        ]
        await players[0].wait(lambda: players[0].view is not None, 30)
        await asyncio.sleep(1.0)
        a.kill()
        gate.set()
        await asyncio.gather(*games)
        org.server = b
        org.http.base_url = b.url  # type: ignore[assignment]
        d = await wait_detail(org, tid, lambda d: len(d["rounds"]) == 2, 60)
        assert await director_of(prefix, tid) == "tourney-b"
        final = d["rounds"][1]["matches"][0]
        await asyncio.gather(*(play_own(p, final["table"]) for p in seated(final)))
        d = await wait_detail(org, tid, lambda d: d["status"] == "finished", 60)
        results = [e for e in d["log"] if e["kind"] == "match_result"]
        assert len(results) == 3 and len({(e["round"], e["a"]) for e in results}) == 3
        for r in d["rounds"]:
            for m in r["matches"]:
                await check_against_record(org, m)
        for p in [org, *players]:
            await p.aclose()
    finally:
        for s in (a, b):
            s.stop()


async def test_tournament_chat_reaches_the_followers_on_every_process(
    fresh_db: str, cluster_logs: Path, redis_prefix: str
) -> None:
    """A line said on one process reaches the followers on the other (less
    those who muted its sender there), and the other way round."""
    prefix = redis_prefix + "tc:"
    a = node_server(fresh_db, prefix, cluster_logs / "tchat-a.log", "tchat-a").start()
    b = node_server(fresh_db, prefix, cluster_logs / "tchat-b.log", "tchat-b").start()
    try:
        org = await Player(a, "chatorg").register()
        tid = (await create(org, max_teams=4))["tournament"]["id"]
        on_a = await Player(a, "chatter-a").register()
        on_b = await Player(b, "chatter-b").register()
        watcher = await Player(b, "watcher-b").register()
        muter = await Player(b, "muter-b").register()
        await enter_team(tid, on_a, on_b, check_in=False)
        for p in (on_a, on_b, watcher, muter):
            await p.connect()
            await p.ok("follow", tournament=tid)
        await muter.ok("mute", user=on_a.id, muted=True)

        def lines(p: Player) -> list[tuple[str, str]]:
            return [
                (f["from"]["id"], f["text"]) for f in p.frames if f["type"] == "tournament_chat"
            ]

        await on_a.ok("tournament_chat", tournament=tid, text="hello from A")
        await on_b.ok("tournament_chat", tournament=tid, text="hello from B")
        both = sorted([(on_a.id, "hello from A"), (on_b.id, "hello from B")])
        for p in (on_a, on_b, watcher):
            await p.wait(lambda p=p: sorted(lines(p)) == both, timeout=10)
        await muter.wait(lambda: (on_b.id, "hello from B") in lines(muter), timeout=10)
        await asyncio.sleep(0.3)
        assert lines(muter) == [(on_b.id, "hello from B")]
        # Once each: the sender's process does not give it twice.
        assert all(len(lines(p)) == 2 for p in (on_a, on_b, watcher))
    finally:
        a.stop()
        b.stop()
