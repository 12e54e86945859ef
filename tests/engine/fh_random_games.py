"""Random legal games for the property tests (``test_properties_*.py``):
Hypothesis strategies over random settings (including every preset) and
seeds, a legal random player biased the way players bid, and a walk
through one game that yields the state before every action."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from hypothesis import strategies as st

from fourhundred.engine import BID_BASE, PRESETS, REDEAL, GameState, Phase, Settings

random_settings = st.builds(
    Settings,
    target=st.one_of(st.integers(11, 200), st.sampled_from([11, 15, 21, 31, 41])),
    min_bid=st.integers(1, 4),
    escalating_min_bid=st.booleans(),
    min_total=st.integers(9, 13),
    escalating_total=st.booleans(),
    scoring=st.sampled_from(["lebanese", "classic"]),
    five_six_face_at_30=st.booleans(),
    big_bids=st.sampled_from(["none", "ten_40", "eleven_50"]),
    thirteen_bid=st.booleans(),
    partner_rule=st.sampled_from(["positive", "non_negative"]),
    five_to_run=st.booleans(),
    no_face_card_redeal=st.booleans(),
)
any_settings = st.one_of(st.sampled_from(list(PRESETS.values())), random_settings)
seeds = st.integers(0, 2**32 - 1)

VIEWERS = (None, 0, 1, 2, 3)
"""The four seats and a spectator (``None``)."""


# ------------------------------------------------------------ random games


def choose(state: GameState, rng: random.Random) -> int:
    """A legal action, biased the way players bid (mostly low, sometimes
    high, now and then 13 or a request for a new deal) so that games end
    and every rule gets exercised."""
    if state.phase is Phase.BID:
        if state.n_bids == 0:
            askers = [s for s in range(4) if state.can_redeal(s)]
            if askers and rng.random() < 0.5:
                return REDEAL  # the caller applies it for rng.choice(askers)
        bids = state.legal_bids()
        r = rng.random()
        if 13 in bids and r < 0.03:
            n = 13
        elif r < 0.6:
            n = bids[0]
        elif r < 0.9:
            n = min(bids[0] + rng.randrange(4), bids[-1])
        else:
            n = rng.choice(bids)
        return BID_BASE + n
    return rng.choice(state.legal_actions())


def walk(
    settings_: Settings,
    seed: int,
    max_hands: int,
    on_state: Callable[[GameState], None] | None = None,
) -> Iterator[GameState]:
    """Play a random legal game; yield the state before every action (and
    once at the end). ``on_state`` may inspect each state first."""
    rng = random.Random(seed)
    state = GameState(settings_, first_dealer=rng.randrange(4), rng=rng)
    while True:
        if state.phase is Phase.DEAL:
            if state.hand_index >= max_hands:
                yield state
                return
            state.deal_random()
        if on_state is not None:
            on_state(state)
        yield state
        if state.phase is Phase.OVER:
            return
        action = choose(state, rng)
        if action == REDEAL:
            state.apply(REDEAL, rng.choice([s for s in range(4) if state.can_redeal(s)]))
        else:
            state.apply(action)


def state_at(settings_: Settings, seed: int, max_hands: int, stop: int | None = None) -> GameState:
    """The state of a random game after ``stop`` actions (or at its end)."""
    last: GameState | None = None
    for i, state in enumerate(walk(settings_, seed, max_hands)):
        last = state
        if i == stop:
            break
    assert last is not None
    return last
