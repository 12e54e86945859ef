"""Moderators against a real server (issue 14, items 3 and 4): the
moderators' endpoints are 403 for anyone else, granting and revoking the
role with ``fourhundred admin``; their inputs are checked on each database;
the command line lists reports, penalises and shows the audit log. Reports
are in ``test_security_reports.py``, penalties in
``test_security_penalties.py``."""

from __future__ import annotations

import os
from typing import Any

from fh_moderation import admin, count, file, guests, moderator
from fh_server_helpers import Server
from fh_wire import Account

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
