"""System tournaments: the server schedules the next occurrence of each
entry of ``--tournaments-file`` (public, no organiser: nobody may pause or
cancel it), once however often it looks; a file with a bad entry stops the
server at start, naming the entry."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest
from fh_server_helpers import Databases, Server
from fh_tournaments import post, registered, wait_detail

ENTRIES = [
    {"name": "Daily quick knockout", "at": "20:00", "format": "knockout", "max_teams": 16,
     "preset": "quick"},
    {"name": "Sunday Swiss", "at": "18:30", "weekday": 6, "format": "swiss", "rounds": 5,
     "max_teams": 64, "timer": 45},
]  # fmt: skip


@pytest.fixture
def fresh_db(backend: str, databases: Databases) -> str:
    """A fresh database (made outside the test's event loop)."""
    return databases.new(backend)


async def test_the_server_schedules_its_tournaments(
    backend: str, fresh_db: str, logs_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "system.json"
    path.write_text(json.dumps(ENTRIES))
    extra = ["--tournaments-file", str(path), "--tournament-poll", "0.1"]
    s = Server(fresh_db, log_path=logs_dir / f"system-{backend}.log", extra=extra)
    s.start()
    try:
        [someone] = await registered(s, "sys", 1)
        r = await someone.http.get("/api/tournaments?status=upcoming")
        listed = {t["name"]: t for t in r.json()["tournaments"]}
        daily, sunday = listed["Daily quick knockout"], listed["Sunday Swiss"]
        for t in (daily, sunday):
            assert t["organiser"] is None and t["public"] and t["status"] == "open"
        when = dt.datetime.fromtimestamp(daily["start_ms"] / 1000, dt.UTC)
        assert (when.hour, when.minute) == (20, 0)
        when = dt.datetime.fromtimestamp(sunday["start_ms"] / 1000, dt.UTC)
        assert (when.weekday(), when.hour, when.minute) == (6, 18, 30)
        d = await wait_detail(someone, daily["id"], lambda d: True)
        assert d["preset"] == "quick" and d["format"] == "knockout" and d["log"][0]["by"] is None
        r = await post(someone, daily["id"], "cancel")
        assert r.status_code == 403
        s.stop()
        s.start()  # once per name, however often it looks
        r = await someone.http.get("/api/tournaments?status=upcoming")
        names = [t["name"] for t in r.json()["tournaments"]]
        assert sorted(names) == ["Daily quick knockout", "Sunday Swiss"]
        await someone.aclose()
    finally:
        s.stop()


def test_a_bad_entry_stops_the_server_at_start(tmp_path: Path) -> None:
    path = tmp_path / "system.json"
    path.write_text(json.dumps([ENTRIES[0], {**ENTRIES[1], "rounds": None}]))
    db = f"sqlite+aiosqlite:///{tmp_path / 'x.sqlite3'}"
    cmd = [sys.executable, "-m", "fourhundred.cli", "serve", "--database-url", db]
    out = subprocess.run(
        [*cmd, "--tournaments-file", str(path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode != 0
    assert "entry 1 ('Sunday Swiss')" in out.stderr and "rounds" in out.stderr
