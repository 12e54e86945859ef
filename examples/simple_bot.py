#!/usr/bin/env python3
"""A small 400 bot that speaks the fourhundred bot protocol (JSON lines).

Run it against a built-in bot:

    fourhundred arena "cmd:python3 examples/simple_bot.py" random --pairs 20

It needs nothing but the Python standard library. It bids the smallest legal
bid plus one for each ace and each heart honour it holds, and plays the
lowest card that wins the trick, or its lowest card when none does.
"""

from __future__ import annotations

import json
import sys

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    return RANKS.index(card[0])


def beats(card: str, best: str, led: str) -> bool:
    """Whether ``card`` beats ``best`` in a trick led in suit ``led``."""
    if card[1] == "H":
        return best[1] != "H" or rank(card) > rank(best)
    return card[1] == led and best[1] == led and rank(card) > rank(best)


def choose_bid(view: dict) -> int:
    hand = view["hand"]
    strength = sum(1 for c in hand if c[0] == "A") + sum(
        1 for c in hand if c[1] == "H" and c[0] in "KQ"
    )
    legal = view["legal"]
    want = legal[0] + strength // 2
    return max(b for b in legal if b <= max(want, legal[0]))


def choose_card(view: dict) -> str:
    legal = sorted(view["legal"], key=rank)
    trick = view["tricks"][-1] if view["tricks"] else None
    if trick is None or trick["winner"] is not None or not trick["cards"]:
        return legal[0]  # leading: lowest card
    cards = trick["cards"]
    led = cards[0][1]
    best = cards[0]
    for c in cards[1:]:
        if beats(c, best, led):
            best = c
    winners = [c for c in legal if beats(c, best, led)]
    return winners[0] if winners else legal[0]


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            answer = {"type": "ready", "name": "simple-bot", "author": "fourhundred examples"}
        elif msg["type"] == "act":
            view = msg["view"]
            answer = {"type": "action", "id": msg["id"]}
            if view["phase"] == "bid":
                answer["bid"] = choose_bid(view)
            else:
                answer["card"] = choose_card(view)
        elif msg["type"] == "quit":
            return
        else:
            continue  # "result": nothing to learn here
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
