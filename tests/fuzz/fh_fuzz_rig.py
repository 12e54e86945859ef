"""The fuzz rig's driving half: :class:`FuzzRig` keeps a Private table of
four guests in play, a spectator, an outsider, a silent witness and a
control table; it opens the fresh sockets, aims and fires each spec (the
judging is :class:`fh_fuzz_checks.FuzzChecks`'s), and makes legal moves
between batches. :class:`RigLoop` runs it on an event loop of its own, for
plain (synchronous) test functions.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Coroutine
from typing import Any, TypeVar

from fh_fuzz_checks import FuzzChecks, Snap, Violation
from fh_fuzz_ids import (
    MAX_FRAME,
    MOVE_EVERY_S,
    PER_WIRE_BAD,
    PER_WIRE_FRAMES,
    Ctx,
    Shot,
    Spec,
    readable_id,
)
from fh_wire import BAD_KINDS, CARD_NAMES, ERROR_CODES, Account, Wire

from fourhundred.bots import make_bot
from fourhundred.bots.protocol import view_from_dict
from fourhundred.engine import BID_BASE

T = TypeVar("T")


class FuzzRig(FuzzChecks):
    """A live Private table under fire, and a control table beside it."""

    def __init__(self, base_url: str, seed: int = 0, *, target: int = 11) -> None:
        self.base_url = base_url
        self.rng = random.Random(seed)
        self.target = target
        self.seats: list[Account] = []
        self.spectator: Account | None = None
        self.outsider: Account | None = None
        self.observer: Account | None = None
        self.witness_account: Account | None = None
        self.control: list[Account] = []
        self.control_wires: list[Wire] = []
        self.control_table = ""
        self.table = ""
        self.invite = ""
        self.wires: dict[str, Wire] = {}
        self.witness: Wire | None = None
        self.snap: Snap | None = None
        self.outcomes: Counter[str] = Counter()
        self.families: Counter[str] = Counter()
        self.family_frames: Counter[str] = Counter()
        self.family_seconds: Counter[str] = Counter()
        self.timer_batches = 0
        """Batches whose check was void because the turn timer ran out."""
        self.last_move = time.monotonic()
        self.frames_sent = 0
        self.accepted = 0
        self.violations: list[Violation] = []
        self.tables_played = 0
        self.moves = 0
        self._bot = make_bot("heuristic", seed=seed)
        self._sent: dict[str, int] = {}
        self._bad: dict[str, int] = {}

    # ------------------------------------------------------------- set-up

    async def start(self) -> None:
        tag = f"{self.rng.getrandbits(24):06x}"
        self.seats = [await Account(self.base_url, f"F{tag}s{i}").guest() for i in range(4)]
        self.spectator = await Account(self.base_url, f"F{tag}spec").guest()
        self.outsider = await Account(self.base_url, f"F{tag}out").guest()
        self.observer = await Account(self.base_url, f"F{tag}obs").guest()
        self.witness_account = await Account(self.base_url, f"F{tag}wit").guest()
        self.control = [await Account(self.base_url, f"F{tag}c{i}").guest() for i in range(4)]
        self.control_table, self.control_wires = await self._seat_table(self.control, "casual")
        await self.new_table()

    async def _seat_table(self, people: list[Account], kind: str) -> tuple[str, list[Wire]]:
        made = await people[0].create_table(
            kind=kind, preset="standard", settings={"target": self.target}, timer=90
        )
        table = made["table"]["id"]
        invite = made.get("invite")
        wires = []
        for i, person in enumerate(people):
            w = await person.wire()
            if invite is not None:
                await w.join(invite=invite)
            else:
                await w.join(table=table)
            if i > 0:
                reply = await w.request("sit", seat=i)
                assert reply["type"] == "ack", reply
            wires.append(w)
        for w in wires:
            reply = await w.request("ready", ready=True)
            assert reply["type"] == "ack", reply
        if invite is not None:
            self.invite = invite
        return table, wires

    async def new_table(self) -> None:
        """A fresh Private table of the four fuzzed guests, in play."""
        for w in self.wires.values():
            await w.close()
        self.wires.clear()
        if self.witness is not None:
            await self.witness.close()
        self.table, wires = await self._seat_table(self.seats, "private")
        for w in wires:
            await w.close()
        assert self.witness_account is not None
        self.witness = await self.witness_account.wire()
        await self.witness.join(invite=self.invite)
        self.tables_played += 1
        self.last_move = time.monotonic()
        self.snap = await self.snapshot()

    async def stop(self) -> None:
        for w in [*self.wires.values(), *self.control_wires]:
            await w.close()
        if self.witness is not None:
            await self.witness.close()
        for a in [*self.seats, *self.control]:
            await a.aclose()
        for acct in (self.spectator, self.outsider, self.observer, self.witness_account):
            if acct is not None:
                await acct.aclose()

    # ---------------------------------------------------------- snapshots

    async def _fresh(self, name: str) -> Wire:
        """A new socket for ``name`` (replacing its old one), attached as
        it should be: seats and the spectator join the table."""
        old = self.wires.pop(name, None)
        if old is not None:
            await old.close()
        acct = self._account(name)
        wire = await acct.wire()
        if name != "outsider":
            await wire.join(invite=self.invite)
        self.wires[name] = wire
        self._sent[name] = 0
        self._bad[name] = 0
        return wire

    def _account(self, name: str) -> Account:
        if name.startswith("seat"):
            return self.seats[int(name[-1])]
        acct = {"spectator": self.spectator, "outsider": self.outsider}[name]
        assert acct is not None
        return acct

    async def snapshot(self) -> Snap:
        """Fresh sockets for every seat, the spectator and the outsider (the
        next batch fires from them) and a fresh observer; their snapshots.
        The sockets open side by side: this is most of the harness's time."""
        names = [f"seat{i}" for i in range(4)] + ["spectator", "outsider"]
        assert self.observer is not None
        observer = self.observer

        async def observe() -> dict[str, Any]:
            obs = await observer.wire()
            try:
                return await obs.join(invite=self.invite)
            finally:
                await obs.close()

        *wires, snap = await asyncio.gather(*(self._fresh(n) for n in names), observe())
        assert isinstance(snap, dict)
        return Snap([self._sync_of(w) for w in wires[:4]], snap)

    @staticmethod
    def _sync_of(w: Wire) -> dict[str, Any]:
        sync = w.latest("snapshot", "catchup")
        assert sync is not None
        return sync

    def ctx(self) -> Ctx:
        assert self.snap is not None
        obs = self.snap.observer
        view = obs.get("view") or {}
        room = obs.get("room") or {}
        host = room.get("host")
        host_seat = next(
            (s["seat"] for s in room.get("seats", []) if s.get("user") and s["user"]["id"] == host),
            None,
        )
        return Ctx(
            table=self.table,
            invite=self.invite,
            version=self.snap.version,
            phase=view.get("phase"),
            turn=view.get("turn"),
            host_seat=host_seat,
            views=[s.get("view") for s in self.snap.seats],
            wires=self.wires,
            rng=self.rng,
        )

    # ------------------------------------------------------------- firing

    async def _wire_for(self, shot: Shot, cost: int) -> Wire:
        name = shot.sender
        wire = self.wires.get(name)
        if (
            wire is None
            or wire.closed
            or shot.fresh
            or self._sent.get(name, 0) + cost > PER_WIRE_FRAMES
            or self._bad.get(name, 0) + cost > PER_WIRE_BAD
        ):
            wire = await self._fresh(name)
        return wire

    async def fire(self, spec: Spec) -> bool:
        """Aim and fire one spec; True if a game command was accepted
        (the table moved on)."""
        t0 = time.monotonic()
        try:
            return await self._fire(spec)
        finally:
            self.family_seconds[spec.family] += time.monotonic() - t0

    async def _fire(self, spec: Spec) -> bool:
        shot = spec.aim(self.ctx())
        self.families[shot.family] += 1
        if shot.frames:
            await self._fire_burst(shot)
            return False
        wire = self.wires.get(shot.sender)
        fresh = await self._wire_for(shot, 1)
        if fresh is not wire:
            # Aim again: a replayed id must be one this new socket used.
            shot = spec.aim(self.ctx())
        wire = fresh
        n = len(wire.frames)
        before_version = self.snap.version if self.snap else 0
        ok = await wire.send(shot.data, binary=shot.binary)
        self.frames_sent += 1
        self.family_frames[shot.family] += 1
        self._sent[shot.sender] = self._sent.get(shot.sender, 0) + 1
        if not ok:
            self._violate(shot.family, "could not send: the socket was already closed", shot.data)
            return False
        timeout = 30 if len(shot.data) > MAX_FRAME else 10
        outcome = await wire.next_reply(n, timeout)
        code = outcome.code
        if code in BAD_KINDS:
            self._bad[shot.sender] = self._bad.get(shot.sender, 0) + 1
        cid = readable_id(shot.data, shot.binary)
        if cid is not None and outcome.kind in ("ack", "pong"):
            # Taken now. A refused command changed nothing, so its id stays
            # free (docs/protocol.md, "Client to server").
            wire.used_ids.append(cid)
        await self._judge(shot, outcome, wire)
        if outcome.kind == "ack" and outcome.frame is not None:
            v = outcome.frame.get("version")
            if isinstance(v, int) and v > before_version:
                self.accepted += 1
                return True
        return False

    async def _fire_burst(self, shot: Shot) -> None:
        wire = await self._wire_for(shot, len(shot.frames))
        n = len(wire.frames)
        sent = 0
        for frame in shot.frames:
            if not await wire.send(frame):
                break
            sent += 1
        self.frames_sent += sent
        self.family_frames[shot.family] += sent
        self._sent[shot.sender] = PER_WIRE_FRAMES  # spent: the next shot gets a new one
        if shot.family == "flood":
            # Every ping answered (pong or refusal), or the socket closed.
            await wire.wait(
                lambda: (
                    wire.closed
                    or sum(f.get("type") in ("pong", "error") for f in wire.frames[n:]) >= sent
                ),
                15,
            )
        else:
            await wire.wait(lambda: wire.closed, 10)
        replies = [
            f for f in wire.frames[n:] if f.get("type") in ("pong", "error", "ack", "closing")
        ]
        for f in replies:
            label = f"error:{f.get('code')}" if f["type"] == "error" else f["type"]
            self.outcomes[label] += 1
        for e in replies:
            if e["type"] == "error" and e.get("code") not in ERROR_CODES:
                self._violate(
                    shot.family, f"undocumented error code {e.get('code')!r}", shot.frames[0]
                )
        if shot.family == "flood":
            self._judge_flood(shot, wire, replies, sent)
        else:
            self._judge_junk(shot, wire, replies)

    # ------------------------------------------------------------ progress

    async def advance(self) -> bool:
        """One legal move by the player to act (False: the game is over)."""
        assert self.snap is not None and self.witness is not None
        mover = next(
            (i for i, s in enumerate(self.snap.seats) if s.get("view") and s["view"].get("legal")),
            None,
        )
        if mover is None:
            return False
        view = self.snap.seats[mover]["view"]
        move = self._choose(view)
        wire = self.wires[f"seat{mover}"]
        body = {"bid": move} if isinstance(move, int) else {"card": move}
        reply = await wire.request(
            "bid" if isinstance(move, int) else "play", version=self.snap.version, **body
        )
        if reply["type"] != "ack":
            self._violate("advance", f"a legal move was refused: {reply}", json.dumps(body))
            return True
        self.moves += 1
        self.last_move = time.monotonic()
        self._sent[f"seat{mover}"] = self._sent.get(f"seat{mover}", 0) + 1
        await self.witness.wait(lambda: self._witness_version() >= reply["version"], 10)
        self.snap = await self.snapshot()
        return True

    def _choose(self, view: dict[str, Any]) -> Any:
        """Mostly the heuristic bot's move (so that games end and the phase
        after the game is fuzzed too), sometimes any legal one."""
        legal = view["legal"]
        if view["phase"] == "play" and self.rng.random() < 0.2:
            return self.rng.choice(legal)  # (a wild bid would only drag the game out)
        action = self._bot.choose(view_from_dict(view))
        if action >= BID_BASE:
            n = action - BID_BASE
            return n if n in legal else self.rng.choice(legal)
        card = CARD_NAMES[action]
        return card if card in legal else self.rng.choice(legal)

    async def step(
        self, specs: list[Spec], n: int, advance_every: int = 2, check_every: int = 25
    ) -> None:
        """One batch, then (sometimes) a move, a health check, a new table."""
        await self.run_batch(specs)
        # Once the game is over it is fuzzed over for a while, then replaced.
        due = time.monotonic() - self.last_move > MOVE_EVERY_S
        if (
            (n % advance_every == advance_every - 1 or due)
            and not await self.advance()
            and self.rng.random() < 0.5
        ):
            await self.new_table()
        if n % check_every == check_every - 1:
            await self.check_alive()


class RigLoop:
    """A :class:`FuzzRig` and the event loop its sockets live on."""

    def __init__(self, base_url: str, seed: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.rig = FuzzRig(base_url, seed=seed)
        self.batches = 0
        self.run(self.rig.start())

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the rig's loop (at most five minutes)."""
        return self.loop.run_until_complete(asyncio.wait_for(coro, 300))

    def close(self) -> None:
        self.run(self.rig.stop())
        self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        self.loop.close()
