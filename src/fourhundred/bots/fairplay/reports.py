"""What the server files after a game: one report by the system per flagged
partnership, for a moderator to review, never an automatic ban
(docs/fair-play.md, "Reports").

>>> from fourhundred.bots.fairplay.evidence import Evidence
>>> from fourhundred.bots.fairplay.scorer import seat_scores
>>> e = Evidence(decisions=3, llr=1.2, llr_sq=1.0)
>>> ten_hands = [[e, Evidence(), e, Evidence()]] * 10
>>> [(f.seats, round(f.z, 2)) for f in flags(seat_scores(ten_hands))]
[((0, 2), 3.16)]
>>> flags(seat_scores([[Evidence()] * 4]))
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from fourhundred.engine import team_seats

from .scorer import SeatScore

__all__ = ["REASON", "FairPlayFlag", "flags"]

REASON: Final = "fair_play"
"""The reason a system report carries."""


@dataclass(frozen=True, slots=True)
class FairPlayFlag:
    """A flagged partnership: its seats, its score and the evidence behind
    it, and one line for the moderator."""

    team: int
    seats: tuple[int, int]
    z: float
    decisions: int
    discriminating: int
    agree_true: int
    agree_ref: int
    policy_z: float = 0.0

    @property
    def text(self) -> str:
        return (
            f"Seats {self.seats[0]} and {self.seats[1]}: bids and cards follow the partner's"
            f" hidden hand (fair-play score {self.z:.1f} over {self.decisions} bids and cards;"
            f" where the partner's hand changes the best one, {self.agree_true} of"
            f" {self.discriminating} played its best against {self.agree_ref} for the"
            f" best from their own view; second score {self.policy_z:.1f}: cards played as"
            " if told the partner's hand). For review, not a verdict."
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": REASON,
            "team": self.team,
            "seats": list(self.seats),
            "z": self.z,
            "policy_z": self.policy_z,
            "decisions": self.decisions,
            "text": self.text,
        }


def flags(scores: Sequence[SeatScore]) -> list[FairPlayFlag]:
    """One flag per flagged partnership of :func:`.scorer.score_game`'s
    scores (none when nobody is flagged)."""
    out = []
    for team in (0, 1):
        a, b = team_seats(team)
        s = scores[a]
        if not s.flagged:
            continue
        p = s.pair
        out.append(
            FairPlayFlag(
                team,
                (a, b),
                p.z,
                p.decisions,
                p.discriminating,
                p.agree_true,
                p.agree_ref,
                p.policy_z,
            )
        )
    return out
