"""Accounts and sessions: guests, registration, login, logout, ``me`` and
``session``."""

from __future__ import annotations

from typing import Annotated

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from fourhundred.store import User, UsernameTaken

from ..auth import (
    COOKIE,
    SESSION_TTL_MS,
    check_name,
    check_password,
    check_username,
    hash_password,
    new_session_token,
    new_user_id,
    token_hash,
    verify_password,
)
from ..devices import device_of
from ..errors import CommandError
from .http import (
    ApiError,
    client_address,
    current_user,
    hub_of,
    json_response,
    limit,
    rate_limit,
    read_json,
    require_user,
    user_json,
)


class GuestBody(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(max_length=256)]


class RegisterBody(msgspec.Struct, forbid_unknown_fields=True):
    username: Annotated[str, msgspec.Meta(max_length=256)]
    password: Annotated[str, msgspec.Meta(max_length=1024)]
    name: Annotated[str, msgspec.Meta(max_length=256)] | None = None


class LoginBody(msgspec.Struct, forbid_unknown_fields=True):
    username: Annotated[str, msgspec.Meta(max_length=256)]
    password: Annotated[str, msgspec.Meta(max_length=1024)]


async def _session_response(request: Request, user: User, status: int) -> Response:
    hub = hub_of(request)
    token = new_session_token()
    now = hub.clock.now_ms()
    device = device_of(request.headers.get("user-agent"))
    await hub.store.create_session(
        token_hash(token), user.id, now, now + SESSION_TTL_MS, device=device
    )
    response = json_response({"user": user_json(user)}, status)
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_TTL_MS // 1000,
        httponly=True,
        samesite="lax",
        secure=hub.config.secure_cookies,
        path="/",
    )
    return response


# ---------------------------------------------------------------- accounts


async def guest(request: Request) -> Response:
    body = await read_json(request, GuestBody)
    try:
        name = check_name(body.name)
    except CommandError as e:
        raise ApiError(422, "bad_request", e.message, "name") from None
    rate_limit(request, "guest", client_address(request))
    hub = hub_of(request)
    user = await hub.store.create_user(new_user_id(), name, hub.clock.now_ms())
    return await _session_response(request, user, 201)


async def register(request: Request) -> Response:
    limit(request, "register")
    body = await read_json(request, RegisterBody)
    try:
        username = check_username(body.username)
        password = check_password(body.password)
        name = check_name(body.name if body.name is not None else body.username)
    except CommandError as e:
        raise ApiError.of(e) from None
    hub = hub_of(request)
    hashed = await hash_password(password)
    try:
        user = await hub.store.create_user(
            new_user_id(), name, hub.clock.now_ms(), username=username, password_hash=hashed
        )
    except UsernameTaken:
        raise ApiError(409, "conflict", f"the username {username!r} is taken", "username") from None
    return await _session_response(request, user, 201)


async def login(request: Request) -> Response:
    limit(request, "login")
    body = await read_json(request, LoginBody)
    hub = hub_of(request)
    user = await hub.store.get_user_by_username(body.username)
    ok = await verify_password(user.password_hash if user else None, body.password)
    if user is None or not ok:
        raise ApiError(401, "unauthorized", "wrong username or password")
    return await _session_response(request, user, 200)


async def logout(request: Request) -> Response:
    hub = hub_of(request)
    token = request.cookies.get(COOKIE)
    if token:
        await hub.store.delete_session(token_hash(token))
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response


async def me(request: Request) -> Response:
    user = await require_user(request)
    return json_response({"user": user_json(user)})


async def session(request: Request) -> Response:
    """Whether this request is signed in, and as whom: always 200, since a
    visitor who has not signed in yet is no error (``me`` answers 401)."""
    user = await current_user(request)
    if user is None:
        return json_response({"signed_in": False, "user": None})
    return json_response({"signed_in": True, "user": user_json(user)})


# ------------------------------------------------------------ rules, lobby
