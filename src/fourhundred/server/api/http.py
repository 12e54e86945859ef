"""What every endpoint shares: JSON in and out, errors as 4xx bodies naming
the problem, the caller's session, per-address limits."""

from __future__ import annotations

from typing import Any, Final, TypeVar

import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from fourhundred.store import User

from ..auth import (
    COOKIE,
    user_for_token,
)
from ..creation import SettingError
from ..errors import CommandError
from ..hub import Hub
from ..limits import Limits, RateLimited
from ..ratelimit import TokenBucket
from ..standing import Act

__all__ = [
    "ApiError",
    "check_standing",
    "client_address",
    "current_user",
    "hub_of",
    "int_param",
    "json_response",
    "limit",
    "limits_of",
    "rate_limit",
    "rate_limited",
    "read_json",
    "require_user",
    "user_json",
]

MAX_BODY: Final = 64 * 1024
_STATUS: Final = {
    "bad_request": 422,
    "bad_message": 422,
    "unauthorized": 401,
    "forbidden": 403,
    "muted": 403,
    "suspended": 403,
    "banned": 403,
    "not_found": 404,
    "conflict": 409,
    "too_large": 413,
    "rate_limited": 429,
    "unavailable": 503,
}

T = TypeVar("T")


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        field: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers

    def response(self) -> Response:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field is not None:
            body["field"] = self.field
        return json_response({"error": body}, self.status, headers=self.headers)

    @classmethod
    def of(cls, e: CommandError) -> ApiError:
        field = e.field if isinstance(e, SettingError) else None
        if field is None and e.code == "bad_request" and ":" in e.message:
            field = e.message.split(":", 1)[0]
        return cls(_STATUS.get(e.code, 400), e.code, e.message, field)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(
        msgspec.json.encode(data), status, headers=headers, media_type="application/json"
    )


# ------------------------------------------------------------------ inputs


async def read_json(request: Request, kind: type[T]) -> T:
    """The request body decoded as ``kind`` (a msgspec struct)."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise ApiError(415, "bad_request", "send the body as Content-Type: application/json")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise ApiError(413, "too_large", f"the body is limited to {MAX_BODY} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise ApiError(413, "too_large", f"the body is limited to {MAX_BODY} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        # The client went away mid-body: nothing to do, and not our error.
        raise ApiError(400, "bad_request", "the request was cut off") from None
    body = b"".join(chunks)
    if not body.strip():
        raise ApiError(400, "bad_request", "the body is empty: send a JSON object")
    try:
        return msgspec.json.decode(body, type=kind)
    except msgspec.ValidationError as e:
        text = str(e)
        field = text.rsplit("`$.", 1)[1].rstrip("`") if "`$." in text else None
        if field is None and "field `" in text:
            field = text.split("field `", 1)[1].split("`", 1)[0]
        raise ApiError(422, "bad_request", text, field) from None
    except msgspec.DecodeError as e:
        raise ApiError(400, "bad_request", f"the body is not valid JSON: {e}") from None


def int_param(request: Request, name: str, default: int, lo: int, hi: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(422, "bad_request", f"{name} must be a whole number", name) from None
    if not lo <= value <= hi:
        raise ApiError(422, "bad_request", f"{name} must be {lo} to {hi}", name)
    return value


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def current_user(request: Request) -> User | None:
    hub = hub_of(request)
    return await user_for_token(hub.store, request.cookies.get(COOKIE), hub.clock.now_ms())


async def require_user(request: Request) -> User:
    user = await current_user(request)
    if user is None:
        raise ApiError(401, "unauthorized", "log in or play as a guest first")
    return user


async def check_standing(request: Request, user_id: str, act: Act) -> None:
    """``403`` naming the penalty (``muted``, ``suspended``, ``banned``) and
    until when, if the user's standing refuses ``act``."""
    try:
        await hub_of(request).standings.check(user_id, act)
    except CommandError as e:
        raise ApiError.of(e) from None


def user_json(user: User) -> dict[str, Any]:
    """A user object (docs/protocol.md); a deleted account's says so."""
    out: dict[str, Any] = {
        "id": user.id,
        "name": user.name,
        "guest": user.guest,
        "rating": None if user.guest or user.deleted else round(60 * user.mu),
    }
    if user.deleted:
        out["deleted"] = True
    return out


def client_address(request: Request) -> str:
    """The client's address as uvicorn gives it: behind a proxy it trusts
    (``--forwarded-allow-ips``, by default 127.0.0.1), the first address of
    ``X-Forwarded-For`` (docs/deploy.md, "Abuse limits")."""
    return request.client.host if request.client else "?"


def limits_of(request: Request) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


def rate_limited(e: RateLimited) -> ApiError:
    """The ``429`` of a refusal, with ``Retry-After``."""
    return ApiError(429, "rate_limited", str(e), headers={"Retry-After": str(e.wait_s)})


def rate_limit(request: Request, bucket: str, key: str) -> None:
    """Count one ``bucket`` (``guest``, ``table``, ``chat``,
    ``friend_request``, ``report``: :data:`fourhundred.server.limits.BUCKETS`)
    for ``key`` (the client address for ``guest``, else the user's id);
    ``429`` with ``Retry-After`` when over the limit. Call it after the
    body is decoded and before anything is created."""
    try:
        limits_of(request).take(bucket, key)
    except RateLimited as e:
        raise rate_limited(e) from None


def limit(request: Request, what: str) -> None:
    """Rate-limit logins and registrations per client address."""
    hub = hub_of(request)
    buckets: dict[str, TokenBucket] = request.app.state.auth_buckets
    ip = client_address(request)
    key = f"{what}:{ip}"
    now = hub.clock.monotonic()
    bucket = buckets.get(key)
    if bucket is None:
        if len(buckets) > 100_000:
            buckets.clear()
        per_minute = hub.config.auth_limit_per_minute
        bucket = buckets[key] = TokenBucket(rate=per_minute / 60, burst=per_minute, now=now)
    if not bucket.take(now):
        wait = max(1, round(bucket.retry_after()))
        raise ApiError(
            429,
            "rate_limited",
            f"too many attempts: try again in {wait} s",
            headers={"Retry-After": str(wait)},
        )
