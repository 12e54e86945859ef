"""The WebSocket messages (docs/protocol.md), as typed msgspec structs.

The socket layer turns each text frame into one of the client messages below
or into a :class:`~fourhundred.server.errors.CommandError` (``bad_json``,
``bad_message``, ``unknown_type``); it never judges legality (the table actor
does). Server messages are built in :mod:`.frames`.

>>> decode(b'{"type": "bid", "id": 3, "bid": 4}')
Bid(id=3, bid=4, seat=None, version=None)
>>> decode(b'{"type": "bid", "id": 3, "bid": 4.0}')
Traceback (most recent call last):
...
fourhundred.server.errors.CommandError: Expected `int`, got `float` - at `$.bid`
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

import msgspec

from .errors import CommandError

__all__ = [
    "MAX_FRAME",
    "AddBot",
    "Bid",
    "Chat",
    "ChatFilterSetting",
    "ClientMessage",
    "Configure",
    "Follow",
    "Hint",
    "Join",
    "Leave",
    "Move",
    "Mute",
    "Ping",
    "Play",
    "Ready",
    "Reclaim",
    "Redeal",
    "Rematch",
    "RematchBots",
    "Remove",
    "Sit",
    "TournamentChat",
    "decode",
    "frame_id",
]

MAX_FRAME: Final = 64 * 1024
"""The largest frame a client may send, in bytes."""
MAX_CHAT: Final = 300

CommandId = (
    Annotated[int, msgspec.Meta(ge=0, le=2**53)]
    | Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
)
SeatNo = Annotated[int, msgspec.Meta(ge=0, le=3)]
Version = Annotated[int, msgspec.Meta(ge=0)]
ShortStr = Annotated[str, msgspec.Meta(max_length=128)]


class _Message(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    id: CommandId


class Join(_Message, tag="join"):
    table: ShortStr | None = None
    invite: ShortStr | None = None
    last_version: Version | None = None


class Sit(_Message, tag="sit"):
    seat: SeatNo | None = None


class Leave(_Message, tag="leave"):
    pass


class Ready(_Message, tag="ready"):
    ready: bool


class Configure(_Message, tag="configure"):
    preset: ShortStr | None = None
    settings: dict[ShortStr, Any] | None = None
    timer: int | None = None
    hints: bool | None = None


class Move(_Message, tag="move"):
    from_: SeatNo = msgspec.field(name="from")
    to: SeatNo


class AddBot(_Message, tag="add_bot"):
    seat: SeatNo
    level: ShortStr | None = None
    bot: ShortStr | None = None


class Remove(_Message, tag="remove"):
    seat: SeatNo


class Bid(_Message, tag="bid"):
    bid: int
    seat: int | None = None
    version: Version | None = None


class Play(_Message, tag="play"):
    card: ShortStr
    seat: int | None = None
    version: Version | None = None


class Redeal(_Message, tag="redeal"):
    seat: int | None = None
    version: Version | None = None


class Hint(_Message, tag="hint"):
    pass


class Reclaim(_Message, tag="reclaim"):
    pass


class Rematch(_Message, tag="rematch"):
    accept: bool


class RematchBots(_Message, tag="rematch_bots"):
    fill: Literal["bots", "open"] = "bots"
    """``open``: leave the seats that did not accept open (a waiting room:
    invite a friend to them) instead of seating bots."""


class Chat(_Message, tag="chat"):
    text: Annotated[str, msgspec.Meta(max_length=4 * MAX_CHAT)]


class Mute(_Message, tag="mute"):
    user: ShortStr
    muted: bool


class ChatFilterSetting(_Message, tag="chat_filter"):
    """Turn the chat filter off (or on again) for oneself."""

    off: bool


class Follow(_Message, tag="follow"):
    """Receive ``tournament`` frames for this tournament (None: for none);
    a private one needs its ``invite`` unless one is in it."""

    tournament: ShortStr | None
    invite: ShortStr | None = None


class TournamentChat(_Message, tag="tournament_chat"):
    tournament: ShortStr
    text: Annotated[str, msgspec.Meta(max_length=4 * MAX_CHAT)]


class Ping(_Message, tag="ping"):
    pass


ClientMessage = (
    Join
    | Sit
    | Leave
    | Ready
    | Configure
    | Move
    | AddBot
    | Remove
    | Bid
    | Play
    | Redeal
    | Hint
    | Reclaim
    | Rematch
    | RematchBots
    | Chat
    | Mute
    | ChatFilterSetting
    | Follow
    | TournamentChat
    | Ping
)

_decoder: Final = msgspec.json.Decoder(ClientMessage)


class _IdOnly(msgspec.Struct):
    id: Any = None


_id_decoder: Final = msgspec.json.Decoder(_IdOnly)


class _TypeOnly(msgspec.Struct):
    type: Any = None


_type_decoder: Final = msgspec.json.Decoder(_TypeOnly)

MESSAGE_TYPES: Final = tuple(str(t.__struct_config__.tag) for t in ClientMessage.__args__)


def decode(frame: bytes | str) -> ClientMessage:
    """One client frame as a typed message, or a ``CommandError`` saying why
    it is not one."""
    try:
        msg: ClientMessage = _decoder.decode(frame)
    except msgspec.ValidationError as e:
        text = str(e)
        if "`$.type`" in text:
            try:
                name = _type_decoder.decode(frame).type
            except msgspec.DecodeError:
                name = None
            raise CommandError(
                "unknown_type",
                f"unknown message type {name!r} (known: {', '.join(MESSAGE_TYPES)})",
            ) from None
        raise CommandError("bad_message", text) from None
    except msgspec.DecodeError as e:
        raise CommandError("bad_json", f"not valid JSON: {e}") from None
    except RecursionError:
        # JSON nested thousands deep, inside an open-ended field (`settings`).
        raise CommandError("bad_message", "the frame is nested too deeply") from None
    return msg


def frame_id(frame: bytes | str) -> int | str | None:
    """The command id of a frame that failed to decode, if one can be read."""
    try:
        value = _id_decoder.decode(frame).id
    except (msgspec.DecodeError, RecursionError):
        return None
    if type(value) is int and 0 <= value <= 2**53:
        return value
    if isinstance(value, str) and 0 < len(value) <= 64:
        return value
    return None
