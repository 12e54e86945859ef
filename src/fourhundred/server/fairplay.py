"""The fair-play sweeper (docs/fair-play.md, "Reports"): finished games are
checked by the collusion detector, each partnership's evidence is added up
over its games together, and a partnership whose evidence is flagged gets
a report by the system about each of its two players, for a moderator.
Never a penalty: the score is evidence, the decision is a person's.

Every ``interval_s`` the sweeper claims finished games one at a time
(``store.fair_play``: safe with several processes on one database; a dead
process's claim lapses after :data:`CLAIM_EXPIRY_MS`) and checks each:

* only games won (not abandoned) of the kinds ``--fair-play`` names
  (``ranked``: Ranked games; ``all``: every kind), finished within
  :data:`LOOKBACK_MS` (an upgrade or a server that had it off does not
  queue its whole history);
* only partnerships of two people who held their seats to the end (a team
  with a bot seat, or a substitute at the end, is skipped; a game with no
  such team is marked checked without scoring);
* the detector (about 9 s of one core for a 10-hand game) runs in one
  worker process of its own, like the replay analysis, so that it never
  competes with live tables;
* at most one set of open reports per partnership: once a moderator
  resolved them, the next game that leaves the pair flagged files again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import fields
from typing import Any, Final

from fourhundred.bots._proc import die_with_parent
from fourhundred.bots.fairplay import (
    REASON,
    Evidence,
    FairPlayFlag,
    ScoreOptions,
    flagged,
    score_by_hand,
    seat_scores,
    thresholds_at,
)
from fourhundred.engine import team_of, team_seats
from fourhundred.store import Claimed, GamePlayer, PairGame, PairTotals, Report, Store

from .clock import Clock
from .config import FAIR_PLAY_MODES, FairPlayMode, ServerConfig
from .logs import get_logger

__all__ = [
    "CLAIM_EXPIRY_MS",
    "LOOKBACK_MS",
    "FairPlaySweeper",
    "Scorer",
    "pairs_of",
]

log = get_logger("fourhundred.fairplay")

CLAIM_EXPIRY_MS: Final = 10 * 60 * 1000
"""A claim older than this belongs to a process that died: taken again."""
LOOKBACK_MS: Final = 7 * 24 * 3600 * 1000
"""Games finished longer ago than this are never checked."""

Scorer = Callable[[dict[str, Any], ScoreOptions], Awaitable[list[list[Evidence]]]]
"""Each hand's evidence by seat of a game record (``score_by_hand``)."""


def _score_in_worker(record: dict[str, Any], options: ScoreOptions) -> list[list[dict[str, Any]]]:
    """The detector, in the worker process: each hand's evidence by seat,
    as plain dictionaries."""
    return [[e.to_dict() for e in hand] for hand in score_by_hand(record, options)]


def pairs_of(players: Sequence[GamePlayer]) -> dict[int, tuple[str, str]]:
    """The game's partnerships of two people, by team: both seats held by
    a user and by no bot at the end of the game."""
    by_seat = {p.seat: p for p in players}
    out: dict[int, tuple[str, str]] = {}
    for team in (0, 1):
        seats = [by_seat.get(s) for s in team_seats(team)]
        users = [p.user_id for p in seats if p is not None and p.bot is None and p.user_id]
        if len(users) == 2 and users[0] != users[1]:
            out[team] = (users[0], users[1])
    return out


def _sums(e: Evidence) -> dict[str, float]:
    return {f.name: getattr(e, f.name) for f in fields(e)}


def _report_id() -> str:
    return "r_" + secrets.token_urlsafe(9)


