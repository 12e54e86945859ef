"""``server/sockets.py``: one socket per user, sockets by table, mutes."""

from __future__ import annotations

import json
from typing import Any

from fourhundred.server.sockets import Sockets, TableRef, fail_pending


class Table:
    def __init__(self, table_id: str) -> None:
        self.id = table_id
        self.got: list[tuple[str, Any]] = []

    def submit(self, kind: str, watcher: Any = None, msg: Any = None, **kw: Any) -> None:
        self.got.append((kind, watcher))


class Conn:
    def __init__(self, conn_id: str, user_id: str) -> None:
        self.id = conn_id
        self.user_id = user_id
        self.user_name = user_id.upper()
        self.table: TableRef | None = None
        self.table_id: str | None = None
        self.via_invite = False
        self.last_version = 0
        self.pending: set[int | str] = set()
        self.frames_in = 0
        self.sent: list[dict[str, Any]] = []
        self.closed: tuple[int, str] | None = None

    def send(self, data: bytes) -> None:
        self.sent.append(json.loads(data))

    def close(self, code: int, reason: str, message: str) -> None:
        self.closed = (code, reason)


def test_a_second_socket_of_a_user_takes_over() -> None:
    s = Sockets()
    first, second = Conn("c1", "u"), Conn("c2", "u")
    s.register(first)
    s.register(second)
    assert first.closed == (4000, "replaced") and second.closed is None
    assert s.peers["u"] is second
    s.unregister(first)  # the old socket's own goodbye must not drop the new one
    assert s.peers["u"] is second and "c1" not in s.conns


def test_sockets_by_table_follow_attach_and_detach() -> None:
    s = Sockets()
    a, b = Conn("c1", "u1"), Conn("c2", "u2")
    t1, t2 = Table("t1"), Table("t2")
    for c in (a, b):
        s.register(c)
        s.attach(c, "t1", t1, via_invite=False)
    assert set(s.at("t1")) == {a, b}
    s.attach(a, "t2", t2, via_invite=True)
    assert t1.got == [("detach", a)], "leaving a table tells it"
    assert s.at("t1") == [b] and s.at("t2") == [a] and a.via_invite
    s.unregister(b)
    assert t1.got[-1] == ("detach", b) and "t1" not in s.attached
    assert b.table is None and b.table_id is None


def test_notify_and_replace_reach_only_the_users_current_socket() -> None:
    s = Sockets()
    old, new = Conn("c1", "u"), Conn("c2", "u")
    s.register(old)
    s.register(new)
    s.notify("u", {"type": "matched", "table": "t"})
    s.notify("nobody", {"type": "matched", "table": "t"})
    assert new.sent == [{"type": "matched", "table": "t"}] and old.sent == []
    s.replace_conn("u", "c1")  # already gone from the registry: nothing happens
    s.replace_conn("other-user", "c2")  # not their socket: nothing happens
    assert new.closed is None
    s.replace_conn("u", "c2")
    assert new.closed == (4000, "replaced")


def test_mutes() -> None:
    s = Sockets()
    s.mute("u", "x", True)
    s.mute("u", "y", True)
    s.mute("u", "x", False)
    assert set(s.muted_by("u")) == {"y"} and set(s.muted_by("v")) == set()
    s.set_mutes("u", ["z"])
    assert set(s.muted_by("u")) == {"z"}


def test_unanswered_commands_are_answered_unavailable() -> None:
    c = Conn("c1", "u")
    c.pending |= {3, "a"}
    fail_pending(c)
    assert sorted(str(f["id"]) for f in c.sent) == ["3", "a"]
    assert {f["code"] for f in c.sent} == {"unavailable"} and not c.pending


def _chat(sender: str, text: str) -> bytes:
    from fourhundred.server import frames

    line = frames.ChatFrame(
        table="t1", channel="table", from_={"id": sender, "name": sender}, text=text, at_ms=1
    )
    return frames.encode(line)


def test_forwarded_frames_note_versions_and_answers_and_skip_other_tables() -> None:
    s = Sockets()
    y = Conn("c1", "y")
    s.register(y)
    s.attach(y, "t1", Table("t1"), via_invite=False)
    y.pending.add(7)
    s.forward("c1", "t1", b'{"type":"event","version":12}')
    s.forward("c1", "t1", b'{"type":"ack","id":7}')
    s.forward("c1", "t2", b'{"type":"event","version":99}')  # moved on
    s.forward("gone", "t1", b'{"type":"event","version":99}')
    assert y.last_version == 12 and not y.pending
    assert [f["type"] for f in y.sent] == ["event", "ack"]


def test_forwarded_chat_from_a_blocked_or_muted_sender_is_dropped_at_once() -> None:
    # The table's owner (another process) learns of a block a moment after
    # the reader's process acknowledged it; this process filters meanwhile.
    s = Sockets()
    y = Conn("c1", "y")
    s.register(y)
    s.attach(y, "t1", Table("t1"), via_invite=False)
    s.block("y", "x", True)
    s.mute("y", "z", True)
    for sender in ("x", "z", "w"):
        s.forward("c1", "t1", _chat(sender, f"from {sender}"))
    assert [f["text"] for f in y.sent] == ["from w"]
    s.block("y", "x", False)
    s.forward("c1", "t1", _chat("x", "again"))
    assert y.sent[-1]["text"] == "again"
