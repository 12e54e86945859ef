"""Who plays whom: seeding, the knockout bracket, Swiss pairings and
standings. Pure functions of plain values (team ids are strings).

A knockout bracket is a list of slots in bracket order, its length a power
of two; a slot left empty (None) gives the team beside it a bye, and the
seeding puts the empty slots beside the top seeds:

>>> bracket(["s1", "s2", "s3"])
['s1', None, 's2', 's3']
>>> knockout_round(bracket(["s1", "s2", "s3"]))
([('s2', 's3')], ['s1'])

A Swiss round pairs teams in standing order, each with the nearest team it
has not met yet:

>>> swiss_round(["a", "b", "c", "d"], {frozenset({"a", "b"})}, set())
([('a', 'c'), ('b', 'd')], None)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

__all__ = [
    "DEFAULT_RATING",
    "Outcome",
    "Standing",
    "advance",
    "bracket",
    "knockout_round",
    "pair_solos",
    "seed_teams",
    "standings",
    "swiss_round",
]

DEFAULT_RATING: Final = 1500
"""The rating of a player the ratings mapping does not name."""
SEARCH_BUDGET: Final = 20_000
"""Steps the search for a pairing without rematches may take before it
settles for the fewest rematches it can find greedily."""

Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Outcome:
    """A decided match: a game's result, or a forfeit (no points)."""

    a: str
    b: str
    winner: str
    points_a: int = 0
    points_b: int = 0


@dataclass(frozen=True, slots=True)
class Standing:
    team: str
    match_points: int
    buchholz: int
    """The sum of the match points of the teams this one met."""
    difference: int
    """Points scored less points conceded, over its games."""


def _rating(ratings: Mapping[str, int], player: str) -> int:
    return ratings.get(player, DEFAULT_RATING)


def seed_teams(teams: Mapping[str, Sequence[str]], ratings: Mapping[str, int]) -> list[str]:
    """Team ids, best seed first: by the players' average rating, then id."""

    def key(team: str) -> tuple[float, str]:
        players = teams[team]
        return (-sum(_rating(ratings, p) for p in players) / len(players), team)

    return sorted(teams, key=key)


def pair_solos(players: Sequence[str], ratings: Mapping[str, int]) -> tuple[list[Pair], str | None]:
    """Solo entrants (in the order they entered) made into teams: the last
    entrant waits out an odd count; the others, by rating, best with worst,
    so the teams come out even."""
    left = players[-1] if len(players) % 2 else None
    pool = sorted((p for p in players if p != left), key=lambda p: (-_rating(ratings, p), p))
    half = len(pool) // 2
    return [(pool[i], pool[-1 - i]) for i in range(half)], left


# ----------------------------------------------------------------- knockout


def bracket(seeds: Sequence[str]) -> list[str | None]:
    """The first round's slots: seed 1 meets the last seed, and seeds 1 and
    2 can only meet in the final. Empty slots (byes) sit beside top seeds."""
    size = 1
    while size < len(seeds):
        size *= 2
    order = [1]
    while len(order) < size:
        span = 2 * len(order) + 1
        order = [x for s in order for x in (s, span - s)]
    return [seeds[s - 1] if s <= len(seeds) else None for s in order]


def _halves(slots: Sequence[str | None]) -> list[tuple[str | None, str | None]]:
    return list(zip(slots[0::2], slots[1::2], strict=True))


def knockout_round(slots: Sequence[str | None]) -> tuple[list[Pair], list[str]]:
    """The matches and the byes of a round played over ``slots``."""
    pairs: list[Pair] = []
    byes: list[str] = []
    for a, b in _halves(slots):
        if a is not None and b is not None:
            pairs.append((a, b))
        elif a is not None or b is not None:
            byes.append(a if a is not None else str(b))
    return pairs, byes


def advance(slots: Sequence[str | None], through: Collection[str]) -> list[str | None]:
    """The next round's slots: from each pair, the team that went through."""
    return [a if a in through else b if b in through else None for a, b in _halves(slots)]


# -------------------------------------------------------------------- swiss


def standings(
    seeds: Sequence[str], outcomes: Sequence[Outcome], byes: Sequence[str]
) -> list[Standing]:
    """Every team ranked: by match points (a win or a bye is one), then
    Buchholz, then points difference, then seed."""
    points = dict.fromkeys(seeds, 0)
    difference = dict.fromkeys(seeds, 0)
    met: dict[str, list[str]] = {t: [] for t in seeds}
    for team in byes:
        points[team] += 1
    for o in outcomes:
        points[o.winner] += 1
        difference[o.a] += o.points_a - o.points_b
        difference[o.b] += o.points_b - o.points_a
        met[o.a].append(o.b)
        met[o.b].append(o.a)
    table = [Standing(t, points[t], sum(points[x] for x in met[t]), difference[t]) for t in seeds]
    rank = {t: i for i, t in enumerate(seeds)}
    return sorted(table, key=lambda s: (-s.match_points, -s.buchholz, -s.difference, rank[s.team]))


class _OutOfBudget(Exception):
    pass


class _Search:
    """Backtracking over the ranked teams: the first unpaired team takes the
    nearest one it has not met; on a dead end the previous choice moves on."""

    def __init__(self, played: Collection[frozenset[str]]) -> None:
        self.played = played
        self.steps = 0

    def pairs(self, teams: list[str]) -> list[Pair] | None:
        if not teams:
            return []
        self.steps += 1
        if self.steps > SEARCH_BUDGET:
            raise _OutOfBudget
        first, rest = teams[0], teams[1:]
        for i, other in enumerate(rest):
            if frozenset((first, other)) in self.played:
                continue
            tail = self.pairs(rest[:i] + rest[i + 1 :])
            if tail is not None:
                return [(first, other), *tail]
        return None


def _no_rematch(teams: list[str], search: _Search) -> list[Pair] | None:
    try:
        return search.pairs(teams)
    except _OutOfBudget:
        return None


def _greedy(teams: list[str], played: Collection[frozenset[str]]) -> list[Pair]:
    """Pairs in rank order, avoiding a rematch where the next team allows."""
    pool = list(teams)
    pairs: list[Pair] = []
    while pool:
        first = pool.pop(0)
        other = next((t for t in pool if frozenset((first, t)) not in played), pool[0])
        pool.remove(other)
        pairs.append((first, other))
    return pairs


def swiss_round(
    ranking: Sequence[str], played: Collection[frozenset[str]], had_bye: Collection[str]
) -> tuple[list[Pair], str | None]:
    """A Swiss round over ``ranking`` (best first): pairs without a rematch
    when there are any, and for an odd count a bye to the lowest-ranked team
    that has not had one (the next one up when the rest cannot be paired)."""
    teams = list(ranking)
    search = _Search(played)
    if not len(teams) % 2:
        return _no_rematch(teams, search) or _greedy(teams, played), None
    fresh = [t for t in reversed(teams) if t not in had_bye]
    candidates = fresh + [t for t in reversed(teams) if t in had_bye]
    for bye in candidates:
        rest = [t for t in teams if t != bye]
        found = _no_rematch(rest, search)
        if found is not None:
            return found, bye
    bye = candidates[0]
    return _greedy([t for t in teams if t != bye], played), bye
