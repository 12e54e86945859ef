"""The bots' commands: ``arena``, ``analyse``, ``bot`` and ``train``.

Registered on the ``fourhundred`` app by :func:`register` (listed in
``fourhundred.cli.COMMAND_MODULES``); new bot tools (training, say) belong
here too. Heavy imports stay inside the command bodies so that
``fourhundred --help`` stays quick.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from fourhundred.bots.arena import ArenaReport

from .arenatext import print_report, progress_text
from .common import (
    BOT_BUDGET_DEFAULT,
    BotLog,
    check_bot_name,
    fail,
    preset_or_exit,
    read_json,
)
from .help import HelpCommand

__all__ = ["print_analysis", "register"]

_BOT_CHOICES = "random, beginner, heuristic, search, expert"
"""The built-in bots as the help names them (a test checks them against
``fourhundred.bots.BOTS``, which this module does not import, to keep
``--help`` quick)."""

BudgetMs = Annotated[
    int | None,
    typer.Option(
        "--budget-ms",
        min=1,
        help="Thinking time per decision, in ms.",
        show_default=BOT_BUDGET_DEFAULT,
    ),
]
"""The ``--budget-ms`` option of the commands that run bots."""


def arena(
    a: Annotated[str, typer.Argument(help=f"Bot A: {_BOT_CHOICES} or cmd:COMMAND.")],
    b: Annotated[str, typer.Argument(help="Bot B, the same choices.")],
    pairs: Annotated[
        int, typer.Option("--pairs", min=1, help="Duplicate pairs that count (see above).")
    ] = 100,
    games: Annotated[
        int | None,
        typer.Option(
            "--games", min=0, help="Whole games (each played twice).", show_default="pairs/10"
        ),
    ] = None,
    preset_name: Annotated[str, typer.Option("--preset", help="Rules preset.")] = "standard",
    budget_ms: BudgetMs = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deals.")] = 0,
    workers: Annotated[
        int, typer.Option("--workers", min=0, help="Processes for cheap bots (0: one per core).")
    ] = 0,
    max_minutes: Annotated[
        float | None,
        typer.Option(
            "--max-minutes",
            min=0.01,
            help="Stop after this long and report.",
            show_default="no limit",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    bot_log: BotLog = None,
) -> None:
    """Duplicate pairs and whole games of bot A against bot B: A's points per deal over B.

    Each deal is played twice with the teams' seats swapped. A pair where
    either table is thrown in does not count and a new deal replaces it,
    until --pairs pairs count or 10 deals per pair asked have been dealt
    (then the report says so). The same --seed gives the same result.
    Reports the mean margin with a 95% interval, bid success and
    over-/under-bid rates per bot, the whole-game win rate and decision
    times (p50, p95, max).
    """
    from rich.console import Console
    from rich.progress import Progress, TextColumn, TimeElapsedColumn

    from fourhundred.bots.arena import ArenaConfig, run_arena

    check_bot_name(a)
    check_bot_name(b)
    cfg = ArenaConfig(
        a=a,
        b=b,
        pairs=pairs,
        games=pairs // 10 if games is None else games,
        settings=preset_or_exit(preset_name),
        budget_ms=budget_ms,
        seed=seed,
        workers=workers,
        max_seconds=None if max_minutes is None else max_minutes * 60,
        bot_log=None if bot_log is None else str(bot_log),
    )
    plain_log = not sys.stderr.isatty() and not sys.stdout.isatty()
    with Progress(
        TextColumn("{task.fields[status]}"),  # short enough for 80 columns: no bar
        TimeElapsedColumn(),
        transient=as_json,
        disable=as_json and not sys.stderr.isatty(),
        console=Console(stderr=True),  # standard output is the report's alone
    ) as progress:
        task = progress.add_task(f"{a} vs {b}", total=cfg.pairs + cfg.games, status="")

        def update(report: ArenaReport, kind: str) -> None:
            status = progress_text(report)
            progress.update(task, completed=report.counted + report.games // 2, status=status)
            taken = report.counted + report.dropped + report.games // 2
            if plain_log and (taken % 25 == 0 or report.complete):
                # No terminal to draw a bar on (a log file): a line now and then.
                print(f"{status} {report.seconds:.0f}s", file=sys.stderr, flush=True)

        try:
            report = run_arena(cfg, update)
        except ValueError as e:
            raise fail(str(e)) from None
    if as_json:
        print(json.dumps(report.to_dict()))
    else:
        print_report(report)


def analyse(
    record: Annotated[str, typer.Argument(help="A game record (JSON file), - for stdin.")],
    hand: Annotated[
        int | None,
        typer.Option(
            "--hand",
            min=1,
            help="Analyse only this hand, counted from 1 as the text shows it.",
            show_default="every hand",
        ),
    ] = None,
    deals: Annotated[int, typer.Option("--deals", min=2, help="Sampled deals per decision.")] = 40,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sampled deals.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """What the expert would have bid and played, and the points each card cost.

    For each seat of each hand (or of --hand H): the bid, the expert's chance
    of making it and the bid it prefers, and every card where it would have
    played another one, with the expected points lost (team points, its
    estimate over sampled deals). The text counts hands and tricks from 1,
    as --hand does; --json, like the record, counts hands from 0.
    """
    from rich.progress import Progress

    from fourhundred.bots.analysis import AnalysisOptions, analyse_record
    from fourhundred.engine import RecordError, replay

    data = read_json(record)
    try:
        replay(data)
    except RecordError as e:
        raise fail(f"not a valid game record: {e}") from None
    n = len(data["hands"])
    if hand is not None and hand > n:
        raise fail(f"--hand {hand}: the record has {n} hands (1 to {n})")
    with Progress(transient=True, disable=as_json and not sys.stderr.isatty()) as progress:
        task = progress.add_task("analysing", total=None)

        def tick(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        result = analyse_record(
            data,
            AnalysisOptions(deals=deals, seed=seed),
            hand=None if hand is None else hand - 1,
            progress=tick,
        )
    if as_json:
        print(json.dumps(result))
    else:
        print_analysis(result)


def print_analysis(result: dict[str, Any], console: Console | None = None) -> None:
    """The analysis for a person: hands and tricks counted from 1."""
    from rich.console import Console

    console = console or Console(highlight=False)
    console.print(
        f"The expert's view of each decision ({result['deals_per_decision']} sampled deals"
        " per decision; points are team points, the bot's estimate)."
    )
    for h in result["hands"]:
        console.print(f"[bold]Hand {h['hand'] + 1}[/]")
        for s in h["seats"]:
            bid = s["bid"]
            sb = s["search_bid"]
            same = "same" if bid == sb else f"expert would bid {sb}"
            extra = f", about {s['bid_lost']:.2f} points lost" if s.get("bid_lost") else ""
            chance = f", {s['chance']:.0%} chance of making it" if "chance" in s else ""
            console.print(f"  seat {s['seat']}: bid {bid}{chance} ({same}{extra})")
            for c in s["cards"]:
                console.print(
                    f"    trick {c['trick'] + 1}: played {c['played']}, expert prefers "
                    f"{c['search']}: {c['lost']:.2f} points lost"
                )
            if not s["cards"]:
                console.print("    every card as the expert would have played it")
            console.print(f"    total expected loss: {s['lost']:.2f}")


def calibrate(
    hands: Annotated[int, typer.Argument(min=1, metavar="HANDS", help="Self-play hands.")],
    seed: Annotated[int, typer.Option("--seed", help="Seed of the self-play games.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Check the expert's bid chances against how often the bids are made.

    Over HANDS hands of heuristic self-play: the chance the learned bidder
    gave each bid against whether it was made, by tenths of predicted chance.
    """
    from rich.console import Console
    from rich.table import Table

    from fourhundred.bots.calibration import calibration_table, self_play_calibration
    from fourhundred.engine import preset

    chances, made = self_play_calibration(preset("standard"), hands, seed)
    rows = calibration_table(chances, made)
    if as_json:
        print(json.dumps({"hands": hands, "bids": len(made), "rows": [
            {"low": r.low, "high": r.high, "bids": r.bids, "predicted": round(r.predicted, 4),
             "actual": round(r.actual, 4)} for r in rows
        ]}))  # fmt: skip
        return
    table = Table(title=f"Bid chances over {len(made)} bids ({hands} self-play hands)")
    for col in ("predicted", "bids", "mean chance", "made", "gap (points)"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            f"{r.low:.1f}-{r.high:.1f}", str(r.bids), f"{r.predicted:.1%}", f"{r.actual:.1%}",
            f"{100 * r.gap:+.1f}",
        )  # fmt: skip
    Console(highlight=False).print(table)


