"""Hypothesis fires hostile frames at a live table of a real server over
real WebSockets: malformed JSON, binary and non-UTF-8 frames, unknown types,
wrong and missing and extra fields, huge ids, moves out of turn and for
another seat, a spectator's and an outsider's moves, replayed ids, stale
versions, frames just over 64 KiB and about 1 MiB, floods and bursts of
junk. ``fh_fuzz_rig.FuzzRig`` judges every reply and checks, with fresh
connections before and after each batch, that nothing a refused frame did
changed the table; between batches it makes a legal move (so every phase is
fuzzed), checks ``/healthz`` and that a control table still takes moves.

The long run is ``bench/fuzz.py`` (100,000 frames and more)."""

from __future__ import annotations

from fh_fuzz import FAMILIES, KNOWN_BUG_FAMILIES, SUITE_FAMILIES, RigLoop, batches
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

FUZZ = settings(
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


def _no_violations(rig: RigLoop) -> None:
    found = rig.rig.violations
    assert not found, f"{len(found)} violations:\n" + "\n".join(map(str, found[:20]))


@settings(FUZZ, max_examples=2)
@given(data=st.data())
def test_every_family_is_fired_and_judged(rig: RigLoop, data: st.DataObject) -> None:
    specs = [data.draw(FAMILIES[f], label=f) for f in SUITE_FAMILIES]
    rig.run(rig.rig.step(specs, rig.batches))
    rig.batches += 1
    _no_violations(rig)
    assert set(SUITE_FAMILIES) <= set(rig.rig.families)


@settings(FUZZ, max_examples=25)
@given(batch=batches(SUITE_FAMILIES, max_size=30))
def test_refused_frames_change_nothing(rig: RigLoop, batch: list[object]) -> None:
    rig.run(rig.rig.step(batch, rig.batches, advance_every=2, check_every=10))  # type: ignore[arg-type]
    rig.batches += 1
    _no_violations(rig)


def test_the_server_survived_and_the_game_moved_on(rig: RigLoop) -> None:
    rig.run(rig.rig.check_alive())
    _no_violations(rig)
    r = rig.rig
    assert r.frames_sent >= 200, r.frames_sent
    assert r.moves >= 10, "the harness made legal moves between batches"
    # The refusals seen cover the protocol's error codes for bad input.
    seen = {label.split(":", 1)[1] for label in r.outcomes if label.startswith("error:")}
    assert {"bad_json", "bad_message", "not_your_turn", "not_your_seat", "stale"} <= seen, seen


def test_the_suite_fires_every_family_but_open_bugs() -> None:
    # A family that finds a bug not fixed yet is fired by bench/fuzz.py and
    # pinned by a failing test in tests/security/test_server_bugs_found.py
    # until the server is fixed; every other family runs here.
    assert set(SUITE_FAMILIES) | set(KNOWN_BUG_FAMILIES) == set(FAMILIES)
    assert not set(KNOWN_BUG_FAMILIES) & set(SUITE_FAMILIES)
