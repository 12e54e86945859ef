"""Moderation's rows (docs/moderation.md): moderators, reports, penalties,
the audit log, and the chat log.

Every moderator act writes its row and its audit entry in one
transaction, so the audit log holds every act and nothing else. The chat
log keeps each table's lines (as said, unmasked) for :data:`CHAT_KEEP_MS`,
then the hourly purge deletes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import models as m
from .commits import Writer
from .rows import storable

__all__ = [
    "CHAT_KEEP_MS",
    "AuditEntry",
    "ChatLine",
    "ModerationStore",
    "NewPenalty",
    "Penalty",
    "Report",
    "report_row",
]

CHAT_KEEP_MS: Final = 30 * 24 * 3600 * 1000
"""How long the chat log keeps a line (reports are read well within it)."""


@dataclass(frozen=True, slots=True)
class Report:
    id: str
    reporter: str | None
    """None: filed by the server itself (a fair-play check)."""
    reported: str
    reason: str
    note: str | None
    table_id: str | None
    version: int | None
    created_ms: int
    status: str = "open"
    details: dict[str, Any] | None = None
    resolution: str | None = None
    resolved_by: str | None = None
    resolved_ms: int | None = None


@dataclass(frozen=True, slots=True)
class NewPenalty:
    """What a moderator (None: an operator) decided."""

    user_id: str
    kind: str
    until_ms: int | None
    reason: str
    moderator: str | None
    report: str | None
    created_ms: int


@dataclass(frozen=True, slots=True)
class Penalty:
    id: int
    user_id: str
    kind: str
    until_ms: int | None
    reason: str
    moderator: str | None
    report: str | None
    created_ms: int


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    moderator: str | None
    action: str
    target: str | None
    report: str | None
    details: dict[str, Any]
    at_ms: int


@dataclass(frozen=True, slots=True)
class ChatLine:
    table_id: str
    version: int
    user_id: str
    name: str
    channel: str
    text: str
    at_ms: int


def _report(r: Row[Any]) -> Report:
    return Report(
        id=r.id,
        reporter=r.reporter,
        reported=r.reported,
        reason=r.reason,
        note=r.note,
        table_id=r.table_id,
        version=r.version,
        created_ms=r.created_ms,
        status=r.status,
        details=r.details,
        resolution=r.resolution,
        resolved_by=r.resolved_by,
        resolved_ms=r.resolved_ms,
    )


def report_row(report: Report) -> dict[str, Any]:
    """A new report's columns (its resolution comes later)."""
    return {
        "id": report.id,
        "reporter": report.reporter,
        "reported": report.reported,
        "reason": report.reason,
        "note": report.note,
        "table_id": report.table_id,
        "version": report.version,
        "details": report.details,
        "created_ms": report.created_ms,
        "status": report.status,
    }


def _penalty(r: Row[Any]) -> Penalty:
    return Penalty(
        r.id, r.user_id, r.kind, r.until_ms, r.reason, r.moderator, r.report, r.created_ms
    )


def _entry(r: Row[Any]) -> AuditEntry:
    return AuditEntry(r.id, r.moderator, r.action, r.target, r.report, r.details, r.at_ms)


async def _audit(conn: AsyncConnection, action: str, target: str | None, **values: Any) -> None:
    """One audit entry: ``moderator``, ``at_ms`` and maybe ``report`` and
    ``details`` in ``values``."""
    values.setdefault("details", {})
    await conn.execute(m.audit.insert().values(action=action, target=target, **values))


