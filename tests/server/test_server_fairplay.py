"""The fair-play sweeper (docs/fair-play.md, "Reports"), with a stub in
place of the detector (the real one takes seconds a game): each finished
game is scored once; a partnership's evidence adds up over its games until
its sum is flagged, which files one report by the system about each
player, once; a team with a bot is skipped; ``--fair-play`` chooses the
games (``off``: none). One test runs the real detector, small, end to end."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fh_fairplay import finished_game

from fourhundred.bots import HeuristicBot
from fourhundred.bots.fairplay import Evidence, ScoreOptions
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.server.config import FairPlayMode, ServerConfig
from fourhundred.server.fairplay import FairPlaySweeper, pairs_of
from fourhundred.store import GamePlayer, Store

NOW = 10**12


class Clock:
    def __init__(self) -> None:
        self.ms = NOW

    def now_ms(self) -> int:
        self.ms += 1
        return self.ms

    def monotonic(self) -> float:
        return self.ms / 1000


class Stub:
    """Five hands a game; seats 0 and 2 lean on each other (each hand adds
    2 to their partnership's sum), seats 1 and 3 show nothing. One game:
    30 cards, score 2.2; two games: 60 cards, score 3.2 (flagged)."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    async def __call__(self, record: dict[str, Any], options: ScoreOptions) -> list[list[Evidence]]:
        self.records.append(record)
        leaning = Evidence(decisions=3, llr=1.0, llr_sq=1.0, discriminating=2, agree_true=2)
        return [[leaning, Evidence(decisions=3), leaning, Evidence(decisions=3)] for _ in range(5)]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'fp.sqlite3'}")
    yield s
    await s.close()


def sweeper(store: Store, mode: FairPlayMode = "ranked", **kw: Any) -> FairPlaySweeper:
    config = ServerConfig(fair_play=mode, bot="random", bot_workers=0, node="n")
    return FairPlaySweeper(store, Clock(), config, **kw)


async def test_evidence_adds_up_over_games_until_the_pair_is_reported_once(store: Store) -> None:
    stub = Stub()
    fp = sweeper(store, scorer=stub)
    await finished_game(store, "g1", finished_ms=NOW - 5000, record={"hands": [1]})
    assert await fp.sweep() == 1
    assert await fp.sweep() == 0  # claimed and checked once
    assert stub.records == [{"hands": [1]}]
    one = await store.fair_play.pair("uc", "ua")
    assert one is not None and (one.games, one.deals, one.evidence["decisions"]) == (1, 5, 30)
    assert await store.moderation.reports("open", 10) == []  # 2.2 over 30 cards: not yet
    await finished_game(store, "g2", finished_ms=NOW - 4000)
    assert await fp.sweep() == 1
    reports = await store.moderation.reports("open", 10)
    assert sorted(r.reported for r in reports) == ["ua", "uc"]
    for r in reports:
        assert (r.reporter, r.reason, r.table_id, r.status) == (None, "fair_play", "g2", "open")
        assert r.details is not None
        assert (r.details["games"], r.details["deals"], r.details["decisions"]) == (2, 10, 60)
        assert r.details["z"] == pytest.approx(20 / 40**0.5, abs=0.01)
        assert r.details["thresholds"] == [2.9, 2.9]  # 10 deals: as set
        assert r.details["partner"] == ({"ua", "uc"} - {r.reported}).pop()
        assert "Seats 0 and 2" in r.details["text"] and "For review" in r.details["text"]
    # Still flagged after another game, but the reports are open: no more.
    await finished_game(store, "g3", finished_ms=NOW - 3000)
    assert await fp.sweep() == 1
    assert len(await store.moderation.reports(None, 10)) == 2
    three = await store.fair_play.pair("ua", "uc")
    assert three is not None and three.games == 3
    quiet = await store.fair_play.pair("ub", "ud")  # the other team: nothing to see
    assert quiet is not None and quiet.games == 3 and quiet.evidence["llr"] == 0


class Steady:
    """Each game ``hands`` hands, in 9 of which seats 0 and 2 lean on each
    other: a partnership score of 3.0 over 27 decisions a seat, whatever
    the game's length."""

    def __init__(self, hands: int) -> None:
        self.hands = hands

    async def __call__(self, record: dict[str, Any], options: ScoreOptions) -> list[list[Evidence]]:
        leaning = Evidence(decisions=3, llr=1.0, llr_sq=1.0)
        quiet = Evidence(decisions=3)
        return [
            [leaning, quiet, leaning, quiet] if i < 9 else [quiet] * 4 for i in range(self.hands)
        ]


