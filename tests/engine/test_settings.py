"""Settings and presets (docs/rules.md, "Settings and presets")."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourhundred.engine import PRESETS, STANDARD, TURN_TIMERS, InvalidSettings, Settings, preset

# The settings table of docs/rules.md, the `standard` column, spelled out.
STANDARD_DICT = {
    "target": 41,
    "min_bid": 2,
    "escalating_min_bid": True,
    "min_total": 11,
    "escalating_total": False,
    "scoring": "lebanese",
    "five_six_face_at_30": False,
    "big_bids": "none",
    "thirteen_bid": False,
    "partner_rule": "positive",
    "five_to_run": False,
    "no_face_card_redeal": False,
}

# The presets table of docs/rules.md: what each differs from `standard` in.
PRESET_DIFFERENCES: dict[str, dict[str, Any]] = {
    "standard": {},
    "traditional": {"five_six_face_at_30": True, "thirteen_bid": True},
    "jawaker": {
        "five_six_face_at_30": True,
        "thirteen_bid": True,
        "escalating_total": True,
        "big_bids": "ten_40",
    },
    "classic": {"scoring": "classic"},
    "syrian": {"min_bid": 1, "scoring": "classic", "escalating_min_bid": False},
    "quick": {"target": 31},
}


def test_standard_is_the_default() -> None:
    assert Settings().to_dict() == STANDARD_DICT
    assert Settings() == STANDARD
    assert list(Settings().to_dict()) == list(STANDARD_DICT)


@pytest.mark.parametrize("name", list(PRESET_DIFFERENCES))
def test_presets_exactly(name: str) -> None:
    expected = {**STANDARD_DICT, **PRESET_DIFFERENCES[name]}
    assert preset(name).to_dict() == expected
    assert PRESETS[name] is preset(name)
    assert preset(name).preset_name == name
    assert preset(name).differences(STANDARD) == PRESET_DIFFERENCES[name]


def test_no_other_presets() -> None:
    assert list(PRESETS) == list(PRESET_DIFFERENCES)


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(InvalidSettings) as info:
        preset("fast")
    text = str(info.value)
    assert "unknown preset 'fast'" in text
    for name in PRESETS:
        assert name in text


def test_turn_timers() -> None:
    assert TURN_TIMERS == (15, 30, 45, 60, 90)


# ------------------------------------------------------------------- ranges

INT_RANGES = {"target": (11, 200), "min_bid": (1, 4), "min_total": (9, 13)}
CHOICES = {
    "scoring": ("lebanese", "classic"),
    "big_bids": ("none", "ten_40", "eleven_50"),
    "partner_rule": ("positive", "non_negative"),
}
BOOLS = [k for k, v in STANDARD_DICT.items() if isinstance(v, bool)]


@pytest.mark.parametrize("name", list(INT_RANGES))
def test_int_ranges(name: str) -> None:
    lo, hi = INT_RANGES[name]
    for ok in (lo, hi, (lo + hi) // 2):
        assert getattr(Settings.from_dict({name: ok}), name) == ok
    for bad in (lo - 1, hi + 1, -1, 0, 1000):
        if lo <= bad <= hi:
            continue
        with pytest.raises(InvalidSettings) as info:
            Settings.from_dict({name: bad})
        assert str(info.value) == f"setting {name!r} cannot be {bad} (it takes {lo} to {hi})"


@pytest.mark.parametrize("name", list(INT_RANGES))
@pytest.mark.parametrize(
    ("bad", "shown"), [(True, "true"), (3.0, "3.0"), ("3", "'3'"), (None, "null")]
)
def test_int_settings_take_only_ints(name: str, bad: object, shown: str) -> None:
    with pytest.raises(InvalidSettings) as info:
        Settings.from_dict({name: bad})
    assert str(info.value).startswith(f"setting {name!r} cannot be {shown} (it takes ")


@pytest.mark.parametrize("name", list(CHOICES))
def test_choices(name: str) -> None:
    for ok in CHOICES[name]:
        assert getattr(Settings.from_dict({name: ok}), name) == ok
    for bad in ("", "LEBANESE", "ten_50", 1, None):
        with pytest.raises(InvalidSettings) as info:
            Settings.from_dict({name: bad})
        text = str(info.value)
        assert text.startswith(f"setting {name!r} cannot be ")
        assert "it takes one of " + ", ".join(repr(c) for c in CHOICES[name]) in text


@pytest.mark.parametrize("name", BOOLS)
def test_bools(name: str) -> None:
    for ok in (True, False):
        assert getattr(Settings.from_dict({name: ok}), name) is ok
    for bad, shown in ((1, "1"), (0, "0"), ("yes", "'yes'"), (None, "null")):
        with pytest.raises(InvalidSettings) as info:
            Settings.from_dict({name: bad})
        assert str(info.value) == f"setting {name!r} cannot be {shown} (it takes true or false)"


def test_the_constructor_and_replace_check_too() -> None:
    with pytest.raises(InvalidSettings, match="setting 'min_bid' cannot be 5"):
        Settings(min_bid=5)
    with pytest.raises(InvalidSettings, match="setting 'target' cannot be 10"):
        STANDARD.replace(target=10)
    with pytest.raises(InvalidSettings, match="unknown setting 'min_bids'"):
        STANDARD.replace(min_bids=2)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"min_bids": 2}, "unknown setting 'min_bids'"),
        ({"preset": "jawaker", "turn_timer": 30}, "unknown setting 'turn_timer'"),
        ({"preset": "fast"}, "unknown preset 'fast'"),
        ({"preset": 3}, "unknown preset 3"),
        ({"preset": None}, "unknown preset null"),
        ([], "rules must be an object"),
        ("standard", "rules must be an object"),
        (None, "rules must be an object"),
    ],
)
def test_from_dict_refuses(data: Any, message: str) -> None:
    with pytest.raises(InvalidSettings, match=message):
        Settings.from_dict(data)


def test_settings_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        STANDARD.target = 31  # type: ignore[misc]
    assert hash(STANDARD) == hash(Settings())


# --------------------------------------------------------------- round trips


def test_from_dict_with_preset_and_overrides() -> None:
    s = Settings.from_dict({"preset": "quick", "min_bid": 3})
    assert s.target == 31
    assert s.min_bid == 3
    assert s.to_compact_dict() == {"preset": "quick", "min_bid": 3}
    assert Settings.from_dict({}) == STANDARD


any_settings = st.builds(
    Settings,
    target=st.integers(11, 200),
    min_bid=st.integers(1, 4),
    escalating_min_bid=st.booleans(),
    min_total=st.integers(9, 13),
    escalating_total=st.booleans(),
    scoring=st.sampled_from(["lebanese", "classic"]),
    five_six_face_at_30=st.booleans(),
    big_bids=st.sampled_from(["none", "ten_40", "eleven_50"]),
    thirteen_bid=st.booleans(),
    partner_rule=st.sampled_from(["positive", "non_negative"]),
    five_to_run=st.booleans(),
    no_face_card_redeal=st.booleans(),
) | st.sampled_from(list(PRESETS.values()))


@settings(max_examples=200, deadline=None)
@given(any_settings)
def test_round_trips(s: Settings) -> None:
    full = s.to_dict()
    assert "preset" not in full
    assert list(full) == list(STANDARD_DICT)
    assert Settings.from_dict(full) == s
    compact = s.to_compact_dict()
    assert compact["preset"] in PRESETS
    assert Settings.from_dict(compact) == s
    # The compact form names the closest preset: no preset needs fewer overrides.
    for p in PRESETS.values():
        assert len(compact) - 1 <= len(s.differences(p))
    assert Settings.from_dict(json.loads(json.dumps(full))) == s
    assert s.preset_name == next((n for n, p in PRESETS.items() if p == s), None)


@pytest.mark.parametrize("name", list(PRESETS))
def test_compact_form_of_a_preset(name: str) -> None:
    assert PRESETS[name].to_compact_dict() == {"preset": name}
