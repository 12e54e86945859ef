"""Kill one process of a two-process cluster under load and check that no
acknowledged move is lost, that every table resumes on the survivor, and
that none is left stuck.

    python bench/chaos.py --tables 200 --duration 60 --kill-after 20

Two ``fourhundred serve`` processes share a fresh PostgreSQL database
(127.0.0.1:5432) and Redis (127.0.0.1:6379, a fresh key prefix);
``fourhundred loadtest --reconnect --record FILE`` drives TABLES tables
against both (each table's four players spread over the two processes, as
a load balancer would spread them; a player whose socket drops connects
again to the other process and rejoins its table). ``--kill-after`` seconds
into the measurement the first process gets SIGKILL. Then:

- **acknowledged moves kept**: every move the load generator got an ``ack``
  for is in ``table_events`` at the acknowledged version, with its seat and
  value;
- **resume**: for each table the killed process owned (its lease in Redis
  just before the kill), the time from the kill to the first frame from its
  new owner (a ``catchup`` or ``snapshot``); median, p95, max, and how many
  took longer than ``--resume-limit``;
- **none stuck**: every table in play at the kill has a new move stored, or
  is over, within ``--stuck-bound`` seconds of the kill.

The exit status is 0 when the three hold. ``uptime`` is printed first:
the figures depend on what else the machine is doing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from serve_args import OPEN_LIMITS

PG_ADMIN_URL = os.environ.get("FOURHUNDRED_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = "redis://127.0.0.1:6379/0"
MOVE_KINDS = ("bid", "play", "redeal", "game_over")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fourhundred() -> list[str]:
    exe = Path(sys.executable).with_name("fourhundred")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "fourhundred.cli"]


def _pg_url(database_url: str) -> str:
    return database_url.replace("postgresql+asyncpg://", "postgresql://")


async def _pg_admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN_URL)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def _fetch(database_url: str, sql: str, *params: Any) -> list[Any]:
    import asyncpg

    conn = await asyncpg.connect(_pg_url(database_url))
    try:
        return list(await conn.fetch(sql, *params))
    finally:
        await conn.close()


async def _lease_owners(prefix: str) -> dict[str, str]:
    """Each leased table's owner, from Redis."""
    import redis.asyncio as aioredis

    r = aioredis.from_url(REDIS_URL)
    try:
        keys = [k async for k in r.scan_iter(match=f"{prefix}lease:*", count=1000)]
        values = await r.mget(keys) if keys else []
    finally:
        await r.aclose()
    out = {}
    for k, v in zip(keys, values, strict=True):
        if v is not None:
            out[k.decode()[len(prefix) + len("lease:") :]] = v.decode().rsplit(":", 1)[0]
    return out


async def _drop_redis_prefix(prefix: str) -> None:
    import redis.asyncio as aioredis

    r = aioredis.from_url(REDIS_URL)
    try:
        keys = [k async for k in r.scan_iter(match=prefix + "*", count=1000)]
        if keys:
            await r.delete(*keys)
    finally:
        await r.aclose()


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


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


@dataclass
class Report:
    acked: int = 0
    acked_missing: list[str] = field(default_factory=list)
    moved: int = 0
    resume_ms: list[float] = field(default_factory=list)
    not_resumed: list[str] = field(default_factory=list)
    in_play: int = 0
    stuck: list[str] = field(default_factory=list)
    load: dict[str, Any] = field(default_factory=dict)

    def failures(self, resume_limit_s: float) -> list[str]:
        out = []
        if self.acked_missing:
            out.append(f"{len(self.acked_missing)} acknowledged moves missing from the log")
        slow = [x for x in self.resume_ms if x > resume_limit_s * 1000]
        if slow or self.not_resumed:
            out.append(
                f"{len(slow) + len(self.not_resumed)} of {self.moved} moved tables did not"
                f" resume within {resume_limit_s:g} s"
            )
        if self.stuck:
            out.append(f"{len(self.stuck)} of {self.in_play} tables in play left stuck")
        if self.moved == 0:
            out.append("the killed process owned no table: nothing was tested")
        return out


async def _check_acks(database_url: str, record: dict[str, Any], report: Report) -> None:
    tables = list(record["tables"])
    rows = await _fetch(
        database_url,
        "SELECT table_id, version, kind, data FROM table_events WHERE table_id = ANY($1)",
        tables,
    )
    stored: dict[tuple[str, int], tuple[str, dict[str, Any]]] = {}
    for r in rows:
        data = r["data"]
        stored[(r["table_id"], r["version"])] = (
            r["kind"],
            json.loads(data) if isinstance(data, str) else data,
        )
    for table, seen in record["tables"].items():
        for seat, kind, value, version in seen["acks"]:
            report.acked += 1
            found = stored.get((table, version))
            field_name = "bid" if kind == "bid" else "card"
            if (
                found is None
                or found[0] != kind
                or found[1].get("seat") != seat
                or found[1].get(field_name) != value
            ):
                report.acked_missing.append(f"{table} v{version} {kind} {value} by seat {seat}")


