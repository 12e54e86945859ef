"""Training the card-location model (:mod:`.locations`) from self-play.

The same two resumable stages as the trick model's (:mod:`.train`):

1. **Data.** Hands of heuristic self-play (:func:`.train.self_play_hands`).
   From each played hand, ``positions`` moments are drawn at random (a seat
   about to play, after at least the first trick's lead); each gives the
   features of that seat's view and, for every card hidden from it, which
   of the other three seats really holds it. Chunk ``i`` depends only on
   the seed and ``i``, so an interrupted run skips the chunks on disk.
2. **Fit.** Minibatch Adam on the cross-entropy of the true holder of each
   hidden card among the seats that may hold it, a tenth of the chunks held
   out; a checkpoint after each epoch, so a new run goes on from there.

The figures it is judged by (``held_out``): the mean log-loss per hidden
card, and how often the most likely seat is the holder, beside the same
for the uniform deal (each seat's chance in proportion to its cards left).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from fourhundred.engine import HandSummary, bidding_order, next_seat, preset

from .locations import N_FEATURES, Array, LocationModel, Mask, TrickRow, features
from .train import AdamRun, Progress, adam_fit, self_play_hands

__all__ = [
    "LocationConfig",
    "fit_locations",
    "hand_positions",
    "make_location_data",
    "train_locations",
]

_VALID_EVERY: Final = 10
_NEXT: Final = tuple(next_seat(s) for s in range(4))


@dataclass(frozen=True, slots=True)
class LocationConfig:
    """One training run: ``hands`` self-play hands in chunks of ``chunk``,
    ``positions`` moments drawn from each, ``epochs`` passes with
    ``hidden`` units (the learning rate decays by ``decay`` per epoch)."""

    out: Path
    seed: int = 1
    hands: int = 30_000
    chunk: int = 1_000
    positions: int = 8
    epochs: int = 8
    hidden: int = 256
    batch: int = 256
    lr: float = 2e-3
    decay: float = 0.7
    preset: str = "standard"


def hand_positions(
    summary: HandSummary, rng: random.Random, count: int
) -> list[tuple[Array, Mask, np.ndarray]]:
    """``count`` moments of a played hand, drawn at random among the plays
    after the first: each seat-to-play's features, the seats that may hold
    each card, and the true holder of each hidden card (0..2, the seats
    after the player; -1 for a card it can see or that is gone)."""
    plays, winners, deal = summary.plays, summary.trick_winners, summary.deal
    bids = [b or 0 for b in summary.bids_by_seat]
    first = bidding_order(summary.dealer)[0]
    out = []
    for i in sorted(rng.sample(range(1, len(plays)), min(count, len(plays) - 1))):
        rows: list[TrickRow] = []
        leader, seat, mine = first, first, [0, 0, 0, 0]
        for t in range(0, i, 4):
            cards = plays[t : min(t + 4, i)]
            done = len(cards) == 4
            rows.append((leader, cards, winners[t // 4] if done else None))
            seat = leader
            for c in cards:
                mine[seat] |= 1 << c
                seat = _NEXT[seat]
            if done:
                leader = seat = winners[t // 4]
        x, elig = features(seat, deal[seat] & ~mine[seat], rows, bids)
        y = np.full(52, -1, np.int64)
        for r in (1, 2, 3):
            holder = next_seat(seat, r)
            held = deal[holder] & ~mine[holder]
            for c in range(52):
                if held >> c & 1:
                    y[c] = r - 1
        out.append((x, elig, y))
    return out


def make_location_data(cfg: LocationConfig, progress: Progress | None = None) -> list[Path]:
    """Write (or find) the data chunks of ``cfg``; returns their paths."""
    cfg.out.mkdir(parents=True, exist_ok=True)
    settings = preset(cfg.preset)
    n = max(1, -(-cfg.hands // cfg.chunk))
    paths = []
    for i in range(n):
        path = cfg.out / f"positions-{i:04d}.npz"
        if not path.exists():
            seed = cfg.seed * 1_000_003 + 700_000 + i
            rng = random.Random(seed)
            rows = []
            for h in self_play_hands(settings, seed, min(cfg.chunk, cfg.hands - i * cfg.chunk)):
                rows.extend(hand_positions(h, rng, cfg.positions))
            x, elig, y = (np.stack(a) for a in zip(*rows, strict=True))
            tmp = path.with_suffix(".tmp.npz")
            np.savez_compressed(tmp, x=x, elig=elig, y=y)
            tmp.replace(path)
        paths.append(path)
        if progress:
            progress("self-play hands", min((i + 1) * cfg.chunk, cfg.hands), cfg.hands)
    return paths


def _load(paths: list[Path]) -> tuple[Array, Mask, np.ndarray]:
    xs, es, ys = [], [], []
    for p in paths:
        with np.load(p) as z:
            xs.append(z["x"])
            es.append(z["elig"])
            ys.append(z["y"])
    if not xs:
        return np.zeros((0, N_FEATURES), np.float32), np.zeros((0, 52, 3), bool), np.zeros((0, 52))
    return np.concatenate(xs), np.concatenate(es), np.concatenate(ys)


def held_out(model: LocationModel, x: Array, elig: Mask, y: np.ndarray) -> dict[str, float]:
    """Log-loss per hidden card and how often the likeliest seat holds it,
    for the model and for the uniform deal."""
    hidden = y >= 0
    if not hidden.any():
        return {"loss": float("nan"), "hit": float("nan")}
    yy = np.maximum(y, 0)[..., None]
    left = x[:, N_FEATURES - 4 : N_FEATURES - 1][:, None, :] * elig
    uniform = left / np.maximum(left.sum(axis=-1, keepdims=True), 1e-9)
    figures = {}
    for name, p in (("", model.probabilities(x, elig)), ("uniform_", uniform)):
        py = np.take_along_axis(p, yy, axis=-1)[..., 0][hidden]
        figures[name + "loss"] = float(-np.mean(np.log(np.maximum(py, 1e-9))))
        figures[name + "hit"] = float(np.mean((p.argmax(axis=-1) == y)[hidden]))
    return figures


def _grads(params: list[Array], x: Array, elig: Mask, y: np.ndarray) -> list[Array]:
    """Gradients of the mean cross-entropy per hidden card, one minibatch."""
    w1, b1, w2, b2 = params
    a = x @ w1 + b1
    h = np.maximum(a, 0.0)
    model = LocationModel(w1, b1, w2, b2)
    p = model.probabilities(x, elig)
    hidden = y >= 0
    yy = np.maximum(y, 0)[..., None]
    np.put_along_axis(p, yy, np.take_along_axis(p, yy, axis=-1) - 1.0, axis=-1)
    dz = (p * hidden[..., None] * elig).reshape(len(y), -1) / max(1, int(hidden.sum()))
    dh = (dz @ w2.T) * (a > 0)
    return [x.T @ dh, dh.sum(axis=0), h.T @ dz, dz.sum(axis=0)]


def fit_locations(
    cfg: LocationConfig, paths: list[Path], progress: Progress | None = None
) -> tuple[LocationModel, dict[str, float]]:
    """Fit on the chunks (resuming from ``checkpoint.npz``); returns the
    model and its held-out figures (:func:`held_out`)."""
    valid = [p for i, p in enumerate(paths) if i % _VALID_EVERY == _VALID_EVERY - 1]
    if not valid and len(paths) > 1:
        valid = paths[-1:]
    x, elig, y = _load([p for p in paths if p not in valid])

    def init() -> list[Array]:
        rng = np.random.default_rng(cfg.seed)
        return [
            rng.standard_normal((N_FEATURES, cfg.hidden)) * np.sqrt(2 / N_FEATURES),
            np.zeros(cfg.hidden),
            rng.standard_normal((cfg.hidden, 156)) * np.sqrt(1 / cfg.hidden),
            np.zeros(156),
        ]

    params = adam_fit(
        init,
        lambda ps, idx: _grads(ps, x[idx], elig[idx], y[idx]),
        len(y),
        AdamRun(
            cfg.out / "checkpoint.npz",
            cfg.epochs,
            cfg.batch,
            cfg.seed,
            lambda epoch: cfg.lr * cfg.decay**epoch,
        ),
        progress,
    )
    model = LocationModel(*params)
    return model, held_out(model, *_load(valid))


def train_locations(
    cfg: LocationConfig, progress: Progress | None = None
) -> tuple[LocationModel, dict[str, float]]:
    """Self-play data, then the fit; writes ``locations.npz`` in ``cfg.out``."""
    paths = make_location_data(cfg, progress)
    model, figures = fit_locations(cfg, paths, progress)
    model.save(cfg.out / "locations.npz")
    return model, figures
