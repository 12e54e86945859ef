"""The client's copy of the rules (js/rules.js) agrees with the engine:
presets, bid values, required totals and the winner, over every setting."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from fourhundred.engine import PRESETS, STANDARD, bid_value, required_total, winning_team


@pytest.fixture(scope="module")
def js(browser: Any, static_url: str) -> Iterator[Any]:
    context = browser.new_context()
    page = context.new_page()
    blank = f"{static_url}/__blank__.html"
    page.route(blank, lambda r: r.fulfill(body="<!doctype html>", content_type="text/html"))
    page.goto(blank)
    page.evaluate("async () => { window.R = await import('/js/rules.js'); }")
    yield page
    context.close()


def test_presets_match_the_engine(js: Any) -> None:
    assert js.evaluate("R.PRESETS") == {n: p.to_dict() for n, p in PRESETS.items()}
    assert js.evaluate("R.STANDARD") == STANDARD.to_dict()
    assert js.evaluate("R.SETTINGS.map(s => s.name)") == list(STANDARD.to_dict())


def _variants() -> list[dict[str, Any]]:
    out = []
    for scoring, big, face in itertools.product(
        ("lebanese", "classic"), ("none", "ten_40", "eleven_50"), (False, True)
    ):
        out.append(STANDARD.replace(scoring=scoring, big_bids=big, five_six_face_at_30=face))
    return [s.to_dict() for s in out]


def test_bid_values_match(js: Any) -> None:
    from fourhundred.engine import Settings

    cases = []
    for rules in _variants():
        s = Settings.from_dict(rules)
        for bid in range(1, 13):
            for own in (-20, 0, 29, 30, 45):
                cases.append((rules, bid, own, bid_value(s, bid, own)))
    got = js.evaluate("(cases) => cases.map(([r, b, o]) => R.bidValue(r, b, o))", cases)
    assert got == [c[3] for c in cases]


def test_required_totals_and_winners_match(js: Any) -> None:
    from fourhundred.engine import Settings

    cases = []
    score_sets = [
        (0, 0, 0, 0),
        (30, 5, -2, 12),
        (41, 1, 0, 3),
        (41, 0, 0, 3),
        (44, 50, 1, 2),
        (51, 40, 3, 8),
        (12, 41, -3, 5),
        (45, 45, 2, 2),
    ]
    for rules in (
        STANDARD.to_dict(),
        PRESETS["jawaker"].to_dict(),
        STANDARD.replace(partner_rule="non_negative", min_total=9).to_dict(),
        STANDARD.replace(escalating_total=True, min_total=13, target=44).to_dict(),
    ):
        s = Settings.from_dict(rules)
        for scores in score_sets:
            cases.append((rules, list(scores), required_total(s, scores), winning_team(s, scores)))
    got = js.evaluate(
        "(cases) => cases.map(([r, sc]) => [R.requiredTotal(r, sc), R.winningTeam(r, sc)])",
        cases,
    )
    assert got == [[c[2], c[3]] for c in cases]


def test_resolve_and_describe(js: Any) -> None:
    assert (
        js.evaluate("R.resolveSettings({preset: 'quick', min_bid: 3})")
        == PRESETS["quick"].replace(min_bid=3).to_dict()
    )
    assert js.evaluate("R.presetOf(R.PRESETS.syrian)") == "syrian"
    assert js.evaluate("R.presetOf({...R.STANDARD, target: 99})") is None
