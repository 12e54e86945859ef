"""Sockets following tournaments: ``follow`` subscribes a socket to a
tournament's ``tournament`` frames (its DETAIL after each change) and to its
chat (``tournament_chat``). One tournament per socket at a time.

The frames come from the tournament's director when it runs in this
process, or from the registry's poll of the stored version when it runs in
another. A chat line goes to the followers on this process at once and, in
a cluster, to every other process, which gives it to its own followers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import msgspec

from . import frames
from . import protocol as p
from .chat import MAX_CHAT, RATE, clean_text, too_fast
from .clock import Clock
from .competitions.directors import Directors, View
from .errors import CommandError
from .ratelimit import TokenBucket
from .sockets import Peer, Sockets

__all__ = ["Followers"]

MAX_BUCKETS: Final = 100_000


Share = Callable[[str, str, frames.EncodedChat], None]


class Followers:
    def __init__(
        self,
        directors: Directors,
        clock: Clock,
        sockets: Sockets,
        mask: Callable[[str], str] = lambda text: text,
        share: Share = lambda _t, _s, _line: None,
    ) -> None:
        """``mask`` is the chat filter's; ``share(tournament, sender, line)``
        gives a chat line to the followers on the other processes (a
        cluster's locator)."""
        self.directors = directors
        self.share = share
        self.clock = clock
        self.sockets = sockets
        self.mask = mask
        self.peers: dict[str, dict[Peer, None]] = {}
        self.following: dict[Peer, str] = {}
        self._buckets: dict[str, TokenBucket] = {}
        directors.changed = self.changed
        directors.followed = lambda: set(self.peers)

    async def _visible(self, peer: Peer, tid: str, invite: str | None) -> View:
        view = await self.directors.view(tid)
        if view is None or not (
            view.row.public or view.names(peer.user_id) or (invite and invite == view.row.invite)
        ):
            raise CommandError("not_found", f"no tournament {tid!r}")
        return view

    async def follow(self, peer: Peer, msg: p.Follow) -> None:
        """Follow ``msg.tournament`` (None: stop following); answered by
        ``ack`` and then the tournament's DETAIL."""
        if msg.tournament is None:
            self.drop(peer)
            peer.send(frames.encode(frames.Ack(id=msg.id, version=None)))
            return
        view = await self._visible(peer, msg.tournament, msg.invite)
        self.drop(peer)
        self.peers.setdefault(msg.tournament, {})[peer] = None
        self.following[peer] = msg.tournament
        peer.send(frames.encode(frames.Ack(id=msg.id, version=None)))
        peer.send(self._frame(view.detail(self.directors.wait_ms)))

    def drop(self, peer: Peer) -> None:
        tid = self.following.pop(peer, None)
        if tid is None:
            return
        peers = self.peers.get(tid)
        if peers is not None:
            peers.pop(peer, None)
            if not peers:
                del self.peers[tid]

    @staticmethod
    def _frame(detail: dict[str, Any]) -> bytes:
        raw = msgspec.Raw(msgspec.json.encode(detail))
        return frames.encode(frames.TournamentFrame(tournament=raw))

    def changed(self, tid: str, detail: dict[str, Any]) -> None:
        peers = self.peers.get(tid)
        if not peers:
            return
        data = self._frame(detail)
        for peer in list(peers):
            peer.send(data)

    async def chat(
        self, peer: Peer, msg: p.TournamentChat, charge: Callable[[], None] = lambda: None
    ) -> None:
        """One chat line from an entrant or the organiser to the followers.
        ``charge`` spends the user's chat allowance over all tables (the
        ``--chat-limit``); it is called only for a line that may be said, so
        a refused one spends nothing."""
        view = await self._visible(peer, msg.tournament, None)
        if not view.names(peer.user_id):
            raise CommandError("forbidden", "only the tournament's players and organiser chat")
        text = clean_text(msg.text)
        if not 1 <= len(text) <= MAX_CHAT:
            raise CommandError("bad_message", f"chat text must be 1 to {MAX_CHAT} characters")
        charge()
        now = self.clock.monotonic()
        bucket = self._buckets.get(peer.user_id)
        if bucket is None:
            if len(self._buckets) > MAX_BUCKETS:
                self._buckets.clear()
            bucket = self._buckets[peer.user_id] = TokenBucket(RATE[0], RATE[1], now)
        if not bucket.take(now):
            raise too_fast(bucket)
        masked = self.mask(text)
        said = frames.TournamentChat(
            tournament=msg.tournament,
            from_={"id": peer.user_id, "name": peer.user_name},
            text=masked,
            at_ms=self.clock.now_ms(),
            raw=None if masked == text else text,
        )
        line = frames.EncodedChat(
            masked=frames.encode(msgspec.structs.replace(said, raw=None)),
            whole=frames.encode(said),
        )
        peer.send(frames.encode(frames.Ack(id=msg.id, version=None)))
        self.deliver(msg.tournament, peer.user_id, line)
        self.share(msg.tournament, peer.user_id, line)

    def deliver(self, tid: str, sender: str, line: frames.EncodedChat) -> None:
        """A chat line to this process's followers of ``tid``: masked, and
        as said to those who turned the filter off; not to those who muted
        ``sender``."""
        for reader in list(self.peers.get(tid, ())):
            if sender not in self.sockets.muted_by(reader.user_id):
                unfiltered = self.sockets.is_unfiltered(reader.user_id)
                reader.send(line.whole if unfiltered else line.masked)
