"""Prometheus metrics (``GET /metrics``). One registry per app, so several
apps in one process (tests) do not collide."""

from __future__ import annotations

from collections.abc import Iterable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from .events import Bid, Event, Play, Redeal

__all__ = ["Metrics"]

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.tables = Gauge(
            "fourhundred_tables", "Tables loaded in this process", ["status"], registry=r
        )
        self.sockets = Gauge("fourhundred_sockets", "Open WebSockets", registry=r)
        self.actions = Counter(
            "fourhundred_actions",
            "Moves applied (bids, cards, redeals)",
            ["kind", "by"],
            registry=r,
        )
        self.timeouts = Counter(
            "fourhundred_timeouts", "Turns the timer played for a player", registry=r
        )
        self.command_seconds = Histogram(
            "fourhundred_command_seconds",
            "From a command's arrival to the broadcast of its event",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.bot_seconds = Histogram(
            "fourhundred_bot_seconds",
            "A bot's thinking time per decision",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.bot_fallbacks = Counter(
            "fourhundred_bot_fallbacks",
            "Bot decisions made by a lower level because the bot pool could not keep up",
            ["bot", "to", "reason"],
            registry=r,
        )
        self.hints = Counter(
            "fourhundred_hints", "Hints asked for, by outcome", ["outcome"], registry=r
        )
        self.ws_errors = Counter(
            "fourhundred_ws_errors", "Error frames sent, by code", ["code"], registry=r
        )
        self.games_finished = Counter(
            "fourhundred_games_finished", "Games that ended", ["reason"], registry=r
        )

    def count_moves(self, events: Iterable[Event]) -> None:
        """Count the moves among a command's events (and the timer's)."""
        for e in events:
            if isinstance(e, Bid):
                kind, by = "bid", e.by
            elif isinstance(e, Play):
                kind, by = "card", e.by
            elif isinstance(e, Redeal):
                kind, by = "redeal", "player"
            else:
                continue
            self.actions.labels(kind, by).inc()
            if by == "timeout":
                self.timeouts.inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)
