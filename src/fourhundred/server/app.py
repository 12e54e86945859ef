"""The ASGI application: HTTP API, WebSocket, operations endpoints and the
static browser client, wired to one store, one hub and one bot pool."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from typing import Any, Final

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from fourhundred.store import Store

from . import allocator
from .analysis import Analyses
from .api import ApiError, json_response, routes
from .botpool import PoolBotRunner
from .clock import SystemClock
from .config import ServerConfig
from .headers import SecurityHeaders
from .hub import Hub
from .logs import configure_logging, get_logger
from .metrics import Metrics
from .ws import origin_allowed, websocket_endpoint

__all__ = ["create_app"]

log = get_logger("fourhundred.app")

_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class OriginCheck:
    """Refuse state-changing requests that a browser sent from another
    origin (CSRF): with ``SameSite=Lax`` cookies and JSON-only bodies this
    closes the door on cross-site forms."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in _UNSAFE:
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            if not origin_allowed(headers.get("origin"), headers.get("host"), self.allowed):
                response = ApiError(
                    403, "forbidden_origin", "cross-site request refused"
                ).response()
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def healthz(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    try:
        await hub.store.ping()
    except Exception as e:
        return json_response({"ok": False, "error": f"database: {e.__class__.__name__}"}, 503)
    problem = hub.locator.unhealthy()
    if problem is not None:
        return json_response({"ok": False, "error": problem}, 503)
    return json_response({"ok": True, "node": hub.config.node, "tables": len(hub.actors)})


async def metrics(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    hub.locator.update_gauges()
    return Response(hub.metrics.render(), media_type="text/plain; version=0.0.4")


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return exc.response()


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "bad_request")
    return ApiError(exc.status_code, code, str(exc.detail)).response()


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("http_500", path=request.url.path, error=repr(exc))
    return json_response(
        {"error": {"code": "internal", "message": "something broke on our side"}}, 500
    )


class _App(Starlette):
    """Starlette with the security headers outside everything, so that a
    500 answered by its outermost error handler carries them too."""

    def __init__(self, *, hsts: bool, **kwargs: Any) -> None:
        self._hsts = hsts
        super().__init__(**kwargs)

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack(), hsts=self._hsts)


GC_THRESHOLDS: Final = (50_000, 20, 10)
"""The collector's thresholds (Python's defaults: 700, 10, 10)."""


def tune_gc() -> None:
    """Keep the cyclic garbage collector's pauses short (they are the long
    tail of a busy server's latency): the objects of the start-up (modules,
    classes, the rebuilt tables) are frozen out of its scans, and it runs
    less often on the young objects that a table's moves make by the
    thousand a second."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The server as an ASGI app. The database is migrated and every
    unfinished table rebuilt before the first request is served."""
    cfg = config or ServerConfig()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        configure_logging(json=cfg.log_json)
        store = await Store.open(cfg.database_url)
        bots = PoolBotRunner(cfg.bot_workers, cfg.bot_budget_ms)
        hub = Hub(store, cfg, SystemClock(), bots, Metrics())
        app.state.hub = hub
        app.state.auth_buckets = {}
        app.state.limits = hub.limits
        app.state.analyses = analyses = Analyses()
        await hub.start()
        tune_gc()
        # Start the bot processes now, not on the first bot's turn.
        warm = asyncio.create_task(bots.warm())
        trimming = asyncio.create_task(allocator.trim_forever())
        log.info(
            "server_started",
            node=cfg.node,
            database=store.engine.url.render_as_string(hide_password=True),
            bot=cfg.bot,
            timer_scale=cfg.timer_scale,
        )
        try:
            yield
        finally:
            warm.cancel()
            trimming.cancel()
            await hub.stop()
            bots.close()
            analyses.close()
            await store.close()
            log.info("server_stopped", node=cfg.node)

    handlers: dict[Any, Any] = {
        ApiError: _api_error,
        HTTPException: _http_error,
        Exception: _server_error,
    }
    return _App(
        hsts=cfg.secure_cookies,
        routes=[
            Route("/healthz", healthz, methods=["GET"]),
            Route("/metrics", metrics, methods=["GET"]),
            *routes,
            WebSocketRoute("/ws", websocket_endpoint),
            Mount("/", StaticFiles(directory=cfg.web_dir, html=True, check_dir=False), name="web"),
        ],
        middleware=[Middleware(OriginCheck, allowed=cfg.allowed_origins)],
        exception_handlers=handlers,
        lifespan=lifespan,
    )
