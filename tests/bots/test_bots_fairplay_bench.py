"""bench/fairplay.py end to end on a tiny run (--quick, 2 deals): the
tables are played, scored, checkpointed and summarised, and a second run
resumes instead of playing them again; a table measured before the second
statistic gets it added (--add-policy) and a table's bids (--rebid) or
cards (--recard) are judged again from the same games, and games that are
not the same are refused."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fourhundred.bots.fairplay import FLAG_Z, POLICY_FLAG_Z, ScoreOptions
from fourhundred.bots.fairplay.measure import Table, plan, summarise, wilson
from fourhundred.bots.fairplay.rejudge import add_policy, rebid, recard

BENCH = Path(__file__).resolve().parents[2] / "bench" / "fairplay.py"


def _run(out: Path, *more: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick", "--workers", "1", "--out", str(out), *more],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    last = done.stdout.strip().splitlines()[-1]
    parsed: dict[str, object] = json.loads(last)
    return parsed


def _flat(rows: list[list[list[float]]]) -> list[float]:
    return [x for hand in rows for seat in hand for x in seat]


def _cards(row: dict[str, object]) -> list[float]:
    """A table's evidence of the cards alone: the hands' less their bids'."""
    assert isinstance(row["hands"], list) and isinstance(row["bid_hands"], list)
    return [t - b for t, b in zip(_flat(row["hands"]), _flat(row["bid_hands"]), strict=True)]


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """A quick run (two tables of 2 deals), its directory and printed figures."""
    out = tmp_path_factory.mktemp("quick")
    return out, _run(out)


def _rows(out: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (out / "tables.jsonl").read_text().splitlines()]


def _by_id(out: Path) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in _rows(out)}


def _not_the_same(rows: list[dict[str, Any]]) -> tuple[Table, dict[str, Any]]:
    """A table and a row whose games are not the table's (other points)."""
    other = {**rows[0], "points": [p + 1 for p in rows[0]["points"]]}
    return Table(other["id"], other["a"], other["b"], other["seed"]), other


def test_quick_run_scores_checkpoints_and_resumes(
    quick: tuple[Path, dict[str, object]],
) -> None:
    out, first = quick
    assert first["tables"] == 2
    assert first["deals"] == 2
    rows = _rows(out)
    assert sorted(r["id"] for r in rows) == ["q0-c", "q0-h"]
    assert all(len(r["hands"]) == 2 for r in rows)
    assert all(len(r["bid_hands"]) == 2 for r in rows)  # the bids' share, kept apart
    summary = json.loads((out / "summary.json").read_text())
    assert summary["by_pair"]["colluder:search:1.0"]["pairs"] == 1
    assert summary["by_pair"]["colluder:search:1.0"]["bids_judged"] >= 2
    again = _run(out)
    assert again == first  # nothing played twice: the same tables, the same figures
    assert len((out / "tables.jsonl").read_text().splitlines()) == 2
    assert summarise(rows)["curve"] == first["curve"]
    assert all(len(seat) == 9 for r in rows for hand in r["hands"] for seat in hand)
    assert any(seat[7] > 0 for r in rows for hand in r["hands"] for seat in hand)


