"""uvicorn's wsproto WebSocket protocol, with one fault mended: when a frame
breaks the protocol (a text frame that is not UTF-8 above all), wsproto
reports it as a close with the code to send (1007 for bad UTF-8), but
uvicorn closed the connection without sending that close frame, so the
client saw only 1006. Here the close frame goes out first, as RFC 6455 asks
and docs/protocol.md, "Close codes", says."""

from __future__ import annotations

from uvicorn.protocols.websockets.wsproto_impl import WSProtocol as _UvicornWSProtocol
from wsproto.connection import ConnectionState
from wsproto.events import CloseConnection

__all__ = ["WSProtocol"]

MAX_REASON = 120
"""Bytes of a close frame's reason (RFC 6455 allows 123)."""


class WSProtocol(_UvicornWSProtocol):
    def handle_close(self, event: CloseConnection) -> None:
        if not self.close_sent and self.conn.state is ConnectionState.OPEN:
            # Not the peer's close (that would have left the state
            # REMOTE_CLOSING): wsproto's verdict on a bad frame.
            reason = (event.reason or "")[:MAX_REASON]
            self.transport.write(self.conn.send(CloseConnection(code=event.code, reason=reason)))
        super().handle_close(event)
