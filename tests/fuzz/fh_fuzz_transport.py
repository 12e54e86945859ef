"""Strategies of hostile frames at the frame and message level, whatever
the game's state: text that is not JSON, binary frames, JSON that is not an
object, messages of every shape, ids of every type and size, frames over
the size limits, floods of pings and bursts of junk, invalid UTF-8 and
deeply nested JSON. Also the building blocks the game-level families share
(:data:`json_values`, :data:`ids`, :data:`senders`).
"""

from __future__ import annotations

import json
from typing import Any

from fh_fuzz_ids import (
    FIELD_NAMES,
    MAX_FRAME,
    MESSAGE_TYPES,
    SENDERS,
    TRANSPORT_MAX,
    Ctx,
    Shot,
    Spec,
)
from hypothesis import strategies as st

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
