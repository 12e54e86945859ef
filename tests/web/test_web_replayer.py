"""The replay viewer's stepping (js/replayer.js) reaches exactly the results
of the engine on every public conformance vector: tricks, changes, scores
and the winner of every hand."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from fourhundred.engine import replay_result

VECTORS = Path(__file__).resolve().parents[1] / "data" / "public-records.json.gz"


def test_replayer_matches_the_engine_on_every_legal_vector(browser: Any, static_url: str) -> None:
    vectors = [
        v
        for v in json.loads(gzip.decompress(VECTORS.read_bytes()))
        if not v["name"].startswith("illegal")
    ]
    assert len(vectors) >= 50
    context = browser.new_context()
    page = context.new_page()
    blank = f"{static_url}/__blank__.html"
    page.route(blank, lambda r: r.fulfill(body="<!doctype html>", content_type="text/html"))
    page.goto(blank)
    got = page.evaluate(
        """async (text) => {
            const { replayRecord } = await import('/js/replayer.js');
            // One JSON string crosses into the page far faster than the objects.
            return JSON.parse(text).map((rec) => {
                const g = replayRecord(rec);
                return {
                    hands: g.hands.map((h) => ({
                        thrown_in: h.result.thrown_in,
                        tricks: h.result.tricks,
                        deltas: h.result.deltas,
                        scores: h.result.scores,
                    })),
                    scores: g.scores,
                    winner: g.winner,
                    frames: g.hands.map((h) => h.frames.length),
                };
            });
        }""",
        json.dumps([v["record"] for v in vectors]),
    )
    context.close()
    for v, mine in zip(vectors, got, strict=True):
        want = replay_result(v["record"])
        assert want == v["expect"], v["name"]
        assert mine["hands"] == want["hands"], v["name"]
        assert mine["scores"] == want["scores"], v["name"]
        assert mine["winner"] == want["winner"], v["name"]
        # One frame for the deal and one per action of the hand.
        for hand, n in zip(v["record"]["hands"], mine["frames"], strict=True):
            assert n == 1 + len(hand["bids"]) + len(hand["plays"]), v["name"]
