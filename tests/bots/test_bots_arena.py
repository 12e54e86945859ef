"""The arena (a tiny one: it is a benchmark, not a test) and the analysis."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from fourhundred.bots import make_bot
from fourhundred.bots.analysis import AnalysisOptions, analyse_record
from fourhundred.bots.arena import DEALS_PER_PAIR, ArenaConfig, play_game, play_pair, run_arena
from fourhundred.bots.heuristic import HeuristicBot
from fourhundred.cli import app
from fourhundred.cli.arenatext import WIDE_TABLE, print_report, progress_text
from fourhundred.engine import GameState, Phase, View, preset, record_from_state, view_for


def _cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``fourhundred ARGS`` in a fresh process, its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "fourhundred.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def test_a_bot_against_itself_scores_exactly_zero_per_pair() -> None:
    a = [make_bot("heuristic"), make_bot("heuristic")]
    b = [make_bot("heuristic"), make_bot("heuristic")]
    played = 0
    for i in range(12):
        r = play_pair(i, 0, a, b, preset("standard"))
        if r.margin is not None:
            assert r.margin == 0.0  # the same deal, the seats swapped
            played += 1
    assert played >= 5


def test_a_pair_keeps_both_tables_and_its_margin_is_the_seats_differences() -> None:
    """A pair's two hands (A at seats 0 and 2, then swapped) are kept, and
    its margin is, over the four seats' cards, what they scored held by A
    less held by B, halved (``bench/expert_where.py`` splits it so)."""
    a = [make_bot("heuristic"), make_bot("heuristic")]
    b = [make_bot("random", seed=5), make_bot("random", seed=6)]
    counted = dropped = 0
    for i in range(12):
        r = play_pair(i, 3, a, b, preset("standard"))
        if r.margin is None:
            assert len(r.tables) in (1, 2) and r.tables[-1].thrown_in
            dropped += 1
            continue
        first, second = r.tables
        assert first.deal == second.deal  # the same cards both times
        by_seat = [
            (first if s % 2 == 0 else second).deltas[s]
            - (second if s % 2 == 0 else first).deltas[s]
            for s in range(4)
        ]
        decided_by_13 = 13 in first.bids + second.bids
        assert decided_by_13 or r.margin == sum(by_seat) / 2
        counted += 1
    assert counted >= 6


def test_tiny_arena_reports_everything() -> None:
    cfg = ArenaConfig(
        "heuristic", "random", pairs=6, games=1, settings=preset("quick"), workers=1, seed=1
    )
    seen: list[str] = []
    r = run_arena(cfg, lambda rep, kind: seen.append(kind))
    d = r.to_dict()
    # Six pairs count: the one thrown in (seed 1 has one) was replaced.
    assert d["pairs_counted"] == d["pairs_played"] == d["pairs_asked"] == 6
    assert d["pairs_dropped"] >= 1
    assert seen.count("pair") == 6 + d["pairs_dropped"] and seen.count("game") == 1
    assert d["deal_limit"] == 60 and d["deal_limit_reached"] is False
    assert d["games"] == 2 and d["a_game_wins"] + d["b_game_wins"] + d["game_draws"] == 2
    assert d["mean_points_per_deal"] > 0  # random bids are ruinous
    for key in ("A", "B"):
        bot = d["bots"][key]
        assert bot["decisions"] > 0
        assert 0 <= bot["bid_success"] <= 1
        assert abs(bot["over_bid"] + bot["exact"] + bot["under_bid"] - 1) < 1e-9
        assert bot["ms_p50"] <= bot["ms_p95"] <= bot["ms_max"]


def test_arena_command_with_an_external_bot_and_json(tmp_path: Path) -> None:
    example = Path(__file__).parents[2] / "examples" / "simple_bot.py"
    proc = _cli(
        *("arena", f"cmd:{sys.executable} {example}", "random"),
        *("--pairs", "3", "--games", "1", "--json", "--workers", "2"),
    )
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["pairs_counted"] == 3  # thrown-in deals were replaced
    assert d["bots"]["A"]["faults"] == 0


def test_the_example_search_bot_plays_without_a_fault() -> None:
    """examples/pimc_bot.py, a search written from the docs alone, keeps to
    its budget and answers legally through whole hands and their results."""
    example = Path(__file__).parents[2] / "examples" / "pimc_bot.py"
    proc = _cli(
        *("arena", f"cmd:{sys.executable} {example}", "heuristic"),
        *("--pairs", "2", "--games", "0", "--budget-ms", "30", "--workers", "1", "--json"),
    )
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["pairs_counted"] == 2
    assert d["bots"]["A"]["faults"] == 0, d["bots"]["A"]["fault_samples"]
    assert d["bots"]["A"]["decisions"] > 50


def test_arena_command_refuses_unknown_bots() -> None:
    proc = _cli("arena", "genius", "random", "--pairs", "1", timeout=120)
    assert proc.returncode == 2
    assert "unknown bot 'genius'" in proc.stderr


@pytest.mark.parametrize("command", ["arena", "play"])
def test_a_command_line_with_unbalanced_quotes_is_refused_in_one_line(command: str) -> None:
    bad = "cmd:python3 'unbalanced"
    args = (
        ["arena", bad, "random", "--pairs", "1"] if command == "arena" else ["play", "--bots", bad]
    )
    proc = _cli(*args, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "check its quotes" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def _one_hand_record(seed: int) -> dict[str, object] | None:
    s = GameState(preset("standard"), first_dealer=0)
    s.deal_random(seed=seed)
    bots = [make_bot("heuristic") for _ in range(4)]
    blunders = 0
    while s.phase in (Phase.BID, Phase.PLAY):
        v = view_for(s, s.turn)
        a = bots[s.turn].choose(v)
        if s.phase is Phase.PLAY and s.turn == 1 and len(v.legal or ()) > 1:
            # Seat 1 plays its highest legal card every time: some of
            # those throw tricks or winners away.
            a = max(v.legal or ())
            blunders += 1
        s.apply(a)
    return record_from_state(s).to_dict() if blunders else None


def test_analysis_names_the_search_bid_and_costly_cards() -> None:
    record = next(r for r in map(_one_hand_record, range(30)) if r is not None)
    result = analyse_record(record, AnalysisOptions(deals=6, workers=1), hand=0)
    [hand] = result["hands"]
    assert hand["hand"] == 0
    assert [s["seat"] for s in hand["seats"]] == [0, 1, 2, 3]
    for s in hand["seats"]:
        assert isinstance(s["bid"], int) and isinstance(s["search_bid"], int)
        for c in s["cards"]:
            assert c["lost"] > 0 and c["played"] != c["search"]
        assert s["lost"] >= 0
    # The seat that played its highest card each time is the one with the
    # most to regret.
    worst = max(hand["seats"], key=lambda s: s["lost"])
    assert worst["cards"]


def test_analyse_command_refuses_a_bad_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "fourhundred-record/1", "rules": {}, "hands": []}')
    proc = _cli("analyse", str(bad), timeout=120)
    assert proc.returncode == 2
    assert "not a valid game record" in proc.stderr


def test_arena_reports_the_faults_of_a_crashing_external_bot(
    protocol_bot: Callable[[str], str],
) -> None:
    cfg = ArenaConfig(
        protocol_bot("crash"), "random", pairs=2, games=0, settings=preset("standard"), workers=1
    )
    d = run_arena(cfg).to_dict()
    a = d["bots"]["A"]
    assert a["faults"] >= 2  # replaced at least once at each table it played
    assert any("heuristic bot plays for it" in f for f in a["fault_samples"])
    assert d["pairs_counted"] == 2


def test_an_arena_in_worker_processes_tells_its_external_bots_to_quit(
    tmp_path: Path,
) -> None:
    """Workers end by closing their bots (``quit``, a kill a second later),
    so no bot outlives the arena; their standard error goes to --bot-log."""
    bot = Path(__file__).parent / "protocol_bots" / "stubborn_bot.py"
    log = tmp_path / "bots.log"
    proc = _cli(
        *("arena", f"cmd:{sys.executable} {bot} {tmp_path}", "random"),
        *("--pairs", "4", "--games", "0", "--workers", "2", "--bot-log", str(log)),
    )
    assert proc.returncode == 0, proc.stderr
    assert "counted" not in proc.stdout.splitlines()[0]  # no progress line in the report
    notes = list(tmp_path.glob("*.txt"))
    assert len(notes) >= 2  # both seats of team A, in each worker that played
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(int(n.stem)) for n in notes):
        time.sleep(0.1)
    assert not [n.stem for n in notes if _alive(int(n.stem))], "bots left running"
    assert all(n.read_text().endswith("quit\n") for n in notes)
    said = log.read_text()
    assert "stubborn bot says hello on stderr" in said
    # Each line names the program and its process (the notes are named by it).
    assert any(f"[{n.stem}]: stubborn bot says hello" in said for n in notes)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (dead, not yet reaped by init) counts as gone.
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ")[-1].startswith("Z"))


def _without_clock(d: dict[str, Any]) -> dict[str, Any]:
    d = {k: v for k, v in d.items() if k != "seconds"}
    d["bots"] = {
        k: {n: v for n, v in b.items() if not n.startswith("ms_")} for k, b in d["bots"].items()
    }
    return d


def test_the_same_seed_gives_the_same_pairs_in_any_number_of_workers() -> None:
    runs = [
        run_arena(
            ArenaConfig("heuristic", "random", 6, 1, preset("quick"), seed=1, workers=w)
        ).to_dict()
        for w in (1, 2, 1)
    ]
    assert runs[0]["pairs_dropped"] >= 1  # a replaced pair is part of what must repeat
    assert _without_clock(runs[0]) == _without_clock(runs[1]) == _without_clock(runs[2])


def test_the_deal_limit_stops_a_run_and_says_so() -> None:
    cfg = ArenaConfig("heuristic", "random", 6, 0, preset("quick"), seed=1, workers=1, max_deals=3)
    report = run_arena(cfg)
    d = report.to_dict()
    assert d["pairs_counted"] + d["pairs_dropped"] == 3
    assert d["pairs_counted"] < 6 and d["deal_limit_reached"] is True
    out = io.StringIO()
    print_report(report, Console(file=out, width=80, highlight=False))
    text = " ".join(out.getvalue().split())
    assert f"stopped at the limit of 3 deals: only {d['pairs_counted']} of 6 pairs counted" in text
    assert DEALS_PER_PAIR == 10
    assert "10 deals per pair asked" in " ".join(
        CliRunner().invoke(app, ["arena", "--help"], env={"COLUMNS": "80"}).output.split()
    )


def test_progress_says_counted_of_asked() -> None:
    seen: list[str] = []
    cfg = ArenaConfig("heuristic", "random", 4, 1, preset("quick"), seed=1, workers=1)
    run_arena(cfg, lambda rep, kind: seen.append(progress_text(rep)))
    assert seen[-1].startswith("pairs 4/4 counted (")
    assert "games 1/1" in seen[-1]
    assert all(len(line) <= 70 for line in seen)  # with the clock, within 80 columns


def test_the_report_reads_at_80_columns_and_as_a_table_when_wide() -> None:
    cmd = "cmd:python3 examples/simple_bot.py --a-long-option"
    cfg = ArenaConfig("heuristic", "random", 3, 0, preset("quick"), seed=1, workers=1)
    d = run_arena(cfg)
    d.config = ArenaConfig(cmd, "random", 3, 0, preset("quick"), seed=1)
    narrow, wide = io.StringIO(), io.StringIO()
    print_report(d, Console(file=narrow, width=80, highlight=False))
    print_report(d, Console(file=wide, width=WIDE_TABLE, highlight=False))
    lines = narrow.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    tokens = narrow.getvalue().split()
    words = ("over-bid", "under-bid", "exact", "p50", "p95", "faults")
    for word in (cmd.rsplit(maxsplit=1)[-1], *words):
        assert word in tokens, word
    assert "3 of 3 duplicate pairs counted" in narrow.getvalue()
    assert "┃" in wide.getvalue() or "│" in wide.getvalue()  # the table


class _Listener(HeuristicBot):
    """A heuristic bot that keeps what it is told at each hand's end."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list[tuple[str, int, int | None]] = []

    def observe(self, view: View) -> None:
        self.told.append((view.phase, view.hand_index, view.seat))


