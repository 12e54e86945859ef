"""Operations: health, Prometheus metrics, the static client, the command line."""

from __future__ import annotations

from pathlib import Path

import httpx
from fh_server_helpers import Server, play_turns
from test_server_game import seat_four
from typer.testing import CliRunner, Result


async def test_healthz_and_metrics(server: Server) -> None:
    players, _, _ = await seat_four(server, kind="casual")
    await play_turns(players, lambda: players[0].version >= 12)
    async with httpx.AsyncClient(base_url=server.url) as c:
        r = await c.get("/healthz")
        assert r.status_code == 200 and r.json()["ok"] is True
        text = (await c.get("/metrics")).text
    for name in (
        "fourhundred_tables{",
        "fourhundred_sockets ",
        'fourhundred_actions_total{by="player",kind="bid"}',
        "fourhundred_timeouts_total",
        "fourhundred_command_seconds_bucket",
        "fourhundred_bot_seconds_bucket",
        "fourhundred_ws_errors_total",
    ):
        assert name in text, name
    sockets = next(
        float(line.split()[1])
        for line in text.splitlines()
        if line.startswith("fourhundred_sockets ")
    )
    assert sockets >= 4
    for p in players:
        await p.aclose()


async def test_static_client_and_unknown_paths(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        r = await c.get("/")
        assert r.status_code in (200, 404)  # the browser client may not be built yet
        r = await c.get("/no/such/file.js")
        assert r.status_code == 404


def _db(*args: str) -> Result:
    # In-process: the same command a user runs, without a new interpreter.
    from fourhundred.cli import app

    return CliRunner().invoke(app, ["db", *args])


def test_db_upgrade_and_bad_urls(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    out = _db("upgrade", "--database-url", url)
    assert out.exit_code == 0, out.output
    from fourhundred.store import head_revision

    head = head_revision()
    assert head == "v0009"  # every migration, in order
    assert f"at revision {head}" in out.stdout
    out = _db("current", "--database-url", url)
    assert out.exit_code == 0 and f"current {head}; head {head}" in out.stdout
    out = _db("upgrade", "--database-url", "mysql://x/y")
    assert out.exit_code == 1 and "unsupported database" in out.stderr
    out = _db("upgrade", "--database-url", "postgresql://nobody@127.0.0.1:1/none")
    assert out.exit_code == 1 and "cannot reach the database" in out.stderr
