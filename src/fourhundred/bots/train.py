"""Training the trick model (:mod:`.model`) from self-play.

Two stages, both resumable and repeatable from one seed:

1. **Data.** Whole games to the target are played by the heuristic (its
   bids, and its play on the engine's fast path, which is also the search's
   rollout policy). Every played hand gives four examples: each seat's
   features at its bid and the tricks it then took. The games are written in
   chunks (``data-NNNN.npz``); chunk ``i`` depends only on the seed and
   ``i``, so an interrupted run skips the chunks already on disk.
2. **Fit.** A one-hidden-layer network is fitted by minibatch Adam on the
   cross-entropy, a tenth of the chunks held out (the last one when there
   are fewer than ten). After each epoch the
   weights, the optimiser's moments and the epoch are written to
   ``checkpoint.npz``; a new run with the same directory goes on from there.
3. **Calibration.** On fresh self-play hands, the chance of making the bid
   actually made is fitted from the network's chance and the bid (a bidder
   plays to make its bid, so it makes it more often than the raw trick
   count of such hands says).

Progress is reported through a callback (the ``train`` command shows it with
rich).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from fourhundred.engine import (
    GameState,
    HandSummary,
    Phase,
    Settings,
    bidding_order,
    next_seat,
    partner_of,
    preset,
    view_for,
)

from .heuristic import heuristic_bid
from .knowledge import Knowledge
from .model import N_CLASSES, N_FEATURES, Array, TrickModel, features
from .search import rollout

__all__ = [
    "AdamRun",
    "TrainConfig",
    "adam_fit",
    "bid_examples",
    "fit",
    "fit_calibration",
    "make_data",
    "play_chunk",
    "self_play_hands",
    "train",
]

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``."""

_VALID_EVERY: Final = 10
"""Every tenth chunk is held out for validation."""


@dataclass(frozen=True, slots=True)
class TrainConfig:
    """One training run. ``hands`` played hands of self-play in chunks of
    ``chunk`` hands; ``epochs`` passes of the fit with ``hidden`` units."""

    out: Path
    seed: int = 1
    hands: int = 20_000
    chunk: int = 1_000
    epochs: int = 20
    hidden: int = 64
    batch: int = 512
    lr: float = 3e-3
    preset: str = "standard"
    calib_hands: int = 2_000


def bid_examples(summary: HandSummary) -> Iterator[tuple[int, int, Array]]:
    """Each seat of a played hand, in bidding order: its seat, its bid and
    the model's features at its bid."""
    bids, deal = summary.bids, summary.deal
    order = bidding_order(summary.dealer)
    for pos, seat in enumerate(order):
        by_seat = [0, 0, 0, 0]
        for i in range(pos):
            by_seat[order[i]] = bids[i]
        x = features(
            deal[seat],
            position=pos,
            partner_bid=by_seat[partner_of(seat)],
            opponent_bids=(by_seat[next_seat(seat)], by_seat[next_seat(seat, -1)]),
        )
        yield seat, bids[pos], x


def _hand_examples(summary: HandSummary, rows: list[Array], ys: list[int]) -> None:
    for seat, _bid, x in bid_examples(summary):
        rows.append(x)
        ys.append(summary.tricks[seat])


def self_play_hands(settings: Settings, seed: int, hands: int) -> Iterator[HandSummary]:
    """``hands`` played hands (thrown-in ones skipped) of heuristic
    self-play: whole games from a seed, the heuristic's bids and its play on
    the engine's fast path."""
    rng = random.Random(seed)
    played = 0
    while played < hands:
        s = GameState(settings, first_dealer=rng.randrange(4))
        while s.phase is not Phase.OVER and played < hands:
            s.deal_random(seed=rng.getrandbits(63))
            while s.phase is Phase.BID:
                k = Knowledge.from_view(view_for(s, s.turn))
                s.bid_unchecked(heuristic_bid(k, tuple(s.legal_bids())))
            if s.phase is Phase.PLAY:
                rollout(s, 0, [0, 0, 0, 0])
            last = s.history[-1]
            if last.thrown_in or len(last.bids) < 4:
                continue
            played += 1
            yield last


def play_chunk(settings: Settings, seed: int, hands: int) -> tuple[Array, np.ndarray]:
    """The examples of ``hands`` self-play hands: the features of each seat
    at its bid and the tricks it took."""
    rows: list[Array] = []
    ys: list[int] = []
    for summary in self_play_hands(settings, seed, hands):
        _hand_examples(summary, rows, ys)
    return np.stack(rows), np.asarray(ys, dtype=np.int64)


