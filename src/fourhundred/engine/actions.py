"""The closed action space (like OpenSpiel's): every action is a small int.

======  =================================
0..51   play that card (deck order)
53..65  bid 1..13 (``BID_BASE + n``)
66      ask for a new deal (``no_face_card_redeal``)
======  =================================

>>> action_str(bid_action(4)), action_str(parse_card("QD")), action_str(REDEAL)
('4', 'QD', 'redeal')
>>> parse_action("bid 7") == bid_action(7)
True
"""

from __future__ import annotations

from typing import Final

from .cards import CARD_NAMES, DECK_SIZE, parse_card

Action = int

BID_BASE: Final = 52
REDEAL: Final[Action] = 66
NUM_ACTIONS: Final = 67


def bid_action(n: int) -> Action:
    """The action that bids ``n`` tricks (1..13)."""
    if not 1 <= n <= 13:
        raise ValueError(f"{n!r} is not a bid (bids are 1 to 13 tricks)")
    return BID_BASE + n


def is_bid(a: Action) -> bool:
    return BID_BASE < a < REDEAL


def is_card(a: Action) -> bool:
    return 0 <= a < DECK_SIZE


def bid_of(a: Action) -> int:
    """The number of tricks a bid action bids."""
    return a - BID_BASE


def action_str(a: Action) -> str:
    """The text form: a card (``"QD"``), a bid (``"4"``) or ``"redeal"``."""
    if is_card(a):
        return CARD_NAMES[a]
    if is_bid(a):
        return str(a - BID_BASE)
    if a == REDEAL:
        return "redeal"
    raise ValueError(f"{a!r} is not an action")


def parse_action(text: str) -> Action:
    """Parse ``"QD"``, ``"4"``, ``"bid 4"`` or ``"redeal"``."""
    t = text.strip().lower()
    if t == "redeal":
        return REDEAL
    if t.startswith("bid"):
        t = t[3:].strip()
    if t.isdigit():
        n = int(t)
        if 1 <= n <= 13:
            return BID_BASE + n
    try:
        return parse_card(text)
    except ValueError:
        raise ValueError(
            f"{text!r} is not an action (a bid like '4', a card like 'QD', or 'redeal')"
        ) from None
