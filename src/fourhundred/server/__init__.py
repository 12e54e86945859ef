"""The online server: HTTP and WebSocket transport, lobby, Ranked queue,
one actor per table (state, timers, event log), ratings and accounts.

``fourhundred serve`` runs :func:`create_app` on uvicorn. The layers import
one way: engine <- bots <- server; every message to a client is built from
the engine's ``view_for``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]


def __getattr__(name: str) -> Any:
    # Loaded on first use: `fourhundred --help` and `fourhundred replay` import
    # this package for its commands and must not pay for the whole server.
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "ServerConfig":
        from .config import ServerConfig

        return ServerConfig
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
