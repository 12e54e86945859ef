"""The fuzzer's vocabulary: its constants (frame limits, message types and
field names, senders, per-socket budgets), how it reads the command id a
server can see in a frame (:func:`readable_id`, :func:`ids_allowed`), and
the types a drawn action goes through: a :class:`Spec` (drawn by a
strategy) is aimed with a :class:`Ctx` (the table as the last snapshots
showed it) into a :class:`Shot` (who sends what, and what must come back).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from fh_wire import Wire

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
