"""``fourhundred admin`` on a database of its own (no server): the role is
granted to registered players only and audited as an operator's; reports,
the server's own among them, are listed; a penalty is written with its
audit entry; every mistake is one line and exit status 2 with nothing
written."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fourhundred.cli import app
from fourhundred.store import Report, Store


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'admin.db'}"

    async def fill() -> None:
        store = await Store.open(url)
        await store.create_user("u_mod", "Maria", 1000, username="maria", password_hash="h")
        await store.create_user("u_guest", "Guest", 1000)
        await store.moderation.file_report(
            Report("r_sys", None, "u_guest", "fair_play", None, None, None, 2000, details={"n": 1})
        )
        await store.close()

    asyncio.run(fill())
    return url


def admin(db: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        app, ["admin", *args, "--database-url", db], terminal_width=200, env={"COLUMNS": "200"}
    )
    return result.exit_code, result.stdout, result.stderr


def penalties(db: str) -> list[tuple[str, str]]:
    async def read() -> list[tuple[str, str]]:
        store = await Store.open(db)
        try:
            return [(p.kind, p.reason) for p in await store.moderation.penalties("u_guest")]
        finally:
            await store.close()

    return asyncio.run(read())


def test_roles_reports_penalties_and_the_audit(db: str) -> None:
    code, out, _ = admin(db, "grant-moderator", "maria")
    assert code == 0 and out.strip() == "Maria is a moderator"
    code, out, _ = admin(db, "grant-moderator", "u_mod")  # by id, again
    assert code == 0 and out.strip() == "Maria is a moderator already"
    code, out, _ = admin(db, "reports")
    assert code == 0 and "(system)" in out and "fair_play" in out and "r_sys" in out
    code, out, _ = admin(db, "penalise", "u_guest", "--kind", "mute", "--reason", "rude")
    assert code == 0 and out.startswith("Guest: mute until ")
    assert penalties(db) == [("mute", "rude")]
    code, out, _ = admin(db, "revoke-moderator", "maria")
    assert code == 0 and out.strip() == "Maria is not a moderator"
    code, out, _ = admin(db, "audit")
    assert code == 0
    rows = [line for line in out.splitlines() if "(operator)" in line]
    assert [r.split("│")[3].strip() for r in rows] == [
        "revoke_moderator",
        "mute",
        "grant_moderator",
    ]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["grant-moderator", "u_guest"], "is a guest"),
        (["grant-moderator", "nobody"], "no user 'nobody'"),
        (["penalise", "u_guest", "--kind", "jail", "--reason", "x"], "--kind 'jail'"),
        (["penalise", "u_guest", "--kind", "warn", "--hours", "2", "--reason", "x"], "--hours"),
        (["penalise", "u_guest", "--kind", "warn", "--reason", " "], "--reason"),
        (["penalise", "u_guest", "--reason", "x"], "--kind: say which"),
        (["penalise", "u_guest", "--kind", "warn"], "--reason"),
        (
            ["penalise", "u_guest", "--kind", "ban", "--reason", "x", "--report", "r_no"],
            "no report",
        ),
        (["reports", "--status", "closed"], "--status 'closed'"),
    ],
)
def test_mistakes_are_one_line_and_write_nothing(db: str, args: list[str], says: str) -> None:
    code, out, err = admin(db, *args)
    assert code == 2, (out, err)
    assert says in err and len(err.strip().splitlines()) == 1
    assert penalties(db) == []
