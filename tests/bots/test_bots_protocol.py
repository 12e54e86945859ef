"""The bot protocol: views round-trip, answers are checked, our bots speak
it, and faulty external bots are handled as docs/bot-protocol.md says."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable

import pytest

from fourhundred.bots import make_bot
from fourhundred.bots.external import ExternalBot
from fourhundred.bots.guest import serve
from fourhundred.bots.heuristic import HeuristicBot
from fourhundred.bots.protocol import (
    ProtocolError,
    action_message,
    answer_to_action,
    timeout_action_of,
    view_from_dict,
)
from fourhundred.engine import BID_BASE, GameState, Phase, view_for


def _views(advance: Callable[..., GameState]) -> list[object]:
    out = []
    for seed in range(8):
        for n in (0, 3, 4, 17, 30, 51):
            s = advance(seed, n)
            if s.phase in (Phase.BID, Phase.PLAY):
                out += [view_for(s, x) for x in (None, 0, 1, 2, 3)]
    return out


def test_views_round_trip_through_json(advance: Callable[..., GameState]) -> None:
    views = _views(advance)
    assert len(views) > 100
    for v in views:
        assert view_from_dict(json.loads(json.dumps(v.to_dict()))) == v  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"extra": 1}, "unknown view field"),
        ({"hand": ["ZZ"]}, "card like"),
        ({"scores": [1, 2, 3]}, "scores must be a list of 4"),
        ({"phase": "dance"}, "phase must be"),
        ({"format": "other/1"}, "view format"),
        ({"seat": True}, "seat must be an integer"),
    ],
)
def test_bad_views_are_refused(change: dict[str, object], message: str) -> None:
    s = GameState(first_dealer=0)
    s.deal_random(seed=1)
    d = view_for(s, 1).to_dict()
    d.update(change)
    with pytest.raises(ProtocolError, match=message):
        view_from_dict(d)


def test_answers_are_checked() -> None:
    s = GameState(first_dealer=0)
    s.deal_random(seed=1)
    v = view_for(s, 1)
    assert answer_to_action({"type": "action", "id": 1, "bid": 4}, v) == BID_BASE + 4
    for bad in (
        {"type": "action", "id": 1, "bid": 1},  # below min_bid
        {"type": "action", "id": 1, "bid": True},
        {"type": "action", "id": 1, "bid": 4.0},
        {"type": "action", "id": 1, "card": "AS"},
        {"type": "move", "id": 1, "bid": 4},
        ["action"],
    ):
        with pytest.raises(ProtocolError):
            answer_to_action(bad, v)
    for _ in range(4):
        s.bid(3)
    v = view_for(s, s.turn)
    card = v.legal[0]  # type: ignore[index]
    assert answer_to_action(action_message(card, 5), v) == card
    with pytest.raises(ProtocolError, match="not legal"):
        held = set(v.hand or ()) - set(v.legal or ())
        other = next(iter(held)) if held else next(c for c in range(52) if c not in v.hand)  # type: ignore[operator]
        answer_to_action(action_message(other, 5), v)


def test_guest_answers_hello_and_acts_and_ignores_garbage() -> None:
    s = GameState(first_dealer=0)
    s.deal_random(seed=3)
    v = view_for(s, 1)
    lines = [
        json.dumps({"type": "hello", "protocol": "fourhundred-bot/1"}),
        "not json at all",
        "   ",
        json.dumps({"type": "act", "id": 7, "view": {"broken": True}, "budget_ms": 100}),
        json.dumps({"type": "act", "id": 6, "view": {**v.to_dict(), "hand": None}}),
        json.dumps({"type": "act", "id": 8, "view": v.to_dict(), "budget_ms": 100}),
        json.dumps({"type": "quit"}),
        json.dumps({"type": "act", "id": 9, "view": v.to_dict(), "budget_ms": 100}),
    ]
    out, err = io.StringIO(), io.StringIO()
    assert serve(HeuristicBot(), "heuristic", io.StringIO("\n".join(lines) + "\n"), out, err) == 0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert answers[0]["type"] == "ready"
    assert len(answers) == 2  # nothing after quit, nothing for the bad act
    assert answers[1]["id"] == 8
    assert answer_to_action(answers[1], v) == HeuristicBot().choose(v)
    assert "not JSON" in err.getvalue()
    assert "ignored a blank line" in err.getvalue()
    assert "act 7" in err.getvalue()
    assert "act 6: cannot act on this view" in err.getvalue()


def _play_with(bot: ExternalBot, seed: int, turns: int) -> list[tuple[object, int, int]]:
    """Let ``bot`` act for seat 1 for ``turns`` of its turns (heuristic for
    the others); returns (view, its action, the timeout action) per turn."""
    s = GameState(first_dealer=0)
    s.deal_random(seed=seed)
    others = HeuristicBot()
    out = []
    while len(out) < turns and s.phase in (Phase.BID, Phase.PLAY):
        v = view_for(s, s.turn)
        if s.turn == 1:
            a = bot.choose(v)
            out.append((v, a, s.timeout_action()))
        else:
            a = others.choose(v)
        s.apply(a)
        if s.phase is Phase.DEAL:
            s.deal_random(seed=seed + 1)
    return out


def test_late_answer_is_a_fault(protocol_bot: Callable[[str], str]) -> None:
    bot = make_bot(protocol_bot("late"), budget_ms=100)
    assert isinstance(bot, ExternalBot)
    try:
        turns = _play_with(bot, 5, 6)
        faults = bot.drain_faults()
        assert faults and "act 2: no answer within 100 ms + 200 ms grace" in faults[0]
        assert turns[1][1] == turns[1][2]  # the second act: the timeout action
        # The late answer is dropped when it comes; the bot plays on and is
        # not replaced, and its later answers count again.
        assert len(faults) < len(turns) - 1
        assert bot.replaced is None
        for v, a, _ in turns:
            legal = v.legal or ()  # type: ignore[attr-defined]
            assert a in legal or a - BID_BASE in legal
    finally:
        bot.close()


def test_illegal_answers_are_faults(protocol_bot: Callable[[str], str]) -> None:
    bot = make_bot(protocol_bot("illegal"), budget_ms=500)
    assert isinstance(bot, ExternalBot)
    try:
        turns = _play_with(bot, 6, 3)
        faults = bot.drain_faults()
        assert len(faults) == 3
        assert all("not legal" in f for f in faults)
        assert all(a == timeout for _, a, timeout in turns)
    finally:
        bot.close()


def test_garbage_answers_are_faults(protocol_bot: Callable[[str], str]) -> None:
    bot = make_bot(protocol_bot("garbage"), budget_ms=500)
    assert isinstance(bot, ExternalBot)
    try:
        turns = _play_with(bot, 7, 3)
        faults = bot.drain_faults()
        assert len(faults) == 3
        assert "malformed" in faults[0]
        assert "wrong id" in faults[1]
        assert "must carry a card" in faults[2] or "integer" in faults[2]
        assert all(a == timeout for _, a, timeout in turns)
        assert bot.replaced is None
    finally:
        bot.close()


def test_answers_of_the_wrong_shape_are_faults_that_say_so(
    protocol_bot: Callable[[str], str],
) -> None:
    bot = make_bot(protocol_bot("shapes"), budget_ms=500)
    assert isinstance(bot, ExternalBot)
    try:
        turns = _play_with(bot, 7, 3)
        faults = bot.drain_faults()
        assert len(faults) == 3, faults
        assert "as a whole number" in faults[0] and "not 1.0" in faults[0]  # 1.0 is no id
        assert "must be a JSON object" in faults[1]
        assert "as a whole number" in faults[2] and "not None" in faults[2]
        assert all(a == timeout for _, a, timeout in turns)
    finally:
        bot.close()


def test_a_bot_that_crashes_is_replaced_by_the_heuristic(
    protocol_bot: Callable[[str], str],
) -> None:
    bot = make_bot(protocol_bot("crash"), budget_ms=500)
    assert isinstance(bot, ExternalBot)
    try:
        turns = _play_with(bot, 8, 6)
        assert bot.replaced is not None and "exited" in bot.replaced
        faults = bot.drain_faults()
        assert any("heuristic bot plays for it" in f for f in faults)
        # From the crash on, the heuristic's choices.
        for v, a, _ in turns[2:]:
            assert a == HeuristicBot().choose(v)  # type: ignore[arg-type]
    finally:
        bot.close()


def test_a_bot_that_never_says_ready_is_replaced(protocol_bot: Callable[[str], str]) -> None:
    bot = ExternalBot(protocol_bot("silent")[4:], hello_timeout=0.5)
    try:
        assert bot.replaced is not None and "hello" in bot.replaced
        assert len(bot.drain_faults()) == 1
        turns = _play_with(bot, 9, 2)
        assert all(a == HeuristicBot().choose(v) for v, a, _ in turns)  # type: ignore[arg-type]
    finally:
        bot.close()


def test_a_command_that_does_not_exist_is_replaced() -> None:
    bot = make_bot("cmd:/nonexistent/bot --flag")
    assert isinstance(bot, ExternalBot)
    assert bot.replaced is not None and "cannot start" in bot.replaced
    bot.close()
    with pytest.raises(ValueError, match="command line"):
        make_bot("cmd:   ")


def test_timeout_action_matches_the_engine(advance: Callable[..., GameState]) -> None:
    for seed in range(10):
        for n in (0, 2, 8, 21):
            s = advance(seed, n)
            if s.phase in (Phase.BID, Phase.PLAY):
                assert timeout_action_of(view_for(s, s.turn)) == s.timeout_action()


def test_fourhundred_bot_command_speaks_the_protocol() -> None:
    s = GameState(first_dealer=2)
    s.deal_random(seed=11)
    v = view_for(s, 3)
    msgs = [
        {"type": "hello", "protocol": "fourhundred-bot/1"},
        {"type": "act", "id": 1, "view": v.to_dict(), "budget_ms": 300},
        {"type": "quit"},
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "fourhundred.cli", "bot", "heuristic"],
        input="".join(json.dumps(m) + "\n" for m in msgs),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answers = [json.loads(x) for x in proc.stdout.splitlines()]
    assert answers[0] == {"type": "ready", "name": "fourhundred-heuristic", "author": "fourhundred"}
    assert answer_to_action(answers[1], v) == HeuristicBot().choose(v)
