"""Helpers of the moderation tests (``test_security_reports.py``,
``test_security_penalties.py``, ``test_security_moderation.py``): a server
with a low report limit, ``fourhundred admin`` on its database, a count
read straight from that database, a moderator, guests, and a report filed.
Moderators are granted with ``fourhundred admin grant-moderator``."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fh_wire import Account, Databases, Server

REPORT_LIMIT = 3


@contextlib.contextmanager
def moderation_server() -> Iterator[Server]:
    """A SQLite server allowing :data:`REPORT_LIMIT` reports (the
    ``mod_server`` fixture of tests/security/conftest.py)."""
    tmp = Path(tempfile.mkdtemp(prefix="fh-mod-"))
    logs = Path(tempfile.gettempdir()) / "fourhundred-test-logs"
    logs.mkdir(exist_ok=True)
    server = Server(
        Databases(tmp).new("sqlite"),
        extra=["--report-limit", str(REPORT_LIMIT)],
        log_path=logs / "security-moderation.log",
    )
    try:
        yield server.start()
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def admin(server: Server, *args: str) -> subprocess.CompletedProcess[str]:
    """``fourhundred admin ARGS`` on the server's database."""
    return subprocess.run(
        [sys.executable, "-m", "fourhundred.cli", "admin", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "COLUMNS": "200", "FOURHUNDRED_DATABASE_URL": server.database_url},
    )


def count(server: Server, sql: str) -> int:
    path = server.database_url.split(":///", 1)[1]
    with sqlite3.connect(path) as db:
        return int(db.execute(sql).fetchone()[0])


async def moderator(server: Server, name: str) -> Account:
    m = await Account(server.url, name).register("a long enough password")
    done = admin(server, "grant-moderator", name)
    assert done.returncode == 0, done.stderr
    assert "is a moderator" in done.stdout
    return m


async def guests(server: Server, *names: str) -> list[Account]:
    return [await Account(server.url, n).guest() for n in names]


async def file(a: Account, **body: Any) -> Any:
    return await a.http.post("/api/reports", json=body)
