"""The online server: HTTP and WebSocket transport, lobby, Ranked queue,
one actor per table (state, timers, event log), ratings and accounts.

``fourhundred serve`` runs :func:`create_app` on uvicorn. The layers import
one way: engine <- bots <- server; every message to a client is built from
the engine's ``view_for``.
"""

from __future__ import annotations

from .app import create_app
from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
