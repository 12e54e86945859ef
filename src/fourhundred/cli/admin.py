"""``fourhundred admin``: the operators' moderation commands
(docs/moderation.md, "Command line"): grant and revoke the moderator role,
list reports, penalise a player, read the audit log. They work on the
database directly, through the same store functions as the server, and
each act is audited with no moderator (an operator).

USER is a username or a user id.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from fourhundred import env

from .common import fail
from .help import HelpCommand, HelpGroup
from .serveconfig import DB_HELP

if TYPE_CHECKING:
    from fourhundred.store import Store, User

__all__ = ["register"]

T = TypeVar("T")

DbOption = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        help=DB_HELP,
        show_default=f"fourhundred.sqlite3 in ${env.DATA_DIR}, else in ./data",
    ),
]
KINDS = ("warn", "mute", "suspend", "ban")


class _Refused(Exception):
    """A clear one-line refusal (exit status 2)."""


def _run(url: str | None, work: Callable[[Store], Awaitable[T]]) -> T:
    """Open the database (migrated), run ``work``, close; one line and
    exit status 1 (2 for a refusal) on failure."""
    import asyncio

    from fourhundred.store import Store

    async def go() -> T:
        store = await Store.open(url or env.database_url())
        try:
            return await work(store)
        finally:
            await store.close()

    try:
        return asyncio.run(go())
    except _Refused as e:
        raise fail(str(e)) from None
    except Exception as e:
        raise fail(f"cannot use the database: {e.__class__.__name__}: {e}", 1) from None


async def _user(store: Store, who: str) -> User:
    user = await store.get_user_by_username(who) or await store.get_user(who)
    if user is None:
        raise _Refused(f"no user {who!r} (give a username or a user id)")
    return user


def _when(ms: int | None) -> str:
    import time

    return "-" if ms is None else time.strftime("%Y-%m-%d %H:%M", time.gmtime(ms / 1000))


def _print_table(title: str, columns: list[str], rows: list[list[Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for c in columns:
        table.add_column(c)
    for row in rows:
        table.add_row(*("-" if v is None else str(v) for v in row))
    Console().print(table)


def _now_ms() -> int:
    import time

    return time.time_ns() // 1_000_000


def _set_role(user: str, database_url: str | None, granted: bool) -> None:
    async def work(store: Store) -> tuple[str, bool]:
        u = await _user(store, user)
        if granted and u.guest:
            raise _Refused(f"{u.name!r} is a guest: only registered players moderate")
        changed = await store.moderation.set_moderator(u.id, granted, _now_ms(), by=None)
        return u.name, changed

    name, changed = _run(database_url, work)
    what = "a moderator" if granted else "not a moderator"
    print(f"{name} is {what}" + ("" if changed else " already"))


def grant_moderator(
    user: Annotated[str, typer.Argument(help="A username or a user id.")],
    database_url: DbOption = None,
) -> None:
    """Give USER the moderator role (the moderator page in the browser)."""
    _set_role(user, database_url, True)


def revoke_moderator(
    user: Annotated[str, typer.Argument(help="A username or a user id.")],
    database_url: DbOption = None,
) -> None:
    """Take the moderator role from USER."""
    _set_role(user, database_url, False)


def reports(
    status: Annotated[str, typer.Option(help="open, resolved or all.")] = "open",
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 100,
    database_url: DbOption = None,
) -> None:
    """List reports, oldest first."""
    if status not in ("open", "resolved", "all"):
        raise fail(f"--status {status!r}: use open, resolved or all")

    async def work(store: Store) -> list[list[Any]]:
        found = await store.moderation.reports(None if status == "all" else status, limit)
        users = await store.get_users(x for r in found for x in (r.reporter, r.reported) if x)
        names = {i: u.name for i, u in users.items()}
        return [
            [
                r.id,
                _when(r.created_ms),
                names.get(r.reporter, "?") if r.reporter else "(system)",
                names.get(r.reported, r.reported),
                r.reason,
                r.table_id,
                r.note,
                r.status,
            ]
            for r in found
        ]

    rows = _run(database_url, work)
    cols = ["id", "filed (UTC)", "by", "about", "reason", "table", "note", "status"]
    _print_table(f"{len(rows)} {'' if status == 'all' else status + ' '}reports", cols, rows)


def penalise(
    user: Annotated[str, typer.Argument(help="A username or a user id.")],
    kind: Annotated[
        str | None, typer.Option(help="warn, mute, suspend or ban.", show_default="none: say which")
    ] = None,
    reason: Annotated[
        str | None, typer.Option(help="Shown to the player.", show_default="none: say why")
    ] = None,
    hours: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="How long a mute or suspension lasts.",
            show_default="24 for a mute, 168 for a suspension",
        ),
    ] = None,
    report: Annotated[
        str | None, typer.Option(help="The report this answers.", show_default="none")
    ] = None,
    database_url: DbOption = None,
) -> None:
    """Warn, mute, suspend or ban USER (audited as an operator's act)."""
    from fourhundred.server.standing import MAX_HOURS, until_of, until_text
    from fourhundred.store import NewPenalty

    if kind is None:
        raise fail(f"--kind: say which penalty, one of {', '.join(KINDS)}")
    if kind not in KINDS:
        raise fail(f"--kind {kind!r}: use one of {', '.join(KINDS)}")
    if hours is not None and (kind in ("warn", "ban") or hours > MAX_HOURS):
        raise fail(
            f"--hours: a {kind} takes none"
            if kind in ("warn", "ban")
            else f"--hours: at most {MAX_HOURS}"
        )
    if reason is None or not reason.strip():
        raise fail("--reason: say why (the player is told)")
    why = reason.strip()

    async def work(store: Store) -> tuple[str, int | None]:
        u = await _user(store, user)
        if report is not None and await store.moderation.report(report) is None:
            raise _Refused(f"no report {report!r}")
        now = _now_ms()
        until = until_of(kind, hours, now)
        await store.moderation.penalise(NewPenalty(u.id, kind, until, why, None, report, now))
        return u.name, until

    name, until = _run(database_url, work)
    lasting = "" if until is None else f" until {until_text(until)}"
    print(f"{name}: {kind}{lasting} ({why})")


def audit(
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 50,
    database_url: DbOption = None,
) -> None:
    """Print the audit log of moderator acts, newest first."""

    async def work(store: Store) -> list[list[Any]]:
        entries = await store.moderation.audit(limit)
        users = await store.get_users(x for e in entries for x in (e.moderator, e.target) if x)
        names = {i: u.name for i, u in users.items()}
        return [
            [
                _when(e.at_ms),
                names.get(e.moderator, e.moderator) if e.moderator else "(operator)",
                e.action,
                names.get(e.target, e.target) if e.target else None,
                e.report,
                ", ".join(f"{k}={v}" for k, v in e.details.items() if v is not None) or None,
            ]
            for e in entries
        ]

    rows = _run(database_url, work)
    _print_table("audit log", ["at (UTC)", "by", "action", "on", "report", "details"], rows)


def register(app: typer.Typer) -> None:
    """Add ``admin`` and its commands to the ``fourhundred`` command."""
    admin = typer.Typer(help="Moderation for operators: roles, reports, penalties.", cls=HelpGroup)
    app.add_typer(admin, name="admin")
    admin.command("grant-moderator", cls=HelpCommand)(grant_moderator)
    admin.command("revoke-moderator", cls=HelpCommand)(revoke_moderator)
    admin.command("reports", cls=HelpCommand)(reports)
    admin.command("penalise", cls=HelpCommand)(penalise)
    admin.command("audit", cls=HelpCommand)(audit)
