"""Memory of a live table's own state, without its sockets: N tables run in
this process (their actors, models, games, event buffers, chat), each with
four people seated who play a number of moves, on a fresh SQLite store;
every frame the tables send goes to a watcher that keeps nothing.

Prints the traced Python memory per table (``tracemalloc``: everything the
tables allocated and still hold, the store's caches included) as the median
over ``--repeat`` runs. It uses only the hub's and the actor's public calls,
so the same script measures an older commit too.

    .venv/bin/python bench/table_memory.py --tables 200 --moves 120 --repeat 3
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import statistics
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

from fourhundred.server.botpool import PoolBotRunner
from fourhundred.server.clock import SystemClock
from fourhundred.server.config import ServerConfig
from fourhundred.server.hub import Hub
from fourhundred.server.metrics import Metrics
from fourhundred.server.protocol import Bid, Join, Play, Ready, Sit
from fourhundred.store import Store


class Person:
    """A watcher that keeps only what it needs to move (its memory is not
    the table's): the phase and the legal moves of its latest view."""

    def __init__(self, user_id: str, name: str) -> None:
        self.user_id = user_id
        self.user_name = name
        self.view: dict[str, Any] | None = None

    def send(self, data: bytes) -> None:
        if data.startswith((b'{"type":"event"', b'{"type":"snapshot"', b'{"type":"catchup"')):
            view = json.loads(data)["view"]
            self.view = view and {"phase": view["phase"], "legal": view["legal"]}


async def until(pred: Any, timeout_s: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    spins = 0
    while not pred():
        if loop.time() > deadline:
            raise RuntimeError(f"a table did not answer in {timeout_s:.0f} s")
        # Spin first (a move is answered within a few loop turns), then
        # wait for the store's thread without burning the CPU.
        spins += 1
        await asyncio.sleep(0 if spins < 1000 else 0.001)


async def one_table(hub: Hub, store: Store, n: int, moves: int) -> None:
    users = [await store.create_user(f"m{n}_{i}", f"P{i}", 0) for i in range(4)]
    row = await hub.create_table(users[0], "casual", "standard", {}, 30)
    actor = await hub.actor(row.id)
    assert actor is not None
    people = [Person(u.id, u.name) for u in users]
    ids = iter(range(1, 1_000_000))
    for i, person in enumerate(people):
        actor.submit("join", person, Join(id=next(ids), table=row.id))
        if i:
            actor.submit("cmd", person, Sit(id=next(ids)))
    for person in people:
        actor.submit("cmd", person, Ready(id=next(ids), ready=True))
    await until(lambda: all(p.view is not None for p in people))
    for _ in range(moves):
        await until(lambda: any(p.view and p.view.get("legal") for p in people))
        mover = next(p for p in people if p.view and p.view.get("legal"))
        assert mover.view is not None
        legal, version = mover.view["legal"], actor.model.version
        cmd = Bid if mover.view["phase"] == "bid" else Play
        value = legal[-1] if cmd is Bid else legal[0]
        msg = Bid(id=next(ids), bid=value) if cmd is Bid else Play(id=next(ids), card=value)
        actor.submit("cmd", mover, msg)
        await until(lambda v=version: actor.model.version > v)


async def measure(tables: int, moves: int, top: int = 0) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(f"sqlite+aiosqlite:///{Path(tmp) / 'm.sqlite3'}")
        config = ServerConfig(bot="random", bot_workers=0, bot_delay_s=0.0, node="mem")
        hub = Hub(store, config, SystemClock(), PoolBotRunner(0, 50), Metrics())
        await hub.start()
        await one_table(hub, store, -1, moves)  # warm the caches first
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for n in range(tables):
            await one_table(hub, store, n, moves)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        if top:
            snap = tracemalloc.take_snapshot()
            for stat in snap.statistics("lineno")[:top]:
                print(
                    f"  {stat.size / tables / 1024:7.2f} KiB/table  {stat.traceback}",
                    file=sys.stderr,
                )
        tracemalloc.stop()
        await hub.stop()
        await store.close()
    return (after - before) / tables / 1024


def main() -> None:
    logging.disable(logging.INFO)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--moves", type=int, default=120, help="moves played at each table")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--top", type=int, default=0, help="print the N largest allocation sites")
    args = ap.parse_args()
    runs = []
    for r in range(args.repeat):
        kib = asyncio.run(measure(args.tables, args.moves, args.top))
        runs.append(kib)
        print(f"run {r + 1}: {kib:.1f} KiB per table", file=sys.stderr)
    print(
        f"table state: {statistics.median(runs):.1f} KiB per table (median of {args.repeat},"
        f" {args.tables} tables, {args.moves} moves each)"
    )


if __name__ == "__main__":
    main()
