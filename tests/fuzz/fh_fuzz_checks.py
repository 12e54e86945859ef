"""The fuzz rig's oracle: what it finds wrong (:class:`Violation`), the
fresh snapshots it compares (:class:`Snap`), and :class:`FuzzChecks`, the
base of :class:`fh_fuzz_rig.FuzzRig` that judges every reply (a documented
error code with a message and the frame's id, the code the shot expects,
the documented close), checks after each batch that refused frames changed
nothing the fresh snapshots and the witness can see, and checks that the
server is healthy and the control table still takes moves.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

import httpx
from fh_fuzz_ids import MOVE_EVERY_S, Shot, Spec, ids_allowed
from fh_wire import (
    BAD_KINDS,
    CLOSE_CODES,
    ERROR_CODES,
    Account,
    Outcome,
    Wire,
    comparable,
)


@dataclass
class Violation:
    family: str
    what: str
    frame: str

    def __str__(self) -> str:
        return f"[{self.family}] {self.what} -- frame: {self.frame[:200]!r}"


@dataclass
class Snap:
    """Fresh snapshots of the whole table: one per seat, one for a spectator."""

    seats: list[dict[str, Any]]
    observer: dict[str, Any]

    @property
    def version(self) -> int:
        return int(self.observer["version"])


def _closed_for_abuse(
    wire: Wire, errors: list[dict[str, Any]], closing: list[dict[str, Any]], refusals: int
) -> bool:
    """The socket closed 1008 after exactly ``refusals`` errors and a
    ``closing`` frame for abuse."""
    return (
        len(errors) == refusals
        and bool(closing)
        and closing[-1].get("code") == "abuse"
        and wire.close_code == 1008
    )


class FuzzChecks:
    """The judging half of :class:`fh_fuzz_rig.FuzzRig`: its state is set
    up by ``FuzzRig.__init__``, and the driving it needs (firing a spec,
    fresh snapshots, seating a table, choosing a move) is ``FuzzRig``'s."""

    base_url: str
    control: list[Account]
    control_wires: list[Wire]
    control_table: str
    wires: dict[str, Wire]
    witness: Wire | None
    snap: Snap | None
    outcomes: Counter[str]
    timer_batches: int
    last_move: float
    violations: list[Violation]

    # The driving these checks call: FuzzRig's (fh_fuzz_rig.py).

    async def fire(self, spec: Spec) -> bool:
        raise NotImplementedError

    async def snapshot(self) -> Snap:
        raise NotImplementedError

    async def _seat_table(self, people: list[Account], kind: str) -> tuple[str, list[Wire]]:
        raise NotImplementedError

    def _choose(self, view: dict[str, Any]) -> Any:
        raise NotImplementedError

    # ------------------------------------------------------------ judging

    def _violate(self, family: str, what: str, frame: str | bytes) -> None:
        text = frame if isinstance(frame, str) else repr(frame)
        self.violations.append(Violation(family, what, text))

    async def _judge(self, shot: Shot, outcome: Outcome, wire: Wire) -> None:
        self.outcomes[outcome.label()] += 1
        if outcome.kind == "silent":
            self._violate(shot.family, "no reply and no close within the time allowed", shot.data)
        elif outcome.kind == "error":
            await self._judge_error(shot, outcome.frame or {}, wire)
        elif outcome.kind == "closed":
            self._judge_close(shot, outcome)
        elif shot.expect is not None:
            self._violate(
                shot.family,
                f"got {outcome.kind} {outcome.frame}, expected {sorted(shot.expect)}",
                shot.data,
            )

    async def _judge_error(self, shot: Shot, err: dict[str, Any], wire: Wire) -> None:
        """An error frame: a documented code with a message, the frame's id
        (if it could be read), the code the shot expects, and the close that
        follows when one must."""
        data = shot.data
        code = err.get("code")
        if code not in ERROR_CODES:
            self._violate(shot.family, f"error code {code!r} is not in docs/protocol.md", data)
        if not isinstance(err.get("message"), str) or not err["message"].strip():
            self._violate(shot.family, f"error without a message: {err}", data)
        # A frame refused for its size is not read at all: no id.
        allowed = (None,) if code == "too_large" else ids_allowed(data, shot.binary)
        got = err.get("id")
        if not any(got == a and type(got) is type(a) for a in allowed):
            self._violate(shot.family, f"error id {got!r}, expected {allowed[0]!r}", data)
        if shot.expect is not None and code not in shot.expect:
            self._violate(
                shot.family,
                f"got {code!r} ({err.get('message')}), expected {sorted(shot.expect)}",
                data,
            )
        if shot.close_after_error and code == "too_large":
            await wire.wait(lambda: wire.closed, 15)
            self.outcomes[f"close:{wire.close_code}"] += 1
            if shot.close is not None and wire.close_code not in shot.close:
                self._violate(
                    shot.family,
                    f"after {code!r} the socket closed with {wire.close_code},"
                    f" expected {sorted(shot.close)}",
                    data,
                )

    def _judge_close(self, shot: Shot, outcome: Outcome) -> None:
        """The socket closed: with a documented code the shot allows, and
        after a ``closing`` frame when for abuse."""
        data = shot.data
        if outcome.close_code not in CLOSE_CODES:
            self._violate(
                shot.family, f"close code {outcome.close_code} is not in docs/protocol.md", data
            )
        if shot.close is None or outcome.close_code not in shot.close:
            self._violate(
                shot.family,
                f"socket closed with {outcome.close_code} (closing: {outcome.closing})",
                data,
            )
        elif outcome.close_code == 1008 and outcome.closing is None:
            self._violate(shot.family, "closed for abuse without a `closing` frame", data)

    def _judge_flood(
        self, shot: Shot, wire: Wire, replies: list[dict[str, Any]], sent: int
    ) -> None:
        """Pings beyond the rate are refused ``rate_limited`` (with their
        ids); the 100th refusal closes the socket for abuse."""
        data = shot.frames[0]
        errors = [f for f in replies if f["type"] == "error"]
        closing = [f for f in replies if f["type"] == "closing"]
        bad = [e for e in errors if e.get("code") != "rate_limited"]
        if bad:
            self._violate(shot.family, f"a flood got {bad[0]}", data)
        ids = [e.get("id") for e in errors]
        if any(not isinstance(i, int) for i in ids):
            self._violate(shot.family, "a rate_limited error without the ping's id", data)
        if wire.closed:
            self.outcomes[f"close:{wire.close_code}"] += 1
            if not _closed_for_abuse(wire, errors, closing, 99):
                self._violate(
                    shot.family,
                    f"flood closed with {wire.close_code} after {len(errors)} refusals"
                    f" (closing {closing[-1:]}); expected 99 refusals, `closing` abuse, 1008",
                    data,
                )
            return
        pongs = sum(f["type"] == "pong" for f in replies)
        if pongs + len(errors) != sent or len(errors) >= 100:
            self._violate(shot.family, f"{sent} pings: {pongs} pongs, {len(errors)} refusals", data)

    def _judge_junk(self, shot: Shot, wire: Wire, replies: list[dict[str, Any]]) -> None:
        """The 20th malformed frame closes the socket for abuse."""
        data = shot.frames[0]
        errors = [f for f in replies if f["type"] == "error"]
        closing = [f for f in replies if f["type"] == "closing"]
        self.outcomes[f"close:{wire.close_code}"] += 1
        if not all(e.get("code") in BAD_KINDS for e in errors):
            self._violate(shot.family, f"junk got {[e.get('code') for e in errors]}", data)
        if not _closed_for_abuse(wire, errors, closing, 20):
            self._violate(
                shot.family,
                f"{len(shot.frames)} junk frames: {len(errors)} errors, closing {closing[-1:]},"
                f" close {wire.close_code}; expected 20 errors, `closing` abuse, 1008",
                data,
            )

    # ------------------------------------------------------------- batches

    async def run_batch(self, specs: list[Spec]) -> None:
        """Fire ``specs`` and check that refused frames changed nothing."""
        assert self.snap is not None and self.witness is not None
        before = self.snap
        w_start = len(self.witness.frames)
        moved_at: int | None = None
        for spec in specs:
            if time.monotonic() - self.last_move > MOVE_EVERY_S:
                break  # the turn timer must not run out: time for a move
            if await self.fire(spec):
                ack_versions = self._ack_versions(before.version)
                moved_at = min(ack_versions) if ack_versions else before.version + 1
                break
        witness_events = self._events_since(self.witness, w_start)
        timer = [e for e in witness_events if e["event"].get("by") == "timeout"]
        if moved_at is None and timer and timer[0] is witness_events[0]:
            # The turn timer acted (a slow machine): this batch proves nothing.
            self.timer_batches += 1
            self.last_move = time.monotonic()
            self.snap = await self.snapshot()
            return
        if moved_at is None:
            after = await self.snapshot()
            await self._witness_caught_up()
            witness_events = self._events_since(self.witness, w_start)
            if witness_events:
                seen = [(e["version"], e["event"]) for e in witness_events]
                self._violate("batch", f"refused frames, yet the witness saw events {seen}", "")
            for i in range(4):
                if comparable(after.seats[i]) != comparable(before.seats[i]):
                    self._violate(
                        "batch", f"seat {i}'s state changed though every frame was refused", ""
                    )
            if comparable(after.observer) != comparable(before.observer):
                self._violate(
                    "batch", "the spectator's state changed though every frame was refused", ""
                )
            self.snap = after
        else:
            await self.witness.wait(lambda: self._witness_version() >= moved_at, 10)
            witness_events = self._events_since(self.witness, w_start)
            first = witness_events[0]["version"] if witness_events else None
            if first != before.version + 1 or moved_at != before.version + 1:
                self._violate(
                    "batch",
                    f"accepted at version {moved_at} but the witness's first event is {first}"
                    f" (the table was at {before.version})",
                    "",
                )
            self.last_move = time.monotonic()
            self.snap = await self.snapshot()
            await self._witness_caught_up()
            heard = self._witness_version()
            if self.snap.version != heard:
                self._violate(
                    "batch",
                    f"the table is at {self.snap.version}, the witness heard of {heard}",
                    "",
                )

    def _ack_versions(self, above: int) -> list[int]:
        out = []
        for w in self.wires.values():
            for f in w.frames:
                v = f.get("version")
                if f.get("type") == "ack" and isinstance(v, int) and v > above:
                    out.append(v)
        return out

    async def _witness_caught_up(self) -> None:
        """Every event sent so far has reached the witness. Called once the
        fresh sockets' joins are answered: the table takes commands one at a
        time, so every earlier frame was judged and whatever it made the
        table send the witness is already in the witness's queue; a pong to
        a ping sent now comes after it on the same socket."""
        assert self.witness is not None
        reply = await self.witness.request("ping", timeout=10)
        if reply["type"] != "pong":
            self._violate("batch", f"the witness's ping got {reply}", "")

    @staticmethod
    def _events_since(w: Wire, start: int) -> list[dict[str, Any]]:
        return [f for f in w.frames[start:] if f.get("type") == "event"]

    def _witness_version(self) -> int:
        assert self.witness is not None
        last = self.witness.latest()
        return int(last["version"]) if last else 0

    # ------------------------------------------------------------- health

    async def check_alive(self) -> None:
        """The server is healthy and the control table takes a move."""
        async with httpx.AsyncClient(base_url=self.base_url, timeout=20) as http:
            r = await http.get("/healthz")
            if r.status_code != 200 or r.json().get("ok") is not True:
                self._violate("health", f"/healthz answered {r.status_code} {r.text[:200]}", "")
        views = [w.latest() for w in self.control_wires]
        mover = next(
            (i for i, f in enumerate(views) if f and f.get("view") and f["view"].get("legal")),
            None,
        )
        if mover is None:
            phase = (views[0] or {}).get("view") or {}
            if phase.get("phase") == "over":
                for w in self.control_wires:
                    await w.close()
                self.control_table, self.control_wires = await self._seat_table(
                    self.control, "casual"
                )
                return
            self._violate("control", "no one may move at the control table", "")
            return
        frame = views[mover]
        assert frame is not None
        move = self._choose(frame["view"])
        body = {"bid": move} if isinstance(move, int) else {"card": move}
        w = self.control_wires[mover]
        try:
            reply = await w.request(
                "bid" if isinstance(move, int) else "play", version=frame["version"], **body
            )
        except (TimeoutError, ConnectionError) as e:
            self._violate("control", f"the control table did not answer: {e}", "")
            return
        if reply["type"] != "ack":
            self._violate("control", f"the control table refused a legal move: {reply}", "")
            return
        for other in self.control_wires:
            got = await other.wait(
                lambda other=other: (other.latest() or {}).get("version", 0) >= reply["version"], 10
            )
            if not got:
                self._violate("control", f"{other.name} never heard of the move", "")
