"""How often the expert makes its own bids, by the chance its bidder gave
them: hands of expert self-play at a budget, each bid's features, the bid
and the tricks taken, then the calibration table and the calibration that
fits this play.

    .venv/bin/python bench/expert_bids.py [--hands N] [--budget-ms MS]
        [--seed S] [--out DIR] [--max-minutes M]

The shipped calibration (``model.calib``) is fitted on heuristic self-play,
and the expert plays better than the heuristic (docs/bots.md, "Calibration
of the bid chances"), so its chances of making its own bids may run low.
The hands are dealt as the arena deals them (half from a fresh game, half
from a random mid-game position); thrown-in hands and 13 bids are left out.
Chunks of 25 hands go to ``DIR/hands-NNNN.npz`` (each depends on the seed
and its number only), so a stopped run goes on where it stopped. Prints
the table for the shipped calibration, the fitted ``(a, c, d)`` and the
table for it (on the same bids: an in-sample fit of three numbers), and
writes ``DIR/calib.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np
from rich.progress import Progress

from fourhundred.bots.arena import _position
from fourhundred.bots.calibration import calibration_table
from fourhundred.bots.expert import ExpertBot
from fourhundred.bots.model import calibrated, shipped_model
from fourhundred.bots.train import bid_examples
from fourhundred.engine import GameState, Phase, deal_masks, preset, required_total, view_for

CHUNK = 25


def play_chunk(index: int, seed: int, budget_ms: int) -> dict[str, np.ndarray]:
    settings = preset("standard")
    bots = [ExpertBot(seed=seed * 1000 + index * 4 + s, budget_ms=budget_ms) for s in range(4)]
    rows, bids, tricks = [], [], []
    for h in range(CHUNK):
        rng = random.Random(f"bids:{seed}:{index}:{h}")
        dealer, scores = _position(rng, settings)
        state = GameState(settings, first_dealer=dealer)
        state.scores = scores[:]
        state.required = required_total(settings, scores)
        state.deal(deal_masks(rng))
        while state.phase is Phase.BID or state.phase is Phase.PLAY:
            seat = state.turn
            state.apply(bots[seat].choose(view_for(state, seat)), seat)
        last = state.history[-1]
        if last.thrown_in or len(last.bids) < 4:
            continue
        for seat, bid, x in bid_examples(last):
            if bid != 13:
                rows.append(x)
                bids.append(bid)
                tricks.append(last.tricks[seat])
    return {"x": np.stack(rows), "bid": np.asarray(bids), "tricks": np.asarray(tricks)}


def fit_calib(q: np.ndarray, b: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression of made on (logit q, 1, bid / 13), as
    ``train.calibrate``."""
    q = np.clip(q, 1e-6, 1 - 1e-6)
    feats = np.stack([np.log(q / (1 - q)), np.ones(len(b)), b / 13.0], axis=1)
    w = np.asarray([1.0, 0.0, 0.0])
    for _ in range(25):
        z = 1.0 / (1.0 + np.exp(-(feats @ w)))
        hess = (feats * (z * (1 - z))[:, None]).T @ feats + 1e-6 * np.eye(3)
        w = w - np.linalg.solve(hess, feats.T @ (z - y))
    return w


def show(title: str, chances: np.ndarray, made: np.ndarray) -> None:
    print(title)
    for r in calibration_table(list(chances), list(made)):
        print(
            f"  {r.low:.1f}-{r.high:.1f}  bids {r.bids:5d}  predicted {r.predicted:6.1%}"
            f"  made {r.actual:6.1%}  gap {100 * r.gap:+5.1f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--budget-ms", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("runs/expert-bids"))
    ap.add_argument("--max-minutes", type=float, default=None)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    chunks = (args.hands + CHUNK - 1) // CHUNK
    stop = time.monotonic() + 60 * args.max_minutes if args.max_minutes else float("inf")
    with Progress() as progress:
        task = progress.add_task("expert self-play hands", total=chunks * CHUNK)
        for i in range(chunks):
            path = args.out / f"hands-{i:04d}.npz"
            if not path.exists():
                if time.monotonic() > stop:
                    break
                np.savez_compressed(path, **play_chunk(i, args.seed, args.budget_ms))
            progress.advance(task, CHUNK)
    parts = [np.load(p) for p in sorted(args.out.glob("hands-*.npz"))]
    x = np.concatenate([p["x"] for p in parts])
    b = np.concatenate([p["bid"] for p in parts])
    made = np.concatenate([p["tricks"] for p in parts]) >= b
    model = shipped_model()
    probs = model.probabilities(x)
    tail = np.cumsum(probs[:, ::-1], axis=1)[:, ::-1]
    q = tail[np.arange(len(b)), b].astype(np.float64)
    print(f"{len(b)} bids of {len(parts) * CHUNK} hands, made {made.mean():.1%}")
    show(
        f"shipped calibration {model.calib.round(3).tolist()}", calibrated(q, b, model.calib), made
    )
    w = fit_calib(q, b, made.astype(np.float64))
    show(f"fitted on these bids {w.round(3).tolist()}", calibrated(q, b, w), made)
    (args.out / "calib.json").write_text(json.dumps({"calib": w.tolist(), "bids": len(b)}))


if __name__ == "__main__":
    main()
