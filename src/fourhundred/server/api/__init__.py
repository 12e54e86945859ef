"""The HTTP API (docs/protocol.md, "HTTP API"): accounts, rules, the lobby,
the Ranked queue, friends, blocks and table invites, finished games,
players and the leaderboard, reports and moderation, tournaments.

Every input is decoded into a typed struct; any mistake is a 4xx with a
JSON body naming the problem, never a 500.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route

from .account import change_password, delete_account, end_sessions, export, list_sessions
from .accounts import guest, login, logout, me, register, session
from .friends import (
    accept_friend,
    add_block,
    add_friend,
    decline_friend,
    decline_invite,
    invite_to_table,
    list_friends,
    list_invites,
    remove_block,
    remove_friend,
)
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
from .moderation import audit_log, list_reports, penalise, report_detail, resolve_report
from .reports import file_report, my_standing
from .tournaments import (
    act,
    create_tournament,
    get_tournament,
    get_tournament_invite,
    list_tournaments,
    report,
)
from .tournaments import (
    export as export_tournament,
)

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
    Route("/api/account", delete_account, methods=["DELETE"]),
    Route("/api/account/password", change_password, methods=["POST"]),
    Route("/api/account/sessions", list_sessions, methods=["GET"]),
    Route("/api/account/sessions", end_sessions, methods=["DELETE"]),
    Route("/api/account/export", export, methods=["GET"]),
    Route("/api/presets", presets, methods=["GET"]),
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{table_id}", get_table, methods=["GET"]),
    Route("/api/tables/{table_id}/invite", invite_to_table, methods=["POST"]),
    Route("/api/invites", list_invites, methods=["GET"]),
    Route("/api/invites/{code}", get_invite, methods=["GET"]),
    Route("/api/invites/{table_id}", decline_invite, methods=["DELETE"]),
    Route("/api/friends", list_friends, methods=["GET"]),
    Route("/api/friends", add_friend, methods=["POST"]),
    Route("/api/friends/{user_id}/accept", accept_friend, methods=["POST"]),
    Route("/api/friends/{user_id}/decline", decline_friend, methods=["POST"]),
    Route("/api/friends/{user_id}", remove_friend, methods=["DELETE"]),
    Route("/api/blocks", add_block, methods=["POST"]),
    Route("/api/blocks/{user_id}", remove_block, methods=["DELETE"]),
    Route("/api/queue", queue, methods=["GET", "POST", "DELETE"]),
    Route("/api/games/{game_id}", get_game, methods=["GET"]),
    Route("/api/games/{game_id}/record", get_record, methods=["GET"]),
    Route("/api/games/{game_id}/replay", get_replay, methods=["GET"]),
    Route("/api/games/{game_id}/analysis", get_analysis, methods=["GET"]),
    Route("/api/users/{user_id}", get_user, methods=["GET"]),
    Route("/api/users/{user_id}/games", user_games, methods=["GET"]),
    Route("/api/leaderboard", leaderboard, methods=["GET"]),
    Route("/api/reports", file_report, methods=["POST"]),
    Route("/api/me/standing", my_standing, methods=["GET"]),
    Route("/api/mod/reports", list_reports, methods=["GET"]),
    Route("/api/mod/reports/{report_id}", report_detail, methods=["GET"]),
    Route("/api/mod/reports/{report_id}/resolve", resolve_report, methods=["POST"]),
    Route("/api/mod/users/{user_id}/actions", penalise, methods=["POST"]),
    Route("/api/mod/audit", audit_log, methods=["GET"]),
    Route("/api/tournaments", list_tournaments, methods=["GET"]),
    Route("/api/tournaments", create_tournament, methods=["POST"]),
    Route("/api/tournaments/{tid}", get_tournament, methods=["GET"]),
    Route("/api/tournaments/{tid}/export.{fmt}", export_tournament, methods=["GET"]),
    Route("/api/tournaments/{tid}/report", report, methods=["POST"]),
    Route("/api/tournaments/{tid}/{action}", act, methods=["POST"]),
    Route("/api/tournament-invites/{code}", get_tournament_invite, methods=["GET"]),
    Route("/api/{rest:path}", api_not_found, methods=["GET", "POST", "DELETE", "PUT", "PATCH"]),
]
