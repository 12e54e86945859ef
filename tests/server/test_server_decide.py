"""``decide`` directly: no server, no asyncio, no clock. What each command
causes at a table, what it refuses, and that the caller's model is never
touched."""

from __future__ import annotations

import random

import pytest

from fourhundred.engine import BID_BASE, CARD_NAMES, preset
from fourhundred.server import events as ev
from fourhundred.server import protocol as p
from fourhundred.server.decide import (
    SERVER,
    SUBSTITUTE_AFTER,
    BotMove,
    Expire,
    Facts,
    Person,
    Start,
    TurnTimeout,
    decide,
)
from fourhundred.server.errors import CommandError
from fourhundred.server.room import TableModel

PEOPLE = [Person(f"u{i}", f"P{i}") for i in range(4)]


def facts(seed: int = 1, **kw: object) -> Facts:
    return Facts(rng=random.Random(seed), bot="heuristic", bots={"heuristic", "random"}, **kw)  # type: ignore[arg-type]


def player(i: int) -> ev.Player:
    return ev.Player(id=f"u{i}", name=f"P{i}", guest=True, rating=None)


def table(kind: ev.TableKind = "casual", seated: int = 1) -> TableModel:
    created = ev.Created(
        table_kind=kind,
        host="u0",
        preset="standard",
        settings=preset("standard").to_dict(),
        timer=30,
        invite=None,
        seats=tuple(player(i) if i < seated else None for i in range(4)),
        ready=(kind == "ranked",) * 4,
    )
    return TableModel("t1", created, 0)


def run(m: TableModel, who: Person | object, cmd: object, f: Facts | None = None) -> list[ev.Event]:
    """Decide, check the model was untouched, then apply to it."""
    version = m.version
    out = decide(m, who, cmd, f or facts())  # type: ignore[arg-type]
    assert m.version == version
    for e in out:
        m.apply(e)
    return out


def playing() -> TableModel:
    m = table(seated=4)
    for i in range(3):
        run(m, PEOPLE[i], p.Ready(id=1, ready=True))
    out = run(m, PEOPLE[3], p.Ready(id=1, ready=True))
    assert [type(e) for e in out] == [ev.Ready, ev.Started, ev.Deal]
    return m


def test_the_last_ready_starts_the_game_and_deals() -> None:
    m = playing()
    assert m.status == "playing" and m.game is not None and m.game.phase.label == "bid"
    deal = m.game.hands
    assert sorted(c for h in deal for c in range(52) if h >> c & 1) == list(range(52))


def test_refusals_change_nothing() -> None:
    m = playing()
    g = m.game
    assert g is not None
    mover, other = PEOPLE[g.turn], PEOPLE[(g.turn + 1) % 4]
    cases = [
        (other, p.Bid(id=1, bid=4), "not_your_turn"),
        (mover, p.Bid(id=1, bid=1), "illegal"),
        (mover, p.Play(id=1, card="ZZ"), "illegal"),
        (mover, p.Play(id=1, card="AS"), "wrong_phase"),
        (mover, p.Bid(id=1, bid=4, version=m.version - 1), "stale"),
        (mover, p.Bid(id=1, bid=4, seat=(g.turn + 1) % 4), "not_your_seat"),
        (Person("stranger", "S"), p.Bid(id=1, bid=4), "not_seated"),
        (mover, p.Sit(id=1), "not_allowed"),
        (PEOPLE[1], p.Configure(id=1, timer=45), "not_host"),
    ]
    line = g.line()
    for who, cmd, code in cases:
        with pytest.raises(CommandError) as e:
            decide(m, who, cmd, facts())
        assert e.value.code == code, (cmd, e.value)
    assert g.line() == line and m.version == 7


def test_a_card_is_taken_only_as_the_views_write_it() -> None:
    """Cards are exact text (rank then suit, capitals, the ten as T): a
    held card written otherwise is refused as no card and changes nothing."""
    m = playing()
    g = m.game
    assert g is not None
    while g.phase.label == "bid":
        run(m, PEOPLE[g.turn], p.Bid(id=1, bid=g.legal_actions()[-1] - BID_BASE))
    mover = PEOPLE[g.turn]
    name = CARD_NAMES[g.legal_actions()[0]]
    line, version = g.line(), m.version
    for text in (name.lower(), f" {name}", name.replace("T", "10"), name[::-1]):
        if text == name:
            continue
        with pytest.raises(CommandError) as e:
            decide(m, mover, p.Play(id=1, card=text), facts())
        assert e.value.code == "illegal" and "is not a card" in e.value.message, text
    assert g.line() == line and m.version == version
    played = run(m, mover, p.Play(id=1, card=name))
    assert any(isinstance(x, ev.Play) and x.card == name for x in played)


def test_a_card_that_completes_a_trick_names_its_winner() -> None:
    m = playing()
    g = m.game
    assert g is not None
    while g.phase.label == "bid":
        run(m, PEOPLE[g.turn], p.Bid(id=1, bid=g.legal_actions()[-1] - BID_BASE))
    plays: list[ev.Play] = []
    while len(plays) < 4:
        (e, *_) = run(m, PEOPLE[g.turn], p.Play(id=1, card=CARD_NAMES[g.legal_actions()[0]]))
        assert isinstance(e, ev.Play)
        plays.append(e)
    assert [e.trick_winner for e in plays[:3]] == [None, None, None]
    trick = g.last_trick()
    assert trick is not None and plays[3].trick_winner == trick.winner == g.turn
    assert m.last_trick is not None and m.last_trick.winner == trick.winner


