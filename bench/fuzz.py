"""Fuzz a live table of a real server with many hostile frames and print
what came back.

    python bench/fuzz.py [--frames 100000] [--max-seconds 3600]
                         [--families all|suite|NAME,NAME] [--backend sqlite]

It starts ``fourhundred serve`` on a free loopback port with a fresh
database and fires batches of frames drawn by Hypothesis (the strategies of
``tests/fuzz/fh_fuzz_transport.py`` and ``tests/fuzz/fh_fuzz_moves.py``) at
a Private table of four guests in play, from the seated players, a spectator
and a user attached to no table. Every reply is judged (a documented error
code, a message, the frame's id; the documented close after a ``closing``
frame), fresh connections compare the whole table before and after each
batch (a refused frame must change nothing), and between batches the harness
makes a legal move, checks ``/healthz`` and that a control table still takes
moves.

It stops after ``--frames`` frames or ``--max-seconds`` seconds, whichever
comes first, and prints the frames sent, the outcomes by kind and code, the
frames fired per family and every kind of violation found (with one
example each). ``--families all`` (the default) includes the families that
find bugs not fixed yet (``KNOWN_BUG_FAMILIES``); ``suite`` leaves them out.
Exit status 1 when there were violations.
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import re
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))

from fh_fuzz import FAMILIES, SUITE_FAMILIES, RigLoop, Spec, batches  # noqa: E402
from fh_wire import running_server  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
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


class Done(Exception):
    """The frame or time budget is spent."""


def parse_families(text: str) -> tuple[str, ...]:
    if text == "all":
        return tuple(FAMILIES)
    if text == "suite":
        return SUITE_FAMILIES
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in FAMILIES]
    if unknown:
        raise SystemExit(f"unknown families {unknown}; known: {', '.join(FAMILIES)}")
    return names


def kind_of(what: str) -> str:
    """A violation's message with its numbers and quoted values blurred, to
    count violations by kind."""
    return re.sub(r"\d+", "N", re.sub(r"'[^']*'", "'...'", what))[:140]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=100_000, help="frames to fire (at least)")
    ap.add_argument("--max-seconds", type=float, default=3600.0, help="stop after this long")
    ap.add_argument("--families", default="all", help="all, suite, or NAME,NAME,...")
    ap.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    ap.add_argument("--batch-max", type=int, default=120, help="most frames in one batch")
    ap.add_argument("--seed", type=int, default=1, help="seed of the harness's own choices")
    args = ap.parse_args(argv)
    if args.frames < 1 or args.max_seconds <= 0 or args.batch_max < 1:
        ap.error("--frames, --max-seconds and --batch-max must be positive")
    families = parse_families(args.families)
    console = Console()
    console.print(
        f"fuzz: {args.frames} frames or {args.max_seconds:.0f} s, families {', '.join(families)};"
        f" {args.backend}; Python {platform.python_version()} on {platform.machine()}"
    )
    started = time.monotonic()
    deadline = started + args.max_seconds
    stop = []
    # Ctrl-C or SIGTERM: finish the batch, report, stop the server.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.append(1))
    with running_server(args.backend, log_name="bench-fuzz") as server:
        rl = RigLoop(server.url, seed=args.seed)
        rig = rl.rig
        progress = Progress(
            TextColumn("[bold]fuzz"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("frames  {task.fields[rate]:.0f}/s  violations {task.fields[bad]}"),
            TimeElapsedColumn(),
            console=console,
        )
        task = progress.add_task("fuzz", total=args.frames, rate=0.0, bad=0)
        n = [0]

        @settings(
            max_examples=10**9,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(batch=batches(families, min_size=args.batch_max // 2, max_size=args.batch_max))
        def fire(batch: list[Spec]) -> None:
            if rig.frames_sent >= args.frames or time.monotonic() >= deadline or stop:
                raise Done
            rl.run(rig.step(batch, n[0], advance_every=3, check_every=50))
            n[0] += 1
            elapsed = time.monotonic() - started
            progress.update(
                task,
                completed=min(rig.frames_sent, args.frames),
                rate=rig.frames_sent / max(elapsed, 1e-9),
                bad=len(rig.violations),
            )

        with progress:
            with contextlib.suppress(Done):
                fire()
            rl.run(rig.check_alive())
        elapsed = time.monotonic() - started
        rl.close()
    report(console, rig, n[0], elapsed)
    return 1 if rig.violations else 0


def report(console: Console, rig: Any, batches_run: int, elapsed: float) -> None:
    console.print(
        f"\n[bold]{rig.frames_sent}[/bold] frames in {batches_run} batches, {elapsed:.0f} s"
        f" ({rig.frames_sent / max(elapsed, 1e-9):.0f} frames/s); {rig.moves} legal moves"
        f" between batches over {rig.tables_played} tables; {rig.accepted} fuzzed frames"
        " accepted as moves"
    )
    if rig.timer_batches:
        console.print(f"{rig.timer_batches} batches not judged: the turn timer ran out")
    outcomes = Table(title="outcomes (replies and closes)")
    outcomes.add_column("outcome")
    outcomes.add_column("count", justify="right")
    for label, count in sorted(rig.outcomes.items(), key=lambda kv: (-kv[1], kv[0])):
        outcomes.add_row(label, str(count))
    console.print(outcomes)
    fams = Table(title="fuzz actions by family")
    fams.add_column("family")
    fams.add_column("actions", justify="right")
    fams.add_column("frames", justify="right")
    fams.add_column("seconds", justify="right")
    for fam, count in sorted(rig.families.items(), key=lambda kv: (-kv[1], kv[0])):
        fams.add_row(fam, str(count), str(rig.family_frames[fam]), f"{rig.family_seconds[fam]:.1f}")
    console.print(fams)
    kinds: Counter[tuple[str, str]] = Counter()
    example: dict[tuple[str, str], str] = {}
    for v in rig.violations:
        key = (v.family, kind_of(v.what))
        kinds[key] += 1
        example.setdefault(key, str(v))
    if not kinds:
        console.print("[green]violations: 0[/green]")
        return
    console.print(f"[red]violations: {len(rig.violations)} ({len(kinds)} kinds)[/red]")
    for (fam, what), count in kinds.most_common():
        console.print(escape(f"  {count:6d}  [{fam}] {what}"))
        console.print(escape(f"          e.g. {example[(fam, what)][:300]}"))


if __name__ == "__main__":
    sys.exit(main())
