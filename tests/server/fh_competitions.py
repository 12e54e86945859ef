"""Helpers of the tournament tests: commands run through ``decide`` the way
the director will run them, each checked to leave the caller's model as it
was."""

from __future__ import annotations

import random

import pytest

from fourhundred.server.competitions import SYSTEM, Player, TournamentModel, decide, rebuild
from fourhundred.server.competitions import events as ev
from fourhundred.server.competitions.commands import (
    AcceptPartner,
    CheckIn,
    Command,
    Create,
    EnterTeam,
    ReportResult,
    Start,
)
from fourhundred.server.competitions.events import Format
from fourhundred.server.errors import CommandError

ORG = Player("org")
T0 = 1_000_000_000
START = T0 + 7_200_000


def create(
    fmt: Format = "swiss", rounds: int | None = 3, max_teams: int = 64
) -> tuple[TournamentModel, list[ev.TournamentEvent]]:
    """A new tournament and its log so far."""
    log = decide(
        None,
        ORG,
        Create("Cup", fmt, max_teams, START, rounds=rounds if fmt == "swiss" else None),
        T0,
    )
    return rebuild(log), log


def run(
    m: TournamentModel,
    actor: Player | object,
    cmd: Command,
    now: int = START,
    log: list[ev.TournamentEvent] | None = None,
) -> list[ev.TournamentEvent]:
    """Decide (checking ``m`` untouched), then apply the events to ``m``."""
    before = m.copy()
    out = decide(m, actor, cmd, now)  # type: ignore[arg-type]
    assert m == before
    for e in out:
        m.apply(e)
    if log is not None:
        log.extend(out)
    return out


def refused(
    m: TournamentModel, actor: Player | object, cmd: Command, code: str, now: int = START
) -> CommandError:
    """The command is refused with ``code`` and changes nothing."""
    before = m.copy()
    with pytest.raises(CommandError) as info:
        decide(m, actor, cmd, now)  # type: ignore[arg-type]
    assert info.value.code == code, info.value
    assert m == before
    return info.value


def enter_teams(
    m: TournamentModel, n: int, log: list[ev.TournamentEvent] | None = None, check_in: bool = True
) -> list[str]:
    """``n`` complete teams (``a{i}`` with ``b{i}``), checked in; their ids."""
    teams = []
    for i in range(n):
        (entered,) = run(m, Player(f"a{i}"), EnterTeam(f"b{i}"), log=log)
        assert isinstance(entered, ev.Entered) and entered.team is not None
        run(m, Player(f"b{i}"), AcceptPartner(entered.team), log=log)
        if check_in:
            run(m, Player(f"a{i}"), CheckIn(), log=log)
            run(m, Player(f"b{i}"), CheckIn(), log=log)
        teams.append(entered.team)
    return teams


def ratings(n: int, rng: random.Random) -> dict[str, int]:
    return {f"{x}{i}": rng.randrange(1000, 2000) for i in range(n) for x in "ab"}


def play_round(m: TournamentModel, rng: random.Random, log: list[ev.TournamentEvent]) -> None:
    """Report a random result for every undecided match of the current round."""
    current = m.current
    assert current is not None
    for table in [t for t in current.tables if t.table not in current.outcomes]:
        winner = rng.choice((table.a, table.b))
        won, lost = rng.randrange(41, 60), rng.randrange(-20, 41)
        run(m, SYSTEM, ReportResult(current.number, winner, won, max(lost, 0)), log=log)


def started(
    fmt: Format, n: int, rounds: int | None, rng: random.Random
) -> tuple[TournamentModel, list[ev.TournamentEvent], dict[str, int]]:
    """A tournament of ``n`` teams, started (round 1 paired)."""
    m, log = create(fmt, rounds, max_teams=max(n, 2))
    enter_teams(m, n, log)
    table = ratings(n, rng)
    run(m, ORG, Start(table), log=log)
    return m, log, table
