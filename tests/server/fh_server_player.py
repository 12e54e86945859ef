"""The test client of the server tests: :class:`Player`, one person with an
HTTP session (``httpx``) and, once connected, one WebSocket
(``websockets``) whose frames it keeps and follows."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
from fh_server_process import Server
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


class Player:
    """One person: an HTTP session and (once connected) one WebSocket."""

    def __init__(self, server: Server, name: str) -> None:
        self.server = server
        self.name = name
        self.http = httpx.AsyncClient(base_url=server.url, timeout=30)
        self.user: dict[str, Any] = {}
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.clock: dict[str, Any] | None = None
        self.you: dict[str, Any] | None = None
        self.table: str | None = None
        self.close_code: int | None = None
        self._ids = itertools.count(1)
        self._waiters: dict[Any, asyncio.Future[dict[str, Any]]] = {}
        self._changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    # -- http

    @property
    def token(self) -> str:
        return self.http.cookies.get("fh_session") or ""

    async def guest(self) -> Player:
        r = await self.http.post("/api/guest", json={"name": self.name})
        assert r.status_code == 201, r.text
        self.user = r.json()["user"]
        return self

    async def register(self, password: str = "correct horse battery") -> Player:
        r = await self.http.post(
            "/api/register", json={"username": self.name, "password": password}
        )
        assert r.status_code == 201, r.text
        self.user = r.json()["user"]
        return self

    @property
    def id(self) -> str:
        return str(self.user["id"])

    # -- socket

    async def connect(self) -> Player:
        self.close_code = None
        self.ws = await connect(
            self.server.ws_url,
            additional_headers={"Cookie": f"fh_session={self.token}"},
            max_size=None,
            open_timeout=20,
        )
        self._reader = asyncio.create_task(self._read(self.ws))
        await self.wait(lambda: any(f["type"] == "hello" for f in self.frames))
        return self

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                assert isinstance(raw, str)
                msg = json.loads(raw)
                self.raw.append(raw)
                self.frames.append(msg)
                t = msg["type"]
                if t in ("event", "snapshot", "catchup"):
                    self.version = msg["version"]
                    self.view = msg["view"]
                    self.room = msg["room"]
                    self.clock = msg["clock"]
                    self.you = msg["you"]
                    self.table = msg["table"]
                if t == "presence" and self.room is not None:
                    self.room["seats"][msg["seat"]]["connected"] = msg["connected"]
                if t in ("ack", "error", "pong"):
                    fut = self._waiters.pop(msg.get("id"), None)
                    if fut is not None and not fut.done():
                        fut.set_result(msg)
                self._changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.close_code = ws.close_code
            self._changed.set()

    async def send_raw(self, data: str | bytes) -> None:
        assert self.ws is not None
        await self.ws.send(data)

    async def cmd(self, type_: str, timeout: float = 20, **fields: Any) -> dict[str, Any]:
        """Send a command; return its ``ack`` or ``error``."""
        cid = fields.pop("id", None)
        if cid is None:
            cid = next(self._ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiters[cid] = fut
        await self.send_raw(json.dumps({"type": type_, "id": cid, **fields}))
        return await asyncio.wait_for(fut, timeout)

    async def ok(self, type_: str, **fields: Any) -> dict[str, Any]:
        reply = await self.cmd(type_, **fields)
        assert reply["type"] == "ack", reply
        return reply

    async def wait(self, pred: Callable[[], bool], timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not pred():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: condition not met in {timeout} s")
            self._changed.clear()
            if pred():
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    async def join(
        self, table: str | None = None, invite: str | None = None, **kw: Any
    ) -> dict[str, Any]:
        fields: dict[str, Any] = dict(kw)
        if table is not None:
            fields["table"] = table
        if invite is not None:
            fields["invite"] = invite
        n = len(self.frames)
        await self.ok("join", **fields)
        await self.wait(lambda: any(f["type"] in ("snapshot", "catchup") for f in self.frames[n:]))
        return next(f for f in self.frames[n:] if f["type"] in ("snapshot", "catchup"))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            if self._reader is not None:
                with contextlib.suppress(Exception):
                    await self._reader
            self.ws = None

    async def aclose(self) -> None:
        await self.close()
        await self.http.aclose()

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        out = []
        for f in self.frames:
            if f["type"] == "event":
                out.append(f["event"])
            elif f["type"] == "catchup":
                out.extend(e["event"] for e in f["events"])
        return [e for e in out if kind is None or e["kind"] == kind]

    @property
    def seat(self) -> int | None:
        return None if self.you is None else self.you["seat"]
