"""``fourhundred loadtest``: drive many tables of simulated players against a
running server over real WebSockets and report throughput and latency (the
generator is :mod:`.loadgen`, its figures :mod:`.loadstats`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

from .help import HelpCommand
from .serveconfig import default

if TYPE_CHECKING:
    from rich.table import Table

    from .loadstats import LoadStats

__all__ = ["DEFAULT_URL", "register"]

DEFAULT_URL: Final = f"ws://{default('host')}:{default('port')}"
"""Where ``fourhundred serve`` listens when started with its defaults."""


def register(app: typer.Typer) -> None:
    """Add ``fourhundred loadtest`` to the command line."""

    @app.command(cls=HelpCommand)
    def loadtest(
        *,
        url: Annotated[
            list[str] | None,
            typer.Option(
                help="The server's WebSocket base URL; repeat it for the processes of a cluster.",
                show_default=DEFAULT_URL,
            ),
        ] = None,
        tables: int = typer.Option(50, min=1, max=5000, help="Tables of four players."),
        duration: float = typer.Option(30.0, min=1, max=3600, help="Seconds to measure."),
        think_ms: int = typer.Option(1000, min=0, max=60000, help="Mean pause before acting."),
        ramp: float = typer.Option(10.0, min=0, max=600, help="Seconds to open all tables."),
        warmup: float = typer.Option(
            10.0, min=0, max=600, help="Seconds between the ramp and the measurement."
        ),
        server_pid: Annotated[
            list[int] | None,
            typer.Option(
                help="The server's process id, to measure its memory per table (repeat: summed).",
                show_default="memory not measured",
            ),
        ] = None,
        as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
        reconnect: bool = typer.Option(
            False, help="A player whose socket drops connects again (to the next --url)."
        ),
        record: Annotated[
            Path | None,
            typer.Option(
                help="Write every acknowledged move and every table frame's arrival time"
                " to this JSON file (for bench/chaos.py).",
                show_default="none written",
            ),
        ] = None,
    ) -> None:
        """Drive TABLES tables of four simulated players over real WebSockets
        (loopback only) and report actions/s, latency and errors."""
        import asyncio

        from rich.console import Console
        from rich.live import Live
        from rich.table import Table

        from .loadgen import LoadOptions, check_loopback, run_load
        from .loadstats import Record, percentile, summary_text
        from .server import raise_open_files_limit

        console = Console(stderr=True)
        urls = url or [DEFAULT_URL]
        try:
            for u in urls:
                check_loopback(u)
        except ValueError as e:
            console.print(f"[red]{e}[/red]")
            raise typer.Exit(2) from None

        def render(stats: LoadStats, elapsed: float) -> Table:
            t = Table(title=f"load test: {tables} tables, {elapsed:.0f}/{duration:.0f} s")
            for col in ("sockets", "actions", "p50 ms", "p99 ms", "errors", "disconnects"):
                t.add_column(col, justify="right")
            lat = stats.latencies_ms[-5000:]
            p50, p99 = percentile(lat, 0.5), percentile(lat, 0.99)
            t.add_row(
                str(stats.sockets_open),
                str(stats.actions),
                "-" if p50 is None else f"{p50:.1f}",
                "-" if p99 is None else f"{p99:.1f}",
                str(stats.errors),
                str(stats.disconnects),
            )
            return t

        limit = raise_open_files_limit()
        if limit and limit < 4 * tables + 64:
            console.print(
                f"[red]{tables} tables need {4 * tables} sockets but this process may open "
                f"only {limit} files: raise the limit (ulimit -n) or use fewer tables[/red]"
            )
            raise typer.Exit(2)
        # uvloop when it is there (the server uses it too): the generator's
        # own event loop must not be what the latency measures.
        try:
            import uvloop

            loop_factory: Any = uvloop.new_event_loop
        except ImportError:
            loop_factory = None
        seen = Record() if record is not None else None
        with (
            Live(console=console, refresh_per_second=2, transient=True) as live,
            asyncio.Runner(loop_factory=loop_factory) as runner,
        ):
            result = runner.run(
                run_load(
                    urls,
                    LoadOptions(
                        tables=tables,
                        duration=duration,
                        think_ms=think_ms,
                        ramp_s=ramp,
                        warmup_s=warmup,
                        reconnect=reconnect,
                    ),
                    server_pid=server_pid,
                    progress=lambda s, e: live.update(render(s, e)),
                    record=seen,
                )
            )
        if seen is not None and record is not None:
            record.write_text(json.dumps(seen.to_dict()), encoding="utf-8")
        if as_json:
            print(json.dumps(result.to_dict()))
            return
        print(summary_text(result, len(urls)))
