"""A player's standing (docs/moderation.md, "Enforcement"): what their
penalties allow now, the one check every place that lets someone sit,
open a table, queue or chat asks, and the next step of the escalation.

>>> DAY = 24 * 3600 * 1000
>>> p = [Penalty(1, "u", "mute", 2 * DAY, "abuse in chat", "m", None, 0)]
>>> s = standing_of(p, DAY)
>>> s.muted_until == 2 * DAY, s.barred
(True, False)
>>> refusal(s, "chat").code
'muted'
>>> refusal(s, "play") is None
True
>>> propose(p)
('suspend', 168)
>>> propose([])
('warn', None)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from fourhundred.store import ModerationStore, Penalty

from . import protocol as p
from .clock import Clock
from .errors import CommandError

__all__ = [
    "HOUR_MS",
    "KINDS",
    "LADDER",
    "MAX_HOURS",
    "WARNING_SHOWN_MS",
    "Act",
    "Standing",
    "Standings",
    "act_of",
    "propose",
    "refusal",
    "standing_of",
    "until_of",
    "until_text",
]

KINDS: Final = ("warn", "mute", "suspend", "ban")
"""The penalties, mildest first."""
LADDER: Final[tuple[tuple[str, int | None], ...]] = (
    ("warn", None),
    ("mute", 24),
    ("suspend", 7 * 24),
    ("ban", None),
)
"""The escalation, a step at a time: (kind, hours) proposed after the
worst penalty a player has had (a moderator may choose otherwise)."""
WARNING_SHOWN_MS: Final = 7 * 24 * 3600 * 1000
"""A warning is shown to its player for this long."""
CACHE_S: Final = 5.0
"""How long a process trusts a standing it read (a penalty given in this
process clears it at once; one given elsewhere in a cluster within this)."""

Act = Literal["chat", "play"]
"""``play``: sit, open a table, queue for Ranked, enter a tournament."""


@dataclass(frozen=True, slots=True)
class Standing:
    muted_until: int | None = None
    suspended_until: int | None = None
    banned: bool = False
    reason: str | None = None
    """The reason of the penalty in force (the heaviest one)."""
    warning: Penalty | None = None
    """The latest warning, if recent."""

    @property
    def barred(self) -> bool:
        """Suspended or banned: may neither play nor chat."""
        return self.banned or self.suspended_until is not None

    def json(self) -> dict[str, Any]:
        w = self.warning
        kind = "ban" if self.banned else "suspend" if self.barred else None
        kind = kind or ("mute" if self.muted_until is not None else None)
        until = self.suspended_until if kind == "suspend" else self.muted_until
        return {
            "penalty": None
            if kind is None
            else {
                "kind": kind,
                "until_ms": None if kind == "ban" else until,
                "reason": self.reason,
            },
            "warning": None
            if w is None
            else {"id": w.id, "reason": w.reason, "at_ms": w.created_ms},
        }


def standing_of(penalties: Sequence[Penalty], now_ms: int) -> Standing:
    """What ``penalties`` (any order) allow at ``now_ms``."""
    banned = [p for p in penalties if p.kind == "ban" and (p.until_ms or now_ms + 1) > now_ms]
    suspended = [p for p in penalties if p.kind == "suspend" and (p.until_ms or 0) > now_ms]
    muted = [p for p in penalties if p.kind == "mute" and (p.until_ms or 0) > now_ms]
    warns = [p for p in penalties if p.kind == "warn" and now_ms - p.created_ms < WARNING_SHOWN_MS]
    heaviest = banned or suspended or muted
    return Standing(
        muted_until=max((p.until_ms or 0 for p in muted), default=None),
        suspended_until=max((p.until_ms or 0 for p in suspended), default=None),
        banned=bool(banned),
        reason=max(heaviest, key=lambda p: p.created_ms).reason if heaviest else None,
        warning=max(warns, key=lambda p: p.created_ms) if warns else None,
    )


def until_text(ms: int) -> str:
    """``2026-12-08 01:40 UTC``."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ms / 1000))


def refusal(s: Standing, act: Act) -> CommandError | None:
    """Why ``act`` is refused to a player of standing ``s`` (None: allowed)."""
    why = f": {s.reason}" if s.reason else ""
    if s.banned:
        return CommandError("banned", f"you are banned{why}")
    if s.suspended_until is not None:
        return CommandError(
            "suspended", f"you are suspended until {until_text(s.suspended_until)}{why}"
        )
    if act == "chat" and s.muted_until is not None:
        return CommandError(
            "muted", f"you are muted in chat until {until_text(s.muted_until)}{why}"
        )
    return None


def act_of(msg: p.ClientMessage) -> Act | None:
    """What a table message asks that a penalty may forbid: ``chat``;
    ``play`` for taking a seat (``sit``, ``reclaim``, accepting a rematch,
    opening it with bots); None for the rest (watching, leaving, moves in
    a game already under way).

    >>> act_of(p.Chat(id=1, text="hi")), act_of(p.Sit(id=2)), act_of(p.Leave(id=3))
    ('chat', 'play', None)
    >>> act_of(p.Rematch(id=4, accept=False)) is None
    True
    """
    if isinstance(msg, p.Chat):
        return "chat"
    if isinstance(msg, p.Sit | p.Reclaim | p.RematchBots):
        return "play"
    if isinstance(msg, p.Rematch) and msg.accept:
        return "play"
    return None


def propose(penalties: Sequence[Penalty]) -> tuple[str, int | None]:
    """The next step of :data:`LADDER` after the worst of ``penalties``."""
    worst = max((KINDS.index(p.kind) for p in penalties if p.kind in KINDS), default=-1)
    return LADDER[min(worst + 1, len(LADDER) - 1)]


class Standings:
    """Standings read from the store, kept for :data:`CACHE_S`."""

    def __init__(self, store: ModerationStore, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self._cache: dict[str, tuple[float, Standing]] = {}

    async def of(self, user_id: str) -> Standing:
        now = self.clock.monotonic()
        hit = self._cache.get(user_id)
        if hit is not None and hit[0] > now:
            return hit[1]
        s = standing_of(await self.store.penalties(user_id), self.clock.now_ms())
        if len(self._cache) > 100_000:
            self._cache.clear()
        self._cache[user_id] = (now + CACHE_S, s)
        return s

    def forget(self, user_id: str) -> None:
        """A penalty was just given: read it afresh next time."""
        self._cache.pop(user_id, None)

    async def check(self, user_id: str, act: Act) -> None:
        """Raise the :func:`refusal` of ``act``, if any."""
        e = refusal(await self.of(user_id), act)
        if e is not None:
            raise e


HOUR_MS: Final = 3600 * 1000
MAX_HOURS: Final = 10 * 365 * 24
"""The longest mute or suspension (a ban is for ever)."""


def until_of(kind: str, hours: int | None, now_ms: int) -> int | None:
    """When a new penalty of ``kind`` ends: None for a warning and a ban;
    a mute or a suspension lasts ``hours`` (None: the ladder's)."""
    if kind in ("warn", "ban"):
        return None
    if hours is None:
        hours = dict(LADDER)[kind]
        assert hours is not None
    return now_ms + hours * HOUR_MS
