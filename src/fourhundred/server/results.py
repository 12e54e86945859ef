"""The end of a game and what it changes beyond the table: ratings, a Ranked
leaver's loss, and the rows of match history and player counters.

Pure: the ratings a decision needs come in as values; the rows for the store
are computed from the table's events after they were applied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from fourhundred.engine import team_of
from fourhundred.store import GamePlayer, UserUpdate

from .events import Event, GameOver, Rating, RatingChange
from .ratings import display, leaver_loss, rate_game
from .room import TableModel

__all__ = ["Ratings", "charge", "game_over", "rows"]

Ratings = Mapping[str, tuple[float, float]]
"""(mu, sigma) of the users seated at a table."""


def charge(
    m: TableModel, seat: int, reason: Literal["timeouts", "left"], ratings: Ratings
) -> Rating | None:
    """A Ranked player who leaves (or is replaced after timeouts) takes a
    loss at once: the ``rating`` event, or None when nothing is charged."""
    user = m.seats[seat].user
    if m.kind != "ranked" or user is None or user.id in m.charged:
        return None
    ids = m.user_ids()
    if len(ids) != 4 or any(i not in ratings for i in ids):
        return None  # Ranked tables seat four people, all known
    mu, sigma = leaver_loss([ratings[i] for i in ids], seat)
    before = display(ratings[user.id][0])
    return Rating(user=user.id, before=before, after=display(mu), reason=reason, mu=mu, sigma=sigma)


def game_over(m: TableModel, reason: Literal["won", "abandoned"], ratings: Ratings) -> GameOver:
    """The ``game_over`` event: the winner and, for a rated game, the new
    ratings."""
    g = m.game
    assert g is not None
    winner = g.winner if reason == "won" else None
    ids = [s.user.id if s.user is not None else None for s in m.seats]
    rated = m.rated and winner is not None and all(i in ratings for i in ids if i) and all(ids)
    changes: tuple[RatingChange, ...] | None = None
    updates: tuple[tuple[float, float], ...] | None = None
    if rated and winner is not None:
        by_seat = [ratings[i] for i in ids if i is not None]
        updates = tuple(rate_game(by_seat, winner))
        changes = tuple(
            RatingChange(
                seat=k, user=ids[k], before=display(by_seat[k][0]), after=display(updates[k][0])
            )
            for k in range(4)
        )
    return GameOver(
        winner=winner,
        scores=tuple(g.scores),
        reason=reason,
        rated=rated,
        ratings=changes,
        updates=updates,
    )


def _bids_made(m: TableModel) -> tuple[list[int], list[int]]:
    """Per seat: bids made (hands not thrown in) and how many were made good."""
    bids, made = [0, 0, 0, 0], [0, 0, 0, 0]
    assert m.game is not None
    for h in m.game.history:
        if h.thrown_in:
            continue
        for seat, b in enumerate(h.bids_by_seat):
            if b is not None:
                bids[seat] += 1
                made[seat] += h.tricks[seat] >= b
    return bids, made


def rows(
    m: TableModel, events: Sequence[Event], known: Ratings, now_ms: int
) -> tuple[list[GamePlayer], list[UserUpdate]]:
    """What a command's events change outside the table: a leaver's new
    rating, and at the end of a game each seat's history row and each
    person's counters. ``m`` is the table after the events."""
    players: list[GamePlayer] = []
    users: list[UserUpdate] = []
    for e in events:
        if isinstance(e, Rating):
            users.append(UserUpdate(e.user, mu=e.mu, sigma=e.sigma, rated_games=1))
        elif isinstance(e, GameOver) and m.game is not None:
            bids, made = _bids_made(m)
            for k, s in enumerate(m.seats):
                uid = s.user.id if s.user is not None else None
                before = after = None
                if e.ratings is not None:
                    before, after = e.ratings[k].before, e.ratings[k].after
                elif uid is not None and uid in m.charged:
                    before, after = m.charged[uid]
                won = e.winner is not None and team_of(k) == e.winner
                players.append(
                    GamePlayer(
                        table_id=m.id,
                        seat=k,
                        user_id=uid,
                        bot=s.bot,
                        score=m.game.scores[k],
                        won=won,
                        rating_before=before,
                        rating_after=after,
                        bids_made=made[k],
                        bids=bids[k],
                        finished_ms=now_ms,
                    )
                )
                if uid is not None and uid in known:
                    new = None if e.updates is None else e.updates[k]
                    users.append(
                        UserUpdate(
                            uid,
                            mu=None if new is None else new[0],
                            sigma=None if new is None else new[1],
                            rated_games=int(new is not None),
                            games=1,
                            wins=int(won),
                            bids_made=made[k],
                            bids=bids[k],
                        )
                    )
    return players, users
