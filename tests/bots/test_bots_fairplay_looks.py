"""bench/fairplay_looks.py: careers of games built from a measurement's
recorded hands, flagged by the detector's own rule after each game, with
the thresholds rising past 50 deals unless ``--fixed``."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

BENCH = Path(__file__).resolve().parents[2] / "bench" / "fairplay_looks.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fairplay_looks", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _seat(llr: float, policy: float = 0.0) -> list[float]:
    """A seat's fields of one hand (as bench/fairplay.py records them):
    decisions, llr, llr_sq, gain, discriminating, agree_true, agree_ref,
    policy_decisions, policy."""
    return [5, llr, llr * llr, 0.0, 0, 0, 0, 5, policy]


def _row(table: str, a: str, b: str, lean: float, deals: int = 10) -> dict[str, Any]:
    """A table whose first pair leans ``lean`` a seat and hand, the other not at all."""
    hand = [_seat(lean), _seat(0.0), _seat(lean), _seat(0.0)]
    return {"id": table, "a": a, "b": b, "deals": deals, "points": [0, 0], "hands": [hand] * deals}


def test_careers_of_a_leaning_pair_are_flagged_and_of_a_quiet_pair_never() -> None:
    looks = _bench()
    rows = [_row("r0-x", "colluder:search:1", "honest:noisy", 0.5)]
    rows.append(_row("r1-y", "colluder:search:1", "honest:noisy", 0.5))
    pools = looks.hands_by_kind(rows)
    assert {k: len(v) for k, v in pools.items()} == {"colluder:search:1": 20, "honest:noisy": 20}
    # Both partners' hand together: 10 decisions, a hand's llr 1.0.
    assert pools["colluder:search:1"][0].tolist() == [10, 1.0, 1.0, 10, 0.0, 0.0]
    rng = np.random.default_rng(1)
    lean = looks.flags(looks.careers(pools["colluder:search:1"], 5, 3, 10, rng), 2.8, 10, False)
    quiet = looks.flags(looks.careers(pools["honest:noisy"], 5, 3, 10, rng), 2.8, 10, False)
    assert lean.all()  # identical hands: a score of sqrt(10) after one game
    assert not quiet.any()


def test_the_thresholds_rise_with_the_games_unless_fixed() -> None:
    looks = _bench()
    # A career whose sums score 3.0 after each of 20 games of 10 hands.
    sums = np.zeros((1, 20, 6))
    sums[0, :, 0] = 100  # decisions
    sums[0, :, 1] = 3.0  # llr
    sums[0, :, 2] = 1.0  # hand_sq
    fixed = looks.flags(sums, 2.8, 10, True)
    rising = looks.flags(sums, 2.8, 10, False)
    assert fixed.all()
    # 3.0 passes 2.8 up to 50 deals and the risen threshold up to 90 (2.97);
    # at 100 deals the threshold is 3.01.
    assert rising[0].tolist() == [True] * 9 + [False] * 11


def test_the_script_prints_a_table_of_every_kind(tmp_path: Path) -> None:
    rows = [_row(f"r{r}-t", "colluder:heuristic:0.5", "honest:beginner", 0.5) for r in range(3)]
    (tmp_path / "tables.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    args = ["--out", str(tmp_path), "--careers", "20", "--games", "1,2", "--from-round", "1"]
    done = subprocess.run(
        [sys.executable, str(BENCH), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "2 tables" in done.stdout and "rising past 50 deals" in done.stdout
    assert "colluder:heuristic:0.5" in done.stdout and "honest:beginner" in done.stdout
    assert "100.00% / 100.00%" in done.stdout and "0.00% / 0.00%" in done.stdout
