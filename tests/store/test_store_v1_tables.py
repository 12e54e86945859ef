"""Tables stored before events were typed (``tests/data/v1-tables.sqlite``,
written by the server at commit d11356c: see ``tests/data/make_v1_tables.py``)
load, show the same rooms, and play on, writing the new form after the old."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

from fourhundred.server.botpool import PoolBotRunner
from fourhundred.server.clock import SystemClock
from fourhundred.server.config import ServerConfig
from fourhundred.server.hub import Hub
from fourhundred.server.metrics import Metrics
from fourhundred.server.protocol import Bid, Join, Play
from fourhundred.server.room import rebuild
from fourhundred.store import Store

DATA = Path(__file__).resolve().parents[1] / "data"
TABLES: dict[str, str] = json.loads((DATA / "v1-tables.json").read_text())


class Watcher:
    def __init__(self, user_id: str) -> None:
        self.user_id = user_id
        self.user_name = user_id
        self.frames: list[dict[str, Any]] = []

    def send(self, data: bytes) -> None:
        self.frames.append(json.loads(data))

    @property
    def view(self) -> dict[str, Any] | None:
        states = [f for f in self.frames if f["type"] in ("event", "snapshot", "catchup")]
        return states[-1]["view"] if states else None


async def until(pred: Any) -> None:
    for _ in range(10_000):
        if pred():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("condition never met")


async def test_old_tables_load_and_play_on(tmp_path: Path) -> None:
    db = tmp_path / "v1.sqlite"
    shutil.copy(DATA / "v1-tables.sqlite", db)
    store = await Store.open(f"sqlite+aiosqlite:///{db}")
    config = ServerConfig(bot="random", bot_workers=0, bot_delay_s=0.0, node="v2")
    hub = Hub(store, config, SystemClock(), PoolBotRunner(0, 50), Metrics())
    try:
        await hub.start()
        # Every table folds, finished ones included.
        for table in TABLES.values():
            rebuild(table, await store.load_events(table))
        waiting = hub.actors[TABLES["waiting"]].summary()
        assert waiting["kind"] == "private" and waiting["settings"]["target"] == 61
        assert [s["user"] and s["user"]["name"] for s in waiting["seats"]][:2] == [
            "Waiter",
            "Visitor",
        ]
        ranked = hub.actors[TABLES["ranked"]].model
        assert ranked.kind == "ranked" and not ranked.rated and len(ranked.charged) == 1
        assert sum(s.substitute for s in ranked.seats) == 1

        actor = hub.actors[TABLES["playing"]]
        m = actor.model
        assert m.game is not None and m.game.hand_index == 1 and len(m.sheet) == 1
        start = m.version
        watchers = [Watcher(s.user.id) for s in m.seats if s.user is not None]
        for i, w in enumerate(watchers):
            actor.submit("join", w, Join(id=i, table=actor.id, last_version=start - 2))
        await until(lambda: all(w.view is not None for w in watchers))
        sync = watchers[0].frames[0]
        assert sync["type"] == "catchup" and [e["version"] for e in sync["events"]] == [
            start - 1,
            start,
        ]
        assert sync["sheet"][0]["kind"] == "hand_over"
        # Twelve more moves, by whoever holds the turn.
        for n in range(12):
            mover = next(w for w in watchers if w.view and w.view["legal"])
            assert mover.view is not None
            legal = mover.view["legal"]
            version = actor.model.version
            msg = Bid(id=100 + n, bid=legal[0]) if mover.view["phase"] == "bid" else None
            actor.submit("cmd", mover, msg or Play(id=100 + n, card=legal[0]))
            await until(lambda v=version: actor.model.version > v)
        stored = await store.load_events(actor.id)
        assert [e.version for e in stored] == list(range(1, actor.model.version + 1))
        assert rebuild(actor.id, stored).game.line() == actor.model.game.line()  # type: ignore[union-attr]
    finally:
        await hub.stop()
        await store.close()
