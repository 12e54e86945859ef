"""The bot protocol (docs/bot-protocol.md): JSON lines between a host and a bot.

This module holds what both sides share: the protocol name, reading a
view back from its JSON form (:func:`view_from_dict`), turning a bot's
answer into an engine action and back, and the timeout action of a view.
:mod:`.external` is the host side (a ``cmd:COMMAND`` bot), :mod:`.guest`
the bot side (``fourhundred bot NAME``).

>>> from fourhundred.engine import GameState, view_for
>>> s = GameState(first_dealer=0)
>>> s.deal_random(seed=2)
>>> v = view_for(s, 1)
>>> view_from_dict(v.to_dict()) == v
True
>>> answer_to_action({"type": "action", "id": 1, "bid": 3}, v)
55
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from fourhundred.engine import BID_BASE, CARD_NAMES, TIMEOUT_ORDER, VIEW_FORMAT, Action, View
from fourhundred.engine.cards import card_from_name, is_card_name
from fourhundred.engine.view import TrickView

__all__ = [
    "PROTOCOL",
    "ProtocolError",
    "action_message",
    "answer_to_action",
    "timeout_action_of",
    "view_from_dict",
]

PROTOCOL: Final = "fourhundred-bot/1"
_VIEW_KEYS: Final = frozenset(
    {
        "format",
        "rules",
        "seat",
        "hand_index",
        "dealer",
        "phase",
        "scores",
        "required_total",
        "hand",
        "bids",
        "tricks_won",
        "tricks",
        "turn",
        "legal",
        "values",
        "can_redeal",
        "winner",
    }
)


class ProtocolError(ValueError):
    """A message that does not follow docs/bot-protocol.md (the text says why)."""


def _int(x: object, what: str, lo: int, hi: int) -> int:
    if type(x) is not int or not lo <= x <= hi:
        raise ProtocolError(f"{what} must be an integer {lo}..{hi}, not {x!r}")
    return x


def _opt_int(x: object, what: str, lo: int, hi: int) -> int | None:
    return None if x is None else _int(x, what, lo, hi)


def _card(x: object, what: str) -> int:
    if not is_card_name(x):
        raise ProtocolError(f"{what} must be a card like 'QD', not {x!r}")
    assert isinstance(x, str)
    return card_from_name(x)


def _list(x: object, what: str, n: int | None = None) -> list[Any]:
    if not isinstance(x, list) or (n is not None and len(x) != n):
        size = f" of {n}" if n is not None else ""
        raise ProtocolError(f"{what} must be a list{size}")
    return x


def view_from_dict(d: object) -> View:
    """A :class:`View` from its JSON form (docs/view.md). Raises
    :class:`ProtocolError` naming the first field that is wrong."""
    if not isinstance(d, Mapping):
        raise ProtocolError("the view must be a JSON object")
    unknown = sorted(k for k in d if k not in _VIEW_KEYS)
    if unknown:
        raise ProtocolError(f"unknown view field {unknown[0]!r}")
    missing = sorted(k for k in _VIEW_KEYS - {"hand"} if k not in d)
    if missing:
        raise ProtocolError(f"the view lacks {missing[0]!r}")
    if d["format"] != VIEW_FORMAT:
        raise ProtocolError(f"view format must be {VIEW_FORMAT!r}")
    rules = d["rules"]
    if not isinstance(rules, Mapping):
        raise ProtocolError("rules must be an object")
    phase = d["phase"]
    if phase not in ("bid", "play", "deal", "over"):
        # "deal": between two hands, the hand just ended (a `result`).
        raise ProtocolError(f"phase must be bid, play, deal or over, not {phase!r}")
    hand = d.get("hand")
    hand_t = None if hand is None else tuple(_card(c, "hand card") for c in _list(hand, "hand"))
    tricks = []
    for t in _list(d["tricks"], "tricks"):
        if not isinstance(t, Mapping) or set(t) != {"leader", "cards", "winner"}:
            raise ProtocolError("each trick must be {leader, cards, winner}")
        cards = tuple(_card(c, "trick card") for c in _list(t["cards"], "trick cards"))
        if len(cards) > 4:
            raise ProtocolError("a trick has at most 4 cards")
        tricks.append(
            TrickView(
                _int(t["leader"], "trick leader", 0, 3),
                cards,
                _opt_int(t["winner"], "trick winner", 0, 3),
            )
        )
    legal_raw = d["legal"]
    legal: tuple[int, ...] | None = None
    if legal_raw is not None:
        items = _list(legal_raw, "legal")
        if phase == "bid":
            legal = tuple(_int(b, "legal bid", 1, 13) for b in items)
        else:
            legal = tuple(_card(c, "legal card") for c in items)
    values_raw = d["values"]
    values = (
        None
        if values_raw is None
        else tuple(_opt_int(v, "value", 0, 1000) for v in _list(values_raw, "values"))
    )
    scores = _list(d["scores"], "scores", 4)
    bids = _list(d["bids"], "bids", 4)
    won = _list(d["tricks_won"], "tricks_won", 4)
    return View(
        rules=dict(rules),
        seat=_opt_int(d["seat"], "seat", 0, 3),
        hand_index=_int(d["hand_index"], "hand_index", 0, 10**9),
        dealer=_int(d["dealer"], "dealer", 0, 3),
        phase=phase,
        scores=tuple(_int(x, "score", -(10**9), 10**9) for x in scores),  # type: ignore[arg-type]
        required_total=_int(d["required_total"], "required_total", 0, 52),
        hand=hand_t,
        bids=tuple(_opt_int(b, "bid", 1, 13) for b in bids),  # type: ignore[arg-type]
        tricks_won=tuple(_int(x, "tricks won", 0, 13) for x in won),  # type: ignore[arg-type]
        tricks=tuple(tricks),
        turn=_opt_int(d["turn"], "turn", 0, 3),
        legal=legal,
        values=values,
        can_redeal=bool(d["can_redeal"]),
        winner=_opt_int(d["winner"], "winner", 0, 1),
    )


def action_message(action: Action, act_id: int) -> dict[str, Any]:
    """The bot's answer to ``act`` number ``act_id`` for an engine action."""
    if BID_BASE < action <= BID_BASE + 13:
        return {"type": "action", "id": act_id, "bid": action - BID_BASE}
    if 0 <= action < 52:
        return {"type": "action", "id": act_id, "card": CARD_NAMES[action]}
    raise ValueError(f"action {action!r} cannot be sent over the bot protocol")


