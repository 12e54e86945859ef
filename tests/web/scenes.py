"""Demo scenes for the browser client, built from the real engine.

The client's demo mode (``/?demo=NAME``) renders ``demo/NAME.json``
without a server (the files live here, in ``tests/web/demo``, not in the
package; ``demo_server.py`` serves them): it is how the rendering layer is
tested in a real browser and how ``scripts/screenshots.py`` shows each
screen. A table scene is a
``snapshot`` frame exactly as docs/protocol.md describes it, and every
``view`` in it is ``view_for(state, seat).to_dict()`` of a game played here
with fixed seeds, so the demo cannot drift from the engine's contract.
``test_web_scenes.py`` checks that the committed files are what this module
builds; run ``python tests/web/scenes.py`` to rewrite them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fourhundred.engine import (
    BID_BASE,
    CARD_NAMES,
    GameState,
    HandSummary,
    Phase,
    preset,
    record_from_state,
    view_for,
)

DEMO_DIR = Path(__file__).resolve().parent / "demo"

NAMES = ["Rami", "Nour", "Karim", "Layla"]
NAMES_AR = ["رامي", "نور", "كريم", "ليلى"]
RATINGS = [1532, 1490, 1561, 1507]
T0 = 1767225600000  # 2026-01-01T00:00:00Z, a fixed clock for the scenes


# ------------------------------------------------------------- the players


def _bid(state: GameState, rng: random.Random) -> int:
    """A plausible bid: count likely tricks, stay legal."""
    seat = state.turn
    hand = [c for c in range(52) if state.hand(seat) >> c & 1]
    sure = 0.0
    for c in hand:
        suit, rank = divmod(c, 13)
        if rank == 12:
            sure += 1
        elif rank == 11:
            sure += 0.7
        elif suit == 2 and rank >= 8:
            sure += 0.5
    sure += max(0, sum(1 for c in hand if c // 13 == 2) - 3) * 0.6
    legal = state.legal_bids()
    want = min(max(round(sure + rng.random() * 0.8), legal[0]), 12)
    return want if want in legal else legal[0]


def _play(state: GameState, rng: random.Random) -> int:
    """A plausible card: the highest while short of the bid, else the lowest."""
    seat = state.turn
    need = (state.bid_of(seat) or 0) - state.tricks_won[seat]
    by_rank = sorted(state.legal_cards(), key=lambda c: (c % 13, c // 13 == 2))
    return by_rank[-1] if need > 0 and rng.random() < 0.85 else by_rank[0]


def _step(state: GameState, rng: random.Random) -> None:
    if state.phase is Phase.DEAL:
        state.deal_random(seed=rng.randrange(1 << 30))
    elif state.phase is Phase.BID:
        state.apply(BID_BASE + _bid(state, rng))
    else:
        state.apply(_play(state, rng))


def _play_until(state: GameState, rng: random.Random, stop: Callable[[GameState], bool]) -> None:
    for _ in range(5000):
        if stop(state):
            return
        _step(state, rng)
    raise RuntimeError("the scene never reached its position")


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


# ---------------------------------------------------------------- scenes


def build_scenes(*, analysis: bool = False) -> dict[str, dict[str, Any]]:
    """Every demo scene by name (deterministic). With ``analysis`` the
    replay scene carries the post-hand analysis of its game (the search
    bot's, so it changes when the bot does; the currency test leaves it
    out)."""
    scenes: dict[str, dict[str, Any]] = {}
    me = user(0)

    # Bidding: your turn at seat 0, own score >= 30 (your lowest bid is 3).
    rng = random.Random(400)
    s = GameState(preset("standard"), first_dealer=1)
    _play_until(
        s,
        rng,
        lambda g: g.phase is Phase.BID and g.turn == 0 and g.n_bids == 2 and g.scores[0] >= 30,
    )
    scenes["bid"] = {
        "screen": "table",
        "me": me,
        "frame": snapshot(s, 0, players(bots=(3,)), chat=CHAT),
    }
    scenes["bid_ar"] = {
        "screen": "table",
        "me": user(0, NAMES_AR),
        "frame": snapshot(s, 0, players(bots=(3,), names=NAMES_AR), chat=CHAT_AR),
    }

    # Play: your turn, you must follow the suit led (the other cards are dimmed).
    rng = random.Random(41)
    s = GameState(preset("standard"), first_dealer=2)

    def following(g: GameState) -> bool:
        if g.phase is not Phase.PLAY or g.turn != 0 or len(g.current_trick) != 2:
            return False
        legal = len(g.legal_cards())
        return g.hand_index >= 3 and len(g.tricks()) >= 5 and 2 < legal < g.hand(0).bit_count()

    _play_until(s, rng, following)
    scenes["play"] = {
        "screen": "table",
        "me": me,
        "frame": snapshot(s, 0, players(bots=(1,), away=(3,)), chat=CHAT),
    }
    # The same moment for a spectator: no hand, ever.
    scenes["spectate"] = {
        "screen": "table",
        "me": {"id": "u_9", "name": "Hala", "guest": True, "rating": None},
        "frame": snapshot(s, None, players(), kind="casual", chat=CHAT),
    }

    # A complete trick on the table, someone else to lead.
    t = s.clone()
    _play_until(t, rng, lambda g: g.phase is Phase.PLAY and not g.current_trick)
    scenes["trick"] = {
        "screen": "table",
        "me": me,
        "frame": snapshot(t, 0, players(bots=(1,)), remaining_ms=8000),
    }

    # The end of a game, and its record for the replay viewer.
    rng = random.Random(7)
    s = GameState(preset("standard"), first_dealer=0)
    _play_until(s, rng, lambda g: g.phase is Phase.OVER)
    assert s.winner is not None
    game = {
        "id": "demo",
        "kind": "ranked",
        "rated": True,
        "settings": s.settings.to_dict(),
        "preset": "standard",
        "finished_ms": T0,
        "hands": len(s.history),
        "winner": s.winner,
        "scores": list(s.scores),
        "reason": "won",
        "players": [
            {
                "seat": i,
                "team": i % 2,
                "user": user(i),
                "bot": None,
                "score": s.scores[i],
                "won": i % 2 == s.winner,
                "rating_before": RATINGS[i],
                "rating_after": RATINGS[i] + (14 if i % 2 == s.winner else -12),
                "bids_made": sum(1 for h in s.history if not h.thrown_in and h.deltas[i] > 0),
                "bids": sum(1 for h in s.history if not h.thrown_in),
            }
            for i in range(4)
        ],
    }
    scenes["over"] = {
        "screen": "table",
        "me": me,
        "frame": snapshot(s, 0, players(), kind="ranked"),
        "game": game,
    }
    record = record_from_state(s).to_dict()
    # The replay itself is the server's (GET /api/games/demo/replay, which
    # the test pages answer from this record through the server's code).
    scenes["replay"] = {"screen": "replay", "game": game, "record": record, "analysis": None}
    if analysis:
        from fourhundred.bots.analysis import AnalysisOptions, analyse_record

        # Few deals per decision keep this quick; one worker keeps it repeatable.
        scenes["replay"]["analysis"] = analyse_record(
            record, AnalysisOptions(deals=6, seed=1, workers=1)
        )

    waiting = "waiting"
    scenes["lobby"] = {
        "screen": "lobby",
        "me": me,
        "tables": [
            room(
                "t1",
                [seat_entry(0, user(1)), seat_entry(1), seat_entry(2, user(2)), seat_entry(3)],
                kind="casual",
                status=waiting,
                spectators=2,
            ),
            room(
                "t2",
                [
                    seat_entry(0, {"id": "u_7", "name": "Sami", "guest": True, "rating": None}),
                    seat_entry(1, {"id": "u_8", "name": "Hala", "guest": False, "rating": 1712}),
                    seat_entry(2),
                    seat_entry(3, bot="heuristic"),
                ],
                kind="casual",
                status=waiting,
                preset_name="jawaker",
                timer=45,
            ),
            room(
                "t3",
                [seat_entry(0, user(3)), seat_entry(1), seat_entry(2), seat_entry(3)],
                kind="casual",
                status=waiting,
                preset_name="syrian",
                changes={"target": 51},
                timer=15,
            ),
        ],
        "watch": [room("t4", players(), kind="ranked", status="playing", spectators=5)],
        "queue": {"status": "idle"},
    }

    scenes["room"] = {
        "screen": "room",
        "me": me,
        "frame": {
            "type": "snapshot",
            "table": "demo",
            "version": 9,
            "you": {"seat": 0, "role": "player", "host": True},
            "room": room(
                "demo",
                [
                    seat_entry(0, user(0)),
                    seat_entry(1, user(1), ready=False),
                    seat_entry(2),
                    seat_entry(3, bot="heuristic"),
                ],
                status=waiting,
                preset_name="traditional",
                changes={"target": 51},
            ),
            "view": None,
            "clock": None,
            "sheet": [],
            "chat": CHAT,
        },
    }

    scenes["profile"] = {
        "screen": "profile",
        "me": me,
        "profile": {
            "user": me,
            "games": 48,
            "wins": 27,
            "rated_games": 30,
            "bids_made": 171,
            "bids": 214,
            "mu": 25.5,
            "sigma": 3.1,
        },
        "games": [
            dict(
                game,
                id=f"g{i}",
                kind=("ranked", "casual", "private")[i % 3],
                finished_ms=T0 - 86400000 * i,
                winner=i % 2,
                rated=i % 3 == 0,
                players=[dict(p, won=p["team"] == i % 2) for p in game["players"]],
            )
            for i in range(6)
        ],
    }

    scenes["leaderboard"] = {
        "screen": "leaderboard",
        "me": me,
        "players": [
            {
                "rank": i + 1,
                "user": {"id": f"u_{10 + i}", "name": n, "guest": False, "rating": r},
                "rated_games": g,
                "mu": r / 60,
                "sigma": 2.0,
            }
            for i, (n, r, g) in enumerate(
                [
                    ("Hala", 1712, 230),
                    ("Sami", 1688, 121),
                    ("Omar", 1640, 88),
                    ("Rami", 1532, 48),
                    ("Nour", 1490, 52),
                    ("Ziad", 1475, 19),
                ]
            )
        ],
    }
    for name in AR_SCENES:
        scenes[f"{name}_ar"] = arabic(scenes[name])
    return scenes


# Arabic versions of the scenes use Arabic names (the screenshots of the
# Arabic pages should look like an Arabic table, not only translated chrome).
AR_NAMES = {
    **dict(zip(NAMES, NAMES_AR, strict=True)),
    "Sami": "سامي",
    "Hala": "هالة",
    "Omar": "عمر",
    "Ziad": "زياد",
    "yalla!": "يلا!",
    "nice trump!": "حلوة!",
}
AR_SCENES = ("lobby", "room", "play", "over", "replay", "profile", "leaderboard")


def arabic(scene: dict[str, Any]) -> dict[str, Any]:
    """The scene with every name (and chat line) in Arabic."""
    text = json.dumps(scene, ensure_ascii=False)
    for latin, ar in AR_NAMES.items():
        text = text.replace(
            json.dumps(latin, ensure_ascii=False), json.dumps(ar, ensure_ascii=False)
        )
    out: dict[str, Any] = json.loads(text)
    return out


def render(scene: dict[str, Any]) -> str:
    """The file text of one scene (stable formatting, for clean diffs)."""
    return json.dumps(scene, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main() -> None:
    DEMO_DIR.mkdir(parents=True, exist_ok=True)
    for name, scene in build_scenes(analysis=True).items():
        path = DEMO_DIR / f"{name}.json"
        path.write_text(render(scene), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
