"""Play many games through a real server and read every frame to every seat
and spectator against each game's record: no card may reach anyone who may
not see it.

    python bench/leaks.py [--games 2000] [--max-seconds 3600] [--tables 6]

It starts ``fourhundred serve`` on a free loopback port (a fresh SQLite
database, heuristic bots, turn timers 100 times faster through
``FOURHUNDRED_TEST_TIMER_SCALE=0.01`` in the process's environment) and
keeps ``--tables`` games going at once, cycling through three kinds: four
server bots and a spectator, four people driven by this script from
``view.legal``, two people and two bots. Some people drop their socket
mid-hand and rejoin with their last version (``catchup``); some spectators
come late (``snapshot``). Each game is played to 11 points; when it ends,
its record is fetched and every frame checked by ``tests/leaks/fh_leaks.py``
(in a worker process, so checking never slows the players).

It starts no game after ``--games`` games or ``--max-seconds`` seconds,
whichever comes first (the games under way finish: each has five minutes at
most), and prints the games played by kind, the frames, views and card
names checked, and every violation. Exit status 1 when there were
violations or games that did not end.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import platform
import random
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))
sys.path.insert(0, str(ROOT / "tests" / "leaks"))

from fh_leak_games import KINDS, GameOptions, GameResult, LeakGame  # noqa: E402
from fh_leaks import CheckSummary, Recipient, check_game  # noqa: E402
from fh_wire import Account, running_server  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.markup import escape  # noqa: E402
from rich.progress import (  # noqa: E402
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table  # noqa: E402


class Tally:
    def __init__(self) -> None:
        self.games: Counter[str] = Counter()
        self.unfinished: Counter[str] = Counter()
        self.frames = 0
        self.views = 0
        self.cards = 0
        self.actions = 0
        self.recipients = 0
        self.frame_types: Counter[str] = Counter()
        self.client_errors: Counter[str] = Counter()
        self.violations: list[str] = []
        self.notes: Counter[str] = Counter()

    def add(self, r: GameResult) -> None:
        if r.finished:
            self.games[r.kind] += 1
        else:
            self.unfinished[r.kind] += 1
            self.notes[r.note[:160]] += 1
        self.frames += r.frames
        self.views += r.views
        self.cards += r.cards_seen
        self.actions += r.actions
        self.recipients += r.recipients
        self.frame_types.update(r.frame_types)
        self.client_errors.update(r.client_errors)
        self.violations.extend(f"{r.kind} {r.table}: {v}" for v in r.violations)


async def run(args: argparse.Namespace, url: str, console: Console) -> tuple[Tally, float]:
    tally = Tally()
    started = time.monotonic()
    deadline = started + args.max_seconds
    pool = concurrent.futures.ProcessPoolExecutor(1)
    loop = asyncio.get_running_loop()
    next_game = [0]
    stop: list[int] = []
    # Ctrl-C or SIGTERM: start no more games, finish those under way, report.
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.append, 1)

    async def check(record: dict[str, Any], recipients: list[Recipient]) -> CheckSummary:
        return await loop.run_in_executor(pool, check_game, record, recipients)

    progress = Progress(
        TextColumn("[bold]leaks"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games  {task.fields[frames]} frames checked  violations {task.fields[bad]}"),
        TimeElapsedColumn(),
        console=console,
    )
    task = progress.add_task("leaks", total=args.games, frames=0, bad=0)

    async def accounts(i: int, n: int) -> tuple[list[Account], list[Account]]:
        people = [await Account(url, f"Bench{i}p{j}").guest() for j in range(4)]
        watchers = [await Account(url, f"Bench{i}w{j}").guest() for j in range(2)]
        return people, watchers

    async def slot(i: int) -> None:
        rng = random.Random(args.seed * 1000 + i)
        people, watchers = await accounts(i, 0)
        try:
            while next_game[0] < args.games and time.monotonic() < deadline and not stop:
                n = next_game[0]
                next_game[0] += 1
                kind = KINDS[n % len(KINDS)]
                game = LeakGame(
                    kind,
                    people,
                    watchers,
                    rng,
                    GameOptions(
                        reconnect=0.05 if rng.random() < 0.3 else 0.0,
                        late_spectator=rng.random() < 0.3,
                        time_limit=300.0,
                    ),
                )
                try:
                    result = await game.run(check)
                except Exception as e:  # a broken game is reported, not fatal
                    result = GameResult(kind, game.table, False, note=repr(e))
                tally.add(result)
                if not result.finished:
                    # These people may still sit at that table: new ones.
                    for a in (*people, *watchers):
                        await a.aclose()
                    people, watchers = await accounts(i, n)
                progress.update(
                    task,
                    completed=sum(tally.games.values()) + sum(tally.unfinished.values()),
                    frames=tally.frames,
                    bad=len(tally.violations),
                )
        finally:
            for a in (*people, *watchers):
                await a.aclose()

    with progress:
        await asyncio.gather(*(slot(i) for i in range(args.tables)))
    pool.shutdown()
    return tally, time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000, help="games to play and check")
    ap.add_argument("--max-seconds", type=float, default=3600.0, help="stop after this long")
    ap.add_argument("--tables", type=int, default=6, help="games at once")
    ap.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.games < 1 or args.tables < 1 or args.max_seconds <= 0:
        ap.error("--games, --tables and --max-seconds must be positive")
    console = Console()
    console.print(
        f"leaks: {args.games} games or {args.max_seconds:.0f} s, {args.tables} at once;"
        f" {args.backend}; Python {platform.python_version()} on {platform.machine()}"
    )
    with running_server(
        args.backend, timer_scale=0.01, bot="heuristic", log_name="bench-leaks"
    ) as server:
        tally, elapsed = asyncio.run(run(args, server.url, console))
    played = sum(tally.games.values())
    console.print(
        f"\n[bold]{played}[/bold] games played to the end and checked in {elapsed:.0f} s"
        f" ({played / max(elapsed, 1e-9) * 60:.1f} a minute); not ended:"
        f" {sum(tally.unfinished.values())}"
    )
    t = Table(title="games")
    t.add_column("kind")
    t.add_column("ended", justify="right")
    t.add_column("not ended", justify="right")
    for kind in KINDS:
        t.add_row(kind, str(tally.games[kind]), str(tally.unfinished[kind]))
    console.print(t)
    types = ", ".join(f"{k} {v}" for k, v in tally.frame_types.most_common())
    console.print(
        f"frames checked: {tally.frames} ({types});"
        f" views checked against view_for: {tally.views}; card names located: {tally.cards};"
        f" recipients: {tally.recipients}; moves by this script's people: {tally.actions};"
        f" their refusals: {dict(tally.client_errors) or 'none'}"
    )
    for note, count in tally.notes.most_common(10):
        console.print(escape(f"  not ended ({count}): {note}"))
    if tally.violations:
        console.print(f"[red]violations: {len(tally.violations)}[/red]")
        for v in tally.violations[:50]:
            console.print(escape("  " + v[:400]))
    else:
        console.print("[green]violations: 0[/green]")
    return 1 if tally.violations or tally.unfinished else 0


if __name__ == "__main__":
    sys.exit(main())
