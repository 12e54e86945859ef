"""Tournaments over HTTP (docs/protocol.md, "Tournaments"): the list, a
tournament's DETAIL, creating one, entering, checking in, the organiser's
acts and the results export.

Every act goes to the tournament's director (:mod:`..competitions`), which
judges it with the pure ``decide``; a refusal is a 4xx naming the problem
and changes nothing. Results are never taken from a client.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from fourhundred.store import User

from ..competitions import commands as c
from ..competitions.detail import export_csv, export_json
from ..competitions.directors import View
from ..errors import CommandError
from ..ratelimit import TokenBucket
from ..ratings import display
from .http import (
    ApiError,
    check_standing,
    current_user,
    hub_of,
    json_response,
    read_json,
    require_user,
)

__all__ = [
    "act",
    "create_tournament",
    "export",
    "get_tournament",
    "get_tournament_invite",
    "list_tournaments",
    "report",
]

_CONFLICTS: Final = frozenset(
    {
        "already_entered",
        "full",
        "partner_taken",
        "wrong_phase",
        "already_checked_in",
        "not_entered",
        "not_invited",
        "too_early",
        "round_incomplete",
        "paused",
        "not_paused",
        "too_few_teams",
        "unknown_team",
        "exists",
    }
)
_TO_PLAY: Final = (c.EnterSolo, c.EnterTeam, c.AcceptPartner, c.CheckIn)
"""What a suspended or banned player may not do (docs/moderation.md,
"Enforcement"): they may still withdraw."""
_STATUSES: Final = {
    "upcoming": ("open",),
    "running": ("running",),
    "finished": ("finished", "cancelled"),
}

Name = Annotated[str, msgspec.Meta(max_length=200)]
TeamId = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


class CreateBody(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    format: Literal["knockout", "swiss"]
    max_teams: int
    start_ms: int
    rounds: int | None = None
    public: bool = True
    preset: Annotated[str, msgspec.Meta(max_length=64)] = "standard"
    settings: dict[str, Any] = msgspec.field(default_factory=dict)
    timer: int = 30


class EnterBody(msgspec.Struct, forbid_unknown_fields=True):
    partner: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | None = None
    solo: bool = False


class TeamBody(msgspec.Struct, forbid_unknown_fields=True):
    team: TeamId


def _api(e: CommandError) -> ApiError:
    if e.code in _CONFLICTS:
        return ApiError(409, e.code, e.message)
    if e.code == "bad_settings":
        return ApiError(422, e.code, e.message, "settings")
    return ApiError.of(e)


def _limit(request: Request, user: User) -> None:
    """Tournament requests per user: a flood is refused (429), not queued."""
    hub = hub_of(request)
    state = request.app.state
    buckets: dict[str, TokenBucket] = state.__dict__.setdefault("tournament_buckets", {})
    now = hub.clock.monotonic()
    bucket = buckets.get(user.id)
    if bucket is None:
        if len(buckets) > 100_000:
            buckets.clear()
        per_minute = hub.config.tournament_limit_per_minute
        bucket = buckets[user.id] = TokenBucket(per_minute / 60, per_minute, now)
    if not bucket.take(now):
        wait = max(1, round(bucket.retry_after()))
        raise ApiError(
            429,
            "rate_limited",
            f"too many tournament requests: try again in {wait} s",
            headers={"Retry-After": str(wait)},
        )


async def _registered(request: Request) -> User:
    user = await require_user(request)
    if user.guest:
        raise ApiError(403, "forbidden", "tournaments need an account: register or log in")
    _limit(request, user)
    return user


async def _view(request: Request, tid: str, invite: str | None = None) -> View:
    """The tournament, if the caller may see it (a private one: with its
    invite, or its organiser or an entrant); else 404."""
    hub = hub_of(request)
    view = await hub.directors.view(tid)
    if view is not None and not view.row.public:
        user = await current_user(request)
        code = invite if invite is not None else request.query_params.get("invite")
        if code != view.row.invite and not (user is not None and view.names(user.id)):
            view = None
    if view is None:
        raise ApiError(404, "not_found", "no such tournament")
    return view


def _detail(request: Request, view: View) -> dict[str, Any]:
    return view.detail(hub_of(request).directors.wait_ms)


# ----------------------------------------------------------------- reading


async def list_tournaments(request: Request) -> Response:
    hub = hub_of(request)
    status = request.query_params.get("status", "upcoming")
    statuses = _STATUSES.get(status)
    if statuses is None:
        raise ApiError(
            422, "bad_request", "status must be 'upcoming', 'running' or 'finished'", "status"
        )
    rows = await hub.store.tournaments.listed(statuses)
    return json_response({"tournaments": [r.summary for r in rows]})


async def get_tournament(request: Request) -> Response:
    view = await _view(request, request.path_params["tid"])
    return json_response({"tournament": _detail(request, view)})


async def get_tournament_invite(request: Request) -> Response:
    hub = hub_of(request)
    code = request.path_params["code"]
    row = await hub.store.tournaments.by_invite(code)
    if row is None:
        raise ApiError(404, "not_found", "no tournament has this invite code")
    view = await _view(request, row.id, code)
    return json_response({"tournament": _detail(request, view), "invite": code})


async def export(request: Request) -> Response:
    view = await _view(request, request.path_params["tid"])
    tid, m, people = view.row.id, view.model, view.people
    fmt = request.path_params["fmt"]
    if fmt not in ("json", "csv"):
        raise ApiError(404, "not_found", "the export is export.json or export.csv")
    if fmt == "csv":
        return Response(
            export_csv(tid, m, people),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="tournament-{tid}.csv"'},
        )
    return json_response(export_json(tid, m, people))


# ---------------------------------------------------------------- changing


async def create_tournament(request: Request) -> Response:
    user = await _registered(request)
    await check_standing(request, user.id, "play")
    body = await read_json(request, CreateBody)
    hub = hub_of(request)
    command = c.Create(
        name=body.name,
        format=body.format,
        max_teams=body.max_teams,
        start_ms=body.start_ms,
        rounds=body.rounds,
        public=body.public,
        preset=body.preset,
        settings=body.settings,
        timer=body.timer,
    )
    try:
        row, view = await hub.directors.create(user.id, command, invite=not body.public)
    except CommandError as e:
        raise _api(e) from None
    out: dict[str, Any] = {"tournament": _detail(request, view)}
    if row.invite is not None:
        out["invite"] = row.invite
        out["invite_url"] = f"/?tournament={row.invite}"
    return json_response(out, 201)


async def _enter(request: Request) -> c.Command:
    body = await read_json(request, EnterBody)
    if (body.partner is None) == (not body.solo):
        raise ApiError(
            422, "bad_request", 'send exactly one of "partner" (a username) or "solo": true'
        )
    if body.partner is None:
        return c.EnterSolo()
    partner = await hub_of(request).store.get_user_by_username(body.partner)
    if partner is None:
        raise ApiError(404, "not_found", f"no player is named {body.partner!r}", "partner")
    return c.EnterTeam(partner=partner.id)


async def _team(request: Request) -> str:
    return (await read_json(request, TeamBody)).team


async def _command(request: Request, action: str) -> c.Command:
    match action:
        case "enter":
            return await _enter(request)
        case "accept":
            return c.AcceptPartner(team=await _team(request))
        case "remove":
            return c.RemoveTeam(team=await _team(request))
    simple: dict[str, c.Command] = {
        "check-in": c.CheckIn(),
        "withdraw": c.Withdraw(),
        "start": c.Start(),
        "pause": c.Pause(),
        "resume": c.Resume(),
        "cancel": c.Cancel(),
    }
    command = simple.get(action)
    if command is None:
        raise ApiError(404, "not_found", f"no tournament action {action!r}")
    return command


async def act(request: Request) -> Response:
    """``POST /api/tournaments/{id}/{action}``: enter, accept, withdraw,
    check-in, and the organiser's start, pause, resume, cancel and remove."""
    tid, action = request.path_params["tid"], request.path_params["action"]
    user = await _registered(request)
    await _view(request, tid)
    hub = hub_of(request)
    command = await _command(request, action)
    if isinstance(command, _TO_PLAY):
        await check_standing(request, user.id, "play")
    if isinstance(command, c.Start):
        view = await _view(request, tid)
        m = view.model
        ids = {p for t in m.teams.values() for p in t.players} | set(m.solos)
        users = await hub.store.get_users(ids)
        ratings = {u.id: display(u.mu) for u in users.values() if not u.guest}
        command = c.Start(ratings=ratings)
    try:
        await hub.directors.act(tid, c.Player(user.id), command)
    except CommandError as e:
        raise _api(e) from None
    return json_response({"tournament": _detail(request, await _view(request, tid))})


async def report(request: Request) -> Response:
    """Results are read by the server from the games' records: a client's
    report is refused whatever it says."""
    await _view(request, request.path_params["tid"])
    raise ApiError(
        403,
        "forbidden",
        "results come from the games' records on the server; no player reports them",
    )
