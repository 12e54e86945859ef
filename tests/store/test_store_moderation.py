"""The moderation store on SQLite and PostgreSQL: a report the server
files itself (no reporter, ``fair_play``, its details) is listed like any
other; each act writes its audit entry with it; resolving is once; the chat
log gives the lines around a moment and is purged by age; a deleted
account's chat lines and moderator role go, the reports about it stay."""

from __future__ import annotations

from fourhundred.store import ChatLine, NewPenalty, Report, Store


async def test_a_system_report_is_a_report_like_any_other(store: Store, tag: str) -> None:
    player = f"p{tag}"
    await store.create_user(player, "Suspect", 1000)
    details = {"games": 20, "agreement": 0.97}
    await store.moderation.file_report(
        Report(f"r{tag}", None, player, "fair_play", None, None, None, 2000, details=details)
    )
    listed = {r.id: r for r in await store.moderation.reports("open", 500)}
    got = listed[f"r{tag}"]
    assert got.reporter is None and got.reason == "fair_play" and got.details == details
    assert [r.id for r in await store.moderation.reports_against(player, 10)] == [f"r{tag}"]
    # Resolving is audited, once.
    assert await store.moderation.resolve(f"r{tag}", "no case", None, 3000)
    assert not await store.moderation.resolve(f"r{tag}", "again", None, 3001)
    entries = [e for e in await store.moderation.audit(500) if e.report == f"r{tag}"]
    assert [(e.action, e.target, e.moderator) for e in entries] == [("resolve", player, None)]
    assert (await store.moderation.report(f"r{tag}")).status == "resolved"  # type: ignore[union-attr]


async def test_penalties_and_roles_are_audited(store: Store, tag: str) -> None:
    mod, player = f"m{tag}", f"q{tag}"
    await store.create_user(mod, "Mod", 1000, username=f"mod{tag}")
    await store.create_user(player, "Player", 1000)
    assert await store.moderation.set_moderator(mod, True, 1000, by=None)
    assert not await store.moderation.set_moderator(mod, True, 1001, by=None)  # no change
    assert await store.moderation.is_moderator(mod)
    p = await store.moderation.penalise(NewPenalty(player, "mute", 9000, "rude", mod, None, 2000))
    assert p.id > 0 and p.until_ms == 9000
    assert [x.kind for x in await store.moderation.penalties(player)] == ["mute"]
    mine = [e for e in await store.moderation.audit(500) if e.target in (mod, player)]
    assert [(e.action, e.moderator) for e in mine] == [("mute", mod), ("grant_moderator", None)]
    assert mine[0].details == {"kind": "mute", "until_ms": 9000, "reason": "rude"}


async def test_the_chat_log_around_a_moment_purged_by_age(store: Store, tag: str) -> None:
    table, user = f"t{tag}", f"c{tag}"
    await store.create_user(user, "Talker", 1000)
    lines = [
        ChatLine(table, i, user, "Talker", "players", f"line {i}", 10_000 + i) for i in range(9)
    ]
    await store.moderation.log_chat(lines)
    around = await store.moderation.chat_around(table, 10_004, 2)
    assert [x.text for x in around] == ["line 3", "line 4", "line 5", "line 6"]
    assert await store.moderation.purge_chat(10_002) >= 2
    assert [x.text for x in await store.moderation.chat_around(table, 10_000, 1)] == ["line 2"]
    await store.moderation.set_moderator(user, True, 1000, by=None)
    await store.moderation.file_report(
        Report(f"rc{tag}", None, user, "chat_abuse", None, table, 3, 2000)
    )
    await store.accounts.delete(user)
    assert await store.moderation.chat_around(table, 10_004, 5) == []
    assert not await store.moderation.is_moderator(user)
    assert await store.moderation.report(f"rc{tag}") is not None