def make_data(cfg: TrainConfig, progress: Progress | None = None) -> list[Path]:
    """Write (or find) the data chunks of ``cfg``; returns their paths."""
    cfg.out.mkdir(parents=True, exist_ok=True)
    settings = preset(cfg.preset)
    n = max(1, -(-cfg.hands // cfg.chunk))
    paths = []
    for i in range(n):
        path = cfg.out / f"data-{i:04d}.npz"
        if not path.exists():
            size = min(cfg.chunk, cfg.hands - i * cfg.chunk)
            x, y = play_chunk(settings, cfg.seed * 1_000_003 + i, size)
            tmp = path.with_suffix(".tmp.npz")
            np.savez_compressed(tmp, x=x, y=y)
            tmp.replace(path)
        paths.append(path)
        if progress:
            progress("self-play hands", min((i + 1) * cfg.chunk, cfg.hands), cfg.hands)
    return paths


def _load(paths: list[Path]) -> tuple[Array, np.ndarray]:
    xs, ys = [], []
    for p in paths:
        with np.load(p) as z:
            xs.append(z["x"])
            ys.append(z["y"])
    if not xs:
        return np.zeros((0, N_FEATURES), np.float32), np.zeros(0, np.int64)
    return np.concatenate(xs).astype(np.float32), np.concatenate(ys)


def _loss(model: TrickModel, x: Array, y: np.ndarray) -> float:
    if not len(y):
        return float("nan")
    p = model.probabilities(x)
    return float(-np.mean(np.log(p[np.arange(len(y)), y] + 1e-9)))


def fit(
    cfg: TrainConfig, paths: list[Path], progress: Progress | None = None
) -> tuple[TrickModel, dict[str, float]]:
    """Fit the model on the chunks (resuming from ``checkpoint.npz``);
    returns it and its final losses (``train``, ``valid``)."""
    valid = [p for i, p in enumerate(paths) if i % _VALID_EVERY == _VALID_EVERY - 1]
    if not valid and len(paths) > 1:
        valid = paths[-1:]
    train_x, train_y = _load([p for p in paths if p not in valid])
    valid_x, valid_y = _load(valid)

    def init() -> list[Array]:
        rng = np.random.default_rng(cfg.seed)
        return [
            (rng.standard_normal((N_FEATURES, cfg.hidden)) * np.sqrt(2 / N_FEATURES)),
            np.zeros(cfg.hidden),
            (rng.standard_normal((cfg.hidden, N_CLASSES)) * np.sqrt(1 / cfg.hidden)),
            np.zeros(N_CLASSES),
        ]

    params = adam_fit(
        init,
        lambda ps, idx: _grads(ps, train_x[idx], train_y[idx]),
        len(train_y),
        AdamRun(cfg.out / "checkpoint.npz", cfg.epochs, cfg.batch, cfg.seed, lambda _e: cfg.lr),
        progress,
    )
    model = TrickModel(*(p.astype(np.float32) for p in params))
    return model, {"train": _loss(model, train_x, train_y), "valid": _loss(model, valid_x, valid_y)}


@dataclass(frozen=True, slots=True)
class AdamRun:
    """How :func:`adam_fit` runs: its checkpoint file, the passes, the
    minibatch, the seed of the shuffles and the learning rate by epoch."""

    checkpoint: Path
    epochs: int
    batch: int
    seed: int
    lr: Callable[[int], float]


_NAMES: Final = ("w1", "b1", "w2", "b2")


def adam_fit(
    init: Callable[[], list[Array]],
    grads: Callable[[list[Array], np.ndarray], list[Array]],
    n: int,
    run: AdamRun,
    progress: Progress | None = None,
) -> list[Array]:
    """A one-hidden-layer network's four weights fitted by minibatch Adam
    over ``n`` examples (``grads(params, indices)``), from ``init()`` or
    from the run's checkpoint: after each epoch the weights, the moments
    and the epoch are written there, so a run stopped and started again
    ends with the same weights as one run straight through."""
    if run.checkpoint.exists():
        with np.load(run.checkpoint) as z:
            params = [z[k] for k in _NAMES]
            m = [z["m_" + k] for k in _NAMES]
            v = [z["v_" + k] for k in _NAMES]
            epoch, step = int(z["epoch"]), int(z["step"])
    else:
        params = [p.astype(np.float32) for p in init()]
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        epoch, step = 0, 0
    b1_, b2_, eps = 0.9, 0.999, 1e-8
    while epoch < run.epochs:
        lr = run.lr(epoch)
        order = np.random.default_rng(run.seed * 7919 + epoch).permutation(n)
        for start in range(0, n, run.batch):
            g = grads(params, order[start : start + run.batch])
            step += 1
            for j in range(4):
                m[j] = b1_ * m[j] + (1 - b1_) * g[j]
                v[j] = b2_ * v[j] + (1 - b2_) * g[j] ** 2
                mh = m[j] / (1 - b1_**step)
                vh = v[j] / (1 - b2_**step)
                params[j] = (params[j] - lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        epoch += 1
        tmp = run.checkpoint.with_suffix(".tmp.npz")
        np.savez(
            tmp,
            **dict(zip(_NAMES, params, strict=True)),
            **{"m_" + k: a for k, a in zip(_NAMES, m, strict=True)},
            **{"v_" + k: a for k, a in zip(_NAMES, v, strict=True)},
            epoch=epoch,
            step=step,
        )
        tmp.replace(run.checkpoint)
        if progress:
            progress("epochs", epoch, run.epochs)
    return params


def _grads(params: list[Array], x: Array, y: np.ndarray) -> list[Array]:
    """Gradients of the mean cross-entropy for one minibatch."""
    w1, b1, w2, b2 = params
    a = x @ w1 + b1
    h = np.maximum(a, 0.0)
    z = h @ w2 + b2
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    p[np.arange(len(y)), y] -= 1.0
    dz = p / len(y)
    dh = (dz @ w2.T) * (a > 0)
    return [x.T @ dh, dh.sum(axis=0), h.T @ dz, dz.sum(axis=0)]


def calibrate(cfg: TrainConfig, model: TrickModel, progress: Progress | None = None) -> None:
    """Fit ``model.calib`` on fresh self-play hands (``cfg.calib_hands``,
    other seeds than the data): the chance of making the bid actually made,
    from the network's chance of taking that many tricks and the bid, by
    logistic regression (Newton's method)."""
    settings = preset(cfg.preset)
    rows: list[Array] = []
    bids: list[int] = []
    made: list[float] = []
    seed = cfg.seed * 1_000_003 + 500_000
    for i, h in enumerate(self_play_hands(settings, seed, cfg.calib_hands)):
        for seat, bid, x in bid_examples(h):
            rows.append(x)
            bids.append(bid)
            made.append(float(h.tricks[seat] >= bid))
        if progress and (i + 1) % 100 == 0:
            progress("calibration hands", i + 1, cfg.calib_hands)
    model.calib = fit_calibration(model, rows, bids, made)
    if progress:
        progress("calibration hands", cfg.calib_hands, cfg.calib_hands)


def fit_calibration(
    model: TrickModel, rows: list[Array], bids: list[int], made: list[float]
) -> npt.NDArray[np.float64]:
    """The calibration ``(a, c, d)`` that best gives, by logistic regression
    (Newton's method), whether each bid was made (``made``) from the
    network's chance of taking that many tricks (``rows``: the bids'
    features) and the bid."""
    p = model.probabilities(np.stack(rows))
    tail = np.cumsum(p[:, ::-1], axis=1)[:, ::-1]
    b = np.asarray(bids)
    q = np.clip(tail[np.arange(len(b)), b].astype(np.float64), 1e-6, 1 - 1e-6)
    feats = np.stack([np.log(q / (1 - q)), np.ones(len(b)), b / 13.0], axis=1)
    y = np.asarray(made)
    w = np.asarray([1.0, 0.0, 0.0])
    for _ in range(25):
        z = 1.0 / (1.0 + np.exp(-(feats @ w)))
        grad = feats.T @ (z - y)
        hess = (feats * (z * (1 - z))[:, None]).T @ feats + 1e-6 * np.eye(3)
        w = w - np.linalg.solve(hess, grad)
    return w


def train(
    cfg: TrainConfig, progress: Progress | None = None
) -> tuple[TrickModel, dict[str, float]]:
    """Self-play data, the fit, then the calibration; writes ``tricks.npz``
    in ``cfg.out``."""
    paths = make_data(cfg, progress)
    model, losses = fit(cfg, paths, progress)
    calibrate(cfg, model, progress)
    model.save(cfg.out / "tricks.npz")
    return model, losses
