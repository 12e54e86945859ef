"""The replay's analysis arrives hand by hand: the server works through a
finished game's hands in order (the expert, in its own process) and every
answer carries the hands ready so far; a game's analysis is computed once."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from fourhundred.server.analysis import Analyses

GAME10 = Path(__file__).resolve().parents[2] / "bench" / "results" / "bots" / "game10.json"


async def test_the_analysis_arrives_hand_by_hand_in_order() -> None:
    record = json.loads(GAME10.read_text(encoding="utf-8"))
    record["hands"] = record["hands"][:3]  # an unfinished game is a record too
    analyses = Analyses()
    try:
        progress = analyses.get("g1", record)
        assert (progress.done, progress.total, progress.hands) == (0, 3, [])
        assert not progress.complete
        seen: list[tuple[int, list[int]]] = []
        while not progress.complete:
            await asyncio.sleep(0.02)
            progress = analyses.get("g1", record)
            seen.append((progress.done, [h["hand"] for h in progress.hands]))
        # Each answer holds exactly the hands worked through so far, in order.
        for done, hands in seen:
            assert hands == [h for h in range(done) if h in hands] and all(h < done for h in hands)
        dones = [d for d, _ in seen]
        assert dones == sorted(dones) and dones[-1] == 3
        assert any(0 < d < 3 for d in dones), "the first hands came before the last"
        body = progress.body()
        assert body["hands_done"] == body["hands_total"] == 3
        assert [h["hand"] for h in body["hands"]] == [0, 1, 2]
        assert {s["seat"] for s in body["hands"][0]["seats"]} == {0, 1, 2, 3}
        # Done once: the same answer again, at once.
        assert analyses.get("g1", record) is progress
    finally:
        analyses.close()
