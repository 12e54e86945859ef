"""The store's chat log, written behind the tables (docs/moderation.md,
"Chat log"): a table hands each line to :meth:`ChatLog.add` and goes on;
lines are written in batches by a task that exists only while there is
something to write. A line the store refuses is lost to the log only (the
table's chat went out already), and said so in the server's log."""

from __future__ import annotations

import asyncio

from fourhundred.store import ChatLine, ModerationStore

from .logs import get_logger

__all__ = ["ChatLog"]

log = get_logger("fourhundred.chatlog")


class ChatLog:
    def __init__(self, store: ModerationStore) -> None:
        self.store = store
        self._pending: list[ChatLine] = []
        self._task: asyncio.Task[None] | None = None

    def add(self, line: ChatLine) -> None:
        self._pending.append(line)
        if self._task is None:
            self._task = asyncio.create_task(self._drain(), name="chat-log")

    async def _drain(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    await self.store.log_chat(batch)
                except Exception as e:
                    log.warning("chat_log_failed", lines=len(batch), error=repr(e))
        finally:
            self._task = None

    async def flush(self) -> None:
        """Wait until every line added so far is written (or given up)."""
        while self._task is not None:
            await asyncio.shield(self._task)
