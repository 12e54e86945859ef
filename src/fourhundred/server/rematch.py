"""A rematch: after a game, the same four seats at a new table with the same
rules (docs/protocol.md, "Rematch").

A seated player's ``rematch`` (accept) offers it; every other seat answers
within :data:`OFFER_S` seconds (a seat a bot holds accepts by itself). When
all four accept, the table actor opens the new table and records its id;
when one declines or time runs out the offer ends, and any player who
accepted may open it anyway with bots in the other seats. Every step is an
event of the old table's log, so an offer survives a restart with its
deadline. Ranked tables have none: a new Ranked game comes from the queue.

Pure: :func:`answer`, :func:`with_bots` and :func:`server` judge, the table
actor (through :class:`~.rematch_driver.RematchDriver`) does the I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

from . import events as ev
from . import protocol as p
from .errors import CommandError

if TYPE_CHECKING:
    from .room import TableModel

__all__ = ["OFFER_S", "Rematch", "answer", "person", "public", "server", "with_bots"]

OFFER_S: Final = 60
"""How long the other seats have to answer an offer, in seconds."""

RematchEvent = (
    ev.RematchOffered | ev.RematchAnswered | ev.RematchEnded | ev.RematchWithBots | ev.RematchOpened
)


@dataclass(slots=True)
class Rematch:
    """The rematch offer of a finished table."""

    offered_by: int
    deadline_ms: int
    answers: list[bool | None] = field(default_factory=lambda: [None] * 4)
    """Each seat's answer (None: not yet)."""
    ended: str | None = None
    """``declined`` or ``expired``: the offer ended without all four."""
    with_bots: bool = False
    """An accepter opens it without the others (``fill``: bots or open seats)."""
    fill: str = "bots"
    table: str | None = None
    invite: str | None = None

    def copy(self) -> Rematch:
        return Rematch(
            self.offered_by,
            self.deadline_ms,
            list(self.answers),
            self.ended,
            self.with_bots,
            self.fill,
            self.table,
            self.invite,
        )

    @property
    def accepted(self) -> bool:
        """Every seat accepted."""
        return all(self.answers)

    @property
    def to_open(self) -> bool:
        """The new table is due (and not yet opened)."""
        return self.table is None and (self.with_bots or (self.ended is None and self.accepted))

    @property
    def state(self) -> str:
        if self.table is not None:
            return "opened"
        if self.to_open:
            return "opening"
        return "open" if self.ended is None else "ended"


def apply(m: TableModel, event: RematchEvent) -> None:
    """The rematch part of :meth:`TableModel.apply`."""
    r = m.rematch
    if isinstance(event, ev.RematchOffered):
        if r is not None or m.status != "over":
            raise ValueError("a rematch is offered once, after the game")
        m.rematch = r = Rematch(event.seat, event.deadline_ms)
        for i in range(4):
            if _bot_seat(m, i):
                r.answers[i] = True
        r.answers[event.seat] = True
        return
    if r is None:
        raise ValueError(f"{event.public()['kind']}: no rematch was offered")
    match event:
        case ev.RematchAnswered(seat=seat, accept=accept):
            r.answers[seat] = accept
        case ev.RematchEnded(reason=reason):
            r.ended = reason
        case ev.RematchWithBots(fill=fill):
            r.with_bots, r.fill = True, fill
        case ev.RematchOpened(table=table, invite=invite):
            r.table, r.invite = table, invite


def _bot_seat(m: TableModel, seat: int) -> bool:
    """A seat a bot holds at the end: it accepts by itself."""
    s = m.seats[seat]
    return s.bot is not None and (s.user is None or not s.active)


def _seat(m: TableModel, user_id: str, what: str) -> int:
    if m.kind == "ranked":
        raise CommandError("not_allowed", "Ranked tables have no rematch: join the queue again")
    if m.status != "over":
        raise CommandError("wrong_phase", f"cannot {what}: the game is not over")
    seat = m.role_seat(user_id)
    if seat is None:
        raise CommandError("not_seated", f"only a seated player can {what}")
    return seat


