"""The end of a hand (docs/rules.md, "Scoring" and "Winning"): each
seat's score moves by its bid's value, made or not (or a 13 bid decides the
game); the hand joins the history; and either the game is over or the next
hand waits for its deal, its dealer, required total and first bidder known.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .phase import NO_BID, Phase
from .scoring import bid_value, required_total, winning_team
from .seats import bidding_order, next_seat, team_of
from .summary import HandSummary

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["close_hand", "finish_hand", "settle_hand"]

_NEXT: Final = tuple(next_seat(seat) for seat in range(4))


def finish_hand(g: GameState) -> None:
    """Score the hand whose last trick is complete."""
    close = settle_hand if g.lean else close_hand
    bidder = g.thirteen_bidder
    if bidder >= 0:
        team = team_of(bidder)
        won = g.tricks_won[bidder] == 13
        close(
            g,
            thrown_in=False,
            redeal_request=None,
            deltas=(0, 0, 0, 0),
            winner=team if won else 1 - team,
        )
        return
    bids, won_tricks, scores, st = g.bids, g.tricks_won, g.scores, g.settings
    deltas = [0, 0, 0, 0]
    for s in (0, 1, 2, 3):
        b = bids[s]
        v = bid_value(st, b, scores[s])
        deltas[s] = v if won_tricks[s] >= b else -v
    close(g, thrown_in=False, redeal_request=None, deltas=tuple(deltas))


def settle_hand(
    g: GameState,
    *,
    thrown_in: bool,
    redeal_request: int | None,
    deltas: tuple[int, ...],
    winner: int | None = None,
) -> None:
    """The end of a lean copy's hand (``GameState.clone(lean=True)``), in
    place of :func:`close_hand`: the scores move and the game is won
    or not, as in :func:`close_hand`; the hand is not kept and no next hand
    follows (the copy's game is ``OVER``, its ``winner`` ``None`` when no
    team has won)."""
    sc = g.scores
    sc[0] += deltas[0]
    sc[1] += deltas[1]
    sc[2] += deltas[2]
    sc[3] += deltas[3]
    if winner is None and not thrown_in:
        winner = winning_team(g.settings, sc)
    g.winner = winner
    g.phase = Phase.OVER


def close_hand(
    g: GameState,
    *,
    thrown_in: bool,
    redeal_request: int | None,
    deltas: tuple[int, ...],
    winner: int | None = None,
) -> None:
    """Add ``deltas`` to the scores, keep the hand in the history, and end
    the game or wait for the next deal."""
    sc = g.scores
    sc[0] += deltas[0]
    sc[1] += deltas[1]
    sc[2] += deltas[2]
    sc[3] += deltas[3]
    d = g.dealer
    b = g.bids
    order = bidding_order(d)[: g.n_bids]
    g.history.append(
        HandSummary(
            g.hand_index,
            d,
            g.dealt,
            redeal_request,
            tuple([b[s] for s in order]),
            tuple(g.plays),
            thrown_in,
            tuple(g.tricks_won),
            deltas,
            tuple(sc),
            # NO_BID is 0 and every bid is at least 1: `or None` is exact.
            (b[0] or None, b[1] or None, b[2] or None, b[3] or None),
            tuple(g.trick_winners),
        )
    )
    if winner is None and not thrown_in:
        winner = winning_team(g.settings, sc)
    if winner is not None:
        g.winner = winner
        g.phase = Phase.OVER
        return
    g.hand_index += 1
    if redeal_request is None:
        g.dealer = _NEXT[d]
    g.phase = Phase.DEAL
    g.turn = _NEXT[g.dealer]
    # The next hand's required total and first bid depend only on the
    # scores, so they are known before its deal (docs/game-record.md, "The
    # result of a replay": `next`).
    g.bids = [NO_BID] * 4
    g.n_bids = 0
    g.thirteen_bidder = -1
    g.required = required_total(g.settings, sc)
