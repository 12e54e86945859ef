"""Pairing, checked over whole simulated tournaments (Hypothesis): a Swiss
never repeats a match while a repeat-free round must exist, every team plays
or sits out once a round, byes go to the lowest-ranked team without one,
standings follow match points, Buchholz, points difference and seed (as
recomputed here the plain way); a knockout gives byes to top seeds only,
halves each round and ends with one winner."""

from __future__ import annotations

import random

from fh_competitions import play_round, run, started
from hypothesis import given, settings
from hypothesis import strategies as st

from fourhundred.server.competitions import SYSTEM
from fourhundred.server.competitions import events as ev
from fourhundred.server.competitions.commands import PairNextRound
from fourhundred.server.competitions.pairing import pair_solos, swiss_round

SEEDS = st.integers(0, 2**32 - 1)


def plain_standings(
    teams: list[str], results: list[ev.MatchResult], byes: list[str]
) -> list[tuple[str, int, int, int]]:
    """(team, match points, Buchholz, difference), ranked, computed team by team."""

    def match_points(team: str) -> int:
        return sum(r.winner == team for r in results) + byes.count(team)

    rows = []
    for team in teams:
        played = [r for r in results if team in (r.a, r.b)]
        opponents = [r.b if r.a == team else r.a for r in played]
        scored = sum(r.points_a if r.a == team else r.points_b for r in played)
        conceded = sum(r.points_b if r.a == team else r.points_a for r in played)
        buchholz = sum(match_points(o) for o in opponents)
        rows.append((team, match_points(team), buchholz, scored - conceded))
    rows.sort(key=lambda row: (-row[1], -row[2], -row[3], teams.index(row[0])))
    return rows


def latest_round(log: list[ev.TournamentEvent]) -> ev.RoundPaired:
    return next(e for e in reversed(log) if isinstance(e, ev.RoundPaired))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(4, 64), rounds=st.integers(1, 7), seed=SEEDS)
def test_swiss_rounds_and_standings(n: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    m, log, _ = started("swiss", n, rounds, rng)
    teams = list(m.seeds)
    met: set[frozenset[str]] = set()
    results: list[ev.MatchResult] = []
    byes: list[str] = []
    for r in range(rounds):
        paired = latest_round(log)
        assert paired.round == r + 1
        pairs = [frozenset((p.a, p.b)) for p in paired.tables]
        assert sorted([t for p in pairs for t in p] + list(paired.byes)) == sorted(teams)
        assert len(paired.byes) == n % 2
        # Each team has met at most r others: a repeat-free round exists
        # (Dirac's theorem on the graph of matches not yet played).
        if 2 * r + 3 <= n:
            assert not met.intersection(pairs)
            ranking = [row[0] for row in plain_standings(teams, results, byes)]
            fresh = [t for t in ranking if t not in byes]
            assert list(paired.byes) == (fresh[-1:] if n % 2 else [])
        met.update(pairs)
        byes.extend(paired.byes)
        play_round(m, rng, log)
        results.extend(e for e in log if isinstance(e, ev.MatchResult) and e.round == r + 1)
        expected = plain_standings(teams, results, byes)
        got = [(s.team, s.match_points, s.buchholz, s.difference) for s in m.standings()]
        assert got == expected
        if r + 1 < rounds:
            assert m.status == "running"
            run(m, SYSTEM, PairNextRound(), log=log)
    assert log[-1] == ev.Finished(winner=plain_standings(teams, results, byes)[0][0])
    assert m.status == "finished"


def power_of_two_at_least(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 40), seed=SEEDS)
def test_knockout_brackets(n: int, seed: int) -> None:
    rng = random.Random(seed)
    m, log, ratings = started("knockout", n, None, rng)
    seeds = list(m.seeds)
    by_rating = sorted(seeds, key=lambda t: (-sum(ratings[p] for p in m.teams[t].players), t))
    assert seeds == by_rating
    size = power_of_two_at_least(n)
    first = latest_round(log)
    assert sorted(first.byes) == sorted(seeds[: size - n])
    alive = set(seeds)
    losers: set[str] = set()
    playing = size
    while True:
        paired = latest_round(log)
        in_round = [t for p in paired.tables for t in (p.a, p.b)] + list(paired.byes)
        assert sorted(in_round) == sorted(alive)
        if paired.round > 1:
            assert len(in_round) == playing and not paired.byes
        play_round(m, rng, log)
        decided = [e for e in log if isinstance(e, ev.MatchResult) and e.round == paired.round]
        losers.update(e.b if e.winner == e.a else e.a for e in decided)
        alive -= losers
        playing //= 2
        assert len(alive) == playing
        if m.status != "running":
            break
        run(m, SYSTEM, PairNextRound(), log=log)
    finished = [e for e in log if isinstance(e, ev.Finished)]
    assert len(finished) == 1 and [finished[0].winner] == sorted(alive)
    assert finished[0].winner not in losers and m.winner == finished[0].winner


def test_swiss_backtracks_when_the_greedy_choice_leaves_a_rematch() -> None:
    # a-b looks best, but then c-d would meet again.
    assert swiss_round(["a", "b", "c", "d"], {frozenset("cd")}, set()) == (
        [("a", "c"), ("b", "d")],
        None,
    )


def test_swiss_pairs_everyone_even_when_every_match_was_played() -> None:
    played = {frozenset(p) for p in ("ab", "ac", "ad", "bc", "bd", "cd")}
    pairs, bye = swiss_round(["a", "b", "c", "d"], played, set())
    assert bye is None and sorted(t for p in pairs for t in p) == ["a", "b", "c", "d"]


def test_swiss_bye_moves_up_when_the_lowest_cannot_sit_out() -> None:
    # Without e, c and d (who met) would both have to play a or b: fine;
    # but e already had a bye, so d sits out, and a-b, c-e are fresh.
    pairs, bye = swiss_round(["a", "b", "c", "d", "e"], set(), {"e"})
    assert bye == "d" and pairs == [("a", "b"), ("c", "e")]


def test_solos_pair_best_with_worst_and_the_last_entrant_waits() -> None:
    ratings = {"p": 1000, "q": 1800, "r": 1400, "s": 1600, "t": 2000}
    assert pair_solos(["p", "q", "r", "s", "t"], ratings) == ([("q", "p"), ("s", "r")], "t")
    assert pair_solos([], ratings) == ([], None)


@given(n=st.integers(2, 64))
@settings(max_examples=20)
def test_swiss_pairs_neighbours_in_the_standings_when_nobody_has_met(n: int) -> None:
    ranking = [f"t{i}" for i in range(n)]
    pairs, bye = swiss_round(ranking, set(), set())
    assert bye == (ranking[-1] if n % 2 else None)
    assert pairs == [(ranking[i], ranking[i + 1]) for i in range(0, n - 1, 2)]
