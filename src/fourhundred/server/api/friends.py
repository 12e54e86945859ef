"""Friends, blocks and invites to a table (docs/protocol.md, "Friends and
invites"); the rules are ``server/friends.py``'s."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from fourhundred.store import User

from ..errors import CommandError
from ..friends import RateLimited, seated
from .http import ApiError, hub_of, json_response, read_json, require_user

T = TypeVar("T")

__all__ = [
    "accept_friend",
    "add_block",
    "add_friend",
    "decline_friend",
    "decline_invite",
    "invite_to_table",
    "list_friends",
    "list_invites",
    "remove_block",
    "remove_friend",
]


class FriendBody(msgspec.Struct, forbid_unknown_fields=True):
    user: str | None = msgspec.field(default=None)
    username: str | None = None


class UserBody(msgspec.Struct, forbid_unknown_fields=True):
    user: str


async def _registered(request: Request) -> User:
    user = await require_user(request)
    if user.guest:
        raise ApiError(403, "forbidden", "sign in to have friends: guests cannot")
    return user


async def _run(call: Awaitable[T]) -> T:
    """Await a rule; its refusal becomes the HTTP error."""
    try:
        return await call
    except RateLimited as e:
        raise ApiError(
            429, e.code, e.message, headers={"Retry-After": str(e.retry_after)}
        ) from None
    except CommandError as e:
        raise ApiError.of(e) from None


def _who(user: User) -> dict[str, Any]:
    return {"id": user.id, "name": user.name}


async def list_friends(request: Request) -> Response:
    me = await _registered(request)
    return json_response(await hub_of(request).friends.lists(me))


async def add_friend(request: Request) -> Response:
    me = await _registered(request)
    body = await read_json(request, FriendBody)
    out = await _run(hub_of(request).friends.request(me, body.user, body.username))
    return json_response(
        {"status": out.status, "user": _who(out.user)}, 201 if out.status == "requested" else 200
    )


async def accept_friend(request: Request) -> Response:
    me = await _registered(request)
    out = await _run(hub_of(request).friends.accept(me, request.path_params["user_id"]))
    return json_response({"status": out.status, "user": _who(out.user)})


async def decline_friend(request: Request) -> Response:
    me = await _registered(request)
    await _run(hub_of(request).friends.decline(me, request.path_params["user_id"]))
    return Response(status_code=204)


async def remove_friend(request: Request) -> Response:
    me = await _registered(request)
    await _run(hub_of(request).friends.remove(me, request.path_params["user_id"]))
    return Response(status_code=204)


async def add_block(request: Request) -> Response:
    me = await _registered(request)
    body = await read_json(request, UserBody)
    other = await _run(hub_of(request).friends.block(me, body.user))
    return json_response({"blocked": _who(other)}, 201)


async def remove_block(request: Request) -> Response:
    me = await _registered(request)
    await _run(hub_of(request).friends.unblock(me, request.path_params["user_id"]))
    return Response(status_code=204)


async def invite_to_table(request: Request) -> Response:
    me = await _registered(request)
    body = await read_json(request, UserBody)
    hub = hub_of(request)
    other = await _run(hub.friends.invite(me, request.path_params["table_id"], body.user))
    return json_response({"invited": _who(other)}, 201)


async def list_invites(request: Request) -> Response:
    me = await _registered(request)
    hub = hub_of(request)
    invites = await hub.friends.invites(me)
    return json_response(
        {
            "invites": [
                {
                    "table": hub.summary_of(i.table),
                    "invite": i.table.invite,
                    "from": {"id": i.from_id, "name": i.from_name},
                    "at_ms": i.at_ms,
                }
                for i in invites
                if not seated(i.table, me.id)  # joined already: nothing to answer
            ]
        }
    )


async def decline_invite(request: Request) -> Response:
    me = await _registered(request)
    await _run(hub_of(request).friends.decline_invite(me, request.path_params["table_id"]))
    return Response(status_code=204)
