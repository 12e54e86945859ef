"""How ``fourhundred serve``'s options become a :class:`ServerConfig`.

Every default is the config's: an option left out is taken from its
environment variable (read by :mod:`fourhundred.env`) when it has one, else
from the config's default, which the help shows.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from typing import Any, Final

from fourhundred import env
from fourhundred.server.config import ServerConfig

__all__ = [
    "DB_HELP",
    "FROM_ENV",
    "LEASE_MS_MAX",
    "LEASE_MS_MIN",
    "OPTION_FIELDS",
    "default",
    "env_help",
    "server_config",
]

OPTION_FIELDS: Final = {
    "host": "host",
    "port": "port",
    "database_url": "database_url",
    "bot": "bot",
    "substitute": "substitute",
    "bot_budget_ms": "bot_budget_ms",
    "bot_delay": "bot_delay_s",
    "bot_workers": "bot_workers",
    "ws_rate": "ws_rate",
    "waiting_expiry": "waiting_expiry_s",
    "auth_limit": "auth_limit_per_minute",
    "guest_limit": "guest_limit_per_minute",
    "rooms_per_address": "rooms_per_address",
    "rooms_per_user": "rooms_per_user",
    "table_limit": "table_limit_per_minute",
    "chat_limit": "chat_limit_per_minute",
    "friend_request_limit": "friend_request_limit_per_hour",
    "invite_limit": "invite_limit_per_hour",
    "report_limit": "report_limit_per_hour",
    "chat_filter": "chat_filter",
    "fair_play": "fair_play",
    "allowed_origin": "allowed_origins",
    "secure_cookies": "secure_cookies",
    "log_json": "log_json",
    "redis_url": "redis_url",
    "redis_prefix": "redis_prefix",
    "lease_ms": "lease_ms",
    "node": "node",
    "tournament_poll": "tournament_poll_s",
    "tournament_limit": "tournament_limit_per_minute",
    "tournaments_file": "tournaments_file",
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


def default(name: str) -> Any:
    """``ServerConfig``'s default for the field ``name`` (written there only)."""
    default = _FIELDS[name].default
    if default is dataclasses.MISSING:  # pragma: no cover - a programming error
        raise TypeError(f"ServerConfig.{name} has no plain default")
    return default


def env_help(*names: str) -> str:
    """Where a left-out option comes from, for its help.

    >>> env_help("A", "B")
    'When left out: $A, else $B, if set.'
    """
    return "When left out: $" + ", else $".join(names) + ", if set."


DB_HELP: Final = "As for `fourhundred serve`. " + env_help(
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
        if isinstance(found, enum.Enum):
            found = found.value  # a choice's plain value
        values[OPTION_FIELDS[option]] = tuple(found) if isinstance(found, list) else found
    return ServerConfig(**values)
