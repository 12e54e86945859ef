"""This process's sockets and who is present: one socket per user (a second
one takes over), the sockets attached to each table, and each user's mutes.

What lives in other processes (a user's socket on another process, a
table run elsewhere) is the table locator's business; this module knows
only this process.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection
from typing import Any, Protocol

import msgspec

from . import frames
from .ports import MailKind

__all__ = ["Peer", "Sockets", "TableRef", "fail_pending", "replace"]


class TableRef(Protocol):
    """Where a socket's commands for its table go: the table's actor in this
    process, or a :class:`~fourhundred.server.remote.RemoteTable` (the
    process that owns it)."""

    id: str

    def submit(self, kind: MailKind, watcher: Any = None, msg: Any = None, **kw: Any) -> None: ...


class Peer(Protocol):
    """A live connection, as the server sees it."""

    id: str
    user_id: str
    user_name: str
    table: TableRef | None
    table_id: str | None
    via_invite: bool
    last_version: int
    """The last table version this socket was sent (kept for sockets whose
    table is run by another process, to re-attach them after a move)."""
    pending: set[int | str]
    """Commands sent to another process and not yet answered."""
    frames_in: int
    """Frames received from other processes for this socket (a count)."""

    def send(self, data: bytes) -> None: ...

    def close(self, code: int, reason: str, message: str) -> None: ...


def replace(peer: Peer) -> None:
    """Close ``peer``: its user opened another socket."""
    peer.close(4000, "replaced", "you connected from another tab or device; this one was closed")


def _sender(pk: frames.Peek) -> Any:
    return pk.from_.get("id") if isinstance(pk.from_, dict) else None


def fail_pending(peer: Peer) -> None:
    """Answer the commands a vanished process never answered."""
    for cmd_id in sorted(peer.pending, key=str):
        message = (
            "the table's server stopped before answering: look at the"
            " table's state (it follows) before trying again"
        )
        peer.send(frames.encode(frames.error(cmd_id, "unavailable", message)))
    peer.pending.clear()


class Sockets:
    """The registries of this process's sockets."""

    def __init__(self) -> None:
        self.peers: dict[str, Peer] = {}
        """The socket of each connected user."""
        self.conns: dict[str, Peer] = {}
        """Sockets by connection id."""
        self.attached: dict[str, set[Peer]] = {}
        """Sockets by the table they are attached to."""
        self.mutes: dict[str, set[str]] = {}
        self.blocks: dict[str, set[str]] = {}
        """Whom each user blocked (docs/protocol.md, "Friends and invites"):
        a mute that ``mute`` cannot lift, loaded when their socket opens."""
        self.unfiltered: set[str] = set()

    def register(self, peer: Peer) -> None:
        """A new socket for ``peer.user_id``; an older one here is closed."""
        old = self.peers.get(peer.user_id)
        self.peers[peer.user_id] = peer
        self.conns[peer.id] = peer
        if old is not None and old is not peer:
            replace(old)

    def unregister(self, peer: Peer) -> None:
        if self.peers.get(peer.user_id) is peer:
            del self.peers[peer.user_id]
        if self.conns.get(peer.id) is peer:
            del self.conns[peer.id]
        self.detach(peer)

    def attach(self, peer: Peer, table_id: str, ref: TableRef, *, via_invite: bool) -> None:
        """Point ``peer`` at ``table_id`` (run by ``ref``), leaving its
        previous table if it was at another one (or the same table run
        elsewhere until now)."""
        if peer.table is not ref or peer.table_id != table_id:
            self.detach(peer)
        peer.table = ref
        peer.table_id = table_id
        peer.via_invite = via_invite
        self.attached.setdefault(table_id, set()).add(peer)

    def detach(self, peer: Peer) -> None:
        """Take ``peer`` off its table (telling the table)."""
        if peer.table is not None:
            peer.table.submit("detach", peer)
            peer.table = None
        if peer.table_id is not None:
            s = self.attached.get(peer.table_id)
            if s is not None:
                s.discard(peer)
                if not s:
                    del self.attached[peer.table_id]
            peer.table_id = None

    def at(self, table_id: str) -> list[Peer]:
        """The sockets attached to ``table_id``."""
        return [peer for peer in self.attached.get(table_id, ()) if peer.table_id == table_id]

    def notify(self, user_id: str, message: frames.UserFrame) -> None:
        """Send ``message`` to the user's socket, if it is here."""
        self.send_to(user_id, frames.encode(message))

    def send_to(self, user_id: str, data: bytes) -> None:
        """Send an encoded frame to the user's socket, if it is here."""
        peer = self.peers.get(user_id)
        if peer is not None:
            peer.send(data)

    def forward(self, conn: str, table_id: str, data: bytes) -> None:
        """A frame another process (the table's owner) made for socket
        ``conn``: note its version or answered command, then send it. A chat
        line from someone the reader muted or blocked is dropped: the owner
        filters too, but learns of a new mute a moment after this process
        acknowledged it."""
        peer = self.conns.get(conn)
        if peer is None or peer.table_id != table_id:
            return  # the socket has gone or moved on
        peer.frames_in += 1
        with contextlib.suppress(msgspec.DecodeError):
            pk = frames.peek(data)
            if pk.type in ("event", "snapshot", "catchup") and pk.version is not None:
                peer.last_version = max(peer.last_version, pk.version)
            elif pk.type in ("ack", "error") and pk.id is not None:
                peer.pending.discard(pk.id)
            elif pk.type == "chat" and _sender(pk) in self.muted_by(peer.user_id):
                return
        peer.send(data)

    def replace_conn(self, user_id: str, conn: str) -> None:
        """Close socket ``conn`` if it is still ``user_id``'s."""
        peer = self.conns.get(conn)
        if peer is not None and peer.user_id == user_id:
            replace(peer)

    def mute(self, user_id: str, other: str, muted: bool) -> None:
        s = self.mutes.setdefault(user_id, set())
        if muted:
            s.add(other)
        else:
            s.discard(other)

    def set_mutes(self, user_id: str, others: Collection[str]) -> None:
        self.mutes[user_id] = set(others)

    def set_blocks(self, user_id: str, others: Collection[str]) -> None:
        if others:
            self.blocks[user_id] = set(others)
        else:
            self.blocks.pop(user_id, None)

    def block(self, user_id: str, other: str, blocked: bool) -> None:
        s = self.blocks.setdefault(user_id, set())
        if blocked:
            s.add(other)
        else:
            s.discard(other)

    def set_unfiltered(self, user_id: str, off: bool) -> None:
        """Whether ``user_id`` reads chat unmasked (their ``chat_filter``)."""
        if off:
            self.unfiltered.add(user_id)
        else:
            self.unfiltered.discard(user_id)

    def is_unfiltered(self, user_id: str) -> bool:
        return user_id in self.unfiltered

    def muted_by(self, user_id: str) -> Collection[str]:
        """Whom ``user_id`` has muted or blocked."""
        blocked = self.blocks.get(user_id)
        if blocked:
            return self.mutes.get(user_id, set()) | blocked
        return self.mutes.get(user_id, ())

    def close_all(self, code: int, reason: str, message: str) -> None:
        for peer in list(self.peers.values()):
            peer.close(code, reason, message)
