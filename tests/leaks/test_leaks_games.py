"""No card leaks, through a real server: games played by the server's own
bots and by people this test drives over WebSockets, with every frame to
every seat and every spectator read against the finished game's record by
``fh_leaks.LeakChecker`` (a seat sees another seat's card only once it is
played; a spectator sees no unplayed card; every view is ``view_for``'s).

The long run is ``bench/leaks.py`` (thousands of games)."""

from __future__ import annotations

import asyncio
import random

from fh_leak_games import GameOptions, GameResult, LeakGame
from fh_wire import Account, Server


async def _game(server: Server, kind: str, tag: str, seed: int, **kw: bool | float) -> GameResult:
    people = [await Account(server.url, f"Lk{tag}p{i}").guest() for i in range(4)]
    watchers = [await Account(server.url, f"Lk{tag}w{i}").guest() for i in range(2)]
    try:
        options = GameOptions(time_limit=120, **kw)  # type: ignore[arg-type]
        game = LeakGame(kind, people, watchers, random.Random(seed), options)
        return await game.run()
    finally:
        for a in (*people, *watchers):
            await a.aclose()


async def test_no_card_reaches_anyone_who_may_not_see_it(leak_server: Server) -> None:
    results = await asyncio.gather(
        # Four server bots (the host's seat passes to a bot after three
        # timeouts) and a spectator who is there from the start.
        _game(leak_server, "bots", "b", 1),
        _game(leak_server, "bots", "c", 2, late_spectator=True),
        # Four people playing from view.legal; the last one drops and
        # rejoins mid-hand (catchup); a spectator joins late (snapshot).
        _game(leak_server, "humans", "h", 3, reconnect=1.0, late_spectator=True),
        # Two people and two bots.
        _game(leak_server, "mixed", "m", 4, reconnect=1.0),
    )
    for r in results:
        assert r.finished, f"{r.kind} game {r.table}: {r.note}"
        assert not r.violations, f"{r.kind} game {r.table}:\n" + "\n".join(r.violations[:20])
        assert r.frames >= 100 and r.cards_seen >= 500, r
    humans = results[2]
    assert humans.actions >= 50, "the people played their own turns"
    assert humans.frame_types.get("catchup", 0) >= 1, "a player rejoined with its last version"
    assert sum(r.frame_types.get("snapshot", 0) for r in results) >= 10
    assert results[3].frame_types.get("catchup", 0) >= 1
