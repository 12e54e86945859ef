"""Settings and the named presets (docs/rules.md, "Settings and presets").

A :class:`Settings` is frozen and always valid: every constructor path checks
each value against its range. Presets are data, looked up by name.

>>> preset("jawaker").big_bids
'ten_40'
>>> Settings.from_dict({"preset": "quick", "min_bid": 3}).target
31
>>> Settings.from_dict({"min_bid": 5})
Traceback (most recent call last):
...
fourhundred.engine.errors.InvalidSettings: setting 'min_bid' cannot be 5 (it takes 1 to 4)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal

from .errors import InvalidSettings

Scoring = Literal["lebanese", "classic"]
BigBids = Literal["none", "ten_40", "eleven_50"]
PartnerRule = Literal["positive", "non_negative"]

_INT_RANGES: Final[dict[str, tuple[int, int]]] = {
    "target": (11, 200),
    "min_bid": (1, 4),
    "min_total": (9, 13),
}
_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "scoring": ("lebanese", "classic"),
    "big_bids": ("none", "ten_40", "eleven_50"),
    "partner_rule": ("positive", "non_negative"),
}
_BOOLS: Final = (
    "escalating_min_bid",
    "escalating_total",
    "five_six_face_at_30",
    "thirteen_bid",
    "five_to_run",
    "no_face_card_redeal",
)

SETTING_RANGES: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(_INT_RANGES)
"""The whole-number settings and their inclusive ranges."""
SETTING_CHOICES: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(_CHOICES)
"""The settings that take one of a few words, and those words."""
SETTING_SWITCHES: Final[tuple[str, ...]] = _BOOLS
"""The settings that are on or off."""

TURN_TIMERS: Final = (15, 30, 45, 60, 90)
"""Turn timer lengths a table may use, in seconds (not a rule of the game)."""

TARGETS_OFFERED: Final = (31, 41, 44, 51, 61)
"""The targets the product offers in its menus (any of 11..200 is valid)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Every rule a table can change. Defaults are the ``standard`` preset."""

    target: int = 41
    min_bid: int = 2
    escalating_min_bid: bool = True
    min_total: int = 11
    escalating_total: bool = False
    scoring: Scoring = "lebanese"
    five_six_face_at_30: bool = False
    big_bids: BigBids = "none"
    thirteen_bid: bool = False
    partner_rule: PartnerRule = "positive"
    five_to_run: bool = False
    no_face_card_redeal: bool = False

    def __post_init__(self) -> None:
        for name, (lo, hi) in _INT_RANGES.items():
            value = getattr(self, name)
            if type(value) is not int or not lo <= value <= hi:
                raise InvalidSettings(
                    f"setting {name!r} cannot be {_show(value)} (it takes {lo} to {hi})"
                )
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if not isinstance(value, str) or value not in choices:
                raise InvalidSettings(
                    f"setting {name!r} cannot be {_show(value)} (it takes one of "
                    + ", ".join(repr(c) for c in choices)
                    + ")"
                )
        for name in _BOOLS:
            value = getattr(self, name)
            if type(value) is not bool:
                raise InvalidSettings(
                    f"setting {name!r} cannot be {_show(value)} (it takes true or false)"
                )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """Settings from the record/view form: a full object, or
        ``{"preset": NAME, ...overrides}``. Missing settings take the preset's
        value (``standard`` when none is named)."""
        if not isinstance(data, Mapping):
            raise InvalidSettings(f"rules must be an object, not {_show(data)}")
        fields = dict(data)
        name = fields.pop("preset", "standard")
        base = preset(name)
        unknown = [k for k in fields if k not in FIELD_NAMES]
        if unknown:
            raise InvalidSettings(f"unknown setting {unknown[0]!r}")
        return base.replace(**fields)

    def replace(self, **changes: Any) -> Settings:
        """A copy with some settings changed, validated like any other."""
        unknown = [k for k in changes if k not in FIELD_NAMES]
        if unknown:
            raise InvalidSettings(f"unknown setting {unknown[0]!r}")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every setting, resolved (the view's ``rules``)."""
        return {name: getattr(self, name) for name in FIELD_NAMES}

    def to_compact_dict(self) -> dict[str, Any]:
        """``{"preset": NAME, ...}`` naming the closest preset and only what
        differs from it (the short form for records and summaries)."""
        best_name, best_diff = "standard", self.differences(STANDARD)
        for name, p in PRESETS.items():
            diff = self.differences(p)
            if len(diff) < len(best_diff):
                best_name, best_diff = name, diff
        return {"preset": best_name, **best_diff}

    def differences(self, other: Settings) -> dict[str, Any]:
        """The settings whose value here differs from ``other``."""
        return {
            name: getattr(self, name)
            for name in FIELD_NAMES
            if getattr(self, name) != getattr(other, name)
        }

    @property
    def preset_name(self) -> str | None:
        """The name of the preset these settings equal, if any."""
        for name, p in PRESETS.items():
            if p == self:
                return name
        return None


def _show(value: object) -> str:
    """A value as JSON would spell it, for error messages."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, int | float):
        return repr(value)
    return type(value).__name__


FIELD_NAMES: Final[tuple[str, ...]] = tuple(f.name for f in dataclasses.fields(Settings))

STANDARD: Final = Settings()

PRESETS: Final[Mapping[str, Settings]] = MappingProxyType(
    {
        "standard": STANDARD,
        "traditional": Settings(five_six_face_at_30=True, thirteen_bid=True),
        "jawaker": Settings(
            five_six_face_at_30=True,
            thirteen_bid=True,
            escalating_total=True,
            big_bids="ten_40",
        ),
        "classic": Settings(scoring="classic"),
        "syrian": Settings(min_bid=1, scoring="classic", escalating_min_bid=False),
        "quick": Settings(target=31),
    }
)
"""The named presets (docs/rules.md, "Settings and presets")."""

PRESET_NOTES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "standard": "The usual online game: Lebanese scoring to 41, lowest bid 2, rising.",
        "traditional": "The full rules: 5 and 6 worth face value from 30 points, and the 13 bid.",
        "jawaker": "Traditional plus a rising bid total and any bid of 10+ worth 40.",
        "classic": "Classic scoring: bids 1-6 at face value, 7-12 doubled.",
        "syrian": "Forty-one (Syria): bids from 1, classic scoring, no rising lowest bid.",
        "quick": "The standard game to 31 points.",
    }
)


def preset(name: object) -> Settings:
    """The preset of this name; ``InvalidSettings`` names the known ones."""
    if isinstance(name, str) and name in PRESETS:
        return PRESETS[name]
    raise InvalidSettings(f"unknown preset {_show(name)} (known: {', '.join(PRESETS)})")
