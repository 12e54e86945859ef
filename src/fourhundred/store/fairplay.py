"""Fair play's rows (docs/fair-play.md, "Reports"): which finished games
have been checked, and each partnership's evidence over its games together.

A game is **claimed** by one process at a time: the claim is an update
that only succeeds on a game nobody checked and nobody claimed within
``expiry_ms`` (so a process that died mid-check leaves a claim that is
taken again later), which holds with several processes on one PostgreSQL.
:meth:`FairPlayStore.finish` then, in one transaction, marks the game
checked (only under the same claim: a game is counted once), adds its
evidence to each partnership's sums and files the reports the caller
decides on, at most one set of open reports per partnership.

The evidence is kept as the sums of ``fourhundred.bots.fairplay.Evidence``
(:data:`EVIDENCE_FIELDS`): the store does not know the detector, only its
numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import models as m
from .commits import Writer
from .moderation import Report, report_row
from .rows import GamePlayer, player_of

__all__ = [
    "EVIDENCE_FIELDS",
    "Claimed",
    "FairPlayStore",
    "PairGame",
    "PairTotals",
    "ReportsFor",
]

EVIDENCE_FIELDS: Final = (
    "decisions",
    "llr",
    "llr_sq",
    "gain",
    "discriminating",
    "agree_true",
    "agree_ref",
    "hand_sq",
    "policy_decisions",
    "policy",
    "policy_hand_sq",
)
"""The evidence's sums, one column each."""

CANDIDATES: Final = 8
"""Unchecked games looked at per claim (another process may win some)."""


@dataclass(frozen=True, slots=True)
class Claimed:
    """A finished game this process now checks: its claim's time (to
    finish or release it with), kind, record and players."""

    table_id: str
    claimed_ms: int
    kind: str
    record: dict[str, Any] | None
    players: tuple[GamePlayer, ...]


@dataclass(frozen=True, slots=True)
class PairGame:
    """One game's evidence of a partnership of two people."""

    users: tuple[str, str]
    deals: int
    evidence: Mapping[str, float]
    """:data:`EVIDENCE_FIELDS` to their values."""


@dataclass(frozen=True, slots=True)
class PairTotals:
    """A partnership's evidence over all its checked games together."""

    users: tuple[str, str]
    games: int
    deals: int
    evidence: dict[str, float]
    reports: tuple[str, ...]
    """The reports last filed about the pair (none yet: empty)."""


ReportsFor = Callable[[PairTotals], Sequence[Report]]
"""What to file about a partnership given its new totals (nothing: an
empty list); asked only when none of its last reports is still open."""


def ordered(a: str, b: str) -> tuple[str, str]:
    """A partnership's key: its two user ids in order."""
    return (a, b) if a <= b else (b, a)


def _totals(row: Any) -> PairTotals:
    return PairTotals(
        users=(row.user_a, row.user_b),
        games=int(row.games),
        deals=int(row.deals),
        evidence={f: getattr(row, f) for f in EVIDENCE_FIELDS},
        reports=tuple(row.reports or ()),
    )


