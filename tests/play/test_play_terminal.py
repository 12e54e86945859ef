"""The terminal game, driven by piped input: bad input never crashes it,
the picture shows what a player needs, and the record can be saved."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

from fourhundred.cli.play import TerminalGame
from fourhundred.cli.playtext import rules_lines
from fourhundred.engine import (
    CARD_NAMES,
    SETTING_CHOICES,
    SETTING_RANGES,
    SETTING_SWITCHES,
    Phase,
    preset,
    replay_result,
    view_for,
)


class Driver(io.StringIO):
    """Standard input that answers like a player: first the scripted lines,
    then a legal move whenever the game asks for one (the lowest bid, the
    first legal card), ``n`` to the save question."""

    def __init__(self, script: list[str], out: io.StringIO) -> None:
        super().__init__()
        self.script = list(script)
        self.out = out
        self.game: TerminalGame | None = None
        self.prompts = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.prompts += 1
        if self.prompts > 5000:
            return ""  # end of input: the game must stop cleanly
        if self.script:
            return self.script.pop(0) + "\n"
        if self.out.getvalue().rstrip().endswith("[y/N]"):
            return "n\n"
        assert self.game is not None
        s = self.game.state
        v = view_for(s, self.game.seat)
        if s.phase is Phase.BID:
            return f"{v.legal[0]}\n"  # type: ignore[index]
        return CARD_NAMES[v.legal[0]] + "\n"  # type: ignore[index]


def _game(script: list[str], seed: int = 3, seat: int = 2) -> tuple[TerminalGame, io.StringIO]:
    out = io.StringIO()
    drv = Driver(script, out)
    g = TerminalGame(preset("quick"), seat, "heuristic", seed, drv, out)
    drv.game = g
    return g, out


def test_a_whole_game_to_the_end() -> None:
    g, out = _game([])
    assert g.run() == 0
    text = out.getvalue()
    assert g.state.phase is Phase.OVER
    assert "Score sheet" in text
    assert ("You and your partner win!" in text) or ("The other team wins." in text)
    # The picture: suits with hearts as trumps, legal cards marked, bids.
    assert "Hearts (trumps)" in text
    assert "You may play:" in text
    assert "*" in text
    assert "Bids: " in text and "worth" in text
    assert "Your bid, worth (points):" in text


def test_bad_input_gets_a_message_and_a_new_prompt() -> None:
    script = ["", "banana", "99", "bid x", "ZZ", "QD", "help", "rules", "scores", "last", "hand"]
    g, out = _game(script, seed=5, seat=0)
    g.run()
    text = out.getvalue()
    assert "'banana' is not a bid" in text
    assert "You cannot bid 99: you may bid 2 to 12." in text
    assert "'bid x' is not a bid" in text
    assert "Commands:" in text
    assert "Rules: quick." in text
    assert "Target: a team wins when one partner has 31 points" in text
    assert "No trick has been completed in this hand yet." in text
    assert g.state.phase is Phase.OVER


def test_illegal_card_is_refused() -> None:
    # Seat 1 acts in the first trick after seat 0 (dealer 3): play a card
    # that does not follow suit when following is possible.
    g, out = _game([], seed=8, seat=1)
    s = g.state
    # Deal and bid the first hand by driving the game until our first card.
    s.deal_random()
    while s.phase is Phase.BID:
        s.apply(s.legal_actions()[1])
    while s.turn != 1:
        s.apply(s.legal_actions()[0])
    legal = set(view_for(s, 1).legal or ())
    held = [c for c in range(52) if s.hand(1) >> c & 1 and c not in legal]
    drv = g.inp
    assert isinstance(drv, Driver)
    if held:
        drv.script = [CARD_NAMES[held[0]], "AS" if not s.hand(1) >> 51 & 1 else "2C"]
    else:
        drv.script = ["AS" if not s.hand(1) >> 51 & 1 else "2C"]
    g.human_turn()
    text = out.getvalue()
    assert "You do not hold" in text or "You must follow suit: you may play" in text
    assert "Not allowed" not in text and "by seat 1" not in text


def test_piped_command_quits_and_saves_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    lines = ["nonsense", "quit", "y", str(record)]
    proc = subprocess.run(
        [sys.executable, "-m", "fourhundred.cli", "play", "--seed", "4", "--seat", "1"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "'nonsense' is not a bid" in proc.stdout or "'nonsense' is not a card" in proc.stdout
    assert "Game stopped." in proc.stdout
    said = " ".join(proc.stdout.split())  # lines are wrapped to $COLUMNS
    assert f"Saved the game record to {record}" in said
    result = replay_result(json.loads(record.read_text()))
    assert result["next"] is not None  # an unfinished game, as played


def test_end_of_input_stops_cleanly() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "fourhundred.cli", "play", "--seed", "1", "--bots", "random"],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Game stopped." in proc.stdout
    assert "Traceback" not in proc.stderr


def test_unknown_bot_and_preset_are_refused() -> None:
    for args, message in (
        (["--bots", "genius"], "unknown bot 'genius'"),
        (["--preset", "nope"], "unknown preset"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "fourhundred.cli", "play", *args],
            input="",
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 2
        assert message in proc.stderr


def after_prompts(text: str) -> str:
    """``text`` as a terminal shows it: what is said after a prompt (where
    the player typed a line) starts a line of its own."""
    return re.sub(r"(?m)^(> )+", "\n", text)


def _whole_game(seed: int, seat: int, width: int = 80) -> tuple[TerminalGame, str]:
    out = io.StringIO()
    drv = Driver([], out)
    g = TerminalGame(preset("quick"), seat, "heuristic", seed, drv, out, width=width)
    drv.game = g
    assert g.run() == 0
    return g, out.getvalue()


def test_you_deal_and_a_new_deal_speak_to_you() -> None:
    g, text = _whole_game(seed=3, seat=0)
    assert len(g.state.history) >= 4  # every seat dealt at least once
    assert "=== Hand 1: " in text and "=== Hand 0" not in text
    assert "You deal." in text
    assert "You deals" not in text and "You (seat 0) deals" not in text


FINAL_TRICK = re.compile(
    r"Final trick: Trick (\d+): ((?:You|Right|Partner|Left) \w+, ){3}"
    r"(?:You|Right|Partner|Left) \w+ -> won by (you|(?:Right|Partner|Left) \(seat \d\))"
)


def test_the_final_trick_names_its_seats_and_its_winner() -> None:
    g, text = _whole_game(seed=4, seat=1, width=10_000)
    text = after_prompts(text)
    finals = [line for line in text.splitlines() if line.startswith("Final trick")]
    played = [h for h in g.state.history if not h.thrown_in]
    assert len(finals) == len(played) > 0
    for line, h in zip(finals, played, strict=True):
        m = FINAL_TRICK.fullmatch(line)
        assert m is not None, line
        assert int(m[1]) == len(h.trick_winners)
    last = g.state.last_trick()
    assert last is not None
    winner = "you" if last.winner == 1 else f"(seat {last.winner})"
    assert finals[-1].endswith(winner)


def test_the_rules_command_explains_every_setting_in_words() -> None:
    base = preset("standard")
    text = "\n".join(rules_lines(base))
    assert "_" not in text  # no key such as min_bid, no value such as non_negative
    for key, value in base.to_dict().items():
        if key in SETTING_RANGES:
            lo, hi = SETTING_RANGES[key]
            other: object = hi if value == lo else lo
        elif key in SETTING_CHOICES:
            other = next(c for c in SETTING_CHOICES[key] if c != value)
        else:
            assert key in SETTING_SWITCHES
            other = not value
        changed = "\n".join(rules_lines(base.replace(**{key: other})))
        assert changed != text, f"the rules text does not show {key}"
        assert "_" not in changed


def test_hand_shows_the_picture_and_the_question_again() -> None:
    g, out = _game(["hand", "quit"], seed=2, seat=3)
    g.run()
    text = out.getvalue()
    after_hand = text.split("> ")[1]
    assert "Your bid, worth (points):" in text.split("> ")[0]
    assert "Your hand" in after_hand and "Your bid, worth (points):" in after_hand, after_hand


def test_lines_fit_80_columns_and_no_word_is_broken() -> None:
    narrow = after_prompts(_whole_game(seed=6, seat=2, width=80)[1])
    wide = after_prompts(_whole_game(seed=6, seat=2, width=10_000)[1])
    assert max(len(line) for line in wide.splitlines()) > 80  # there was something to wrap
    assert max(len(line) for line in narrow.splitlines()) <= 80
    assert narrow.split() == wide.split()  # the same words, none cut in two
