"""Engine and CLI bugs found while writing the engine suite (issue 2).

Each test states the input, what the spec or the rest of the API leads one
to expect, and what happens instead. They fail until the engine is fixed;
none is skipped on purpose. When one is fixed, move it to the test file of
its module.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fourhundred.engine import (
    BID_BASE,
    GameState,
    NotYourTurn,
    Phase,
    _pycore,
    mask_of,
)

try:
    from fourhundred.engine import _speedups as _c_module
except ImportError:  # pragma: no cover - only where no C compiler was at hand
    _c_module = None

# Card c goes to seat c % 4.
INTERLEAVED = [mask_of(c for c in range(52) if c % 4 == s) for s in range(4)]


def bidding() -> GameState:
    s = GameState(first_dealer=0)
    s.deal(INTERLEAVED)
    assert s.turn == 1
    return s


# --------------------------------------------------------------------------
# Bug 1: a seat that is not an int is accepted when it equals the turn.
#
# Input: GameState.bid(3, True) while it is seat 1's turn (also 1.0, and the
# same for play()).  Expected: NotYourTurn "... True is not a seat", as the
# engine already says when it is seat 0's turn (bid(3, True) there raises
# "bid 3 by seat True: True is not a seat"), and nothing changes.  Got: the
# bid is taken for seat 1 (True == 1 and 1.0 == 1 pass `seat != turn`).


@pytest.mark.parametrize("seat", [True, 1.0])
def test_bid_by_a_seat_that_is_not_an_int(seat: Any) -> None:
    s = bidding()
    line = s.line()
    with pytest.raises(NotYourTurn, match="is not a seat"):
        s.bid(3, seat)
    assert s.line() == line


def test_play_by_a_seat_that_is_not_an_int() -> None:
    s = bidding()
    for _ in range(4):
        s.bid(3)
    assert s.phase is Phase.PLAY
    assert s.turn == 1
    line = s.line()
    with pytest.raises(NotYourTurn, match="is not a seat"):
        s.play(s.legal_cards()[0], True)
    assert s.line() == line


def test_apply_by_a_seat_that_is_not_an_int() -> None:
    s = bidding()
    line = s.line()
    with pytest.raises(NotYourTurn, match="is not a seat"):
        s.apply(BID_BASE + 3, True)
    assert s.line() == line


# --------------------------------------------------------------------------
# Bug 2: the C fast path raises OverflowError, not ValueError, for a card
# far outside 0..51.
#
# Input: PlayCore.play_unchecked(2**63) (or -(2**63) - 1) on the C core.
# Expected: ValueError "... is not a card", as the pure-Python core raises and
# as the C core raises for 52 or -1.  Got: OverflowError "Python int too large
# to convert to C long" (PyLong_AsLong overflows before the range check).


@pytest.mark.skipif(_c_module is None, reason="the C core is not built")
@pytest.mark.parametrize("bad", [2**63, 2**64, -(2**63) - 1])
def test_c_fast_path_rejects_a_huge_card_with_value_error(bad: int) -> None:
    for module in (_pycore, _c_module):

        class Core(module.PlayCore):  # type: ignore[name-defined,misc]
            def _hand_over(self) -> None:
                pass

        core = Core()
        core._core_start(INTERLEAVED)
        with pytest.raises(ValueError, match="not a card"):
            core.play_unchecked(bad)


# --------------------------------------------------------------------------
# Bug 3: hand(seat) of a non-seat differs between the cores.
#
# Input: GameState.hand(-1) / hand(4) (also can_redeal(-1), which calls it).
# Expected: the same answer with both cores; the C core raises ValueError
# "-1 is not a seat (0 to 3)".  Got with the pure-Python core
# (FOURHUNDRED_PURE_PYTHON=1, or wherever the C core is not built): hand(-1)
# silently returns seat 3's cards (a negative list index), hand(4) raises
# IndexError.


@pytest.mark.parametrize("bad", [-1, 4])
def test_hand_of_a_non_seat_is_refused_by_both_cores(bad: int) -> None:
    for module in (_pycore, *([_c_module] if _c_module else [])):

        class Core(module.PlayCore):  # type: ignore[name-defined,misc]
            def _hand_over(self) -> None:
                pass

        core = Core()
        core._core_start(INTERLEAVED)
        with pytest.raises(ValueError, match="is not a seat"):
            core.hand(bad)


# --------------------------------------------------------------------------
# Bug 4: copying or pickling a GameState depends on the core.
#
# Input: copy.deepcopy(state), copy.copy(state), pickle.dumps(state) on a
# game in play.  Expected: the same behaviour with both cores (either an
# equal, independent state, or a clear refusal pointing to clone()).  Got:
# the pure-Python core copies and pickles fine; the C core raises TypeError
# "cannot pickle 'GameState' object" (the C type has no __reduce__ and no
# __getstate__ for the trick state).

PROBE = """
import copy, pickle
from fourhundred.engine import GameState
s = GameState(first_dealer=0)
s.deal_random(seed=1)
for _ in range(4):
    s.bid(3)
s.play(s.legal_cards()[0])
for how in ("deepcopy", "copy", "pickle"):
    try:
        if how == "deepcopy":
            c = copy.deepcopy(s)
        elif how == "copy":
            c = copy.copy(s)
        else:
            c = pickle.loads(pickle.dumps(s))
        print(how, c.line() == s.line() and c.hands == s.hands and c.plays == s.plays)
    except Exception as e:
        print(how, type(e).__name__)
"""


def copy_behaviour(pure: bool) -> list[str]:
    env = dict(os.environ)
    env.pop("FOURHUNDRED_PURE_PYTHON", None)
    if pure:
        env["FOURHUNDRED_PURE_PYTHON"] = "1"
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=True
    )
    return proc.stdout.splitlines()


@pytest.mark.skipif(_c_module is None, reason="the C core is not built")
def test_copy_and_pickle_behave_the_same_with_both_cores() -> None:
    assert copy_behaviour(pure=False) == copy_behaviour(pure=True)


# --------------------------------------------------------------------------
# Bug 5: `fourhundred replay --jsonl FILE` gives up on a line of invalid UTF-8.
#
# Input: a file with three lines: a record, the bytes ff fe, a record.
# Expected (game-record.md: "a line that is not a JSON object ... gives
# {"error": ...} on its line and the others go on; the exit status is 0"):
# three result lines, the middle one an error, exit 0 -- which is what the
# same input gives on standard input.  Got: nothing on standard output, one
# line "cannot read FILE: 'utf-8' codec can't decode byte 0xff ..." on
# standard error, exit 1 (the file is opened with strict UTF-8 decoding and
# the first read fails before any line is replayed).


def test_jsonl_file_with_an_invalid_utf8_line(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_bytes(b'{"a": 1}\n\xff\xfe bad\n{"b": 2}\n')
    script = Path(sys.executable).with_name("fourhundred")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "fourhundred.cli"]
    from_file = subprocess.run(
        [*cmd, "replay", "--jsonl", str(path)], capture_output=True, text=True, check=False
    )
    from_stdin = subprocess.run(
        [*cmd, "replay", "--jsonl"],
        input=path.read_bytes(),
        capture_output=True,
        check=False,
    )
    assert from_stdin.returncode == 0
    assert len(from_stdin.stdout.splitlines()) == 3
    assert from_file.returncode == 0, from_file.stderr
    assert from_file.stdout.splitlines() == from_stdin.stdout.decode().splitlines()
