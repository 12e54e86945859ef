"""What a command does to a tournament: ``decide(model, actor, command,
now_ms)`` returns the events it causes, or raises ``CommandError`` and
nothing changes.

Pure: no I/O, no clock (the caller passes ``now_ms``), no randomness. Each
event is applied at once to a working copy, so later events see earlier
ones and the fold's own checks run; the caller's model is never touched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from fourhundred.engine import TURN_TIMERS, InvalidSettings, Settings

from ..errors import CommandError
from . import events as ev
from .commands import (
    AcceptPartner,
    Actor,
    Cancel,
    CheckIn,
    Command,
    Create,
    DeclareForfeit,
    EnterSolo,
    EnterTeam,
    PairNextRound,
    Pause,
    Player,
    RemoveTeam,
    ReportResult,
    Resume,
    Start,
    System,
    Withdraw,
)
from .model import MIN_TEAMS, Round, TournamentModel
from .pairing import knockout_round, pair_solos, seed_teams, swiss_round

__all__ = [
    "CHECK_IN_BEFORE_MS",
    "FORFEIT_AFTER_MS",
    "MAX_ROUNDS",
    "MAX_TEAMS",
    "decide",
    "scheduled",
]

FORFEIT_AFTER_MS: Final = 180_000
"""A team not seated this long after its round was paired loses the match."""
CHECK_IN_BEFORE_MS: Final = 3_600_000
"""Check-in opens this long before the start time."""
MAX_TEAMS: Final = 256
MAX_ROUNDS: Final = 15
MAX_NAME: Final = 80


class _Work:
    """Events applied to a copy of the tournament as they are decided."""

    __slots__ = ("events", "model")

    def __init__(self, model: TournamentModel) -> None:
        self.model = model.copy()
        self.events: list[ev.TournamentEvent] = []

    def add(self, event: ev.TournamentEvent) -> None:
        self.model.apply(event)
        self.events.append(event)


def decide(
    model: TournamentModel | None, actor: Actor, command: Command, now_ms: int
) -> list[ev.TournamentEvent]:
    """The events ``command`` causes, in order; ``CommandError`` if refused.
    ``model`` is None only for :class:`Create`."""
    if isinstance(command, Create):
        if model is not None:
            raise CommandError("exists", "this tournament already exists")
        return [_create(actor, command, now_ms)]
    if model is None:
        raise CommandError("not_found", "no such tournament")
    work = _Work(model)
    _HANDLERS[type(command)](work, actor, command, now_ms)
    return work.events


# ------------------------------------------------------------------ checks


def _player(actor: Actor) -> str:
    if not isinstance(actor, Player):
        raise CommandError("forbidden", "only a player can do this")
    return actor.user_id


def _organiser(model: TournamentModel, actor: Actor) -> None:
    if not (isinstance(actor, Player) and actor.user_id == model.terms.organiser):
        raise CommandError("forbidden", "only the organiser can do this")


def _system(actor: Actor, what: str) -> None:
    if not isinstance(actor, System):
        raise CommandError("forbidden", f"{what} come from the server, never from a player")


def _open(model: TournamentModel) -> None:
    if model.status != "open":
        raise CommandError("wrong_phase", f"the tournament is {model.status}, not open")


def _running(model: TournamentModel) -> Round:
    if model.status != "running" or model.current is None:
        raise CommandError("wrong_phase", f"the tournament is {model.status}, not running")
    return model.current


def _bad(message: str) -> CommandError:
    return CommandError("bad_request", message)


# ------------------------------------------------------------------ create


def _check_shape(c: Create) -> None:
    if not c.name.strip() or len(c.name) > MAX_NAME:
        raise _bad(f"a tournament's name takes 1 to {MAX_NAME} characters")
    if c.format not in ("knockout", "swiss"):
        raise _bad(f"unknown format {c.format!r} (knockout or swiss)")
    if c.format == "swiss" and not (isinstance(c.rounds, int) and 1 <= c.rounds <= MAX_ROUNDS):
        raise _bad(f"a Swiss tournament takes 1 to {MAX_ROUNDS} rounds")
    if c.format == "knockout" and c.rounds is not None:
        raise _bad("a knockout runs until one team is left: it takes no rounds")
    if not MIN_TEAMS <= c.max_teams <= MAX_TEAMS:
        raise _bad(f"a tournament takes {MIN_TEAMS} to {MAX_TEAMS} teams")


def scheduled(c: Create, now_ms: int) -> ev.Created:
    """The ``created`` event of a tournament the server schedules itself
    (its configuration's recurring ones): checked like a player's, with no
    organiser (``""``, which no account has), so nobody may pause or
    cancel it."""
    return _create(Player(""), c, now_ms)


def _create(actor: Actor, c: Create, now_ms: int) -> ev.Created:
    organiser = _player(actor)
    _check_shape(c)
    if c.start_ms <= now_ms:
        raise _bad("the start time has passed")
    if c.timer not in TURN_TIMERS:
        raise _bad(f"turn timer {c.timer!r} is not one of {TURN_TIMERS}")
    try:
        Settings.from_dict({**c.settings, "preset": c.preset})
    except InvalidSettings as e:
        raise CommandError("bad_settings", str(e)) from None
    return ev.Created(
        name=c.name.strip(),
        organiser=organiser,
        format=c.format,
        rounds=c.rounds,
        max_teams=c.max_teams,
        start_ms=c.start_ms,
        public=c.public,
        preset=c.preset,
        settings=dict(c.settings),
        timer=c.timer,
    )


# ----------------------------------------------------------------- entries


def _may_enter(model: TournamentModel, player: str, solo: bool) -> None:
    _open(model)
    if model.entry_of(player) is not None:
        raise CommandError("already_entered", f"{player} has already entered")
    # A solo entrant who completes a waiting one's pair takes no new place.
    if model.entry_count(solo=solo) > model.terms.max_teams:
        raise CommandError("full", f"the tournament is full ({model.terms.max_teams} teams)")


def _enter_team(work: _Work, actor: Actor, c: EnterTeam, now_ms: int) -> None:
    player, m = _player(actor), work.model
    _may_enter(m, player, solo=False)
    if c.partner == player:
        raise _bad("a team is two different players")
    if m.entry_of(c.partner) is not None:
        raise CommandError("partner_taken", f"{c.partner} has already entered")
    work.add(ev.Entered(player=player, team=f"t{m.entries + 1}", partner=c.partner))


def _enter_solo(work: _Work, actor: Actor, c: EnterSolo, now_ms: int) -> None:
    player = _player(actor)
    _may_enter(work.model, player, solo=True)
    work.add(ev.Entered(player=player))


def _accept(work: _Work, actor: Actor, c: AcceptPartner, now_ms: int) -> None:
    player, m = _player(actor), work.model
    _open(m)
    team = m.teams.get(c.team)
    if team is None or team.confirmed or team.players[1] != player:
        raise CommandError("not_invited", f"{player} has no invitation to team {c.team!r}")
    work.add(ev.PartnerAccepted(team=c.team, player=player))


def _check_in(work: _Work, actor: Actor, c: CheckIn, now_ms: int) -> None:
    player, m = _player(actor), work.model
    _open(m)
    if m.entry_of(player) is None:
        raise CommandError("not_entered", f"{player} has not entered")
    if player in m.checked_in:
        raise CommandError("already_checked_in", f"{player} has already checked in")
    if now_ms < m.terms.start_ms - CHECK_IN_BEFORE_MS:
        raise CommandError("too_early", "check-in opens an hour before the start")
    work.add(ev.CheckedIn(player=player))


def _withdraw(work: _Work, actor: Actor, c: Withdraw, now_ms: int) -> None:
    player, m = _player(actor), work.model
    _open(m)
    entry = m.entry_of(player)
    if entry is None:
        raise CommandError("not_entered", f"{player} has not entered")
    work.add(ev.Withdrawn(player=player, team=None if entry == "solo" else entry))


# ------------------------------------------------------------------- start


def _may_start(m: TournamentModel, actor: Actor, now_ms: int) -> None:
    _open(m)
    if isinstance(actor, System):
        if now_ms < m.terms.start_ms:
            raise CommandError("too_early", "the start time has not come")
    else:
        _organiser(m, actor)


def _pair_solos(work: _Work, ratings: dict[str, int]) -> None:
    m = work.model
    for player in [p for p in m.solos if p not in m.checked_in]:
        work.add(ev.Dropped(reason="not_checked_in", player=player))
    pairs, left = pair_solos(list(m.solos), ratings)
    if left is not None:
        work.add(ev.Dropped(reason="no_partner", player=left))
    for pair in pairs:
        work.add(ev.SoloPaired(team=f"t{m.entries + 1}", players=pair))


def _drop_teams(work: _Work) -> None:
    m = work.model
    for team_id, team in list(m.teams.items()):
        if not team.confirmed:
            work.add(ev.Dropped(reason="no_partner", team=team_id))
        elif not m.checked_in.issuperset(team.players):
            work.add(ev.Dropped(reason="not_checked_in", team=team_id))


def _start(work: _Work, actor: Actor, c: Start, now_ms: int) -> None:
    m = work.model
    _may_start(m, actor, now_ms)
    _pair_solos(work, dict(c.ratings))
    _drop_teams(work)
    if len(m.teams) < MIN_TEAMS:
        if not isinstance(actor, System):
            raise CommandError("too_few_teams", "fewer than two teams are checked in")
        work.add(ev.Cancelled(reason="too_few_teams"))
        return
    seeds = seed_teams({t: team.players for t, team in m.teams.items()}, c.ratings)
    work.add(ev.Started(at_ms=now_ms, seeds=tuple(seeds)))
    _pair_round(work, now_ms)


# ------------------------------------------------------------------ rounds


def _pair_round(work: _Work, now_ms: int) -> None:
    m = work.model
    if m.terms.format == "knockout":
        pairs, byes = knockout_round(m.next_slots())
    else:
        live = set(m.active())
        ranking = [s.team for s in m.standings() if s.team in live]
        played = {frozenset((o.a, o.b)) for o in m.outcomes()}
        had_bye = {t for r in m.rounds for t in r.byes}
        pairs, bye = swiss_round(ranking, played, had_bye)
        byes = [] if bye is None else [bye]
    tables = tuple(ev.Pairing(table=i, a=a, b=b) for i, (a, b) in enumerate(pairs, 1))
    work.add(ev.RoundPaired(round=len(m.rounds) + 1, at_ms=now_ms, tables=tables, byes=tuple(byes)))


def _pair_next(work: _Work, actor: Actor, c: PairNextRound, now_ms: int) -> None:
    m = work.model
    if not isinstance(actor, System):
        _organiser(m, actor)
    _running(m)
    if m.paused:
        raise CommandError("paused", "the tournament is paused")
    if m.round_open():
        raise CommandError("round_incomplete", "the current round has matches to play")
    _pair_round(work, now_ms)


def _settle(work: _Work) -> None:
    """Finish the tournament once its last result is in."""
    m = work.model
    if m.status != "running" or m.round_open():
        return
    winner = m.decided()
    if winner is not None:
        work.add(ev.Finished(winner=winner))
    elif not m.active():
        work.add(ev.Cancelled(reason="too_few_teams"))


def _match_of(m: TournamentModel, round_no: int, team: str) -> ev.Pairing:
    current = _running(m)
    if round_no != current.number:
        raise CommandError("wrong_round", f"round {round_no} is not round {current.number}")
    table = current.table_of(team)
    if table is None:
        raise CommandError("no_match", f"team {team!r} has no match to decide this round")
    return table


def _report(work: _Work, actor: Actor, c: ReportResult, now_ms: int) -> None:
    _system(actor, "results")
    table = _match_of(work.model, c.round, c.winner)
    # No bound on the points: a team's total is its players' final scores,
    # which go below zero on failed bids (docs/rules.md, "Scoring"); refusing
    # them left a finished match unreported and its tournament stuck.
    won_a = c.winner == table.a
    points_a, points_b = (
        (c.winner_points, c.loser_points) if won_a else (c.loser_points, c.winner_points)
    )
    work.add(ev.MatchResult(c.round, table.a, table.b, c.winner, points_a, points_b))
    _settle(work)


def _forfeit(work: _Work, actor: Actor, c: DeclareForfeit, now_ms: int) -> None:
    _system(actor, "forfeits")
    m = work.model
    _match_of(m, c.round, c.team)
    if m.paused:
        raise CommandError("paused", "the tournament is paused")
    current = _running(m)
    if now_ms < current.at_ms + c.after_ms:
        raise CommandError("too_early", "a team has three minutes to be seated")
    work.add(ev.Forfeit(round=c.round, team=c.team, reason="not_seated"))
    _settle(work)


# --------------------------------------------------------------- organiser


def _pause(work: _Work, actor: Actor, c: Pause, now_ms: int) -> None:
    _organiser(work.model, actor)
    _running(work.model)
    if work.model.paused:
        raise CommandError("paused", "the tournament is already paused")
    work.add(ev.Paused(at_ms=now_ms))


def _resume(work: _Work, actor: Actor, c: Resume, now_ms: int) -> None:
    _organiser(work.model, actor)
    _running(work.model)
    if not work.model.paused:
        raise CommandError("not_paused", "the tournament is not paused")
    work.add(ev.Resumed(at_ms=now_ms))


def _remove(work: _Work, actor: Actor, c: RemoveTeam, now_ms: int) -> None:
    m = work.model
    _organiser(m, actor)
    if m.status not in ("open", "running"):
        raise CommandError("wrong_phase", f"the tournament is {m.status}")
    team = m.teams.get(c.team)
    if team is None or team.removed:
        raise CommandError("unknown_team", f"no team {c.team!r} in this tournament")
    work.add(ev.TeamRemoved(team=c.team))
    current = m.current
    if current is not None and current.table_of(c.team) is not None:
        work.add(ev.Forfeit(round=current.number, team=c.team, reason="removed"))
    _settle(work)


def _cancel(work: _Work, actor: Actor, c: Cancel, now_ms: int) -> None:
    _organiser(work.model, actor)
    if work.model.status not in ("open", "running"):
        raise CommandError("wrong_phase", f"the tournament is {work.model.status}")
    work.add(ev.Cancelled(reason="organiser"))


_HANDLERS: Final[dict[type, Callable[[_Work, Actor, Any, int], None]]] = {
    EnterTeam: _enter_team,
    EnterSolo: _enter_solo,
    AcceptPartner: _accept,
    CheckIn: _check_in,
    Withdraw: _withdraw,
    Start: _start,
    PairNextRound: _pair_next,
    ReportResult: _report,
    DeclareForfeit: _forfeit,
    Pause: _pause,
    Resume: _resume,
    RemoveTeam: _remove,
    Cancel: _cancel,
}
