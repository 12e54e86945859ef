"""Reports and moderation (issue 14, items 3 and 4) against a real server:
a report's bad input changes nothing and the report limit answers 429; the
moderators' endpoints are 403 for anyone else; each penalty is enforced
(muted: no chat; suspended or banned: no sitting, no new table, no queue,
no chat), with the reason and the end in the refusal; the escalation's
proposals go warn, mute 24 h, suspend 7 days, ban; every act is in the
audit log; a report's detail has the chat around its moment as said.
Moderators are granted with ``fourhundred admin grant-moderator``."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fh_sec import seat_four
from fh_server_helpers import Server
from fh_wire import Account, Databases, Wire

REPORT_LIMIT = 3


@pytest.fixture(scope="module")
def mod_server() -> Iterator[Server]:
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


# ------------------------------------------------------------------ reports


async def test_a_report_with_bad_input_changes_nothing(mod_server: Server) -> None:
    alice, bob = await guests(mod_server, "Alice", "Bob")
    before = count(mod_server, "SELECT count(*) FROM reports")
    bad: list[tuple[Any, int, str | None]] = [
        ({"user": bob.id}, 422, "reason"),
        ({"user": bob.id, "reason": "rude"}, 422, "reason"),
        ({"user": alice.id, "reason": "other"}, 422, "user"),
        ({"user": "u_nobody", "reason": "other"}, 404, "user"),
        ({"user": bob.id, "reason": "other", "table": "t_nowhere"}, 404, "table"),
        ({"user": bob.id, "reason": "other", "version": 3}, 422, "version"),
        ({"user": bob.id, "reason": "other", "note": "x" * 501}, 422, "note"),
        ({"user": bob.id, "reason": "other", "version": -1, "table": "t"}, 422, "version"),
        ({"user": bob.id, "reason": "other", "extra": 1}, 422, "extra"),
        ({"user": "x" * 40, "reason": "other"}, 422, "user"),
        ([], 422, None),
    ]
    for body, status, field in bad:
        r = await alice.http.post("/api/reports", json=body)
        assert r.status_code == status, (body, r.text)
        error = r.json()["error"]
        if field is not None:
            assert error.get("field") == field, (body, error)
    r = await alice.http.post(
        "/api/reports", content=b"{", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400
    anonymous = Account(mod_server.url, "Nobody")
    assert (await file(anonymous, user=bob.id, reason="other")).status_code == 401
    assert count(mod_server, "SELECT count(*) FROM reports") == before
    # Refusals spend none of the limit: the whole budget is still there.
    for _ in range(REPORT_LIMIT):
        assert (await file(alice, user=bob.id, reason="other")).status_code == 201
    for a in (alice, bob, anonymous):
        await a.aclose()


async def test_the_report_limit_answers_429_and_files_nothing(mod_server: Server) -> None:
    carol, dan = await guests(mod_server, "Carol", "Dan")
    for i in range(REPORT_LIMIT):
        r = await file(carol, user=dan.id, reason="chat_abuse", note=f"line {i}")
        assert r.status_code == 201, r.text
        assert r.json()["report"]["status"] == "open"
    before = count(mod_server, "SELECT count(*) FROM reports")
    r = await file(carol, user=dan.id, reason="chat_abuse")
    assert r.status_code == 429
    assert int(r.headers["retry-after"]) >= 1
    assert r.json()["error"]["code"] == "rate_limited"
    assert count(mod_server, "SELECT count(*) FROM reports") == before
    # Dan's own budget is his.
    assert (await file(dan, user=carol.id, reason="other")).status_code == 201
    await carol.aclose()
    await dan.aclose()


# --------------------------------------------------------------- moderators


async def test_moderator_endpoints_refuse_everyone_else(mod_server: Server) -> None:
    (eve,) = await guests(mod_server, "Eve")
    reg = await Account(mod_server.url, "plainplayer").register("a long enough password")
    anonymous = Account(mod_server.url, "Anon")
    calls = [
        ("GET", "/api/mod/reports", None),
        ("GET", "/api/mod/reports/r_x", None),
        ("POST", "/api/mod/reports/r_x/resolve", {"resolution": "fine"}),
        ("POST", f"/api/mod/users/{reg.id}/actions", {"kind": "ban", "reason": "no"}),
        ("GET", "/api/mod/audit", None),
    ]
    penalties = count(mod_server, "SELECT count(*) FROM penalties")
    for who, status in ((eve, 403), (reg, 403), (anonymous, 401)):
        for method, path, body in calls:
            r = await who.http.request(method, path, json=body)
            assert r.status_code == status, (who.name, path, r.text)
    assert count(mod_server, "SELECT count(*) FROM penalties") == penalties
    # A guest cannot be made a moderator; an unknown user is named.
    done = admin(mod_server, "grant-moderator", eve.id)
    assert done.returncode == 2 and "guest" in done.stderr
    done = admin(mod_server, "grant-moderator", "nobody-at-all")
    assert done.returncode == 2 and "no user 'nobody-at-all'" in done.stderr
    # Revoked, a moderator is refused again.
    mod = await moderator(mod_server, "brieflymod")
    assert (await mod.http.get("/api/mod/reports")).status_code == 200
    assert (await mod.http.get("/api/me/standing")).json()["moderator"] is True
    done = admin(mod_server, "revoke-moderator", "brieflymod")
    assert done.returncode == 0 and "not a moderator" in done.stdout
    assert (await mod.http.get("/api/mod/reports")).status_code == 403
    for a in (eve, reg, anonymous, mod):
        await a.aclose()


async def _act(mod: Account, user: str, **body: Any) -> dict[str, Any]:
    r = await mod.http.post(f"/api/mod/users/{user}/actions", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


async def _bad_actions_change_nothing(mod_server: Server, mod: Account, frank: str) -> None:
    before = count(mod_server, "SELECT count(*) FROM penalties")
    for body, status in (
        ({"kind": "jail", "reason": "x"}, 422),
        ({"kind": "warn", "reason": ""}, 422),
        ({"kind": "warn", "reason": "x", "hours": 2}, 422),
        ({"kind": "mute", "reason": "x", "hours": 0}, 422),
        ({"kind": "mute", "reason": "x", "report": "r_none"}, 404),
    ):
        r = await mod.http.post(f"/api/mod/users/{frank}/actions", json=body)
        assert r.status_code == status, (body, r.text)
    r = await mod.http.post("/api/mod/users/u_nobody/actions", json={"kind": "warn", "reason": "x"})
    assert r.status_code == 404
    r = await mod.http.post(
        f"/api/mod/users/{mod.id}/actions", json={"kind": "warn", "reason": "x"}
    )
    assert r.status_code == 422
    assert count(mod_server, "SELECT count(*) FROM penalties") == before


async def _barred(fw: Wire, who: Account, code: str, reason: str) -> None:
    """``who`` may neither sit, chat, open a table nor queue: ``code``."""
    reply = await fw.request("sit", seat=2)
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert reason in reply["message"]
    if code == "suspended":
        assert "suspended until" in reply["message"]
    reply = await fw.request("chat", text="hi")
    assert reply["code"] == code
    reply = await fw.request("tournament_chat", tournament="any", text="hi")
    assert reply["code"] == code
    r = await who.http.post("/api/tables", json={"kind": "casual"})
    assert r.status_code == 403 and r.json()["error"]["code"] == code
    r = await who.http.post("/api/queue")
    assert r.status_code == 403 and r.json()["error"]["code"] == code


async def _no_chat(fw: Wire, code: str, reason: str) -> None:
    """Neither a table's chat nor a tournament's: ``code``, why, until when."""
    reply = await fw.request("chat", text="can I talk?")
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert "until" in reply["message"] and reason in reply["message"]
    reply = await fw.request("tournament_chat", tournament="any", text="can I talk here?")
    assert reply["type"] == "error" and reply["code"] == code, reply


async def _resolved_and_audited(mod: Account, frank: str, report: str) -> None:
    r = await mod.http.post(f"/api/mod/reports/{report}/resolve", json={"resolution": "banned"})
    assert r.status_code == 200
    r = await mod.http.post(f"/api/mod/reports/{report}/resolve", json={"resolution": "again"})
    assert r.status_code == 409
    entries = (await mod.http.get("/api/mod/audit")).json()["entries"]
    mine = [e for e in entries if (e["target"] or {}).get("id") == frank]
    assert [e["action"] for e in mine] == ["resolve", "ban", "suspend", "mute", "warn"]
    assert all(e["moderator"]["id"] == mod.id for e in mine)
    assert mine[-1]["report"] == report
    detail = (await mod.http.get(f"/api/mod/reports/{report}")).json()
    assert detail["report"]["status"] == "resolved"
    assert [p["kind"] for p in detail["history"]["penalties"]] == ["ban", "suspend", "mute", "warn"]


async def test_penalties_are_enforced_escalate_and_are_audited(mod_server: Server) -> None:
    mod = await moderator(mod_server, "moddy")
    frank, gina = await guests(mod_server, "Frank", "Gina")
    made = await gina.create_table(kind="casual")
    table = made["table"]["id"]
    fw = await frank.wire()
    await fw.join(table=table)
    assert (await fw.request("chat", text="hello"))["type"] == "ack"

    # A report with its moment, then its detail.
    r = await file(gina, user=frank.id, reason="chat_abuse", table=table, version=1, note="rude")
    report = r.json()["report"]["id"]
    detail = (await mod.http.get(f"/api/mod/reports/{report}")).json()
    assert detail["report"]["reported"]["id"] == frank.id
    assert detail["report"]["reporter"]["id"] == gina.id
    assert detail["proposal"] == {"kind": "warn", "hours": None}
    assert detail["game"]["id"] == table
    listed = (await mod.http.get("/api/mod/reports?status=open")).json()["reports"]
    assert report in [x["id"] for x in listed]

    await _bad_actions_change_nothing(mod_server, mod, frank.id)

    # warn -> mute 24 h -> suspend 7 days -> ban, each proposed in turn.
    out = await _act(mod, frank.id, kind="warn", reason="mind your words", report=report)
    assert out["proposal"] == {"kind": "mute", "hours": 24}
    # Told at once, on the socket.
    assert await fw.wait(lambda: any(f.get("type") == "standing" for f in fw.frames), 10)
    assert [f for f in fw.frames if f.get("type") == "standing"] == [
        {"type": "standing", "kind": "warn"}
    ]
    standing = (await frank.http.get("/api/me/standing")).json()
    assert standing["warning"]["reason"] == "mind your words"
    assert standing["penalty"] is None
    assert (await fw.request("chat", text="still here"))["type"] == "ack"

    out = await _act(mod, frank.id, kind="mute", hours=24, reason="abuse in chat")
    assert out["proposal"] == {"kind": "suspend", "hours": 168}
    until = out["penalty"]["until_ms"]
    await _no_chat(fw, "muted", "abuse in chat")
    standing = (await frank.http.get("/api/me/standing")).json()
    assert standing["penalty"] == {"kind": "mute", "until_ms": until, "reason": "abuse in chat"}
    # Muted, one may still sit and play.
    assert (await fw.request("sit", seat=1))["type"] == "ack"
    assert (await fw.request("leave"))["type"] == "ack"

    out = await _act(mod, frank.id, kind="suspend", reason="cards shared")
    assert out["proposal"] == {"kind": "ban", "hours": None}
    assert out["penalty"]["until_ms"] - out["penalty"]["created_ms"] == 168 * 3600 * 1000
    await _barred(fw, frank, "suspended", "cards shared")
    snapshot = await fw.join(table=table)
    assert all((s.get("user") or {}).get("id") != frank.id for s in snapshot["room"]["seats"])

    out = await _act(mod, frank.id, kind="ban", reason="again and again")
    assert out["penalty"]["until_ms"] is None
    assert out["proposal"] == {"kind": "ban", "hours": None}
    await _barred(fw, frank, "banned", "again and again")
    standing = (await frank.http.get("/api/me/standing")).json()
    assert standing["penalty"] == {"kind": "ban", "until_ms": None, "reason": "again and again"}

    await _resolved_and_audited(mod, frank.id, report)
    await fw.close()
    for a in (mod, frank, gina):
        await a.aclose()


async def test_the_report_shows_the_chat_around_its_moment_as_said(mod_server: Server) -> None:
    mod = await moderator(mod_server, "chatmod")
    hana, ivan = await guests(mod_server, "Hana", "Ivan")
    made = await hana.create_table(kind="casual")
    table = made["table"]["id"]
    hw, iw = await hana.wire(), await ivan.wire()
    await hw.join(table=table)
    await iw.join(table=table)
    assert (await iw.request("chat", text="you are a shit player"))["type"] == "ack"
    assert (await hw.request("chat", text="be nice"))["type"] == "ack"
    version = (iw.latest() or {}).get("version", 1)
    r = await file(hana, user=ivan.id, reason="chat_abuse", table=table, version=version)
    report = r.json()["report"]["id"]
    detail: dict[str, Any] = {}
    for _ in range(50):  # the chat log is written behind the table
        detail = (await mod.http.get(f"/api/mod/reports/{report}")).json()
        if len(detail["chat"]) == 2:
            break
        await asyncio.sleep(0.1)
    said = [(c["name"], c["text"]) for c in detail["chat"]]
    assert said == [("Ivan", "you are a shit player"), ("Hana", "be nice")]
    await hw.close()
    await iw.close()
    for a in (mod, hana, ivan):
        await a.aclose()


async def test_the_command_line_lists_penalises_and_audits(mod_server: Server) -> None:
    jack, kim = await guests(mod_server, "Jack", "Kim")
    assert (
        await file(jack, user=kim.id, reason="leaving", note="left three games")
    ).status_code == 201
    done = admin(mod_server, "reports")
    assert done.returncode == 0, done.stderr
    assert "left three games" in done.stdout and "leaving" in done.stdout
    done = admin(
        mod_server, "penalise", kim.id, "--kind", "suspend", "--hours", "2", "--reason", "quits"
    )
    assert done.returncode == 0, done.stderr
    assert "Kim: suspend until" in done.stdout
    r = await kim.http.post("/api/tables", json={"kind": "casual"})
    assert r.status_code == 403 and "quits" in r.json()["error"]["message"]
    for bad, says in (
        (["penalise", kim.id, "--kind", "jail", "--reason", "x"], "--kind"),
        (["penalise", kim.id, "--kind", "ban", "--hours", "3", "--reason", "x"], "--hours"),
        (["penalise", kim.id, "--kind", "warn", "--reason", "  "], "--reason"),
        (["penalise", "nobody-here", "--kind", "warn", "--reason", "x"], "no user"),
        (["reports", "--status", "closed"], "--status"),
    ):
        before = count(mod_server, "SELECT count(*) FROM penalties")
        done = admin(mod_server, *bad)
        assert done.returncode == 2, (bad, done.stdout, done.stderr)
        assert says in done.stderr
        assert count(mod_server, "SELECT count(*) FROM penalties") == before
    done = admin(mod_server, "audit")
    assert done.returncode == 0, done.stderr
    assert "(operator)" in done.stdout and "suspend" in done.stdout and "Kim" in done.stdout
    await jack.aclose()
    await kim.aclose()


async def test_a_moderator_sees_a_running_game_face_up(mod_server: Server) -> None:
    """Only a moderator gets every hand of a game still in play."""
    mod = await moderator(mod_server, "gamemod")
    table = await seat_four(mod_server.url, "Run")
    reporter, reported = table.people[0], table.people[1]
    r = await file(reporter, user=reported.id, reason="cards_shared", table=table.id, version=3)
    report = r.json()["report"]["id"]
    detail = (await mod.http.get(f"/api/mod/reports/{report}")).json()
    game = detail["game"]
    assert game["status"] == "playing" and "replay_url" not in game
    deal = game["record"]["hands"][-1]["deal"]
    assert [len(cards) for cards in deal] == [13, 13, 13, 13]
    assert [s["id"] for s in game["seats"]] == [p.id for p in table.people]
    # The same report is nothing to its players.
    assert (await reporter.http.get(f"/api/mod/reports/{report}")).status_code == 403
    await table.aclose()
    await mod.aclose()


async def test_moderator_inputs_are_checked_on_each_database(any_db_server: Server) -> None:
    """Bad queries, ids and bodies to the moderators' endpoints are 4xx
    naming the problem (SQLite and PostgreSQL alike, NUL bytes included),
    and change nothing."""
    server = any_db_server
    mod = await moderator(server, f"inputmod{os.getpid()}")
    (who,) = await guests(server, "Target")
    http = mod.http
    for path, field in (
        ("/api/mod/reports?status=closed", "status"),
        ("/api/mod/reports?limit=0", "limit"),
        ("/api/mod/reports?limit=x", "limit"),
        ("/api/mod/audit?limit=501", "limit"),
        ("/api/mod/audit?before=x", "before"),
    ):
        r = await http.get(path)
        assert r.status_code == 422 and r.json()["error"]["field"] == field, (path, r.text)
    for path in ("/api/mod/reports/r%00x", "/api/mod/reports/" + "x" * 300):
        assert (await http.get(path)).status_code == 404
    r = await http.post("/api/mod/users/u%00x/actions", json={"kind": "warn", "reason": "x"})
    assert r.status_code == 404
    r = await http.post("/api/mod/reports/r%00x/resolve", json={"resolution": "x"})
    assert r.status_code == 404
    bad_bodies: list[tuple[Any, int]] = [
        ({}, 422),
        ({"kind": "warn"}, 422),
        ({"kind": "warn", "reason": "x" * 501}, 422),
        ({"kind": "warn", "reason": "x", "report": "r\x00"}, 404),
        ({"kind": "mute", "reason": "x", "hours": 87601}, 422),
        ([1, 2], 422),
    ]
    for body, status in bad_bodies:
        r = await http.post(f"/api/mod/users/{who.id}/actions", json=body)
        assert r.status_code == status, (body, r.text)
    r = await who.http.post("/api/reports", json={"user": "u\x00x", "reason": "other"})
    assert r.status_code == 404
    assert (await who.http.get("/api/me/standing")).json() == {
        "penalty": None,
        "warning": None,
        "moderator": False,
    }
    await mod.aclose()
    await who.aclose()


async def test_a_suspended_player_may_not_create_enter_or_check_in_to_tournaments(
    mod_server: Server,
) -> None:
    mod = await moderator(mod_server, "tourmod")
    org = await Account(mod_server.url, "tourorg").register("a long enough password")
    sam = await Account(mod_server.url, "suspsam").register("a long enough password")
    start = {"name": "Cup", "format": "knockout", "max_teams": 4}
    r = await org.http.post(
        "/api/tournaments", json={**start, "start_ms": int(time.time() * 1000) + 3_600_000}
    )
    assert r.status_code == 201, r.text
    tid = r.json()["tournament"]["id"]
    # Entered alone before the suspension: withdrawing stays possible.
    assert (
        await sam.http.post(f"/api/tournaments/{tid}/enter", json={"solo": True})
    ).status_code == 200
    await _act(mod, sam.id, kind="suspend", hours=1, reason="cards shared")
    before = count(mod_server, "SELECT count(*) FROM tournaments")
    for path, body in (
        ("/api/tournaments", {**start, "start_ms": int(time.time() * 1000) + 3_600_000}),
        (f"/api/tournaments/{tid}/check-in", None),
    ):
        r = await sam.http.post(path, json=body) if body else await sam.http.post(path)
        assert r.status_code == 403 and r.json()["error"]["code"] == "suspended", r.text
        assert "cards shared" in r.json()["error"]["message"]
    assert count(mod_server, "SELECT count(*) FROM tournaments") == before
    assert (await sam.http.post(f"/api/tournaments/{tid}/withdraw")).status_code == 200
    r = await sam.http.post(f"/api/tournaments/{tid}/enter", json={"solo": True})
    assert r.status_code == 403 and r.json()["error"]["code"] == "suspended"
    detail = (await org.http.get(f"/api/tournaments/{tid}")).json()["tournament"]
    assert detail["solos"] == []
    for a in (mod, org, sam):
        await a.aclose()
