"""The fair-play store on SQLite and PostgreSQL: a finished game is claimed
by one process at a time and again once its claim lapsed (a dead
process's), counted once; a partnership's evidence adds up over its games
in either seat order; its reports are filed at most once while open; sums
kept before the second statistic existed read as none of it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from alembic import command
from fh_fairplay import finished_game
from sqlalchemy import text
from sqlalchemy.engine import Connection

from fourhundred.store import EVIDENCE_FIELDS, PairGame, PairTotals, Report, Store, create_engine
from fourhundred.store.database import _config

EXPIRY = 1000


@pytest.fixture
async def fresh(db_url: str) -> AsyncIterator[Store]:
    """A store of its own: claims see every game in the database."""
    s = await Store.open(db_url)
    yield s
    await s.close()


async def test_a_game_is_claimed_once_and_again_after_its_claim_lapses(fresh: Store) -> None:
    fp = fresh.fair_play
    await finished_game(fresh, "g_ranked", finished_ms=1000)
    await finished_game(fresh, "g_casual", finished_ms=1100, kind="casual")
    await finished_game(fresh, "g_abandoned", finished_ms=1200, reason="abandoned")
    await finished_game(fresh, "g_old", finished_ms=10)
    ranked = ("ranked",)
    got = await fp.claim(5000, since_ms=500, expiry_ms=EXPIRY, kinds=ranked)
    assert got is not None and (got.table_id, got.claimed_ms, got.kind) == (
        "g_ranked",
        5000,
        "ranked",
    )
    assert [p.user_id for p in got.players] == ["ua", "ub", "uc", "ud"]
    assert got.record == {"hands": []}
    # Claimed: nobody else gets it; abandoned and too old games are never offered.
    assert await fp.claim(5001, since_ms=500, expiry_ms=EXPIRY, kinds=ranked) is None
    other = await fp.claim(5002, since_ms=500, expiry_ms=EXPIRY, kinds=None)
    assert other is not None and other.table_id == "g_casual"
    # A released claim is taken at the next sweep.
    await fp.release("g_casual", other.claimed_ms)
    again = await fp.claim(5003, since_ms=500, expiry_ms=EXPIRY, kinds=None)
    assert again is not None and again.table_id == "g_casual"
    # The process that claimed g_ranked died: its claim lapses.
    assert await fp.claim(5999, since_ms=500, expiry_ms=EXPIRY, kinds=ranked) is None
    retaken = await fp.claim(6001, since_ms=500, expiry_ms=EXPIRY, kinds=ranked)
    assert retaken is not None and retaken.table_id == "g_ranked"
    # The old claim cannot finish it any more (the game is counted once)...
    assert await fp.finish("g_ranked", 5000, 6100, [], lambda t: []) is None
    assert await fp.finish("g_ranked", 6001, 6100, [], lambda t: []) == []
    # ...and a checked game is never claimed again, however late.
    assert await fp.claim(99_000, since_ms=500, expiry_ms=EXPIRY, kinds=ranked) is None


async def test_processes_claiming_at_once_share_the_games(db_url: str) -> None:
    stores = [await Store.open(db_url) for _ in range(3)]
    try:
        for i in range(6):
            await finished_game(stores[0], f"g{i}", finished_ms=1000 + i)

        async def drain(s: Store) -> list[str]:
            got = []
            while (
                c := await s.fair_play.claim(5000, since_ms=0, expiry_ms=EXPIRY, kinds=None)
            ) is not None:
                got.append(c.table_id)
            return got

        claimed = [g for found in await asyncio.gather(*map(drain, stores)) for g in found]
        assert sorted(claimed) == [f"g{i}" for i in range(6)]  # each once
    finally:
        for s in stores:
            await s.close()


def _evidence(llr: float, decisions: int = 30) -> dict[str, float]:
    e = dict.fromkeys(EVIDENCE_FIELDS, 0.0)
    e |= {"decisions": decisions, "llr": llr, "hand_sq": llr * llr / 5, "agree_true": 2}
    return e


async def test_a_pair_adds_up_over_its_games_and_is_reported_once_while_open(
    fresh: Store,
) -> None:
    fp = fresh.fair_play
    asked: list[PairTotals] = []

    def report_when_two_games(t: PairTotals) -> list[Report]:
        asked.append(t)
        if t.games < 2 or "ua" not in t.users:
            return []
        return [
            Report(f"r{t.games}{u}", None, u, "fair_play", None, "g", None, 1, details={"z": 1})
            for u in t.users
        ]

    async def game(n: int, users: tuple[str, str]) -> list[Report] | None:
        await finished_game(fresh, f"p{n}", finished_ms=1000 + n)
        c = await fp.claim(2000 + n, since_ms=0, expiry_ms=EXPIRY, kinds=None)
        assert c is not None and c.table_id == f"p{n}"
        pairs = [PairGame(users, 10, _evidence(2.0)), PairGame(("x", "y"), 9, _evidence(0.5))]
        return await fp.finish(c.table_id, c.claimed_ms, 3000 + n, pairs, report_when_two_games)

    assert await game(1, ("ua", "uc")) == []
    assert await game(2, ("uc", "ua"))
    assert [r.id for r in await fresh.moderation.reports("open", 50)] == ["r2ua", "r2uc"]
    totals = await fp.pair("uc", "ua")
    assert totals is not None and totals == await fp.pair("ua", "uc")
    assert (totals.users, totals.games, totals.deals) == (("ua", "uc"), 2, 20)
    assert totals.evidence["llr"] == pytest.approx(4.0) and totals.evidence["decisions"] == 60
    assert totals.evidence["hand_sq"] == pytest.approx(1.6) and totals.reports == ("r2ua", "r2uc")
    # While one of the pair's reports is open, it is not even asked about.
    asked.clear()
    assert await game(3, ("ua", "uc")) == []
    assert [t.users for t in asked] == [("x", "y")]
    await fresh.moderation.resolve("r2ua", "looked", "mod", 4000)
    assert await game(4, ("ua", "uc")) == []
    await fresh.moderation.resolve("r2uc", "looked", "mod", 4000)
    # All resolved: new evidence that still flags files again.
    filed = await game(5, ("ua", "uc"))
    assert filed is not None and [r.id for r in filed] == ["r5ua", "r5uc"]
    ua = await fp.pair("ua", "uc")
    assert ua is not None and ua.games == 5 and ua.reports == ("r5ua", "r5uc")


async def test_pairs_summed_before_the_second_statistic_read_as_none_of_it(db_url: str) -> None:
    """A database of the code before the second statistic (revision v0007)
    with a partnership's sums in it: upgraded, the pair reads with zeros
    for the new sums, and its next game adds them."""
    old = [f for f in EVIDENCE_FIELDS if not f.startswith("policy")]
    engine = create_engine(db_url)
    try:

        def to_v0007(conn: Connection) -> None:
            command.upgrade(_config(conn), "v0007")

        async with engine.begin() as conn:
            await conn.run_sync(to_v0007)
            columns = ", ".join(old)
            values = ", ".join(f":{f}" for f in old)
            await conn.execute(
                text(
                    f"INSERT INTO fair_play_pairs (user_a, user_b, games, deals, {columns},"
                    f" updated_ms) VALUES ('oa', 'ob', 1, 10, {values}, 1)"
                ),
                {f: 2.0 if f == "llr" else 1 for f in old},
            )
    finally:
        await engine.dispose()
    s = await Store.open(db_url)  # upgrades to the head
    try:
        before = await s.fair_play.pair("oa", "ob")
        assert before is not None and before.evidence["llr"] == pytest.approx(2.0)
        assert [before.evidence[f] for f in ("policy_decisions", "policy", "policy_hand_sq")] == [
            0,
            0,
            0,
        ]
        await finished_game(s, "old1", finished_ms=1001)
        c = await s.fair_play.claim(2000, since_ms=0, expiry_ms=EXPIRY, kinds=None)
        assert c is not None
        more = _evidence(1.0) | {"policy_decisions": 20, "policy": 3.0, "policy_hand_sq": 1.5}
        await s.fair_play.finish(
            c.table_id, c.claimed_ms, 3000, [PairGame(("ob", "oa"), 10, more)], lambda t: []
        )
        after = await s.fair_play.pair("oa", "ob")
        assert after is not None and after.games == 2
        assert after.evidence["policy"] == pytest.approx(3.0)
        assert after.evidence["policy_decisions"] == 20
        assert after.evidence["llr"] == pytest.approx(3.0)
    finally:
        await s.close()
