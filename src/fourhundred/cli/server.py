"""``fourhundred serve`` and ``fourhundred db``."""

from __future__ import annotations

import enum
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

from fourhundred import env

from .common import fail
from .help import HelpCommand, HelpGroup
from .serveconfig import DB_HELP, LEASE_MS_MAX, LEASE_MS_MIN, OPTION_FIELDS, server_config
from .serveconfig import default as _default
from .serveconfig import env_help as _env_help

if TYPE_CHECKING:
    from fourhundred.server.config import ServerConfig

__all__ = ["raise_open_files_limit", "register"]


_DB_DEFAULT = f"fourhundred.sqlite3 in ${env.DATA_DIR}, else in ./data"


class FairPlayChoice(enum.StrEnum):
    """``--fair-play``'s values (the config's ``FAIR_PLAY_MODES``)."""

    off = "off"
    ranked = "ranked"
    all = "all"


_FAIR_PLAY_DEFAULT: Final = FairPlayChoice(_default("fair_play"))
"""Where the database is when no option or variable names one."""


def _fail(message: str) -> typer.Exit:
    return fail(message, 1)


async def _migrate(url: str | None) -> tuple[str, str | None]:
    from fourhundred.store import create_engine, current_revision, upgrade

    engine = create_engine(url)
    try:
        await upgrade(engine)
        return engine.url.render_as_string(hide_password=True), await current_revision(engine)
    finally:
        await engine.dispose()


def raise_open_files_limit() -> int:
    """Raise this process's open-file limit to its hard limit (every socket is
    a file: the usual soft limit of 1024 would cap a server near 1,000
    players). Returns the limit now in force."""
    try:
        import resource
    except ImportError:  # not on a POSIX system
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft == resource.RLIM_INFINITY or soft >= want:
        return int(soft)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    except (ValueError, OSError):
        return int(soft)
    return int(want)


def _upgrade_or_exit(url: str | None) -> tuple[str, str | None]:
    import asyncio

    from fourhundred.store import UnsupportedDatabase

    try:
        return asyncio.run(_migrate(url))
    except UnsupportedDatabase as e:
        raise _fail(str(e)) from None
    except (OSError, ConnectionError) as e:
        raise _fail(
            f"cannot reach the database: {e}. Check --database-url (or ${env.DATABASE_URL})"
            " and that the server is running."
        ) from None
    except Exception as e:
        raise _fail(f"cannot migrate the database: {e.__class__.__name__}: {e}") from None


