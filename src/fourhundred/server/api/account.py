"""The account in the player's hands (docs/protocol.md, "Your account"):
change the password, see the sessions and end them, download everything
the server keeps about you, delete the account.

A deleted account is anonymised, not removed (``store.accounts``): its
games stay, shown as played by a deleted player, and nobody's rating moves.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from fourhundred.store import User

from ..auth import COOKIE, check_password, hash_password, token_hash, verify_password
from ..errors import CommandError
from ..ws import sessions_ended
from .games import game_json
from .http import ApiError, hub_of, json_response, limit, read_json, require_user, user_json

__all__ = ["change_password", "delete_account", "end_sessions", "export", "list_sessions"]

EXPORT_FORMAT: Final = "fourhundred-account/1"
_ALL: Final = 1_000_000
"""More games than anyone plays: the export holds them all."""


class PasswordBody(msgspec.Struct, forbid_unknown_fields=True):
    current: Annotated[str, msgspec.Meta(max_length=1024)]
    new: Annotated[str, msgspec.Meta(max_length=1024)]


class DeleteBody(msgspec.Struct, forbid_unknown_fields=True):
    password: Annotated[str, msgspec.Meta(max_length=1024)] | None = None


def _this_session(request: Request) -> str:
    token = request.cookies.get(COOKIE) or ""
    return token_hash(token)


async def _check_password(
    request: Request, user: User, password: str | None, field: str = "password"
) -> None:
    """401 (nothing changed) unless ``password`` is the user's; limited per
    address like logins, so it cannot be guessed from a stolen session."""
    if password is None:
        raise ApiError(422, "bad_request", f"{field}: required for a registered account", field)
    limit(request, "password")
    if not await verify_password(user.password_hash, password):
        raise ApiError(401, "unauthorized", "wrong password", field)


async def change_password(request: Request) -> Response:
    """``POST /api/account/password``: every other session ends."""
    user = await require_user(request)
    body = await read_json(request, PasswordBody)
    if user.guest:
        raise ApiError(409, "conflict", "a guest has no password: register instead")
    try:
        new = check_password(body.new)
    except CommandError as e:
        raise ApiError(422, "bad_request", e.message, "new") from None
    await _check_password(request, user, body.current, "current")
    hub = hub_of(request)
    hashed = await hash_password(new)
    await hub.store.accounts.set_password(user.id, hashed, keep=_this_session(request))
    sessions_ended(hub, user.id, keep=_this_session(request))
    return Response(status_code=204)


def _sessions_json(rows: list[Any], current: str) -> list[dict[str, Any]]:
    return [
        {
            "created_ms": r.created_ms,
            "expires_ms": r.expires_ms,
            "browser": r.browser,
            "system": r.system,
            "current": r.token_hash == current,
        }
        for r in rows
    ]


async def list_sessions(request: Request) -> Response:
    """``GET /api/account/sessions``: when each began and ends; no token."""
    user = await require_user(request)
    hub = hub_of(request)
    rows = await hub.store.accounts.sessions(user.id, hub.clock.now_ms())
    return json_response({"sessions": _sessions_json(rows, _this_session(request))})


async def end_sessions(request: Request) -> Response:
    """``DELETE /api/account/sessions``: every other session ends (``?all=1``:
    this one too, and its cookie is cleared)."""
    user = await require_user(request)
    everything = request.query_params.get("all", "0")
    if everything not in ("0", "1"):
        raise ApiError(422, "bad_request", "all must be 0 or 1", "all")
    hub = hub_of(request)
    keep = None if everything == "1" else _this_session(request)
    ended = await hub.store.accounts.end_sessions(user.id, keep=keep)
    sessions_ended(hub, user.id, keep=keep)
    response = json_response({"ended": ended})
    if keep is None:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response


async def _games(request: Request, user: User) -> list[dict[str, Any]]:
    """Every finished game of ``user``, newest first, each with its record
    (one query: paging by time could skip games that ended in the same
    millisecond)."""
    store = hub_of(request).store
    games = await store.games_of(user.id, _ALL)
    ids = {gp.user_id for _, ps in games for gp in ps if gp.user_id}
    users = await store.get_users(ids)
    return [{**game_json(row, ps, users), "record": row.record} for row, ps in games]


async def export(request: Request) -> Response:
    """``GET /api/account/export``: the profile, the rating, the sessions and
    every game played, with its record (docs/game-record.md), as a download."""
    user = await require_user(request)
    hub = hub_of(request)
    sessions = await hub.store.accounts.sessions(user.id, hub.clock.now_ms())
    data = {
        "format": EXPORT_FORMAT,
        "exported_ms": hub.clock.now_ms(),
        "profile": {
            **user_json(user),
            "username": user.username,
            "created_ms": user.created_ms,
        },
        "rating": {
            "mu": user.mu,
            "sigma": user.sigma,
            "rated_games": user.rated_games,
            "games": user.games,
            "wins": user.wins,
            "bids_made": user.bids_made,
            "bids": user.bids,
        },
        "sessions": _sessions_json(sessions, _this_session(request)),
        "games": await _games(request, user),
    }
    name = f"fourhundred-{user.id}.json"
    return json_response(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def delete_account(request: Request) -> Response:
    """``DELETE /api/account`` with ``{"password": ...}`` (a guest sends
    ``{}``): the account is anonymised and every session ends."""
    user = await require_user(request)
    body = await read_json(request, DeleteBody)
    if not user.guest:
        await _check_password(request, user, body.password)
    hub = hub_of(request)
    await hub.queue_leave(user.id)
    await hub.store.accounts.delete(user.id)
    sessions_ended(hub, user.id, keep=None)
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response
