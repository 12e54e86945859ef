"""The C trick-play core (``_speedups``) and its pure-Python twin
(``_pycore``) agree card for card: every return value and every property
after every card, on the same random hands."""

from __future__ import annotations

import os
import pickle
import random
import struct
import subprocess
import sys
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fourhundred.engine import GameState, Phase, _pycore, cards_of

try:
    from fourhundred.engine import _speedups as _c_module
except ImportError:  # pragma: no cover - only where no C compiler was at hand
    _c_module = None

speedups: ModuleType = _c_module  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(
    _c_module is None,
    reason="the C core fourhundred.engine._speedups is not built "
    "(reinstall with a C compiler: pip install -e .); nothing to compare",
)

FULL = (1 << 52) - 1
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def core_class(module: ModuleType) -> type[Any]:
    """A minimal subclass of ``module.PlayCore`` that records each call of
    ``_hand_over`` (with the number of tricks at that moment)."""

    class Core(module.PlayCore):  # type: ignore[name-defined,misc]
        def __init__(self) -> None:
            super().__init__()
            self.ended: list[int] = []

        def _hand_over(self) -> None:
            self.ended.append(self.n_tricks)

    return Core


def new_pair() -> tuple[Any, Any]:
    return core_class(_pycore)(), core_class(speedups)()


def snapshot(core: Any) -> dict[str, Any]:
    """Everything observable about a core."""
    return {
        "hands": core.hands,
        "hand": [core.hand(s) for s in range(4)],
        "turn": core.turn,
        "tricks_won": core.tricks_won,
        "trick_winners": core.trick_winners,
        "current_trick": core.current_trick,
        "done_cards": core.done_cards,
        "plays": core.plays,
        "n_tricks": core.n_tricks,
        "led_suit": core.led_suit,
        "thirteen_bidder": core.thirteen_bidder,
        "legal_mask": core.legal_mask(),
        "state": core._core_state(),
        "ended": list(core.ended),
    }