def test_bots_are_told_of_every_hand_end_and_the_games_end() -> None:
    # docs/bot-protocol.md: `result` after each hand and at the end of the
    # game (an external bot's observe sends it).
    bots = [_Listener() for _ in range(4)]
    res = play_game(0, 3, [bots[0], bots[2]], [bots[1], bots[3]], preset("quick"))
    for seat, bot in enumerate([bots[0], bots[1], bots[2], bots[3]]):
        phases = [p for p, _, _ in bot.told]
        # Two games (the seats swapped), each ending in "over" once.
        assert phases.count("over") == 2, phases
        assert "bid" not in phases and "play" not in phases
        hands = [h for p, h, _ in bot.told]
        assert len(hands) == res.hands, (seat, len(hands), res.hands)


def test_the_margin_split_by_bids_adds_up_and_resumes(tmp_path: Path) -> None:
    """bench/expert_where.py: the parts of the margin (same bid, A's higher,
    A's lower, the residual) add up to it; a second run finds the pairs on
    file and plays none again."""
    bench = Path(__file__).resolve().parents[2] / "bench" / "expert_where.py"
    out = tmp_path / "where.jsonl"
    cmd = [sys.executable, str(bench), "heuristic", "random", "--pairs", "6", "--out", str(out)]
    first = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    lines = first.stdout.splitlines()
    margin = float(lines[1].split("margin per deal ")[1].split()[0])
    parts = [float(x.split()[-2]) for x in lines[2:6]]
    assert lines[1].startswith("6 counted pairs")
    assert sum(parts) == pytest.approx(margin, abs=0.005)
    assert len(out.read_text().splitlines()) == 6
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    assert again.stdout == first.stdout and len(out.read_text().splitlines()) == 6
