"""What a tournament looks like from outside: the ``DETAIL`` of
docs/protocol.md ("Tournaments"), the list's summary, and the results export
(JSON and CSV). Pure functions of the model, its log and the players' names.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any, Final

from fourhundred.store import DELETED_NAME, StoredEvent

from .decide import CHECK_IN_BEFORE_MS
from .model import Round, TournamentModel

__all__ = ["People", "detail", "export_csv", "export_json", "list_summary", "table_id"]

People = Mapping[str, tuple[str, int | None]]
"""Player id -> (name, rating) for the players a tournament names."""

_PLAYER_ACTS: Final = frozenset({"entered", "partner_accepted", "withdrawn", "checked_in"})
_ORGANISER_ACTS: Final = frozenset({"paused", "resumed", "team_removed"})


def table_id(tournament: str, round_no: int, slot: int) -> str:
    """The id of a round's match table: the same whoever makes it, so a
    director that restarts finds the table it made instead of a second one.

    >>> table_id("Xy12ab34", 3, 7)
    'Xy12ab34-r3-7'
    """
    return f"{tournament}-r{round_no}-{slot}"


def _player(people: People, player: str) -> dict[str, Any]:
    name, rating = people.get(player, (DELETED_NAME, None))
    return {"id": player, "name": name, "rating": rating}


def _teams(m: TournamentModel, people: People) -> list[dict[str, Any]]:
    seeds = {t: i + 1 for i, t in enumerate(m.seeds)}
    return [
        {
            "id": team_id,
            "players": [_player(people, p) for p in team.players],
            "confirmed": team.confirmed,
            "checked_in": [p in m.checked_in for p in team.players],
            "removed": team.removed,
            "out": team.out,
            "seed": seeds.get(team_id),
        }
        for team_id, team in m.teams.items()
    ]


def _round(tid: str, r: Round, forfeits: Mapping[tuple[int, int], str], wait_ms: int) -> Any:
    matches = []
    for p in r.tables:
        o = r.outcomes.get(p.table)
        matches.append(
            {
                "slot": p.table,
                "table": table_id(tid, r.number, p.table),
                "a": p.a,
                "b": p.b,
                "status": "playing" if o is None else "done",
                "winner": None if o is None else o.winner,
                "points": None if o is None else [o.points_a, o.points_b],
                "forfeit": forfeits.get((r.number, p.table)),
            }
        )
    return {
        "number": r.number,
        "at_ms": r.at_ms,
        "deadline_ms": r.at_ms + wait_ms,
        "matches": matches,
        "byes": list(r.byes),
    }


def _forfeits(m: TournamentModel, log: Sequence[StoredEvent]) -> dict[tuple[int, int], str]:
    """(round, slot) -> the team that forfeited that match."""
    out: dict[tuple[int, int], str] = {}
    for e in log:
        if e.kind != "forfeit":
            continue
        number, team = e.data["round"], e.data["team"]
        r = m.rounds[number - 1] if 0 < number <= len(m.rounds) else None
        for p in r.tables if r is not None else ():
            if team in (p.a, p.b):
                out[(number, p.table)] = team
    return out


def _by(m: TournamentModel, e: StoredEvent) -> str | None:
    """Who did what a log entry records (None: the server)."""
    if e.kind in _PLAYER_ACTS:
        player: str = e.data["player"]
        return player
    organiser = m.terms.organiser or None
    if e.kind in _ORGANISER_ACTS or (e.kind == "cancelled" and e.data["reason"] == "organiser"):
        return organiser
    if e.kind == "created" or (e.kind == "started" and e.data["at_ms"] < m.terms.start_ms):
        return organiser
    return None


def _standings(m: TournamentModel) -> list[dict[str, Any]]:
    return [
        {
            "rank": i + 1,
            "team": s.team,
            "match_points": s.match_points,
            "buchholz": s.buchholz,
            "difference": s.difference,
        }
        for i, s in enumerate(m.standings())
    ]


def detail(
    tid: str,
    m: TournamentModel,
    log: Sequence[StoredEvent],
    people: People,
    wait_ms: int,
) -> dict[str, Any]:
    """The whole tournament as clients see it (``wait_ms``: how long a team
    has to be seated, for each round's deadline)."""
    t = m.terms
    forfeits = _forfeits(m, log)
    out = list_summary(tid, m, people)
    out.update(
        {
            "preset": t.preset,
            "settings": t.settings,
            "timer": t.timer,
            "teams": _teams(m, people),
            "solos": [_player(people, p) for p in m.solos],
            "rounds": [_round(tid, r, forfeits, wait_ms) for r in m.rounds],
            "standings": _standings(m) if m.seeds else [],
            "bracket": list(m.slots) if t.format == "knockout" else None,
            "log": [
                {"version": e.version, "at_ms": e.at_ms, "kind": e.kind, "by": _by(m, e), **e.data}
                for e in log
            ],
            "version": len(log),
        }
    )
    return out


def list_summary(tid: str, m: TournamentModel, people: People) -> dict[str, Any]:
    """The list's row: the terms and rules, status, how many teams, the winner."""
    t = m.terms
    return {
        "id": tid,
        "name": t.name,
        "format": t.format,
        "rounds": t.rounds,
        "max_teams": t.max_teams,
        "start_ms": t.start_ms,
        "check_in_ms": t.start_ms - CHECK_IN_BEFORE_MS,
        "public": t.public,
        "organiser": _player(people, t.organiser) if t.organiser else None,
        "status": m.status,
        "paused": m.paused,
        "teams_entered": m.entry_count(),
        "round": len(m.rounds),
        "winner": m.winner,
        # The rules, so a list can say what is played without each DETAIL.
        "preset": t.preset,
        "settings": t.settings,
        "timer": t.timer,
    }


def export_json(tid: str, m: TournamentModel, people: People) -> dict[str, Any]:
    """The results: teams, every round's matches with their tables and
    results, the standings."""
    return {
        "id": tid,
        "name": m.terms.name,
        "format": m.terms.format,
        "status": m.status,
        "winner": m.winner,
        "teams": _teams(m, people),
        "rounds": [_round(tid, r, {}, 0) for r in m.rounds],
        "standings": _standings(m) if m.seeds else [],
    }


CSV_COLUMNS: Final = (
    "round", "slot", "table", "team_a", "team_b", "players_a", "players_b",
    "winner", "points_a", "points_b",
)  # fmt: skip


def export_csv(tid: str, m: TournamentModel, people: People) -> str:
    """One line per match (a bye: team_b empty, the team its own winner)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)

    def names(team: str) -> str:
        found = m.teams.get(team)
        return " & ".join(_player(people, p)["name"] for p in found.players) if found else ""

    for r in m.rounds:
        for p in r.tables:
            o = r.outcomes.get(p.table)
            w.writerow(
                [
                    r.number, p.table, table_id(tid, r.number, p.table), p.a, p.b,
                    names(p.a), names(p.b), "" if o is None else o.winner,
                    "" if o is None else o.points_a, "" if o is None else o.points_b,
                ]
            )  # fmt: skip
        for bye in r.byes:
            w.writerow([r.number, "", "", bye, "", names(bye), "", bye, "", ""])
    return buf.getvalue()
