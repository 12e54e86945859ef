"""Measure how long a table takes to move after its process dies:

    .venv/bin/python tests/cluster/measure_takeover.py [RUNS] [LEASE_MS]

Two processes share a fresh PostgreSQL database and Redis; a table runs at
A with its four clients connected through B; A is killed with SIGKILL and
the time until the first frame from the table's new owner (the clients'
``catchup``) is printed, then the median of the runs."""

from __future__ import annotations

import asyncio
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))


async def _one(db: str, prefix: str, lease_ms: int, logs: Path) -> float:
    import fh_cluster_helpers as h
    from fh_server_helpers import Player
    from test_cluster_play import seat_four_cluster

    h.LEASE_MS = lease_ms
    a = h.cluster_server(db, h.REDIS_URL, prefix, logs / "a.log", "measure-a")
    b = h.cluster_server(db, h.REDIS_URL, prefix, logs / "b.log", "measure-b")
    await asyncio.to_thread(a.start)
    await asyncio.to_thread(b.start)
    try:
        players, table = await seat_four_cluster(a, [b], ["Rami", "Nour", "Karim", "Hala"])
        acked: h.Acked = []
        await h.play(players, table, 3, acked)
        p: Player = players[0]
        n = len(p.frames)
        t0 = time.monotonic()
        a.kill()
        await p.wait(lambda: any(f["type"] == "catchup" for f in p.frames[n:]), timeout=60)
        took = time.monotonic() - t0
        for x in players:
            await x.aclose()
        return took
    finally:
        await asyncio.to_thread(a.stop)
        await asyncio.to_thread(b.stop)


def main() -> None:
    from fh_server_helpers import Databases

    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    lease_ms = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    tmp = Path(tempfile.mkdtemp())
    dbs = Databases(tmp)
    times = []
    try:
        for i in range(runs):
            db = dbs.new("postgresql")
            took = asyncio.run(_one(db, f"fhmeasure:{secrets.token_hex(4)}:", lease_ms, tmp))
            times.append(took)
            print(f"run {i + 1}: first frame from the new owner {took * 1000:.0f} ms after SIGKILL")
    finally:
        dbs.drop_all()
    print(f"lease {lease_ms} ms: median {statistics.median(times) * 1000:.0f} ms over {runs} runs")


if __name__ == "__main__":
    main()
