"""Server processes and user sessions for the wire-level tests (imported
through ``fh_wire``).

- :class:`Server`, :class:`Databases` (re-exported from
  ``tests/server/fh_server_helpers.py``): a real ``fourhundred serve``
  process on a free loopback port with a fresh database.
- :func:`running_server`: such a process on a fresh database, for the
  length of a ``with`` block.
- :class:`Account`: one user's HTTP session (a guest or a registered user),
  which opens that user's :class:`~fh_wire_socket.Wire` sockets.

Everything talks to 127.0.0.1 only.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from fh_wire_socket import Wire

ROOT = Path(__file__).resolve().parents[2]
_SERVER_TESTS = ROOT / "tests" / "server"
if str(_SERVER_TESTS) not in sys.path:
    sys.path.insert(0, str(_SERVER_TESTS))

from fh_server_helpers import Databases, Server, free_port, pg_available  # noqa: E402

__all__ = [
    "ROOT",
    "Account",
    "Databases",
    "Server",
    "free_port",
    "pg_available",
    "running_server",
]


# ------------------------------------------------------------------ accounts


class Account:
    """One user's HTTP session against a server."""

    def __init__(self, base_url: str, name: str, *, local_address: str | None = None) -> None:
        self.base_url = base_url
        self.name = name
        # Another loopback address (127.0.0.2...) is another client address
        # to the server's per-address limits.
        transport = httpx.AsyncHTTPTransport(local_address=local_address) if local_address else None
        self.http = httpx.AsyncClient(base_url=base_url, timeout=30, transport=transport)
        self.user: dict[str, Any] = {}

    @property
    def ws_url(self) -> str:
        return self.base_url.replace("http://", "ws://", 1) + "/ws"

    @property
    def token(self) -> str:
        return self.http.cookies.get("fh_session") or ""

    @property
    def id(self) -> str:
        return str(self.user["id"])

    async def guest(self) -> Account:
        r = await self.http.post("/api/guest", json={"name": self.name})
        if r.status_code != 201:
            raise RuntimeError(f"guest {self.name!r}: {r.status_code} {r.text}")
        self.user = r.json()["user"]
        return self

    async def register(self, password: str) -> Account:
        r = await self.http.post(
            "/api/register", json={"username": self.name, "password": password}
        )
        if r.status_code != 201:
            raise RuntimeError(f"register {self.name!r}: {r.status_code} {r.text}")
        self.user = r.json()["user"]
        return self

    async def create_table(self, **body: Any) -> dict[str, Any]:
        """``POST /api/tables``; the whole answer (``table``, maybe ``invite``)."""
        r = await self.http.post("/api/tables", json=body)
        if r.status_code != 201:
            raise RuntimeError(f"create table: {r.status_code} {r.text}")
        out: dict[str, Any] = r.json()
        return out

    async def wire(self, *, origin: str | None = None, light: bool = False) -> Wire:
        """A fresh socket (it takes over any older socket of this user)."""
        return await Wire(
            self.ws_url, self.token, name=self.name, origin=origin, light=light
        ).open()

    async def aclose(self) -> None:
        await self.http.aclose()


# -------------------------------------------------------------------- server


@contextmanager
def running_server(
    backend: str = "sqlite",
    *,
    timer_scale: float | None = None,
    auth_limit: int | None = 1000,
    log_name: str = "server",
    bot: str = "random",
) -> Iterator[Server]:
    """A ``fourhundred serve`` process on a fresh database, stopped (and the
    database dropped) at the end; its log is kept in
    ``$TMPDIR/fourhundred-test-logs/``. SQLite files go to ``/dev/shm`` when it
    exists: these tests measure the server's judgement, not the disk.
    ``timer_scale`` reaches the process only through its environment
    (``FOURHUNDRED_TEST_TIMER_SCALE``), read once at start."""
    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    tmp = Path(tempfile.mkdtemp(prefix="fh-sec-", dir=base))
    dbs = Databases(tmp)
    args = [] if auth_limit is None else ["--auth-limit", str(auth_limit)]
    logs = Path(tempfile.gettempdir()) / "fourhundred-test-logs"
    logs.mkdir(exist_ok=True)
    server = Server(
        dbs.new(backend),
        timer_scale=timer_scale,
        bot=bot,
        extra=args,
        log_path=logs / f"{log_name}-{backend}-{secrets.token_hex(3)}.log",
    )
    try:
        server.start()
        yield server
    finally:
        server.stop()
        dbs.drop_all()
        shutil.rmtree(tmp, ignore_errors=True)
