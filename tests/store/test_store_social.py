"""The store's friends, blocks and table invites (``Store.social``): each
write does what it says or nothing, and the reads see the rows as the
server's rules expect (docs/protocol.md, "Friends and invites")."""

from __future__ import annotations

import sqlalchemy as sa

from fourhundred.store import Store, StoredEvent, TableRow
from fourhundred.store import models as m
from fourhundred.store.social import Relation


async def people(store: Store, tag: str, *names: str) -> list[str]:
    ids = []
    for n in names:
        uid = f"{n}{tag}"
        await store.create_user(uid, n.title(), 1, username=f"{n}{tag}")
        ids.append(uid)
    return ids


async def test_requests_friendships_and_lists(store: Store, tag: str) -> None:
    s = store.social
    a, b, c = await people(store, tag, "amal", "basel", "carim")
    assert await s.relation(a, b) == Relation()
    assert await s.request(a, b, 10)
    assert not await s.request(a, b, 11)  # once
    assert await s.relation(a, b) == Relation(asked=True)
    assert await s.relation(b, a) == Relation(asked_by=True)
    assert [p.id for p in await s.outgoing(a)] == [b]
    assert [(p.id, p.since_ms) for p in await s.incoming(b)] == [(a, 10)]

    assert not await s.accept(a, b, 12)  # a cannot accept their own request
    assert await s.accept(b, a, 12)
    assert await s.relation(a, b) == Relation(friends=True)
    assert [p.name for p in await s.friends(a)] == ["Basel"]
    assert [p.name for p in await s.friends(b)] == ["Amal"]
    assert await s.outgoing(a) == [] and await s.incoming(b) == []

    # Two requests that crossed: accepting one makes one friendship.
    assert await s.request(a, c, 13) and await s.request(c, a, 13)
    assert await s.accept(a, c, 14)
    assert await s.relation(a, c) == Relation(friends=True)
    assert [p.name for p in await s.friends(a)] == ["Basel", "Carim"]

    # A decline takes only the request; unlinking ends both sides.
    assert await s.unlink(a, c, only_request_from=c) == 0  # no open request
    assert await s.unlink(a, b) == 2
    assert await s.relation(a, b) == Relation()
    assert [p.name for p in await s.friends(b)] == []


async def test_a_block_clears_links_and_invites(store: Store, tag: str) -> None:
    s = store.social
    a, b = await people(store, tag, "dana", "elie")
    await s.request(a, b, 1)
    await s.accept(b, a, 2)
    table = f"t{tag}"
    await store.create_table(_row(table, a), StoredEvent(1, "created", {}, 1), [])
    assert await s.invite(b, table, a, 3)
    assert await s.block(b, a, 4)
    assert not await s.block(b, a, 5)
    assert await s.relation(a, b) == Relation(blocked_by=True)
    assert await s.relation(b, a) == Relation(blocked=True)
    assert await s.invites(b) == [] and await s.friends(a) == []
    assert [p.id for p in await s.blocked(b)] == [a]
    assert await s.blocked_ids(b) == {a} and await s.blocked_ids(a) == set()
    assert not await s.unblock(a, b)
    assert await s.unblock(b, a) and await s.relation(a, b) == Relation()
    assert not await s.unblock(b, "\x00")


async def test_invites_last_while_the_table_waits(store: Store, tag: str) -> None:
    s = store.social
    a, b = await people(store, tag, "fadi", "ghina")
    t1, t2 = f"t1{tag}", f"t2{tag}"
    for t in (t1, t2):
        await store.create_table(_row(t, a), StoredEvent(1, "created", {}, 1), [])
    assert await s.invite(b, t1, a, 5) and await s.invite(b, t2, a, 6)
    assert not await s.invite(b, t1, a, 7)
    got = await s.invites(b)
    assert [(i.table.id, i.from_id, i.from_name, i.at_ms) for i in got] == [
        (t2, a, "Fadi", 6),
        (t1, a, "Fadi", 5),
    ]
    async with store.engine.begin() as conn:
        await conn.execute(m.tables.update().where(m.tables.c.id == t2).values(status="playing"))
    assert [i.table.id for i in await s.invites(b)] == [t1]
    assert await s.purge_invites() >= 1
    async with store.engine.connect() as conn:
        left = (
            await conn.execute(
                sa.select(m.table_invites.c.table_id).where(m.table_invites.c.to_user == b)
            )
        ).all()
    assert [r.table_id for r in left] == [t1]
    assert await s.drop_invite(b, t1) and not await s.drop_invite(b, t1)
    assert not await s.drop_invite(b, "\x00")
    assert await s.invites(b) == []


async def test_public_tables_leave_private_ones_out(store: Store, tag: str) -> None:
    s = store.social
    a, b, c = await people(store, tag, "hadi", "iman", "jana")
    casual, private = f"c{tag}", f"p{tag}"
    await store.create_table(_row(casual, a), StoredEvent(1, "created", {}, 1), [(0, a, True)])
    row = _row(private, b)
    row.kind = "private"
    await store.create_table(row, StoredEvent(1, "created", {}, 1), [(0, b, True)])
    assert await s.public_tables([a, b, c, "\x00"]) == {a: casual}
    assert await s.public_tables([]) == {}


def _row(table_id: str, host: str) -> TableRow:
    return TableRow(
        id=table_id,
        kind="casual",
        status="waiting",
        invite=None,
        host=host,
        version=1,
        summary={"id": table_id},
        open_seats=3,
        created_ms=1,
        updated_ms=1,
    )
