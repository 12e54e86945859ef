"""What the arena (:mod:`.arena`) is asked, what each pair and game gives,
and the report it adds up to (``fourhundred arena --json`` prints
:meth:`ArenaReport.to_dict`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Final

from fourhundred.engine import HandSummary, Settings

__all__ = [
    "DEALS_PER_PAIR",
    "ArenaConfig",
    "ArenaReport",
    "BotStats",
    "GameResult",
    "PairResult",
]

DEALS_PER_PAIR: Final = 10
"""At most this many deals per pair asked for: a run whose bots throw in
nearly every deal stops there (and says so) instead of dealing forever."""


@dataclass(slots=True)
class BotStats:
    """Per-bot tallies (one bot name; both of its seats)."""

    bids: int = 0
    made: int = 0
    over: int = 0
    """Bids failed: fewer tricks than bid."""
    exact: int = 0
    under: int = 0
    """Bids made with tricks to spare: more tricks than bid."""
    times: list[float] = field(default_factory=list)
    """Seconds per decision."""
    faults: list[str] = field(default_factory=list)

    def merge(self, other: BotStats) -> None:
        self.bids += other.bids
        self.made += other.made
        self.over += other.over
        self.exact += other.exact
        self.under += other.under
        self.times.extend(other.times)
        self.faults.extend(other.faults)

    def count_bid(self, bid: int, tricks: int) -> None:
        self.bids += 1
        if tricks >= bid:
            self.made += 1
        if tricks < bid:
            self.over += 1
        elif tricks == bid:
            self.exact += 1
        else:
            self.under += 1


@dataclass(slots=True)
class PairResult:
    """One duplicate pair: A's margin per deal, or ``None`` when dropped."""

    index: int
    margin: float | None
    stats: dict[str, BotStats]
    tables: tuple[HandSummary, ...] = ()
    """The hand of each table played: A at seats 0 and 2, then swapped
    (one only when the first was thrown in)."""


@dataclass(slots=True)
class GameResult:
    index: int
    a_wins: int
    b_wins: int
    draws: int
    hands: int
    stats: dict[str, BotStats]


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """One run: ``pairs`` pairs that count (a thrown-in pair is replaced by
    the next deal, up to :attr:`deal_limit` deals) and ``games`` whole
    games, each played twice."""

    a: str
    b: str
    pairs: int
    games: int
    settings: Settings
    budget_ms: int | None = None
    seed: int = 0
    workers: int = 0
    """Processes for cheap bots; 0 picks the number of cores."""
    max_seconds: float | None = None
    """Stop starting new pairs after this long (then report what was done)."""
    max_deals: int | None = None
    """Most pairs dealt in all, counted or thrown in; ``None``:
    :data:`DEALS_PER_PAIR` times ``pairs``."""
    bot_log: str | None = None
    """A file for what external (``cmd:``) bots write on standard error."""

    @property
    def deal_limit(self) -> int:
        """How many pairs may be dealt to count ``pairs`` of them."""
        return self.max_deals if self.max_deals is not None else DEALS_PER_PAIR * self.pairs


def _percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    ys = sorted(xs)
    k = (len(ys) - 1) * q
    lo = math.floor(k)
    hi = min(lo + 1, len(ys) - 1)
    return ys[lo] + (ys[hi] - ys[lo]) * (k - lo)


@dataclass(slots=True)
class ArenaReport:
    """Everything the arena measured."""

    config: ArenaConfig
    margins: list[float] = field(default_factory=list)
    dropped: int = 0
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    hands_in_games: int = 0
    stats: dict[str, BotStats] = field(default_factory=lambda: {"A": BotStats(), "B": BotStats()})
    seconds: float = 0.0

    @property
    def counted(self) -> int:
        """Pairs that count (neither table thrown in)."""
        return len(self.margins)

    @property
    def complete(self) -> bool:
        """Whether every pair and game asked for is in."""
        return self.counted >= self.config.pairs and self.games >= 2 * self.config.games

    @property
    def limit_reached(self) -> bool:
        """Whether the deal limit stopped the run short of its pairs."""
        cfg = self.config
        return self.counted < cfg.pairs and self.counted + self.dropped >= cfg.deal_limit

    def add(self, r: PairResult | GameResult) -> None:
        if isinstance(r, PairResult):
            if r.margin is None:
                self.dropped += 1
            else:
                self.margins.append(r.margin)
        else:
            self.games += 2
            self.a_wins += r.a_wins
            self.b_wins += r.b_wins
            self.draws += r.draws
            self.hands_in_games += r.hands
        for k, v in r.stats.items():
            self.stats[k].merge(v)

    @property
    def mean(self) -> float:
        return sum(self.margins) / len(self.margins) if self.margins else 0.0

    @property
    def half_width(self) -> float:
        """Half the width of the 95% interval of the mean margin."""
        n = len(self.margins)
        if n < 2:
            return math.inf
        m = self.mean
        var = sum((x - m) ** 2 for x in self.margins) / (n - 1)
        return 1.96 * math.sqrt(var / n)

    def to_dict(self) -> dict[str, Any]:
        cfg = self.config
        bots: dict[str, Any] = {}
        for key, name in (("A", cfg.a), ("B", cfg.b)):
            st = self.stats[key]
            n = max(st.bids, 1)
            bots[key] = {
                "name": name,
                "bids": st.bids,
                "bid_success": st.made / n,
                "over_bid": st.over / n,
                "exact": st.exact / n,
                "under_bid": st.under / n,
                "decisions": len(st.times),
                "ms_p50": 1000 * _percentile(st.times, 0.5),
                "ms_p95": 1000 * _percentile(st.times, 0.95),
                "ms_max": 1000 * max(st.times, default=0.0),
                "faults": len(st.faults),
                "fault_samples": st.faults[:5],
            }
        hw = self.half_width
        return {
            "a": cfg.a,
            "b": cfg.b,
            "preset": cfg.settings.preset_name,
            "budget_ms": cfg.budget_ms,
            "seed": cfg.seed,
            "pairs_asked": cfg.pairs,
            "pairs_counted": len(self.margins),
            "pairs_played": len(self.margins),  # the same: the name of older reports
            "pairs_dropped": self.dropped,
            "deal_limit": cfg.deal_limit,
            "deal_limit_reached": self.limit_reached,
            "mean_points_per_deal": self.mean,
            "ci95": [self.mean - hw, self.mean + hw] if math.isfinite(hw) else None,
            "games": self.games,
            "a_game_wins": self.a_wins,
            "b_game_wins": self.b_wins,
            "game_draws": self.draws,
            "a_game_win_rate": (self.a_wins / self.games) if self.games else None,
            "bots": bots,
            "seconds": self.seconds,
        }
