"""A fuzzer for a live table: Hypothesis strategies of hostile frames and a
harness that fires them at a real server and judges every answer.

The harness (:class:`FuzzRig`) keeps a Private table of four guests in
play, plus a spectator, an outsider (a user attached to no table), a silent
*witness* spectator that records every event, and a *control* table whose
players never misbehave. Each batch of frames is judged like this:

1. **Before**: every seat's user opens a fresh socket and joins (its
   ``snapshot``), and a fresh observer joins as a spectator. These sockets
   are the ones the batch fires from.
2. **Fire**: each frame is sent on its sender's socket and its reply is
   awaited (``ack``, ``error``, ``pong``, or a close). An ``error`` must carry
   a code that ``docs/protocol.md`` documents, a message, and the frame's id
   (null when the frame had none the server could read); a close must be a
   documented close code after a ``closing`` frame (or the transport's
   close for frames the protocol layer never sees). Frames whose answer is
   known exactly (out of turn, another seat, stale, a replayed id...) must
   get exactly that.
3. **After**: fresh sockets again. If no frame of the batch was accepted as
   a game command, every seat's and the observer's snapshot must equal the
   one from before (version, view, room, score sheet, turn deadline), and
   the witness must have seen no event. If one was accepted, the witness's
   events must start at its ack's version. No sleep lets events arrive:
   the fresh joins are answered only after every earlier frame was judged,
   and then a ping on the witness's socket is answered only after every
   event queued for it.

Between batches the harness makes a legal move now and then, so frames hit
every phase of the game, and checks that the server is healthy and that the
control table still takes moves.

Every loop is bounded in count and time; everything is on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
import msgspec
from fh_wire import (
    BAD_KINDS,
    CARD_NAMES,
    CLOSE_CODES,
    ERROR_CODES,
    Account,
    Outcome,
    Wire,
    comparable,
)
from hypothesis import strategies as st

from fourhundred.bots import make_bot
from fourhundred.bots.protocol import view_from_dict
from fourhundred.engine import BID_BASE, parse_card

__all__ = [
    "FAMILIES",
    "KNOWN_BUG_FAMILIES",
    "SUITE_FAMILIES",
    "Ctx",
    "FuzzRig",
    "RigLoop",
    "Shot",
    "Spec",
    "batches",
    "readable_id",
    "spec_strategy",
]

T = TypeVar("T")

MAX_FRAME = 64 * 1024
TRANSPORT_MAX = 1 << 20
"""uvicorn's ``ws_max_size`` in ``fourhundred serve``: bigger frames never
reach the application."""
MESSAGE_TYPES = (
    "join",
    "sit",
    "leave",
    "ready",
    "configure",
    "move",
    "add_bot",
    "remove",
    "bid",
    "play",
    "redeal",
    "reclaim",
    "chat",
    "mute",
    "ping",
)
FIELD_NAMES = (
    "table",
    "invite",
    "last_version",
    "seat",
    "ready",
    "preset",
    "settings",
    "timer",
    "from",
    "to",
    "bot",
    "bid",
    "card",
    "version",
    "text",
    "user",
    "muted",
)
SENDERS = ("seat0", "seat1", "seat2", "seat3", "mover", "nonmover", "spectator", "outsider")
PER_WIRE_FRAMES = 34
"""Frames a socket fires before the harness swaps it for a fresh one: the
server allows bursts of 40, and the harness's own join counts too."""
MOVE_EVERY_S = 30.0
"""A legal move at least this often: the table's 90 s turn timer never runs
out, so every event the witness sees comes from a frame."""
PER_WIRE_BAD = 18
"""Malformed frames a socket gets refused before it is swapped (20 close it)."""


DEEP = 256
"""Nesting beyond which a parser may give up before it reaches the id."""


