"""Fair play: a collusion detector for partnerships (docs/fair-play.md).

* :mod:`.scorer`: per seat of a finished game, how much better its cards
  are explained by its partner's hidden hand than by its own view;
  :func:`score_game` scores one game, and the server's sweeper adds
  :func:`score_by_hand`'s evidence up over a partnership's games.
* :mod:`.policy`: the second statistic: do the cards follow the partner's
  hand the way a player told it would play them?
* :mod:`.evidence`: the evidence added up over decisions and games.
* :mod:`.reports`: a flagged partnership as a report by the system.
* :mod:`.measure`: the measurement (``bench/fairplay.py``).
* :mod:`.worlds`: deals with the partner's hand fixed.
* :mod:`.panel`: the honest players the threshold is measured on.
* :mod:`.colluders`: **cheating bots, for measurement only**: they are
  told their partner's hand, so they are never registered as playable bots
  (``BOTS``, levels) and nothing outside this package and the bench uses
  them.
"""

from __future__ import annotations

from .evidence import Evidence
from .reports import REASON, FairPlayFlag, flags
from .scorer import (
    FLAG_Z,
    MIN_DECISIONS,
    POLICY_FLAG_Z,
    ScoreOptions,
    SeatScore,
    flagged,
    score_by_hand,
    score_game,
    seat_scores,
    thresholds_at,
)

__all__ = [
    "FLAG_Z",
    "MIN_DECISIONS",
    "POLICY_FLAG_Z",
    "REASON",
    "Evidence",
    "FairPlayFlag",
    "ScoreOptions",
    "SeatScore",
    "flagged",
    "flags",
    "score_by_hand",
    "score_game",
    "seat_scores",
    "thresholds_at",
]
