"""Every frame the server sends on ``/ws`` (docs/protocol.md, "Server to
client"), built here and nowhere else.

Frames are msgspec Structs tagged by ``type``. A part shared by many
recipients (an event's public form, a room, a view) is encoded once and
spliced in as ``msgspec.Raw``, so a broadcast to a table encodes each view
once per seat, not once per socket.

>>> encode(Ack(id=3, version=41))
b'{"type":"ack","id":3,"version":41}'
>>> encode(error(None, "bad_json", "not valid JSON"))
b'{"type":"error","id":null,"code":"bad_json","message":"not valid JSON","version":null}'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import msgspec

from fourhundred.engine import Phase
from fourhundred.engine.steps import view_at

from . import rematch
from .errors import CommandError
from .events import ROOM_EVENTS, VIEW_EVENTS, Event

if TYPE_CHECKING:
    from .room import TableModel

__all__ = [
    "PROTOCOL",
    "Ack",
    "ChatFrame",
    "Closing",
    "Collector",
    "EncodedChat",
    "Error",
    "EventFrame",
    "Hello",
    "HintFrame",
    "Matched",
    "Notice",
    "Peek",
    "Pong",
    "Presence",
    "StandingChanged",
    "Sync",
    "TournamentChat",
    "TournamentFrame",
    "UserFrame",
    "chat_entry",
    "encode",
    "error",
    "peek",
    "raw",
    "sync",
]

PROTOCOL: Final = "fourhundred-ws/2"
"""The protocol's name and version, sent in ``hello``. Version 2: each
``event`` carries the state after that event (not after the whole command),
and ``created`` names the table's kind ``table_kind``."""

CommandId = int | str


class _Frame(msgspec.Struct, tag_field="type"):
    pass


class Hello(_Frame, tag="hello"):
    protocol: str
    user: dict[str, Any]
    server_ms: int


class Ack(_Frame, tag="ack"):
    id: CommandId
    version: int | None


class Error(_Frame, tag="error"):
    id: CommandId | None
    code: str
    message: str
    version: int | None


class Pong(_Frame, tag="pong"):
    id: CommandId
    server_ms: int


class Closing(_Frame, tag="closing"):
    code: str
    message: str


class Presence(_Frame, tag="presence"):
    table: str
    seat: int
    connected: bool


class ChatFrame(_Frame, tag="chat", omit_defaults=True):
    """A chat line: ``text`` masked by the chat filter; ``raw`` the line as
    said, only where masking changed it and only to readers who turned the
    filter off."""

    table: str
    channel: str
    from_: dict[str, str] = msgspec.field(name="from")
    text: str
    at_ms: int
    raw: str | None = None


class StandingChanged(_Frame, tag="standing"):
    """A moderator just penalised this user (``kind``): read the standing
    again (``GET /api/me/standing``) and tell them."""

    kind: str


class Matched(_Frame, tag="matched"):
    table: str
    kind: str = "ranked"


class Notice(_Frame, tag="notice"):
    """Something for the user outside any table (docs/protocol.md,
    "Friends and invites"): ``friend_request``, ``friend_accepted`` or
    ``table_invite`` (with the table, and a Private table's invite code)."""

    notice: str
    from_: dict[str, str] = msgspec.field(name="from")
    table: str | None = None
    invite: str | None = None


UserFrame = Matched | Notice | StandingChanged
"""The frames sent to a user wherever their socket is (``notify_user``)."""


class HintFrame(_Frame, tag="hint"):
    """The expert's suggestion, to the player who asked alone (``hint``)."""

    id: CommandId
    table: str
    version: int
    """The position it is for: the table's version once the hint was marked."""
    seat: int
    action: str
    """``"bid 4"``, ``"redeal"`` or a card like ``"QD"``."""
    reason: str
    chance: float | None
    values: list[tuple[str, float]]


class TournamentFrame(_Frame, tag="tournament"):
    """A followed tournament changed: its whole DETAIL."""

    tournament: msgspec.Raw


class EncodedChat(NamedTuple):
    """A chat line encoded twice: masked by the chat filter, and as said
    (the same bytes when the filter changed nothing)."""

    masked: bytes
    whole: bytes


class TournamentChat(_Frame, tag="tournament_chat", omit_defaults=True):
    """A line of a followed tournament's chat: ``text`` masked by the chat
    filter, ``raw`` as for :class:`ChatFrame`."""

    tournament: str
    from_: dict[str, str] = msgspec.field(name="from")
    text: str = ""
    at_ms: int = 0
    raw: str | None = None


class EventFrame(_Frame, tag="event"):
    """One event with the recipient's state right after it."""

    table: str
    version: int
    event: msgspec.Raw
    you: msgspec.Raw
    room: msgspec.Raw
    view: msgspec.Raw
    clock: msgspec.Raw


class Sync(msgspec.Struct, omit_defaults=True):
    """``snapshot`` (``events`` absent) or ``catchup`` (the events the client
    missed, then the whole current state)."""

    type: str
    table: str
    version: int
    you: dict[str, Any]
    room: dict[str, Any]
    view: dict[str, Any] | None
    clock: dict[str, Any] | None
    sheet: list[Any]
    chat: list[dict[str, Any]]
    events: list[dict[str, Any]] | None = None


_encoder: Final = msgspec.json.Encoder()
NULL: Final = msgspec.Raw(b"null")


def encode(frame: msgspec.Struct) -> bytes:
    return _encoder.encode(frame)


class Peek(msgspec.Struct):
    """What a process forwarding a frame needs of it (``peek``): ``from_``
    is a chat line's sender, for the reader's own mutes and blocks."""

    type: str
    version: int | None = None
    id: int | str | None = None
    from_: Any = msgspec.field(default=None, name="from")


