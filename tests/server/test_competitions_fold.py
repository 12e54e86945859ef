"""The tournament fold: a log rebuilds the tournament that wrote it, through
the stored form too, and an event that does not follow from the state is
refused."""

from __future__ import annotations

import random

import pytest
from fh_competitions import ORG, create, enter_teams, play_round, run, started

from fourhundred.server.competitions import SYSTEM, DoesNotFit, rebuild
from fourhundred.server.competitions import events as ev
from fourhundred.server.competitions.commands import (
    PairNextRound,
    Pause,
    RemoveTeam,
    Resume,
    Start,
)


def test_a_32_team_5_round_swiss_rebuilds_to_the_live_model() -> None:
    rng = random.Random(32)
    m, log, _ = started("swiss", 32, 5, rng)
    run(m, ORG, Pause(), log=log)
    run(m, ORG, RemoveTeam(m.rounds[0].tables[0].a), log=log)
    for r in range(5):
        play_round(m, rng, log)
        if r == 0:
            run(m, ORG, Resume(), log=log)
        if m.status == "running":
            run(m, SYSTEM, PairNextRound(), log=log)
    assert m.status == "finished" and isinstance(log[-1], ev.Finished)
    assert rebuild(log) == m
    stored = [ev.to_stored(e) for e in log]
    assert rebuild(ev.from_stored(kind, data) for kind, data in stored) == m


def test_a_log_starts_with_created() -> None:
    with pytest.raises(DoesNotFit):
        rebuild([ev.CheckedIn(player="a")])
    with pytest.raises(DoesNotFit):
        rebuild([])
    _, log = create()
    with pytest.raises(DoesNotFit):
        rebuild([*log, log[0]])


def test_a_stored_event_that_does_not_fit_its_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="checked_in"):
        ev.from_stored("checked_in", {"user": "a"})


def _log_of_started_swiss() -> list[ev.TournamentEvent]:
    m, log = create("swiss", 2)
    enter_teams(m, 4, log)
    run(m, ORG, Start({}), log=log)
    return log


@pytest.mark.parametrize(
    "extra",
    [
        ev.Entered(player="late"),
        ev.CheckedIn(player="a0"),
        ev.MatchResult(2, "t1", "t2", "t1", 1, 0),
        ev.MatchResult(1, "t1", "t2", "t3", 1, 0),
        ev.Forfeit(round=1, team="t9", reason="not_seated"),
        ev.RoundPaired(round=2, at_ms=0, tables=(), byes=()),
        ev.Resumed(at_ms=0),
        ev.Finished(winner="t1"),
        ev.TeamRemoved(team="t9"),
    ],
)
def test_an_event_the_state_does_not_allow_is_refused(extra: ev.TournamentEvent) -> None:
    log = _log_of_started_swiss()
    rebuild(log)
    with pytest.raises(DoesNotFit):
        rebuild([*log, extra])


def test_a_round_must_hold_every_team_once() -> None:
    m, log, _ = started("swiss", 4, 3, random.Random(1))
    play_round(m, random.Random(2), log)
    teams = m.seeds
    short = ev.RoundPaired(2, 0, (ev.Pairing(1, teams[0], teams[1]),), (teams[2],))
    twice = ev.RoundPaired(
        2, 0, (ev.Pairing(1, teams[0], teams[1]), ev.Pairing(2, teams[2], teams[0])), (teams[3],)
    )
    for bad in (short, twice):
        with pytest.raises(DoesNotFit):
            rebuild([*log, bad])


def test_a_knockout_round_must_follow_the_bracket() -> None:
    m, log, _ = started("knockout", 4, None, random.Random(3))
    first = log[-1]
    assert isinstance(first, ev.RoundPaired)
    (one, two) = first.tables
    swapped = ev.RoundPaired(1, 0, (ev.Pairing(1, one.a, two.a), ev.Pairing(2, one.b, two.b)), ())
    with pytest.raises(DoesNotFit):
        rebuild([*log[:-1], swapped])
    assert rebuild(log) == m
