"""The tournament's ``decide`` directly: each command's events, and each
refusal's code (a refusal changes nothing: ``refused`` checks the model)."""

from __future__ import annotations

import random

import pytest
from fh_competitions import (
    ORG,
    START,
    T0,
    create,
    enter_teams,
    play_round,
    refused,
    run,
    started,
)

from fourhundred.server.competitions import SYSTEM, Player, decide
from fourhundred.server.competitions import events as ev
from fourhundred.server.competitions.commands import (
    AcceptPartner,
    Cancel,
    CheckIn,
    Create,
    DeclareForfeit,
    EnterSolo,
    EnterTeam,
    PairNextRound,
    Pause,
    RemoveTeam,
    ReportResult,
    Resume,
    Start,
    Withdraw,
)
from fourhundred.server.competitions.decide import CHECK_IN_BEFORE_MS, FORFEIT_AFTER_MS
from fourhundred.server.errors import CommandError

A, B, C = Player("a"), Player("b"), Player("c")


# ------------------------------------------------------------------ create


def test_create_records_the_terms() -> None:
    (created,) = decide(
        None, ORG, Create("  Spring cup ", "swiss", 8, START, rounds=4, preset="quick"), T0
    )
    assert created == ev.Created(
        name="Spring cup",
        organiser="org",
        format="swiss",
        rounds=4,
        max_teams=8,
        start_ms=START,
        public=True,
        preset="quick",
        settings={},
        timer=30,
    )


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (Create("", "swiss", 8, START, rounds=3), "bad_request"),
        (Create("x" * 81, "swiss", 8, START, rounds=3), "bad_request"),
        (Create("Cup", "league", 8, START, rounds=3), "bad_request"),  # type: ignore[arg-type]
        (Create("Cup", "swiss", 8, START), "bad_request"),
        (Create("Cup", "swiss", 8, START, rounds=16), "bad_request"),
        (Create("Cup", "knockout", 8, START, rounds=3), "bad_request"),
        (Create("Cup", "knockout", 1, START), "bad_request"),
        (Create("Cup", "knockout", 8, T0), "bad_request"),
        (Create("Cup", "knockout", 8, START, timer=20), "bad_request"),
        (Create("Cup", "knockout", 8, START, preset="nope"), "bad_settings"),
        (Create("Cup", "knockout", 8, START, settings={"min_bid": 9}), "bad_settings"),
    ],
)
def test_create_refuses_bad_terms(command: Create, code: str) -> None:
    with pytest.raises(CommandError) as info:
        decide(None, ORG, command, T0)
    assert info.value.code == code


def test_create_is_a_players_act_and_happens_once() -> None:
    with pytest.raises(CommandError) as info:
        decide(None, SYSTEM, Create("Cup", "knockout", 8, START), T0)
    assert info.value.code == "forbidden"
    m, _ = create()
    refused(m, ORG, Create("Cup", "knockout", 8, START), "exists")


def test_commands_need_a_tournament() -> None:
    with pytest.raises(CommandError) as info:
        decide(None, A, EnterSolo(), T0)
    assert info.value.code == "not_found"


# ----------------------------------------------------------------- entries


def test_enter_with_partner_then_accept() -> None:
    m, _ = create()
    assert run(m, A, EnterTeam("b")) == [ev.Entered(player="a", team="t1", partner="b")]
    assert run(m, B, AcceptPartner("t1")) == [ev.PartnerAccepted(team="t1", player="b")]
    assert m.teams["t1"].confirmed and m.entry_of("b") == "t1"


def test_entering_twice_is_refused() -> None:
    m, _ = create()
    run(m, A, EnterTeam("b"))
    refused(m, A, EnterSolo(), "already_entered")
    refused(m, B, EnterTeam("c"), "already_entered")
    run(m, C, EnterSolo())
    refused(m, C, EnterTeam("d"), "already_entered")


def test_a_partner_already_in_a_team_is_refused() -> None:
    m, _ = create()
    run(m, A, EnterTeam("b"))
    refused(m, C, EnterTeam("b"), "partner_taken")
    run(m, Player("d"), EnterSolo())
    refused(m, C, EnterTeam("d"), "partner_taken")
    refused(m, C, EnterTeam("c"), "bad_request")


def test_only_the_invited_partner_accepts_once() -> None:
    m, _ = create()
    run(m, A, EnterTeam("b"))
    refused(m, C, AcceptPartner("t1"), "not_invited")
    refused(m, A, AcceptPartner("t1"), "not_invited")
    refused(m, B, AcceptPartner("t9"), "not_invited")
    run(m, B, AcceptPartner("t1"))
    refused(m, B, AcceptPartner("t1"), "not_invited")


def test_a_full_tournament_refuses_entries() -> None:
    m, _ = create(max_teams=2)
    enter_teams(m, 1)
    run(m, C, EnterSolo())
    run(m, Player("d"), EnterSolo())
    refused(m, Player("e"), EnterSolo(), "full")
    refused(m, Player("e"), EnterTeam("f"), "full")


