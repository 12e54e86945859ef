"""Wire-level helpers shared by the fuzz, leak and security tests and by
``bench/fuzz.py`` and ``bench/leaks.py``: one import for the three modules
that hold them.

- ``fh_wire_server.py``: :class:`Server`, :class:`Databases` (a real
  ``fourhundred serve`` process with a fresh database),
  :func:`running_server`, and :class:`Account` (one user's HTTP session).
- ``fh_wire_socket.py``: :class:`Wire` (one raw WebSocket that sends
  anything and keeps every frame), :class:`Outcome` and :func:`comparable`.
- ``fh_wire_codes.py``: :data:`CARD_NAMES` and the codes ``docs/protocol.md``
  documents (:data:`ERROR_CODES`, :data:`CLOSE_CODES`, :data:`BAD_KINDS`).

Everything talks to 127.0.0.1 only, and every wait is bounded.
"""

from __future__ import annotations

from fh_wire_codes import (
    BAD_KINDS,
    CARD_NAMES,
    CLOSE_CODES,
    ERROR_CODES,
    PROTOCOL_MD,
    documented_codes,
)
from fh_wire_server import (
    ROOT,
    Account,
    Databases,
    Server,
    free_port,
    pg_available,
    running_server,
)
from fh_wire_socket import REPLY_TYPES, STATE_TYPES, Outcome, Wire, comparable

__all__ = [
    "BAD_KINDS",
    "CARD_NAMES",
    "CLOSE_CODES",
    "ERROR_CODES",
    "PROTOCOL_MD",
    "REPLY_TYPES",
    "ROOT",
    "STATE_TYPES",
    "Account",
    "Databases",
    "Outcome",
    "Server",
    "Wire",
    "comparable",
    "documented_codes",
    "free_port",
    "pg_available",
    "running_server",
]
