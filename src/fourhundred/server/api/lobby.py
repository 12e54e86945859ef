"""Rules and the lobby: the presets catalogue, tables, invites and the
Ranked queue."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from fourhundred.engine import PRESET_NOTES, PRESETS, TURN_TIMERS
from fourhundred.engine.settings import (
    SETTING_CHOICES,
    SETTING_RANGES,
    SETTING_SWITCHES,
    TARGETS_OFFERED,
)
from fourhundred.store import TableRow, User
from fourhundred.store.accounts import scrubbed, seated_users

from ..errors import CommandError
from ..limits import RateLimited
from .http import (
    ApiError,
    check_standing,
    client_address,
    current_user,
    hub_of,
    int_param,
    json_response,
    limits_of,
    rate_limited,
    read_json,
    require_user,
)


class CreateTableBody(msgspec.Struct, forbid_unknown_fields=True):
    kind: str
    preset: str = "standard"
    settings: dict[str, Any] = msgspec.field(default_factory=dict)
    timer: int = 30


# ----------------------------------------------------------------- helpers


def presets_json() -> dict[str, Any]:
    """``GET /api/presets``: everything a client needs to offer the rules
    (the presets, every setting's range, choices or switch, the targets
    offered, the turn timers, the bots), all from the engine's exports."""
    from fourhundred.bots import BOTS

    return {
        "presets": [
            {"name": name, "note": PRESET_NOTES.get(name, ""), "settings": s.to_dict()}
            for name, s in PRESETS.items()
        ],
        "timers": list(TURN_TIMERS),
        "targets_offered": list(TARGETS_OFFERED),
        "ranges": {k: list(v) for k, v in SETTING_RANGES.items()},
        "choices": {k: list(v) for k, v in SETTING_CHOICES.items()},
        "switches": list(SETTING_SWITCHES),
        "bots": sorted(BOTS),
    }


async def presets(request: Request) -> Response:
    return json_response(presets_json())


async def list_tables(request: Request) -> Response:
    hub = hub_of(request)
    status = request.query_params.get("status", "waiting")
    limit = int_param(request, "limit", 50, 1, 200)
    if status == "waiting":
        rows = await hub.store.list_tables(
            statuses=("waiting",), kinds=("casual",), open_only=True, limit=limit
        )
    elif status == "playing":
        rows = await hub.store.list_tables(
            statuses=("playing",), kinds=("casual", "ranked"), open_only=False, limit=limit
        )
    else:
        raise ApiError(422, "bad_request", "status must be 'waiting' or 'playing'", "status")
    return json_response({"tables": await _shown(request, rows)})


async def _shown(request: Request, rows: list[TableRow]) -> list[dict[str, Any]]:
    """The rows' summaries, a deleted account's seat named as such (a live
    table still knows the name it had)."""
    hub = hub_of(request)
    summaries = [hub.summary_of(r) for r in rows]
    ids = set().union(*(seated_users(s) for s in summaries))
    users = await hub.store.get_users(ids)
    deleted = {i for i, u in users.items() if u.deleted}
    return [scrubbed(s, deleted) for s in summaries]


async def create_table(request: Request) -> Response:
    user = await require_user(request)
    body = await read_json(request, CreateTableBody)
    await check_standing(request, user.id, "play")
    hub = hub_of(request)
    limits = limits_of(request)
    address = client_address(request)
    # Tables open one at a time in this process (``opening``), so a check
    # then a take counts only tables made: refused settings spend nothing.
    try:
        async with limits.rooms.opening(hub.store.accounts, address, user.id) as made:
            limits.check("table", user.id)
            row = await hub.create_table(user, body.kind, body.preset, body.settings, body.timer)
            limits.take("table", user.id)
            made.append(row.id)
    except CommandError as e:
        raise ApiError.of(e) from None
    except RateLimited as e:
        raise rate_limited(e) from None
    out: dict[str, Any] = {"table": hub.summary_of(row)}
    if row.invite is not None:
        out["invite"] = row.invite
        out["invite_url"] = f"/?invite={row.invite}"
    return json_response(out, 201)


def _seated(row: TableRow, user: User | None) -> bool:
    return user is not None and any(
        s.get("user") and s["user"]["id"] == user.id for s in row.summary.get("seats", ())
    )


async def get_table(request: Request) -> Response:
    hub = hub_of(request)
    row = await hub.store.get_table(request.path_params["table_id"])
    if row is not None and row.kind == "private":
        invite = request.query_params.get("invite")
        if invite != row.invite and not _seated(row, await current_user(request)):
            row = None
    if row is None:
        raise ApiError(404, "not_found", "no such table")
    return json_response({"table": (await _shown(request, [row]))[0]})


async def get_invite(request: Request) -> Response:
    hub = hub_of(request)
    code = request.path_params["code"]
    row = await hub.store.table_by_invite(code) if len(code) <= 64 else None
    if row is None:
        raise ApiError(404, "not_found", "no table has this invite code")
    return json_response({"table": hub.summary_of(row), "invite": code})


# ------------------------------------------------------------------ queue


async def queue(request: Request) -> Response:
    user = await require_user(request)
    hub = hub_of(request)
    try:
        if request.method == "POST":
            await check_standing(request, user.id, "play")
            return json_response(await hub.queue_join(user))
        if request.method == "DELETE":
            await hub.queue_leave(user.id)
            return Response(status_code=204)
        return json_response(await hub.queue_status(user.id))
    except CommandError as e:
        raise ApiError.of(e) from None


# ------------------------------------------------------------------ games