def test_the_second_statistic_is_added_to_old_tables(
    quick: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    # The same tables as measured before the second statistic (its fields
    # cut off): --add-policy gives them back as a full run measured them.
    out, _ = quick
    rows = _rows(out)
    old = tmp_path / "old"
    old.mkdir()
    cut = [{**r, "hands": [[seat[:7] for seat in hand] for hand in r["hands"]]} for r in rows]
    (old / "tables.jsonl").write_text("".join(json.dumps(r) + "\n" for r in cut))
    _run(tmp_path / "added", "--add-policy", str(old))
    added = _by_id(tmp_path / "added")
    for r in rows:
        assert added[r["id"]]["hands"] == r["hands"]
    with pytest.raises(ValueError, match="not the same games"):
        add_policy(*_not_the_same(cut))


def _three_ways(
    out: Path, tmp_path: Path, again: str, other: list[str], back: list[str]
) -> tuple[dict[str, dict[str, Any]], ...]:
    """A quick run judged again (``again``, ``--rebid`` or ``--recard``) as
    it was, with ``other`` options, and from that back with ``back``: the
    three runs' rows by table."""
    _run(tmp_path / "same", again, str(out))
    _run(tmp_path / "other", again, str(out), *other)
    _run(tmp_path / "back", again, str(tmp_path / "other"), *back)
    return tuple(_by_id(tmp_path / d) for d in ("same", "other", "back"))


def test_the_bids_are_judged_again(quick: tuple[Path, dict[str, object]], tmp_path: Path) -> None:
    # The bids judged again (--rebid): by the same model, the same hands;
    # by another, other bids and the same cards; and back again.
    out, _ = quick
    rows = _rows(out)
    same, soft, back = _three_ways(
        out, tmp_path, "--rebid", ["--bid-model", "softmax"], ["--bid-model", "pick"]
    )  # the quick run's bids are judged by the detector's model, "pick"
    for r in rows:
        for again in (same[r["id"]], back[r["id"]]):
            assert _flat(again["hands"]) == pytest.approx(_flat(r["hands"]))
            assert _flat(again["bid_hands"]) == pytest.approx(_flat(r["bid_hands"]))
        assert soft[r["id"]]["bid_model"] == "softmax"
        assert _cards(soft[r["id"]]) == pytest.approx(_cards(r))
    assert any(_flat(soft[r["id"]]["bid_hands"]) != _flat(r["bid_hands"]) for r in rows)
    with pytest.raises(ValueError, match="not the same games"):
        rebid(*_not_the_same(rows))


def test_the_cards_are_judged_again(quick: tuple[Path, dict[str, object]], tmp_path: Path) -> None:
    # The cards judged again (--recard): with the same inferred hands, the
    # same hands; with others (each kept of 4 deals, not 12), other cards'
    # evidence and the same bids and second statistic; and back again.
    out, _ = quick
    rows = _rows(out)
    same, four, back = _three_ways(out, tmp_path, "--recard", ["--infer-batch", "4"], [])
    for r in rows:
        for again in (same[r["id"]], back[r["id"]]):
            assert _flat(again["hands"]) == pytest.approx(_flat(r["hands"]))
        assert four[r["id"]]["infer_batch"] == 4
        assert four[r["id"]]["bid_hands"] == r["bid_hands"]
        policy = [seat[7:] for hand in four[r["id"]]["hands"] for seat in hand]
        assert policy == [seat[7:] for hand in r["hands"] for seat in hand]
    assert any(_cards(four[r["id"]]) != pytest.approx(_cards(r)) for r in rows)
    with pytest.raises(ValueError, match="not the same games"):
        recard(*_not_the_same(rows))


def test_the_cards_are_judged_again_on_more_deals(
    quick: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    # --recard with the cards valued on 24 deals and resampled at 16: other
    # cards' evidence, the same bids and second statistic, and the row says
    # how its cards were judged.
    out, _ = quick
    rows = _rows(out)
    _run(tmp_path / "more", "--recard", str(out), "--card-deals", "24", "--argmax-size", "16")
    more = _by_id(tmp_path / "more")
    for r in rows:
        assert (more[r["id"]]["card_deals"], more[r["id"]]["argmax_size"]) == (24, 16)
        assert more[r["id"]]["bid_hands"] == r["bid_hands"]
        policy = [seat[7:] for hand in more[r["id"]]["hands"] for seat in hand]
        assert policy == [seat[7:] for hand in r["hands"] for seat in hand]
    assert any(_cards(more[r["id"]]) != pytest.approx(_cards(r)) for r in rows)


def test_cards_and_bids_are_judged_again_by_another_model(
    quick: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    # The quick run judges by the detector's model, the search's rule;
    # --recard --card-model argmax, then --rebid --bid-model argmax: the
    # cards' evidence by the argmax, then the bids' too; each pass keeps
    # what it does not judge, and the rows say which model judged them.
    out, _ = quick
    rows = _rows(out)
    assert all((r["card_model"], r["bid_model"]) == ("pick", "pick") for r in rows)
    _run(tmp_path / "cards", "--recard", str(out), "--card-model", "argmax")
    cards = _by_id(tmp_path / "cards")
    _run(tmp_path / "both", "--rebid", str(tmp_path / "cards"), "--bid-model", "argmax")
    both = _by_id(tmp_path / "both")
    for r in rows:
        assert cards[r["id"]]["card_model"] == "argmax"
        assert cards[r["id"]]["bid_hands"] == r["bid_hands"]
        assert both[r["id"]]["bid_model"] == "argmax"
        assert _cards(both[r["id"]]) == pytest.approx(_cards(cards[r["id"]]))
    assert any(_cards(cards[r["id"]]) != pytest.approx(_cards(r)) for r in rows)
    assert any(_flat(both[r["id"]]["bid_hands"]) != _flat(r["bid_hands"]) for r in rows)


def test_the_thresholds_rule_and_the_same_tables_summary(
    quick: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    out, _ = quick
    rows = _rows(out)
    # The thresholds' rule, on the honest pairs alone.
    rule = subprocess.run(
        [sys.executable, str(BENCH.parent / "fairplay_threshold.py"), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.splitlines()
    assert rule[0] == "2 tables, 3 honest pairs after 50 deals"
    assert rule[-1].startswith(("the rule: both at", "honest pairs at either", "no tenth"))

    # Another run's tables: the summary of those in both, printed only.
    one = tmp_path / "one"
    one.mkdir()
    (one / "tables.jsonl").write_text(json.dumps(rows[0]) + "\n")
    before = (out / "summary.json").read_text()
    args = ["--summary-only", "--same-tables-as", str(one)]
    done = subprocess.run(
        [sys.executable, str(BENCH), "--out", str(out), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert done.stderr.startswith("threshold z >= 2.9, 1 tables, 2 deals")
    assert (out / "summary.json").read_text() == before


def test_the_plan_is_balanced_by_round() -> None:
    tables = plan(2, seed=1)
    assert len({t.id for t in tables}) == len(tables) == 20
    first = tables[:10]
    assert sum(t.kind == "colluding" for t in first) == 6
    assert {t.a for t in first if t.kind == "honest"} | {t.b for t in first} >= {
        "honest:beginner",
        "honest:intermediate",
        "honest:expert",
        "honest:noisy",
    }


def test_wilson_interval_brackets_the_rate() -> None:
    lo, hi = wilson(9, 10)
    assert lo < 0.9 < hi
    assert wilson(0, 0) == (0.0, 1.0)


def _row(card_l: float, bid_l: float, weight: float) -> dict[str, object]:
    """A table row of two hands where seat 0 has ``card_l`` from cards and
    ``bid_l`` from a bid, scored with ``weight``."""
    hand = [[2, card_l + weight * bid_l, 0.0, 0.0, 0, 0, 0], *[[0, 0.0, 0.0, 0.0, 0, 0, 0]] * 3]
    bid = [[1, bid_l, 0.0, 0.0, 0, 0, 0], *[[0, 0.0, 0.0, 0.0, 0, 0, 0]] * 3]
    other = [[2, -card_l, 0.0, 0.0, 0, 0, 0], *[[0, 0.0, 0.0, 0.0, 0, 0, 0]] * 3]
    return {
        "id": "r0-x",
        "a": "honest:beginner",
        "b": "honest:noisy",
        "seed": 0,
        "deals": 2,
        "points": [0, 0],
        "hands": [hand, other],
        "bid_hands": [bid, [[0, 0.0, 0.0, 0.0, 0, 0, 0]] * 4],
        "bid_weight": weight,
    }


def test_the_summary_reweighs_the_bids_of_recorded_tables() -> None:
    # The same evidence scored at weight 1 and at weight 4 gives the same
    # figures once both are summarised at one weight.
    for weight in (0.0, 1.0, 4.0):
        a = summarise([_row(1.0, 0.5, 1.0)], bid_weight=weight)
        b = summarise([_row(1.0, 0.5, 4.0)], bid_weight=weight)
        for spec in ("honest:beginner", "honest:noisy"):
            assert a["by_pair"][spec]["mean_z"] == pytest.approx(b["by_pair"][spec]["mean_z"])
    # Weight 0 is the cards alone: 1 - 1 over two hands, z = 0.
    zero = summarise([_row(1.0, 0.5, 4.0)], bid_weight=0.0)
    assert zero["by_pair"]["honest:beginner"]["mean_z"] == 0.0
    assert zero["by_pair"]["honest:beginner"]["mean_z_cards"] == 0.0
    more = summarise([_row(1.0, 0.5, 4.0)], bid_weight=4.0)
    assert more["by_pair"]["honest:beginner"]["mean_z"] > 0.0
    assert more["by_pair"]["honest:beginner"]["bids_judged"] == 1


def test_the_weightings_bench_prints_every_kind_with_each_weighting() -> None:
    bench = BENCH.parent / "fairplay_weights.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--tables", "1", "--deals", "2", "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = done.stdout.strip().splitlines()
    assert lines[0] == "1 tables per kind, 2 deals, seed 100"
    assert lines[1].split()[1::5] == ["flat", "score", "own"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:]}
    assert set(rows) == {"colluder:0.25", "colluder:0.5", "beginner", "noisy", "intermediate"}
    for cells in rows.values():
        assert len(cells) == 9  # mean, (sd), count for each weighting
        float(cells[0]), float(cells[3]), float(cells[6])


def test_the_weightings_bench_takes_the_mixtures_shares() -> None:
    bench = BENCH.parent / "fairplay_weights.py"
    args = ["--tables", "1", "--deals", "1", "--workers", "1", "--weightings", "own:0.2:0.7"]
    done = subprocess.run(
        [sys.executable, str(bench), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = done.stdout.strip().splitlines()
    assert lines[1].split()[1:4] == ["own:0.2:0.7", "mean", "(sd)"]
    assert all(len(line.split()) == 4 for line in lines[2:])  # kind, mean, (sd), count


def _values_bench(*args: str) -> list[str]:
    bench = BENCH.parent / "fairplay_card_weights.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--rounds", "1", "--deals", "1", "--workers", "1", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout.strip().splitlines()


def test_the_values_bench_scores_cards_by_both_models_and_with_the_bids(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    lines = _values_bench("--card-deals", "4", "--out", str(cards))
    assert lines[0].startswith("5 tables; Scoring(beta=0.3")
    assert lines[1].split()[1:] == ["flat", "tv", "split", "argmax"]
    rows = [json.loads(x) for x in (cards / "decisions.jsonl").read_text().splitlines()]
    assert all(len(r) == 6 and len(r[5]) == 3 for t in rows for r in t["rows"])  # real + 2 refs
    assert all(t["bids"] == [] for t in rows)
    bids = tmp_path / "bids"
    only = _values_bench("--card-deals", "0", "--bid-deals", "2", "--out", str(bids))
    models = ["bids", "cards+bids", "bids-am", "cards+bids-am", "bids-am16", "cards+bids-am16"]
    assert only[1].split()[1:] == ["flat", "tv", "split", *models]
    stored = [json.loads(x) for x in (bids / "decisions.jsonl").read_text().splitlines()]
    judged = [r for t in stored for r in t["bids"]]
    assert judged and all(len(r[5]) == len(r[6]) == 4 for r in judged)  # real + 3 refs, 2 models
    both = _values_bench("--summary-only", "--out", str(cards), "--bids-from", str(bids))
    assert both[1].split()[1:] == ["flat", "tv", "split", "argmax", *models]
    kinds = len(lines) - 2  # every kind of pair, each with every column, and then
    assert len(both) == len(lines) + 1 + kinds  # each other bid model less the softmax
    assert both[len(lines)].startswith("paired, on the same games")
    assert all(len(x.split()) == 1 + 3 * 2 for x in both[len(lines) + 1 :])
    fewer = _values_bench("--summary-only", "--out", str(cards), "--use-refs", "1")
    assert "refs=1" in fewer[0]


def test_the_inferred_hands_bench_judges_the_same_cards_with_each_batch(tmp_path: Path) -> None:
    bench = BENCH.parent / "fairplay_infer_batch.py"
    out = tmp_path / "screen.jsonl"
    args = ["--rounds", "1", "--deals", "1", "--workers", "1", "--batches", "2", "8"]
    done = subprocess.run(
        [sys.executable, str(bench), *args, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = done.stdout.strip().splitlines()
    assert lines[0] == "3 tables; the first statistic's cards, mean score by batch"
    kinds = {line.split()[0] for line in lines[2:]}
    assert kinds == {
        "colluder:search:0.25",
        "honest:beginner",
        "honest:expert",
        "honest:intermediate",
        "honest:noisy",
    }
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    for r in rows:  # every judged hand is judged with both batches
        for team in ("0", "1"):
            two, eight = r["res"].get(f"{team}|2", {}), r["res"].get(f"{team}|8", {})
            assert set(two) == set(eight)
    again = subprocess.run(
        [sys.executable, str(bench), *args, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert again.stdout == done.stdout  # resumed: nothing judged twice
    assert len(out.read_text().splitlines()) == 3


def test_the_mixture_screen_keeps_every_decision_and_works_out_each_rate(tmp_path: Path) -> None:
    """bench/fairplay_mixture.py: a round of four tables of 2 deals, gzipped;
    every rate, the rule's choice and each power are printed from the same
    decisions kept, a second run resumes, and ``--against`` pairs the
    tables of another file (itself here: every difference is zero)."""
    bench = BENCH.parent / "fairplay_mixture.py"
    out = tmp_path / "screen.jsonl.gz"
    args = ["--rounds", "1", "--deals", "2", "--workers", "1", "--rates", "1", "0.25"]
    cmd = [sys.executable, str(bench), *args, "--powers", "0.5", "--out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("4 tables, ")
    assert lines[1].split() == ["rate", "1", "0.25"]
    assert any(x.startswith("the rule's choice: rate ") for x in lines)
    assert any(x.startswith("separation colluder:search:0.25 ") for x in lines)
    assert any(x.split()[:3] == ["power", "(0:", "the"] for x in lines)
    with gzip.open(out, "rt") as f:
        rows = [json.loads(x) for x in f]
    assert [r["id"] for r in rows] == ["m0-ie", "m0-nb", "m0-c25", "m0-c50"]
    for r in rows:  # the team, the hand, then 3 chances for a card, 4 for a bid
        assert r["decisions"] and {len(d) for d in r["decisions"]} <= {5, 6}
        assert any(len(d) == 6 for d in r["decisions"])
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    assert again.stdout == done.stdout  # resumed: nothing judged twice
    kept = out.read_bytes()
    paired = subprocess.run(
        [*cmd, "--summary-only", "--against", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    diffs = paired.stdout.split("same pairs: mean (standard error)\n")[1].splitlines()
    assert len(diffs) == 6 and all(" +0.000 " in d for d in diffs)
    assert out.read_bytes() == kept  # a summary writes nothing, not even an empty gzip member


def test_the_bids_and_cards_are_judged_again_in_one_run(
    quick: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    # --rebid FROM --recard FROM: the bids judged again, then the cards, as
    # the two runs one after the other give them; two FROMs are refused.
    out, _ = quick
    way = ["--bid-model", "argmax", "--card-model", "argmax", "--card-deals", "24"]
    _run(tmp_path / "bids", "--rebid", str(out), *way)
    _run(tmp_path / "then", "--recard", str(tmp_path / "bids"), *way)
    _run(tmp_path / "both", "--rebid", str(out), "--recard", str(out), *way)
    then, both = _by_id(tmp_path / "then"), _by_id(tmp_path / "both")
    assert sorted(both) == sorted(then) == sorted(_by_id(out))
    for key, row in both.items():
        assert _flat(row["hands"]) == pytest.approx(_flat(then[key]["hands"]))
        assert row["bid_hands"] == then[key]["bid_hands"]
        assert (row["bid_model"], row["card_model"], row["card_deals"]) == ("argmax", "argmax", 24)
    assert any(both[k]["bid_hands"] != r["bid_hands"] for k, r in _by_id(out).items())
    refused = subprocess.run(
        [sys.executable, str(BENCH), "--rebid", str(out), "--recard", str(tmp_path), "--quick"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 2 and "one FROM" in refused.stderr


def test_the_detectors_defaults_are_the_measured_way_at_the_rules_thresholds() -> None:
    # The figures docs/fair-play.md gives are of the run in v7-pick64: the
    # detector's options are the ones that run judged by, and its
    # thresholds the ones the thresholds' rule gives on that run's honest
    # pairs.
    run = BENCH.parent / "results" / "fairplay" / "v7-pick64"
    measured = json.loads((run / "summary.json").read_text())
    d = ScoreOptions()
    assert (d.card_model, d.bid_model, d.deals, d.argmax_size) == (
        measured["card_model"],
        measured["bid_model"],
        measured["card_deals"],
        measured["argmax_size"],
    )
    assert (d.infer_batch, d.mix_rate, d.bid_weight) == (
        measured["infer_batch"],
        measured["mix_rate"],
        measured["bid_weight"],
    )
    rule = subprocess.run(
        [sys.executable, str(BENCH.parent / "fairplay_threshold.py"), "--out", str(run)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    both = float(rule.stdout.split("the rule: both at ")[1].split()[0])
    assert (both, both) == (FLAG_Z, POLICY_FLAG_Z)
