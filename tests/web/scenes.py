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

This module holds the scenes themselves, their Arabic versions and the
files they are written to; the players that move a game on to a scene's
position are in ``fh_scene_players.py``, and the protocol messages a scene
is made of (seats, rooms, ``snapshot`` frames, chat) in
``fh_scene_frames.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from fh_scene_frames import (
    CHAT,
    CHAT_AR,
    NAMES,
    NAMES_AR,
    RATINGS,
    T0,
    players,
    room,
    seat_entry,
    snapshot,
    user,
)
from fh_scene_players import play_until

from fourhundred.engine import GameState, Phase, preset, record_from_state

DEMO_DIR = Path(__file__).resolve().parent / "demo"


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
    play_until(
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

    play_until(s, rng, following)
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
    play_until(t, rng, lambda g: g.phase is Phase.PLAY and not g.current_trick)
    scenes["trick"] = {
        "screen": "table",
        "me": me,
        "frame": snapshot(t, 0, players(bots=(1,)), remaining_ms=8000),
    }

    # The end of a game, and its record for the replay viewer.
    rng = random.Random(7)
    s = GameState(preset("standard"), first_dealer=0)
    play_until(s, rng, lambda g: g.phase is Phase.OVER)
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
