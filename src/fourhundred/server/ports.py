"""What a table actor needs from the rest of the process, as small
interfaces: storage (:class:`TableLog`), connections (:class:`Watcher`), and
the bundle of its dependencies (:class:`TableDeps`). One process and several
run the same actor: a remote watcher is a ``Watcher`` whose ``send`` goes to
another process."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from fourhundred.store import ChatLine, Commit, TableRow, User

from .botpool import BotRunner
from .chatfilter import ChatFilter
from .clock import Clock
from .config import ServerConfig
from .metrics import Metrics

if TYPE_CHECKING:
    from .table import TableActor
    from .tablespec import TableSpec

__all__ = ["MailKind", "OpenTable", "TableDeps", "TableLog", "Watcher"]

MailKind = Literal["cmd", "join", "detach", "bot"]
"""What a table's mailbox takes: a command, a join, a detach, a bot's move."""


class Watcher(Protocol):
    """A connection attached to a table, as the actor sees it."""

    user_id: str
    user_name: str

    def send(self, data: bytes) -> None:
        """Queue one frame for this connection (never blocks)."""
        ...


class TableLog(Protocol):
    """What the actor needs from storage."""

    async def commit(self, c: Commit) -> None: ...

    async def get_users(self, user_ids: Iterable[str]) -> dict[str, User]: ...

    async def seated_table(self, user_id: str) -> str | None: ...

    async def get_table(self, table_id: str) -> TableRow | None: ...


OpenTable = Callable[["TableSpec"], Awaitable[tuple[str, str | None]]]
"""Makes and starts a new table: its id and invite (a rematch's)."""


async def _no_tables(_spec: TableSpec) -> tuple[str, str | None]:
    raise RuntimeError("this process makes no tables")


@dataclass(slots=True)
class TableDeps:
    log: TableLog
    clock: Clock
    bots: BotRunner
    metrics: Metrics
    config: ServerConfig
    mutes: Callable[[str], Collection[str]] = lambda _user: ()
    """The users a user has muted."""
    on_stop: Callable[[TableActor], None] = lambda _actor: None
    open_table: OpenTable = _no_tables
    """Makes a rematch's table (set by the hub)."""
    chat_filter: ChatFilter = field(default_factory=lambda: ChatFilter(()))
    """Masks chat (docs/moderation.md, "Chat filter")."""
    unfiltered: Callable[[str], bool] = lambda _user: False
    """Whether a user turned the chat filter off for themselves."""
    chat_log: Callable[[ChatLine], None] = lambda _line: None
    """Keeps a chat line for moderators (the store's chat log)."""
