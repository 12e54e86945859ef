"""A rematch judged by ``decide`` alone (no server, no clock): the offer,
the answers, the refusals, the timeout, and the new table it asks for."""

from __future__ import annotations

import pytest

from fourhundred.server import events as ev
from fourhundred.server import protocol as p
from fourhundred.server.commands import RematchOpen, RematchTimeout
from fourhundred.server.decide import SERVER, Person, decide
from fourhundred.server.errors import CommandError
from fourhundred.server.rematch import OFFER_S, public
from fourhundred.server.rematch_driver import spec_for
from fourhundred.server.room import TableModel

from .test_server_decide import PEOPLE, facts, playing, run

NOW = 1_000_000


def over(kind: ev.TableKind = "casual") -> TableModel:
    m = playing()
    m.kind = kind
    m.apply(ev.GameOver(winner=0, scores=(41, 0, 41, 0), reason="won", rated=False, ratings=None))
    return m


def say(m: TableModel, seat: int, accept: bool = True, now: int = NOW) -> list[ev.Event]:
    return run(m, PEOPLE[seat], p.Rematch(id=1, accept=accept), facts(now_ms=now))


def refused(m: TableModel, who: Person, cmd: object, code: str, now: int = NOW) -> str:
    version = m.version
    with pytest.raises(CommandError) as e:
        decide(m, who, cmd, facts(now_ms=now))  # type: ignore[arg-type]
    assert e.value.code == code and m.version == version
    return e.value.message


def test_the_first_accept_offers_and_all_four_accepting_makes_it_due() -> None:
    m = over()
    assert public(m) == {"state": "available"}
    assert say(m, 2) == [ev.RematchOffered(seat=2, deadline_ms=NOW + OFFER_S * 1000)]
    for seat in (0, 1):
        assert say(m, seat) == [ev.RematchAnswered(seat=seat, accept=True)]
    shown = public(m)
    assert shown is not None and shown["state"] == "open"
    assert shown["answers"] == [True, True, True, None]
    say(m, 3)
    assert m.rematch is not None and m.rematch.to_open
    spec = spec_for(m, "heuristic")
    assert spec.seats == tuple(s.user for s in m.seats) and spec.ready == (True,) * 4
    assert spec.bots == (None,) * 4 and spec.host == "u0"
    assert (spec.kind, spec.preset_name, spec.timer) == ("casual", m.preset, m.timer)
    assert spec.settings == m.settings.to_dict() and spec.hints is False
    m.hints = True  # a table with hints: its rematch has them too
    assert spec_for(m, "heuristic").hints is True
    out = run(m, SERVER, RematchOpen(table="t2", invite=None))
    assert out == [ev.RematchOpened(table="t2", invite=None)]
    assert public(m)["state"] == "opened"  # type: ignore[index]
    assert run(m, SERVER, RematchOpen(table="t3", invite=None)) == []  # opened once


def test_a_decline_ends_the_offer_and_an_accepter_opens_it_with_bots() -> None:
    m = over()
    say(m, 0)
    say(m, 1)
    assert say(m, 3, accept=False) == [
        ev.RematchAnswered(seat=3, accept=False),
        ev.RematchEnded(reason="declined"),
    ]
    shown = public(m)
    assert shown is not None and (shown["state"], shown["reason"]) == ("ended", "declined")
    msg = refused(m, PEOPLE[2], p.Rematch(id=1, accept=True), "not_allowed")
    assert "declined" in msg
    assert "accepted" in refused(m, PEOPLE[3], p.RematchBots(id=1), "not_allowed")
    assert run(m, PEOPLE[1], p.RematchBots(id=1), facts()) == [ev.RematchWithBots(seat=1)]
    spec = spec_for(m, "heuristic")
    assert spec.seats[2] is None and spec.seats[3] is None
    assert spec.bots == (None, None, "heuristic", "heuristic")
    assert spec.ready == (True, True, False, False)
    refused(m, PEOPLE[0], p.RematchBots(id=1), "not_allowed")  # already opening


