"""Private tables cannot be found without their invite: the code is 128
random bits, a wrong or guessed code and a Private table's id without its
code get the very 404 an unknown one gets, and no listing shows them.

protocol.md promises no limit on wrong guesses over HTTP (with 2^128 codes
none is needed); over the socket every frame counts against the documented
rate limit, which a test below shows holds for join attempts too."""

from __future__ import annotations

import base64
import json
import secrets
import string

from fh_sec import seat_four
from fh_wire import Account, Server

URLSAFE = set(string.ascii_letters + string.digits + "-_")


def _bits(code: str) -> int:
    raw = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    return 8 * len(raw)


async def test_invite_codes_are_128_random_bits(sec_server: Server) -> None:
    host = await Account(sec_server.url, "Inv").guest()
    codes, ids = set(), set()
    try:
        for _ in range(8):
            made = await host.create_table(kind="private")
            code = made["invite"]
            assert set(code) <= URLSAFE and _bits(code) >= 128, code
            assert made["invite_url"] == f"/?invite={code}"
            codes.add(code)
            ids.add(made["table"]["id"])
            # Leave the waiting room (one unfinished table at a time).
            w = await host.wire()
            await w.join(invite=code)
            assert (await w.request("leave"))["type"] == "ack"
            await w.close()
        assert len(codes) == 8 and not codes & ids
        # Not derived from the table id or from each other: every bit varies.
        as_ints = [int.from_bytes(base64.urlsafe_b64decode(c + "=="), "big") for c in codes]
        varying = 0
        for a in as_ints:
            varying |= a ^ as_ints[0]
        assert bin(varying).count("1") >= 100
    finally:
        await host.aclose()


async def test_guesses_and_private_ids_get_the_unknown_404(sec_server: Server) -> None:
    table = await seat_four(sec_server.url, "Priv")
    stranger = await Account(sec_server.url, "Stranger").guest()
    http = stranger.http
    try:
        code = table.invite
        assert code is not None
        unknown = await http.get(f"/api/invites/{secrets.token_urlsafe(16)}")
        assert unknown.status_code == 404
        flipped = code[:-1] + ("A" if code[-1] != "A" else "B")
        for guess in (
            secrets.token_urlsafe(16),
            flipped,
            code[:-1],
            code + "A",
            code.swapcase(),
            "a" * 22,
            "",
            "%2e%2e",
            "x" * 500,
        ):
            r = await http.get(f"/api/invites/{guess}")
            if guess == "":
                assert r.status_code == 404  # /api/invites/ is no endpoint at all
                continue
            assert (r.status_code, r.content) == (404, unknown.content), (guess, r.text)
        # The Private table's id, without the code or with a wrong one, is
        # answered exactly like an id that does not exist.
        missing = await http.get(f"/api/tables/{secrets.token_urlsafe(8)}")
        assert missing.status_code == 404
        for suffix in ("", "?invite=", f"?invite={flipped}", f"?invite={code[:-1]}"):
            r = await http.get(f"/api/tables/{table.id}{suffix}")
            assert (r.status_code, r.content) == (404, missing.content), suffix
            assert r.headers.get("content-length") == missing.headers.get("content-length")
        # With the code, or as one of its players, the table is there.
        assert (await http.get(f"/api/tables/{table.id}?invite={code}")).status_code == 200
        assert (await table.people[1].http.get(f"/api/tables/{table.id}")).status_code == 200
        assert (await http.get(f"/api/invites/{code}")).status_code == 200
        # Over the socket: a wrong code is not found, and so is the id.
        w = await stranger.wire()
        assert (await w.request("join", invite=flipped))["code"] == "not_found"
        assert (await w.request("join", table=table.id))["code"] == "not_found"
        assert (await w.request("bid", bid=4))["code"] == "not_attached"
        await w.close()
    finally:
        await table.aclose()
        await stranger.aclose()


async def test_no_listing_shows_a_private_table(sec_server: Server) -> None:
    playing = await seat_four(sec_server.url, "Hid")
    waiting_host = await Account(sec_server.url, "HidW").guest()
    casual_host = await Account(sec_server.url, "HidC").guest()
    try:
        waiting = await waiting_host.create_table(kind="private")
        casual = await casual_host.create_table(kind="casual")
        secrets_ = {
            playing.id,
            str(playing.invite),
            waiting["table"]["id"],
            waiting["invite"],
        }
        seen_casual = False
        for query in ("", "?status=waiting", "?status=playing", "?status=waiting&limit=200"):
            r = await casual_host.http.get(f"/api/tables{query}")
            assert r.status_code == 200
            text = r.text
            for s in secrets_:
                assert s not in text, (query, s)
            seen_casual |= casual["table"]["id"] in text
        assert seen_casual, "the listing works: the Casual table is listed"
        # A Private table's own summary never carries its invite to anyone
        # who is not at the table, and events never do.
        r = await playing.people[0].http.get(f"/api/tables/{playing.id}")
        assert str(playing.invite) not in r.text
        for w in playing.wires:
            for f in w.frames:
                if f.get("type") == "event":
                    assert "invite" not in json.dumps(f["event"])
    finally:
        await playing.aclose()
        await waiting_host.aclose()
        await casual_host.aclose()


async def test_join_guesses_count_against_the_frame_limit(sec_server: Server) -> None:
    guesser = await Account(sec_server.url, "Guesser").guest()
    try:
        w = await guesser.wire()
        n = len(w.frames)
        for i in range(150):
            if not await w.send(
                json.dumps({"type": "join", "id": i, "invite": secrets.token_urlsafe(16)})
            ):
                break
        await w.wait(
            lambda: sum(f.get("type") == "error" for f in w.frames[n:]) >= 150 or w.closed, 30
        )
        codes = [f["code"] for f in w.frames[n:] if f.get("type") == "error"]
        # A burst of 40 is looked up; beyond the rate (20 a second) guesses
        # are refused unread, and a guesser who keeps on is cut off.
        assert "rate_limited" in codes
        assert set(codes) <= {"not_found", "rate_limited"}
        assert codes.count("not_found") < 100
        if w.closed:
            assert w.close_code == 1008
            assert [f for f in w.frames if f.get("type") == "closing"][-1]["code"] == "abuse"
        await w.close()
    finally:
        await guesser.aclose()
