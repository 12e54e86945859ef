"""The golden playthroughs still match the engine, line for line.

A failure here means the engine now plays these fixed games differently. If
that is a bug, fix the engine. If the rules change is intended, regenerate
the files with ``python tests/golden/regen.py`` and commit them: the diff is
the readable record of what the change did.
"""

from __future__ import annotations

import difflib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

HERE = Path(__file__).resolve().parent
REGEN = HERE / "regen.py"


def load_regen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fourhundred_golden_regen", REGEN)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


regen = load_regen()
NAMES = list(regen.SCENARIOS)


def test_the_promised_scenarios_exist() -> None:
    assert set(NAMES) >= {"standard", "traditional", "jawaker", "syrian", "no_face_card_redeal"}


@pytest.mark.parametrize("name", NAMES)
def test_golden_file_matches_the_engine(name: str) -> None:
    path: Path = regen.path_of(name)
    assert path.exists(), (
        f"{path} is missing: generate it with `python tests/golden/regen.py` and commit it"
    )
    expected = path.read_text(encoding="utf-8")
    got = regen.render(name)
    if got != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(keepends=True),
                    got.splitlines(keepends=True),
                    fromfile=f"{path.name} (committed)",
                    tofile=f"{path.name} (engine now)",
                    n=2,
                )
            )[:60]
        )
        pytest.fail(
            f"{path} no longer matches the engine.\n"
            "If this rules change is intended, regenerate the golden files with\n"
            "    python tests/golden/regen.py\n"
            "review the diff and commit them; otherwise the engine has a bug.\n\n" + diff,
            pytrace=False,
        )


def test_rendering_is_deterministic() -> None:
    assert regen.render("standard") == regen.render("standard")


def test_each_file_shows_what_it_is_for() -> None:
    traditional = regen.path_of("traditional").read_text(encoding="utf-8")
    assert "bid 13 and" in traditional
    assert "game over: team" in traditional
    redeal = regen.path_of("no_face_card_redeal").read_text(encoding="utf-8")
    assert "result: redeal requested by seat" in redeal
    # The hand after the request has the same dealer.
    lines = redeal.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("result: redeal"))
    before = [line for line in lines[:at] if line.startswith("## hand")][-1]
    after = next(line for line in lines[at:] if line.startswith("## hand"))
    assert before.split(",")[1] == after.split(",")[1], (before, after)
    syrian = regen.path_of("syrian").read_text(encoding="utf-8")
    assert "[legal 1..12]" in syrian
    assert "scoring=classic" in syrian
    jawaker = regen.path_of("jawaker").read_text(encoding="utf-8")
    assert "big_bids=ten_40" in jawaker
    assert "[legal 2..13]" in jawaker


def test_every_line_of_a_file_is_a_state_or_an_action() -> None:
    """The format stays readable: headers, deals, actions, states, results."""
    for name in NAMES:
        for line in regen.path_of(name).read_text(encoding="utf-8").splitlines():
            assert line == "" or line.startswith(
                (
                    "# ",
                    "rules: ",
                    "settings: ",
                    "seed: ",
                    "first_dealer: ",
                    "## hand ",
                    "deal ",
                    "  hand ",
                    "seat ",
                    "result: ",
                    "  tricks ",
                    "  deltas ",
                    "  scores ",
                    "game over: ",
                    "stopped after ",
                )
            ), f"{name}: {line!r}"


def test_the_pure_python_core_writes_the_same_files() -> None:
    env = dict(os.environ, FOURHUNDRED_PURE_PYTHON="1")
    proc = subprocess.run(
        [sys.executable, str(REGEN), "--check"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
