"""Shared fixtures of the bot tests."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from fourhundred.engine import GameState, Phase, Settings, deal_masks, preset

HERE = Path(__file__).parent
REPO = HERE.parent.parent

Advance = Callable[..., GameState]


def _advanced_state(seed: int, actions: int, settings: Settings | None = None) -> GameState:
    rng = random.Random(seed)
    s = GameState(settings or preset("standard"), first_dealer=rng.randrange(4))
    s.deal(deal_masks(rng))
    for _ in range(actions):
        if s.phase is not Phase.BID and s.phase is not Phase.PLAY:
            break
        legal = s.legal_actions()
        if s.phase is Phase.BID:
            legal = legal[:4]  # low bids: the hand is likely to be played
        s.apply(rng.choice(legal))
    return s


@pytest.fixture
def advance() -> Advance:
    """``advance(seed, n, settings=None)``: a fresh deal after ``n`` random
    legal actions (stops early when the hand ends)."""
    return _advanced_state


@pytest.fixture
def protocol_bot() -> Callable[[str], str]:
    """``protocol_bot("late")``: a ``cmd:`` name for a test bot script."""

    def name(kind: str) -> str:
        return f"cmd:{sys.executable} {HERE / 'protocol_bots' / (kind + '_bot.py')}"

    return name


@pytest.fixture
def example_bot() -> str:
    return f"cmd:{sys.executable} {REPO / 'examples' / 'simple_bot.py'}"


@pytest.fixture
def guest_bot() -> Callable[[str], str]:
    """``guest_bot("heuristic")``: a ``cmd:`` name running one of our bots as
    a protocol program (the guest module: quicker to start than the CLI)."""

    def name(bot: str) -> str:
        return f"cmd:{sys.executable} -m fourhundred.bots.guest {bot}"

    return name
