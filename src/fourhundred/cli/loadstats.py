"""What ``fourhundred loadtest`` counts while it runs and reports at the end."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "LoadResult",
    "LoadStats",
    "Record",
    "TableRecord",
    "percentile",
    "round2",
    "summary_text",
]


@dataclass
class LoadStats:
    """Running counts, updated by every simulated player."""

    started: float = field(default_factory=time.monotonic)
    actions: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    stamps: list[float] = field(default_factory=list)
    """When each latency was measured (``time.monotonic()``)."""
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    disconnects: int = 0
    games_finished: int = 0
    tables_started: int = 0
    sockets_open: int = 0
    reconnects: int = 0
    record: Record | None = None

    def error(self, code: str) -> None:
        self.errors += 1
        self.error_codes[code] = self.error_codes.get(code, 0) + 1


@dataclass
class TableRecord:
    acks: list[tuple[int, str, Any, int]] = field(default_factory=list)
    """(seat, kind, value, version) of each acknowledged move."""
    frames: list[tuple[int, str, int]] = field(default_factory=list)
    """(wall-clock ms, type, version) of each table frame any player got."""


@dataclass
class Record:
    """What the players saw, by table (``--record``): checked against the
    stored log after a fault (``bench/chaos.py``)."""

    tables: dict[str, TableRecord] = field(default_factory=dict)

    def table(self, table_id: str) -> TableRecord:
        t = self.tables.get(table_id)
        if t is None:
            t = self.tables[table_id] = TableRecord()
        return t

    def to_dict(self) -> dict[str, Any]:
        return {
            "tables": {tid: {"acks": t.acks, "frames": t.frames} for tid, t in self.tables.items()}
        }


@dataclass(frozen=True)
class LoadResult:
    """The figures of one run (``to_dict`` is the ``--json`` output)."""

    tables: int
    duration_s: float
    actions: int
    actions_per_s: float
    p50_ms: float | None
    p95_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    errors: int
    error_codes: dict[str, int]
    disconnects: int
    games_finished: int
    server_rss_bytes_before: int | None
    server_rss_bytes_during: int | None
    reconnects: int = 0
    windows: list[dict[str, float | None]] = field(default_factory=list)
    """p50/p99 latency of each 10 s of the measurement (is the load steady?)."""

    @property
    def rss_per_table_bytes(self) -> float | None:
        if self.server_rss_bytes_before is None or self.server_rss_bytes_during is None:
            return None
        return (self.server_rss_bytes_during - self.server_rss_bytes_before) / max(self.tables, 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tables": self.tables,
            "sockets": 4 * self.tables,
            "duration_s": round(self.duration_s, 2),
            "actions": self.actions,
            "actions_per_s": round(self.actions_per_s, 1),
            "latency_ms": {
                "p50": round2(self.p50_ms),
                "p95": round2(self.p95_ms),
                "p99": round2(self.p99_ms),
                "max": round2(self.max_ms),
            },
            "errors": self.errors,
            "error_codes": self.error_codes,
            "disconnects": self.disconnects,
            "reconnects": self.reconnects,
            "games_finished": self.games_finished,
            "server_rss_bytes_before": self.server_rss_bytes_before,
            "server_rss_bytes_during": self.server_rss_bytes_during,
            "server_rss_per_table_bytes": round2(self.rss_per_table_bytes),
            "windows": self.windows,
        }


def summary_text(result: LoadResult, servers: int) -> str:
    """The report a person reads (``--json`` gives :meth:`LoadResult.to_dict`)."""
    data = result.to_dict()
    lat = data["latency_ms"]
    per_table = data["server_rss_per_table_bytes"]
    memory = (
        "server memory: not measured (give --server-pid)"
        if per_table is None
        else f"server rss per table: {per_table} bytes"
    )
    return (
        f"servers: {servers}  tables: {result.tables}  sockets: {4 * result.tables}"
        f"  duration: {data['duration_s']} s\n"
        f"actions: {result.actions}  actions_per_s: {data['actions_per_s']}\n"
        f"latency_ms p50: {lat['p50']}  p95: {lat['p95']}  p99: {lat['p99']}"
        f"  max: {lat['max']}\n"
        f"errors: {result.errors} {result.error_codes or ''}  "
        f"disconnects: {result.disconnects}  reconnects: {result.reconnects}"
        f"  games finished: {result.games_finished}\n{memory}"
    )


def round2(x: float | None) -> float | None:
    """``x`` to two decimals (None stays None)."""
    return None if x is None else round(x, 2)


def percentile(values: list[float], q: float) -> float | None:
    """The ``q``-quantile (0..1) by the nearest-rank method."""
    if not values:
        return None
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[k]
