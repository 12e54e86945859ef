"""Helpers of the security tests: a table of four guests in play, its
snapshots from fresh connections, and the answers to compare."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fh_wire import Account, Wire, comparable

__all__ = ["Table", "seat_four", "state_of"]


@dataclass
class Table:
    id: str
    invite: str | None
    people: list[Account]
    wires: list[Wire]

    @property
    def join(self) -> dict[str, str]:
        return {"invite": self.invite} if self.invite else {"table": self.id}

    def mover(self) -> int:
        """The seat whose turn it is (from the seats' latest views)."""
        for seat, w in enumerate(self.wires):
            frame = w.latest()
            if frame and frame.get("view") and frame["view"].get("legal"):
                return seat
        raise AssertionError("no seat may act")

    def legal(self, seat: int) -> list[Any]:
        frame = self.wires[seat].latest()
        assert frame is not None and frame["view"] is not None
        return list(frame["view"]["legal"] or [])

    async def aclose(self) -> None:
        for w in self.wires:
            await w.close()
        for p in self.people:
            await p.aclose()


async def seat_four(base_url: str, tag: str, *, kind: str = "private", timer: int = 90) -> Table:
    """Four guests at a new table, all ready: the game has started."""
    people = [await Account(base_url, f"{tag}{i}").guest() for i in range(4)]
    made = await people[0].create_table(kind=kind, timer=timer)
    table = Table(made["table"]["id"], made.get("invite"), people, [])
    for seat, p in enumerate(people):
        w = await p.wire()
        await w.join(**table.join)
        if seat:
            assert (await w.request("sit", seat=seat))["type"] == "ack"
        table.wires.append(w)
    for w in table.wires:
        assert (await w.request("ready", ready=True))["type"] == "ack"
    for w in table.wires:
        await w.wait(lambda w=w: bool((w.latest() or {}).get("view")), 20)
    return table


async def state_of(table: Table, observer: Account) -> list[dict[str, Any]]:
    """Every seat's snapshot and a spectator's, each from a fresh connection
    (the seat's old socket is replaced: ``table.wires`` is updated)."""
    out = []
    for seat, p in enumerate(table.people):
        await table.wires[seat].close()
        w = await p.wire()
        out.append(comparable(await w.join(**table.join)))
        table.wires[seat] = w
    w = await observer.wire()
    out.append(comparable(await w.join(**table.join)))
    await w.close()
    return out