@pytest.mark.parametrize(("deals", "thresholds"), [(50, [2.9, 2.9]), (200, [3.4, 3.4])])
async def test_the_same_score_over_more_deals_must_clear_a_higher_threshold(
    store: Store, deals: int, thresholds: list[float]
) -> None:
    fp = sweeper(store, scorer=Steady(deals))
    await finished_game(store, "g1", finished_ms=NOW - 5000)
    assert await fp.sweep() == 1
    pair = await store.fair_play.pair("ua", "uc")
    assert pair is not None and pair.deals == deals
    assert Evidence.from_dict(pair.evidence).z == pytest.approx(3.0)
    reports = await store.moderation.reports("open", 10)
    if deals == 50:  # 3.0 reaches 2.9
        assert sorted(r.reported for r in reports) == ["ua", "uc"]
        assert all(r.details is not None and r.details["thresholds"] == thresholds for r in reports)
    else:  # 3.0 is short of 3.4 after 200 deals
        assert reports == []


async def test_a_team_with_a_bot_is_skipped(store: Store) -> None:
    stub = Stub()
    fp = sweeper(store, scorer=stub)
    # Seat 3 a substitute for a player who left: that team is skipped.
    sub = {"bots": (None, None, None, "expert")}
    await finished_game(store, "sub", finished_ms=NOW - 5000, **sub)
    assert await fp.sweep() == 1
    assert await store.fair_play.pair("ua", "uc") is not None
    assert await store.fair_play.pair("ub", "ud") is None
    # No team of two people (host's bots): checked, not even scored.
    bots = {"users": ("ua", "ub", None, None), "bots": (None, None, "expert", "random")}
    await finished_game(store, "bots", finished_ms=NOW - 4000, **bots)
    assert await fp.sweep() == 1
    assert len(stub.records) == 1 and await fp.sweep() == 0
    players = [GamePlayer("t", s, "same", None, 0, False, None, None, 0, 0, 0) for s in range(4)]
    assert pairs_of(players) == {}  # one person in two seats is no partnership


async def test_a_record_the_detector_cannot_read_counts_for_nobody(store: Store) -> None:
    await finished_game(store, "bad", finished_ms=NOW - 5000, record={"hands": "no"})
    fp = sweeper(store, options=ScoreOptions(deals=1, refs=1, infer_batch=2))
    try:
        assert await fp.sweep() == 1
        assert await fp.sweep() == 0  # checked: not tried again
    finally:
        fp.close()
    assert await store.fair_play.pair("ua", "uc") is None


@pytest.mark.parametrize(
    ("mode", "checked"), [("off", []), ("ranked", ["ranked"]), ("all", ["casual", "ranked"])]
)
async def test_the_option_chooses_the_games(
    store: Store, mode: FairPlayMode, checked: list[str]
) -> None:
    stub = Stub()
    for kind in ("ranked", "casual"):
        await finished_game(store, kind, finished_ms=NOW - 5000, kind=kind, record={"k": kind})
    await finished_game(store, "left", finished_ms=NOW - 5000, reason="abandoned")
    assert await sweeper(store, mode, scorer=stub).sweep() == len(checked)
    assert sorted(r["k"] for r in stub.records) == checked


def test_an_unknown_mode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="fair play"):
        sweeper(None, "some")  # type: ignore[arg-type]


async def test_the_real_detector_end_to_end(store: Store) -> None:
    record = play_deals([HeuristicBot() for _ in range(4)], deals=2, seed=11)[0].to_dict()
    await finished_game(store, "real", finished_ms=NOW - 5000, record=record)
    fp = sweeper(store, options=ScoreOptions(deals=1, refs=1, infer_batch=2))
    try:
        assert await fp.sweep() == 1
    finally:
        fp.close()
    for pair in (("ua", "uc"), ("ub", "ud")):
        got = await store.fair_play.pair(*pair)
        assert got is not None and got.games == 1 and got.deals == len(record["hands"])
        assert got.evidence["decisions"] > 0 and got.evidence["hand_sq"] > 0


class PolicyStub(Stub):
    """As :class:`Stub`, the lean shown by the second statistic alone."""

    async def __call__(self, record: dict[str, Any], options: ScoreOptions) -> list[list[Evidence]]:
        self.records.append(record)
        leaning = Evidence(decisions=3, policy_decisions=3, policy=1.0)
        return [[leaning, Evidence(decisions=3), leaning, Evidence(decisions=3)] for _ in range(5)]


async def test_a_pair_whose_cards_follow_the_told_hand_is_reported_by_the_second_score(
    store: Store,
) -> None:
    fp = sweeper(store, scorer=PolicyStub())
    for n in (1, 2):
        await finished_game(store, f"p{n}", finished_ms=NOW - 5000 + n)
        assert await fp.sweep() == 1
    reports = await store.moderation.reports("open", 10)
    assert sorted(r.reported for r in reports) == ["ua", "uc"]
    for r in reports:
        assert r.details is not None
        assert r.details["z"] == 0.0
        assert r.details["policy_z"] == pytest.approx(20 / 40**0.5, abs=0.01)
        assert "second score 3.2" in r.details["text"]
    pair = await store.fair_play.pair("ua", "uc")
    assert pair is not None and pair.evidence["policy_decisions"] == 60
