"""Helpers for the browser tests."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["received_frames"]


def received_frames(page: Any) -> list[dict[str, Any]]:
    """Every frame the page's WebSockets receive from now on, decoded, in
    order (the list fills as they come)."""
    received: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda f: received.append(json.loads(f))),
    )
    return received
