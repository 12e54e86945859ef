"""``fourhundred serve`` and ``fourhundred db``.

Every default of ``serve`` is :class:`~fourhundred.server.config.ServerConfig`'s:
an option left out is taken from its environment variable (read by
:mod:`fourhundred.env`) when it has one, else from the config's default,
which the help shows.
"""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Final

import typer

from fourhundred import env
from fourhundred.server.config import ServerConfig

from .common import fail, raise_open_files_limit

__all__ = ["OPTION_FIELDS", "register", "server_config"]

OPTION_FIELDS: Final = {
    "host": "host",
    "port": "port",
    "database_url": "database_url",
    "bot": "bot",
    "bot_budget_ms": "bot_budget_ms",
    "bot_delay": "bot_delay_s",
    "bot_workers": "bot_workers",
    "ws_rate": "ws_rate",
    "waiting_expiry": "waiting_expiry_s",
    "auth_limit": "auth_limit_per_minute",
    "allowed_origin": "allowed_origins",
    "secure_cookies": "secure_cookies",
    "log_json": "log_json",
    "redis_url": "redis_url",
    "redis_prefix": "redis_prefix",
    "lease_ms": "lease_ms",
    "node": "node",
}
"""Each ``serve`` option (its parameter name) and the config field it sets."""

FROM_ENV: Final[Mapping[str, Callable[[Mapping[str, str] | None], object]]] = {
    "database_url": env.database_url,
    "redis_url": env.redis_url,
    "redis_prefix": env.redis_prefix,
    "lease_ms": env.lease_ms,
    "node": env.node,
}
"""Options that fall back on an environment variable when left out."""

LEASE_MS_MIN: Final = 500
LEASE_MS_MAX: Final = 60000


_FIELDS: Final = {f.name: f for f in dataclasses.fields(ServerConfig)}


def _default(name: str) -> Any:
    """``ServerConfig``'s default for the field ``name`` (written there only)."""
    default = _FIELDS[name].default
    if default is dataclasses.MISSING:  # pragma: no cover - a programming error
        raise TypeError(f"ServerConfig.{name} has no plain default")
    return default


def _env_help(*names: str) -> str:
    """Where a left-out option comes from, for its help.

    >>> _env_help("A", "B")
    'When left out: $A, else $B, if set.'
    """
    return "When left out: $" + ", else $".join(names) + ", if set."


_DB_HELP: Final = "As for `fourhundred serve`. " + _env_help(
    env.DATABASE_URL, env.DATABASE_URL_FALLBACK
)


def _from_env(option: str, environ: Mapping[str, str] | None) -> object:
    """The environment's value for ``option``, in the option's range."""
    value = FROM_ENV[option](environ)
    in_range = not isinstance(value, int) or LEASE_MS_MIN <= value <= LEASE_MS_MAX
    if option == "lease_ms" and not in_range:
        raise env.BadEnvironment(
            f"{env.LEASE_MS}={value} must be in {LEASE_MS_MIN}..{LEASE_MS_MAX}"
        )
    return value


def server_config(
    given: Mapping[str, Any], environ: Mapping[str, str] | None = None
) -> ServerConfig:
    """The config for ``serve``'s options (``given``: parameter name to value,
    ``None`` when left out): each option, else its environment variable, else
    the config's default. :class:`fourhundred.env.BadEnvironment` for an
    unusable environment variable.

    >>> c = server_config({"port": 9000, "lease_ms": None}, {"FOURHUNDRED_LEASE_MS": "800"})
    >>> c.port, c.lease_ms, c.redis_prefix
    (9000, 800, 'fh:')
    """
    values: dict[str, Any] = {"timer_scale": env.timer_scale(environ)}
    for option, value in given.items():
        found = _from_env(option, environ) if value is None and option in FROM_ENV else value
        if found is None or found in ("", []):
            continue  # the config's default
        values[OPTION_FIELDS[option]] = tuple(found) if isinstance(found, list) else found
    return ServerConfig(**values)


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
            f"cannot reach the database: {e}. Check --database-url (or ${env.DATABASE_URL})"
            " and that the server is running.",
            1,
        ) from None
    except Exception as e:
        raise fail(f"cannot migrate the database: {e.__class__.__name__}: {e}", 1) from None


def register(app: typer.Typer) -> None:
    """Add ``serve`` and ``db`` to the ``fourhundred`` command."""

    @app.command()
    def serve(  # noqa: PLR0917 - one parameter per command-line option
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
                show_default=f"fourhundred.sqlite3 in ${env.DATA_DIR}, else in ./data",
            ),
        ] = None,
        bot: Annotated[
            str | None,
            typer.Option(
                help="Bot for host-added seats and absent players.",
                show_default="heuristic",
            ),
        ] = None,
        bot_budget_ms: Annotated[
            int, typer.Option(help="Thinking time per bot decision.", min=10, max=10000)
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
            typer.Option(help="This process's name. " + _env_help(env.NODE), show_default="random"),
        ] = None,
    ) -> None:
        """Run the online server: HTTP API, WebSocket and the browser client.

        The database is migrated first; unfinished tables resume where they were.
        """
        import uvicorn

        from fourhundred.bots import BOTS
        from fourhundred.server import create_app

        given = {
            "host": host,
            "port": port,
            "database_url": database_url,
            "bot": bot,
            "bot_budget_ms": bot_budget_ms,
            "bot_delay": bot_delay,
            "bot_workers": bot_workers,
            "ws_rate": ws_rate,
            "waiting_expiry": waiting_expiry,
            "auth_limit": auth_limit,
            "allowed_origin": allowed_origin,
            "secure_cookies": secure_cookies,
            "log_json": log_json,
            "redis_url": redis_url,
            "redis_prefix": redis_prefix,
            "lease_ms": lease_ms,
            "node": node,
        }
        try:
            config = server_config(given)
        except env.BadEnvironment as e:
            raise fail(str(e), 1) from None
        if config.bot not in BOTS:
            raise fail(f"unknown bot {config.bot!r} (known: {', '.join(sorted(BOTS))})", 1)
        if config.redis_url and not (config.database_url or "").startswith(
            ("postgresql", "postgres")
        ):
            raise fail(
                "--redis-url needs a shared database: pass a PostgreSQL --database-url"
                " (postgresql+asyncpg://USER@HOST/DB) to every process.",
                1,
            )
        shown, revision = _upgrade_or_exit(config.database_url)
        print(f"database {shown} at revision {revision}", file=sys.stderr)
        raise_open_files_limit()
        print(f"fourhundred serving on http://{config.host}:{config.port}/", file=sys.stderr)
        uvicorn.run(
            create_app(config),
            host=config.host,
            port=config.port,
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
            typer.Option("--database-url", help=_DB_HELP),
        ] = None,
    ) -> None:
        """Apply every migration not yet applied (safe to run again)."""
        shown, revision = _upgrade_or_exit(database_url or env.database_url())
        print(f"{shown}: at revision {revision}")

    @db.command("current")
    def db_current(
        database_url: Annotated[
            str | None,
            typer.Option("--database-url", help=_DB_HELP),
        ] = None,
    ) -> None:
        """Print the database's revision and the newest one."""
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
            raise fail(f"cannot read the database: {e}", 1) from None
        print(f"current {rev or 'none'}; head {head_revision()}")