def _check_resume(
    record: dict[str, Any], owners: dict[str, str], killed: str, kill_ms: int, report: Report
) -> None:
    for table, seen in record["tables"].items():
        if owners.get(table) != killed:
            continue
        before = [f for f in seen["frames"] if f[0] < kill_ms]
        if not before:
            continue  # not started yet at the kill
        report.moved += 1
        first = min(
            (t for t, kind, _v in seen["frames"] if t >= kill_ms and kind != "event"),
            default=None,
        )
        if first is None:
            report.not_resumed.append(table)
        else:
            report.resume_ms.append(first - kill_ms)


async def _check_stuck(
    database_url: str, playing: list[str], kill_ms: int, bound_s: float, report: Report
) -> None:
    report.in_play = len(playing)
    rows = await _fetch(
        database_url,
        "SELECT DISTINCT table_id FROM table_events WHERE table_id = ANY($1)"
        " AND at_ms > $2 AND at_ms <= $3 AND kind = ANY($4)",
        playing,
        kill_ms,
        kill_ms + round(bound_s * 1000),
        list(MOVE_KINDS),
    )
    moved = {r["table_id"] for r in rows}
    report.stuck = [t for t in playing if t not in moved]


NODES = ("chaos-a", "chaos-b")
"""The cluster's two processes; the first is killed."""


@dataclass(frozen=True)
class Setup:
    """One run's options and the places it works in: a directory for logs
    and the record, a Redis key prefix, a PostgreSQL database."""

    args: argparse.Namespace
    work: Path
    prefix: str
    database_url: str
    pg_name: str | None
    """The database made for this run (dropped after it), if any."""
    env: dict[str, str]

    @classmethod
    def make(cls, args: argparse.Namespace) -> Setup:
        work = Path(tempfile.mkdtemp(prefix="fh-chaos-"))
        prefix = args.redis_prefix or f"fhchaos:{secrets.token_hex(4)}:"
        pg_name: str | None = None
        database_url = args.database_url
        if database_url is None:
            pg_name = f"fourhundred_chaos_{secrets.token_hex(4)}"
            asyncio.run(_pg_admin(f'CREATE DATABASE "{pg_name}"'))
            database_url = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{pg_name}"
        env = dict(os.environ)
        env.pop("FOURHUNDRED_TEST_TIMER_SCALE", None)
        return cls(args, work, prefix, database_url, pg_name, env)

    def serve_cmd(self, node: str, port: int) -> list[str]:
        return [
            *_fourhundred(),
            "serve",
            "--port",
            str(port),
            "--database-url",
            self.database_url,
            "--redis-url",
            REDIS_URL,
            "--redis-prefix",
            self.prefix,
            "--node",
            node,
            "--lease-ms",
            str(self.args.lease_ms),
            *OPEN_LIMITS,
            "--ws-rate",
            "100000",
            "--bot-workers",
            "0",
        ]

    def load_cmd(self, ports: list[int], record_path: Path) -> list[str]:
        args = self.args
        cmd = [*_fourhundred(), "loadtest", "--json", "--reconnect", "--record", str(record_path)]
        for port in ports:
            cmd += ["--url", f"ws://127.0.0.1:{port}"]
        cmd += ["--tables", str(args.tables), "--duration", str(args.duration)]
        cmd += ["--think-ms", str(args.think_ms), "--ramp", str(args.ramp)]
        cmd += ["--warmup", str(args.warmup)]
        return cmd

    def clean_up(self) -> None:
        """Drop what this run made, unless ``--keep-logs``."""
        args = self.args
        if self.pg_name is not None and not args.keep_logs:
            with contextlib.suppress(Exception):
                asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)'))
        if args.redis_prefix is None:
            with contextlib.suppress(Exception):
                asyncio.run(_drop_redis_prefix(self.prefix))
        if args.keep_logs:
            print(f"server logs and the record kept in {self.work}, database {self.database_url}")
        else:
            shutil.rmtree(self.work, ignore_errors=True)


def _start_server(setup: Setup, node: str, procs: list[subprocess.Popen[bytes]]) -> int:
    """Start ``node`` (added to ``procs``) and wait until it is healthy;
    returns its port."""
    port = _free_port()
    log = (setup.work / f"{node}.log").open("ab")
    procs.append(
        subprocess.Popen(setup.serve_cmd(node, port), env=setup.env, stdout=log, stderr=log)
    )
    _wait_healthy(port, procs[-1])
    return port


def _stop_all(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)


