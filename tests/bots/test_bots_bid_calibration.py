"""The learned bidder's calibration: fitted from outcomes it finds the
calibration they were drawn with; the expert can bid with another one;
``bench/expert_calibration.py`` sees each of bot A's bids as it was made."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from fourhundred.bots.arena import pair_deal
from fourhundred.bots.bidder import make_chances, model_bid
from fourhundred.bots.expert import ExpertBot, ExpertOptions
from fourhundred.bots.knowledge import Knowledge
from fourhundred.bots.model import calibrated, features, shipped_model
from fourhundred.bots.train import fit_calibration
from fourhundred.engine import GameState, bidding_order, deal_masks, preset, view_for

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_the_fit_finds_the_calibration_the_outcomes_were_drawn_with() -> None:
    m = shipped_model()
    rng = random.Random(4)
    true = np.asarray([0.7, 0.3, 1.0])
    rows, bids, made = [], [], []
    for _ in range(6000):
        hand = deal_masks(rng)[0]
        x = features(hand, position=rng.randrange(4), partner_bid=0, opponent_bids=(0, 0))
        b = rng.randint(2, 7)
        p = float(calibrated([m.p_tricks(x)[b]], [b], true)[0])
        rows.append(x)
        bids.append(b)
        made.append(float(rng.random() < p))
    fitted = fit_calibration(m, rows, bids, made)
    assert fitted == pytest.approx(true, abs=0.25)
    # And the shipped calibration is not what these outcomes say.
    assert not np.allclose(m.calib, fitted, atol=0.1)


def test_the_expert_bids_with_the_calibration_it_is_given() -> None:
    s = GameState(preset("standard"), first_dealer=3)
    s.deal(deal_masks(random.Random(8)))
    k = Knowledge.from_view(view_for(s, s.turn))
    legal = tuple(s.legal_bids())
    sure = ExpertBot(seed=1, iterations=4, options=ExpertOptions(bid_calib=(1.0, 8.0, 0.0)))
    assert sure.bid_model is not None
    assert list(sure.bid_model.calib) == [1.0, 8.0, 0.0]
    # Told every bid is all but sure, the learned bid is higher.
    assert make_chances(k, sure.bid_model)[5] > 0.99
    assert model_bid(k, legal, sure.bid_model) > model_bid(k, legal)
    assert ExpertBot(seed=1, iterations=4).bid_model is None  # the shipped calibration


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def bids_before(pair: dict[str, Any], seat: int) -> int:
    """How many seats bid before ``seat`` in pair ``pair`` of seed 3."""
    dealer = pair_deal(pair["index"], 3, preset("standard"))[0]
    return bidding_order(dealer).index(seat)


def test_the_bench_replays_each_of_a_bids_as_it_was_made(tmp_path: Path) -> None:
    out = tmp_path / "where.jsonl"
    cmd = [sys.executable, str(BENCH / "expert_where.py"), "heuristic", "random"]
    cmd += ["--pairs", "5", "--seed", "3", "--out", str(out)]
    subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    bench = _load("expert_calibration")
    n = 0
    for line in out.read_text().splitlines():
        pair = json.loads(line)
        bids = bench.a_bids(pair, 3)
        # A (the heuristic) holds seats 0 and 2 at the first table, 1 and 3
        # at the second: one bid of A's for each seat.
        want = [r["bid"][0] for r in pair["seats"] if r["bid"][0] not in (None, 13)]
        assert sorted(b for _, _, b, _ in bids) == sorted(want)
        for k, legal, b, was_made in bids:
            row = pair["seats"][k.seat]
            assert b in legal and b == row["bid"][0]
            assert was_made == (row["tricks"][0] >= b)
            # The bids before it are the ones made at that table: A's by
            # the seat's partner, B's by the opponents.
            for x, v in enumerate(k.bids):
                r = pair["seats"][x]["bid"]
                assert v in (0, r[0] if x % 2 == k.seat % 2 else r[1])
            assert sum(1 for v in k.bids if v) == bids_before(pair, k.seat)
        n += len(bids)
    assert n >= 12
    printed = subprocess.run(
        [sys.executable, str(BENCH / "expert_calibration.py"), str(out), "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    assert printed.startswith(f"{n} bids of A")
    assert "fitted  (a, c, d):" in printed
