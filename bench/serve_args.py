"""The ``fourhundred serve`` options a benchmark's server needs: thousands of
simulated players sign in, open tables and chat from 127.0.0.1, so the
per-address and per-user abuse limits (docs/deploy.md, "Abuse limits") are
lifted. One list, for every script in ``bench/`` that starts a server."""

from __future__ import annotations

from typing import Final

OPEN_LIMITS: Final = (
    "--auth-limit",
    "1000000",
    "--guest-limit",
    "1000000",
    "--rooms-per-address",
    "1000000",
    "--table-limit",
    "1000000",
    "--chat-limit",
    "1000000",
)