def answer_to_action(msg: object, view: View) -> Action:
    """The engine action of a bot's answer to an ``act`` carrying ``view``;
    :class:`ProtocolError` when it is malformed or not in ``view.legal``
    (the id is the caller's to check)."""
    if not isinstance(msg, Mapping) or msg.get("type") != "action":
        raise ProtocolError('expected {"type": "action", ...}')
    legal = view.legal or ()
    if view.phase == "bid":
        if "bid" not in msg or "card" in msg:
            raise ProtocolError("during bidding the answer must carry a bid")
        b = msg["bid"]
        if type(b) is not int:
            raise ProtocolError(f"a bid must be an integer, not {b!r}")
        if b not in legal:
            raise ProtocolError(f"bid {b} is not legal (legal: {list(legal)})")
        return BID_BASE + b
    if "card" not in msg or "bid" in msg:
        raise ProtocolError("during play the answer must carry a card")
    c = msg["card"]
    if not is_card_name(c):
        raise ProtocolError(f"{c!r} is not a card like 'QD'")
    assert isinstance(c, str)
    card = card_from_name(c)
    if card not in legal:
        raise ProtocolError(f"card {c} is not legal (legal: {[CARD_NAMES[x] for x in legal]})")
    return card


def timeout_action_of(view: View) -> Action:
    """What the host plays when the bot faults (docs/rules.md, "When a turn
    timer runs out"): the smallest legal bid, or the lowest-ranked legal card."""
    legal = view.legal or ()
    if not legal:
        raise ValueError("the view has no legal actions")
    if view.phase == "bid":
        return BID_BASE + min(legal)
    allowed = set(legal)
    for c in TIMEOUT_ORDER:
        if c in allowed:
            return c
    raise ValueError("no legal card")  # pragma: no cover - legal is non-empty
