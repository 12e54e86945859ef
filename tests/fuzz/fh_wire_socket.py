"""The raw WebSocket client of the wire-level tests (imported through
``fh_wire``).

- :class:`Wire`: one raw WebSocket of one user. Unlike the server tests'
  ``Player`` it sends anything (text, invalid UTF-8 as a text frame, binary,
  oversized frames) and keeps every frame it receives, raw and parsed, so
  that a test can judge each reply and each frame.
- :class:`Outcome`: what one frame got back (a reply, a close, or nothing).
- :func:`comparable`: the part of a ``snapshot`` that a refused frame must
  not change.

Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

__all__ = ["REPLY_TYPES", "STATE_TYPES", "Outcome", "Wire", "comparable"]


@dataclass
class Outcome:
    """What one frame got back: ``ack``, ``error``, ``pong``, ``closed`` (the
    socket closed without a reply; ``close_code`` says how) or ``silent``
    (nothing at all within the time allowed)."""

    kind: str
    frame: dict[str, Any] | None = None
    close_code: int | None = None
    closing: dict[str, Any] | None = None

    @property
    def code(self) -> str | None:
        """The error code (``error``), else None."""
        if self.frame is not None and self.frame.get("type") == "error":
            return str(self.frame.get("code"))
        return None

    def label(self) -> str:
        """A short name for counting outcomes: ``error:stale``, ``close:1009``..."""
        if self.kind == "error":
            return f"error:{self.code}"
        if self.kind == "closed":
            return f"close:{self.close_code}"
        return self.kind


REPLY_TYPES = frozenset({"ack", "error", "pong", "closing"})
STATE_TYPES = ("event", "snapshot", "catchup")
_LIGHT_KEYS = ("type", "id", "code", "message", "version")


class Wire:
    """One raw WebSocket. Every received frame is kept in :attr:`raw` (text)
    and :attr:`frames` (parsed); :attr:`close_code` is set once it closed.

    ``light``: keep in :attr:`frames` only each frame's type, id, code,
    message, version (and an event's ``kind``), and the last state frame
    whole (:meth:`latest`): for long runs, whose frames are judged later
    from :attr:`raw`."""

    _counter = itertools.count(1)

    def __init__(
        self,
        ws_url: str,
        token: str | None,
        *,
        name: str = "",
        origin: str | None = None,
        light: bool = False,
    ) -> None:
        self.ws_url = ws_url
        self.light = light
        self.state: dict[str, Any] | None = None
        self.token = token
        self.name = name or f"wire{next(self._counter)}"
        self.origin = origin
        self.ws: ClientConnection | None = None
        self.raw: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.close_code: int | None = None
        self.binary_frames = 0
        self.used_ids: list[Any] = []
        self._changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._prefix = secrets.token_hex(6)
        self._seq = itertools.count(1)

    @property
    def closed(self) -> bool:
        return self.close_code is not None

    async def open(self, timeout: float = 20) -> Wire:
        headers = {"Cookie": f"fh_session={self.token}"} if self.token else {}
        kwargs: dict[str, Any] = {}
        if self.origin is not None:
            kwargs["origin"] = self.origin
        self.ws = await connect(
            self.ws_url,
            additional_headers=headers,
            max_size=None,
            open_timeout=timeout,
            close_timeout=5,
            ping_interval=None,
            **kwargs,
        )
        self._reader = asyncio.create_task(self._read(self.ws))
        await self.wait(lambda: bool(self.frames) or self.closed, timeout)
        return self

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for data in ws:
                if isinstance(data, bytes):
                    # The protocol sends text only: count it, keep it readable.
                    self.binary_frames += 1
                raw = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
                self.raw.append(raw)
                try:
                    msg = json.loads(raw)
                except ValueError:
                    msg = {"type": "<not json>", "raw": raw[:200]}
                if not isinstance(msg, dict):
                    msg = {"type": "<not object>"}
                if msg.get("type") in STATE_TYPES:
                    self.state = msg
                if self.light:
                    small = {k: msg[k] for k in _LIGHT_KEYS if k in msg}
                    if msg.get("type") == "event" and isinstance(msg.get("event"), dict):
                        small["kind"] = msg["event"].get("kind")
                    msg = small
                self.frames.append(msg)
                self._changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.close_code = ws.close_code if ws.close_code is not None else 1006
            self._changed.set()

    def hello(self) -> dict[str, Any] | None:
        return next((f for f in self.frames if f.get("type") == "hello"), None)

    async def wait(self, pred: Callable[[], bool], timeout: float = 20) -> bool:
        """Wait until ``pred()``; False (no exception) if it did not come true."""
        deadline = time.monotonic() + timeout
        while not pred():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self._changed.clear()
            if pred():
                return True
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        return True

    async def changed(self, timeout: float) -> None:
        """Wait (at most ``timeout`` s) for the next frame or the close."""
        self._changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)

    def new_id(self) -> str:
        """A command id that no fuzzer will produce by chance."""
        return f"h{self._prefix}{next(self._seq)}"

    async def send(self, data: str | bytes, *, binary: bool = False) -> bool:
        """Send one frame: ``str`` as text, ``bytes`` as a *text* frame (so
        invalid UTF-8 reaches the server) unless ``binary``. False if the
        socket is already closed."""
        if self.ws is None or self.closed:
            return False
        try:
            if isinstance(data, bytes):
                await self.ws.send(data, text=not binary)
            else:
                await self.ws.send(data)
        except ConnectionClosed:
            return False
        return True

    async def next_reply(self, since: int, timeout: float = 10) -> Outcome:
        """The first reply (``ack``/``error``/``pong``, or ``closing`` then
        the close) at or after frame index ``since``."""

        def found() -> dict[str, Any] | None:
            return next(
                (f for f in self.frames[since:] if f.get("type") in REPLY_TYPES),
                None,
            )

        await self.wait(lambda: found() is not None or self.closed, timeout)
        reply = found()
        if reply is None:
            if self.closed:
                return Outcome("closed", close_code=self.close_code)
            return Outcome("silent")
        if reply["type"] == "closing":
            await self.wait(lambda: self.closed, timeout)
            return Outcome("closed", close_code=self.close_code, closing=reply)
        return Outcome(str(reply["type"]), frame=reply)

    async def request(self, type_: str, timeout: float = 20, **fields: Any) -> dict[str, Any]:
        """Send a well-formed command with a fresh id; its ``ack``/``error``/``pong``."""
        cid = self.new_id()
        self.used_ids.append(cid)
        await self.send(json.dumps({"type": type_, "id": cid, **fields}))

        def mine() -> dict[str, Any] | None:
            return next(
                (
                    f
                    for f in self.frames
                    if f.get("id") == cid and f.get("type") in ("ack", "error", "pong")
                ),
                None,
            )

        if not await self.wait(lambda: mine() is not None or self.closed, timeout):
            raise TimeoutError(f"{self.name}: no answer to {type_} in {timeout} s")
        reply = mine()
        if reply is None:
            raise ConnectionError(f"{self.name}: closed ({self.close_code}) before answering")
        return reply

    async def join(self, timeout: float = 20, **fields: Any) -> dict[str, Any]:
        """``join`` (``table=`` or ``invite=``, maybe ``last_version=``); the
        ``snapshot``/``catchup`` that follows its ack."""
        n = len(self.frames)
        reply = await self.request("join", timeout, **fields)
        if reply["type"] != "ack":
            raise RuntimeError(f"{self.name}: join refused: {reply}")

        def sync() -> dict[str, Any] | None:
            return next(
                (f for f in self.frames[n:] if f.get("type") in ("snapshot", "catchup")), None
            )

        if not await self.wait(lambda: sync() is not None, timeout):
            raise TimeoutError(f"{self.name}: no snapshot after join")
        out = sync()
        assert out is not None
        if self.light:
            assert self.state is not None
            return self.state
        return out

    def latest(self, *types: str) -> dict[str, Any] | None:
        """The last frame of one of ``types`` (default: any state frame)."""
        if not types:
            return self.state
        if self.light and set(types) <= set(STATE_TYPES):
            state = self.state
            return state if state is not None and state.get("type") in types else None
        return next((f for f in reversed(self.frames) if f.get("type") in types), None)

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
            if self._reader is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._reader, 5)
            self.ws = None
        if self.close_code is None:
            self.close_code = 1000


def comparable(state_frame: dict[str, Any]) -> dict[str, Any]:
    """The part of a ``snapshot`` (or ``catchup``) that only an accepted
    command may change: the version, the recipient's view, the room without
    who is connected or watching, the score sheet and the turn's deadline
    (a refused frame must not restart the timer either)."""
    room = json.loads(json.dumps(state_frame.get("room")))
    if isinstance(room, dict):
        room.pop("spectators", None)
        for seat in room.get("seats") or []:
            seat.pop("connected", None)
    clock = state_frame.get("clock")
    if isinstance(clock, dict):
        clock = {k: v for k, v in clock.items() if k != "remaining_ms"}
    return {
        "version": state_frame.get("version"),
        "you": state_frame.get("you"),
        "view": state_frame.get("view"),
        "room": room,
        "clock": clock,
        "sheet": state_frame.get("sheet"),
    }