class FairPlaySweeper:
    """Checks finished games (see the module's docstring). ``scorer``
    replaces the detector in its worker process (tests); ``options`` are
    the detector's."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        config: ServerConfig,
        *,
        options: ScoreOptions | None = None,
        scorer: Scorer | None = None,
    ) -> None:
        mode = config.fair_play
        if mode not in FAIR_PLAY_MODES:
            raise ValueError(f"fair play is one of {', '.join(FAIR_PLAY_MODES)}, not {mode!r}")
        self.store = store
        self.clock = clock
        self.mode: FairPlayMode = mode
        self.interval_s = config.fair_play_interval_s
        self.options = options or ScoreOptions()
        self._scorer = scorer or self._score
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    @property
    def kinds(self) -> tuple[str, ...] | None:
        """The kinds of games checked (None: all)."""
        return ("ranked",) if self.mode == "ranked" else None

    async def run(self) -> None:
        """Sweep every ``interval_s`` until cancelled."""
        while True:
            await asyncio.sleep(self.interval_s)
            try:
                await self.sweep()
            except Exception:
                log.exception("fair_play_sweep_failed")

    async def sweep(self) -> int:
        """Check every game there is to check now; how many were."""
        if self.mode == "off":
            return 0
        checked = 0
        while True:
            now = self.clock.now_ms()
            claimed = await self.store.fair_play.claim(
                now, since_ms=now - LOOKBACK_MS, expiry_ms=CLAIM_EXPIRY_MS, kinds=self.kinds
            )
            if claimed is None:
                return checked
            await self.check(claimed)
            checked += 1

    async def check(self, game: Claimed) -> list[Report]:
        """Score one claimed game, add its partnerships' evidence and file
        what is flagged; the reports filed."""
        teams = pairs_of(game.players)
        pairs: list[PairGame] = []
        hands = await self._hands(game) if teams else None
        if hands is not None:
            scores = seat_scores(hands, self.options.threshold, self.options.policy_threshold)
            for team, users in teams.items():
                pair = scores[team_seats(team)[0]].pair
                pairs.append(PairGame(users, len(hands), _sums(pair)))
        seats = {users: team_seats(team) for team, users in teams.items()}
        now = self.clock.now_ms()

        def reports_for(totals: PairTotals) -> list[Report]:
            return self._reports(game, totals, seats, now)

        try:
            filed = await self.store.fair_play.finish(
                game.table_id, game.claimed_ms, now, pairs, reports_for
            )
        except Exception:
            await self.store.fair_play.release(game.table_id, game.claimed_ms)
            raise
        for r in filed or ():
            log.info("fair_play_report", table=game.table_id, user=r.reported, report=r.id)
        return filed or []

    async def _hands(self, game: Claimed) -> list[list[Evidence]] | None:
        """The game's evidence by hand and seat; None for a record the
        detector cannot read (it stays unreadable: the game counts for
        nobody)."""
        if game.record is None:
            return None
        try:
            return await self._scorer(game.record, self.options)
        except asyncio.CancelledError:
            await self.store.fair_play.release(game.table_id, game.claimed_ms)
            raise
        except Exception as e:
            log.warning("fair_play_unscored", table=game.table_id, error=repr(e))
            return None

    def _reports(
        self,
        game: Claimed,
        totals: PairTotals,
        seats: dict[tuple[str, str], tuple[int, int]],
        now_ms: int,
    ) -> list[Report]:
        """A report by the system about each player of a flagged pair."""
        e = Evidence.from_dict(totals.evidence)
        limits = (self.options.threshold, self.options.policy_threshold)
        if not flagged(e, *limits, totals.deals):
            return []
        a, b = totals.users
        pair_seats = seats.get((a, b)) or seats.get((b, a)) or (0, 2)
        flag = FairPlayFlag(
            team_of(pair_seats[0]),
            pair_seats,
            e.z,
            e.decisions,
            e.discriminating,
            e.agree_true,
            e.agree_ref,
            e.policy_z,
        )
        details = {
            "z": round(e.z, 2),
            "policy_z": round(e.policy_z, 2),
            "decisions": e.decisions,
            "games": totals.games,
            "deals": totals.deals,
            "thresholds": [round(t, 2) for t in thresholds_at(totals.deals, *limits)],
            "discriminating": e.discriminating,
            "agree_true": e.agree_true,
            "agree_ref": e.agree_ref,
            "text": flag.text,
        }
        return [
            Report(
                id=_report_id(),
                reporter=None,
                reported=user,
                reason=REASON,
                note=None,
                table_id=game.table_id,
                version=None,
                created_ms=now_ms,
                details={**details, "partner": partner},
            )
            for user, partner in ((a, b), (b, a))
        ]

    async def _score(self, record: dict[str, Any], options: ScoreOptions) -> list[list[Evidence]]:
        """The detector in this sweeper's worker process."""
        if self._pool is None:
            # spawn, not fork (threads and sockets here); the worker goes
            # if this process is killed.
            self._pool = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=die_with_parent
            )
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(self._pool, _score_in_worker, record, options)
        return [[Evidence.from_dict(e) for e in hand] for hand in found]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
