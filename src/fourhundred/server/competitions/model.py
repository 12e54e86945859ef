"""A tournament's whole state as a fold over its event log.

:meth:`TournamentModel.apply` is the one place a tournament changes, live or
when rebuilt after a restart, and it refuses (``DoesNotFit``, a
``ValueError``) an event that does not follow from the state: a log that
rebuilds is a log that makes sense. Pure: no I/O, no clock, no asyncio.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from . import events as ev
from .pairing import Outcome, Standing, advance, bracket, knockout_round, standings

__all__ = ["MIN_TEAMS", "DoesNotFit", "Round", "Status", "Team", "TournamentModel", "rebuild"]

Status = Literal["open", "running", "finished", "cancelled"]

MIN_TEAMS: Final = 2


class DoesNotFit(ValueError):
    """An event the tournament's state does not allow."""


@dataclass(slots=True)
class Team:
    players: tuple[str, str]
    confirmed: bool
    """The invited partner accepted (a pair of solo entrants always has)."""
    removed: bool = False
    out: bool = False
    """Knocked out (knockout only)."""


@dataclass(slots=True)
class Round:
    number: int
    at_ms: int
    tables: tuple[ev.Pairing, ...]
    byes: tuple[str, ...]
    outcomes: dict[int, Outcome] = field(default_factory=dict)
    """Decided matches by table slot."""

    @property
    def complete(self) -> bool:
        return len(self.outcomes) == len(self.tables)

    def table_of(self, team: str) -> ev.Pairing | None:
        """The match ``team`` plays this round, when it has not been decided."""
        for t in self.tables:
            if team in (t.a, t.b) and t.table not in self.outcomes:
                return t
        return None


def _need(condition: bool, event: ev.TournamentEvent, why: str) -> None:
    if not condition:
        raise DoesNotFit(f"{event!r} does not fit: {why}")


