"""What one open WebSocket costs a server in memory: a bare Starlette app
under uvicorn (the floor of the stack, with each of its two WebSocket
implementations) against ``fourhundred serve`` (a signed-in player's socket,
before it joins a table).

    python bench/socket_memory.py [--sockets 2000]

Each server runs in its own process on a free loopback port; the figure is
the growth of its resident memory (VmRSS) from before the sockets open to
three seconds after, divided by the sockets.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.error
import urllib.request
from pathlib import Path

from serve_args import OPEN_LIMITS

BARE_APP = textwrap.dedent(
    """
    import sys, uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute

    async def endpoint(ws):
        await ws.accept()
        await ws.send_text('{"type": "hello"}')
        while (await ws.receive())["type"] != "websocket.disconnect":
            pass

    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), ws=sys.argv[2],
                ws_per_message_deflate=False, ws_max_size=1 << 20, log_level="warning")
    """
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def _wait_port(port: int, path: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2):
                return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"nothing answered on port {port}")


async def _measure(port: int, pid: int, n: int, sign_in: bool) -> float:
    import httpx
    import websockets

    cookies = [""] * n
    if sign_in:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            for i in range(n):
                r = await http.post("/api/guest", json={"name": f"m{i}"})
                r.raise_for_status()
                cookies[i] = "; ".join(f"{k}={v}" for k, v in r.cookies.items())
    await asyncio.sleep(1)
    before = _rss(pid)
    socks = []
    for c in cookies:
        headers = {"Cookie": c} if c else {}
        ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws", additional_headers=headers, ping_interval=None
        )
        await ws.recv()  # the hello
        socks.append(ws)
    await asyncio.sleep(3)
    after = _rss(pid)
    for ws in socks:
        await ws.close()
    return (after - before) / n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sockets", type=int, default=2000)
    args = ap.parse_args()
    exe = Path(sys.executable).with_name("fourhundred")
    fourhundred = [str(exe)] if exe.exists() else [sys.executable, "-m", "fourhundred.cli"]
    work = Path(tempfile.mkdtemp(prefix="fh-sockmem-", dir="/dev/shm"))
    try:
        # The floor of the stack with each of uvicorn's WebSocket
        # implementations: its default (websockets) and wsproto, which
        # `fourhundred serve` uses.
        for impl in ("websockets-sansio", "wsproto"):
            port = _free_port()
            bare = subprocess.Popen([sys.executable, "-c", BARE_APP, str(port), impl])
            try:
                _wait_port(port, "/")
                per = asyncio.run(_measure(port, bare.pid, args.sockets, sign_in=False))
                print(f"bare Starlette + uvicorn ({impl}): {per / 1024:.1f} KiB per socket")
            finally:
                bare.terminate()
                bare.wait(10)
        port = _free_port()
        server = subprocess.Popen(
            [
                *fourhundred,
                "serve",
                "--port",
                str(port),
                "--database-url",
                f"sqlite+aiosqlite:///{work / 'db.sqlite3'}",
                *OPEN_LIMITS,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ},
        )
        try:
            _wait_port(port, "/healthz")
            per = asyncio.run(_measure(port, server.pid, args.sockets, sign_in=True))
            print(f"fourhundred serve (signed in, no table): {per / 1024:.1f} KiB per socket")
        finally:
            server.terminate()
            server.wait(20)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
