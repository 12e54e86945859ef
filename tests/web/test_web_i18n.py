"""Both languages say everything: the same keys, the same placeholders, the
plural forms each language needs, and every key the code asks for."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fh_web import blank_page

WEB = Path(__file__).resolve().parents[2] / "src" / "fourhundred" / "web"

PLURALS = {"en": {"one", "other"}, "ar": {"zero", "one", "two", "few", "many", "other"}}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# Keys built at run time from a family and a value the code knows.
DYNAMIC_FAMILIES = (
    "kind.",
    "preset.",
    "set.",
    "err.",
    "conn.",
    "closing.",
    "auth.",
    "report.reason.",
    "mod.kind.",
    "mod.act.",
)


@pytest.fixture(scope="module")
def dicts(browser: Any, static_url: str) -> dict[str, dict[str, Any]]:
    with blank_page(browser, static_url) as page:
        out: dict[str, dict[str, Any]] = page.evaluate(
            """async () => {
                const { en } = await import("/js/lang/en.js");
                const { ar } = await import("/js/lang/ar.js");
                return { en, ar };
            }"""
        )
    return out


def _placeholders(value: Any) -> set[str]:
    if isinstance(value, dict):
        found: set[str] = set()
        for form in value.values():
            found |= set(PLACEHOLDER.findall(form))
        return found
    return set(PLACEHOLDER.findall(value))


def test_same_keys_in_both_languages(dicts: dict[str, dict[str, Any]]) -> None:
    en, ar = dicts["en"], dicts["ar"]
    assert sorted(set(en) - set(ar)) == [], "keys missing in Arabic"
    assert sorted(set(ar) - set(en)) == [], "keys missing in English"
    assert len(en) > 300


def test_same_placeholders(dicts: dict[str, dict[str, Any]]) -> None:
    en, ar = dicts["en"], dicts["ar"]
    wrong = {}
    for key in en:
        # A plural form may spell the number out ("two points") instead of {n}.
        a, b = _placeholders(en[key]) - {"n"}, _placeholders(ar[key]) - {"n"}
        if a != b:
            wrong[key] = (sorted(a), sorted(b))
    assert wrong == {}


def test_plural_forms(dicts: dict[str, dict[str, Any]]) -> None:
    for lang, forms in PLURALS.items():
        for key, value in dicts[lang].items():
            if isinstance(value, dict):
                assert set(value) >= forms, f"{lang} {key} lacks {forms - set(value)}"
                assert isinstance(dicts["en" if lang == "ar" else "ar"][key], dict), key


def test_arabic_texts_are_arabic(dicts: dict[str, dict[str, Any]]) -> None:
    # Every Arabic text holds Arabic letters, except the few that are only a
    # name, a number or a symbol in both languages.
    same_everywhere = {"brand", "bid_won_short", "rank.2", "rank.3", "rank.4", "rank.5"}
    latin_words = re.compile(r"[A-Za-z]{2,}")
    bad = []
    for key, value in dicts["ar"].items():
        texts = value.values() if isinstance(value, dict) else [value]
        for text in texts:
            bare = PLACEHOLDER.sub("", text)
            if latin_words.search(bare) or (
                key not in same_everywhere
                and not re.search(r"[\u0600-\u06ff]", bare)
                and re.search(r"[A-Za-z]", bare)
            ):
                bad.append((key, text))
    assert bad == []


def test_every_key_the_code_uses_exists(dicts: dict[str, dict[str, Any]]) -> None:
    en = dicts["en"]
    used = set()
    for path in (WEB / "js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\(\s*"([^"]+)\"""", text))
        used |= set(re.findall(r"""\bt\.has\(\s*"([^"]+)\"""", text))
        # Both arms of t(cond ? "a" : "b").
        for a, b in re.findall(r"""\bt\([^()"]*\?\s*"([^"]+)"\s*:\s*"([^"]+)"\s*\)""", text):
            used |= {a, b}
    missing = sorted(k for k in used if k not in en)
    assert missing == []
    assert len(used) > 200


def test_dynamic_key_families_are_complete(dicts: dict[str, dict[str, Any]]) -> None:
    from fourhundred.engine import PRESETS, Settings

    en = dicts["en"]
    for name in PRESETS:
        assert f"preset.{name}" in en and f"preset.{name}.note" in en
    for kind in ("private", "casual", "ranked"):
        assert f"kind.{kind}" in en
    for field in Settings.__dataclass_fields__:
        assert f"set.{field}" in en
    for name, values in {
        "scoring": ("lebanese", "classic"),
        "big_bids": ("none", "ten_40", "eleven_50"),
        "partner_rule": ("positive", "non_negative"),
    }.items():
        for v in values:
            assert f"set.{name}.{v}" in en and f"set.{name}.{v}.help" in en
    for reason in ("cards_shared", "chat_abuse", "leaving", "other", "fair_play"):
        assert f"report.reason.{reason}" in en
    for kind in ("warn", "mute", "suspend", "ban"):
        assert f"mod.kind.{kind}" in en
    for b in ("escalating_min_bid", "escalating_total", "five_six_face_at_30"):
        assert f"set.{b}.help" in en
    # Every error code of docs/protocol.md has a sentence for players.
    protocol_codes = [
        "bad_request",
        "unauthorized",
        "forbidden",
        "forbidden_origin",
        "not_found",
        "conflict",
        "too_large",
        "rate_limited",
        "method_not_allowed",
        "bad_json",
        "bad_message",
        "unknown_type",
        "duplicate",
        "not_attached",
        "not_seated",
        "not_your_seat",
        "not_your_turn",
        "wrong_phase",
        "illegal",
        "stale",
        "not_host",
        "not_allowed",
        "bad_setting",
        "chat_rate_limited",
        "muted",
        "suspended",
        "banned",
        "unavailable",
    ]
    assert [c for c in protocol_codes if f"err.{c}" not in en] == []
    for family in DYNAMIC_FAMILIES:
        assert any(k.startswith(family) for k in en)
