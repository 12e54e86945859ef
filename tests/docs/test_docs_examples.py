"""The examples of the format pages, run through the code: the session of
docs/bot-protocol.md through ``fourhundred bot``, the record and result of
docs/game-record.md through ``fourhundred replay``, and the view of
docs/view.md through ``view_for``. Each example is the fenced block after a
``<!-- docs-check: NAME -->`` line of its page."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fh_docs import DOCS, marked_blocks

from fourhundred.bots import make_bot
from fourhundred.bots.guest import serve
from fourhundred.engine import RecordError, replay, replay_result, view_for

MD = ".md"


def blocks(page: str) -> dict[str, str]:
    return marked_blocks((DOCS / (page + MD)).read_text(encoding="utf-8"))


def fourhundred(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """``fourhundred ARGS`` as a reader would type it (the console script
    beside this interpreter, else the module)."""
    script = Path(sys.executable).with_name("fourhundred")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "fourhundred.cli"]
    return subprocess.run(
        [*command, *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


# ------------------------------------------------------------ bot protocol


def test_the_session_by_hand_is_what_fourhundred_bot_answers() -> None:
    b = blocks("bot-protocol")
    typed, answers = b["session-input"], b["session-output"]
    done = fourhundred("bot", "heuristic", "--seed", "1", stdin=typed)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == answers.splitlines()
    assert done.stderr == ""


def test_the_session_is_the_example_hand() -> None:
    """The session's views are those of seat 1 in the record of
    docs/game-record.md: its bidding view, then its view in the first trick
    after the bids the session says."""
    lines = [json.loads(line) for line in blocks("bot-protocol")["session-input"].splitlines()]
    acts = [m for m in lines if m["type"] == "act"]
    record = json.loads(blocks("game-record")["record"])
    hand = record["hands"][0]
    hand["bids"], hand["plays"] = hand["bids"][:2], []
    assert acts[0]["view"] == view_for(replay(record), 1).to_dict()
    hand["bids"], hand["plays"] = [3, 4, 2, 2], ["AC", "JC"]
    assert acts[1]["view"] == view_for(replay(record), 1).to_dict()


def test_a_view_that_cannot_be_read_gets_no_answer() -> None:
    """The page's "things to try": an act without a usable view is named on
    standard error and not answered."""
    out, err = io.StringIO(), io.StringIO()
    line = io.StringIO('{"type": "act", "id": 3, "view": {}}\n')
    serve(make_bot("random"), "random", line, out, err)
    assert out.getvalue() == ""
    assert err.getvalue() == "act 3: the view lacks 'bids'\n"


# ------------------------------------------------------------ game records


def test_the_worked_record_replays_to_the_result_shown() -> None:
    b = blocks("game-record")
    assert replay_result(json.loads(b["record"])) == json.loads(b["result"])


def _illegal_card(r: dict[str, Any]) -> None:
    r["hands"][0]["plays"][5] = "2H"  # seat 0 still holds clubs


def _wrong_dealer(r: dict[str, Any]) -> None:
    r["hands"][0]["dealer"] = 1


def _unknown_key(r: dict[str, Any]) -> None:
    r["extra"] = 1


def _hand_after_a_short_one(r: dict[str, Any]) -> None:
    r["hands"][0]["bids"], r["hands"][0]["plays"] = [3, 4, 2], []
    r["hands"].append(copy.deepcopy(r["hands"][0]))


PLANTED: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (_illegal_card, "hand 0 action 9: card '2H' by seat 0 is not legal"),
    (_wrong_dealer, "hand 0 action -: dealer should be seat 2"),
    (_unknown_key, "hand - action -: unknown keys ['extra']"),
    (_hand_after_a_short_one, "hand 0 action 3: hand is missing bids"),
]
"""Faults planted in the worked record, and the line each gives."""


def planted(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(blocks("game-record")["record"])
    change(record)
    return record


def test_the_page_shows_these_errors() -> None:
    """The error block of docs/game-record.md is the first three planted
    faults' lines (the fourth is quoted in its text)."""
    assert blocks("game-record")["errors"].splitlines() == [e for _, e in PLANTED[:3]]
    assert f"(`{PLANTED[3][1]}`)" in (DOCS / ("game-record" + MD)).read_text(encoding="utf-8")


@pytest.mark.parametrize(("change", "error"), PLANTED)
def test_the_errors_shown_are_the_errors_given(
    change: Callable[[dict[str, Any]], None], error: str
) -> None:
    with pytest.raises(RecordError) as e:
        replay_result(planted(change))
    assert str(e.value) == error


def test_the_commands_print_what_the_page_says() -> None:
    """``fourhundred replay -``: the result on one line; a wrong record: its
    line on standard error, nothing on standard output, status 2. With
    ``--jsonl``: a line each, errors as ``{"error": ...}``, status 0."""
    b = blocks("game-record")
    done = fourhundred("replay", "-", stdin=b["record"])
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.count("\n") == 1
    assert json.loads(done.stdout) == json.loads(b["result"])

    done = fourhundred("replay", "-", stdin=json.dumps(planted(_illegal_card)))
    assert (done.returncode, done.stdout, done.stderr) == (2, "", PLANTED[0][1] + "\n")

    lines = [json.dumps(json.loads(b["record"]))] + [json.dumps(planted(c)) for c, _ in PLANTED]
    done = fourhundred("replay", "--jsonl", stdin="\n".join([*lines, "", "[1]"]) + "\n")
    assert (done.returncode, done.stderr) == (0, "")
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        json.loads(b["result"]),
        *({"error": e} for _, e in PLANTED),
        {"error": "hand - action -: blank line: expected a JSON record"},
        {"error": "hand - action -: a record must be a JSON object"},
    ]


# --------------------------------------------------------------- the view


def test_the_view_shown_is_view_for() -> None:
    """Seat 1's view after the 25th card of the worked record, and the
    differences the page names for seat 2 and a spectator."""
    shown = json.loads(blocks("view")["view"])
    record = json.loads(blocks("game-record")["record"])
    record["hands"][0]["plays"] = record["hands"][0]["plays"][:25]
    state = replay(record)
    assert shown == view_for(state, 1).to_dict()
    assert list(shown) == list(view_for(state, 1).to_dict())  # the order shown
    partner = view_for(state, 2).to_dict()
    assert {k for k in shown if shown[k] != partner[k]} == {"seat", "hand", "legal"}
    spectator = view_for(state, None).to_dict()
    assert "hand" not in spectator
    assert spectator["seat"] is None and spectator["legal"] is None
