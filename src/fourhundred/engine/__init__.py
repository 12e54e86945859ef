"""The rules of 400 (arba'meyeh): pure, exact and fast.

No I/O, no asyncio, no clock: everything here is a function of its inputs
(shuffles take a ``random.Random`` or use ``secrets``). The layers above
(bots, server, cli) import from here, never the other way round.
"""

from __future__ import annotations

from .actions import BID_BASE, NUM_ACTIONS, REDEAL, Action, action_str, bid_action, parse_action
from .cards import (
    CARD_NAMES,
    FACE_MASK,
    HEARTS_MASK,
    SUIT_MASKS,
    TIMEOUT_ORDER,
    Card,
    CardMask,
    Rank,
    Suit,
    card,
    card_str,
    cards_of,
    mask_of,
    parse_card,
)
from .errors import (
    FourHundredError,
    GameOver,
    IllegalAction,
    IllegalBid,
    IllegalCard,
    IllegalRedeal,
    InvalidDeal,
    InvalidSettings,
    NotYourTurn,
    RecordError,
    WrongPhase,
)
from .record import GameRecord, HandRecord, record_from_state, replay, replay_result, result_of
from .scoring import bid_value, lowest_bid, required_total, winning_team
from .seats import Seat, team_of
from .settings import (
    PRESET_NOTES,
    PRESETS,
    SETTING_CHOICES,
    SETTING_RANGES,
    SETTING_SWITCHES,
    STANDARD,
    TARGETS_OFFERED,
    TURN_TIMERS,
    Settings,
    preset,
)
from .state import GameState, HandSummary, Phase, deal_masks
from .view import VIEW_FORMAT, TrickView, View, state_from_view, view_for

__all__ = [
    "BID_BASE",
    "CARD_NAMES",
    "FACE_MASK",
    "HEARTS_MASK",
    "NUM_ACTIONS",
    "PRESETS",
    "PRESET_NOTES",
    "REDEAL",
    "SETTING_CHOICES",
    "SETTING_RANGES",
    "SETTING_SWITCHES",
    "STANDARD",
    "SUIT_MASKS",
    "TARGETS_OFFERED",
    "TIMEOUT_ORDER",
    "TURN_TIMERS",
    "VIEW_FORMAT",
    "Action",
    "Card",
    "CardMask",
    "FourHundredError",
    "GameOver",
    "GameRecord",
    "GameState",
    "HandRecord",
    "HandSummary",
    "IllegalAction",
    "IllegalBid",
    "IllegalCard",
    "IllegalRedeal",
    "InvalidDeal",
    "InvalidSettings",
    "NotYourTurn",
    "Phase",
    "Rank",
    "RecordError",
    "Seat",
    "Settings",
    "Suit",
    "TrickView",
    "View",
    "WrongPhase",
    "action_str",
    "bid_action",
    "bid_value",
    "card",
    "card_str",
    "cards_of",
    "deal_masks",
    "lowest_bid",
    "mask_of",
    "parse_action",
    "parse_card",
    "preset",
    "record_from_state",
    "replay",
    "replay_result",
    "required_total",
    "result_of",
    "state_from_view",
    "team_of",
    "view_for",
    "winning_team",
]
