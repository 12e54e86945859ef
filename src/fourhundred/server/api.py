"""The HTTP API (docs/protocol.md, "HTTP API"): accounts, rules, the lobby,
the Ranked queue, finished games, players and the leaderboard.

Every input is decoded into a typed struct; any mistake is a 4xx with a
JSON body naming the problem, never a 500.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, TypeVar

import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Match, Route

from fourhundred.engine import PRESET_NOTES, PRESETS, TURN_TIMERS
from fourhundred.engine.settings import (
    SETTING_CHOICES,
    SETTING_RANGES,
    SETTING_SWITCHES,
    TARGETS_OFFERED,
)
from fourhundred.store import GamePlayer, Store, TableRow, User, UsernameTaken

from .auth import (
    COOKIE,
    SESSION_TTL_MS,
    check_name,
    check_password,
    check_username,
    hash_password,
    new_session_token,
    new_user_id,
    token_hash,
    user_for_token,
    verify_password,
)
from .creation import SettingError
from .errors import CommandError
from .hub import Hub
from .ratelimit import TokenBucket

__all__ = ["ApiError", "json_response", "routes"]

MAX_BODY: Final = 64 * 1024
_STATUS: Final = {
    "bad_request": 422,
    "bad_message": 422,
    "unauthorized": 401,
    "forbidden": 403,
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


class GuestBody(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(max_length=256)]


class RegisterBody(msgspec.Struct, forbid_unknown_fields=True):
    username: Annotated[str, msgspec.Meta(max_length=256)]
    password: Annotated[str, msgspec.Meta(max_length=1024)]
    name: Annotated[str, msgspec.Meta(max_length=256)] | None = None


class LoginBody(msgspec.Struct, forbid_unknown_fields=True):
    username: Annotated[str, msgspec.Meta(max_length=256)]
    password: Annotated[str, msgspec.Meta(max_length=1024)]


class CreateTableBody(msgspec.Struct, forbid_unknown_fields=True):
    kind: str
    preset: str = "standard"
    settings: dict[str, Any] = msgspec.field(default_factory=dict)
    timer: int = 30


# ----------------------------------------------------------------- helpers


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


def user_json(user: User) -> dict[str, Any]:
    return {
        "id": user.id,
        "name": user.name,
        "guest": user.guest,
        "rating": None if user.guest else round(60 * user.mu),
    }


def _limit(request: Request, what: str) -> None:
    """Rate-limit logins and registrations per client address."""
    hub = hub_of(request)
    buckets: dict[str, TokenBucket] = request.app.state.auth_buckets
    ip = request.client.host if request.client else "?"
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


async def _session_response(request: Request, user: User, status: int) -> Response:
    hub = hub_of(request)
    token = new_session_token()
    now = hub.clock.now_ms()
    await hub.store.create_session(token_hash(token), user.id, now, now + SESSION_TTL_MS)
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
    hub = hub_of(request)
    user = await hub.store.create_user(new_user_id(), name, hub.clock.now_ms())
    return await _session_response(request, user, 201)


async def register(request: Request) -> Response:
    _limit(request, "register")
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
    _limit(request, "login")
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


# ------------------------------------------------------------ rules, lobby


async def presets(request: Request) -> Response:
    from fourhundred.bots import BOTS

    return json_response(
        {
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
    )


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
    return json_response({"tables": [hub.summary_of(r) for r in rows]})


async def create_table(request: Request) -> Response:
    user = await require_user(request)
    body = await read_json(request, CreateTableBody)
    hub = hub_of(request)
    try:
        row = await hub.create_table(user, body.kind, body.preset, body.settings, body.timer)
    except CommandError as e:
        raise ApiError.of(e) from None
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
    return json_response({"table": hub.summary_of(row)})


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
            return json_response(await hub.queue_join(user))
        if request.method == "DELETE":
            await hub.queue_leave(user.id)
            return Response(status_code=204)
        return json_response(await hub.queue_status(user.id))
    except CommandError as e:
        raise ApiError.of(e) from None


# ------------------------------------------------------------------ games


def game_json(row: TableRow, players: list[GamePlayer], users: dict[str, User]) -> dict[str, Any]:
    return {
        "id": row.id,
        "kind": row.kind,
        "rated": row.rated,
        "settings": row.summary.get("settings"),
        "preset": row.summary.get("preset"),
        "finished_ms": row.finished_ms,
        "hands": row.hands,
        "winner": row.winner,
        "scores": row.scores,
        "reason": row.reason,
        "players": [
            {
                "seat": gp.seat,
                "team": gp.seat & 1,
                "user": user_json(users[gp.user_id])
                if gp.user_id is not None and gp.user_id in users
                else None,
                "bot": gp.bot,
                "score": gp.score,
                "won": gp.won,
                "rating_before": gp.rating_before,
                "rating_after": gp.rating_after,
                "bids_made": gp.bids_made,
                "bids": gp.bids,
            }
            for gp in players
        ],
    }


async def _finished(store: Store, table_id: str) -> TableRow:
    row = await store.get_table(table_id)
    if row is None or row.status != "over":
        raise ApiError(404, "not_found", "no finished game with this id")
    return row


async def get_game(request: Request) -> Response:
    hub = hub_of(request)
    row = await _finished(hub.store, request.path_params["game_id"])
    players = await hub.store.game_players(row.id)
    users = await hub.store.get_users(gp.user_id for gp in players if gp.user_id)
    return json_response(game_json(row, players, users))


async def get_record(request: Request) -> Response:
    hub = hub_of(request)
    row = await _finished(hub.store, request.path_params["game_id"])
    return json_response(row.record)


async def get_analysis(request: Request) -> Response:
    hub = hub_of(request)
    row = await _finished(hub.store, request.path_params["game_id"])
    assert row.record is not None
    try:
        analysis = request.app.state.analyses.get(row.id, row.record)
    except RuntimeError as e:
        raise ApiError(404, "not_found", str(e)) from None
    if analysis is None:
        return json_response(
            {"status": "pending", "message": "the analysis is being computed: ask again soon"},
            202,
            headers={"Retry-After": "5"},
        )
    return json_response(analysis)


async def _user_or_404(store: Store, user_id: str) -> User:
    user = await store.get_user(user_id) if len(user_id) <= 32 else None
    if user is None:
        raise ApiError(404, "not_found", "no such user")
    return user


async def get_user(request: Request) -> Response:
    hub = hub_of(request)
    user = await _user_or_404(hub.store, request.path_params["user_id"])
    return json_response(
        {
            "user": user_json(user),
            "games": user.games,
            "wins": user.wins,
            "rated_games": user.rated_games,
            "bids_made": user.bids_made,
            "bids": user.bids,
            "mu": user.mu,
            "sigma": user.sigma,
        }
    )


async def user_games(request: Request) -> Response:
    hub = hub_of(request)
    user = await _user_or_404(hub.store, request.path_params["user_id"])
    limit = int_param(request, "limit", 20, 1, 100)
    before = request.query_params.get("before")
    before_ms = int_param(request, "before", 0, 0, 2**62) if before is not None else None
    games = await hub.store.games_of(user.id, limit, before_ms)
    ids = {gp.user_id for _, ps in games for gp in ps if gp.user_id}
    users = await hub.store.get_users(ids)
    return json_response({"games": [game_json(row, ps, users) for row, ps in games]})


async def leaderboard(request: Request) -> Response:
    hub = hub_of(request)
    limit = int_param(request, "limit", 50, 1, 200)
    users = await hub.store.leaderboard(limit)
    return json_response(
        {
            "players": [
                {
                    "rank": i + 1,
                    "user": user_json(u),
                    "rated_games": u.rated_games,
                    "mu": u.mu,
                    "sigma": u.sigma,
                }
                for i, u in enumerate(users)
            ]
        }
    )


async def api_not_found(request: Request) -> Response:
    # The catch-all also sees a known path with the wrong method: that is 405.
    for route in routes[:-1]:
        match, _ = route.matches(request.scope)
        if match is not Match.NONE:
            raise ApiError(
                405, "method_not_allowed", f"{request.method} is not allowed on {request.url.path}"
            )
    raise ApiError(404, "not_found", f"no API endpoint {request.url.path}")


routes = [
    Route("/api/guest", guest, methods=["POST"]),
    Route("/api/register", register, methods=["POST"]),
    Route("/api/login", login, methods=["POST"]),
    Route("/api/logout", logout, methods=["POST"]),
    Route("/api/me", me, methods=["GET"]),
    Route("/api/presets", presets, methods=["GET"]),
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{table_id}", get_table, methods=["GET"]),
    Route("/api/invites/{code}", get_invite, methods=["GET"]),
    Route("/api/queue", queue, methods=["GET", "POST", "DELETE"]),
    Route("/api/games/{game_id}", get_game, methods=["GET"]),
    Route("/api/games/{game_id}/record", get_record, methods=["GET"]),
    Route("/api/games/{game_id}/analysis", get_analysis, methods=["GET"]),
    Route("/api/users/{user_id}", get_user, methods=["GET"]),
    Route("/api/users/{user_id}/games", user_games, methods=["GET"]),
    Route("/api/leaderboard", leaderboard, methods=["GET"]),
    Route("/api/{rest:path}", api_not_found, methods=["GET", "POST", "DELETE", "PUT", "PATCH"]),
]
