"""Replays of finished games (docs/protocol.md, "Finished games, players,
ratings"): the views the engine computes after every action, step by step,
with every hand face up (a finished game hides nothing). The server computes
no rule here: it turns the stored record into JSON through the engine
(``GET /api/games/{id}/replay`` in :mod:`.api`).
"""

from __future__ import annotations

import gzip
from typing import Any, Final

import msgspec

from fourhundred.engine import GameRecord, replay
from fourhundred.engine.steps import replay_steps

__all__ = ["REPLAY_FORMAT", "replay_body", "replay_json"]

REPLAY_FORMAT: Final = "fourhundred-replay/1"


def replay_json(game_id: str, record: object) -> dict[str, Any]:
    """The replay of a finished game's record: every hand, every step."""
    rec = GameRecord.from_dict(record)
    final = replay(rec)
    return {
        "format": REPLAY_FORMAT,
        "id": game_id,
        "rules": rec.settings.to_dict(),
        "first_dealer": rec.first_dealer,
        "hands": [
            {
                "hand_index": h.hand_index,
                "dealer": h.dealer,
                "steps": [s.to_dict() for s in h.steps],
                "line": h.line,
            }
            for h in replay_steps(rec)
        ],
        "scores": list(final.scores),
        "winner": final.winner,
    }


def replay_body(game_id: str, record: object, *, gzipped: bool) -> bytes:
    """The encoded replay, gzipped when the client accepts it: a game's
    views repeat themselves, so it shrinks about forty times (a 15-hand game:
    850 kB of JSON, 21 kB sent)."""
    body = msgspec.json.encode(replay_json(game_id, record))
    return gzip.compress(body, compresslevel=6) if gzipped else body