def test_an_accepter_may_leave_the_others_seats_open_for_a_friend() -> None:
    m = over()
    say(m, 0)
    say(m, 2)
    say(m, 1, accept=False)
    opened = run(m, PEOPLE[2], p.RematchBots(id=1, fill="open"), facts())
    assert opened == [ev.RematchWithBots(seat=2, fill="open")]
    shown = public(m)
    assert shown is not None and (shown["state"], shown["fill"]) == ("opening", "open")
    spec = spec_for(m, "heuristic")
    assert [s is not None for s in spec.seats] == [True, False, True, False]
    assert spec.bots == (None, None, None, None)  # a waiting room: invite someone
    assert spec.ready == (True, False, True, False)
    # An old log (no ``fill``) reads as bots.
    assert ev.from_stored("rematch_with_bots", {"seat": 1}) == ev.RematchWithBots(seat=1)


def test_time_running_out_ends_the_offer() -> None:
    m = over()
    say(m, 0)
    late = NOW + OFFER_S * 1000
    msg = refused(m, PEOPLE[1], p.Rematch(id=1, accept=True), "not_allowed", now=late)
    assert "time ran out" in msg and m.rematch is not None and m.rematch.state == "open"
    assert run(m, SERVER, RematchTimeout()) == [ev.RematchEnded(reason="expired")]
    assert run(m, SERVER, RematchTimeout()) == []  # its moment has passed
    assert "time ran out" in refused(m, PEOPLE[1], p.Rematch(id=1, accept=True), "not_allowed")
    assert run(m, PEOPLE[0], p.RematchBots(id=1), facts()) == [ev.RematchWithBots(seat=0)]


def test_answering_twice_is_refused() -> None:
    m = over()
    say(m, 0)
    assert "already accepted" in refused(m, PEOPLE[0], p.Rematch(id=1, accept=True), "not_allowed")
    assert "still open" in refused(m, PEOPLE[0], p.RematchBots(id=1), "not_allowed")


def test_only_seated_players_answer() -> None:
    m = over()
    refused(m, Person("watcher", "W"), p.Rematch(id=1, accept=True), "not_seated")
    say(m, 0)
    refused(m, Person("watcher", "W"), p.Rematch(id=1, accept=False), "not_seated")


def test_no_rematch_before_the_game_is_over_nor_at_a_ranked_table() -> None:
    m = playing()
    assert public(m) is None
    refused(m, PEOPLE[0], p.Rematch(id=1, accept=True), "wrong_phase")
    refused(m, PEOPLE[0], p.RematchBots(id=1), "wrong_phase")
    ranked = over("ranked")
    assert public(ranked) is None
    assert "Ranked" in refused(ranked, PEOPLE[0], p.Rematch(id=1, accept=True), "not_allowed")
    fresh = over()
    assert "no rematch" in refused(fresh, PEOPLE[1], p.Rematch(id=1, accept=False), "not_allowed")


def test_a_bot_in_a_seat_accepts_by_itself() -> None:
    m = over()
    m.seats[3].bot, m.seats[3].substitute, m.seats[3].active = "random", True, False
    for seat in (0, 1):
        say(m, seat)
    assert m.rematch is not None and m.rematch.answers == [True, True, None, True]
    say(m, 2)
    assert m.rematch.to_open
    spec = spec_for(m, "heuristic")
    assert spec.seats[3] is None and spec.bots == (None, None, None, "random")


def test_a_rebuilt_table_keeps_the_offer_and_its_deadline() -> None:
    from fourhundred.server.events import to_stored
    from fourhundred.server.room import rebuild
    from fourhundred.store import StoredEvent

    m = over()
    created = ev.Created(
        table_kind="casual",
        host="u0",
        preset=m.preset,
        settings=m.settings.to_dict(),
        timer=m.timer,
        invite=None,
        seats=tuple(s.user for s in m.seats),
        ready=(False,) * 4,
        bots=(None, None, None, "random"),
    )
    log = [StoredEvent(1, *to_stored(created), 0)]
    rebuilt = rebuild("t1", log)
    assert rebuilt.seats[3].bot == "random" and rebuilt.seats[3].user is None
    offered = ev.RematchOffered(seat=0, deadline_ms=NOW)
    assert ev.from_stored(*to_stored(offered)) == offered
