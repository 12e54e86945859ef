"""The protocol messages of the demo scenes (``scenes.py``), as
docs/protocol.md describes them: the people at the demo table, their seats,
a room, a ``snapshot`` frame holding an engine view, the score sheet and
chat lines, all on a fixed clock (:data:`T0`)."""

from __future__ import annotations

from typing import Any

from fourhundred.engine import CARD_NAMES, GameState, HandSummary, Phase, preset, view_for

NAMES = ["Rami", "Nour", "Karim", "Layla"]
NAMES_AR = ["رامي", "نور", "كريم", "ليلى"]
RATINGS = [1532, 1490, 1561, 1507]
T0 = 1767225600000  # 2026-01-01T00:00:00Z, a fixed clock for the scenes


# ------------------------------------------------------ protocol messages


def _last_trick_of(h: HandSummary) -> dict[str, Any] | None:
    last = h.last_trick()
    if last is None:
        return None
    return {
        "leader": last.leader,
        "cards": [CARD_NAMES[c] for c in last.cards],
        "winner": last.winner,
    }


def sheet_of(state: GameState) -> list[dict[str, Any]]:
    """The score sheet: the ``hand_over`` event of every finished hand."""
    rows = []
    for h in state.history:
        rows.append(
            {
                "kind": "hand_over",
                "hand_index": h.hand_index,
                "dealer": h.dealer,
                "bids": list(h.bids_by_seat),
                "tricks": list(h.tricks),
                "deltas": list(h.deltas),
                "scores": list(h.scores),
                "thrown_in": h.thrown_in,
                "redeal_request": h.redeal_request,
                "last_trick": _last_trick_of(h),
            }
        )
    return rows


def user(i: int, names: list[str] = NAMES) -> dict[str, Any]:
    return {"id": f"u_{i + 1}", "name": names[i], "guest": False, "rating": RATINGS[i]}


def seat_entry(
    seat: int,
    who: dict[str, Any] | None = None,
    *,
    bot: str | None = None,
    ready: bool = True,
    connected: bool = True,
) -> dict[str, Any]:
    empty = who is None and bot is None
    return {
        "seat": seat,
        "team": seat % 2,
        "user": who,
        "bot": bot,
        "substitute": False,
        "ready": (ready or bot is not None) and not empty,
        "connected": connected and not empty,
    }


def room(  # noqa: PLR0913 - one keyword per field of the room a scene shows
    table_id: str,
    seats: list[dict[str, Any]],
    *,
    kind: str = "private",
    status: str = "playing",
    preset_name: str = "standard",
    changes: dict[str, Any] | None = None,
    timer: int = 30,
    spectators: int = 0,
) -> dict[str, Any]:
    settings = preset(preset_name).replace(**(changes or {}))
    out = {
        "id": table_id,
        "kind": kind,
        "status": status,
        "preset": preset_name,
        "settings": settings.to_dict(),
        "changes": dict(changes or {}),
        "timer": timer,
        "seats": seats,
        "open_seats": sum(1 for s in seats if s["user"] is None and s["bot"] is None),
        "host": "u_1",
        "spectators": spectators,
        "rated": kind == "ranked",
        "created_ms": T0,
    }
    if kind == "private":
        out["invite"] = "q3Vx9kTz0bLw7mPa2RcY4g"
    return out


def snapshot(  # noqa: PLR0913 - one keyword per field of the frame a scene shows
    state: GameState,
    seat: int | None,
    seats: list[dict[str, Any]],
    *,
    kind: str = "private",
    preset_name: str = "standard",
    remaining_ms: int = 23000,
    chat: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A ``snapshot`` frame for ``seat`` (None: a spectator)."""
    over = state.phase is Phase.OVER
    return {
        "type": "snapshot",
        "table": "demo",
        "version": 100 + len(state.history) * 60 + len(state.plays),
        "you": {
            "seat": seat,
            "role": "spectator" if seat is None else "player",
            "host": seat == 0,
        },
        "room": room(
            "demo",
            seats,
            kind=kind,
            status="over" if over else "playing",
            preset_name=preset_name,
        ),
        "view": view_for(state, seat).to_dict(),
        "clock": None
        if over
        else {
            "seat": state.turn,
            "timer": 30,
            "remaining_ms": remaining_ms,
            "deadline_ms": T0 + remaining_ms,
        },
        "sheet": sheet_of(state),
        "chat": chat or [],
    }


def chat_line(i: int, text: str, names: list[str] = NAMES, *, channel: str = "players") -> dict:
    return {
        "table": "demo",
        "channel": channel,
        "from": {"id": f"u_{i + 1}", "name": names[i]},
        "text": text,
        "at_ms": T0 + 1000 * i,
    }


CHAT = [chat_line(1, "yalla!"), chat_line(2, "nice trump!")]
CHAT_AR = [chat_line(1, "يلا!", NAMES_AR), chat_line(2, "حلوة!", NAMES_AR)]


def players(
    *, bots: tuple[int, ...] = (), away: tuple[int, ...] = (), names: list[str] = NAMES
) -> list[dict[str, Any]]:
    return [
        seat_entry(s, bot="heuristic")
        if s in bots
        else seat_entry(s, user(s, names), connected=s not in away)
        for s in range(4)
    ]