async def _tables_in_play(database_url: str, kill_ms: int) -> list[str]:
    """Tables in play at the kill: the killed process can write no more,
    and whatever the survivor wrote after the kill is after ``kill_ms``."""
    rows = await _fetch(
        database_url,
        "SELECT DISTINCT e.table_id AS id FROM table_events e"
        " JOIN tables t ON t.id = e.table_id"
        " WHERE e.kind = 'started' AND e.at_ms < $1 AND NOT EXISTS ("
        "  SELECT 1 FROM table_events o WHERE o.table_id = e.table_id"
        "  AND o.kind IN ('game_over', 'closed') AND o.at_ms < $1)",
        kill_ms,
    )
    return [r["id"] for r in rows]


def _kill_under_load(
    setup: Setup, procs: list[subprocess.Popen[bytes]], ports: list[int]
) -> Report:
    """Drive the load, kill the first process, and check the three claims."""
    args = setup.args
    report = Report()
    record_path = setup.work / "record.json"
    load = subprocess.Popen(
        setup.load_cmd(ports, record_path),
        env=setup.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(args.ramp + args.warmup + args.kill_after)
    if load.poll() is not None:
        raise SystemExit(f"the load generator stopped early ({load.returncode})")
    owners = asyncio.run(_lease_owners(setup.prefix))
    kill_ms = round(time.time() * 1000)
    procs[0].send_signal(signal.SIGKILL)
    procs[0].wait(10)
    playing = asyncio.run(_tables_in_play(setup.database_url, kill_ms))
    out, _ = load.communicate(timeout=args.duration + 300)
    if load.returncode != 0:
        raise SystemExit(f"the load generator failed ({load.returncode})")
    report.load = json.loads(out.decode().strip().splitlines()[-1])
    record = json.loads(record_path.read_text(encoding="utf-8"))
    asyncio.run(_check_acks(setup.database_url, record, report))
    _check_resume(record, owners, NODES[0], kill_ms, report)
    asyncio.run(_check_stuck(setup.database_url, playing, kill_ms, args.stuck_bound, report))
    return report


def run(args: argparse.Namespace) -> Report:
    setup = Setup.make(args)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        # One at a time: the first migrates the database.
        ports = [_start_server(setup, node, procs) for node in NODES]
        return _kill_under_load(setup, procs, ports)
    finally:
        _stop_all(procs)
        setup.clean_up()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of load measured")
    ap.add_argument("--kill-after", type=float, default=20.0, help="seconds into the measurement")
    ap.add_argument("--think-ms", type=int, default=1000, help="players' mean pause")
    ap.add_argument("--ramp", type=float, default=20.0, help="seconds to open all tables")
    ap.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    ap.add_argument("--lease-ms", type=int, default=3000, help="the servers' --lease-ms")
    ap.add_argument("--resume-limit", type=float, default=5.0, help="seconds a table may take")
    ap.add_argument("--stuck-bound", type=float, default=20.0, help="seconds to a new move")
    ap.add_argument("--database-url", help="an empty PostgreSQL database (default: a fresh one)")
    ap.add_argument("--redis-prefix", help="the cluster's key prefix (default: a fresh one)")
    ap.add_argument("--keep-logs", action="store_true", help="keep the logs and the record")
    args = ap.parse_args()
    if args.kill_after + args.stuck_bound > args.duration:
        ap.error("--kill-after plus --stuck-bound must fit in --duration")
    uptime = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout
    print(f"uptime: {uptime.strip()}  ({os.cpu_count()} CPUs)")
    print(
        f"chaos: {args.tables} tables on two processes, SIGKILL of one {args.kill_after:g} s"
        f" into {args.duration:g} s of load, lease {args.lease_ms} ms"
    )
    report = run(args)
    lat = report.load.get("latency_ms", {})
    print(
        f"load: {report.load.get('actions')} moves, {report.load.get('actions_per_s')} moves/s,"
        f" p50 {lat.get('p50')} ms, p99 {lat.get('p99')} ms; errors"
        f" {report.load.get('error_codes') or 0}, disconnects {report.load.get('disconnects')},"
        f" reconnects {report.load.get('reconnects')}"
    )
    print(f"acknowledged moves: {report.acked}, missing from the log: {len(report.acked_missing)}")
    for line in report.acked_missing[:10]:
        print(f"  missing: {line}")
    if report.resume_ms:
        print(
            f"resume on the survivor ({report.moved} tables moved): median"
            f" {_quantile(report.resume_ms, 0.5):.0f} ms, p95"
            f" {_quantile(report.resume_ms, 0.95):.0f} ms, max {max(report.resume_ms):.0f} ms;"
            f" never resumed: {len(report.not_resumed)}"
        )
    else:
        print(f"resume on the survivor: {report.moved} tables moved, none resumed")
    print(
        f"tables in play at the kill: {report.in_play}, without a new move or the end within"
        f" {args.stuck_bound:g} s: {len(report.stuck)}"
    )
    failures = report.failures(args.resume_limit)
    for f in failures:
        print(f"FAILED: {f}")
    if not failures:
        print("OK: no acknowledged move lost, every table resumed, none stuck")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
