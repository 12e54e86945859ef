"""Exact solving of the last tricks of one deal with every card known.

The value of a finished hand, for one team, is what 400 scores: each player
made or failed against their own bid, at the real bid values, plus a bonus
when the hand wins or loses the game (:class:`Scorer`). Because that value
only changes when a player makes or misses a bid, the search stops as soon
as every player's fate is settled, skips cards that are equivalent (touching
cards in one hand) and caches positions at trick boundaries; alpha-beta on
the team value (one team maximises, the other minimises) does the rest.

>>> from fourhundred.engine import GameState, view_for
>>> s = GameState(first_dealer=0)
>>> s.deal_random(seed=5)
>>> for _ in range(4): s.bid_unchecked(3)
>>> while s.n_tricks < 10: _ = s.play_unchecked(s.timeout_action())
>>> sc = Scorer.from_state(s, team=0)
>>> vals = solve_root(s.hands, s.current_trick, s.turn, s.tricks_won, sc)
>>> sorted(vals) == sorted(cards_of_mask(s.legal_mask()))
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from fourhundred.engine import (
    SEAT_AFTER,
    TEAM_OF,
    GameState,
    Settings,
    bid_value,
    legal_plays,
    next_seat,
    other_team,
    trick_winner,
    winning_team,
)

from .heuristic import GAME_BONUS
from .knowledge import ABOVE
from .speedups import fast_solve

__all__ = ["Scorer", "cards_of_mask", "distinct_cards", "solve_root"]

_INF: Final = 10**9


def cards_of_mask(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


@dataclass(slots=True)
class Scorer:
    """The value of a hand's outcome for ``team`` (team points: ours minus
    theirs, plus or minus :data:`GAME_BONUS` when the game is decided)."""

    settings: Settings
    team: int
    bids: list[int]
    values: list[int]
    scores: list[int]
    thirteen: int
    """The seat that bid 13, or -1."""
    cache: dict[tuple[bool, bool, bool, bool], float]
    table: list[float] = field(default_factory=list)
    """:meth:`outcomes`, once asked."""

    @classmethod
    def create(cls, settings: Settings, team: int, bids: list[int], scores: list[int]) -> Scorer:
        values = [
            0 if b in (0, 13) else bid_value(settings, b, scores[s]) for s, b in enumerate(bids)
        ]
        thirteen = bids.index(13) if 13 in bids else -1
        return cls(settings, team, list(bids), values, list(scores), thirteen, {})

    @classmethod
    def from_state(cls, state: GameState, team: int) -> Scorer:
        return cls.create(state.settings, team, list(state.bids), list(state.scores))

    def outcomes(self) -> list[float]:
        """:meth:`value` of each outcome: item ``k`` where seat ``s`` made
        its bid when bit ``s`` of ``k`` is set (no 13 bid)."""
        if not self.table:
            b = self.bids
            self.table = [
                self.value([b[s] if k >> s & 1 else b[s] - 1 for s in range(4)]) for k in range(16)
            ]
        return self.table

    def value(self, won: list[int]) -> float:
        """The value of a finished hand in which seat ``s`` won ``won[s]``."""
        if self.thirteen >= 0:
            ok = won[self.thirteen] == 13
            team = TEAM_OF[self.thirteen]
            winner = team if ok else other_team(team)
            return 2.0 * GAME_BONUS if winner == self.team else -2.0 * GAME_BONUS
        b = self.bids
        key = (won[0] >= b[0], won[1] >= b[1], won[2] >= b[2], won[3] >= b[3])
        got = self.cache.get(key)
        if got is not None:
            return got
        v = self.values
        deltas = [v[s] if key[s] else -v[s] for s in range(4)]
        t = self.team
        out = float(deltas[t] + deltas[t + 2] - deltas[1 - t] - deltas[3 - t])
        after = [self.scores[s] + deltas[s] for s in range(4)]
        w = winning_team(self.settings, after)
        if w is not None:
            out += GAME_BONUS if w == t else -GAME_BONUS
        self.cache[key] = out
        return out


def distinct_cards(hand: int, legal: int, in_play: int) -> list[int]:
    """The legal cards, one of each run of touching cards (two cards of a
    suit in one hand with no card in play between them win and lose the
    same tricks). Highest first, which also orders the search well."""
    out = []
    m = legal
    while m:
        top = m.bit_length() - 1
        m ^= 1 << top
        above = ABOVE[top] & in_play
        if above:
            nxt = (above & -above).bit_length() - 1
            if hand >> nxt & 1:
                continue
        out.append(top)
    return out


def _settled(won: list[int], bids: list[int], left: int) -> bool:
    for s in range(4):
        w = won[s]
        if w < bids[s] <= w + left:
            return False
    return True


class _Solver:
    __slots__ = ("bids", "nodes", "scorer", "table", "thirteen")

    def __init__(self, scorer: Scorer) -> None:
        self.scorer = scorer
        self.bids = scorer.bids if scorer.thirteen < 0 else [0, 0, 0, 0]
        self.thirteen = scorer.thirteen
        self.table: dict[tuple[int, ...], tuple[float, float]] = {}
        self.nodes = 0

    def search(  # noqa: PLR0911, PLR0913, PLR0917 - the exact solver's node: flat, positional, early exits; an object per call would cost speed
        self,
        hands: list[int],
        trick: list[int],
        leader: int,
        won: list[int],
        alpha: float,
        beta: float,
    ) -> float:
        self.nodes += 1
        n = len(trick)
        if n == 0:
            left = (hands[0] | hands[1] | hands[2] | hands[3]).bit_count() // 4
            if left == 0:
                return self.scorer.value(won)
            if self.thirteen >= 0:
                if won[self.thirteen] + left < 13 or left == 0:
                    return self.scorer.value(won)
            elif _settled(won, self.bids, left):
                return self.scorer.value(won)
            key = (hands[0], hands[1], hands[2], hands[3], leader, won[0], won[1], won[2], won[3])
            got = self.table.get(key)
            lo, hi = (-_INF, _INF) if got is None else got
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            a0 = max(alpha, lo)
            b0 = min(beta, hi)
            if a0 >= b0:
                return lo
            v = self._moves(hands, trick, leader, won, a0, b0)
            if v <= a0:
                self.table[key] = (lo, v)
            elif v >= b0:
                self.table[key] = (v, hi)
            else:
                self.table[key] = (v, v)
            return v
        return self._moves(hands, trick, leader, won, alpha, beta)

    def _moves(  # noqa: PLR0913, PLR0917 - the exact solver's move loop, positional like search (its hot path)
        self,
        hands: list[int],
        trick: list[int],
        leader: int,
        won: list[int],
        alpha: float,
        beta: float,
    ) -> float:
        n = len(trick)
        # The engine's tables, not its functions: this runs at every node.
        seat = SEAT_AFTER[leader][n]
        h = hands[seat]
        legal = legal_plays(h, trick)
        in_play = hands[0] | hands[1] | hands[2] | hands[3]
        for c in trick:
            in_play |= 1 << c
        maxing = TEAM_OF[seat] == self.scorer.team
        best: float = -_INF if maxing else _INF
        for c in distinct_cards(h, legal, in_play):
            hands[seat] = h ^ (1 << c)
            trick.append(c)
            if n == 3:
                winner = trick_winner(trick, leader)
                won[winner] += 1
                if self.thirteen >= 0 and winner != self.thirteen:
                    v = self.scorer.value(won)
                else:
                    v = self.search(hands, [], winner, won, alpha, beta)
                won[winner] -= 1
            else:
                v = self.search(hands, trick, leader, won, alpha, beta)
            trick.pop()
            hands[seat] = h
            if maxing:
                best = max(best, v)
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best


def solve_root(  # noqa: PLR0913 - the position's parts, as the search holds them
    hands: list[int],
    trick: list[int],
    turn: int,
    won: list[int],
    scorer: Scorer,
    *,
    fast: bool = True,
) -> dict[int, float]:
    """The exact value (for ``scorer.team``) of each legal card of the seat
    to act, with every hand known. Equivalent cards get the same value.
    Solved in C where it is built (``fast``; not with a 13 bid), else in
    Python: the same values."""
    hands = list(hands)
    trick = list(trick)
    won = list(won)
    leader = next_seat(turn, -len(trick))
    h = hands[turn]
    legal = legal_plays(h, trick)
    in_play = hands[0] | hands[1] | hands[2] | hands[3]
    for c in trick:
        in_play |= 1 << c
    if fast and fast_solve is not None and scorer.thirteen < 0:
        maximising = [int(TEAM_OF[s] == scorer.team) for s in range(4)]
        out = fast_solve(hands, trick, leader, won, scorer.bids, scorer.outcomes(), maximising)
        return _with_touching(out, legal, in_play)
    out = _solve_python(hands, trick, leader, won, scorer, reps=distinct_cards(h, legal, in_play))
    return _with_touching(out, legal, in_play)


def _solve_python(  # noqa: PLR0913 - solve_root's position and the cards to value
    hands: list[int],
    trick: list[int],
    leader: int,
    won: list[int],
    scorer: Scorer,
    *,
    reps: list[int],
) -> dict[int, float]:
    """:func:`solve_root`'s values of the distinct cards ``reps``, in
    Python (the twin of the C ``solve``, and the solver of hands with a 13
    bid)."""
    solver = _Solver(scorer)
    n = len(trick)
    turn = SEAT_AFTER[leader][n]
    h = hands[turn]
    out: dict[int, float] = {}
    for c in reps:
        hands[turn] = h ^ (1 << c)
        trick.append(c)
        if n == 3:
            winner = trick_winner(trick, leader)
            won[winner] += 1
            if scorer.thirteen >= 0 and winner != scorer.thirteen:
                v = scorer.value(won)
            else:
                v = solver.search(hands, [], winner, won, -_INF, _INF)
            won[winner] -= 1
        else:
            v = solver.search(hands, trick, leader, won, -_INF, _INF)
        trick.pop()
        hands[turn] = h
        out[c] = v
    return out


def _with_touching(out: dict[int, float], legal: int, in_play: int) -> dict[int, float]:
    """``out`` (the distinct cards' values) with every legal card: cards
    equivalent to a representative share its value."""
    for c in cards_of_mask(legal):
        if c not in out:
            above = ABOVE[c] & in_play
            nxt = c
            while above and nxt not in out:
                nxt = (above & -above).bit_length() - 1
                above &= above - 1
            out[c] = out.get(nxt, 0.0)
    return out
