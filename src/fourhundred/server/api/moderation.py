"""The moderators' endpoints (docs/moderation.md; ``403`` for anyone
else): open reports, one report with the game, the chat around its moment
and the reported player's history, actions on a player (the escalation's
next step proposed), resolving a report, and the audit log."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Final, Literal

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from fourhundred.engine import record_from_state
from fourhundred.store import AuditEntry, NewPenalty, Penalty, Report, Store, User

from .. import frames
from ..room import rebuild
from ..standing import MAX_HOURS, propose, standing_of, until_of
from .games import game_json
from .http import ApiError, hub_of, int_param, json_response, read_json, require_user, user_json

__all__ = ["audit_log", "list_reports", "penalise", "report_detail", "resolve_report"]

CHAT_EACH_SIDE: Final = 30
"""Chat lines shown before and after a reported moment."""

Text = Annotated[str, msgspec.Meta(min_length=1, max_length=500)]


class ActionBody(msgspec.Struct, forbid_unknown_fields=True):
    kind: Literal["warn", "mute", "suspend", "ban"]
    reason: Text
    hours: Annotated[int, msgspec.Meta(ge=1, le=MAX_HOURS)] | None = None
    report: Annotated[str, msgspec.Meta(max_length=32)] | None = None


class ResolveBody(msgspec.Struct, forbid_unknown_fields=True):
    resolution: Text


async def require_moderator(request: Request) -> User:
    user = await require_user(request)
    if not await hub_of(request).store.moderation.is_moderator(user.id):
        raise ApiError(403, "forbidden", "only moderators may do this")
    return user


async def _users(store: Store, ids: Iterable[str | None]) -> dict[str, Any]:
    users = await store.get_users(i for i in ids if i)
    return {i: user_json(u) for i, u in users.items()}


def _partner(r: Report) -> str | None:
    """A fair-play report's other player (the partnership's), if any."""
    partner = (r.details or {}).get("partner")
    return partner if isinstance(partner, str) else None


def _report_json(r: Report, users: dict[str, Any]) -> dict[str, Any]:
    partner = _partner(r)
    return {
        "id": r.id,
        "reporter": users.get(r.reporter) if r.reporter else None,
        "system": r.reporter is None,
        "partner": users.get(partner) if partner else None,
        "reported": users.get(r.reported) or {"id": r.reported, "name": "?"},
        "reason": r.reason,
        "note": r.note,
        "table": r.table_id,
        "version": r.version,
        "details": r.details,
        "created_ms": r.created_ms,
        "status": r.status,
        "resolution": r.resolution,
        "resolved_by": users.get(r.resolved_by) if r.resolved_by else None,
        "resolved_ms": r.resolved_ms,
    }


def _penalty_json(p: Penalty, users: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": p.id,
        "kind": p.kind,
        "until_ms": p.until_ms,
        "reason": p.reason,
        "moderator": users.get(p.moderator) if p.moderator else None,
        "report": p.report,
        "created_ms": p.created_ms,
    }


async def list_reports(request: Request) -> Response:
    await require_moderator(request)
    status = request.query_params.get("status", "open")
    if status not in ("open", "resolved", "all"):
        raise ApiError(422, "bad_request", "status must be open, resolved or all", "status")
    limit = int_param(request, "limit", 100, 1, 500)
    store = hub_of(request).store
    reports = await store.moderation.reports(None if status == "all" else status, limit)
    users = await _users(store, [x for r in reports for x in (r.reporter, r.reported, _partner(r))])
    return json_response({"reports": [_report_json(r, users) for r in reports]})


async def _moment_ms(store: Store, r: Report) -> int:
    """When the reported moment was: its event's time, else the report's."""
    if r.table_id is not None and r.version is not None:
        at = await store.moderation.moment_ms(r.table_id, r.version)
        if at is not None:
            return at
    return r.created_ms


async def _game(store: Store, table_id: str | None) -> dict[str, Any] | None:
    row = None if table_id is None else await store.get_table(table_id)
    if row is None:
        return None
    out: dict[str, Any] = {"id": row.id, "kind": row.kind, "status": row.status}
    if row.status == "over":
        players = await store.game_players(row.id)
        users = await store.get_users(gp.user_id for gp in players if gp.user_id)
        out |= {"game": game_json(row, players, users), "record": row.record}
        out["replay_url"] = f"/#/replay/{row.id}"
    elif row.status == "playing":
        # The game so far, every hand face up, from its stored log.
        try:
            model = rebuild(row.id, await store.load_events(row.id))
        except ValueError:
            return out
        if model.game is not None:
            out["record"] = record_from_state(model.game).to_dict()
        out["seats"] = [s.get("user") for s in row.summary.get("seats", ())]
    return out


async def report_detail(request: Request) -> Response:
    await require_moderator(request)
    hub = hub_of(request)
    store = hub.store
    r = await store.moderation.report(request.path_params["report_id"])
    if r is None:
        raise ApiError(404, "not_found", "no such report")
    moment = await _moment_ms(store, r)
    chat = (
        []
        if r.table_id is None
        else await store.moderation.chat_around(r.table_id, moment, CHAT_EACH_SIDE)
    )
    past = await store.moderation.reports_against(r.reported, 50)
    penalties = await store.moderation.penalties(r.reported)
    games = await store.games_of(r.reported, 10)
    ids = [x for p in [r, *past] for x in (p.reporter, p.reported, p.resolved_by, _partner(p))]
    users = await _users(store, [*ids, *(p.moderator for p in penalties), r.resolved_by])
    kind, hours = propose(penalties)
    return json_response(
        {
            "report": _report_json(r, users),
            "moment_ms": moment,
            "game": await _game(store, r.table_id),
            "chat": [
                {"user": c.user_id, "name": c.name, "channel": c.channel, "text": c.text}
                | {"version": c.version, "at_ms": c.at_ms}
                for c in chat
            ],
            "history": {
                "reports": [_report_json(p, users) for p in past if p.id != r.id],
                "penalties": [_penalty_json(p, users) for p in penalties],
                "standing": standing_of(penalties, hub.clock.now_ms()).json(),
                "games": [
                    {"id": row.id, "finished_ms": row.finished_ms, "reason": row.reason}
                    for row, _ in games
                ],
            },
            "proposal": {"kind": kind, "hours": hours},
        }
    )


async def penalise(request: Request) -> Response:
    moderator = await require_moderator(request)
    body = await read_json(request, ActionBody)
    hub = hub_of(request)
    target = await hub.store.get_user(request.path_params["user_id"])
    if target is None:
        raise ApiError(404, "not_found", "no such user")
    if target.id == moderator.id:
        raise ApiError(422, "bad_request", "you cannot act on yourself")
    if body.hours is not None and body.kind in ("warn", "ban"):
        raise ApiError(422, "bad_request", f"a {body.kind} takes no hours", "hours")
    if body.report is not None and await hub.store.moderation.report(body.report) is None:
        raise ApiError(404, "not_found", "no such report", "report")
    now = hub.clock.now_ms()
    p = await hub.store.moderation.penalise(
        NewPenalty(
            user_id=target.id,
            kind=body.kind,
            until_ms=until_of(body.kind, body.hours, now),
            reason=body.reason.strip() or body.reason,
            moderator=moderator.id,
            report=body.report,
            created_ms=now,
        )
    )
    hub.standings.forget(target.id)
    # Told at once if their socket is on this process; else at the next page.
    hub.sockets.notify(target.id, frames.StandingChanged(kind=body.kind))
    users = await _users(hub.store, [moderator.id])
    penalties = await hub.store.moderation.penalties(target.id)
    kind, hours = propose(penalties)
    return json_response(
        {"penalty": _penalty_json(p, users), "proposal": {"kind": kind, "hours": hours}}, 201
    )


async def resolve_report(request: Request) -> Response:
    moderator = await require_moderator(request)
    body = await read_json(request, ResolveBody)
    hub = hub_of(request)
    report_id = request.path_params["report_id"]
    r = await hub.store.moderation.report(report_id)
    if r is None:
        raise ApiError(404, "not_found", "no such report")
    done = await hub.store.moderation.resolve(
        r.id, body.resolution.strip() or body.resolution, moderator.id, hub.clock.now_ms()
    )
    if not done:
        raise ApiError(409, "conflict", "this report is already resolved")
    return json_response({"report": {"id": r.id, "status": "resolved"}})


def _entry_json(e: AuditEntry, users: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": e.id,
        "moderator": users.get(e.moderator) if e.moderator else None,
        "action": e.action,
        "target": users.get(e.target) if e.target else None,
        "report": e.report,
        "details": e.details,
        "at_ms": e.at_ms,
    }


async def audit_log(request: Request) -> Response:
    await require_moderator(request)
    limit = int_param(request, "limit", 100, 1, 500)
    before = request.query_params.get("before")
    before_id = int_param(request, "before", 0, 0, 2**62) if before is not None else None
    store = hub_of(request).store
    entries = await store.moderation.audit(limit, before_id)
    users = await _users(store, [x for e in entries for x in (e.moderator, e.target)])
    return json_response({"entries": [_entry_json(e, users) for e in entries]})
