"""The protocol's documented vocabulary, for the wire-level tests (imported
through ``fh_wire``).

- :data:`CARD_NAMES`: the 52 card names of ``docs/view.md``.
- :data:`ERROR_CODES`, :data:`CLOSE_CODES`: the codes ``docs/protocol.md``
  documents, read from the document itself (:func:`documented_codes`), so
  that a code the server sends but the contract does not name is caught.
- :data:`BAD_KINDS`: the refusals that count towards the "repeated
  malformed frames" close.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = [
    "BAD_KINDS",
    "CARD_NAMES",
    "CLOSE_CODES",
    "ERROR_CODES",
    "PROTOCOL_MD",
    "documented_codes",
]

CARD_NAMES = tuple(r + s for s in "CDHS" for r in "23456789TJQKA")
"""The 52 card names in deck order (docs/view.md)."""

PROTOCOL_MD = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def documented_codes(text: str) -> tuple[frozenset[str], frozenset[int]]:
    """The ``error.code`` values and the WebSocket close codes that
    protocol.md's "Errors" and "Close codes" tables list.

    >>> documented_codes("### Errors\\n| code | meaning |\\n|---|---|\\n| `stale` | old |\\n"
    ...                  "### Close codes\\n| code | why |\\n|---|---|\\n| 1008 | flood |\\n")
    (frozenset({'stale'}), frozenset({1008}))
    """
    errors: set[str] = set()
    closes: set[int] = set()
    section = ""
    for line in text.splitlines():
        if line.startswith("#"):
            section = line.strip("# ").lower()
            continue
        m = re.match(r"\|\s*`?([a-z_0-9]+)`?\s*\|", line)
        if m is None:
            continue
        if section.startswith("errors"):
            errors.add(m.group(1))
        elif section.startswith("close codes") and m.group(1).isdigit():
            closes.add(int(m.group(1)))
    errors.discard("code")
    return frozenset(errors), frozenset(closes)


ERROR_CODES, CLOSE_CODES = documented_codes(PROTOCOL_MD.read_text(encoding="utf-8"))
"""What docs/protocol.md promises (checked non-trivial by the test suite)."""

BAD_KINDS = frozenset({"bad_json", "bad_message", "unknown_type"})
"""The refusals that count towards the "repeated malformed frames" close."""
