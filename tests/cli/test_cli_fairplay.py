"""``fourhundred fairplay`` on record files: per-seat scores as a table or
JSON, partners sharing their partnership's score, bad records refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fourhundred.bots import HeuristicBot
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.cli import app


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    [game] = play_deals([HeuristicBot() for _ in range(4)], deals=1, seed=3)
    path = tmp_path_factory.mktemp("fp") / "game.json"
    path.write_text(json.dumps(game.to_dict()), encoding="utf-8")
    return path


def test_json_gives_every_seat_and_its_partnership(record_file: Path) -> None:
    r = CliRunner().invoke(app, ["fairplay", str(record_file), "--json", "--seed", "2"])
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    hands = len(json.loads(record_file.read_text(encoding="utf-8"))["hands"])
    assert (out["records"], out["deals"]) == (1, hands)  # a hand thrown in counts too
    assert out["threshold"] == 2.9  # as set: the thresholds rise only past 50 deals
    assert out["policy_threshold"] == 2.9
    seats = out["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    assert all(s["player"]["decisions"] > 0 for s in seats)
    assert seats[0]["pair"] == seats[2]["pair"]
    assert seats[1]["pair"] == seats[3]["pair"]
    assert seats[0]["pair"]["decisions"] == (
        seats[0]["player"]["decisions"] + seats[2]["player"]["decisions"]
    )
    # The second statistic, judged on the same cards (bids have none).
    assert all(0 < s["player"]["policy_decisions"] < s["player"]["decisions"] for s in seats)
    assert all(isinstance(s["pair"]["policy_z"], float) for s in seats)
    # One deal is too few decisions for a flag, whatever the score.
    assert not any(s["flagged"] for s in seats)


def test_two_records_add_up_and_the_text_is_a_table(record_file: Path) -> None:
    one = CliRunner().invoke(app, ["fairplay", str(record_file), "--json"])
    two = CliRunner().invoke(app, ["fairplay", str(record_file), str(record_file), "--json"])
    d1 = json.loads(one.stdout)["seats"][0]["player"]["decisions"]
    d2 = json.loads(two.stdout)["seats"][0]["player"]["decisions"]
    assert d2 == 2 * d1
    text = CliRunner().invoke(app, ["fairplay", str(record_file), "--threshold", "2.5"])
    assert text.exit_code == 0
    assert "Fair play" in text.stdout and "z >= 2.5" in text.stdout
    assert "second z >= 2.9" in text.stdout


def test_a_bad_record_is_refused_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nope"}', encoding="utf-8")
    r = CliRunner().invoke(app, ["fairplay", str(bad)])
    assert r.exit_code == 2
    assert "not a valid game record" in r.stderr


def test_the_commands_defaults_are_the_detectors() -> None:
    """The command judges as the server's checks do unless told otherwise
    (its defaults are written out so the bots load only when it runs)."""
    import inspect

    from fourhundred.bots.fairplay import ScoreOptions
    from fourhundred.cli.fairplay import fairplay

    params = inspect.signature(fairplay).parameters
    assert params["deals"].default == ScoreOptions().deals
    assert params["refs"].default == ScoreOptions().refs