def bot(
    name: Annotated[str, typer.Argument(help=f"A built-in bot: {_BOT_CHOICES}.")],
    budget_ms: Annotated[
        int | None,
        typer.Option(
            "--budget-ms",
            min=1,
            help="Most thinking time per decision, in ms (the host's budget_ms counts too).",
            show_default="500 for search and expert",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed of the bot's choices.", show_default="random"),
    ] = None,
) -> None:
    """Run a built-in bot as a bot-protocol program (JSON lines on stdin/stdout).

    Other hosts and tools can then use our bots (docs/bot-protocol.md).
    """
    from fourhundred.bots import BOTS, make_bot
    from fourhundred.bots.guest import serve

    if name not in BOTS:
        raise fail(f"unknown bot {name!r}: use one of {', '.join(sorted(BOTS))}")
    b = make_bot(name, seed=seed, budget_ms=budget_ms)
    raise typer.Exit(serve(b, name, sys.stdin, sys.stdout, sys.stderr))


def train(
    model: Annotated[
        str,
        typer.Argument(
            help="What to train: tricks (the bidder's model) or locations (where the "
            "hidden cards lie, for the expert's deals)."
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Run directory: data chunks, checkpoint, weights.",
            show_default="runs/train-MODEL",
        ),
    ] = None,
    hands: Annotated[
        int | None,
        typer.Option(
            "--hands", min=1, help="Self-play hands.", show_default="20000 (locations: 30000)"
        ),
    ] = None,
    chunk: Annotated[int, typer.Option("--chunk", min=1, help="Hands per data chunk.")] = 1_000,
    epochs: Annotated[
        int | None,
        typer.Option(
            "--epochs", min=1, help="Passes of the fit.", show_default="20 (locations: 8)"
        ),
    ] = None,
    hidden: Annotated[
        int | None,
        typer.Option("--hidden", min=1, help="Hidden units.", show_default="64 (locations: 256)"),
    ] = None,
    calib_hands: Annotated[
        int,
        typer.Option("--calib-hands", min=1, help="Self-play hands for the calibration (tricks)."),
    ] = 2_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the games and the fit.")] = 1,
    ship: Annotated[
        bool, typer.Option("--ship", help="Also write the weights the package plays with.")
    ] = False,
) -> None:
    """Train a model from self-play (repeatable from --seed; run it again to resume).

    tricks: the chance of each trick count for a hand at its bid, used by
    the expert's bidder and by analyse. locations: the chance that each
    other seat holds each hidden card, used by the expert to deal the
    hidden cards it searches. Data chunks and a checkpoint after every
    epoch go to --out, so an interrupted run goes on where it stopped.
    """
    import time

    from rich.console import Console
    from rich.progress import Progress

    if model not in ("tricks", "locations"):
        raise fail(f"unknown model {model!r}: use tricks or locations")
    out = out or Path(f"runs/train-{model}")
    start = time.monotonic()
    with Progress() as progress:
        tasks: dict[str, Any] = {}

        def tick(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = progress.add_task(stage, total=total)
            progress.update(tasks[stage], completed=done, total=total)

        if model == "tricks":
            from fourhundred.bots.model import SHIPPED
            from fourhundred.bots.train import TrainConfig
            from fourhundred.bots.train import train as run_training

            cfg = TrainConfig(
                out=out,
                seed=seed,
                hands=hands or 20_000,
                chunk=chunk,
                epochs=epochs or 20,
                hidden=hidden or 64,
                calib_hands=calib_hands,
            )
            tricks_model, losses = run_training(cfg, tick)
            size, save, shipped = tricks_model.size, tricks_model.save, SHIPPED
            said = f"loss {losses['train']:.4f} (train) {losses['valid']:.4f} (held out)"
        else:
            from fourhundred.bots.locations import SHIPPED as LOCATIONS
            from fourhundred.bots.train_locations import LocationConfig, train_locations

            lcfg = LocationConfig(
                out=out,
                seed=seed,
                hands=hands or 30_000,
                chunk=chunk,
                epochs=epochs or 8,
                hidden=hidden or 256,
            )
            loc_model, f = train_locations(lcfg, tick)
            size, save, shipped = loc_model.size, loc_model.save, LOCATIONS
            said = (
                f"held out: loss {f['loss']:.4f} per hidden card, likeliest seat right "
                f"{f['hit']:.1%} (uniform deal: {f['uniform_loss']:.4f}, {f['uniform_hit']:.1%})"
            )
    if ship:
        save(shipped)
    Console(highlight=False).print(
        f"trained {model}: {size} parameters, {said}, "
        f"{time.monotonic() - start:.0f} s; weights in {out / (model + '.npz')}"
        + (f" and {shipped}" if ship else "")
    )


def register(app: typer.Typer) -> None:
    """Add the bots' commands to the ``fourhundred`` command.

    A new bot tool is a function above and one line here.
    """
    app.command(cls=HelpCommand)(arena)
    app.command(cls=HelpCommand)(analyse)
    app.command(cls=HelpCommand)(calibrate)
    app.command(cls=HelpCommand)(bot)
    app.command(cls=HelpCommand)(train)
