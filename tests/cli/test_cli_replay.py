"""``fourhundred replay``: its words for a person (``--text``, where an
unfinished hand says so), its help on the ``--jsonl`` error rule, and file
errors as plain messages."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from fourhundred.cli import app
from fourhundred.engine import GameState, Phase, preset, record_from_state

README = Path(__file__).parents[2] / "README.md"


def _record(tmp_path: Path, plays: int) -> tuple[Path, GameState]:
    """The record of a game stopped after its first hand's bids and
    ``plays`` cards (52: after the whole hand)."""
    s = GameState(preset("standard"), first_dealer=1)
    for seed in range(50):
        s = GameState(preset("standard"), first_dealer=1)
        s.deal_random(seed=seed)
        while s.phase is Phase.BID:
            s.bid(s.legal_bids()[-3])
        if s.phase is Phase.PLAY:
            break
    while s.phase is Phase.PLAY and len(s.plays) < plays:
        s.play(s.legal_cards()[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_from_state(s).to_dict()), encoding="utf-8")
    return path, s


def _run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_text_names_an_unfinished_last_hand(tmp_path: Path) -> None:
    path, s = _record(tmp_path, plays=9)
    code, out, _ = _run("replay", "--text", str(path))
    assert code == 0
    assert "Hand 1: unfinished, 2 of 13 tricks played, won so far" in out
    assert "not scored yet" in out
    assert f"Next: hand 1; seat {s.turn} plays" in out
    assert "Hand 0" not in out
    code, out, _ = _run("replay", str(path))  # the JSON keeps counting from 0
    assert json.loads(out)["next"]["hand"] == 0


def test_text_of_a_finished_hand_and_the_next_deal(tmp_path: Path) -> None:
    path, _ = _record(tmp_path, plays=52)
    code, out, _ = _run("replay", "--text", str(path))
    assert code == 0
    assert "unfinished" not in out
    assert out.splitlines()[0].startswith("Hand 1: tricks ")
    assert "Next: hand 2, not dealt yet; seat " in out


def test_help_and_readme_give_the_jsonl_error_rule() -> None:
    code, out, _ = _run("replay", "--help")
    flat = " ".join(out.split())
    assert code == 0
    assert (
        "--jsonl Read one record per line; write one result per line. A record in error"
        ' gives {"error": "hand H action A: reason"} on its own line, and the exit status'
        " stays 0."
    ) in flat
    assert "H and A count from 0" in flat
    readme = " ".join(README.read_text(encoding="utf-8").split())
    assert (
        'With `--jsonl`, a bad record gives `{"error": "hand H action A: reason"}` on its own line'
        in readme
    )
    assert "the exit status stays 0" in readme


def test_a_bad_record_in_jsonl_is_a_line_and_status_0(tmp_path: Path) -> None:
    good, _ = _record(tmp_path, plays=3)
    lines = tmp_path / "games.jsonl"
    lines.write_text(good.read_text() + "\n{}\n", encoding="utf-8")
    code, out, err = _run("replay", "--jsonl", str(lines))
    assert code == 0 and err == ""
    first, second = (json.loads(x) for x in out.splitlines())
    assert "hands" in first
    assert second["error"].startswith("hand - action -: ")


def test_file_errors_are_plain_messages(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    assert _run("replay", str(missing)) == (
        2,
        "",
        f"cannot read {missing}: No such file or directory\n",
    )
    code, _, err = _run("replay", "--jsonl", str(missing))
    assert (code, err) == (1, f"cannot read {missing}: No such file or directory\n")
    code, _, err = _run("replay")
    assert code == 2 and err.startswith("name a record file")
    assert "hand -" not in err
