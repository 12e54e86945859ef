"""Making a table: its settings checked, its first event (``created``), its
row, its owner.

:func:`new_table` is the one place the ``created`` event is built.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from fourhundred.engine import TURN_TIMERS, InvalidSettings, preset
from fourhundred.store import Store, StoredEvent, TableExists, TableRow, User

from .clock import Clock
from .config import ServerConfig
from .errors import CommandError
from .events import Created, Player, to_stored
from .locator import TableLocator
from .logs import get_logger
from .ratings import display
from .room import TableModel
from .tablespec import TableSpec

__all__ = [
    "NewTable",
    "SettingError",
    "TableFactory",
    "TableSpec",
    "checked_settings",
    "new_table",
    "player_of",
]

log = get_logger("fourhundred.hub")


class SettingError(CommandError):
    """A table setting out of range; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__("bad_request", message)
        self.field = field


def player_of(user: User) -> Player:
    """A seat's occupant as the ``created`` event records it."""
    rating = None if user.guest else display(user.mu)
    return Player(id=user.id, name=user.name, guest=user.guest, rating=rating)


def checked_settings(
    kind: str, preset_name: str, changes: dict[str, Any], timer: int
) -> dict[str, Any]:
    """The rules of a Casual or Private table: the preset with ``changes``,
    or a ``SettingError`` naming the field that does not fit."""
    if kind not in ("casual", "private"):
        raise SettingError("kind", "kind must be 'casual' or 'private' (Ranked: use the queue)")
    try:
        base = preset(preset_name)
    except InvalidSettings as e:
        raise SettingError("preset", str(e)) from None
    try:
        settings = base.replace(**changes)
    except InvalidSettings as e:
        name = str(e).split("'")[1] if "'" in str(e) else ""
        raise SettingError(f"settings.{name}" if name else "settings", str(e)) from None
    if timer not in TURN_TIMERS:
        raise SettingError(
            "timer", f"timer must be one of {', '.join(map(str, TURN_TIMERS))} seconds"
        )
    return settings.to_dict()


@dataclass(frozen=True, slots=True)
class NewTable:
    created: StoredEvent
    model: TableModel
    row: TableRow


def new_table(spec: TableSpec, *, now_ms: int, node: str) -> NewTable:
    """A new table's first event, its model and its row (nothing stored)."""
    table_id = spec.table_id or secrets.token_urlsafe(8)
    invite = secrets.token_urlsafe(16) if spec.kind == "private" else None
    created = Created(
        table_kind=spec.kind,
        host=spec.host,
        preset=spec.preset_name,
        settings=spec.settings,
        timer=spec.timer,
        invite=invite,
        seats=spec.seats,
        ready=spec.ready,
        bots=spec.bots,
        hints=spec.hints,
        tournament=spec.tournament,
        start_by_ms=spec.start_by_ms,
    )
    model = TableModel(table_id, created, now_ms)
    row = TableRow(
        id=table_id,
        kind=spec.kind,
        status="waiting",
        invite=invite,
        host=spec.host,
        version=1,
        summary=model.summary(set(), 0),
        open_seats=model.open_seats,
        created_ms=now_ms,
        updated_ms=now_ms,
        owner=node,
        tournament=spec.tournament,
    )
    return NewTable(StoredEvent(1, *to_stored(created), now_ms), model, row)


class TableFactory:
    """Stores new tables and starts them in this process."""

    def __init__(
        self, store: Store, config: ServerConfig, clock: Clock, locator: TableLocator
    ) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.locator = locator

    async def create_table(
        self, host: User, kind: str, preset_name: str, changes: dict[str, Any], timer: int
    ) -> TableRow:
        """A new Casual or Private table with ``host`` at seat 0."""
        settings = checked_settings(kind, preset_name, changes, timer)
        await self.not_seated(host.id)
        return await self.create(
            TableSpec(
                kind="casual" if kind == "casual" else "private",
                host=host.id,
                preset_name=preset_name,
                settings=settings,
                timer=timer,
                seats=(player_of(host), None, None, None),
                ready=(False,) * 4,
            )
        )

    async def not_seated(self, user_id: str) -> None:
        elsewhere = await self.store.seated_table(user_id)
        if elsewhere is not None:
            raise CommandError("conflict", f"you are seated at table {elsewhere}: leave it first")

    async def open_rematch(self, spec: TableSpec) -> tuple[str, str | None]:
        """Store and start a rematch's table: its id and invite. Its id is
        derived from the old table's, so a second attempt (the server
        stopped after making it but before the old table recorded it) finds
        the table made the first time instead of making another."""
        assert spec.table_id is not None
        made = await self.store.get_table(spec.table_id)
        if made is None:
            try:
                made = await self.create(spec)
            except TableExists:  # another attempt made it just now
                made = await self.store.get_table(spec.table_id)
                if made is None:
                    raise
        else:
            await self.locator.actor(made.id)
        return made.id, made.invite

    async def create(self, spec: TableSpec) -> TableRow:
        """Store a new table made to ``spec`` and start it here."""
        new = new_table(spec, now_ms=self.clock.now_ms(), node=self.config.node)
        table_id = new.row.id
        await self.locator.claim_new(table_id)
        await self.store.create_table(new.row, new.created, new.model.seat_rows())
        log.info("table_created", table=table_id, kind=spec.kind, host=spec.host)
        await self.locator.actor(table_id)
        return new.row
