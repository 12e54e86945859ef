"""Reports and a player's own standing (docs/moderation.md): any signed-in
player reports another, with a reason, an optional note and the moment of
a game it is about; ``/api/me/standing`` tells a player their penalty (why
and until when), their latest warning, and whether they moderate."""

from __future__ import annotations

import secrets
from typing import Annotated, Final, Literal

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from fourhundred.store import Report

from .http import ApiError, hub_of, json_response, rate_limit, read_json, require_user

__all__ = ["REASONS", "file_report", "my_standing"]

REASONS: Final = ("cards_shared", "chat_abuse", "leaving", "other")
"""What a person may report; the server's own reports say ``fair_play``."""
MAX_NOTE: Final = 500

Id = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


class ReportBody(msgspec.Struct, forbid_unknown_fields=True):
    user: Id
    reason: Literal["cards_shared", "chat_abuse", "leaving", "other"]
    note: Annotated[str, msgspec.Meta(max_length=MAX_NOTE)] | None = None
    table: Id | None = None
    version: Annotated[int, msgspec.Meta(ge=0, le=2**31 - 1)] | None = None


def new_report_id() -> str:
    return "r_" + secrets.token_urlsafe(9)


async def file_report(request: Request) -> Response:
    reporter = await require_user(request)
    body = await read_json(request, ReportBody)
    hub = hub_of(request)
    if body.user == reporter.id:
        raise ApiError(422, "bad_request", "you cannot report yourself", "user")
    if body.version is not None and body.table is None:
        raise ApiError(422, "bad_request", "a version needs its table", "version")
    reported = await hub.store.get_user(body.user)
    if reported is None:
        raise ApiError(404, "not_found", "no such user", "user")
    if body.table is not None and await hub.store.get_table(body.table) is None:
        raise ApiError(404, "not_found", "no such table", "table")
    note = (body.note or "").strip() or None
    rate_limit(request, "report", reporter.id)
    report = Report(
        id=new_report_id(),
        reporter=reporter.id,
        reported=reported.id,
        reason=body.reason,
        note=note,
        table_id=body.table,
        version=body.version,
        created_ms=hub.clock.now_ms(),
    )
    await hub.store.moderation.file_report(report)
    return json_response({"report": {"id": report.id, "status": report.status}}, 201)


async def my_standing(request: Request) -> Response:
    user = await require_user(request)
    hub = hub_of(request)
    standing = await hub.standings.of(user.id)
    moderator = await hub.store.moderation.is_moderator(user.id)
    return json_response({**standing.json(), "moderator": moderator})
