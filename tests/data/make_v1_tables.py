"""Write ``tests/data/v1-tables.sqlite``: a database written by the server as
it was before events became typed (commit d11356c, protocol fourhundred-ws/1),
so the tests can show that tables stored then still load and play on.

It was run once, on that commit, with ``.venv/bin/python
tests/data/make_v1_tables.py``; the file is kept as it came out. Running it
on later code would write the new form and prove nothing: the script is kept
to say what the file holds, and how it was made.

What it holds (see ``manifest`` in the printed JSON, also stored beside it):
- a Private waiting room with two people seated, settings changed;
- a Casual game of four people in the middle of its second hand (bids,
  plays, a finished hand's ``hand_over``, a second ``deal``);
- a Casual game of four people where one left (``substituted``) and then all
  left, so it ended ``abandoned`` (``game_over``);
- a Ranked game where a player left and was charged a loss (``rating``).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))

from fh_server_helpers import (  # noqa: E402
    Player,
    Server,
    cards_played,
    hand_index,
    play_turns,
)


async def seat_four(server: Server, kind: str, names: list[str]) -> tuple[list[Player], str]:
    players = [await Player(server, n).guest() for n in names]
    host = players[0]
    r = await host.http.post("/api/tables", json={"kind": kind, "preset": "standard", "timer": 90})
    assert r.status_code == 201, r.text
    table = r.json()["table"]["id"]
    for p in players:
        await p.connect()
    await host.join(table=table)
    for p in players[1:]:
        await p.join(table=table)
        await p.ok("sit")
    for p in players:
        await p.ok("ready", ready=True)
    for p in players:
        await p.wait(lambda p=p: p.view is not None)
    return players, table


async def main(out: Path) -> dict[str, str]:
    tmp = out.with_suffix(".tmp.sqlite")
    tmp.unlink(missing_ok=True)
    server = Server(
        f"sqlite+aiosqlite:///{tmp}", extra=["--auth-limit", "1000", "--ws-rate", "100000"]
    ).start()
    manifest: dict[str, str] = {}
    try:
        host = await Player(server, "Waiter").guest()
        r = await host.http.post(
            "/api/tables", json={"kind": "private", "preset": "standard", "timer": 45}
        )
        created = r.json()
        manifest["waiting"] = created["table"]["id"]
        await host.connect()
        await host.join(table=manifest["waiting"])
        await host.ok("configure", settings={"target": 61})
        guest = await Player(server, "Visitor").guest()
        await guest.connect()
        await guest.join(invite=created["invite"])
        await guest.ok("sit")

        players, manifest["playing"] = await seat_four(
            server, "casual", ["Rami", "Nour", "Karim", "Hala"]
        )
        await play_turns(
            players, lambda: hand_index(players[0]) >= 1 and cards_played(players[0]) >= 6
        )

        leavers, manifest["abandoned"] = await seat_four(
            server, "casual", ["Sami", "Lina", "Omar", "Dina"]
        )
        await play_turns(leavers, lambda: cards_played(leavers[0]) >= 5)
        for p in leavers:
            await p.ok("leave")

        ranked = [await Player(server, n).register() for n in ("Ziad", "Maya", "Fadi", "Rana")]
        for p in ranked:
            assert (await p.http.post("/api/queue")).status_code in (200, 201)
        for _ in range(200):
            status = (await ranked[0].http.get("/api/queue")).json()
            if status["status"] == "matched":
                break
            await asyncio.sleep(0.1)
        manifest["ranked"] = status["table"]
        for p in ranked:
            await p.connect()
            await p.join(table=manifest["ranked"])
        for p in ranked:
            await p.wait(lambda p=p: p.view is not None)
        await play_turns(ranked, lambda: cards_played(ranked[0]) >= 3)
        await ranked[1].ok("leave")
        for p in [host, guest, *players, *leavers, *ranked]:
            await p.aclose()
    finally:
        server.stop()
    shutil.move(tmp, out)
    return manifest


if __name__ == "__main__":
    target = HERE / "v1-tables.sqlite"
    manifest = asyncio.run(main(target))
    (HERE / "v1-tables.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(json.dumps(manifest))
