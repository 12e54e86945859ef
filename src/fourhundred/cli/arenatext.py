"""What ``fourhundred arena`` shows a person: its progress line and its
report, readable in 80 columns (the per-bot table becomes a list when the
terminal is narrow). Only rich and the report's dict: ``--help`` stays quick."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from fourhundred.bots.arena import ArenaReport

__all__ = ["WIDE_TABLE", "print_report", "progress_text"]

WIDE_TABLE: Final = 100
"""Narrower than this, the arena prints its per-bot figures as a list."""


def print_report(report: ArenaReport, console: Console | None = None) -> None:
    """The arena's result for a person: the margin, the pairs counted of
    those asked, then each bot's figures as a table (or, in fewer than
    :data:`WIDE_TABLE` columns, as a list)."""
    from rich.console import Console

    d = report.to_dict()
    console = console or Console(highlight=False)
    ci = d["ci95"]
    ci_text = f"[{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else "(too few pairs)"
    console.print(
        f"[bold]{d['a']}[/] over [bold]{d['b']}[/]: "
        f"[bold]{d['mean_points_per_deal']:+.2f}[/] points per deal, 95% interval {ci_text}"
    )
    console.print(
        f"{d['pairs_counted']} of {d['pairs_asked']} duplicate pairs counted"
        f" ({d['pairs_dropped']} thrown in and replaced)"
    )
    if d["deal_limit_reached"]:
        console.print(
            f"[yellow]stopped at the limit of {d['deal_limit']} deals:"
            f" only {d['pairs_counted']} of {d['pairs_asked']} pairs counted[/]"
        )
    if d["games"]:
        console.print(
            f"whole games: {d['a']} won {d['a_game_wins']} of {d['games']}"
            f" ({100 * d['a_game_win_rate']:.1f}%), {d['game_draws']} unfinished"
        )
    if console.width >= WIDE_TABLE:
        console.print(_bots_table(d))
    else:
        for key in ("A", "B"):
            for line in _bot_lines(key, d["bots"][key]):
                console.print(line)
    for key in ("A", "B"):
        for f in d["bots"][key]["fault_samples"]:
            console.print(f"[yellow]{d['bots'][key]['name']} fault:[/] {f}")
    console.print(f"[dim]{d['seconds']:.0f} s; preset {d['preset']}; seed {d['seed']}[/]")


def _bots_table(d: dict[str, Any]) -> Table:
    from rich.table import Table

    t = Table("", "bot", "bids", "made", "over", "exact", "under", "p50 ms", "p95 ms", "max ms")
    t.add_column("faults")
    for key in ("A", "B"):
        b = d["bots"][key]
        t.add_row(
            key,
            b["name"],
            str(b["bids"]),
            f"{100 * b['bid_success']:.1f}%",
            f"{100 * b['over_bid']:.1f}%",
            f"{100 * b['exact']:.1f}%",
            f"{100 * b['under_bid']:.1f}%",
            f"{b['ms_p50']:.2f}",
            f"{b['ms_p95']:.2f}",
            f"{b['ms_max']:.1f}",
            str(b["faults"]),
        )
    return t


def _bot_lines(key: str, b: dict[str, Any]) -> list[str]:
    """One bot's figures as short lines, for a narrow terminal."""
    return [
        f"{key}: {b['name']}",
        f"  bids {b['bids']}: made {100 * b['bid_success']:.1f}%,"
        f" over-bid {100 * b['over_bid']:.1f}%, exact {100 * b['exact']:.1f}%,"
        f" under-bid {100 * b['under_bid']:.1f}%",
        f"  ms per decision: p50 {b['ms_p50']:.2f}, p95 {b['ms_p95']:.2f},"
        f" max {b['ms_max']:.1f}; faults {b['faults']}",
    ]


def progress_text(report: ArenaReport) -> str:
    """The arena's progress in one short line: pairs counted of those asked
    (and thrown in), games played of those asked, A's margin per deal."""
    cfg = report.config
    hw = report.half_width
    ci = f" ± {hw:.2f}" if hw != float("inf") else ""
    games = f", games {report.games // 2}/{cfg.games}" if cfg.games else ""
    return (
        f"pairs {report.counted}/{cfg.pairs} counted ({report.dropped} thrown in){games},"
        f" {report.mean:+.2f}{ci}"
    )
