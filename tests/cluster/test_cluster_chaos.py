"""The chaos run of ``bench/chaos.py`` in a short form: a few tables under
load on two processes, one killed with SIGKILL mid-run. Every acknowledged
move must be in the stored log, every table the killed process ran must
come back on the survivor, and every table in play must move on. (The
resume time is printed, not judged: tests never assert a wall-clock time;
the full run and its figures are in docs/deploy.md.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHAOS = Path(__file__).resolve().parents[2] / "bench" / "chaos.py"


def test_a_process_killed_under_load_loses_no_acknowledged_move(
    fresh_db: str, redis_prefix: str
) -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(CHAOS),
            "--tables",
            "4",
            "--duration",
            "24",
            "--kill-after",
            "6",
            "--ramp",
            "2",
            "--warmup",
            "3",
            "--think-ms",
            "200",
            "--lease-ms",
            "1500",
            # Whether the tables came back at all, not how fast.
            "--resume-limit",
            "60",
            "--stuck-bound",
            "15",
            "--database-url",
            fresh_db,
            "--redis-prefix",
            redis_prefix + "chaos:",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = out.stdout + out.stderr[-3000:]
    assert out.returncode == 0, report
    assert "missing from the log: 0" in out.stdout, report
    assert "never resumed: 0" in out.stdout, report
    assert "OK: no acknowledged move lost" in out.stdout, report