def test_the_server_does_not_enter() -> None:
    m, _ = create()
    refused(m, SYSTEM, EnterSolo(), "forbidden")


def test_check_in_opens_an_hour_before_the_start() -> None:
    m, _ = create()
    run(m, A, EnterTeam("b"))
    opens = START - CHECK_IN_BEFORE_MS
    refused(m, A, CheckIn(), "too_early", now=opens - 1)
    assert run(m, A, CheckIn(), now=opens) == [ev.CheckedIn(player="a")]
    refused(m, A, CheckIn(), "already_checked_in")
    refused(m, C, CheckIn(), "not_entered")


# ------------------------------------------------------------------- start


def test_start_drops_who_is_not_ready_and_pairs_solos_by_rating() -> None:
    m, _ = create()
    enter_teams(m, 2)
    run(m, Player("x"), EnterTeam("y"))  # t3: never accepted
    run(m, Player("p"), EnterTeam("q"))  # t4: q never checks in
    run(m, Player("q"), AcceptPartner("t4"))
    run(m, Player("p"), CheckIn())
    for solo in ("s1", "s2", "s3", "s4", "s5", "s6"):
        run(m, Player(solo), EnterSolo())
        if solo != "s6":
            run(m, Player(solo), CheckIn())
    ratings = {"s1": 1200, "s2": 1900, "s3": 1500, "s4": 1700}
    out = run(m, ORG, Start(ratings))
    assert out[:5] == [
        ev.Dropped(reason="not_checked_in", player="s6"),
        ev.Dropped(reason="no_partner", player="s5"),
        ev.SoloPaired(team="t11", players=("s2", "s1")),
        ev.SoloPaired(team="t12", players=("s4", "s3")),
        ev.Dropped(reason="no_partner", team="t3"),
    ]
    assert out[5] == ev.Dropped(reason="not_checked_in", team="t4")
    assert isinstance(out[6], ev.Started) and sorted(out[6].seeds) == ["t1", "t11", "t12", "t2"]
    assert isinstance(out[7], ev.RoundPaired) and out[7].round == 1
    assert m.status == "running"


def test_seeds_follow_the_average_rating() -> None:
    m, _ = create()
    enter_teams(m, 3)
    ratings = {"a0": 1000, "b0": 1000, "a1": 2000, "b1": 1000, "a2": 1400, "b2": 1400}
    out = run(m, ORG, Start(ratings))
    assert ev.Started(at_ms=START, seeds=("t2", "t3", "t1")) in out


def test_only_the_organiser_starts_early_and_the_server_on_time() -> None:
    m, _ = create()
    enter_teams(m, 2)
    refused(m, A, Start(), "forbidden")
    refused(m, SYSTEM, Start(), "too_early", now=START - 1)
    run(m, ORG, Start(), now=START - 1)
    refused(m, ORG, Start(), "wrong_phase")
    refused(m, Player("z"), EnterSolo(), "wrong_phase")
    refused(m, Player("a0"), CheckIn(), "wrong_phase")


def test_start_with_too_few_teams() -> None:
    m, _ = create()
    enter_teams(m, 1)
    refused(m, ORG, Start(), "too_few_teams")
    assert run(m, SYSTEM, Start()) == [ev.Cancelled(reason="too_few_teams")]
    assert m.status == "cancelled"


# ------------------------------------------------------------------ rounds


def test_results_come_only_from_the_server() -> None:
    m, _, _ = started("swiss", 4, 2, random.Random(1))
    table = m.rounds[0].tables[0]
    report = ReportResult(1, table.a, 45, 12)
    refused(m, Player(table.a), report, "forbidden")
    refused(m, ORG, report, "forbidden")
    assert run(m, SYSTEM, report) == [ev.MatchResult(1, table.a, table.b, table.a, 45, 12)]
    refused(m, SYSTEM, report, "no_match")
    refused(m, SYSTEM, ReportResult(2, table.b, 45, 12), "wrong_round")
    other = m.rounds[0].tables[1]
    # Scores go below zero (docs/rules.md): a losing team's total may too.
    assert run(m, SYSTEM, ReportResult(1, other.b, 44, -7)) == [
        ev.MatchResult(1, other.a, other.b, other.b, -7, 44)
    ]


def test_the_next_round_waits_for_the_last_result() -> None:
    m, log, _ = started("swiss", 4, 2, random.Random(2))
    refused(m, SYSTEM, PairNextRound(), "round_incomplete")
    play_round(m, random.Random(3), log)
    refused(m, A, PairNextRound(), "forbidden")
    (paired,) = run(m, ORG, PairNextRound())
    assert isinstance(paired, ev.RoundPaired) and paired.round == 2


def test_the_last_result_finishes_the_tournament() -> None:
    m, _, _ = started("knockout", 2, None, random.Random(4))
    (table,) = m.rounds[0].tables
    out = run(m, SYSTEM, ReportResult(1, table.b, 41, 0))
    assert out[-1] == ev.Finished(winner=table.b)
    assert m.status == "finished" and m.winner == table.b
    refused(m, SYSTEM, PairNextRound(), "wrong_phase")
    refused(m, ORG, Cancel(), "wrong_phase")


