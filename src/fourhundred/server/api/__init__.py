"""The HTTP API (docs/protocol.md, "HTTP API"): accounts, rules, the lobby,
the Ranked queue, finished games, players and the leaderboard.

Every input is decoded into a typed struct; any mistake is a 4xx with a
JSON body naming the problem, never a 500.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route

from .accounts import guest, login, logout, me, register, session
from .games import (
    get_analysis,
    get_game,
    get_record,
    get_replay,
    get_user,
    leaderboard,
    user_games,
)
from .http import ApiError, json_response
from .lobby import create_table, get_invite, get_table, list_tables, presets, presets_json, queue

__all__ = ["ApiError", "json_response", "presets_json", "routes"]


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
    Route("/api/session", session, methods=["GET"]),
    Route("/api/presets", presets, methods=["GET"]),
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{table_id}", get_table, methods=["GET"]),
    Route("/api/invites/{code}", get_invite, methods=["GET"]),
    Route("/api/queue", queue, methods=["GET", "POST", "DELETE"]),
    Route("/api/games/{game_id}", get_game, methods=["GET"]),
    Route("/api/games/{game_id}/record", get_record, methods=["GET"]),
    Route("/api/games/{game_id}/replay", get_replay, methods=["GET"]),
    Route("/api/games/{game_id}/analysis", get_analysis, methods=["GET"]),
    Route("/api/users/{user_id}", get_user, methods=["GET"]),
    Route("/api/users/{user_id}/games", user_games, methods=["GET"]),
    Route("/api/leaderboard", leaderboard, methods=["GET"]),
    Route("/api/{rest:path}", api_not_found, methods=["GET", "POST", "DELETE", "PUT", "PATCH"]),
]
