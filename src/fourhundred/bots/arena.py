"""The duplicate arena: how much better is bot A than bot B?

A **duplicate pair** deals the same cards twice, from the same position
(dealer and scores by seat): once with A's team at seats 0 and 2, once with
the teams' seats swapped, so the luck of the cards cancels. The pair's
result is A's team points minus B's team points, averaged over its two
tables; a pair where either table is thrown in does not count, and the
next deal takes its place, so that ``pairs`` pairs count (up to
:data:`DEALS_PER_PAIR` deals per pair asked, a limit the report states
when reached). Half the pairs
start from a fresh game (all scores 0); the other half from a random
mid-game position, so that the bots' reading of the game situation counts.

**Whole games** are played in duplicate too (the same seed with the seats
swapped) and give A's win rate.

Everything here is plain functions over the engine; :func:`run_arena` drives
them with a progress callback, in worker processes when both bots are cheap
(a bot with its own process pool runs in this process). Each pair and game
is seeded from the run's seed and its index, and results are taken in
index order whatever the order workers finish in, so a run is the same
from the same seed (unless ``max_seconds`` cuts it short).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.util
import os
import random
import signal
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from typing import Any, Final

from fourhundred.engine import (
    REDEAL,
    GameState,
    HandSummary,
    Phase,
    Settings,
    deal_masks,
    required_total,
    team_of,
    view_for,
)
from fourhundred.engine.steps import view_at

from . import make_bot
from .arena_report import (
    DEALS_PER_PAIR,
    ArenaConfig,
    ArenaReport,
    BotStats,
    GameResult,
    PairResult,
)
from .base import Bot
from .external import close_all, log_bot_stderr
from .heuristic import GAME_BONUS

__all__ = [
    "DEALS_PER_PAIR",
    "ArenaConfig",
    "ArenaReport",
    "BotStats",
    "GameResult",
    "PairResult",
    "pair_deal",
    "play_game",
    "play_hand",
    "play_pair",
    "run_arena",
]

MAX_HANDS_PER_GAME: Final = 300
"""A whole game that has not ended after this many hands counts as a draw."""


def _act(bot: Bot, state: GameState, seat: int, stats: BotStats) -> None:
    """Ask ``bot`` for ``seat``'s action and take it; an illegal answer is a
    recorded fault and the timeout action is taken instead."""
    view = view_for(state, seat)
    t0 = time.perf_counter()
    action = bot.choose(view)
    stats.times.append(time.perf_counter() - t0)
    if action == REDEAL and state.can_redeal(seat):
        state.request_redeal(seat)
        return
    if action not in state.legal_actions():
        stats.faults.append(f"illegal action {action!r} in hand {state.hand_index}")
        action = state.timeout_action()
    state.apply(action, seat)
    for f in getattr(bot, "drain_faults", list)():
        stats.faults.append(f)


def tell_hand_end(state: GameState, bots: Mapping[int, Bot]) -> None:
    """Show each bot (by seat) its view once a hand (or the game) has ended:
    an external bot gets its ``result`` message (docs/bot-protocol.md)."""
    for seat, bot in bots.items():
        if type(bot).observe is not Bot.observe:  # built-ins do not listen
            bot.observe(view_at(state, seat))


def play_hand(state: GameState, seats: list[Bot], stats: list[BotStats]) -> None:
    """Play the dealt hand of ``state`` to its end with ``seats[s]`` acting
    for seat ``s`` (``stats[s]`` collects that seat's figures)."""
    while state.phase is Phase.BID or state.phase is Phase.PLAY:
        seat = state.turn
        _act(seats[seat], state, seat, stats[seat])
    tell_hand_end(state, dict(enumerate(seats)))
    h = state.history[-1]
    if h.thrown_in:
        return
    for seat, b in enumerate(h.bids_by_seat):
        if b is not None and b != 13:
            stats[seat].count_bid(b, h.tricks[seat])


def _position(rng: random.Random, settings: Settings) -> tuple[int, list[int]]:
    """A dealer and scores by seat: a fresh game half the time, else a
    random mid-game position nobody has won yet."""
    dealer = rng.randrange(4)
    if rng.random() < 0.5:
        return dealer, [0, 0, 0, 0]
    top = max(settings.target - 3, 1)
    return dealer, [rng.randint(-10, top) for _ in range(4)]


def pair_deal(
    index: int, seed: int, settings: Settings
) -> tuple[int, list[int], tuple[int, int, int, int]]:
    """Duplicate pair ``index``'s dealer, scores by seat and deal (both
    tables play them)."""
    rng = random.Random(f"pair:{seed}:{index}")
    dealer, scores = _position(rng, settings)
    return dealer, scores, deal_masks(rng)


def play_pair(index: int, seed: int, a: list[Bot], b: list[Bot], settings: Settings) -> PairResult:
    """Play duplicate pair ``index``: ``a`` and ``b`` hold the two bots of
    each team (seats 0/2 and 1/3 in the first table)."""
    dealer, scores, deal = pair_deal(index, seed, settings)
    stats = {"A": BotStats(), "B": BotStats()}
    margin = 0.0
    tables: list[HandSummary] = []
    for swap in (False, True):
        team_a = 1 if swap else 0
        seats: list[Bot] = [a[0], b[0], a[1], b[1]] if not swap else [b[0], a[0], b[1], a[1]]
        seat_stats = [BotStats() for _ in range(4)]
        for bot in seats:
            bot.new_game()  # each table is a game of its own for external bots
        state = GameState(settings, first_dealer=dealer)
        state.scores = scores[:]
        state.required = required_total(settings, scores)
        state.deal(deal)
        play_hand(state, seats, seat_stats)
        for s in range(4):
            stats["A" if team_of(s) == team_a else "B"].merge(seat_stats[s])
        h = state.history[-1]
        tables.append(h)
        if h.thrown_in:
            return PairResult(index, None, stats, tuple(tables))
        d = h.deltas
        team_pts = (d[0] + d[2], d[1] + d[3])
        if state.phase is Phase.OVER and state.winner is not None and not any(d):
            # A 13 bid decided the game: count it as twice the game bonus.
            won = GAME_BONUS * 2
            team_pts = (won, -won) if state.winner == 0 else (-won, won)
        margin += team_pts[team_a] - team_pts[1 - team_a]
    return PairResult(index, margin / 2, stats, tuple(tables))


def play_game(index: int, seed: int, a: list[Bot], b: list[Bot], settings: Settings) -> GameResult:
    """Play whole game ``index`` twice (seats swapped), same seed."""
    stats = {"A": BotStats(), "B": BotStats()}
    res = GameResult(index, 0, 0, 0, 0, stats)
    for swap in (False, True):
        team_a = 1 if swap else 0
        seats: list[Bot] = [a[0], b[0], a[1], b[1]] if not swap else [b[0], a[0], b[1], a[1]]
        for bot in seats:
            bot.new_game()
        rng = random.Random(f"game:{seed}:{index}")
        state = GameState(settings, rng=rng)
        seat_stats = [BotStats() for _ in range(4)]
        while state.phase is not Phase.OVER and state.hand_index < MAX_HANDS_PER_GAME:
            state.deal_random()
            play_hand(state, seats, seat_stats)
        res.hands += state.hand_index + 1
        for s in range(4):
            stats["A" if team_of(s) == team_a else "B"].merge(seat_stats[s])
        if state.winner is None:
            res.draws += 1
        elif state.winner == team_a:
            res.a_wins += 1
        else:
            res.b_wins += 1
    return res


# --------------------------------------------------------------- workers

_WORKER: dict[str, Any] = {}


def _make_team(name: str, seed: int, budget_ms: int | None) -> list[Bot]:
    return [
        make_bot(name, seed=seed, budget_ms=budget_ms),
        make_bot(name, seed=seed + 1, budget_ms=budget_ms),
    ]


_CHEAP: Final = ("random", "heuristic")
"""Bots cheap to make: made afresh for each pair or game, seeded from it, so
that a run's results do not depend on which worker played what."""


def _exit_on_term(_signum: int, _frame: object) -> None:
    """A pool worker told to stop (the pool is terminated): unwind, so that
    the worker's exit closes its external bots (``quit``, a kill a second
    later) rather than leaving them running. Nothing is written from the
    handler itself: it may have interrupted a write to a bot. A second
    SIGTERM is ignored: it would cut short the closing of the bots that the
    first one started, leaving the rest running."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise SystemExit(0)


def _worker_init(cfg: ArenaConfig) -> None:
    if multiprocessing.parent_process() is not None:  # a pool's worker
        multiprocessing.util.Finalize(None, close_all, exitpriority=10)
        signal.signal(signal.SIGTERM, _exit_on_term)
    if cfg.bot_log is not None:
        log_bot_stderr(cfg.bot_log)
    _WORKER["cfg"] = cfg
    _WORKER["a"] = _make_team(cfg.a, cfg.seed * 7 + 1, cfg.budget_ms)
    _WORKER["b"] = _make_team(cfg.b, cfg.seed * 7 + 3, cfg.budget_ms)


def _worker_task(task: tuple[str, int]) -> PairResult | GameResult:
    cfg: ArenaConfig = _WORKER["cfg"]
    kind, i = task
    base = (cfg.seed * 1_000_003 + i) * 4 + (2 if kind == "game" else 0)
    for key, name, off in (("a", cfg.a, 0), ("b", cfg.b, 100)):
        if name in _CHEAP:
            _WORKER[key] = _make_team(name, base * 1000 + off, cfg.budget_ms)
    if kind == "pair":
        return play_pair(i, cfg.seed, _WORKER["a"], _WORKER["b"], cfg.settings)
    return play_game(i, cfg.seed, _WORKER["a"], _WORKER["b"], cfg.settings)


def _uses_own_cores(name: str) -> bool:
    from . import BOTS

    cls = BOTS.get(name)
    return bool(cls is not None and getattr(cls, "uses_processes", False))


def _tasks(cfg: ArenaConfig) -> list[tuple[str, int]]:
    """Every game and every pair that may be dealt, in the order results
    are taken: games interleaved with the first ``pairs`` pairs, so a run
    cut short has some of each, then the pairs that replace thrown-in ones."""
    out: list[tuple[str, int]] = [("pair", i) for i in range(cfg.deal_limit)]
    if cfg.games:
        step = max(1, cfg.pairs // cfg.games)
        for g in range(cfg.games):
            out.insert(min(len(out), (g + 1) * step + g), ("game", g))
    return out


def _indexed_task(job: tuple[int, tuple[str, int]]) -> tuple[int, PairResult | GameResult]:
    return job[0], _worker_task(job[1])


def _in_order(
    stream: Iterator[tuple[int, PairResult | GameResult]],
) -> Iterator[PairResult | GameResult]:
    """The results of ``stream`` (position, result), by position from 0:
    which pairs count then does not depend on which worker finished first."""
    waiting: dict[int, PairResult | GameResult] = {}
    taken = 0
    for position, result in stream:
        waiting[position] = result
        while taken in waiting:
            yield waiting.pop(taken)
            taken += 1


def run_arena(
    cfg: ArenaConfig, progress: Callable[[ArenaReport, str], None] | None = None
) -> ArenaReport:
    """Play until ``cfg.pairs`` pairs count and every game is in (or the
    deal limit or ``max_seconds`` is reached); ``progress(report, kind)`` is
    called after each pair or game taken. Raises ``ValueError`` for an
    unknown bot name."""
    report = ArenaReport(cfg)
    t0 = time.monotonic()
    tasks = list(enumerate(_tasks(cfg)))
    heavy = _uses_own_cores(cfg.a) or _uses_own_cores(cfg.b)
    workers = cfg.workers or (os.cpu_count() or 1)
    deadline = None if cfg.max_seconds is None else t0 + cfg.max_seconds

    def results() -> Generator[tuple[int, PairResult | GameResult]]:
        if heavy or workers <= 1 or len(tasks) < 2:
            _worker_init(cfg)
            try:
                for job in tasks:
                    if deadline is not None and time.monotonic() > deadline:
                        return
                    yield _indexed_task(job)
            finally:
                for bot in _WORKER["a"] + _WORKER["b"]:
                    bot.close()
            return
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(workers, initializer=_worker_init, initargs=(cfg,)) as pool:
            for r in pool.imap_unordered(_indexed_task, tasks, chunksize=1):
                yield r
                if deadline is not None and time.monotonic() > deadline:
                    return  # leaving the pool terminates it

    with contextlib.closing(results()) as stream:
        for r in _in_order(stream):
            if isinstance(r, PairResult) and report.counted >= cfg.pairs:
                continue  # played while the last pairs were still out: not needed
            report.add(r)
            report.seconds = time.monotonic() - t0
            if progress is not None:
                progress(report, "pair" if isinstance(r, PairResult) else "game")
            if report.complete:
                break
    report.seconds = time.monotonic() - t0
    return report
