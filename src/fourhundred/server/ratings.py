"""Ratings: OpenSkill (Plackett-Luce) for 2 v 2 games.

A player's rating is (mu, sigma); what people see is ``round(60 * mu)``
(1500 for a new player); rankings and matchmaking use the conservative
``mu - 3 sigma``.

>>> r = rate_game([(25.0, 25 / 3)] * 4, winner=0)
>>> display(r[0][0]) > 1500 > display(r[1][0]), r[0] == r[2]
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from openskill.models import PlackettLuce

from fourhundred.engine import other_team, team_of

__all__ = ["Rating", "balanced_teams", "conservative", "display", "leaver_loss", "rate_game"]

Rating = tuple[float, float]
"""(mu, sigma)."""


@cache
def _model() -> PlackettLuce:
    return PlackettLuce()


def display(mu: float) -> int:
    """The number people see for a rating."""
    return round(60 * mu)


def conservative(r: Rating) -> float:
    """mu - 3 sigma: the rating the system is fairly sure of."""
    return r[0] - 3 * r[1]


def rate_game(by_seat: Sequence[Rating], winner: int) -> list[Rating]:
    """New ratings by seat after a game that team ``winner`` won (seats 0 and
    2 are team 0)."""
    m = _model()
    p = [m.rating(mu=mu, sigma=sigma) for mu, sigma in by_seat]
    ranks = [1.0, 2.0] if winner == 0 else [2.0, 1.0]
    (a, c), (b, d) = m.rate([[p[0], p[2]], [p[1], p[3]]], ranks=ranks)
    return [(x.mu, x.sigma) for x in (a, b, c, d)]


def leaver_loss(by_seat: Sequence[Rating], seat: int) -> Rating:
    """The leaver's new rating when leaving a Ranked game counts as a loss
    (the others' ratings do not change)."""
    return rate_game(by_seat, winner=other_team(team_of(seat)))[seat]


def balanced_teams(players: Sequence[Rating]) -> tuple[int, int, int, int]:
    """Seat four players (indices into ``players``) so that the two teams'
    predicted chances are as even as possible: returns the player index for
    seats 0..3 (seats 0 and 2 are partners).

    >>> balanced_teams([(40.0, 1.0), (35.0, 1.0), (15.0, 1.0), (10.0, 1.0)])
    (0, 1, 3, 2)
    """
    m = _model()
    best: tuple[float, tuple[int, int, int, int]] | None = None
    for pair in combinations(range(1, 4), 1):
        # Player 0's partner is pair[0]; the other two are the other team.
        partner = pair[0]
        rest = [i for i in range(1, 4) if i != partner]
        r = [m.rating(mu=mu, sigma=sigma) for mu, sigma in players]
        p0, _ = m.predict_win([[r[0], r[partner]], [r[rest[0]], r[rest[1]]]])
        gap = abs(p0 - 0.5)
        seats = (0, rest[0], partner, rest[1])
        if best is None or gap < best[0] - 1e-12:
            best = (gap, seats)
    assert best is not None
    return best[1]