_peek = msgspec.json.Decoder(Peek)


def peek(data: bytes) -> Peek:
    """The type, version, command id and sender of an encoded frame, the rest left
    undecoded (``msgspec.DecodeError`` when it is not a frame)."""
    return _peek.decode(data)


def raw(value: Any) -> msgspec.Raw:
    """``value`` encoded once, to be spliced into many frames."""
    return NULL if value is None else msgspec.Raw(_encoder.encode(value))


def error(cmd_id: CommandId | None, code: str, message: str, version: int | None = None) -> Error:
    return Error(id=cmd_id, code=code, message=message, version=version)


def refusal(cmd_id: CommandId | None, e: CommandError, version: int | None) -> bytes:
    """The ``error`` frame for a refused command."""
    return encode(error(cmd_id, e.code, e.message, version))


# ------------------------------------------------------------ a table's frames
#
# What a person sees of a table is built here from the table's model, and the
# view in it only by the engine's ``view_for`` (for the person's seat, or for
# a spectator). These are the only functions that put a view in a frame.


def you(m: TableModel, user_id: str) -> dict[str, Any]:
    """``you``: the person's seat and role at this table."""
    seat = m.role_seat(user_id)
    return {
        "seat": seat,
        "role": "spectator" if seat is None else "player",
        "host": m.host == user_id,
    }


def view(m: TableModel, seat: int | None) -> dict[str, Any] | None:
    """The view of ``seat`` (None: a spectator's): the engine's ``view_at``,
    which between hands shows the hand just ended; None when there is no
    hand to show (the waiting room, before the first deal, a closed table)."""
    g = m.game
    if g is None or m.status == "closed" or (g.phase is Phase.DEAL and not g.history):
        return None
    return view_at(g, seat).to_dict()


def connected_seats(m: TableModel, users: Iterable[str]) -> set[int]:
    """The seats played by these connected people."""
    seats = (m.role_seat(u) for u in users)
    return {s for s in seats if s is not None}


def summary(m: TableModel, users: Sequence[str]) -> dict[str, Any]:
    """The table summary as the lobby lists it, live: which seats' players
    are among the people attached (``users``), how many of them watch."""
    seats = [m.role_seat(u) for u in users]
    return m.summary({s for s in seats if s is not None}, sum(1 for s in seats if s is None))


def room(m: TableModel, users: Sequence[str]) -> dict[str, Any]:
    """``room``: the live :func:`summary`, with the invite of a Private
    table and the rematch offer (None: none)."""
    out = summary(m, users)
    if m.kind == "private":
        out["invite"] = m.invite
    out["rematch"] = rematch.public(m)
    return out


class Step:
    """One event as every watcher will see it: encoded once per seat."""

    __slots__ = ("event", "room", "version", "views", "yous")

    def __init__(
        self,
        m: TableModel,
        event: Event,
        public: msgspec.Raw,
        users: Sequence[str],
        last: Step | None,
    ) -> None:
        """``m`` is the table right after ``event`` (``public`` its public
        form, encoded); ``last`` the step before it in the same command,
        whose room and views are reused when this event left them as they
        were (a move leaves the room; a hand's end leaves every view)."""
        self.version = m.version
        self.event = public
        same_room = last is not None and not isinstance(event, ROOM_EVENTS)
        same_views = last is not None and not isinstance(event, VIEW_EVENTS)
        self.room: msgspec.Raw = last.room if same_room and last else raw(room(m, users))
        self.views: dict[int | None, msgspec.Raw] = last.views if same_views and last else {}
        self.yous: dict[str, tuple[int | None, msgspec.Raw]] = {}
        for u in users:
            if u in self.yous:
                continue
            mine = you(m, u)
            seat = mine["seat"]
            if seat not in self.views:
                self.views[seat] = raw(view(m, seat))
            self.yous[u] = (seat, raw(mine))

    def frame(self, table: str, user_id: str, clock: msgspec.Raw) -> bytes:
        seat, mine = self.yous[user_id]
        return encode(
            EventFrame(
                table=table,
                version=self.version,
                event=self.event,
                you=mine,
                room=self.room,
                view=self.views[seat],
                clock=clock,
            )
        )


class Collector:
    """What a command's events will look like to each watcher, gathered as
    ``decide`` makes them (each with the table right after it): sent only
    once the events are stored."""

    __slots__ = ("publics", "steps", "users")

    def __init__(self, users: list[str]) -> None:
        self.users = users
        self.steps: list[Step] = []
        self.publics: list[msgspec.Raw] = []

    def observe(self, m: TableModel, e: Event) -> None:
        public = msgspec.Raw(e.public_json())
        self.publics.append(public)
        if self.users:
            last = self.steps[-1] if self.steps else None
            self.steps.append(Step(m, e, public, self.users, last))


def sync(
    m: TableModel,
    user_id: str,
    users: Sequence[str],
    events: list[tuple[int, msgspec.Raw]] | None,
    clock: dict[str, Any] | None,
) -> Sync:
    """``snapshot`` (``events`` None) or ``catchup`` for one person (the
    caller adds the chat they may read)."""
    mine = you(m, user_id)
    return Sync(
        type="snapshot" if events is None else "catchup",
        table=m.id,
        version=m.version,
        you=mine,
        room=room(m, users),
        view=view(m, mine["seat"]),
        clock=clock,
        sheet=[h.public() for h in m.sheet],
        chat=[],
        events=None if events is None else [{"version": v, "event": e} for v, e in events],
    )


def chat_entry(c: ChatFrame) -> dict[str, Any]:
    entry: dict[str, Any] = msgspec.to_builtins(c)
    del entry["type"]
    return entry
