"""Helpers for the tournament tests over a real server: registered players,
tournaments made through the API, teams entered and checked in, and the
matches played by protocol clients."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from fh_server_helpers import Player, Server, choose

FAST_TARGET = {"target": 11}
"""A short game (the quick preset to 11 points)."""


def uname(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(4)}"


async def registered(server: Server, prefix: str, n: int) -> list[Player]:
    return list(await asyncio.gather(*(Player(server, uname(prefix)).register() for _ in range(n))))


def now_ms() -> int:
    return time.time_ns() // 1_000_000


async def create(
    organiser: Player, *, fmt: str = "knockout", start_in_ms: int = 3_600_000, **kw: Any
) -> dict[str, Any]:
    """A tournament made by ``organiser`` through the API (the answer's body)."""
    body: dict[str, Any] = {
        "name": kw.pop("name", "Cup"),
        "format": fmt,
        "max_teams": kw.pop("max_teams", 16),
        "start_ms": now_ms() + start_in_ms,
        "preset": "quick",
        "settings": FAST_TARGET,
        "timer": 30,
        **kw,
    }
    if fmt == "swiss":
        body.setdefault("rounds", 3)
    r = await organiser.http.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


async def post(p: Player, tid: str, action: str, body: Any = None) -> Any:
    if body is None:
        return await p.http.post(f"/api/tournaments/{tid}/{action}")
    return await p.http.post(f"/api/tournaments/{tid}/{action}", json=body)


async def enter_team(tid: str, a: Player, b: Player, check_in: bool = True) -> str:
    r = await post(a, tid, "enter", {"partner": b.name})
    assert r.status_code == 200, r.text
    team = next(t["id"] for t in r.json()["tournament"]["teams"] if t["players"][0]["id"] == a.id)
    r = await post(b, tid, "accept", {"team": team})
    assert r.status_code == 200, r.text
    if check_in:
        for p in (a, b):
            r = await post(p, tid, "check-in")
            assert r.status_code == 200, r.text
    return team


async def detail(p: Player, tid: str) -> dict[str, Any]:
    r = await p.http.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()["tournament"]
    return out


async def wait_detail(p: Player, tid: str, pred: Any, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        d = await detail(p, tid)
        if pred(d):
            return d
        assert time.monotonic() < deadline, f"tournament {tid} never got there: {d['status']}"
        await asyncio.sleep(0.2)


def table_over(p: Player, table: str, since: int) -> bool:
    """Whether ``p`` saw ``table``'s game end (or the table close) since
    frame ``since``."""
    for f in p.frames[since:]:
        if f.get("table") != table:
            continue
        events = [f["event"]] if f["type"] == "event" else []
        if f["type"] == "catchup":
            events = [e["event"] for e in f["events"]]
        if f["type"] in ("snapshot", "catchup") and f["room"]["status"] in ("over", "closed"):
            return True
        if any(e["kind"] in ("game_over", "closed") for e in events):
            return True
    return False


async def play_own(
    p: Player,
    table: str,
    leave_after: int | None = None,
    hold: tuple[int, asyncio.Event] | None = None,
) -> str:
    """Join ``table``, be ready and play this player's own turns (from its
    view's legal actions) until the game is over; with ``leave_after``,
    leave after that many moves (a bot takes the seat); with ``hold`` =
    (n, gate), wait for ``gate`` before any move after the n-th (a game
    known to be under way, not over, at a moment the test chooses).
    Returns how it ended: ``"over"``, ``"left"`` or ``"closed"`` (not
    started in time)."""
    await p.wait(lambda: table in matched_tables(p), 60)  # the director made it
    since = len(p.frames)
    snap = await p.join(table=table)
    if snap["room"]["status"] == "closed":
        return "closed"
    await p.cmd("ready", ready=True)
    moves = 0
    last = -1
    while not table_over(p, table, since):
        view = p.view
        if p.table == table and view is not None and view.get("legal") and p.version != last:
            if leave_after is not None and moves >= leave_after:
                reply = await p.cmd("leave")
                assert reply["type"] == "ack", reply
                return "left"
            if hold is not None and moves >= hold[0] and not hold[1].is_set():
                await hold[1].wait()
                continue  # the view may have moved on (the timer played)
            last = p.version
            kind, value = choose(view)
            reply = await p.cmd(kind, **{("bid" if kind == "bid" else "card"): value})
            moves += reply["type"] == "ack"
            if reply["type"] == "error" and reply["code"] in ("unavailable", "not_attached"):
                # The table is moving to another process: try again there.
                last = -1
                await asyncio.sleep(0.2)
            continue
        version = p.version
        await p.wait(lambda v=version: table_over(p, table, since) or p.version != v, 60)
    closed = any(
        f["type"] == "event" and f["event"]["kind"] == "closed" and f.get("table") == table
        for f in p.frames[since:]
    )
    return "closed" if closed else "over"


def matched_tables(p: Player) -> list[str]:
    return [f["table"] for f in p.frames if f["type"] == "matched" and f["kind"] == "tournament"]


def record_result(record: dict[str, Any]) -> tuple[int, int, int]:
    """(winning team 0/1, team 0's points, team 1's points), replayed here
    from a game's record with the engine: the test's own reading."""
    from fourhundred.engine import replay_result

    r = replay_result(record)
    s = r["scores"]
    a, b = s[0] + s[2], s[1] + s[3]
    low = min(0, a, b)  # docs/tournaments.md: points are counted from zero
    return r["winner"], a - low, b - low


async def check_against_record(p: Player, match: dict[str, Any]) -> None:
    """A played match's winner and points (as the tournament's detail gives
    them) equal the test's own reading of its game's record."""
    record = (await p.http.get(f"/api/games/{match['table']}/record")).json()
    side, pa, pb = record_result(record)
    assert match["winner"] == (match["a"] if side == 0 else match["b"])
    assert match["points"] == [pa, pb]
