"""What the processes of a cluster say to each other: a closed set of
msgspec tagged Structs, carried in msgpack batches by
:class:`~fourhundred.server.cluster.Cluster`.

Two roles meet here. The *edge* holds a player's socket; the *owner* runs
the table (it holds the table's lease). The edge forwards what the socket
sends (:class:`JoinTable`, :class:`Command`, :class:`Detach`); the owner
sends back each recipient's frame, already built for that recipient's seat
(:class:`Frame`), and says when it no longer runs the table (:class:`Gone`).
The rest concern users rather than tables.

Every process of a cluster must speak the same set: a message of a type a
process does not know is logged and dropped (see ``decode_batch``).
"""

from __future__ import annotations

import msgspec

from . import protocol as p
from .logs import get_logger

__all__ = [
    "ClusterMessage",
    "Command",
    "Detach",
    "Frame",
    "Gone",
    "JoinTable",
    "Matched",
    "Mute",
    "Replace",
    "ToUser",
    "decode_batch",
    "encode_batch",
]

log = get_logger("fourhundred.cluster")


class _Message(msgspec.Struct, tag_field="type", frozen=True):
    pass


class Frame(_Message, tag="frame", frozen=True):
    """Owner to edge: one frame for one socket, as the socket will get it."""

    table: str
    conn: str
    data: bytes


class JoinTable(_Message, tag="join", frozen=True):
    """Edge to owner: attach a socket (the client's ``join``, or with
    ``resync`` one the edge made for a socket whose table moved)."""

    table: str
    node: str
    conn: str
    user_id: str
    user_name: str
    join: p.Join
    via_invite: bool = False
    resync: bool = False
    mutes: list[str] = []
    """Whom the user has muted: the owner filters chat."""
    unfiltered: bool = False
    """Whether the user turned the chat filter off (``chat_filter``)."""


class Command(_Message, tag="cmd", frozen=True):
    """Edge to owner: a table command from a socket attached there."""

    table: str
    node: str
    conn: str
    command: p.ClientMessage


class Detach(_Message, tag="detach", frozen=True):
    """Edge to owner: the socket closed or went to another table."""

    table: str
    node: str
    conn: str


class Gone(_Message, tag="gone", frozen=True):
    """Owner to edge: ``node`` no longer runs ``table`` (the edge finds
    where it runs now and re-attaches its sockets)."""

    table: str
    node: str


class Mute(_Message, tag="mute", frozen=True):
    """Edge to owner: ``user_id`` (un)muted ``other``."""

    user_id: str
    other: str
    muted: bool


class Replace(_Message, tag="replace", frozen=True):
    """To the process holding ``user_id``'s older socket ``conn``: close it,
    the user connected elsewhere."""

    user_id: str
    conn: str


class Matched(_Message, tag="matched", frozen=True):
    """To the process holding ``user_id``'s socket: the Ranked queue (or a
    tournament's director, ``kind`` "tournament") seated them at ``table``."""

    user_id: str
    table: str
    kind: str = "ranked"


class ToUser(_Message, tag="to_user", frozen=True):
    """To the process holding ``user_id``'s socket: send it this frame
    (a ``notice``: a friend request, a table invite)."""

    user_id: str
    data: bytes


class ToFollowers(_Message, tag="to_followers", frozen=True):
    """To every process (``EVERYONE``): send this tournament chat line to the
    tournament's followers there, but not to those who muted ``sender``.
    ``node`` sent it and gave it to its own followers already."""

    node: str
    tournament: str
    sender: str
    masked: bytes
    """The frame masked by the chat filter."""
    whole: bytes
    """The frame as said, for readers who turned the filter off."""


ClusterMessage = (
    Frame | JoinTable | Command | Detach | Gone | Mute | Replace | Matched | ToUser | ToFollowers
)

_encoder = msgspec.msgpack.Encoder()
_batch_decoder = msgspec.msgpack.Decoder(list[msgspec.Raw])
_item_decoder = msgspec.msgpack.Decoder(ClusterMessage)


def encode_batch(messages: list[ClusterMessage]) -> bytes:
    """Messages for one inbox, in order, as one msgpack payload.

    >>> decode_batch(encode_batch([Gone(table="t1", node="a")]))
    [Gone(table='t1', node='a')]
    """
    return _encoder.encode(messages)


def decode_batch(data: bytes) -> list[ClusterMessage]:
    """A batch's messages; an item that is not one (a process of another
    version, a corrupt payload) is logged and skipped, so one bad item does
    not cost its neighbours. ``msgspec.DecodeError`` if ``data`` is not a
    batch at all."""
    out: list[ClusterMessage] = []
    for raw in _batch_decoder.decode(data):
        try:
            out.append(_item_decoder.decode(raw))
        except msgspec.DecodeError as e:
            log.warning("cluster_bad_item", error=str(e))
    return out
