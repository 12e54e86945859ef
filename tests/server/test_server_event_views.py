"""Each event carries the view after *that* event (docs/protocol.md, "Server
to client"): a card that ends a hand comes with the hand as the card left
it, the hand's end with the same, and the next deal with the new hand. A
finished game's replay is the engine's views, step by step."""

from __future__ import annotations

from typing import Any

from fh_server_helpers import Player, Server, play_turns
from test_server_game import seat_four

from fourhundred.engine import replay, view_for
from fourhundred.engine.steps import replay_steps


def _event_frames(p: Player) -> list[dict[str, Any]]:
    return [f for f in p.frames if f["type"] == "event"]


async def test_the_command_that_ends_a_hand_sends_each_events_own_view(server: Server) -> None:
    players, _table, _created = await seat_four(server)

    def second_hand() -> bool:
        return any(e["kind"] == "deal" and e["hand_index"] >= 1 for e in players[0].events())

    await play_turns(players, second_hand)
    for p in players:
        await p.wait(lambda p=p: any(e["kind"] == "deal" for e in p.events()[-1:]))
        frames = _event_frames(p)
        over = next(i for i, f in enumerate(frames) if f["event"]["kind"] == "hand_over")
        ended, line, deal = frames[over - 1], frames[over], frames[over + 1]
        assert [ended["version"] + 1, ended["version"] + 2] == [line["version"], deal["version"]]
        assert deal["event"]["kind"] == "deal"
        h = line["event"]
        assert ended["event"]["kind"] in ("play", "bid", "redeal")
        for f in (ended, line):
            v = f["view"]
            # The hand that just ended, as its last action left it.
            assert v["phase"] == "deal" and v["hand_index"] == h["hand_index"] == 0
            assert v["turn"] is None and v["legal"] is None and f["clock"] is None
            assert v["bids"] == h["bids"] and v["tricks_won"] == h["tricks"]
            assert v["scores"] == h["scores"]
        if ended["event"]["kind"] == "play":
            last = ended["view"]["tricks"][-1]
            assert len(ended["view"]["tricks"]) == 13
            assert last["cards"][-1] == ended["event"]["card"]
            assert last["winner"] == ended["event"]["trick_winner"]
        v = deal["view"]
        assert v["phase"] == "bid" and v["hand_index"] == 1 and v["tricks"] == []
        assert v["bids"] == [None] * 4 and v["scores"] == h["scores"]
        assert deal["clock"] is not None
        # Every other event: a move's own view shows that move.
        for f in frames:
            e = f["event"]
            if e["kind"] == "play" and f["view"]["phase"] == "play":
                cards = [c for t in f["view"]["tricks"] for c in t["cards"]]
                assert cards[-1] == e["card"]
            if e["kind"] == "bid" and f["view"]["phase"] == "bid":
                assert f["view"]["bids"][e["seat"]] == e["bid"]
    for p in players:
        await p.aclose()


async def test_a_finished_games_replay_is_the_engines_views(server: Server) -> None:
    players, table, _created = await seat_four(server, target=11)

    def over() -> bool:
        return players[0].view is not None and players[0].view["phase"] == "over"

    r = await players[0].http.get(f"/api/games/{table}/replay")
    assert r.status_code == 404  # not before the game is over
    await play_turns(players, over)
    r = await players[0].http.get(f"/api/games/{table}/replay")
    assert r.status_code == 200, r.text
    assert r.headers["content-encoding"] == "gzip"  # views repeat: it shrinks a lot
    got = r.json()
    plain = await players[0].http.get(
        f"/api/games/{table}/replay", headers={"Accept-Encoding": "identity"}
    )
    assert "content-encoding" not in plain.headers and plain.json() == got
    record = (await players[0].http.get(f"/api/games/{table}/record")).json()
    state = replay(record)
    assert got["format"] == "fourhundred-replay/1" and got["id"] == table
    assert got["scores"] == state.scores and got["winner"] == state.winner
    assert got["rules"] == state.settings.to_dict()
    expected = replay_steps(record)
    assert len(got["hands"]) == len(expected) == len(state.history)
    for mine, theirs in zip(got["hands"], expected, strict=True):
        assert mine["line"] == theirs.line
        assert len(mine["steps"]) == len(theirs.steps)
        for a, b in zip(mine["steps"], theirs.steps, strict=True):
            assert a == b.to_dict()
            assert "hand" not in a["view"]
            assert (
                sum(len(h) for h in a["hands"]) + sum(len(t["cards"]) for t in a["view"]["tricks"])
                == 52
            )
    # The last step of the game is the final view everybody saw.
    assert got["hands"][-1]["steps"][-1]["view"] == view_for(state, None).to_dict()
    for p in players:
        await p.aclose()
