"""The load tester in a short form: a few tables against a real server for a
few seconds. The full figures are produced by hand (docs/performance.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from fh_server_helpers import Server

from fourhundred.cli.loadgen import LoadOptions, check_loopback, run_load
from fourhundred.cli.loadstats import percentile


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("load")
    s = Server(
        f"sqlite+aiosqlite:///{tmp / 'load.sqlite3'}",
        log_path=tmp / "server.log",
        extra=["--auth-limit", "100000"],
    ).start()
    yield s
    s.stop()


async def test_a_short_load_plays_without_errors(server: Server) -> None:
    result = await run_load(
        f"ws://127.0.0.1:{server.port}", LoadOptions(tables=3, duration=6, think_ms=20, ramp_s=1)
    )
    assert result.errors == 0, result.error_codes
    assert result.disconnects == 0
    assert result.actions > 20
    assert result.p50_ms is not None and result.p99_ms is not None
    assert result.p50_ms <= result.p95_ms <= result.p99_ms <= result.max_ms  # type: ignore[operator]


def test_the_command_prints_json(server: Server) -> None:
    exe = Path(sys.executable).with_name("fourhundred")
    proc = subprocess.run(
        [
            str(exe),
            "loadtest",
            "--url",
            f"ws://127.0.0.1:{server.port}",
            "--tables",
            "2",
            "--duration",
            "3",
            "--think-ms",
            "20",
            "--ramp",
            "0.5",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["tables"] == 2 and data["sockets"] == 8
    assert data["errors"] == 0
    assert data["actions"] > 0
    assert set(data["latency_ms"]) == {"p50", "p95", "p99", "max"}


@pytest.mark.parametrize("url", ["ws://10.1.2.3:8400", "ws://192.168.0.7:8400", "ws://8.8.8.8"])
def test_only_loopback_is_a_target(url: str) -> None:
    with pytest.raises(ValueError, match="not a loopback"):
        check_loopback(url)


def test_loopback_names_are_accepted() -> None:
    assert check_loopback("ws://127.0.0.1:8400") == "127.0.0.1"
    assert check_loopback("ws://localhost:8400") == "localhost"


def test_the_command_refuses_another_machine() -> None:
    exe = Path(sys.executable).with_name("fourhundred")
    proc = subprocess.run(
        [str(exe), "loadtest", "--url", "ws://10.9.9.9:8400", "--duration", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert "loopback" in proc.stderr


def test_percentile_nearest_rank() -> None:
    data = [float(x) for x in range(1, 101)]
    assert percentile(data, 0.5) == 50.0
    assert percentile(data, 0.99) == 99.0
    assert percentile(data, 1.0) == 100.0
    assert percentile([], 0.5) is None
