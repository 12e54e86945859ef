"""Learning: a tiny trick model trains end to end in seconds, repeatably
from its seed, resumes from its checkpoint, and the shipped model loads and
gives sensible chances."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from fourhundred.bots.model import N_CLASSES, N_FEATURES, TrickModel, features, shipped_model
from fourhundred.bots.train import TrainConfig, train
from fourhundred.engine import mask_of, parse_card


def _cfg(out: Path, epochs: int = 3, seed: int = 5) -> TrainConfig:
    return TrainConfig(out=out, seed=seed, hands=120, chunk=40, epochs=epochs, hidden=8, batch=64)


def _same(a: TrickModel, b: TrickModel) -> bool:
    return all(
        np.array_equal(x, y)
        for x, y in zip((a.w1, a.b1, a.w2, a.b2), (b.w1, b.b1, b.w2, b.b2), strict=True)
    )


def test_tiny_model_trains_end_to_end_and_repeats_from_its_seed(tmp_path: Path) -> None:
    stages: list[str] = []
    m1, losses = train(_cfg(tmp_path / "a"), lambda stage, done, total: stages.append(stage))
    assert {"self-play hands", "epochs"} <= set(stages)
    assert np.isfinite(losses["train"]) and np.isfinite(losses["valid"])
    assert losses["train"] < np.log(N_CLASSES)  # better than knowing nothing
    assert (tmp_path / "a" / "tricks.npz").exists()
    assert len(list((tmp_path / "a").glob("data-*.npz"))) == 3
    m2, _ = train(_cfg(tmp_path / "b"))
    assert _same(m1, m2)
    m3, _ = train(_cfg(tmp_path / "c", seed=6))
    assert not _same(m1, m3)


def test_training_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    straight, _ = train(_cfg(tmp_path / "straight", epochs=3))
    train(_cfg(tmp_path / "resumed", epochs=1))  # stopped after one epoch
    resumed, _ = train(_cfg(tmp_path / "resumed", epochs=3))
    assert _same(straight, resumed)
    loaded = TrickModel.load(tmp_path / "resumed" / "tricks.npz")
    assert _same(loaded, resumed)


def _hand(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split(" "))


def test_shipped_model_gives_sensible_chances() -> None:
    m = shipped_model()
    assert m.w1.shape[0] == N_FEATURES
    strong = _hand("AH KH QH JH TH 9H AS KS AD KD AC KC QC")
    weak = _hand("2H 3C 4C 5C 6D 7D 8D 2S 3S 4S 5S 6S 7S")
    ps = m.p_make(features(strong, position=0, partner_bid=0, opponent_bids=(0, 0)))
    pw = m.p_make(features(weak, position=0, partner_bid=0, opponent_bids=(0, 0)))
    assert ps[0] == 1.0 or abs(ps[0] - 1.0) < 1e-5
    assert all(ps[b] >= ps[b + 1] - 1e-6 for b in range(13))
    assert ps[8] > 0.9
    assert pw[3] < 0.1


def test_train_and_calibration_commands(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["--hands", "40", "--chunk", "20", "--epochs", "1", "--hidden", "4"]
    proc = subprocess.run(
        [sys.executable, "-m", "fourhundred.cli", "train", "tricks", "--out", str(out), *args,
         "--calib-hands", "10", "--seed", "2"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    assert "trained tricks" in proc.stdout
    assert TrickModel.load(out / "tricks.npz").w1.shape == (N_FEATURES, 4)
    proc = subprocess.run(
        [sys.executable, "-m", "fourhundred.cli", "calibrate", "30", "--json"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    report = json.loads(proc.stdout)
    assert report["bids"] == 120
    assert sum(r["bids"] for r in report["rows"]) == 120
    assert all(0.0 <= r["actual"] <= 1.0 for r in report["rows"])