@dataclass
class TournamentModel:
    """Everything about one tournament: its terms, entries, rounds, result."""

    terms: ev.Created
    status: Status = "open"
    paused: bool = False
    teams: dict[str, Team] = field(default_factory=dict)
    solos: list[str] = field(default_factory=list)
    checked_in: set[str] = field(default_factory=set)
    entries: int = 0
    """Entries made so far: the next team is named ``t{entries + 1}``."""
    seeds: list[str] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    slots: list[str | None] = field(default_factory=list)
    """Knockout: the bracket slots of the latest round."""
    winner: str | None = None

    def copy(self) -> TournamentModel:
        """An independent copy (a command is judged on one). Spelled out:
        events and pairings are immutable, so only the containers are new."""
        return replace(
            self,
            teams={k: replace(t) for k, t in self.teams.items()},
            solos=list(self.solos),
            checked_in=set(self.checked_in),
            seeds=list(self.seeds),
            rounds=[replace(r, outcomes=dict(r.outcomes)) for r in self.rounds],
            slots=list(self.slots),
        )

    # ----------------------------------------------------------- queries

    def entry_of(self, player: str) -> str | None:
        """The team ``player`` entered (or was invited to), ``"solo"``, or None."""
        if player in self.solos:
            return "solo"
        for team_id, team in self.teams.items():
            if player in team.players and not team.removed:
                return team_id
        return None

    def entry_count(self, solo: bool | None = None) -> int:
        """Teams entered, counting two solo entrants as one (with one more
        solo entrant, or one more team, when ``solo`` says which)."""
        teams = len(self.teams) + (solo is False)
        return teams + (len(self.solos) + (solo is True) + 1) // 2

    def active(self) -> list[str]:
        """Teams still playing, in seed order."""
        return [t for t in self.seeds if not (self.teams[t].removed or self.teams[t].out)]

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def round_open(self) -> bool:
        """A round is under way (some match of it undecided)."""
        return self.current is not None and not self.current.complete

    def outcomes(self) -> list[Outcome]:
        return [o for r in self.rounds for o in r.outcomes.values()]

    def standings(self) -> list[Standing]:
        return standings(self.seeds, self.outcomes(), [t for r in self.rounds for t in r.byes])

    def next_slots(self) -> list[str | None]:
        """Knockout: the slots of the next round (removed teams' slots empty)."""
        if self.current is None:
            slots = bracket(self.seeds)
        else:
            through = {o.winner for o in self.current.outcomes.values()}
            slots = advance(self.slots, through | set(self.current.byes))
        live = set(self.active())
        return [s if s in live else None for s in slots]

    def decided(self) -> str | None:
        """The winner, once the last result is in (None before)."""
        if self.round_open() or not self.rounds:
            return None
        live = self.active()
        if len(live) <= 1:
            return live[0] if live else None
        if self.terms.format == "swiss" and len(self.rounds) == self.terms.rounds:
            return next(s.team for s in self.standings() if s.team in live)
        return None

    # ------------------------------------------------------------- apply

    def apply(self, event: ev.TournamentEvent) -> None:
        """Change the tournament by one event (``DoesNotFit`` if it cannot)."""
        match event:
            case ev.Entered() | ev.PartnerAccepted() | ev.CheckedIn():
                self._need_open(event)
                self._entry(event)
            case ev.Withdrawn():
                self._need_open(event)
                self._withdrawn(event)
            case ev.SoloPaired() | ev.Dropped() | ev.Started():
                self._need_open(event)
                self._start(event)
            case ev.RoundPaired():
                self._paired(event)
            case ev.MatchResult() | ev.Forfeit():
                self._result(event)
            case ev.Paused() | ev.Resumed() | ev.TeamRemoved() | ev.Cancelled() | ev.Finished():
                self._organise(event)
            case ev.Created():
                raise DoesNotFit(f"{event!r} does not fit: the tournament exists")

    def _need_open(self, event: ev.TournamentEvent) -> None:
        _need(self.status == "open", event, f"the tournament is {self.status}")

    def _entry(self, event: ev.Entered | ev.PartnerAccepted | ev.CheckedIn) -> None:
        match event:
            case ev.Entered(player=player, team=None):
                _need(self.entry_of(player) is None, event, "already entered")
                self.solos.append(player)
                self.entries += 1
            case ev.Entered(player=player, team=str(team), partner=str(partner)):
                _need(team not in self.teams, event, "the team exists")
                for p in (player, partner):
                    _need(self.entry_of(p) is None, event, f"{p} already entered")
                self.teams[team] = Team((player, partner), confirmed=False)
                self.entries += 1
            case ev.PartnerAccepted(team=team, player=player):
                found = self.teams.get(team)
                _need(found is not None and not found.confirmed, event, "nothing to accept")
                _need(found is not None and found.players[1] == player, event, "not invited")
                self.teams[team].confirmed = True
            case ev.CheckedIn(player=player):
                _need(self.entry_of(player) is not None, event, "not entered")
                _need(player not in self.checked_in, event, "already checked in")
                self.checked_in.add(player)
            case _:
                raise DoesNotFit(f"{event!r} does not fit: incomplete entry")

    def _withdrawn(self, event: ev.Withdrawn) -> None:
        if event.team is None:
            _need(event.player in self.solos, event, "not a solo entrant")
            self.solos.remove(event.player)
            self.checked_in.discard(event.player)
            return
        team = self.teams.get(event.team)
        _need(team is not None and event.player in team.players, event, "not in the team")
        # Both may enter again, and must check in again.
        self.checked_in.difference_update(self.teams.pop(event.team).players)

    def _start(self, event: ev.SoloPaired | ev.Dropped | ev.Started) -> None:
        match event:
            case ev.SoloPaired(team=team, players=players):
                _need(team not in self.teams, event, "the team exists")
                _need(all(p in self.solos for p in players), event, "not solo entrants")
                self.solos = [p for p in self.solos if p not in players]
                self.teams[team] = Team(players, confirmed=True)
                self.entries += 1
            case ev.Dropped(team=str(team)):
                _need(team in self.teams, event, "no such team")
                del self.teams[team]
            case ev.Dropped(player=str(player)):
                _need(player in self.solos, event, "not a solo entrant")
                self.solos.remove(player)
            case ev.Started(seeds=seeds):
                _need(not self.solos, event, "solo entrants left unpaired")
                _need(sorted(seeds) == sorted(self.teams), event, "seeds are not the teams")
                _need(len(seeds) >= MIN_TEAMS, event, "too few teams")
                _need(all(t.confirmed for t in self.teams.values()), event, "unconfirmed team")
                members = [p for t in self.teams.values() for p in t.players]
                _need(self.checked_in.issuperset(members), event, "a player not checked in")
                self.status = "running"
                self.seeds = list(seeds)
            case _:
                raise DoesNotFit(f"{event!r} does not fit: neither team nor player")

    def _paired(self, event: ev.RoundPaired) -> None:
        _need(self.status == "running" and not self.paused, event, "not running")
        _need(not self.round_open(), event, "the round is under way")
        _need(event.round == len(self.rounds) + 1, event, "not the next round")
        _need(self.decided() is None, event, "the tournament is decided")
        seen = [t for p in event.tables for t in (p.a, p.b)] + list(event.byes)
        _need(sorted(seen) == sorted(self.active()), event, "not every team once")
        _need(len({p.table for p in event.tables}) == len(event.tables), event, "table twice")
        if self.terms.format == "knockout":
            slots = self.next_slots()
            pairs, byes = knockout_round(slots)
            _need([(p.a, p.b) for p in event.tables] == pairs, event, "not the bracket")
            _need(list(event.byes) == byes, event, "not the bracket's byes")
            self.slots = slots
        self.rounds.append(Round(event.round, event.at_ms, event.tables, event.byes))

    def _result(self, event: ev.MatchResult | ev.Forfeit) -> None:
        current = self.current
        _need(self.status == "running" and current is not None, event, "no round")
        assert current is not None
        _need(event.round == current.number, event, "not the current round")
        team = event.a if isinstance(event, ev.MatchResult) else event.team
        table = current.table_of(team)
        _need(table is not None, event, f"{team} has no match to decide")
        assert table is not None
        if isinstance(event, ev.MatchResult):
            _need((event.a, event.b) == (table.a, table.b), event, "not this match")
            _need(event.winner in (event.a, event.b), event, "the winner did not play")
            outcome = Outcome(event.a, event.b, event.winner, event.points_a, event.points_b)
        else:
            winner = table.b if table.a == event.team else table.a
            outcome = Outcome(table.a, table.b, winner)
        current.outcomes[table.table] = outcome
        if self.terms.format == "knockout":
            loser = outcome.b if outcome.winner == outcome.a else outcome.a
            self.teams[loser].out = True

    def _organise(self, event: ev.TournamentEvent) -> None:
        match event:
            case ev.Paused():
                _need(self.status == "running" and not self.paused, event, "not running")
                self.paused = True
            case ev.Resumed():
                _need(self.status == "running" and self.paused, event, "not paused")
                self.paused = False
            case ev.TeamRemoved(team=team):
                found = self.teams.get(team)
                _need(found is not None and not found.removed, event, "no such team")
                _need(self.status in ("open", "running"), event, "the tournament is over")
                if self.status == "open":
                    # Its players may enter again, and must check in again.
                    self.checked_in.difference_update(self.teams.pop(team).players)
                else:
                    self.teams[team].removed = True
            case ev.Cancelled():
                _need(self.status in ("open", "running"), event, "the tournament is over")
                self.status = "cancelled"
            case ev.Finished(winner=winner):
                _need(self.status == "running", event, "not running")
                _need(self.decided() == winner, event, "not the winner")
                self.status, self.winner = "finished", winner
            case _:
                raise DoesNotFit(f"{event!r} does not fit: not an organiser's act")


def rebuild(events: Iterable[ev.TournamentEvent]) -> TournamentModel:
    """The tournament its log describes; ``DoesNotFit`` when the log does not
    start with ``created`` or holds an event its state refuses."""
    it = iter(events)
    first: Any = next(it, None)
    if not isinstance(first, ev.Created):
        raise DoesNotFit(f"a tournament starts with 'created', not {first!r}")
    model = TournamentModel(first)
    for event in it:
        model.apply(event)
    return model