class ModerationStore:
    """The moderation queries (``store.moderation``)."""

    def __init__(self, engine: AsyncEngine, writer: Writer) -> None:
        self.engine = engine
        self._writer = writer

    # ------------------------------------------------------ moderators

    async def is_moderator(self, user_id: str) -> bool:
        if not storable(user_id):
            return False
        q = sa.select(m.moderators.c.user_id).where(m.moderators.c.user_id == user_id)
        async with self.engine.connect() as conn:
            return (await conn.execute(q)).first() is not None

    async def set_moderator(
        self, user_id: str, moderator: bool, now_ms: int, *, by: str | None
    ) -> bool:
        """Grant or revoke the role (audited); False if nothing changed."""
        c = m.moderators.c
        async with self._writer.write() as conn:
            had = (
                await conn.execute(sa.select(c.user_id).where(c.user_id == user_id))
            ).first() is not None
            if had == moderator:
                return False
            if moderator:
                await conn.execute(m.moderators.insert().values(user_id=user_id, granted_ms=now_ms))
            else:
                await conn.execute(m.moderators.delete().where(c.user_id == user_id))
            action = "grant_moderator" if moderator else "revoke_moderator"
            await _audit(conn, action, user_id, moderator=by, at_ms=now_ms)
        return True

    # --------------------------------------------------------- reports

    async def file_report(self, report: Report) -> None:
        async with self._writer.write() as conn:
            await conn.execute(m.reports.insert().values(**report_row(report)))

    async def reports(self, status: str | None, limit: int) -> list[Report]:
        """Reports, oldest first (the queue's order); all if ``status`` is None."""
        c = m.reports.c
        q = m.reports.select().order_by(c.created_ms, c.id).limit(limit)
        if status is not None:
            q = q.where(c.status == status)
        async with self.engine.connect() as conn:
            return [_report(r) for r in (await conn.execute(q)).all()]

    async def report(self, report_id: str) -> Report | None:
        if not storable(report_id):
            return None
        q = m.reports.select().where(m.reports.c.id == report_id)
        async with self.engine.connect() as conn:
            row = (await conn.execute(q)).first()
        return None if row is None else _report(row)

    async def reports_against(self, user_id: str, limit: int) -> list[Report]:
        """The reports about a player, newest first."""
        c = m.reports.c
        q = (
            m.reports.select()
            .where(c.reported == user_id)
            .order_by(c.created_ms.desc(), c.id)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [_report(r) for r in (await conn.execute(q)).all()]

    async def resolve(self, report_id: str, resolution: str, by: str | None, now_ms: int) -> bool:
        """Close an open report (audited); False if it was not open."""
        c = m.reports.c
        async with self._writer.write() as conn:
            done = await conn.execute(
                m.reports.update()
                .where(c.id == report_id, c.status == "open")
                .values(
                    status="resolved", resolution=resolution, resolved_by=by, resolved_ms=now_ms
                )
            )
            if not done.rowcount:
                return False
            row = (await conn.execute(sa.select(c.reported).where(c.id == report_id))).one()
            await _audit(
                conn,
                "resolve",
                row.reported,
                moderator=by,
                at_ms=now_ms,
                report=report_id,
                details={"resolution": resolution},
            )
        return True

    # ------------------------------------------------------- penalties

    async def penalise(self, p: NewPenalty) -> Penalty:
        """Record a penalty and its audit entry at once."""
        async with self._writer.write() as conn:
            result = await conn.execute(
                m.penalties.insert().values(
                    user_id=p.user_id,
                    kind=p.kind,
                    until_ms=p.until_ms,
                    reason=p.reason,
                    moderator=p.moderator,
                    report=p.report,
                    created_ms=p.created_ms,
                )
            )
            (pid,) = result.inserted_primary_key or (0,)
            details = {"kind": p.kind, "until_ms": p.until_ms, "reason": p.reason}
            await _audit(
                conn,
                p.kind,
                p.user_id,
                moderator=p.moderator,
                at_ms=p.created_ms,
                report=p.report,
                details=details,
            )
        return Penalty(int(pid), *_fields(p))

    async def penalties(self, user_id: str) -> list[Penalty]:
        """A player's penalties, newest first."""
        if not storable(user_id):
            return []
        c = m.penalties.c
        q = m.penalties.select().where(c.user_id == user_id).order_by(c.created_ms.desc(), c.id)
        async with self.engine.connect() as conn:
            return [_penalty(r) for r in (await conn.execute(q)).all()]

    # ----------------------------------------------------------- audit

    async def audit(self, limit: int, before_id: int | None = None) -> list[AuditEntry]:
        """The audit log, newest first."""
        c = m.audit.c
        q = m.audit.select().order_by(c.id.desc()).limit(limit)
        if before_id is not None:
            q = q.where(c.id < before_id)
        async with self.engine.connect() as conn:
            return [_entry(r) for r in (await conn.execute(q)).all()]

    # ------------------------------------------------------------ chat

    async def log_chat(self, lines: Sequence[ChatLine]) -> None:
        if not lines:
            return
        async with self._writer.write() as conn:
            await conn.execute(
                m.chat_log.insert(),
                [
                    {
                        "table_id": x.table_id,
                        "version": x.version,
                        "user_id": x.user_id,
                        "name": x.name,
                        "channel": x.channel,
                        "text": x.text,
                        "at_ms": x.at_ms,
                    }
                    for x in lines
                ],
            )

    async def chat_around(self, table_id: str, at_ms: int, each_side: int) -> list[ChatLine]:
        """Up to ``each_side`` lines of a table before ``at_ms`` and after it,
        oldest first."""
        if not storable(table_id):
            return []
        c = m.chat_log.c
        base = sa.select(
            c.table_id, c.version, c.user_id, c.name, c.channel, c.text, c.at_ms, c.id
        ).where(c.table_id == table_id)
        before = base.where(c.at_ms <= at_ms).order_by(c.at_ms.desc(), c.id.desc()).limit(each_side)
        after = base.where(c.at_ms > at_ms).order_by(c.at_ms, c.id).limit(each_side)
        async with self.engine.connect() as conn:
            rows = [
                *reversed((await conn.execute(before)).all()),
                *(await conn.execute(after)).all(),
            ]
        return [ChatLine(*r[:7]) for r in rows]

    async def moment_ms(self, table_id: str, version: int) -> int | None:
        """When a table reached ``version`` (its event's time), if it did."""
        if not storable(table_id):
            return None
        e = m.table_events.c
        q = sa.select(e.at_ms).where(e.table_id == table_id, e.version == version)
        async with self.engine.connect() as conn:
            row = (await conn.execute(q)).first()
        return None if row is None else int(row.at_ms)

    async def purge_chat(self, before_ms: int) -> int:
        """Delete chat lines older than ``before_ms``; how many went."""
        async with self._writer.write() as conn:
            done = await conn.execute(m.chat_log.delete().where(m.chat_log.c.at_ms < before_ms))
        return int(done.rowcount or 0)


def _fields(p: NewPenalty) -> tuple[str, str, int | None, str, str | None, str | None, int]:
    return (p.user_id, p.kind, p.until_ms, p.reason, p.moderator, p.report, p.created_ms)
