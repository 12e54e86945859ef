"""Friends, blocks and invites to a table: the rules (docs/protocol.md,
"Friends and invites").

Only registered players have friends. A request to someone who already
asked you accepts theirs. A block (either way) forbids requests and table
invites between the two, ends their friendship and pending requests, and
hides the blocked player's chat from the blocker (a mute the ``mute``
message cannot lift: ``Sockets.blocks``). Friend requests and table
invites are limited per user (the ``friend_request`` and ``invite``
buckets of :class:`~.limits.Limits`; refused attempts count too, so nobody
probes ids quickly); every refusal is a :class:`~.errors.CommandError` and
changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from fourhundred.store import Store, TableRow, User
from fourhundred.store.social import Invite, Person

from . import frames
from .clock import Clock
from .errors import CommandError
from .limits import Limits
from .limits import RateLimited as OverLimit
from .locator import TableLocator
from .sockets import Sockets

__all__ = ["Friends", "RateLimited"]

CANNOT_ASK: Final = "you cannot send a request to this player"
CANNOT_INVITE: Final = "you cannot invite this player"


class RateLimited(CommandError):
    """Over the per-user rate; ``retry_after`` in whole seconds."""

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__("rate_limited", f"too many {what}: try again in {retry_after} s")
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a request did: ``requested`` or ``accepted`` (theirs was open)."""

    status: str
    user: User


