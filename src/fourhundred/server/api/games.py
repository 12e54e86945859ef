"""Finished games (records, replays, analysis), players and the leaderboard."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from fourhundred.engine import team_of
from fourhundred.store import GamePlayer, Store, TableRow, User

from ..replays import replay_body
from .http import (
    ApiError,
    hub_of,
    int_param,
    json_response,
    user_json,
)


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
                "team": team_of(gp.seat),
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


async def finished_game(store: Store, table_id: str) -> TableRow:
    """The stored row of a finished game; 404 for anything else."""
    row = await store.get_table(table_id)
    if row is None or row.status != "over":
        raise ApiError(404, "not_found", "no finished game with this id")
    return row


async def get_game(request: Request) -> Response:
    hub = hub_of(request)
    row = await finished_game(hub.store, request.path_params["game_id"])
    players = await hub.store.game_players(row.id)
    users = await hub.store.get_users(gp.user_id for gp in players if gp.user_id)
    return json_response(game_json(row, players, users))


async def get_record(request: Request) -> Response:
    hub = hub_of(request)
    row = await finished_game(hub.store, request.path_params["game_id"])
    return json_response(row.record)


async def get_replay(request: Request) -> Response:
    hub = hub_of(request)
    row = await finished_game(hub.store, request.path_params["game_id"])
    assert row.record is not None
    gzipped = "gzip" in request.headers.get("accept-encoding", "")
    headers = {"Vary": "Accept-Encoding"}
    if gzipped:
        headers["Content-Encoding"] = "gzip"
    body = replay_body(row.id, row.record, gzipped=gzipped)
    return Response(body, headers=headers, media_type="application/json")


async def get_analysis(request: Request) -> Response:
    hub = hub_of(request)
    row = await finished_game(hub.store, request.path_params["game_id"])
    assert row.record is not None
    try:
        progress = request.app.state.analyses.get(row.id, row.record)
    except RuntimeError as e:
        raise ApiError(404, "not_found", str(e)) from None
    if not progress.complete:
        # The hands ready so far come along: a replay shows them at once.
        return json_response(
            {
                "status": "pending",
                "message": "the analysis is being computed: ask again soon",
                **progress.body(),
            },
            202,
            headers={"Retry-After": "2"},
        )
    return json_response(progress.body())


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