class FairPlayStore:
    """The fair-play queries (``store.fair_play``)."""

    def __init__(self, engine: AsyncEngine, writer: Writer) -> None:
        self.engine = engine
        self._writer = writer

    async def claim(
        self, now_ms: int, *, since_ms: int, expiry_ms: int, kinds: Sequence[str] | None
    ) -> Claimed | None:
        """Claim the oldest game won (not abandoned) since ``since_ms`` of
        one of ``kinds`` (None: every kind) that is not checked and not
        claimed within ``expiry_ms``; None when there is none."""
        t = m.tables.c
        free = sa.and_(
            t.fair_play_checked_ms.is_(None),
            sa.or_(t.fair_play_claimed_ms.is_(None), t.fair_play_claimed_ms < now_ms - expiry_ms),
        )
        q = (
            sa.select(t.id)
            .where(free, t.finished_ms >= since_ms, t.reason == "won")
            .order_by(t.finished_ms, t.id)
            .limit(CANDIDATES)
        )
        if kinds is not None:
            q = q.where(t.kind.in_(kinds))
        async with self.engine.connect() as conn:
            ids = [r.id for r in (await conn.execute(q)).all()]
        for table_id in ids:
            async with self._writer.write() as conn:
                won = await conn.execute(
                    m.tables.update()
                    .where(t.id == table_id, free)
                    .values(fair_play_claimed_ms=now_ms)
                )
            if won.rowcount == 1:
                return await self._claimed(table_id, now_ms)
        return None

    async def _claimed(self, table_id: str, now_ms: int) -> Claimed:
        t, g = m.tables.c, m.game_players.c
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(t.kind, t.record).where(t.id == table_id))).one()
            players = (
                await conn.execute(
                    m.game_players.select().where(g.table_id == table_id).order_by(g.seat)
                )
            ).all()
        record = row.record if isinstance(row.record, dict) else None
        return Claimed(table_id, now_ms, row.kind, record, tuple(player_of(p) for p in players))

    async def release(self, table_id: str, claimed_ms: int) -> None:
        """Give up a claim (the check failed for a reason that may pass):
        the game is claimed again at the next sweep."""
        t = m.tables.c
        async with self._writer.write() as conn:
            await conn.execute(
                m.tables.update()
                .where(t.id == table_id, t.fair_play_claimed_ms == claimed_ms)
                .values(fair_play_claimed_ms=None)
            )

    async def finish(
        self,
        table_id: str,
        claimed_ms: int,
        now_ms: int,
        pairs: Sequence[PairGame],
        reports_for: ReportsFor,
    ) -> list[Report] | None:
        """Mark the game checked, add ``pairs`` to their partnerships' sums
        and file the reports ``reports_for`` asks for, all at once; the
        reports filed, or None (nothing written) when the claim was lost
        (expired and taken by another process)."""
        t = m.tables.c
        filed: list[Report] = []
        async with self._writer.write() as conn:
            done = await conn.execute(
                m.tables.update()
                .where(
                    t.id == table_id,
                    t.fair_play_claimed_ms == claimed_ms,
                    t.fair_play_checked_ms.is_(None),
                )
                .values(fair_play_checked_ms=now_ms)
            )
            if done.rowcount != 1:
                return None
            # One order for every process: two games never lock pairs crosswise.
            for pair in sorted(pairs, key=lambda p: ordered(*p.users)):
                totals = await self._add(conn, pair, now_ms)
                if await self._any_open(conn, totals.reports):
                    continue
                new = list(reports_for(totals))
                if new:
                    await conn.execute(m.reports.insert(), [report_row(r) for r in new])
                    await self._set_reports(conn, totals.users, [r.id for r in new])
                    filed.extend(new)
        return filed

    async def _add(self, conn: AsyncConnection, pair: PairGame, now_ms: int) -> PairTotals:
        p = m.fair_play_pairs.c
        a, b = ordered(*pair.users)
        key = sa.and_(p.user_a == a, p.user_b == b)
        added = await conn.execute(
            m.fair_play_pairs.update()
            .where(key)
            .values(
                games=p.games + 1,
                deals=p.deals + pair.deals,
                updated_ms=now_ms,
                **{f: p[f] + pair.evidence[f] for f in EVIDENCE_FIELDS},
            )
        )
        if added.rowcount != 1:
            # A new pair. Another process adding the same new pair at the
            # same moment makes this insert fail: that game's claim then
            # lapses and it is checked again.
            await conn.execute(
                m.fair_play_pairs.insert().values(
                    user_a=a,
                    user_b=b,
                    games=1,
                    deals=pair.deals,
                    updated_ms=now_ms,
                    **{f: pair.evidence[f] for f in EVIDENCE_FIELDS},
                )
            )
        row = (await conn.execute(m.fair_play_pairs.select().where(key).with_for_update())).one()
        return _totals(row)

    @staticmethod
    async def _any_open(conn: AsyncConnection, report_ids: Sequence[str]) -> bool:
        if not report_ids:
            return False
        r = m.reports.c
        q = sa.select(sa.func.count()).where(r.id.in_(report_ids), r.status == "open")
        return int((await conn.execute(q)).scalar_one()) > 0

    @staticmethod
    async def _set_reports(conn: AsyncConnection, users: tuple[str, str], ids: list[str]) -> None:
        p = m.fair_play_pairs.c
        await conn.execute(
            m.fair_play_pairs.update()
            .where(p.user_a == users[0], p.user_b == users[1])
            .values(reports=ids)
        )

    async def pair(self, a: str, b: str) -> PairTotals | None:
        """A partnership's sums (either order of the two ids)."""
        p = m.fair_play_pairs.c
        x, y = ordered(a, b)
        q = m.fair_play_pairs.select().where(p.user_a == x, p.user_b == y)
        async with self.engine.connect() as conn:
            row = (await conn.execute(q)).first()
        return None if row is None else _totals(row)
