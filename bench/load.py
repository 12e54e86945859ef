"""Find how many tables one server process (or a cluster of several) carries
within the latency target, with the load generator running beside it.

    python bench/load.py --processes 1 --tables 500,750,1000 --duration 60
    python bench/load.py --processes 2 --tables 500,1000 --duration 60

For each table count it starts fresh servers on free loopback ports (one
process: a fresh SQLite database in /dev/shm; several: a fresh PostgreSQL
database on 127.0.0.1:5432 and Redis on 127.0.0.1:6379, a fresh key
prefix), runs ``fourhundred loadtest`` against them as a separate process
(the players of each table spread over the processes, as a load balancer
would spread them), stops the servers and prints what was measured:
actions per second, latency from a command to the broadcast of its event
(p50, p95, p99, max), errors, disconnects, the servers' memory per live
table and their CPU time per action over the measured window (the steadiest
figure on a shared machine). The last line names the largest load that met the target (p99 at or
under ``--target-ms``, no errors, no disconnects).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from serve_args import OPEN_LIMITS

PG_ADMIN_URL = os.environ.get("FOURHUNDRED_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = "redis://127.0.0.1:6379/0"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fourhundred() -> list[str]:
    exe = Path(sys.executable).with_name("fourhundred")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "fourhundred.cli"]


async def _pg(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN_URL)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def _drop_redis_prefix(prefix: str) -> None:
    import redis.asyncio as aioredis

    r = aioredis.from_url(REDIS_URL)
    try:
        keys = [k async for k in r.scan_iter(match=prefix + "*", count=1000)]
        if keys:
            await r.delete(*keys)
    finally:
        await r.aclose()


class Servers:
    """``n`` fresh ``fourhundred serve`` processes sharing one database."""

    def __init__(self, n: int, workdir: Path) -> None:
        self.n = n
        self.workdir = workdir
        self.procs: list[subprocess.Popen[bytes]] = []
        self.ports: list[int] = []
        self.pg_name: str | None = None
        self.prefix = f"fhbench:{secrets.token_hex(4)}:"

    def start(self) -> Servers:
        if self.n == 1:
            url = f"sqlite+aiosqlite:///{self.workdir / 'load.sqlite3'}"
        else:
            self.pg_name = f"fourhundred_load_{secrets.token_hex(4)}"
            asyncio.run(_pg(f'CREATE DATABASE "{self.pg_name}"'))
            url = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{self.pg_name}"
        env = dict(os.environ)
        env.pop("FOURHUNDRED_TEST_TIMER_SCALE", None)
        for i in range(self.n):
            port = _free_port()
            cmd = [
                *_fourhundred(),
                "serve",
                "--port",
                str(port),
                "--database-url",
                url,
                # Thousands of simulated guests sign in from 127.0.0.1.
                *OPEN_LIMITS,
            ]
            if self.n > 1:
                cmd += ["--redis-url", REDIS_URL, "--redis-prefix", self.prefix]
                cmd += ["--node", f"bench-{i}"]
            log = (self.workdir / f"server-{i}.log").open("ab")
            self.procs.append(subprocess.Popen(cmd, env=env, stdout=log, stderr=log))
            self.ports.append(port)
            # One at a time: the first migrates the database.
            self._wait_healthy(port, self.procs[-1])
        return self

    @staticmethod
    def _wait_healthy(port: int, proc: subprocess.Popen[bytes]) -> None:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise SystemExit(f"the server on port {port} exited ({proc.returncode})")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r,
            ):
                if r.status == 200:
                    return
            time.sleep(0.2)
        raise SystemExit(f"the server on port {port} did not become healthy in 90 s")

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)
        if self.pg_name is not None:
            with contextlib.suppress(Exception):
                asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)'))
        if self.n > 1:
            with contextlib.suppress(Exception):
                asyncio.run(_drop_redis_prefix(self.prefix))


def _cpu_seconds(procs: list[subprocess.Popen[bytes]]) -> float | None:
    """User and system CPU seconds the processes have used (Linux)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for proc in procs:
        try:
            fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def run_one(processes: int, tables: int, args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="fh-load-", dir="/dev/shm"))
    servers = Servers(processes, work).start()
    try:
        time.sleep(2)  # let the bot pool and the first heartbeats settle
        cmd = [*_fourhundred(), "loadtest", "--json"]
        for port, proc in zip(servers.ports, servers.procs, strict=True):
            cmd += ["--url", f"ws://127.0.0.1:{port}", "--server-pid", str(proc.pid)]
        cmd += [
            "--tables",
            str(tables),
            "--duration",
            str(args.duration),
            "--think-ms",
            str(args.think_ms),
            "--ramp",
            str(args.ramp),
            "--warmup",
            str(args.warmup),
        ]
        gen = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # The servers' CPU time over the measured window: a figure that the
        # other work on a shared machine disturbs far less than latency.
        time.sleep(args.ramp + args.warmup + 1)
        cpu_from = _cpu_seconds(servers.procs)
        stdout, stderr = gen.communicate()
        cpu_to = _cpu_seconds(servers.procs)
        if gen.returncode != 0:
            raise SystemExit(f"loadtest failed ({gen.returncode}):\n{stderr[-2000:]}")
        result: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
        if cpu_from is not None and cpu_to is not None and result["actions"]:
            result["server_cpu_ms_per_action"] = round(
                1000 * (cpu_to - cpu_from) / result["actions"], 3
            )
        return result
    finally:
        servers.stop()
        if args.keep_logs:
            print(f"  server logs kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--processes", type=int, default=1, help="server processes (2+: a cluster)")
    ap.add_argument("--tables", default="250,500,750,1000", help="table counts to try, in order")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds measured per load")
    ap.add_argument("--think-ms", type=int, default=1000, help="players' mean pause")
    ap.add_argument("--ramp", type=float, default=20.0, help="seconds to open all tables")
    ap.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    ap.add_argument("--target-ms", type=float, default=50.0, help="the p99 latency target")
    ap.add_argument("--keep-logs", action="store_true", help="keep the servers' logs")
    ap.add_argument("--repeat", type=int, default=1, help="runs per table count (median p99)")
    args = ap.parse_args()
    counts = [int(x) for x in args.tables.split(",") if x.strip()]
    console = Console(stderr=True)
    console.print(
        f"load: {args.processes} server process(es), tables {counts}, {args.duration:g} s each, "
        f"think {args.think_ms} ms; Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"
    )
    out = Table(title=f"{args.processes} process(es), target p99 <= {args.target_ms:g} ms")
    for col in (
        "tables",
        "sockets",
        "actions/s",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "max ms",
        "errors",
        "disconnects",
        "KiB/table",
        "CPU ms/action",
        "meets",
    ):
        out.add_column(col, justify="right")
    best: int | None = None
    rows = []
    for tables in counts:
        runs = []
        for r in range(args.repeat):
            console.print(f"  {tables} tables, run {r + 1}/{args.repeat} ...")
            runs.append(run_one(args.processes, tables, args))
        runs.sort(key=lambda d: d["latency_ms"]["p99"] or 1e9)
        res = dict(runs[len(runs) // 2])
        res["p99_each_run"] = [d["latency_ms"]["p99"] for d in runs]
        lat = res["latency_ms"]
        per_table = res.get("server_rss_per_table_bytes")
        meets = (
            lat["p99"] is not None
            and lat["p99"] <= args.target_ms
            and all(d["errors"] == 0 and d["disconnects"] == 0 for d in runs)
        )
        if meets:
            best = tables
        rows.append(res)
        out.add_row(
            str(tables),
            str(res["sockets"]),
            f"{res['actions_per_s']:.0f}",
            f"{lat['p50']}",
            f"{lat['p95']}",
            f"{lat['p99']}",
            f"{lat['max']}",
            f"{res['errors']} {res['error_codes'] or ''}".strip(),
            str(res["disconnects"]),
            "-" if per_table is None else f"{per_table / 1024:.0f}",
            str(res.get("server_cpu_ms_per_action", "-")),
            "yes" if meets else "no",
        )
        console.print(out)
    print(json.dumps({"processes": args.processes, "runs": rows, "largest_meeting": best}))
    console.print(
        f"largest load meeting p99 <= {args.target_ms:g} ms with no errors: "
        f"{best if best is not None else 'none of those tried'} tables"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
