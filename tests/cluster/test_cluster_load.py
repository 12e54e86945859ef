"""The load test against two processes of a cluster, in a short form: the
four players of each table are spread over both processes (as a load
balancer would spread them), so most commands travel through Redis to the
table's owner. The full figures are in docs/performance.md."""

from __future__ import annotations

from pathlib import Path

import httpx
from fh_cluster_helpers import REDIS_URL, cluster_server

from fourhundred.cli.loadgen import LoadOptions, run_load


async def test_a_short_load_over_two_processes(
    fresh_db: str, cluster_logs: Path, redis_prefix: str
) -> None:
    a, b = (
        cluster_server(fresh_db, REDIS_URL, redis_prefix + "load:", cluster_logs / f"{n}.log", n)
        for n in ("load-a", "load-b")
    )
    try:
        for s in (a, b):
            s.start()
        assert a.proc is not None and b.proc is not None
        result = await run_load(
            [f"ws://127.0.0.1:{a.port}", f"ws://127.0.0.1:{b.port}"],
            LoadOptions(tables=4, duration=6, think_ms=20, ramp_s=1),
            server_pid=[a.proc.pid, b.proc.pid],
        )
        assert result.errors == 0, result.error_codes
        assert result.disconnects == 0
        assert result.actions > 40
        assert result.p99_ms is not None and result.max_ms is not None
        assert result.server_rss_bytes_during is not None
        # Both processes did the work: each owns some of the tables and
        # applied some of the moves.
        for s in (a, b):
            text = httpx.get(s.url + "/metrics", timeout=5).text
            moves = sum(
                float(line.rsplit(" ", 1)[1])
                for line in text.splitlines()
                if line.startswith("fourhundred_actions_total{")
            )
            assert moves > 0, f"{s.url} applied no moves"
    finally:
        for s in (a, b):
            s.stop()
