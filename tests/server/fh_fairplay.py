"""Finished games in a store, for the fair-play tests (store and sweeper)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fourhundred.store import Commit, GamePlayer, Store, StoredEvent, TableRow

PEOPLE = ("ua", "ub", "uc", "ud")
"""Seats 0..3: team 0 is ua and uc, team 1 ub and ud."""


async def finished_game(store: Store, table_id: str, *, finished_ms: int, **given: Any) -> None:
    """A game over at ``finished_ms``; ``given`` may set its ``kind``
    (``ranked``), ``reason`` (``won``), ``record``, and ``users[s]`` and
    ``bots[s]`` at seat ``s`` (a substitute: both; a host's bot: only the
    bot; by default four people, :data:`PEOPLE`)."""
    kind: str = given.pop("kind", "ranked")
    reason: str = given.pop("reason", "won")
    record: dict[str, Any] = given.pop("record", {"hands": []})
    users: Sequence[str | None] = given.pop("users", PEOPLE)
    bots: Sequence[str | None] = given.pop("bots", (None,) * 4)
    assert not given, f"unknown: {sorted(given)}"
    row = TableRow(
        id=table_id,
        kind=kind,
        status="over",
        invite=None,
        host=None,
        version=1,
        summary={"id": table_id},
        open_seats=0,
        created_ms=finished_ms - 100,
        updated_ms=finished_ms,
        finished_ms=finished_ms,
        reason=reason,
        winner=0 if reason == "won" else None,
        record=record,
    )
    await store.create_table(row, StoredEvent(1, "created", {}, finished_ms - 100), [])
    players = [
        GamePlayer(table_id, s, users[s], bots[s], 0, s % 2 == 0, None, None, 0, 0, finished_ms)
        for s in range(4)
    ]
    over = StoredEvent(2, "game_over", {}, finished_ms)
    await store.commit(Commit(table_id, 1, [over], {"updated_ms": finished_ms}, players=players))