def person(
    m: TableModel, user_id: str, cmd: p.Rematch | p.RematchBots, now_ms: int
) -> list[ev.Event]:
    """The events of a person's ``rematch`` or ``rematch_bots``."""
    if isinstance(cmd, p.Rematch):
        return answer(m, user_id, cmd.accept, now_ms)
    return with_bots(m, user_id, cmd.fill)


def answer(m: TableModel, user_id: str, accept: bool, now_ms: int) -> list[ev.Event]:
    """The events of a seated player's answer (the first acceptance is the
    offer). Raises ``CommandError`` when it is refused."""
    what = "answer a rematch" if m.rematch is not None or not accept else "offer a rematch"
    seat = _seat(m, user_id, what)
    r = m.rematch
    if r is None:
        if not accept:
            raise CommandError("not_allowed", "no rematch has been offered")
        return [ev.RematchOffered(seat=seat, deadline_ms=now_ms + OFFER_S * 1000)]
    if r.state != "open" or now_ms >= r.deadline_ms:
        raise CommandError("not_allowed", f"the rematch offer is over ({_over(r)})")
    if r.answers[seat] is not None:
        word = "accepted" if r.answers[seat] else "declined"
        raise CommandError("not_allowed", f"you already {word} the rematch")
    out: list[ev.Event] = [ev.RematchAnswered(seat=seat, accept=accept)]
    if not accept:
        out.append(ev.RematchEnded(reason="declined"))
    return out


def with_bots(
    m: TableModel, user_id: str, fill: Literal["bots", "open"] = "bots"
) -> list[ev.Event]:
    """An accepter opens the rematch without the seats that did not accept:
    bots in them, or (``open``) left open for a friend or anyone to take."""
    seat = _seat(m, user_id, "open a rematch with bots")
    r = m.rematch
    if r is None:
        raise CommandError("not_allowed", "no rematch has been offered")
    if r.state == "open":
        raise CommandError("not_allowed", "the offer is still open: wait for every answer")
    if r.state != "ended":
        raise CommandError("not_allowed", f"the rematch offer is over ({_over(r)})")
    if not r.answers[seat]:
        raise CommandError("not_allowed", "only a player who accepted can open the rematch")
    return [ev.RematchWithBots(seat=seat, fill=fill)]


def _over(r: Rematch) -> str:
    if r.table is not None:
        return f"it opened as table {r.table}"
    if r.to_open:
        return "its table is opening"
    return "a seat declined" if r.ended == "declined" else "time ran out"


def server(m: TableModel, table: str | None, invite: str | None) -> list[ev.Event]:
    """The server's step: record the opened table (``table``), or end an
    offer whose time ran out (``table`` None). Nothing when its moment has
    passed."""
    r = m.rematch
    if r is None:
        return []
    if table is not None:
        return [ev.RematchOpened(table=table, invite=invite)] if r.to_open else []
    return [ev.RematchEnded(reason="expired")] if r.state == "open" else []


def public(m: TableModel) -> dict[str, Any] | None:
    """The rematch as the old table's ``room`` shows it: None when there can
    be none, ``{"state": "available"}`` until one is offered."""
    r = m.rematch
    if r is None:
        # A tournament's match is one game: its table offers no rematch.
        again = m.kind not in ("ranked", "tournament")
        return {"state": "available"} if m.status == "over" and again else None
    out: dict[str, Any] = {
        "state": r.state,
        "offered_by": r.offered_by,
        "deadline_ms": r.deadline_ms,
        "answers": list(r.answers),
        "reason": r.ended,
        "table": r.table,
        "fill": r.fill if r.with_bots else None,
    }
    if m.kind == "private":
        out["invite"] = r.invite
    return out
