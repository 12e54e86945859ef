"""Playing a game through :class:`~fh_server_player.Player` clients: what a
player sees (cards played, the hand, the end, an event), a simple sensible
strategy, the card a timed-out turn plays, and loops that play turns and
wait until every client has caught up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fh_server_player import Player

RANKS = "23456789TJQKA"
SUITS = "CDHS"

# ----------------------------------------------------------------- predicates


def cards_played(p: Player) -> int:
    """Cards played so far in the hand ``p`` sees."""
    return 0 if p.view is None else sum(len(t["cards"]) for t in p.view["tricks"])


def hand_index(p: Player) -> int:
    return -1 if p.view is None else int(p.view["hand_index"])


def is_over(p: Player) -> bool:
    return p.view is not None and p.view["phase"] == "over"


def saw(p: Player, kind: str, seat: int | None = None) -> bool:
    """Whether ``p`` received an event of this kind (for this seat)."""
    return any(e["kind"] == kind and (seat is None or e.get("seat") == seat) for e in p.events())


# ------------------------------------------------------------------- strategy


def card_key(c: str) -> tuple[int, int]:
    return RANKS.index(c[0]), SUITS.index(c[1])


def choose(view: dict[str, Any]) -> tuple[str, Any]:
    """A simple sensible player: estimate tricks from high cards and hearts;
    win a trick as cheaply as possible, else throw the lowest card. Returns
    ``("bid", n)`` or ``("play", card)``."""
    legal = view["legal"]
    hand = view["hand"]
    if view["phase"] == "bid":
        est = sum(1 for c in hand if c[0] == "A")
        est += sum(1 for c in hand if c[0] == "K" and sum(x[1] == c[1] for x in hand) >= 2)
        est += max(0, sum(1 for c in hand if c[1] == "H") - 3)
        n = min(max(est, legal[0]), legal[-1])
        bids = view["bids"]
        if sum(b is not None for b in bids) == 3:
            need = view["required_total"] - sum(b for b in bids if b is not None)
            n = max(n, min(need, legal[-1]))
        n = min(max(n, legal[0]), legal[-1])
        return "bid", n
    trick = view["tricks"][-1] if view["tricks"] and view["tricks"][-1]["winner"] is None else None
    if not trick or not trick["cards"]:
        return "play", max(legal, key=card_key)
    led = trick["cards"][0][1]

    def power(c: str) -> int:
        if c[1] == "H":
            return 100 + RANKS.index(c[0])
        return RANKS.index(c[0]) if c[1] == led else -1

    best = max(power(c) for c in trick["cards"])
    winners = [c for c in legal if power(c) > best]
    if winners:
        return "play", min(winners, key=power)
    return "play", min(legal, key=lambda c: (c[1] == "H", RANKS.index(c[0])))


def timeout_card(legal: list[str]) -> str:
    """docs/rules.md, "When a turn timer runs out": the lowest-ranked legal
    card; a non-heart before a heart, then clubs, diamonds, spades."""
    order = {"C": 0, "D": 1, "S": 2, "H": 3}
    return min(legal, key=lambda c: (RANKS.index(c[0]), order[c[1]]))


async def play_turns(
    players: list[Player],
    stop: Callable[[], bool],
    max_actions: int = 5000,
    on_action: Callable[[Player, dict[str, Any]], None] | None = None,
) -> int:
    """Let the player to act act (with :func:`choose`) until ``stop()``;
    returns the number of actions made."""
    done = 0
    while not stop():
        assert done < max_actions, "the game did not end"
        # Everyone at the same version first: no view is stale.
        top = max(p.version for p in players)
        for p in players:
            await p.wait(lambda p=p, top=top: p.version >= top)
        mover = next(
            (p for p in players if p.view is not None and p.view.get("legal") is not None),
            None,
        )
        if mover is None:
            if stop():
                break
            await players[0].wait(
                lambda top=top: stop() or any(p.version > top for p in players), 20
            )
            continue
        assert mover.view is not None
        kind, value = choose(mover.view)
        reply = await mover.cmd(kind, **{("bid" if kind == "bid" else "card"): value})
        assert reply["type"] == "ack", reply
        if on_action is not None:
            on_action(mover, reply)
        v = reply["version"]
        for p in players:
            await p.wait(lambda p=p, v=v: p.version >= v)
        done += 1
    return done


async def caught_up(players: list[Player]) -> int:
    """Wait until every client has received every event another one has (a
    play can be followed by events the server makes itself, such as the next
    deal, which reach the clients one by one), then check that they all see
    the same public state; returns that version. Fails by timeout if a
    client never catches up."""
    while True:
        top = max(p.version for p in players)
        for p in players:
            await p.wait(lambda p=p, top=top: p.version >= top)
        if all(p.version == top for p in players):
            break
    for key in ("hand_index", "scores", "dealer", "turn", "phase"):
        assert len({repr((p.view or {})[key]) for p in players}) == 1, key
    return top