def masks_of(order: list[int]) -> list[int]:
    out = [0, 0, 0, 0]
    for i, c in enumerate(order):
        out[i // 13] |= 1 << c
    return out


deals = st.permutations(range(52)).map(masks_of)


@SETTINGS
@given(
    hands=deals,
    leader=st.integers(0, 3),
    bidder=st.sampled_from([-1, -1, 0, 1, 2, 3]),
    seed=st.integers(0, 2**32 - 1),
    keep_going=st.booleans(),
)
def test_same_hand_same_everything(
    hands: list[int], leader: int, bidder: int, seed: int, keep_going: bool
) -> None:
    py, c = new_pair()
    for core in (py, c):
        core._core_start(hands)
        core.turn = leader
        core.thirteen_bidder = bidder
    assert snapshot(py) == snapshot(c)
    rng = random.Random(seed)
    played = 0
    while played < 52:
        legal = py.legal_mask()
        assert legal == c.legal_mask()
        assert legal, "a seat with cards always has a legal card"
        card = rng.choice(cards_of(legal))
        r_py = py.play_unchecked(card)
        r_c = c.play_unchecked(card)
        played += 1
        assert r_py == r_c, f"play_unchecked({card}) after {played - 1} cards"
        s_py, s_c = snapshot(py), snapshot(c)
        assert s_py == s_c, f"after card {played} ({card})"
        # 52 cards: the unplayed, the complete tricks and the trick in progress.
        held = s_py["hands"]
        assert (
            sum(h.bit_count() for h in held) + len(s_py["done_cards"]) + len(s_py["current_trick"])
            == 52
        )
        if r_py == 0 and not keep_going:
            break
        if r_py:
            assert r_py == s_py["legal_mask"]
    # _hand_over was called at the thirteenth trick, or at the first trick the
    # 13-bidder lost (and once per later trick when play went on regardless).
    ended = py.ended
    if bidder < 0:
        assert ended == ([13] if played == 52 else [])
    else:
        lost = [i + 1 for i, w in enumerate(py.trick_winners) if w != bidder]
        expected = lost if keep_going else lost[:1]
        if len(py.trick_winners) == 13 and 13 not in expected:
            expected = [*expected, 13]
        assert ended == expected
    if played == 52:
        for core in (py, c):
            with pytest.raises(ValueError, match="no cards left"):
                core.play_unchecked(0)
        assert snapshot(py) == snapshot(c)


@SETTINGS
@given(hands=deals, leader=st.integers(0, 3), seed=st.integers(0, 2**32 - 1))
def test_copy_is_equal_and_independent(hands: list[int], leader: int, seed: int) -> None:
    rng = random.Random(seed)
    stop = rng.randrange(52)
    py, c = new_pair()
    for core in (py, c):
        core._core_start(hands)
        core.turn = leader
    for _ in range(stop):
        card = rng.choice(cards_of(py.legal_mask()))
        py.play_unchecked(card)
        c.play_unchecked(card)
    py2, c2 = new_pair()
    py2._core_copy(py)
    c2._core_copy(c)
    assert {**snapshot(py2), "ended": []} == {**snapshot(py), "ended": []}
    assert snapshot(c2) == snapshot(py2)
    before = snapshot(py), snapshot(c)
    card = cards_of(py2.legal_mask())[0]
    py2.play_unchecked(card)
    c2.play_unchecked(card)
    assert snapshot(py2) == snapshot(c2)
    assert (snapshot(py), snapshot(c)) == before, "playing on a copy changed the original"


@SETTINGS
@given(hands=deals, leader=st.integers(0, 3), seed=st.integers(0, 2**32 - 1))
def test_state_restores_into_either_core(hands: list[int], leader: int, seed: int) -> None:
    """_core_state (what pickles carry) is the same in both cores and
    restores into either, which then plays on identically."""
    rng = random.Random(seed)
    stop = rng.randrange(53)
    bidder = rng.choice([-1, leader])
    py, c = new_pair()
    for core in (py, c):
        core._core_start(hands)
        core.turn = leader
        core.thirteen_bidder = bidder
    for _ in range(stop):
        card = rng.choice(cards_of(py.legal_mask()))
        if py.play_unchecked(card) == 0:
            c.play_unchecked(card)
            break
        c.play_unchecked(card)
    state = py._core_state()
    assert c._core_state() == state
    for source in (py, c):
        for target in new_pair():
            target._core_restore(source._core_state())
            assert {**snapshot(target), "ended": []} == {**snapshot(source), "ended": []}
    # Played on from the restored state, both cores still agree.
    py2, c2 = new_pair()
    py2._core_restore(state)
    c2._core_restore(state)
    while py2.n_tricks < 13 and py2.hands[py2.turn]:
        card = rng.choice(cards_of(py2.legal_mask()))
        assert py2.play_unchecked(card) == c2.play_unchecked(card)
        assert snapshot(py2) == snapshot(c2)


def test_copy_from_another_type_is_refused() -> None:
    c = core_class(speedups)()
    with pytest.raises(TypeError):
        c._core_copy(core_class(_pycore)())


def test_fresh_cores_agree() -> None:
    py, c = new_pair()
    assert snapshot(py) == snapshot(c)
    assert py.thirteen_bidder == -1
    assert py.led_suit == -1


@pytest.mark.parametrize(
    "bad", [-1, 52, 53, 66, 1000, 2**31, -(2**31), 2**63, 2**64, -(2**63) - 1, 2**200]
)
def test_fast_path_rejects_a_card_outside_the_deck(bad: int) -> None:
    hands = masks_of(list(range(52)))
    for core in new_pair():
        core._core_start(hands)
        before = snapshot(core)
        with pytest.raises(ValueError, match="not a card"):
            core.play_unchecked(bad)
        assert snapshot(core) == before, "a refused card changed the core"


@pytest.mark.parametrize("bad", [-1, 4, 7, 2**64])
def test_hand_rejects_a_non_seat(bad: int) -> None:
    """Once the pure-Python core returned seat 3's cards for hand(-1)."""
    for core in new_pair():
        core._core_start(masks_of(list(range(52))))
        with pytest.raises(ValueError, match="is not a seat"):
            core.hand(bad)


@pytest.mark.parametrize("bad", [-1, 4, 7])
def test_turn_rejects_a_non_seat(bad: int) -> None:
    for core in new_pair():
        core.turn = 2
        with pytest.raises(ValueError, match="not a seat"):
            core.turn = bad
        assert core.turn == 2


def test_base_hand_over_is_abstract() -> None:
    """Without a subclass, ending a hand raises NotImplementedError in both."""
    hands = masks_of(list(range(52)))
    for module in (_pycore, speedups):
        core = module.PlayCore()
        core._core_start(hands)
        core.thirteen_bidder = 1  # seat 0 leads 2C, seat 2 trumps with 2H: seat 1 lost
        with pytest.raises(NotImplementedError):
            for _ in range(4):
                core.play_unchecked(cards_of(core.legal_mask())[0])


# ------------------------------------------------------------------ nth_card


@settings(max_examples=300, deadline=None)
@given(mask=st.integers(0, FULL), k=st.integers(0, 60))
def test_nth_card_parity(mask: int, k: int) -> None:
    expected = cards_of(mask)[k] if k < mask.bit_count() else -1
    assert _pycore.nth_card(mask, k) == expected
    assert speedups.nth_card(mask, k) == expected


def test_nth_card_edges() -> None:
    for f in (_pycore.nth_card, speedups.nth_card):
        assert f(0, 0) == -1
        assert f(FULL, 0) == 0
        assert f(FULL, 51) == 51
        assert f(FULL, 52) == -1
        assert f(1 << 51, 0) == 51


# ------------------------------------------------------ cards_of and pick_card


@settings(max_examples=300, deadline=None)
@given(mask=st.integers(0, FULL), r=st.floats(0.0, 1.0, exclude_max=True))
def test_cards_of_and_pick_card_parity(mask: int, r: float) -> None:
    expected = [c for c in range(52) if mask >> c & 1]
    assert _pycore.cards_of(mask) == expected
    assert speedups.cards_of(mask) == expected
    picked = _pycore.pick_card(mask, r)
    assert speedups.pick_card(mask, r) == picked
    if mask:
        assert picked == expected[int(r * len(expected))]
    else:
        assert picked == -1


@pytest.mark.parametrize("r", [-0.1, 1.0, 1.5, float("nan"), float("inf")])
def test_pick_card_refuses_r_outside_0_1(r: float) -> None:
    for f in (_pycore.pick_card, speedups.pick_card):
        with pytest.raises(ValueError, match=r"r must be in \[0, 1\)"):
            f(0b111, r)


def test_pick_card_reaches_every_card() -> None:
    mask = (1 << 5) | (1 << 17) | (1 << 51)
    for f in (_pycore.pick_card, speedups.pick_card):
        assert [f(mask, r) for r in (0.0, 0.34, 0.67, 0.999999)] == [5, 17, 51, 51]


# ----------------------------------------------------------- deal_from_bytes

words = st.one_of(
    st.integers(0, 2**32 - 1),
    # Near the top: rejected by the sampler for most bounds.
    st.integers(2**32 - 400, 2**32 - 1),
)
buffers = st.one_of(
    st.binary(max_size=300),
    st.lists(words, max_size=80).map(lambda ws: b"".join(struct.pack("<I", w) for w in ws)),
)


def check_deal(hands: tuple[int, int, int, int]) -> None:
    assert len(hands) == 4
    assert all(h.bit_count() == 13 for h in hands)
    assert hands[0] | hands[1] | hands[2] | hands[3] == FULL


@settings(max_examples=300, deadline=None)
@given(buf=buffers)
def test_deal_from_bytes_parity(buf: bytes) -> None:
    got_py = _pycore.deal_from_bytes(buf)
    got_c = speedups.deal_from_bytes(buf)
    assert got_py == got_c
    if got_py is not None:
        check_deal(got_py)
    # 51 swaps need at least 51 words of 4 bytes.
    if len(buf) < 204:
        assert got_py is None


@pytest.mark.parametrize(
    "buf",
    [
        b"",
        bytes(203),  # one byte short of 51 words
        b"\xff" * 400,  # every word rejected for the first bound (52)
    ],
)
def test_deal_from_bytes_short_buffer_is_none(buf: bytes) -> None:
    assert _pycore.deal_from_bytes(buf) is None
    assert speedups.deal_from_bytes(buf) is None


def test_deal_from_bytes_exact_buffer() -> None:
    """51 accepted words are enough; the result is the same in both and is a
    deal; and random buffers deal every seat different cards."""
    buf = bytes(204)
    assert _pycore.deal_from_bytes(buf) == speedups.deal_from_bytes(buf)
    got = speedups.deal_from_bytes(buf)
    assert got is not None
    check_deal(got)
    rng = random.Random(5)
    deals_seen = {speedups.deal_from_bytes(rng.randbytes(256)) for _ in range(20)}
    assert len(deals_seen) == 20


# ------------------------------------------------------------------ pickles

PICKLE_PROBE = """
import pickle, sys
from fourhundred.engine import GameState
s = GameState(first_dealer=1)
s.deal_random(seed=5)
for _ in range(4):
    s.bid(3)
for _ in range(7):
    s.play(s.legal_cards()[-1])
sys.stdout.write(pickle.dumps(s).hex())
"""


def test_a_game_pickled_with_one_core_unpickles_with_the_other() -> None:
    """A game pickled by a pure-Python process (FOURHUNDRED_PURE_PYTHON=1)
    loads in this one, with the C core, and plays on the same."""
    env = dict(os.environ, FOURHUNDRED_PURE_PYTHON="1")
    proc = subprocess.run(
        [sys.executable, "-c", PICKLE_PROBE], capture_output=True, text=True, env=env, check=True
    )
    from_pure = pickle.loads(bytes.fromhex(proc.stdout))
    assert type(from_pure).__mro__[1] is speedups.PlayCore, "loaded with the C core here"
    here = GameState(first_dealer=1)
    here.deal_random(seed=5)
    for _ in range(4):
        here.bid(3)
    for _ in range(7):
        here.play(here.legal_cards()[-1])
    assert from_pure.line() == here.line()
    assert from_pure.hands == here.hands
    assert from_pure.plays == here.plays
    assert pickle.loads(pickle.dumps(here)).line() == here.line()
    while here.phase is Phase.PLAY:
        card = here.legal_cards()[0]
        here.play(card)
        from_pure.play(card)
        assert from_pure.line() == here.line()


HANDS = tuple(0x1FFF << (13 * s) for s in range(4))
EMPTY = (0, 0, 0, 0)
MALFORMED = {
    "a card 52 in the trick": (HANDS, 0, (52,), (), (), EMPTY, -1),
    "a card -1 played": (HANDS, 0, (), (-1, 1, 2, 3), (0,), (1, 0, 0, 0), -1),
    "a trick won by seat 4": (HANDS, 0, (), (0, 1, 2, 3), (4,), (1, 0, 0, 0), -1),
    "14 tricks won": (HANDS, 0, (), (), (), (14, 0, 0, 0), -1),
    "a mask beyond 52 cards": ((HANDS[0] | 1 << 52, *HANDS[1:]), 0, (), (), (), EMPTY, -1),
    "turn 4": (HANDS, 4, (), (), (), EMPTY, -1),
    "thirteen_bidder 5": (HANDS, 0, (), (), (), EMPTY, 5),
    "done cards not 4 per trick": (HANDS, 0, (), (0, 1, 2), (0,), (1, 0, 0, 0), -1),
    "a trick of 4 in progress": (HANDS, 0, (0, 1, 2, 3), (), (), EMPTY, -1),
}


@pytest.mark.parametrize("data", list(MALFORMED.values()), ids=list(MALFORMED))
def test_both_cores_refuse_a_malformed_core_state(data: tuple[object, ...]) -> None:
    """What a crafted pickle could carry: both cores refuse it alike (once the
    pure-Python core took such states as they were)."""
    for core in new_pair():
        before = snapshot(core)
        with pytest.raises(ValueError):
            core._core_restore(data)
        assert snapshot(core) == before