class Friends:
    """The rules over ``Store.social``, with live notices and presence."""

    def __init__(
        self, store: Store, clock: Clock, locator: TableLocator, sockets: Sockets, limits: Limits
    ) -> None:
        self.store = store
        self.social = store.social
        self.clock = clock
        self.locator = locator
        self.sockets = sockets
        self.limits = limits

    # ------------------------------------------------------------- checks

    def _take(self, what: str, user_id: str) -> None:
        try:
            self.limits.take("invite" if what == "invites" else "friend_request", user_id)
        except OverLimit as e:
            raise RateLimited(what, e.wait_s) from None

    async def _other(self, me: User, user_id: str | None, username: str | None) -> User:
        """The user named by id or username (not ``me``, not unknown)."""
        if (user_id is None) == (username is None):
            raise CommandError("bad_request", "user: give exactly one of `user` or `username`")
        if user_id is not None:
            other = await self.store.get_user(user_id)
        else:
            assert username is not None
            other = await self.store.get_user_by_username(username)
        if other is None:
            raise CommandError("not_found", "no such player")
        if other.id == me.id:
            raise CommandError("bad_request", "user: that is you")
        return other

    # ------------------------------------------------------------ friends

    async def request(self, me: User, user_id: str | None, username: str | None) -> Outcome:
        """Ask to be friends (or accept, when they asked first)."""
        self._take("friend requests", me.id)
        other = await self._other(me, user_id, username)
        if other.guest:
            raise CommandError("forbidden", "this player plays as a guest and cannot have friends")
        rel = await self.social.relation(me.id, other.id)
        if rel.blocked or rel.blocked_by:
            raise CommandError("forbidden", CANNOT_ASK)
        if rel.friends:
            raise CommandError("conflict", f"you and {other.name} are friends already")
        if rel.asked_by:
            return await self.accept(me, other.id)
        if rel.asked or not await self.social.request(me.id, other.id, self.clock.now_ms()):
            raise CommandError("conflict", f"you have asked {other.name} already")
        await self._notice(other.id, "friend_request", me)
        return Outcome("requested", other)

    async def accept(self, me: User, user_id: str) -> Outcome:
        other = await self._known(user_id)
        if not await self.social.accept(me.id, other.id, self.clock.now_ms()):
            raise CommandError("not_found", f"{other.name} has not asked to be your friend")
        await self._notice(other.id, "friend_accepted", me)
        return Outcome("accepted", other)

    async def decline(self, me: User, user_id: str) -> None:
        other = await self._known(user_id)
        if not await self.social.unlink(me.id, other.id, only_request_from=other.id):
            raise CommandError("not_found", f"{other.name} has not asked to be your friend")

    async def remove(self, me: User, user_id: str) -> None:
        """End a friendship, or take back one's own request."""
        other = await self._known(user_id)
        rel = await self.social.relation(me.id, other.id)
        if not (rel.friends or rel.asked):
            raise CommandError("not_found", f"{other.name} is not your friend")
        await self.social.unlink(me.id, other.id)

    async def _known(self, user_id: str) -> User:
        other = await self.store.get_user(user_id)
        if other is None:
            raise CommandError("not_found", "no such player")
        return other

    async def lists(self, me: User) -> dict[str, Any]:
        """``GET /api/friends``: friends (online, at which table), requests
        both ways, blocked players."""
        friends = await self.social.friends(me.id)
        ids = [f.id for f in friends]
        online = await self.locator.online(ids) if ids else set()
        tables = await self.social.public_tables(ids)
        return {
            "friends": [
                {**_person(f), "online": f.id in online, "table": tables.get(f.id)} for f in friends
            ],
            "incoming": [_person(p) for p in await self.social.incoming(me.id)],
            "outgoing": [_person(p) for p in await self.social.outgoing(me.id)],
            "blocked": [_person(p) for p in await self.social.blocked(me.id)],
        }

    # ------------------------------------------------------------- blocks

    async def block(self, me: User, user_id: str) -> User:
        other = await self._other(me, user_id, None)
        if not await self.social.block(me.id, other.id, self.clock.now_ms()):
            raise CommandError("conflict", f"you have blocked {other.name} already")
        self._blocks_changed(me.id, other.id, True)
        return other

    async def unblock(self, me: User, user_id: str) -> None:
        if not await self.social.unblock(me.id, user_id):
            raise CommandError("not_found", "you have not blocked this player")
        self._blocks_changed(me.id, user_id, False)

    def _blocks_changed(self, user_id: str, other: str, blocked: bool) -> None:
        # Chat: at once for a socket in this process (and the table's owner,
        # if another process runs it); a socket elsewhere loads its blocks
        # when it next opens.
        self.sockets.block(user_id, other, blocked)
        peer = self.sockets.peers.get(user_id)
        if peer is not None:
            muted = blocked or other in self.sockets.mutes.get(user_id, ())
            self.locator.muted(peer, other, muted)

    # ------------------------------------------------------------ invites

    async def invite(self, me: User, table_id: str, user_id: str) -> User:
        """Invite a friend to a waiting table one sits at or hosts."""
        self._take("invites", me.id)
        row = await self.store.get_table(table_id)
        if row is None or not (row.host == me.id or seated(row, me.id)):
            raise CommandError("not_found", "no waiting table of yours has this id")
        if row.status != "waiting":
            raise CommandError("conflict", "this table is not waiting for players any more")
        other = await self._other(me, user_id, None)
        rel = await self.social.relation(me.id, other.id)
        if rel.blocked or rel.blocked_by:
            raise CommandError("forbidden", CANNOT_INVITE)
        if not rel.friends:
            raise CommandError("forbidden", "you can invite only your friends")
        if seated(row, other.id):
            raise CommandError("conflict", f"{other.name} is at this table already")
        if not await self.social.invite(other.id, row.id, me.id, self.clock.now_ms()):
            raise CommandError("conflict", f"you have invited {other.name} already")
        await self._notice(other.id, "table_invite", me, row)
        return other

    async def invites(self, me: User) -> list[Invite]:
        return await self.social.invites(me.id)

    async def decline_invite(self, me: User, table_id: str) -> None:
        if not await self.social.drop_invite(me.id, table_id):
            raise CommandError("not_found", "you have no invite to this table")

    # ------------------------------------------------------------ notices

    async def _notice(
        self, to: str, notice: str, sender: User, row: TableRow | None = None
    ) -> None:
        frame = frames.Notice(
            notice=notice,
            from_={"id": sender.id, "name": sender.name},
            table=None if row is None else row.id,
            invite=None if row is None else row.invite,
        )
        try:
            await self.locator.notify_user(to, frame)
        except Exception:  # the request stands; the list shows it on reload
            return


def seated(row: TableRow, user_id: str) -> bool:
    """Whether ``user_id`` holds a seat in ``row``'s summary."""
    return any(s.get("user") and s["user"]["id"] == user_id for s in row.summary.get("seats", ()))


def _person(p: Person) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "since_ms": p.since_ms}