def test_the_last_card_of_a_hand_ends_it_and_deals_the_next() -> None:
    m = playing()
    g = m.game
    assert g is not None
    out: list[ev.Event] = []
    while not any(isinstance(e, ev.HandOver) for e in out):
        out = run(m, SERVER, TurnTimeout())
    kinds = [type(e) for e in out]
    assert kinds[-2:] == [ev.HandOver, ev.Deal] or kinds[-3:-1] == [ev.HandOver, ev.Deal]
    over = next(e for e in out if isinstance(e, ev.HandOver))
    assert over.bids == g.history[0].bids_by_seat and m.sheet == [over]
    assert sum(over.tricks) in (0, 13)


def test_three_timeouts_put_a_bot_in_the_seat() -> None:
    m = playing()
    g = m.game
    assert g is not None
    seat = g.turn
    seen = 0
    while not m.seats[seat].substitute:
        turn = g.turn
        out = run(m, SERVER, TurnTimeout())
        seen += turn == seat
    assert seen == SUBSTITUTE_AFTER and m.seats[seat].bot == "expert"  # substitutes play at expert
    assert any(isinstance(e, ev.Substituted) and e.reason == "timeouts" for e in out)


def test_a_bad_bot_answer_becomes_the_timeout_action() -> None:
    m = table(seated=1)
    for seat in (1, 2, 3):
        run(m, PEOPLE[0], p.AddBot(id=1, seat=seat, bot="random"))
    run(m, PEOPLE[0], p.Ready(id=1, ready=True))
    g = m.game
    assert g is not None
    while m.bot_for_turn() is None:
        run(m, PEOPLE[g.turn], p.Bid(id=1, bid=g.legal_actions()[0] - BID_BASE))
    expected = g.timeout_action()
    (e, *_) = run(m, SERVER, BotMove(action=10_000))
    assert isinstance(e, ev.Bid) and e.by == "bot" and e.bid == expected - BID_BASE
    assert decide(m.copy(), SERVER, BotMove(action=None), facts())


def test_a_moment_that_has_passed_does_nothing() -> None:
    m = table(seated=2)
    assert decide(m, SERVER, TurnTimeout(), facts()) == []
    assert decide(m, SERVER, BotMove(action=None), facts()) == []
    assert decide(m, SERVER, Start(), facts()) == []
    assert run(m, SERVER, Expire()) == [ev.Closed(reason="expired")]
    assert decide(m, SERVER, Expire(), facts()) == []


def test_the_host_leaving_passes_the_room_on_and_the_last_closes_it() -> None:
    m = table(seated=2)
    assert run(m, PEOPLE[0], p.Leave(id=1)) == [
        ev.Left(seat=0, user="u0"),
        ev.Host(user="u1"),
    ]
    assert run(m, PEOPLE[1], p.Leave(id=1))[-1] == ev.Closed(reason="left")
    assert m.status == "closed"


def test_sitting_needs_a_free_seat_and_no_other_table() -> None:
    m = table(seated=1)
    newcomer = Person("u9", "Nine")
    with pytest.raises(CommandError, match="seated at table elsewhere"):
        decide(m, newcomer, p.Sit(id=1), facts(elsewhere="elsewhere"))
    shown = ev.Player(id="u9", name="Nine", guest=False, rating=1600)
    (e,) = run(m, newcomer, p.Sit(id=1, seat=2), facts(sitter=shown))
    assert e == ev.Seated(seat=2, user=shown)
    with pytest.raises(CommandError, match="taken"):
        decide(m, PEOPLE[3], p.Sit(id=1, seat=2), facts())


def test_a_seat_is_taken_back_only_by_someone_seated_nowhere_else() -> None:
    m = playing()
    run(m, PEOPLE[0], p.Leave(id=1))
    assert m.seats[0].substitute
    version = m.version
    with pytest.raises(CommandError, match="seated at table t2: leave it first") as e:
        decide(m, PEOPLE[0], p.Reclaim(id=1), facts(elsewhere="t2"))
    assert e.value.code == "not_allowed" and m.version == version and m.seats[0].substitute
    (back,) = run(m, PEOPLE[0], p.Reclaim(id=1), facts())
    assert back == ev.Reclaimed(seat=0, user="u0") and not m.seats[0].substitute


def test_a_ranked_leaver_is_charged_once_and_the_game_is_no_longer_rated() -> None:
    m = table(kind="ranked", seated=4)
    ratings = {f"u{i}": (25.0 + i, 8.0) for i in range(4)}
    out = run(m, SERVER, Start(), facts(ratings=ratings))
    assert isinstance(out[0], ev.Started) and out[0].rated
    out = run(m, PEOPLE[2], p.Leave(id=1), facts(ratings=ratings))
    rating = out[1]
    assert isinstance(rating, ev.Rating) and rating.user == "u2" and rating.after < rating.before
    assert not m.rated and m.charged == {"u2": (rating.before, rating.after)}
    assert "mu" not in rating.public()
