"""``fourhundred analyse`` counts hands from 1 where a person reads them
(its text and ``--hand``) and from 0 in its JSON, like the record."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from fourhundred.cli import app
from fourhundred.cli.bots import print_analysis
from fourhundred.engine import GameState, Phase, preset, record_from_state


def _two_thrown_in_hands(tmp_path: Path) -> Path:
    """A record of two hands, each thrown in (every seat bids the least)."""
    s = GameState(preset("standard"), first_dealer=0)
    for seed in (1, 2):
        s.deal_random(seed=seed)
        while s.phase is Phase.BID:
            s.bid(s.legal_bids()[0])
    assert len(s.history) == 2 and all(h.thrown_in for h in s.history)
    path = tmp_path / "two.json"
    path.write_text(json.dumps(record_from_state(s).to_dict()), encoding="utf-8")
    return path


def test_hand_counts_from_1_and_the_json_from_0(tmp_path: Path) -> None:
    path = _two_thrown_in_hands(tmp_path)
    r = CliRunner().invoke(app, ["analyse", str(path), "--hand", "2", "--deals", "2", "--json"])
    assert r.exit_code == 0, r.stderr
    [hand] = json.loads(r.stdout)["hands"]
    assert hand["hand"] == 1  # the second hand, as the record counts it


def test_a_hand_past_the_end_is_named_as_a_person_counts(tmp_path: Path) -> None:
    path = _two_thrown_in_hands(tmp_path)
    r = CliRunner().invoke(app, ["analyse", str(path), "--hand", "3"])
    assert r.exit_code == 2
    assert r.stderr == "--hand 3: the record has 2 hands (1 to 2)\n"
    r = CliRunner().invoke(app, ["analyse", str(path), "--hand", "0"])
    assert r.exit_code == 2  # there is no hand 0


def test_the_text_counts_hands_and_tricks_from_1() -> None:
    result = {
        "deals_per_decision": 2,
        "hands": [
            {
                "hand": 0,
                "seats": [
                    {
                        "seat": 1,
                        "bid": 3,
                        "search_bid": 3,
                        "cards": [{"trick": 0, "played": "QD", "search": "KD", "lost": 1.5}],
                        "lost": 1.5,
                    }
                ],
            }
        ],
    }
    out = io.StringIO()
    print_analysis(result, Console(file=out, width=80))
    text = out.getvalue()
    assert "Hand 1" in text and "Hand 0" not in text
    assert "trick 1: played QD, expert prefers KD" in text


def test_the_help_says_how_hands_are_counted() -> None:
    out = " ".join(CliRunner().invoke(app, ["analyse", "--help"]).output.split())
    assert "--hand INTEGER Analyse only this hand, counted from 1" in out
    assert "--json, like the record, counts hands from 0" in out
