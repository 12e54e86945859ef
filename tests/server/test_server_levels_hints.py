"""Levels, substitutes and hints, judged by ``decide`` alone (no server,
no clock): ``add_bot`` by level, a substitute at expert, the ``hints``
setting and who may ask, the mark in the log and on the score sheet; and
the bot pool's fallback from the expert, with its counter."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from test_server_decide import PEOPLE, playing, run, table

from fourhundred.engine import View, view_for
from fourhundred.server import events as ev
from fourhundred.server import protocol as p
from fourhundred.server.botpool import PoolBotRunner, bot_turn
from fourhundred.server.decide import SERVER, SUBSTITUTE_AFTER, Facts, TurnTimeout, decide
from fourhundred.server.errors import CommandError
from fourhundred.server.hintdesk import HintDesk
from fourhundred.server.metrics import Metrics
from fourhundred.server.room import TableModel, rebuild
from fourhundred.store import StoredEvent

BOTS = {"beginner", "heuristic", "expert", "random"}


def facts(**kw: object) -> Facts:
    return Facts(rng=random.Random(1), bot="heuristic", bots=BOTS, **kw)  # type: ignore[arg-type]


def refused(m: TableModel, who: object, cmd: object, code: str, words: str) -> None:
    """Refused with ``code`` and a message containing ``words``; nothing changed."""
    before = m.summary((), 0)
    with pytest.raises(CommandError) as e:
        decide(m, who, cmd, facts())  # type: ignore[arg-type]
    assert e.value.code == code and words in e.value.message, e.value
    assert m.summary((), 0) == before


def test_add_bot_by_level_shows_its_level_and_label() -> None:
    m = table()
    f = facts()
    run(m, PEOPLE[0], p.AddBot(id=1, seat=1, level="expert"), f)
    run(m, PEOPLE[0], p.AddBot(id=2, seat=2, level="beginner"), f)
    run(m, PEOPLE[0], p.AddBot(id=3, seat=3, bot="heuristic"), f)  # a name, as before levels
    seats = m.summary((), 0)["seats"]
    assert [(s["bot"], s["level"], s["label"]) for s in seats] == [
        (None, None, None),
        ("expert", "expert", "Expert bot"),
        ("beginner", "beginner", "Beginner bot"),
        ("heuristic", "intermediate", "Intermediate bot"),
    ]


def test_a_bad_level_is_refused_and_changes_nothing() -> None:
    m = table()
    refused(m, PEOPLE[0], p.AddBot(id=1, seat=1, level="genius"), "not_allowed",
            "unknown level 'genius' (levels: beginner, intermediate, expert)")  # fmt: skip
    refused(m, PEOPLE[0], p.AddBot(id=1, seat=1, level="expert", bot="random"), "not_allowed",
            "not both")  # fmt: skip
    refused(m, PEOPLE[0], p.AddBot(id=1, seat=1, bot="skynet"), "not_allowed", "unknown bot")


def test_a_player_who_leaves_is_replaced_at_expert() -> None:
    m = playing()
    out = run(m, PEOPLE[2], p.Leave(id=1), facts())
    sub = next(e for e in out if isinstance(e, ev.Substituted))
    assert sub.bot == "expert" and m.seats[2].bot == "expert"
    assert m.summary((), 0)["seats"][2]["label"] == "Expert bot"
    # The server's --substitute decides it.
    m = playing()
    out = run(m, PEOPLE[1], p.Leave(id=1), facts(substitute="heuristic"))
    assert m.seats[1].bot == "heuristic"


def with_hints(kind: ev.TableKind = "casual") -> TableModel:
    m = playing()
    m.hints = True  # as after `configure` with hints: true
    m.kind = kind
    return m


def test_hints_are_off_by_default_and_the_host_turns_them_on() -> None:
    m = table(seated=4)
    assert m.hints is False and m.summary((), 0)["hints"] is False
    refused(m, PEOPLE[1], p.Configure(id=1, hints=True), "not_host", "host")
    out = run(m, PEOPLE[0], p.Configure(id=1, hints=True))
    assert out == [ev.Configured(preset="standard", settings=m.settings.to_dict(), timer=30,
                                 hints=True)]  # fmt: skip
    assert m.hints is True
    run(m, PEOPLE[0], p.Configure(id=2, timer=45))  # a field left out keeps its value
    assert m.hints is True
    ranked = table("ranked", seated=4)
    refused(ranked, PEOPLE[0], p.Configure(id=1, hints=True), "not_allowed", "Ranked")


def test_who_may_ask_for_a_hint() -> None:
    m = playing()
    assert m.game is not None
    turn = m.game.turn
    refused(m, PEOPLE[turn], p.Hint(id=1), "not_allowed", "hints are off")
    refused(with_hints("ranked"), PEOPLE[turn], p.Hint(id=1), "not_allowed", "Ranked")
    m = with_hints()
    refused(m, PEOPLE[(turn + 1) % 4], p.Hint(id=1), "not_your_turn", "your turn")
    spectator = type(PEOPLE[0])("u9", "Watcher")
    refused(m, spectator, p.Hint(id=1), "not_seated", "seated")
    waiting = table(seated=4)
    waiting.hints = True
    refused(waiting, PEOPLE[0], p.Hint(id=1), "wrong_phase", "no hand")


def test_a_hint_is_marked_once_a_hand_in_the_log_and_on_the_sheet() -> None:
    m = with_hints()
    assert m.game is not None
    turn = m.game.turn
    out = run(m, PEOPLE[turn], p.Hint(id=1))
    assert out == [ev.HintUsed(seat=turn, hand_index=0)]
    assert ev.HintUsed(seat=turn, hand_index=0).public() == {
        "kind": "hint_used", "seat": turn, "hand_index": 0}  # fmt: skip
    assert run(m, PEOPLE[turn], p.Hint(id=2)) == []  # the hand is already marked
    while not m.sheet:
        run(m, SERVER, TurnTimeout())
    assert m.sheet[0].hinted == (turn,)
    assert "hinted" in m.sheet[0].public()


def test_the_mark_survives_a_rebuild_from_the_log() -> None:
    m = table(seated=4)
    log: list[ev.Event] = []
    log += run(m, PEOPLE[0], p.Configure(id=1, hints=True))
    for i in range(4):
        log += run(m, PEOPLE[i], p.Ready(id=1, ready=True))
    assert m.game is not None
    log += run(m, PEOPLE[m.game.turn], p.Hint(id=1))
    created = ev.Created(table_kind="casual", host="u0", preset="standard",
                         settings=m.settings.to_dict(), timer=30, invite=None,
                         seats=tuple(ev.Player(id=f"u{i}", name=f"P{i}", guest=True, rating=None)
                                     for i in range(4)), ready=(False,) * 4)  # fmt: skip
    stored = [StoredEvent(1, *ev.to_stored(created), 0)]
    for i, e in enumerate(log):
        kind, data = ev.to_stored(e)
        stored.append(StoredEvent(i + 2, kind, data, 0))
    again = rebuild("t1", stored)
    assert again.hints and again.hints_used == m.hints_used == {(0, m.game.turn)}


async def test_an_expert_falls_back_while_the_pool_is_behind() -> None:
    metrics = Metrics()
    runner = PoolBotRunner(0, 50)
    m = playing()
    assert m.game is not None
    view = view_for(m.game, m.game.turn)
    assert runner.fallback("expert") == ("expert", None)
    assert runner.fallback("heuristic") == ("heuristic", None)
    runner.busy = 1  # another decision holds the only worker
    assert runner.fallback("expert") == ("heuristic", "busy")
    action = await bot_turn(runner, "expert", view, pace_s=0, metrics=metrics)
    assert action is not None and action in m.game.legal_actions()
    runner.busy = 0
    runner._late_at = time.monotonic()  # a decision was just late
    assert runner.fallback("expert") == ("heuristic", "late")
    await bot_turn(runner, "expert", view, pace_s=0, metrics=metrics)
    text = metrics.render().decode()
    assert 'fourhundred_bot_fallbacks_total{bot="expert",reason="busy",to="heuristic"} 1.0' in text
    assert 'fourhundred_bot_fallbacks_total{bot="expert",reason="late",to="heuristic"} 1.0' in text
    runner.close()


async def test_warming_a_worker_loads_the_experts_models() -> None:
    from fourhundred.bots.locations import shipped_locations
    from fourhundred.bots.model import shipped_model

    shipped_model.cache_clear()
    shipped_locations.cache_clear()
    runner = PoolBotRunner(0, 50)  # one thread: its worker is this process
    await runner.warm()
    assert shipped_model.cache_info().currsize == 1
    assert shipped_locations.cache_info().currsize == 1
    runner.close()


def test_three_timeouts_bring_the_substitute_of_the_facts() -> None:
    m = playing()
    assert m.game is not None
    seat = m.game.turn
    while not m.seats[seat].substitute:
        run(m, SERVER, TurnTimeout(), facts(substitute="expert"))
    assert m.seats[seat].bot == "expert" and m.seats[seat].timeouts >= SUBSTITUTE_AFTER


class _Socket:
    user_id = "u0"
    user_name = "P0"

    def __init__(self) -> None:
        self.sent: list[dict[str, object]] = []

    def send(self, data: bytes) -> None:
        self.sent.append(json.loads(data))


class _Runner(PoolBotRunner):
    """The pool, counting hints, answering at once."""

    def __init__(self) -> None:
        super().__init__(0, 50)
        self.asked = 0

    async def hint(self, view: View, seed: int) -> dict[str, object]:
        self.asked += 1
        await asyncio.sleep(0.01)
        return {"action": "bid 4", "reason": "bid 4: 70% chance of making it", "chance": 0.7}


async def test_one_position_costs_the_pool_one_hint() -> None:
    m = with_hints()
    assert m.game is not None
    seat = m.game.turn
    runner = _Runner()
    desk = HintDesk("t1", runner, Metrics())
    a, b = _Socket(), _Socket()
    desk.answer(a, 1, m, seat)
    desk.answer(b, 2, m, seat)  # while the first is worked out
    await asyncio.sleep(0.1)
    desk.answer(a, 3, m, seat)  # answered already
    assert runner.asked == 1
    assert [f["id"] for f in a.sent] == [1, 3] and [f["id"] for f in b.sent] == [2]
    frame = a.sent[0]
    assert frame["type"] == "hint" and frame["seat"] == seat and frame["version"] == m.version
    assert frame["action"] == "bid 4" and frame["chance"] == 0.7
    runner.close()
