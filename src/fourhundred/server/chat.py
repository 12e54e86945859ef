"""A table's chat: two channels, a short history, a rate per person.

Players talk on ``players``; spectators on ``spectators``. Spectators read
both channels, players only theirs (so nobody at the table reads what the
watchers say about the hands). A person's mutes hide the muted users' lines
from them. Chat is not part of the event log: it is not a move, and a
restart forgets the history sent to people who join; each line is also
kept in the store's chat log for moderators (:mod:`.chatcast`).

>>> clean_text("  hi\\u202e there \\x00")
'hi there'
"""

from __future__ import annotations

import math
import unicodedata
from collections import deque
from collections.abc import Callable, Collection, Iterable
from typing import Final, Literal

from .clock import Clock
from .errors import CommandError
from .frames import ChatFrame
from .protocol import MAX_CHAT
from .ratelimit import TokenBucket

__all__ = ["CHAT_HISTORY", "MAX_CHAT", "ChatRoom", "clean_text", "too_fast"]

CHAT_HISTORY: Final = 50
"""Lines kept per channel for people who join later."""
RATE: Final = (0.5, 5)
"""Refill per second and burst: at most 5 lines in 10 seconds."""


def too_fast(bucket: TokenBucket) -> CommandError:
    """The refusal of a chat line over the per-chat limit, with how long to
    wait (whole seconds, at least 1).

    >>> b = TokenBucket(*RATE, now=0.0)
    >>> while b.take(0.0): pass
    >>> too_fast(b).message
    'too many chat messages: at most 5 in 10 seconds: try again in 2 s'
    """
    wait = max(1, math.ceil(bucket.retry_after()))
    return CommandError(
        "chat_rate_limited",
        f"too many chat messages: at most 5 in 10 seconds: try again in {wait} s",
    )


Channel = Literal["players", "spectators"]


def clean_text(text: str) -> str:
    """Control and format characters (bidi overrides, zero-width tricks)
    out, the ends trimmed."""
    return "".join(c for c in text if unicodedata.category(c)[0] != "C" or c == " ").strip()


class ChatRoom:
    """The chat of one table."""

    __slots__ = ("_buckets", "_lines", "mask", "table")

    def __init__(self, table: str, mask: Callable[[str], str] = str) -> None:
        self.table = table
        self.mask = mask
        # Made on first use: most tables never chat.
        self._lines: dict[Channel, deque[ChatFrame]] = {}
        self._buckets: dict[str, TokenBucket] = {}

    def post(self, user_id: str, name: str, text: str, *, player: bool, clock: Clock) -> ChatFrame:
        """Accept one line (or raise ``CommandError``) and return its frame
        (``text`` through the chat filter's ``mask``; ``raw`` the line as
        said if that changed it)."""
        now, now_ms = clock.monotonic(), clock.now_ms()
        text = clean_text(text)
        if not 1 <= len(text) <= MAX_CHAT:
            raise CommandError("bad_message", f"chat text must be 1 to {MAX_CHAT} characters")
        bucket = self._buckets.get(user_id)
        if bucket is None:
            bucket = self._buckets[user_id] = TokenBucket(RATE[0], RATE[1], now)
        if not bucket.take(now):
            raise too_fast(bucket)
        channel: Channel = "players" if player else "spectators"
        line = ChatFrame(
            table=self.table,
            channel=channel,
            from_={"id": user_id, "name": name},
            text=self.mask(text),
            at_ms=now_ms,
        )
        if line.text != text:
            line.raw = text
        lines = self._lines.get(channel)
        if lines is None:
            lines = self._lines[channel] = deque(maxlen=CHAT_HISTORY)
        lines.append(line)
        return line

    @staticmethod
    def reaches(line: ChatFrame, *, player: bool, muted: Collection[str]) -> bool:
        """Whether a reader (a player or not, with these mutes) sees ``line``."""
        if line.channel == "spectators" and player:
            return False
        return line.from_["id"] not in muted

    def history(self, *, player: bool, muted: Collection[str]) -> list[ChatFrame]:
        """The lines a reader may see, oldest first."""
        lines: Iterable[ChatFrame] = self._lines.get("players", ())
        if not player:
            lines = sorted(
                [*lines, *self._lines.get("spectators", ())], key=lambda line: line.at_ms
            )
        return [line for line in lines if self.reaches(line, player=player, muted=muted)]