def nesting(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest (strings skipped).

    >>> nesting('{"a": [[1], "[[["]}')
    3
    """
    depth = top = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            top = max(top, depth)
        elif ch in "]}":
            depth -= 1
    return top


def readable_id(data: str | bytes, binary: bool) -> Any:
    """The command id the server can read from a frame it could not decode
    (docs/protocol.md: ``error.id`` is "the command's, or null when the frame
    had no readable id").

    >>> readable_id('{"type": "fly", "id": 7}', False), readable_id('{"id": 2.0}', False)
    (7, None)
    >>> readable_id(b'{"id": "a"}', True)  # binary frames are not read
    """
    if binary:
        return None
    try:
        obj = msgspec.json.decode(data)
    except (msgspec.DecodeError, RecursionError, UnicodeDecodeError):
        return None
    if not isinstance(obj, dict):
        return None
    value = obj.get("id")
    if type(value) is int and 0 <= value <= 2**53:
        return value
    if isinstance(value, str) and 0 < len(value) <= 64:
        return value
    return None


def ids_allowed(data: str | bytes, binary: bool) -> tuple[Any, ...]:
    """The ids an ``error`` for this frame may carry: the readable one; or
    also null for a frame nested deeper than :data:`DEEP` (a parser may
    stop before it has read the id).

    >>> ids_allowed('{"id": 3, "x": ' + "[" * 300 + "]" * 300 + "}", False)
    (3, None)
    """
    want = readable_id(data, binary)
    if want is None or binary:
        return (want,)
    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
    if text.count("[") + text.count("{") > DEEP and nesting(text) > DEEP:
        return (want, None)
    return (want,)


# ------------------------------------------------------------------ context


@dataclass
class Ctx:
    """What a shot may use to aim: the table as the last snapshots showed it."""

    table: str
    invite: str
    version: int
    phase: str | None
    turn: int | None
    host_seat: int | None
    views: list[dict[str, Any] | None]
    wires: dict[str, Wire]
    rng: random.Random

    def hand(self, seat: int) -> list[str]:
        view = self.views[seat]
        return list(view["hand"]) if view else []

    @property
    def legal(self) -> list[Any]:
        if self.turn is None:
            return []
        view = self.views[self.turn]
        return list(view["legal"] or []) if view else []

    def seat_of(self, sender: str, offset: int = 1) -> str:
        """``mover``/``nonmover`` as a concrete ``seatN``."""
        turn = 0 if self.turn is None else self.turn
        if sender == "mover":
            return f"seat{turn}"
        if sender == "nonmover":
            return f"seat{(turn + offset) % 4}"
        return sender


@dataclass
class Shot:
    """One resolved fuzz action: who sends what, and what must come back.

    ``expect``: the exact error codes allowed (None: any documented code, or
    an ack/pong). ``close``: the close codes the socket must end with (None:
    it must stay open). ``frames``: for floods, the frames to fire at once.
    ``fresh``: fire from a brand-new socket (the count of refusals matters).
    """

    family: str
    sender: str
    data: str | bytes = ""
    binary: bool = False
    expect: frozenset[str] | None = None
    close: frozenset[int] | None = None
    frames: list[str] = field(default_factory=list)
    fresh: bool = False
    close_after_error: bool = False
    """An ``error`` reply must be followed by the close (a frame too large)."""


@dataclass
class Spec:
    """A drawn fuzz action, aimed at the live table when it is fired."""

    family: str
    aim: Callable[[Ctx], Shot]

    def __repr__(self) -> str:  # what Hypothesis prints for a failing batch
        return f"Spec({self.family})"


# --------------------------------------------------------------- strategies

_json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    _json_scalars,
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
    max_leaves=8,
)
ids = st.one_of(
    st.integers(0, 2**53),
    st.integers(2**53 + 1, 2**90),
    st.integers(-(2**63), -1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.text(max_size=70),
    st.none(),
    st.lists(st.integers(0, 9), max_size=2),
)
senders = st.sampled_from(SENDERS)


def _static(family: str, sender: str, data: str | bytes, binary: bool = False) -> Spec:
    def aim(ctx: Ctx) -> Shot:
        return Shot(family, ctx.seat_of(sender), data, binary)

    return Spec(family, aim)


@st.composite
def junk_text(draw: st.DrawFn) -> Spec:
    """Text that is rarely JSON: any Unicode, or valid JSON cut short."""
    text = draw(
        st.one_of(
            st.text(max_size=200),
            st.builds(
                lambda s, cut: s[: max(0, len(s) - cut)],
                st.just('{"type": "bid", "id": 5, "bid": 4}'),
                st.integers(1, 20),
            ),
            st.sampled_from(["", " ", "{", "}", "null", "[]", "{}", '{"type":', "\ufeff{}"]),
        )
    )
    return _static("junk_text", draw(senders), text)


@st.composite
def junk_binary(draw: st.DrawFn) -> Spec:
    data = draw(st.binary(max_size=200))
    sender = draw(senders)

    def aim(ctx: Ctx) -> Shot:
        return Shot("binary", ctx.seat_of(sender), data, True, expect=frozenset({"bad_json"}))

    return Spec("binary", aim)


@st.composite
def not_objects(draw: st.DrawFn) -> Spec:
    """Valid JSON that is not an object."""
    value = draw(json_values.filter(lambda v: not isinstance(v, dict)))
    sender = draw(senders)

    def aim(ctx: Ctx) -> Shot:
        return Shot(
            "not_object",
            ctx.seat_of(sender),
            json.dumps(value),
            expect=frozenset({"bad_message"}),
        )

    return Spec("not_object", aim)


@st.composite
def shapes(draw: st.DrawFn) -> Spec:
    """Objects with known or unknown types, odd ids, and fields of every
    name with values of every type (missing, extra, wrong)."""
    sender = draw(senders)
    seated = sender.startswith("seat") or sender in ("mover", "nonmover")
    kinds = [t for t in MESSAGE_TYPES if not (seated and t == "leave")]
    mtype = draw(
        st.one_of(
            st.sampled_from(kinds),
            st.text(max_size=12).filter(lambda t: seated is False or t != "leave"),
            json_values,
        )
    )
    msg: dict[str, Any] = {}
    if draw(st.booleans()) or mtype is not None:
        msg["type"] = mtype
    if draw(st.integers(0, 9)) > 0:
        msg["id"] = draw(ids)
    keys = draw(st.lists(st.sampled_from(FIELD_NAMES), max_size=4, unique=True))
    for k in keys:
        msg[k] = draw(json_values)
    for k in draw(st.lists(st.text(max_size=10), max_size=2)):
        msg[k] = draw(json_values)
    if seated and msg.get("type") == "leave":
        msg["type"] = "reclaim"
    # A seated player's `leave` is accepted (a bot takes the seat): legal,
    # but it would end the fuzzing of this table; `join` of another table
    # would detach the socket, which the harness handles.
    return _static("shape", sender, json.dumps(msg))


@st.composite
def huge_ids(draw: st.DrawFn) -> Spec:
    cid = draw(
        st.one_of(
            st.integers(2**53 + 1, 10**40),
            st.integers(-(10**40), -1),
            st.text(min_size=65, max_size=300),
            st.just(""),
        )
    )
    sender = draw(senders)
    mtype = draw(st.sampled_from(["ping", "bid", "play", "join"]))

    def aim(ctx: Ctx) -> Shot:
        body: dict[str, Any] = {"type": mtype, "id": cid}
        if mtype == "bid":
            body["bid"] = 4
        elif mtype == "play":
            body["card"] = "AS"
        elif mtype == "join":
            body["table"] = ctx.table
        return Shot(
            "huge_id", ctx.seat_of(sender), json.dumps(body), expect=frozenset({"bad_message"})
        )

    return Spec("huge_id", aim)


def _move_body(ctx: Ctx, seat: int, kind: str, pick: int) -> dict[str, Any]:
    """A bid or card that would make sense for ``seat`` (from its own hand
    or from the legal bids)."""
    if kind == "bid":
        legal = [x for x in ctx.legal if isinstance(x, int)] or [4]
        return {"type": "bid", "bid": legal[pick % len(legal)]}
    hand = ctx.hand(seat) or list(CARD_NAMES)
    return {"type": "play", "card": hand[pick % len(hand)]}


def _is_card(text: str) -> bool:
    """Whether the engine reads ``text`` as a card (it also takes "10H",
    "qd", " AS" and the like)."""
    try:
        parse_card(text)
    except ValueError:
        return False
    return True


def _phase_kind(ctx: Ctx) -> str:
    return "bid" if ctx.phase == "bid" else "play"


@st.composite
def out_of_turn(draw: st.DrawFn) -> Spec:
    offset = draw(st.integers(1, 3))
    pick = draw(st.integers(0, 51))
    with_seat = draw(st.booleans())

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of("nonmover", offset)
        seat = int(sender[-1])
        body = _move_body(ctx, seat, _phase_kind(ctx), pick)
        if with_seat:
            body["seat"] = seat  # naming your own seat does not help
        expect = "not_your_turn" if ctx.phase in ("bid", "play") else "wrong_phase"
        body["id"] = _id(ctx, sender)
        return Shot("out_of_turn", sender, json.dumps(body), expect=frozenset({expect}))

    return Spec("out_of_turn", aim)


def _id(ctx: Ctx, sender: str) -> str:
    """A fresh id for a frame that must be judged on its content."""
    wire = ctx.wires.get(sender)
    return wire.new_id() if wire is not None else "x" + str(ctx.rng.getrandbits(64))


@st.composite
def other_seat(draw: st.DrawFn) -> Spec:
    """The mover names another seat (or a seat that does not exist)."""
    kind = draw(st.sampled_from(["bid", "play", "redeal"]))
    target = draw(st.one_of(st.integers(1, 3), st.integers(4, 10**30), st.integers(-(10**30), -1)))
    pick = draw(st.integers(0, 51))

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of("mover")
        seat = int(sender[-1])
        named = (seat + target) % 4 if 1 <= target <= 3 else target
        body = {"type": "redeal"} if kind == "redeal" else _move_body(ctx, seat, kind, pick)
        body.update(id=_id(ctx, sender), seat=named)
        return Shot("other_seat", sender, json.dumps(body), expect=frozenset({"not_your_seat"}))

    return Spec("other_seat", aim)


@st.composite
def not_a_player(draw: st.DrawFn) -> Spec:
    """A spectator's or an unattached user's move."""
    who = draw(st.sampled_from(["spectator", "outsider"]))
    kind = draw(st.sampled_from(["bid", "play", "redeal", "ready", "leave", "reclaim"]))
    pick = draw(st.integers(0, 51))

    def aim(ctx: Ctx) -> Shot:
        if kind in ("bid", "play"):
            body = _move_body(ctx, ctx.turn or 0, kind, pick)
        elif kind == "ready":
            body = {"type": "ready", "ready": True}
        else:
            body = {"type": kind}
        body["id"] = _id(ctx, who)
        if who == "outsider":
            expect = {"not_attached"}
        elif kind == "ready":
            expect = {"not_allowed"}  # no ready once the game started
        else:
            expect = {"not_seated"}
        return Shot("not_a_player", who, json.dumps(body), expect=frozenset(expect))

    return Spec("not_a_player", aim)


@st.composite
def stale(draw: st.DrawFn) -> Spec:
    """The mover's legal move, on a version that is not the table's."""
    delta = draw(st.one_of(st.integers(-5, -1), st.integers(1, 5), st.integers(10**6, 10**30)))
    pick = draw(st.integers(0, 51))

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of("mover")
        version = max(0, ctx.version + delta)
        if version == ctx.version:
            version += 1
        legal = ctx.legal or [4]
        move = legal[pick % len(legal)]
        body = (
            {"type": "bid", "bid": move}
            if isinstance(move, int)
            else {"type": "play", "card": move}
        )
        body.update(id=_id(ctx, sender), version=version)
        expect = "stale" if ctx.phase in ("bid", "play") else "wrong_phase"
        return Shot("stale", sender, json.dumps(body), expect=frozenset({expect}))

    return Spec("stale", aim)


@st.composite
def illegal_moves(draw: st.DrawFn) -> Spec:
    """The mover's bid or card that the rules refuse now."""
    choice = draw(
        st.sampled_from(
            [
                "bad_bid",
                "card_in_bidding",
                "bid_in_play",
                "bad_card",
                "not_held",
                "not_following",
                "redeal",
            ]
        )
    )
    bad_bid = draw(
        st.one_of(st.integers(-(10**30), 0), st.integers(14, 10**30), st.integers(1, 13))
    )
    bad_card = draw(
        st.one_of(
            st.text(max_size=10).filter(lambda s: not _is_card(s)),
            st.sampled_from(["", "1C", "11H", "AHH", "\uff21H", "A\u0000", "T", "ZZ", "A"]),
        )
    )
    pick = draw(st.integers(0, 51))

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of("mover")
        seat = int(sender[-1])
        cid = _id(ctx, sender)
        over = ctx.phase not in ("bid", "play")
        if choice == "bad_card":
            body: dict[str, Any] = {"type": "play", "card": bad_card}
            expect = {"illegal"} if not over else {"illegal", "wrong_phase"}
        elif choice == "redeal":
            body = {"type": "redeal"}
            expect = {"illegal", "wrong_phase", "not_your_turn"}
        elif ctx.phase == "bid" and choice in ("bad_bid", "bid_in_play"):
            legal = [x for x in ctx.legal if isinstance(x, int)]
            n = bad_bid
            if 1 <= n <= 13 and n in legal:
                n = 14
            body = {"type": "bid", "bid": n}
            expect = {"illegal"}
        elif ctx.phase == "bid":
            body = _move_body(ctx, seat, "play", pick)
            expect = {"wrong_phase"}
        elif ctx.phase == "play" and choice in ("bad_bid", "bid_in_play"):
            body = {"type": "bid", "bid": 1 + pick % 13}
            expect = {"wrong_phase"}
        elif ctx.phase == "play":
            hand = ctx.hand(seat)
            legal = set(ctx.legal)
            if choice == "not_held":
                pool = [c for c in CARD_NAMES if c not in hand]
            else:
                pool = [c for c in hand if c not in legal]
            if not pool:
                pool = [c for c in CARD_NAMES if c not in hand]
            body = {"type": "play", "card": pool[pick % len(pool)]}
            expect = {"illegal"}
        else:
            body = {"type": "bid", "bid": 4}
            expect = {"wrong_phase"}
        body["id"] = cid
        return Shot("illegal", sender, json.dumps(body), expect=frozenset(expect))

    return Spec("illegal", aim)


@st.composite
def room_commands(draw: st.DrawFn) -> Spec:
    """Waiting-room commands during the game, by the host and by others."""
    kind = draw(
        st.sampled_from(["configure", "move", "add_bot", "remove", "sit", "ready", "reclaim"])
    )
    by_host = draw(st.booleans())
    seat = draw(st.integers(0, 3))
    other = draw(st.integers(0, 3))

    def aim(ctx: Ctx) -> Shot:
        host = ctx.host_seat if ctx.host_seat is not None else 0
        sender = f"seat{host}" if by_host else f"seat{(host + 1 + seat % 3) % 4}"
        body: dict[str, Any] = {"type": kind, "id": _id(ctx, sender)}
        if kind == "configure":
            body["settings"] = {"target": 51}
        elif kind == "move":
            body.update({"from": seat, "to": other})
        elif kind in ("add_bot", "remove", "sit"):
            body["seat"] = seat
        elif kind == "ready":
            body["ready"] = bool(other % 2)
        if kind in ("configure", "move", "add_bot", "remove"):
            expect = {"not_allowed"} if by_host else {"not_host"}
        else:
            expect = {"not_allowed"}
        return Shot("room_cmd", sender, json.dumps(body), expect=frozenset(expect))

    return Spec("room_cmd", aim)


@st.composite
def replayed(draw: st.DrawFn) -> Spec:
    """An id this socket already used (one the server accepted or answered
    with ``pong``), on the mover's *legal* move: it must be refused as a
    duplicate and never applied."""
    who = draw(st.sampled_from(["mover", "nonmover", "spectator"]))
    pick = draw(st.integers(0, 10**6))

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of(who)
        wire = ctx.wires.get(sender)
        used = wire.used_ids if wire is not None else []
        cid = used[pick % len(used)] if used else "never-used"
        legal = ctx.legal or [4]
        move = legal[pick % len(legal)]
        body = (
            {"type": "bid", "bid": move}
            if isinstance(move, int)
            else {"type": "play", "card": move}
        )
        body["id"] = cid
        return Shot(
            "replayed",
            sender,
            json.dumps(body),
            expect=frozenset({"duplicate"}) if used else None,
        )

    return Spec("replayed", aim)


@st.composite
def bad_joins(draw: st.DrawFn) -> Spec:
    who = draw(senders)
    how = draw(st.sampled_from(["table", "invite", "both", "neither", "private_id"]))
    value = draw(st.text(max_size=128).filter(lambda s: "\x00" not in s))

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of(who)
        body: dict[str, Any] = {"type": "join", "id": _id(ctx, sender)}
        if how == "table":
            body["table"] = value
            expect = {"not_found"}
        elif how == "invite":
            body["invite"] = value
            expect = {"not_found"}
        elif how == "both":
            body.update(table=ctx.table, invite=ctx.invite)
            expect = {"bad_message"}
        elif how == "neither":
            expect = {"bad_message"}
        else:
            # The Private table's id without its invite: only its own
            # players may join it that way; anyone else is told "not found".
            body["table"] = ctx.table
            if sender.startswith("seat"):
                return Shot("bad_join", sender, json.dumps(body))
            expect = {"not_found"}
        return Shot("bad_join", sender, json.dumps(body), expect=frozenset(expect))

    return Spec("bad_join", aim)


_CHAT_HEAD = '{"type": "chat", "id": 1, "text": "'


@st.composite
def oversized(draw: st.DrawFn) -> Spec:
    """Frames just over 64 KiB (text or binary), just under and just over
    1 MiB, and exactly 64 KiB (which is allowed)."""
    who = draw(senders)
    size = draw(st.sampled_from(["just_over", "under_1mib", "over_1mib", "exactly", "binary"]))
    extra = draw(st.integers(1, 3000))

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of(who)
        head = _CHAT_HEAD
        if size == "exactly":
            data = head + "x" * (MAX_FRAME - len(head) - 2) + '"}'
            assert len(data.encode()) == MAX_FRAME
            # Not too large: an ordinary refusal (the chat text is too long).
            return Shot("oversize", sender, data, expect=frozenset({"bad_message"}))
        if size == "binary":
            return Shot(
                "oversize",
                sender,
                b"x" * (MAX_FRAME + extra),
                binary=True,
                expect=frozenset({"too_large"}),
                close=frozenset({1009}),
                close_after_error=True,
            )
        if size == "just_over":
            data = head + "x" * (MAX_FRAME + extra) + '"}'
        elif size == "under_1mib":
            data = head + "x" * (TRANSPORT_MAX - len(head) - 2 - extra) + '"}'
        else:
            # Over uvicorn's limit: the transport closes with 1009 itself.
            data = head + "x" * (TRANSPORT_MAX + extra) + '"}'
        return Shot(
            "oversize",
            sender,
            data,
            expect=frozenset({"too_large"}),
            close=frozenset({1009}),
            close_after_error=True,
        )

    return Spec("oversize", aim)


@st.composite
def oversized_multibyte(draw: st.DrawFn) -> Spec:
    """Over 64 KiB of UTF-8 in fewer than 64 Ki characters (3-byte euro
    signs, 4-byte emoji): the limit is in bytes."""
    who = draw(senders)
    char = draw(st.sampled_from(["\u20ac", "\U0001f0a1", "\u0628"]))
    extra = draw(st.integers(1, 3000))

    def aim(ctx: Ctx) -> Shot:
        width = len(char.encode())
        n = (MAX_FRAME + extra) // width + 1
        data = _CHAT_HEAD + char * n + '"}'
        assert len(data) < MAX_FRAME < len(data.encode())
        return Shot(
            "oversize_multibyte",
            ctx.seat_of(who),
            data,
            expect=frozenset({"too_large"}),
            close=frozenset({1009}),
            close_after_error=True,
        )

    return Spec("oversize_multibyte", aim)


@st.composite
def floods(draw: st.DrawFn) -> Spec:
    """Many pings at once: over the burst they are refused, and after 100
    refusals the socket is closed for abuse."""
    n = draw(st.integers(45, 180))
    who = draw(senders)

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of(who)
        frames = [json.dumps({"type": "ping", "id": i}) for i in range(n)]
        return Shot("flood", sender, frames=frames, fresh=True, close=frozenset({1008}))

    return Spec("flood", aim)


@st.composite
def junk_bursts(draw: st.DrawFn) -> Spec:
    """Twenty and more malformed frames: the 20th closes the socket."""
    n = draw(st.integers(20, 30))
    who = draw(senders)
    junk = draw(
        st.lists(
            st.sampled_from(["{nope", "[1]", '{"type": "fly", "id": 1}', '{"type": "bid"}']),
            min_size=n,
            max_size=n,
        )
    )

    def aim(ctx: Ctx) -> Shot:
        return Shot(
            "junk_burst", ctx.seat_of(who), frames=junk, fresh=True, close=frozenset({1008})
        )

    return Spec("junk_burst", aim)


@st.composite
def bad_utf8(draw: st.DrawFn) -> Spec:
    """Invalid UTF-8 in a text frame. RFC 6455 (8.1) makes the receiver
    fail the connection with 1007 before the application sees the frame
    (protocol.md lists 1007)."""
    raw = draw(
        st.sampled_from([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80abc"])
    )
    prefix = draw(st.sampled_from([b"", b'{"type": "ping", "id": 1, "x": "']))
    who = draw(senders)

    def aim(ctx: Ctx) -> Shot:
        return Shot(
            "bad_utf8",
            ctx.seat_of(who),
            prefix + raw + (b'"}' if prefix else b""),
            expect=frozenset({"bad_json"}),
            close=frozenset({1007}),
        )

    return Spec("bad_utf8", aim)


@st.composite
def deep_nesting(draw: st.DrawFn) -> Spec:
    """JSON nested deeper than any parser recurses (under 64 KiB)."""
    depth = draw(st.integers(1_000, 30_000))
    where = draw(st.sampled_from(["settings", "top", "field", "id"]))
    who = draw(senders)

    def aim(ctx: Ctx) -> Shot:
        nest = "[" * depth + "]" * depth
        if where == "settings":
            data = '{"type": "configure", "id": 1, "settings": {"target": ' + nest + "}}"
        elif where == "top":
            data = nest
        elif where == "field":
            data = '{"type": "chat", "id": 1, "text": "x", "extra": ' + nest + "}"
        else:
            data = '{"type": "ping", "id": ' + nest + "}"
        return Shot(
            "deep_nesting", ctx.seat_of(who), data, expect=frozenset({"bad_json", "bad_message"})
        )

    return Spec("deep_nesting", aim)


FAMILIES: dict[str, st.SearchStrategy[Spec]] = {
    "junk_text": junk_text(),
    "binary": junk_binary(),
    "not_object": not_objects(),
    "shape": shapes(),
    "huge_id": huge_ids(),
    "out_of_turn": out_of_turn(),
    "other_seat": other_seat(),
    "not_a_player": not_a_player(),
    "stale": stale(),
    "illegal": illegal_moves(),
    "room_cmd": room_commands(),
    "replayed": replayed(),
    "bad_join": bad_joins(),
    "oversize": oversized(),
    "oversize_multibyte": oversized_multibyte(),
    "flood": floods(),
    "junk_burst": junk_bursts(),
    "bad_utf8": bad_utf8(),
    "deep_nesting": deep_nesting(),
}
"""Every family of hostile frames, by name."""

KNOWN_BUG_FAMILIES: tuple[str, ...] = ()
"""Families that find server bugs still open (each with a failing test in
tests/security/test_server_bugs_found.py). ``bench/fuzz.py`` fires them and
reports what they find; the suite's fuzz test leaves them out until the bugs
are fixed, so that it keeps guarding everything else. (``deep_nesting`` and
``oversize_multibyte`` were here until the server fixed what they found; see
tests/fuzz/test_fuzz_regressions.py.)"""

SUITE_FAMILIES = tuple(f for f in FAMILIES if f not in KNOWN_BUG_FAMILIES)

_HEAVY = frozenset(
    {"oversize", "oversize_multibyte", "flood", "junk_burst", "bad_utf8", "deep_nesting"}
)


def spec_strategy(families: tuple[str, ...] = SUITE_FAMILIES) -> st.SearchStrategy[Spec]:
    """One fuzz action from ``families``, the family picked evenly (so that
    Hypothesis's bias towards the first choice does not starve the others),
    the costly ones (that close their socket, send a megabyte or a hundred
    frames) ten times less often."""
    weighted = [f for f in families for _ in range(1 if f in _HEAVY else 10)]
    return st.sampled_from(weighted).flatmap(lambda name: FAMILIES[name])


def batches(
    families: tuple[str, ...] = SUITE_FAMILIES, *, min_size: int = 1, max_size: int = 40
) -> st.SearchStrategy[list[Spec]]:
    """A batch of fuzz actions, judged together (see :meth:`FuzzRig.run_batch`)."""
    return st.lists(spec_strategy(families), min_size=min_size, max_size=max_size)


# ------------------------------------------------------------------ the rig


@dataclass
class Violation:
    family: str
    what: str
    frame: str

    def __str__(self) -> str:
        return f"[{self.family}] {self.what} -- frame: {self.frame[:200]!r}"


@dataclass
class Snap:
    """Fresh snapshots of the whole table: one per seat, one for a spectator."""

    seats: list[dict[str, Any]]
    observer: dict[str, Any]

    @property
    def version(self) -> int:
        return int(self.observer["version"])


def _closed_for_abuse(
    wire: Wire, errors: list[dict[str, Any]], closing: list[dict[str, Any]], refusals: int
) -> bool:
    """The socket closed 1008 after exactly ``refusals`` errors and a
    ``closing`` frame for abuse."""
    return (
        len(errors) == refusals
        and bool(closing)
        and closing[-1].get("code") == "abuse"
        and wire.close_code == 1008
    )


class FuzzRig:
    """A live Private table under fire, and a control table beside it."""

    def __init__(self, base_url: str, seed: int = 0, *, target: int = 11) -> None:
        self.base_url = base_url
        self.rng = random.Random(seed)
        self.target = target
        self.seats: list[Account] = []
        self.spectator: Account | None = None
        self.outsider: Account | None = None
        self.observer: Account | None = None
        self.witness_account: Account | None = None
        self.control: list[Account] = []
        self.control_wires: list[Wire] = []
        self.control_table = ""
        self.table = ""
        self.invite = ""
        self.wires: dict[str, Wire] = {}
        self.witness: Wire | None = None
        self.snap: Snap | None = None
        self.outcomes: Counter[str] = Counter()
        self.families: Counter[str] = Counter()
        self.family_frames: Counter[str] = Counter()
        self.family_seconds: Counter[str] = Counter()
        self.timer_batches = 0
        """Batches whose check was void because the turn timer ran out."""
        self.last_move = time.monotonic()
        self.frames_sent = 0
        self.accepted = 0
        self.violations: list[Violation] = []
        self.tables_played = 0
        self.moves = 0
        self._bot = make_bot("heuristic", seed=seed)
        self._sent: dict[str, int] = {}
        self._bad: dict[str, int] = {}

    # ------------------------------------------------------------- set-up

    async def start(self) -> None:
        tag = f"{self.rng.getrandbits(24):06x}"
        self.seats = [await Account(self.base_url, f"F{tag}s{i}").guest() for i in range(4)]
        self.spectator = await Account(self.base_url, f"F{tag}spec").guest()
        self.outsider = await Account(self.base_url, f"F{tag}out").guest()
        self.observer = await Account(self.base_url, f"F{tag}obs").guest()
        self.witness_account = await Account(self.base_url, f"F{tag}wit").guest()
        self.control = [await Account(self.base_url, f"F{tag}c{i}").guest() for i in range(4)]
        self.control_table, self.control_wires = await self._seat_table(self.control, "casual")
        await self.new_table()

    async def _seat_table(self, people: list[Account], kind: str) -> tuple[str, list[Wire]]:
        made = await people[0].create_table(
            kind=kind, preset="standard", settings={"target": self.target}, timer=90
        )
        table = made["table"]["id"]
        invite = made.get("invite")
        wires = []
        for i, person in enumerate(people):
            w = await person.wire()
            if invite is not None:
                await w.join(invite=invite)
            else:
                await w.join(table=table)
            if i > 0:
                reply = await w.request("sit", seat=i)
                assert reply["type"] == "ack", reply
            wires.append(w)
        for w in wires:
            reply = await w.request("ready", ready=True)
            assert reply["type"] == "ack", reply
        if invite is not None:
            self.invite = invite
        return table, wires

    async def new_table(self) -> None:
        """A fresh Private table of the four fuzzed guests, in play."""
        for w in self.wires.values():
            await w.close()
        self.wires.clear()
        if self.witness is not None:
            await self.witness.close()
        self.table, wires = await self._seat_table(self.seats, "private")
        for w in wires:
            await w.close()
        assert self.witness_account is not None
        self.witness = await self.witness_account.wire()
        await self.witness.join(invite=self.invite)
        self.tables_played += 1
        self.last_move = time.monotonic()
        self.snap = await self.snapshot()

    async def stop(self) -> None:
        for w in [*self.wires.values(), *self.control_wires]:
            await w.close()
        if self.witness is not None:
            await self.witness.close()
        for a in [*self.seats, *self.control]:
            await a.aclose()
        for acct in (self.spectator, self.outsider, self.observer, self.witness_account):
            if acct is not None:
                await acct.aclose()

    # ---------------------------------------------------------- snapshots

    async def _fresh(self, name: str) -> Wire:
        """A new socket for ``name`` (replacing its old one), attached as
        it should be: seats and the spectator join the table."""
        old = self.wires.pop(name, None)
        if old is not None:
            await old.close()
        acct = self._account(name)
        wire = await acct.wire()
        if name != "outsider":
            await wire.join(invite=self.invite)
        self.wires[name] = wire
        self._sent[name] = 0
        self._bad[name] = 0
        return wire

    def _account(self, name: str) -> Account:
        if name.startswith("seat"):
            return self.seats[int(name[-1])]
        acct = {"spectator": self.spectator, "outsider": self.outsider}[name]
        assert acct is not None
        return acct

    async def snapshot(self) -> Snap:
        """Fresh sockets for every seat, the spectator and the outsider (the
        next batch fires from them) and a fresh observer; their snapshots.
        The sockets open side by side: this is most of the harness's time."""
        names = [f"seat{i}" for i in range(4)] + ["spectator", "outsider"]
        assert self.observer is not None
        observer = self.observer

        async def observe() -> dict[str, Any]:
            obs = await observer.wire()
            try:
                return await obs.join(invite=self.invite)
            finally:
                await obs.close()

        *wires, snap = await asyncio.gather(*(self._fresh(n) for n in names), observe())
        assert isinstance(snap, dict)
        return Snap([self._sync_of(w) for w in wires[:4]], snap)

    @staticmethod
    def _sync_of(w: Wire) -> dict[str, Any]:
        sync = w.latest("snapshot", "catchup")
        assert sync is not None
        return sync

    def ctx(self) -> Ctx:
        assert self.snap is not None
        obs = self.snap.observer
        view = obs.get("view") or {}
        room = obs.get("room") or {}
        host = room.get("host")
        host_seat = next(
            (s["seat"] for s in room.get("seats", []) if s.get("user") and s["user"]["id"] == host),
            None,
        )
        return Ctx(
            table=self.table,
            invite=self.invite,
            version=self.snap.version,
            phase=view.get("phase"),
            turn=view.get("turn"),
            host_seat=host_seat,
            views=[s.get("view") for s in self.snap.seats],
            wires=self.wires,
            rng=self.rng,
        )

    # ------------------------------------------------------------- firing

    def _violate(self, family: str, what: str, frame: str | bytes) -> None:
        text = frame if isinstance(frame, str) else repr(frame)
        self.violations.append(Violation(family, what, text))

    async def _wire_for(self, shot: Shot, cost: int) -> Wire:
        name = shot.sender
        wire = self.wires.get(name)
        if (
            wire is None
            or wire.closed
            or shot.fresh
            or self._sent.get(name, 0) + cost > PER_WIRE_FRAMES
            or self._bad.get(name, 0) + cost > PER_WIRE_BAD
        ):
            wire = await self._fresh(name)
        return wire

    async def fire(self, spec: Spec) -> bool:
        """Aim and fire one spec; True if a game command was accepted
        (the table moved on)."""
        t0 = time.monotonic()
        try:
            return await self._fire(spec)
        finally:
            self.family_seconds[spec.family] += time.monotonic() - t0

    async def _fire(self, spec: Spec) -> bool:
        shot = spec.aim(self.ctx())
        self.families[shot.family] += 1
        if shot.frames:
            await self._fire_burst(shot)
            return False
        wire = self.wires.get(shot.sender)
        fresh = await self._wire_for(shot, 1)
        if fresh is not wire:
            # Aim again: a replayed id must be one this new socket used.
            shot = spec.aim(self.ctx())
        wire = fresh
        n = len(wire.frames)
        before_version = self.snap.version if self.snap else 0
        ok = await wire.send(shot.data, binary=shot.binary)
        self.frames_sent += 1
        self.family_frames[shot.family] += 1
        self._sent[shot.sender] = self._sent.get(shot.sender, 0) + 1
        if not ok:
            self._violate(shot.family, "could not send: the socket was already closed", shot.data)
            return False
        timeout = 30 if len(shot.data) > MAX_FRAME else 10
        outcome = await wire.next_reply(n, timeout)
        code = outcome.code
        if code in BAD_KINDS:
            self._bad[shot.sender] = self._bad.get(shot.sender, 0) + 1
        cid = readable_id(shot.data, shot.binary)
        if cid is not None and outcome.kind in ("ack", "pong"):
            # Taken now. A refused command changed nothing, so its id stays
            # free (docs/protocol.md, "Client to server").
            wire.used_ids.append(cid)
        await self._judge(shot, outcome, wire)
        if outcome.kind == "ack" and outcome.frame is not None:
            v = outcome.frame.get("version")
            if isinstance(v, int) and v > before_version:
                self.accepted += 1
                return True
        return False

    async def _judge(self, shot: Shot, outcome: Outcome, wire: Wire) -> None:
        self.outcomes[outcome.label()] += 1
        if outcome.kind == "silent":
            self._violate(shot.family, "no reply and no close within the time allowed", shot.data)
        elif outcome.kind == "error":
            await self._judge_error(shot, outcome.frame or {}, wire)
        elif outcome.kind == "closed":
            self._judge_close(shot, outcome)
        elif shot.expect is not None:
            self._violate(
                shot.family,
                f"got {outcome.kind} {outcome.frame}, expected {sorted(shot.expect)}",
                shot.data,
            )

    async def _judge_error(self, shot: Shot, err: dict[str, Any], wire: Wire) -> None:
        """An error frame: a documented code with a message, the frame's id
        (if it could be read), the code the shot expects, and the close that
        follows when one must."""
        data = shot.data
        code = err.get("code")
        if code not in ERROR_CODES:
            self._violate(shot.family, f"error code {code!r} is not in docs/protocol.md", data)
        if not isinstance(err.get("message"), str) or not err["message"].strip():
            self._violate(shot.family, f"error without a message: {err}", data)
        # A frame refused for its size is not read at all: no id.
        allowed = (None,) if code == "too_large" else ids_allowed(data, shot.binary)
        got = err.get("id")
        if not any(got == a and type(got) is type(a) for a in allowed):
            self._violate(shot.family, f"error id {got!r}, expected {allowed[0]!r}", data)
        if shot.expect is not None and code not in shot.expect:
            self._violate(
                shot.family,
                f"got {code!r} ({err.get('message')}), expected {sorted(shot.expect)}",
                data,
            )
        if shot.close_after_error and code == "too_large":
            await wire.wait(lambda: wire.closed, 15)
            self.outcomes[f"close:{wire.close_code}"] += 1
            if shot.close is not None and wire.close_code not in shot.close:
                self._violate(
                    shot.family,
                    f"after {code!r} the socket closed with {wire.close_code},"
                    f" expected {sorted(shot.close)}",
                    data,
                )

    def _judge_close(self, shot: Shot, outcome: Outcome) -> None:
        """The socket closed: with a documented code the shot allows, and
        after a ``closing`` frame when for abuse."""
        data = shot.data
        if outcome.close_code not in CLOSE_CODES:
            self._violate(
                shot.family, f"close code {outcome.close_code} is not in docs/protocol.md", data
            )
        if shot.close is None or outcome.close_code not in shot.close:
            self._violate(
                shot.family,
                f"socket closed with {outcome.close_code} (closing: {outcome.closing})",
                data,
            )
        elif outcome.close_code == 1008 and outcome.closing is None:
            self._violate(shot.family, "closed for abuse without a `closing` frame", data)

    async def _fire_burst(self, shot: Shot) -> None:
        wire = await self._wire_for(shot, len(shot.frames))
        n = len(wire.frames)
        sent = 0
        for frame in shot.frames:
            if not await wire.send(frame):
                break
            sent += 1
        self.frames_sent += sent
        self.family_frames[shot.family] += sent
        self._sent[shot.sender] = PER_WIRE_FRAMES  # spent: the next shot gets a new one
        if shot.family == "flood":
            # Every ping answered (pong or refusal), or the socket closed.
            await wire.wait(
                lambda: (
                    wire.closed
                    or sum(f.get("type") in ("pong", "error") for f in wire.frames[n:]) >= sent
                ),
                15,
            )
        else:
            await wire.wait(lambda: wire.closed, 10)
        replies = [
            f for f in wire.frames[n:] if f.get("type") in ("pong", "error", "ack", "closing")
        ]
        for f in replies:
            label = f"error:{f.get('code')}" if f["type"] == "error" else f["type"]
            self.outcomes[label] += 1
        for e in replies:
            if e["type"] == "error" and e.get("code") not in ERROR_CODES:
                self._violate(
                    shot.family, f"undocumented error code {e.get('code')!r}", shot.frames[0]
                )
        if shot.family == "flood":
            self._judge_flood(shot, wire, replies, sent)
        else:
            self._judge_junk(shot, wire, replies)

    def _judge_flood(
        self, shot: Shot, wire: Wire, replies: list[dict[str, Any]], sent: int
    ) -> None:
        """Pings beyond the rate are refused ``rate_limited`` (with their
        ids); the 100th refusal closes the socket for abuse."""
        data = shot.frames[0]
        errors = [f for f in replies if f["type"] == "error"]
        closing = [f for f in replies if f["type"] == "closing"]
        bad = [e for e in errors if e.get("code") != "rate_limited"]
        if bad:
            self._violate(shot.family, f"a flood got {bad[0]}", data)
        ids = [e.get("id") for e in errors]
        if any(not isinstance(i, int) for i in ids):
            self._violate(shot.family, "a rate_limited error without the ping's id", data)
        if wire.closed:
            self.outcomes[f"close:{wire.close_code}"] += 1
            if not _closed_for_abuse(wire, errors, closing, 99):
                self._violate(
                    shot.family,
                    f"flood closed with {wire.close_code} after {len(errors)} refusals"
                    f" (closing {closing[-1:]}); expected 99 refusals, `closing` abuse, 1008",
                    data,
                )
            return
        pongs = sum(f["type"] == "pong" for f in replies)
        if pongs + len(errors) != sent or len(errors) >= 100:
            self._violate(shot.family, f"{sent} pings: {pongs} pongs, {len(errors)} refusals", data)

    def _judge_junk(self, shot: Shot, wire: Wire, replies: list[dict[str, Any]]) -> None:
        """The 20th malformed frame closes the socket for abuse."""
        data = shot.frames[0]
        errors = [f for f in replies if f["type"] == "error"]
        closing = [f for f in replies if f["type"] == "closing"]
        self.outcomes[f"close:{wire.close_code}"] += 1
        if not all(e.get("code") in BAD_KINDS for e in errors):
            self._violate(shot.family, f"junk got {[e.get('code') for e in errors]}", data)
        if not _closed_for_abuse(wire, errors, closing, 20):
            self._violate(
                shot.family,
                f"{len(shot.frames)} junk frames: {len(errors)} errors, closing {closing[-1:]},"
                f" close {wire.close_code}; expected 20 errors, `closing` abuse, 1008",
                data,
            )

    # ------------------------------------------------------------- batches

    async def run_batch(self, specs: list[Spec]) -> None:
        """Fire ``specs`` and check that refused frames changed nothing."""
        assert self.snap is not None and self.witness is not None
        before = self.snap
        w_start = len(self.witness.frames)
        moved_at: int | None = None
        for spec in specs:
            if time.monotonic() - self.last_move > MOVE_EVERY_S:
                break  # the turn timer must not run out: time for a move
            if await self.fire(spec):
                ack_versions = self._ack_versions(before.version)
                moved_at = min(ack_versions) if ack_versions else before.version + 1
                break
        witness_events = self._events_since(self.witness, w_start)
        timer = [e for e in witness_events if e["event"].get("by") == "timeout"]
        if moved_at is None and timer and timer[0] is witness_events[0]:
            # The turn timer acted (a slow machine): this batch proves nothing.
            self.timer_batches += 1
            self.last_move = time.monotonic()
            self.snap = await self.snapshot()
            return
        if moved_at is None:
            after = await self.snapshot()
            await self._witness_caught_up()
            witness_events = self._events_since(self.witness, w_start)
            if witness_events:
                seen = [(e["version"], e["event"]) for e in witness_events]
                self._violate("batch", f"refused frames, yet the witness saw events {seen}", "")
            for i in range(4):
                if comparable(after.seats[i]) != comparable(before.seats[i]):
                    self._violate(
                        "batch", f"seat {i}'s state changed though every frame was refused", ""
                    )
            if comparable(after.observer) != comparable(before.observer):
                self._violate(
                    "batch", "the spectator's state changed though every frame was refused", ""
                )
            self.snap = after
        else:
            await self.witness.wait(lambda: self._witness_version() >= moved_at, 10)
            witness_events = self._events_since(self.witness, w_start)
            first = witness_events[0]["version"] if witness_events else None
            if first != before.version + 1 or moved_at != before.version + 1:
                self._violate(
                    "batch",
                    f"accepted at version {moved_at} but the witness's first event is {first}"
                    f" (the table was at {before.version})",
                    "",
                )
            self.last_move = time.monotonic()
            self.snap = await self.snapshot()
            await self._witness_caught_up()
            heard = self._witness_version()
            if self.snap.version != heard:
                self._violate(
                    "batch",
                    f"the table is at {self.snap.version}, the witness heard of {heard}",
                    "",
                )

    def _ack_versions(self, above: int) -> list[int]:
        out = []
        for w in self.wires.values():
            for f in w.frames:
                v = f.get("version")
                if f.get("type") == "ack" and isinstance(v, int) and v > above:
                    out.append(v)
        return out

    async def _witness_caught_up(self) -> None:
        """Every event sent so far has reached the witness. Called once the
        fresh sockets' joins are answered: the table takes commands one at a
        time, so every earlier frame was judged and whatever it made the
        table send the witness is already in the witness's queue; a pong to
        a ping sent now comes after it on the same socket."""
        assert self.witness is not None
        reply = await self.witness.request("ping", timeout=10)
        if reply["type"] != "pong":
            self._violate("batch", f"the witness's ping got {reply}", "")

    @staticmethod
    def _events_since(w: Wire, start: int) -> list[dict[str, Any]]:
        return [f for f in w.frames[start:] if f.get("type") == "event"]

    def _witness_version(self) -> int:
        assert self.witness is not None
        last = self.witness.latest()
        return int(last["version"]) if last else 0

    # ------------------------------------------------------------ progress

    async def advance(self) -> bool:
        """One legal move by the player to act (False: the game is over)."""
        assert self.snap is not None and self.witness is not None
        mover = next(
            (i for i, s in enumerate(self.snap.seats) if s.get("view") and s["view"].get("legal")),
            None,
        )
        if mover is None:
            return False
        view = self.snap.seats[mover]["view"]
        move = self._choose(view)
        wire = self.wires[f"seat{mover}"]
        body = {"bid": move} if isinstance(move, int) else {"card": move}
        reply = await wire.request(
            "bid" if isinstance(move, int) else "play", version=self.snap.version, **body
        )
        if reply["type"] != "ack":
            self._violate("advance", f"a legal move was refused: {reply}", json.dumps(body))
            return True
        self.moves += 1
        self.last_move = time.monotonic()
        self._sent[f"seat{mover}"] = self._sent.get(f"seat{mover}", 0) + 1
        await self.witness.wait(lambda: self._witness_version() >= reply["version"], 10)
        self.snap = await self.snapshot()
        return True

    def _choose(self, view: dict[str, Any]) -> Any:
        """Mostly the heuristic bot's move (so that games end and the phase
        after the game is fuzzed too), sometimes any legal one."""
        legal = view["legal"]
        if view["phase"] == "play" and self.rng.random() < 0.2:
            return self.rng.choice(legal)  # (a wild bid would only drag the game out)
        action = self._bot.choose(view_from_dict(view))
        if action >= BID_BASE:
            n = action - BID_BASE
            return n if n in legal else self.rng.choice(legal)
        card = CARD_NAMES[action]
        return card if card in legal else self.rng.choice(legal)

    async def check_alive(self) -> None:
        """The server is healthy and the control table takes a move."""
        async with httpx.AsyncClient(base_url=self.base_url, timeout=20) as http:
            r = await http.get("/healthz")
            if r.status_code != 200 or r.json().get("ok") is not True:
                self._violate("health", f"/healthz answered {r.status_code} {r.text[:200]}", "")
        views = [w.latest() for w in self.control_wires]
        mover = next(
            (i for i, f in enumerate(views) if f and f.get("view") and f["view"].get("legal")),
            None,
        )
        if mover is None:
            phase = (views[0] or {}).get("view") or {}
            if phase.get("phase") == "over":
                for w in self.control_wires:
                    await w.close()
                self.control_table, self.control_wires = await self._seat_table(
                    self.control, "casual"
                )
                return
            self._violate("control", "no one may move at the control table", "")
            return
        frame = views[mover]
        assert frame is not None
        move = self._choose(frame["view"])
        body = {"bid": move} if isinstance(move, int) else {"card": move}
        w = self.control_wires[mover]
        try:
            reply = await w.request(
                "bid" if isinstance(move, int) else "play", version=frame["version"], **body
            )
        except (TimeoutError, ConnectionError) as e:
            self._violate("control", f"the control table did not answer: {e}", "")
            return
        if reply["type"] != "ack":
            self._violate("control", f"the control table refused a legal move: {reply}", "")
            return
        for other in self.control_wires:
            got = await other.wait(
                lambda other=other: (other.latest() or {}).get("version", 0) >= reply["version"], 10
            )
            if not got:
                self._violate("control", f"{other.name} never heard of the move", "")

    async def step(
        self, specs: list[Spec], n: int, advance_every: int = 2, check_every: int = 25
    ) -> None:
        """One batch, then (sometimes) a move, a health check, a new table."""
        await self.run_batch(specs)
        # Once the game is over it is fuzzed over for a while, then replaced.
        due = time.monotonic() - self.last_move > MOVE_EVERY_S
        if (
            (n % advance_every == advance_every - 1 or due)
            and not await self.advance()
            and self.rng.random() < 0.5
        ):
            await self.new_table()
        if n % check_every == check_every - 1:
            await self.check_alive()


class RigLoop:
    """A :class:`FuzzRig` and the event loop its sockets live on."""

    def __init__(self, base_url: str, seed: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.rig = FuzzRig(base_url, seed=seed)
        self.batches = 0
        self.run(self.rig.start())

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the rig's loop (at most five minutes)."""
        return self.loop.run_until_complete(asyncio.wait_for(coro, 300))

    def close(self) -> None:
        self.run(self.rig.stop())
        self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        self.loop.close()
