"""``fourhundred serve`` and ``fourhundred db``."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sys
from typing import Annotated

import typer

from .common import fail, raise_open_files_limit

__all__ = ["register"]

DB_ENV = "FOURHUNDRED_DATABASE_URL"


async def _migrate(url: str | None) -> tuple[str, str | None]:
    from fourhundred.store import create_engine, current_revision, upgrade

    engine = create_engine(url)
    try:
        await upgrade(engine)
        return engine.url.render_as_string(hide_password=True), await current_revision(engine)
    finally:
        await engine.dispose()


def _upgrade_or_exit(url: str | None) -> tuple[str, str | None]:
    from fourhundred.store import UnsupportedDatabase

    try:
        return asyncio.run(_migrate(url))
    except UnsupportedDatabase as e:
        raise fail(str(e), 1) from None
    except (OSError, ConnectionError) as e:
        raise fail(
            f"cannot reach the database: {e}. Check --database-url (or ${DB_ENV})"
            " and that the server is running.",
            1,
        ) from None
    except Exception as e:
        raise fail(f"cannot migrate the database: {e.__class__.__name__}: {e}", 1) from None


def register(app: typer.Typer) -> None:
    """Add ``serve`` and ``db`` to the ``fourhundred`` command."""

    @app.command()
    def serve(  # noqa: PLR0917 - one parameter per command-line option
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8400,
        database_url: Annotated[
            str | None,
            typer.Option(
                "--database-url",
                envvar=DB_ENV,
                help="sqlite+aiosqlite:///PATH or postgresql+asyncpg://USER@HOST/DB"
                " (default: data/fourhundred.sqlite3, or $FOURHUNDRED_DATA/...).",
            ),
        ] = None,
        bot: Annotated[
            str | None,
            typer.Option(help="Bot for host-added seats and absent players (default: heuristic)."),
        ] = None,
        bot_budget_ms: Annotated[
            int, typer.Option(help="Thinking time per bot decision.", min=10, max=10000)
        ] = 500,
        bot_delay: Annotated[
            float, typer.Option(help="Least seconds a bot takes per move.", min=0.0, max=10.0)
        ] = 0.6,
        bot_workers: Annotated[
            int | None,
            typer.Option(help="Bot processes (default: one per CPU; 0 = a thread).", min=0),
        ] = None,
        ws_rate: Annotated[
            float,
            typer.Option(help="Frames a second a socket may send (bursts of twice that).", min=1),
        ] = 20.0,
        waiting_expiry: Annotated[
            float,
            typer.Option(
                help="Close a waiting room nobody has had open for this many seconds.", min=1
            ),
        ] = 1800.0,
        auth_limit: Annotated[
            int,
            typer.Option(help="Logins and registrations per minute per client address.", min=1),
        ] = 10,
        allowed_origin: Annotated[
            list[str] | None,
            typer.Option(
                help="Another origin (https://host) allowed to use the API; repeat for more."
            ),
        ] = None,
        secure_cookies: Annotated[
            bool, typer.Option(help="Send the session cookie over HTTPS only.")
        ] = False,
        log_json: Annotated[
            bool, typer.Option("--log-json/--log-text", help="Log format on standard error.")
        ] = True,
        redis_url: Annotated[
            str | None,
            typer.Option(
                "--redis-url",
                envvar="FOURHUNDRED_REDIS_URL",
                help="Scale-out: share tables with other processes through this Redis"
                " (redis://HOST:6379/0) and a PostgreSQL --database-url. See docs/deploy.md.",
            ),
        ] = None,
        redis_prefix: Annotated[
            str,
            typer.Option(
                envvar="FOURHUNDRED_REDIS_PREFIX",
                help="Prefix of the cluster's Redis keys (several clusters on one Redis).",
            ),
        ] = "fh:",
        lease_ms: Annotated[
            int,
            typer.Option(
                envvar="FOURHUNDRED_LEASE_MS",
                help="Table lease life: a dead process's tables move after this.",
                min=500,
                max=60000,
            ),
        ] = 3000,
        node: Annotated[
            str | None,
            typer.Option(envvar="FOURHUNDRED_NODE", help="This process's name (default: random)."),
        ] = None,
    ) -> None:
        """Run the online server: HTTP API, WebSocket and the browser client.

        The database is migrated first; unfinished tables resume where they were.
        """
        import uvicorn

        from fourhundred.bots import BOTS
        from fourhundred.server import ServerConfig, create_app
        from fourhundred.server.config import default_bot, timer_scale_from_env

        try:
            scale = timer_scale_from_env()
        except ValueError as e:
            raise fail(str(e), 1) from None
        name = bot or default_bot()
        if name not in BOTS:
            raise fail(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})", 1)
        if redis_url and not (database_url or "").startswith(("postgresql", "postgres")):
            raise fail(
                "--redis-url needs a shared database: pass a PostgreSQL --database-url"
                " (postgresql+asyncpg://USER@HOST/DB) to every process.",
                1,
            )
        shown, revision = _upgrade_or_exit(database_url)
        print(f"database {shown} at revision {revision}", file=sys.stderr)
        config = ServerConfig(
            database_url=database_url,
            host=host,
            port=port,
            bot=name,
            bot_budget_ms=bot_budget_ms,
            bot_delay_s=bot_delay,
            bot_workers=(os.cpu_count() or 1) if bot_workers is None else bot_workers,
            timer_scale=scale,
            secure_cookies=secure_cookies,
            log_json=log_json,
            auth_limit_per_minute=auth_limit,
            ws_rate=ws_rate,
            waiting_expiry_s=waiting_expiry,
            allowed_origins=tuple(allowed_origin or ()),
            redis_url=redis_url or None,
            redis_prefix=redis_prefix,
            lease_ms=lease_ms,
        )
        if node:
            config = dataclasses.replace(config, node=node)
        raise_open_files_limit()
        print(f"fourhundred serving on http://{host}:{port}/", file=sys.stderr)
        uvicorn.run(
            create_app(config),
            host=host,
            port=port,
            ws_max_size=1 << 20,
            # Frames are small JSON: compressing them costs more CPU (and a
            # zlib state of hundreds of KiB per socket) than it saves.
            ws_per_message_deflate=False,
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=5,
        )

    db = typer.Typer(help="The database: apply migrations, show the revision.")
    app.add_typer(db, name="db")

    @db.command("upgrade")
    def db_upgrade(
        database_url: Annotated[
            str | None,
            typer.Option("--database-url", envvar=DB_ENV, help="As for `fourhundred serve`."),
        ] = None,
    ) -> None:
        """Apply every migration not yet applied (safe to run again)."""
        shown, revision = _upgrade_or_exit(database_url)
        print(f"{shown}: at revision {revision}")

    @db.command("current")
    def db_current(
        database_url: Annotated[
            str | None,
            typer.Option("--database-url", envvar=DB_ENV, help="As for `fourhundred serve`."),
        ] = None,
    ) -> None:
        """Print the database's revision and the newest one."""
        from fourhundred.store import create_engine, current_revision, head_revision

        async def run() -> str | None:
            engine = create_engine(database_url)
            try:
                return await current_revision(engine)
            finally:
                await engine.dispose()

        try:
            rev = asyncio.run(run())
        except Exception as e:
            raise fail(f"cannot read the database: {e}", 1) from None
        print(f"current {rev or 'none'}; head {head_revision()}")
