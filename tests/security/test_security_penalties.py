"""Penalties against a real server (issue 14, items 3 and 4): each is
enforced (muted: no chat; suspended or banned: no sitting, no new table, no
queue, no chat, no tournament), with the reason and the end in the refusal;
the escalation's proposals go warn, mute 24 h, suspend 7 days, ban; every
act is in the audit log."""

from __future__ import annotations

import time
from typing import Any

from fh_moderation import count, file, guests, moderator
from fh_server_helpers import Server
from fh_wire import Account, Wire


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
