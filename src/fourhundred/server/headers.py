"""Security headers on every HTTP response: pages, JSON, static files,
errors and 404s alike (docs/deploy.md, "Security headers").

The client is static ES modules, one stylesheet and SVG built by script, so
the Content-Security-Policy allows only the server's own origin: no inline
script, no inline style attribute, no plugin, no ``<base>``, no framing.
A WebSocket upgrade is not an HTTP response and is left alone.

>>> "script-src 'self'" in CSP and "unsafe-inline" not in CSP
True
>>> dict(security_headers(hsts=True))[b"strict-transport-security"]
b'max-age=31536000'
"""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "HSTS", "SecurityHeaders", "security_headers"]

CSP: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        # 'self' covers ws:// and wss:// of the same host and port (CSP 3).
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    )
)
"""The policy of every response (the client needs nothing from elsewhere)."""

HSTS: Final = "max-age=31536000"
"""A year of HTTPS only, for this host (not its subdomains: they may not be ours)."""

_COMMON: Final = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    # Older browsers that do not read frame-ancestors.
    (b"x-frame-options", b"DENY"),
    # Invite links carry their code in the address: no other site is told it.
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


def security_headers(*, hsts: bool) -> tuple[tuple[bytes, bytes], ...]:
    """The headers added to each response; HSTS only behind HTTPS
    (``--secure-cookies``), since over plain HTTP it would be ignored or,
    worse, lock a test host out of HTTP."""
    return (*_COMMON, (b"strict-transport-security", HSTS.encode())) if hsts else _COMMON


class SecurityHeaders:
    """ASGI middleware: ``security_headers`` on every HTTP response start,
    each unless the response set it itself."""

    def __init__(self, app: ASGIApp, *, hsts: bool) -> None:
        self.app = app
        self.headers = security_headers(hsts=hsts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers.extend(h for h in self.headers if h[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