def test_a_team_not_seated_in_three_minutes_forfeits() -> None:
    m, _, _ = started("swiss", 4, 2, random.Random(5))
    table = m.rounds[0].tables[0]
    late = START + FORFEIT_AFTER_MS
    refused(m, SYSTEM, DeclareForfeit(1, table.a), "too_early", now=late - 1)
    refused(m, ORG, DeclareForfeit(1, table.a), "forbidden", now=late)
    refused(m, SYSTEM, DeclareForfeit(1, "t99"), "no_match", now=late)
    assert run(m, SYSTEM, DeclareForfeit(1, table.a), now=late) == [
        ev.Forfeit(round=1, team=table.a, reason="not_seated")
    ]
    assert m.rounds[0].outcomes[table.table].winner == table.b
    refused(m, SYSTEM, DeclareForfeit(1, table.b), "no_match", now=late)


def test_pause_holds_pairing_and_forfeits() -> None:
    m, log, _ = started("swiss", 4, 2, random.Random(6))
    refused(m, A, Pause(), "forbidden")
    refused(m, ORG, Resume(), "not_paused")
    assert run(m, ORG, Pause(), now=START + 5) == [ev.Paused(at_ms=START + 5)]
    refused(m, ORG, Pause(), "paused")
    team = m.rounds[0].tables[0].a
    refused(m, SYSTEM, DeclareForfeit(1, team), "paused", now=START + FORFEIT_AFTER_MS)
    play_round(m, random.Random(7), log)
    refused(m, SYSTEM, PairNextRound(), "paused")
    refused(m, A, Resume(), "forbidden")
    assert run(m, ORG, Resume(), now=START + 9) == [ev.Resumed(at_ms=START + 9)]
    run(m, SYSTEM, PairNextRound())


def test_pause_needs_a_running_tournament() -> None:
    m, _ = create()
    refused(m, ORG, Pause(), "wrong_phase")
    m, _, _ = started("swiss", 4, 2, random.Random(10))
    run(m, ORG, Pause())
    run(m, ORG, Cancel())
    refused(m, ORG, Resume(), "wrong_phase")


def test_removing_a_team_before_the_start() -> None:
    m, _ = create()
    enter_teams(m, 2)
    refused(m, A, RemoveTeam("t1"), "forbidden")
    refused(m, ORG, RemoveTeam("t9"), "unknown_team")
    assert run(m, ORG, RemoveTeam("t1")) == [ev.TeamRemoved(team="t1")]
    assert "t1" not in m.teams and m.entry_of("a0") is None
    run(m, Player("a0"), EnterSolo())
    assert "a0" not in m.checked_in
    run(m, Player("a0"), CheckIn())


def test_removing_a_team_mid_round_forfeits_its_match() -> None:
    m, _, _ = started("swiss", 4, 3, random.Random(8))
    table = m.rounds[0].tables[0]
    out = run(m, ORG, RemoveTeam(table.a))
    assert out == [
        ev.TeamRemoved(team=table.a),
        ev.Forfeit(round=1, team=table.a, reason="removed"),
    ]
    refused(m, ORG, RemoveTeam(table.a), "unknown_team")
    assert table.a not in m.active()


def test_removing_the_last_opponent_of_a_knockout_finishes_it() -> None:
    m, _, _ = started("knockout", 2, None, random.Random(9))
    (table,) = m.rounds[0].tables
    out = run(m, ORG, RemoveTeam(table.a))
    assert out[-1] == ev.Finished(winner=table.b)


def test_cancel_is_the_organisers() -> None:
    m, _ = create()
    refused(m, A, Cancel(), "forbidden")
    refused(m, SYSTEM, Cancel(), "forbidden")
    assert run(m, ORG, Cancel()) == [ev.Cancelled(reason="organiser")]
    refused(m, ORG, Cancel(), "wrong_phase")
    refused(m, A, EnterSolo(), "wrong_phase")


def test_withdrawing_before_the_start() -> None:
    m, _ = create(max_teams=2)
    run(m, Player("a"), EnterTeam("b"))
    run(m, Player("s"), EnterSolo())
    run(m, Player("a"), CheckIn(), now=START - 1000)
    refused(m, Player("x"), Withdraw(), "not_entered")
    # The invited partner declines: the team is gone, its check-ins too.
    assert run(m, Player("b"), Withdraw()) == [ev.Withdrawn(player="b", team="t1")]
    assert m.teams == {} and m.checked_in == set()
    assert run(m, Player("s"), Withdraw()) == [ev.Withdrawn(player="s")]
    assert m.solos == []
    run(m, Player("a"), EnterTeam("b"))  # both may enter again
    run(m, Player("c"), EnterTeam("d"))
    for p in "abcd":
        run(m, Player(p), CheckIn(), now=START - 1000)
    run(m, SYSTEM, Start())
    refused(m, Player("a"), Withdraw(), "wrong_phase")
