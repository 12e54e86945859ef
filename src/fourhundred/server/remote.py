"""The two stand-ins that let a socket and a table live in different
processes: :class:`RemoteTable` (at the edge, in place of the table's actor)
and :class:`RemoteWatcher` (at the owner, in place of the socket).

Both only translate to and from :mod:`~fourhundred.server.cluster_messages`;
what happens when a message reaches nobody is the locator's decision
(``owner_unreachable``, ``watcher_unreachable``, ``resync_soon``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from . import frames
from .cluster_messages import Command, Detach, Frame, JoinTable
from .ports import MailKind
from .sockets import Peer

if TYPE_CHECKING:
    from .cluster_locator import ClusterLocator

__all__ = ["FORWARD_TIMEOUT_S", "RemoteSocket", "RemoteTable", "RemoteWatcher"]

FORWARD_TIMEOUT_S: Final = 5.0
"""How long a command forwarded to another process may wait for its answer."""


class RemoteTable:
    """A table run by another process: commands go to its inbox."""

    def __init__(self, locator: ClusterLocator, table_id: str, owner: str) -> None:
        self.locator = locator
        self.id = table_id
        self.owner = owner

    def submit(self, kind: MailKind, watcher: Any = None, msg: Any = None, **kw: Any) -> None:
        loc = self.locator
        node = loc.cluster.node
        assert watcher is not None
        peer: Peer = watcher
        if kind == "join":
            resync = bool(kw.get("resync"))
            out: JoinTable | Command | Detach = JoinTable(
                table=self.id,
                node=node,
                conn=peer.id,
                user_id=peer.user_id,
                user_name=peer.user_name,
                join=msg,
                via_invite=bool(kw.get("via_invite")),
                resync=resync,
                mutes=sorted(loc.sockets.muted_by(peer.user_id)),
                unfiltered=loc.sockets.is_unfiltered(peer.user_id),
            )
            if resync:
                self._await_resync(peer)
            else:
                self._await_answer(peer, msg.id)
        elif kind == "cmd":
            out = Command(table=self.id, node=node, conn=peer.id, command=msg)
            self._await_answer(peer, msg.id)
        elif kind == "detach":
            out = Detach(table=self.id, node=node, conn=peer.id)
        else:  # pragma: no cover - a programming error
            raise ValueError(f"cannot forward {kind!r}")
        loc.cluster.post(self.owner, out, on_fail=lambda: loc.owner_unreachable(self))

    def _await_resync(self, peer: Peer) -> None:
        """A re-attach is answered by a ``catchup``; if nothing at all comes
        back in time (the owner was not listening yet), re-attach again."""
        before = peer.frames_in

        def check() -> None:
            if peer.table is self and peer.frames_in == before:
                self.locator.resync_soon(self.id)

        asyncio.get_running_loop().call_later(FORWARD_TIMEOUT_S, check)

    def _await_answer(self, peer: Peer, cmd_id: int | str) -> None:
        """Expect the owner's answer to ``cmd_id``. Pub/sub keeps nothing: a
        command sent while the owner was not listening (Redis restarting) is
        lost without a trace, so one left unanswered for FORWARD_TIMEOUT_S
        is answered ``unavailable`` here and the socket is re-attached (its
        catchup shows whether the command took effect)."""
        peer.pending.add(cmd_id)

        def check() -> None:
            if cmd_id in peer.pending and peer.table is self:
                peer.pending.discard(cmd_id)
                message = (
                    "no answer from the table's server: look at the"
                    " table's state (it follows) before trying again"
                )
                peer.send(frames.encode(frames.error(cmd_id, "unavailable", message)))
                self.locator.resync_soon(self.id)

        asyncio.get_running_loop().call_later(FORWARD_TIMEOUT_S, check)


class RemoteSocket(NamedTuple):
    """Where a socket held by another process is: that process, the
    socket's id there, and the table here it watches."""

    node: str
    conn: str
    table: str


class RemoteWatcher:
    """A socket held by another process, watching a table run here: its
    frames (already built for its seat by ``view_for``) go to that process.
    Its user is unknown (empty) when it sent a command without joining."""

    __slots__ = ("key", "locator", "user_id", "user_name")

    def __init__(
        self, locator: ClusterLocator, key: RemoteSocket, user_id: str = "", user_name: str = ""
    ) -> None:
        self.locator = locator
        self.key = key
        self.user_id = user_id
        self.user_name = user_name

    @property
    def node(self) -> str:
        return self.key.node

    @property
    def conn(self) -> str:
        return self.key.conn

    @property
    def table(self) -> str:
        return self.key.table

    def send(self, data: bytes) -> None:
        node, conn, table = self.key
        self.locator.cluster.post(
            node,
            Frame(table=table, conn=conn, data=data),
            on_fail=lambda: self.locator.watcher_unreachable(self),
        )
