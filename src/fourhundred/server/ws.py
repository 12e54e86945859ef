"""The WebSocket transport (``/ws``): it parses and forwards, the table
actor judges.

Each socket has a reader (this coroutine) and an outbox drained by a task
that lives only while there is something to send, so a slow client never
blocks a table. Frames are checked for size,
rate and shape here; anything that is not a well-formed message gets an
``error`` frame and changes nothing, and a client that keeps sending junk or
floods is disconnected.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import deque
from collections.abc import Collection, Mapping
from typing import Any, Final

import msgspec
from starlette.requests import cookie_parser
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from fourhundred.store import User

from . import frames
from . import protocol as p
from .auth import COOKIE, token_hash, user_for_token
from .chat import MAX_CHAT, clean_text
from .commandids import RecentIds
from .errors import CommandError
from .hub import Hub
from .limits import Limits, RateLimited
from .logs import get_logger
from .ratelimit import TokenBucket
from .ratings import display
from .sockets import TableRef
from .standing import act_of

__all__ = ["Connection", "sessions_ended", "websocket_endpoint"]

log = get_logger("fourhundred.ws")

MAX_REFUSED_FLOOD: Final = 100
"""Frames refused for flooding before the socket is closed."""
MAX_BAD: Final = 20
"""Malformed frames before the socket is closed."""
OUTBOX: Final = 4096
"""Frames queued for a client before it counts as too slow and is dropped."""
RECENT_IDS: Final = 256
"""Command ids a socket remembers (a used id is refused again within them)."""


def origin_allowed(origin: str | None, host: str | None, allowed: Collection[str] = ()) -> bool:
    """A browser's ``Origin`` must be this server's own, or one of
    ``allowed`` (a site served elsewhere, or a proxy that rewrites ``Host``);
    no header: not a browser, allowed.

    >>> origin_allowed("http://127.0.0.1:8400", "127.0.0.1:8400")
    True
    >>> origin_allowed("https://evil.example", "127.0.0.1:8400")
    False
    >>> origin_allowed("https://play.example", "10.0.0.5:8400", ["https://play.example"])
    True
    """
    if origin is None:
        return True
    if origin in allowed:
        return True
    if origin == "null" or host is None:
        return False
    return origin.split("://", 1)[-1].rstrip("/") == host


class _Refusal(msgspec.Struct):
    id: int | str | None = None
    code: str = ""


_refusal: Final = msgspec.json.Decoder(_Refusal)


class Connection:
    """One open socket of one user.

    Frames go out through an outbox drained by a short-lived task that runs
    only while there is something to send: an idle socket (most of them, most
    of the time) holds no task, no event and no queue, only this object."""

    # Slots: a server holds thousands of these.
    __slots__ = (
        "_closed",
        "_closing",
        "_drain",
        "_ids",
        "_outbox",
        "frames_in",
        "id",
        "last_version",
        "pending",
        "reader",
        "reading",
        "session",
        "table",
        "table_id",
        "user_id",
        "user_name",
        "via_invite",
        "ws",
    )

    def __init__(self, ws: WebSocket, user_id: str, user_name: str) -> None:
        self.ws = ws
        self.user_id = user_id
        self.user_name = user_name
        self.session = ""
        """The SHA-256 of the session token it was opened with."""
        self.id = secrets.token_hex(6)
        self.table: TableRef | None = None
        self.table_id: str | None = None
        self.via_invite = False
        self.last_version = 0
        self.pending: set[int | str] = set()
        self.frames_in = 0
        self._outbox: deque[bytes | tuple[int, str, str]] | None = None
        self._drain: asyncio.Task[None] | None = None
        self._closing = False
        self._closed = False
        """The socket is closed, or must be: the reader stops."""
        self.reader: asyncio.Task[Any] | None = None
        self.reading = False
        """The reader is waiting for a frame (and may be woken to stop)."""
        self._ids = RecentIds(RECENT_IDS)

    @property
    def closed(self) -> bool:
        return self._closed

    def send(self, data: bytes) -> None:
        if self._closing:
            return
        if data.startswith(b'{"type":"error"'):
            self._refused(data)
        outbox = self._outbox
        if outbox is None:
            outbox = self._outbox = deque()
        elif len(outbox) >= OUTBOX:
            self._closing = True
            log.warning("slow_client_dropped", user=self.user_id)
            # The drain is stuck on this client; closing is the only way out.
            asyncio.get_running_loop().create_task(self._force_close(1008))
            return
        outbox.append(data)
        if self._drain is None:
            self._drain = asyncio.get_running_loop().create_task(self._drain_outbox())

    def close(self, code: int, reason: str, message: str) -> None:
        """Send ``closing`` and then close with ``code`` (after what is queued)."""
        if self._closing:
            return
        self._closing = True
        if self._outbox is None:
            self._outbox = deque()
        self._outbox.append((code, reason, message))
        if self._drain is None:
            self._drain = asyncio.get_running_loop().create_task(self._drain_outbox())

    async def _force_close(self, code: int) -> None:
        self._stop_reading()
        with contextlib.suppress(Exception):
            await self.ws.close(code)

    def _stop_reading(self) -> None:
        """The socket is done: wake the reader if it waits for a frame (it
        checks ``closed`` after each frame otherwise)."""
        self._closed = True
        if self.reading and self.reader is not None:
            self.reading = False
            self.reader.cancel()

    def _refused(self, frame: bytes) -> None:
        """A refused command changed nothing: its id may be used again (but
        not after a ``duplicate``, which refuses a second use of an id that
        was taken)."""
        with contextlib.suppress(msgspec.DecodeError):
            refusal = _refusal.decode(frame)
            if refusal.code != "duplicate" and refusal.id is not None:
                self._ids.release(refusal.id)

    def seen(self, cmd_id: int | str) -> bool:
        """Record a command id; True if this socket already used it."""
        return not self._ids.take(cmd_id)

    async def _drain_outbox(self) -> None:
        outbox = self._outbox
        try:
            while outbox:
                item = outbox.popleft()
                if isinstance(item, tuple):
                    code, reason, message = item
                    with contextlib.suppress(Exception):
                        await self.ws.send_text(
                            frames.encode(frames.Closing(code=reason, message=message)).decode()
                        )
                        await self.ws.close(code)
                    self._stop_reading()
                    return
                await self.ws.send_text(item.decode())
        except Exception:
            # The client went away mid-send: nothing more can reach it.
            self._closing = True
            self._stop_reading()
        finally:
            self._drain = None
            if not outbox:
                self._outbox = None  # an idle socket keeps no buffer

    async def flush(self, timeout: float) -> None:
        """Let queued frames (a ``closing`` above all) go out, briefly, then
        stop sending."""
        drain = self._drain
        if drain is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(drain), timeout)
            drain.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await drain
        self._closing = True


def _too_large(frame: str) -> bool:
    # A character is at most 4 bytes of UTF-8: most frames need no encoding.
    if len(frame) * 4 <= p.MAX_FRAME:
        return False
    return len(frame.encode("utf-8", "surrogatepass")) > p.MAX_FRAME


def _error(cmd_id: int | str | None, code: str, message: str) -> bytes:
    return frames.encode(frames.error(cmd_id, code, message))


class _Gate:
    """The checks every frame passes before it means anything: size, kind
    (text), rate and shape. ``take`` answers what to do with one frame."""

    __slots__ = ("bad", "bucket", "conn", "flooded", "hub")

    def __init__(self, hub: Hub, conn: Connection) -> None:
        self.hub = hub
        self.conn = conn
        rate = hub.config.ws_rate
        self.bucket = TokenBucket(rate, 2 * rate, hub.clock.monotonic())
        self.flooded = 0
        self.bad = 0

    def _refuse(self, cmd_id: int | str | None, code: str, message: str) -> None:
        self.hub.metrics.ws_errors.labels(code).inc()
        self.conn.send(_error(cmd_id, code, message))

    async def take(self, message: Mapping[str, Any], t0: float) -> bool:
        """Handle one received frame; False when the socket must close."""
        conn = self.conn
        frame: Any = message.get("text")
        binary = frame is None
        if binary:
            frame = message.get("bytes") or b""
        if len(frame) > p.MAX_FRAME if binary else _too_large(frame):
            self._refuse(None, "too_large", f"frames are limited to {p.MAX_FRAME} bytes")
            conn.close(1009, "too_large", "a frame over 64 KiB: closing")
            return False
        if binary:
            self.bad += 1
            self._refuse(None, "bad_json", "send text frames of JSON, not binary")
        elif not self.bucket.take(t0):
            self.flooded += 1
            if self.flooded >= MAX_REFUSED_FLOOD:
                self.hub.metrics.ws_errors.labels("rate_limited").inc()
                conn.close(1008, "abuse", "too many frames: closing")
                return False
            self._refuse(p.frame_id(frame), "rate_limited", "too many frames: slow down")
        else:
            try:
                await _dispatch(self.hub, conn, p.decode(frame), t0)
            except CommandError as e:
                if e.code in ("bad_json", "bad_message", "unknown_type"):
                    self.bad += 1
                self._refuse(p.frame_id(frame), e.code, e.message)
        if self.bad >= MAX_BAD:
            conn.close(1008, "abuse", "too many malformed frames: closing")
            return False
        return True


def _headers(scope: Mapping[str, Any], names: tuple[bytes, ...]) -> list[str | None]:
    """The first value of each header in ``names`` (lower case), or None."""
    found: dict[bytes, str] = {}
    for key, value in scope["headers"]:
        if key in names and key not in found:
            found[key] = value.decode("latin-1")
    return [found.get(n) for n in names]


async def _accept(ws: WebSocket, hub: Hub) -> tuple[User, str] | None:
    """The socket's user, once its origin and session are checked (None:
    refused, and the socket is already closed with the reason)."""
    # Read from the scope, not ``ws.headers``/``ws.cookies``: those would
    # stay cached on the socket for its whole life.
    origin, host, cookie = _headers(ws.scope, (b"origin", b"host", b"cookie"))
    if not origin_allowed(origin, host, hub.config.allowed_origins):
        await ws.close(4403)
        return None
    token = cookie_parser(cookie).get(COOKIE) if cookie else None
    user = await user_for_token(hub.store, token, hub.clock.now_ms())
    await ws.accept()
    if user is None:
        closing = frames.Closing(
            code="unauthorized",
            message="no valid session: log in or play as a guest, then reconnect",
        )
        await ws.send_text(frames.encode(closing).decode())
        await ws.close(4401)
        return None
    assert token is not None
    return user, token_hash(token)


async def websocket_endpoint(ws: WebSocket) -> None:
    hub: Hub = ws.app.state.hub
    accepted = await _accept(ws, hub)
    if accepted is None:
        return
    user, session = accepted
    await hub.load_blocks(user)  # before any table can send its chat
    conn = Connection(ws, user.id, user.name)
    conn.session = session
    hub.metrics.sockets.inc()
    hub.register(conn)
    conn.send(
        frames.encode(
            frames.Hello(
                protocol=frames.PROTOCOL,
                user={
                    "id": user.id,
                    "name": user.name,
                    "guest": user.guest,
                    "rating": None if user.guest else display(user.mu),
                },
                server_ms=hub.clock.now_ms(),
            )
        )
    )
    await hub.tell_waiting_match(user)
    try:
        await _read(ws, hub, conn)
    except WebSocketDisconnect:
        pass
    finally:
        hub.unregister(conn)
        hub.metrics.sockets.dec()
        await conn.flush(1.0)
        if ws.client_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close(1000)


async def _read(ws: WebSocket, hub: Hub, conn: Connection) -> None:
    """Read frames until the client goes or the socket must close (a
    ``closing`` was sent, or the client is too slow or gone)."""
    gate = _Gate(hub, conn)
    # A reader waiting for the next frame is woken by cancelling it when the
    # socket closes from the sending side: cheaper than racing every receive.
    conn.reader = asyncio.current_task()
    while not conn.closed:
        conn.reading = True
        try:
            message = await ws.receive()
        except asyncio.CancelledError:
            if not conn.closed:
                raise  # the server is stopping
            if conn.reader is not None:
                conn.reader.uncancel()
            return
        finally:
            conn.reading = False
        if message["type"] == "websocket.disconnect":
            return
        if not await gate.take(message, hub.clock.monotonic()):
            return


async def _dispatch(hub: Hub, conn: Connection, msg: p.ClientMessage, t0: float) -> None:
    if conn.seen(msg.id):
        raise CommandError("duplicate", f"command id {msg.id!r} was already used on this socket")
    if isinstance(msg, p.Ping):
        conn.send(frames.encode(frames.Pong(id=msg.id, server_ms=hub.clock.now_ms())))
    elif isinstance(msg, p.Mute):
        if msg.user == conn.user_id:
            raise CommandError("not_allowed", "you cannot mute yourself")
        hub.mute(conn.user_id, msg.user, msg.muted, conn)
        conn.send(frames.encode(frames.Ack(id=msg.id, version=None)))
    elif isinstance(msg, p.ChatFilterSetting):
        hub.sockets.set_unfiltered(conn.user_id, msg.off)
        conn.send(frames.encode(frames.Ack(id=msg.id, version=None)))
    elif isinstance(msg, p.Join):
        await hub.join(conn, msg)
    elif isinstance(msg, p.Follow):
        await hub.followers.follow(conn, msg)
    elif isinstance(msg, p.TournamentChat):
        await hub.standings.check(conn.user_id, "chat")  # as at a table
        await hub.followers.chat(conn, msg, charge=lambda: _count_chat(conn, msg))
    else:
        if (act := act_of(msg)) is not None:  # docs/moderation.md, "Enforcement"
            await hub.standings.check(conn.user_id, act)
        if conn.table is None:
            raise CommandError("not_attached", "join a table first")
        if isinstance(msg, p.Chat):
            _count_chat(conn, msg)
        conn.table.submit("cmd", conn, msg, t0=t0)


def sessions_ended(hub: Hub, user_id: str, keep: str | None) -> None:
    """The user's sessions but ``keep`` (a token hash) ended: close this
    process's socket of the user if it was opened with one of them
    (``closing`` ``unauthorized``, then 4401)."""
    peer = hub.sockets.peers.get(user_id)
    if isinstance(peer, Connection) and peer.session != keep:
        peer.close(4401, "unauthorized", "your session has ended: log in again")


def _count_chat(conn: Connection, msg: p.Chat | p.TournamentChat) -> None:
    """A user's chat over all tables, against ``--chat-limit`` (each table
    also has its own rate, in :mod:`.chat`)."""
    if not 1 <= len(clean_text(msg.text)) <= MAX_CHAT:
        return  # the table refuses it, and it spends nothing
    limits: Limits = conn.ws.app.state.limits
    try:
        limits.take("chat", conn.user_id)
    except RateLimited as e:
        raise CommandError("chat_rate_limited", str(e)) from None