def _checked_config(given: dict[str, Any]) -> ServerConfig:
    """The server's config from ``serve``'s options, or exit with what to fix."""
    from fourhundred.bots import BOTS

    try:
        config = server_config(given)
    except env.BadEnvironment as e:
        raise _fail(str(e)) from None
    if not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", config.node):
        raise _fail(f"--node {config.node!r}: use 1 to 64 letters, digits, '.', '_' or '-'")
    if config.chat_filter not in ("default", "off") and not Path(config.chat_filter).is_file():
        raise _fail(f"--chat-filter {config.chat_filter!r}: no such file (or 'default', 'off')")
    for name in (config.bot, config.substitute):
        if name not in BOTS:
            raise _fail(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})")
    if config.redis_url and not (config.database_url or "").startswith(("postgresql", "postgres")):
        raise _fail(
            "--redis-url needs a shared database: pass a PostgreSQL --database-url"
            " (postgresql+asyncpg://USER@HOST/DB) to every process."
        )
    if config.tournaments_file is not None:
        from fourhundred.server.competitions.system import load_schedule

        try:
            load_schedule(config.tournaments_file, time.time_ns() // 1_000_000)
        except ValueError as e:
            raise _fail(f"--tournaments-file: {e}") from None
    return config


def register(app: typer.Typer) -> None:
    """Add ``serve`` and ``db`` to the ``fourhundred`` command."""

    @app.command(cls=HelpCommand)
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = _default("host"),
        port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = _default(
            "port"
        ),
        database_url: Annotated[
            str | None,
            typer.Option(
                "--database-url",
                help="sqlite+aiosqlite:///PATH or postgresql+asyncpg://USER@HOST/DB. "
                + _env_help(env.DATABASE_URL, env.DATABASE_URL_FALLBACK),
                show_default=_DB_DEFAULT,
            ),
        ] = None,
        bot: Annotated[
            str | None,
            typer.Option(
                help="Bot a host adds without naming a level.",
                show_default="heuristic",
            ),
        ] = None,
        substitute: Annotated[
            str,
            typer.Option(
                help="Bot standing in for a player who left or timed out"
                " (an expert falls back to the heuristic when the bot pool is behind)."
            ),
        ] = _default("substitute"),
        bot_budget_ms: Annotated[
            int,
            typer.Option(help="Thinking time per bot decision (and hint).", min=10, max=10000),
        ] = _default("bot_budget_ms"),
        bot_delay: Annotated[
            float, typer.Option(help="Least seconds a bot takes per move.", min=0.0, max=10.0)
        ] = _default("bot_delay_s"),
        bot_workers: Annotated[
            int | None,
            typer.Option(help="Bot processes (0 = a thread).", min=0, show_default="one per CPU"),
        ] = None,
        ws_rate: Annotated[
            float,
            typer.Option(help="Frames a second a socket may send (bursts of twice that).", min=1),
        ] = _default("ws_rate"),
        waiting_expiry: Annotated[
            float,
            typer.Option(
                help="Close a waiting room nobody has had open for this many seconds.", min=1
            ),
        ] = _default("waiting_expiry_s"),
        auth_limit: Annotated[
            int,
            typer.Option(help="Logins and registrations per minute per client address.", min=1),
        ] = _default("auth_limit_per_minute"),
        guest_limit: Annotated[
            int, typer.Option(help="Guests created per minute per client address.", min=1)
        ] = _default("guest_limit_per_minute"),
        rooms_per_address: Annotated[
            int,
            typer.Option(help="Open waiting rooms created from one client address.", min=1),
        ] = _default("rooms_per_address"),
        rooms_per_user: Annotated[
            int, typer.Option(help="Open waiting rooms one user may host.", min=1)
        ] = _default("rooms_per_user"),
        table_limit: Annotated[
            int, typer.Option(help="Tables a user may create per minute.", min=1)
        ] = _default("table_limit_per_minute"),
        chat_limit: Annotated[
            int, typer.Option(help="Chat lines a user may send per minute (all tables).", min=1)
        ] = _default("chat_limit_per_minute"),
        friend_request_limit: Annotated[
            int, typer.Option(help="Friend requests a user may send per hour.", min=1)
        ] = _default("friend_request_limit_per_hour"),
        invite_limit: Annotated[
            int, typer.Option(help="Invitations to a table a user may send per hour.", min=1)
        ] = _default("invite_limit_per_hour"),
        report_limit: Annotated[
            int, typer.Option(help="Reports a user may file per hour.", min=1)
        ] = _default("report_limit_per_hour"),
        chat_filter: Annotated[
            str,
            typer.Option(
                help="The chat filter's word list: a file (a word a line), 'default' (the"
                " shipped list) or 'off'. See docs/moderation.md.",
            ),
        ] = _default("chat_filter"),
        fair_play: Annotated[
            FairPlayChoice,
            typer.Option(
                help="Which finished games the collusion detector checks: 'ranked' (Ranked"
                " games), 'all' (Casual, Private and tournament games too) or 'off'. A flagged"
                " partnership becomes a report for the moderators; see docs/fair-play.md.",
            ),
        ] = _FAIR_PLAY_DEFAULT,
        allowed_origin: Annotated[
            list[str] | None,
            typer.Option(
                help="Another origin (https://host) allowed to use the API; repeat for more.",
                show_default="the server's own only",
            ),
        ] = None,
        secure_cookies: Annotated[
            bool, typer.Option(help="Send the session cookie over HTTPS only.")
        ] = _default("secure_cookies"),
        log_json: Annotated[
            bool, typer.Option("--log-json/--log-text", help="Log format on standard error.")
        ] = _default("log_json"),
        redis_url: Annotated[
            str | None,
            typer.Option(
                "--redis-url",
                help="Scale-out: share tables with other processes through this Redis"
                " (redis://HOST:6379/0) and a PostgreSQL --database-url. See docs/deploy.md. "
                + _env_help(env.REDIS_URL),
                show_default="one process",
            ),
        ] = None,
        redis_prefix: Annotated[
            str | None,
            typer.Option(
                help="Prefix of the cluster's Redis keys (several clusters on one Redis). "
                + _env_help(env.REDIS_PREFIX),
                show_default=_default("redis_prefix"),
            ),
        ] = None,
        lease_ms: Annotated[
            int | None,
            typer.Option(
                help="Table lease life: a dead process's tables move after this. "
                + _env_help(env.LEASE_MS),
                min=LEASE_MS_MIN,
                max=LEASE_MS_MAX,
                show_default=str(_default("lease_ms")),
            ),
        ] = None,
        node: Annotated[
            str | None,
            typer.Option(
                help="This process's name: letters, digits, '.', '_' or '-'. "
                + _env_help(env.NODE),
                show_default="random",
            ),
        ] = None,
        tournament_poll: Annotated[
            float,
            typer.Option(
                help="Seconds between a tournament director's looks at its match tables.",
                min=0.05,
                max=60.0,
            ),
        ] = _default("tournament_poll_s"),
        tournament_limit: Annotated[
            int,
            typer.Option(help="Tournament requests per minute per user.", min=1),
        ] = _default("tournament_limit_per_minute"),
        tournaments_file: Annotated[
            Path | None,
            typer.Option(
                help="System tournaments the server schedules itself (a JSON file: see"
                ' docs/tournaments.md, "System tournaments").',
                show_default="none",
            ),
        ] = None,
    ) -> None:
        """Run the online server: HTTP API, WebSocket and the browser client.

        The database is migrated first; unfinished tables resume where they were.
        """
        # Every parameter is an option of OPTION_FIELDS (tests/cli checks it).
        given = {name: value for name, value in locals().items() if name in OPTION_FIELDS}

        import uvicorn

        from fourhundred.server import allocator, create_app
        from fourhundred.server.wsproto_protocol import WSProtocol

        # Before the database driver starts its threads.
        allocator.limit_arenas()

        config = _checked_config(given)
        shown, revision = _upgrade_or_exit(config.database_url)
        print(f"database {shown} at revision {revision}", file=sys.stderr)
        raise_open_files_limit()
        print(f"fourhundred serving on http://{config.host}:{config.port}/", file=sys.stderr)
        uvicorn.run(
            create_app(config),
            host=config.host,
            port=config.port,
            ws_max_size=1 << 20,
            # wsproto keeps less per open socket than uvicorn's default
            # (websockets): 22.9 against 25.1 KiB, 9 KiB a table of four,
            # for about 60 us more CPU per command (docs/performance.md).
            ws=WSProtocol,
            # Frames are small JSON: compressing them costs more CPU (and a
            # zlib state of hundreds of KiB per socket) than it saves.
            ws_per_message_deflate=False,
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=5,
            # Longer than the idle limits of clients and balancers (httpx
            # and uvicorn both use 5 s, common balancers 60 s): a connection
            # they reuse is never closed under them by this end at that
            # moment (their request then fails with a read error).
            timeout_keep_alive=75,
        )

    db = typer.Typer(help="The database: apply migrations, show the revision.", cls=HelpGroup)
    app.add_typer(db, name="db")

    @db.command("upgrade", cls=HelpCommand)
    def db_upgrade(
        database_url: Annotated[
            str | None,
            typer.Option("--database-url", help=DB_HELP, show_default=_DB_DEFAULT),
        ] = None,
    ) -> None:
        """Apply every migration not yet applied (safe to run again)."""
        shown, revision = _upgrade_or_exit(database_url or env.database_url())
        print(f"{shown}: at revision {revision}")

    @db.command("current", cls=HelpCommand)
    def db_current(
        database_url: Annotated[
            str | None,
            typer.Option("--database-url", help=DB_HELP, show_default=_DB_DEFAULT),
        ] = None,
    ) -> None:
        """Print the database's revision and the newest one."""
        import asyncio

        from fourhundred.store import create_engine, current_revision, head_revision

        async def run() -> str | None:
            engine = create_engine(database_url or env.database_url())
            try:
                return await current_revision(engine)
            finally:
                await engine.dispose()

        try:
            rev = asyncio.run(run())
        except Exception as e:
            raise _fail(f"cannot read the database: {e}") from None
        print(f"current {rev or 'none'}; head {head_revision()}")
