#!/usr/bin/env python3
"""A determinized (perfect-information Monte Carlo) search bot for 400.

It speaks the fourhundred bot protocol (JSON lines on standard input and output)
and was written from docs/bot-protocol.md, docs/rules.md and docs/view.md alone,
with the Python standard library only. Run it against a built-in bot with

    fourhundred arena "cmd:python3 examples/pimc_bot.py" heuristic --pairs 6 --budget-ms 50

or by hand (``python3 examples/pimc_bot.py [--seed N]``), typing protocol lines.

Bidding counts likely tricks (trump honours and length, side aces and kings,
ruffs) and bids the best expected score at the view's ``values``; bidding last,
it weighs playing the hand against throwing it in. Play: until 70% of
``budget_ms`` has gone it deals the unseen cards at random (hand sizes and shown
voids kept, deals that fit the others' bids preferred), plays each distinct
legal card on every deal and rolls the hand out with a fast rule-based policy
for all seats (the last three tricks solved by alpha-beta). A deal scores as 400
does: each player made or failed their own bid at its value, our team minus
theirs, +-30 for winning or losing the game. The policy's own card stays unless
another beats it by one standard error on the same deals. Diagnostics go to
standard error only.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time
import traceback
from typing import Any

PROTOCOL = "fourhundred-bot/1"
SUITS, RANKS, HEARTS, SIDE = "CDHS", "23456789TJQKA", 2, (0, 1, 3)
TABLES = {
    "lebanese": [0, 1, 2, 3, 4, 10, 12, 14, 16, 27, 30, 33, 36],
    "classic": [0, 1, 2, 3, 4, 5, 6, 14, 16, 18, 20, 22, 24],
}
GAME_BONUS = 30.0  # what winning (or losing) the game is worth, in points
CALIBRATION = 0.4  # tricks taken minus estimate(), measured against heuristic
ENDGAME = 3  # tricks left from which the play is solved exactly
Z = 1.0  # standard errors by which a card must beat the policy's card
Json = dict[str, Any]  # a JSON object as the host sends it
Card = tuple[int, int]  # (suit, rank): suits in SUITS order, rank 0 = two ... 12 = ace
Hands = list[list[list[int]]]  # hands[seat][suit] = ascending ranks
Trick = list[tuple[int, int, int]]  # (seat, suit, rank) in the order played


def log(text: str) -> None:
    print(f"pimc-bot[{os.getpid()}]: {text}", file=sys.stderr, flush=True)


def parse(card: str) -> Card:
    return SUITS.index(card[1]), RANKS.index(card[0])


def text(suit: int, rank: int) -> str:
    return RANKS[rank] + SUITS[suit]


def bid_value(rules: Json, bid: int, score: int) -> float:
    """What a bid is worth to a player with ``score`` (docs/rules.md, Scoring)."""
    if bid >= 13:
        return 2 * GAME_BONUS  # a 13 bid decides the game instead of scoring
    scoring = rules.get("scoring", "lebanese")
    value = float(TABLES.get(scoring, TABLES["lebanese"])[max(bid, 0)])
    if rules.get("five_six_face_at_30") and scoring == "lebanese" and score >= 30:
        value = float(bid) if bid in (5, 6) else value
    big = {"ten_40": 10, "eleven_50": 11}.get(rules.get("big_bids", ""), 99)
    return (40.0 if big == 10 else 50.0) if bid >= big else value


def game_bonus(rules: Json, scores: list[float], team: int) -> float:
    """+30 if these scores win the game for ``team``, -30 if they lose it."""
    target = rules.get("target", 41)
    floor = 1 if rules.get("partner_rule", "positive") == "positive" else 0
    ours, theirs = (
        max(scores[t], scores[t + 2]) >= target and min(scores[t], scores[t + 2]) >= floor
        for t in (team, 1 - team)
    )
    if ours and theirs:
        diff = scores[team] + scores[team + 2] - scores[1 - team] - scores[3 - team]
        return math.copysign(GAME_BONUS, diff) if diff else 0.0
    return GAME_BONUS if ours else -GAME_BONUS if theirs else 0.0


def estimate(cards: list[Card]) -> float:
    """Likely tricks of a 13-card hand: honours, trump length and ruffs."""
    suits: list[list[int]] = [[], [], [], []]
    for s, r in cards:
        suits[s].append(r)
    hearts = sorted(suits[HEARTS], reverse=True)
    n = len(hearts)
    tricks = 0.8 * max(n - 4, 0)  # long trumps
    for i, r in enumerate(hearts):  # a trump honour needs guards below it
        gap = 12 - r - i  # higher trumps held by others
        if gap <= 0:
            tricks += 1.0
        elif n - i - 1 >= gap:
            tricks += max(0.85 - 0.2 * (gap - 1), 0.3)
        elif r >= 9:
            tricks += 0.15
    ruffs = 0.0
    for s in SIDE:
        ranks, k = suits[s], len(suits[s])
        if 12 in ranks:
            tricks += 0.95 if k <= 4 else 0.75
        if 11 in ranks:
            tricks += 0.1 if k == 1 else (0.7 if k <= 4 else 0.45)
        if 10 in ranks and k >= 3:
            tricks += 0.35 if k <= 4 else 0.2
        ruffs += (0.8, 0.45, 0.15)[k] if k < 3 else 0.0
    return tricks + min(ruffs, max(n - 1, 0) * 0.8)


def chance(expected: float, bid: int, spread: float = 1.1) -> float:
    """P(at least ``bid`` tricks) for a normal spread around ``expected``."""
    return 0.5 * (1.0 + math.erf((expected - bid + 0.5) / (spread * math.sqrt(2.0))))


def choose_bid(view: Json) -> int:
    legal = [b for b in view["legal"] if b <= 12] or view["legal"]
    rules, seat, scores, bids = view.get("rules") or {}, view["seat"], view["scores"], view["bids"]
    worth = dict(zip(view["legal"], view.get("values") or [], strict=False))
    expected = estimate([parse(c) for c in view.get("hand") or []]) + CALIBRATION
    log(f"hand {view.get('hand_index')}: estimate {expected:.2f}")
    partner = (seat + 2) % 4
    last = all(b is not None for i, b in enumerate(bids) if i != seat)
    short = view.get("required_total", 0) - sum(b or 0 for b in bids)
    # When bidding last, the others' bids count too: the partner's for us,
    # the opponents' against us, each at about the rate bids are made.
    others = sum(
        (0.4 if i == partner else -0.4) * bid_value(rules, b, scores[i])
        for i, b in enumerate(bids)
        if i != seat and b is not None
    )

    def score(b: int) -> float:
        if last and b < short:
            return 0.0  # the hand is thrown in: nothing changes
        v = worth.get(b) or bid_value(rules, b, scores[seat])
        p = chance(expected, b)
        ev = (2 * p - 1) * v + (others if last else 0.0)
        if scores[partner] > 0 and scores[seat] + v >= rules.get("target", 41):
            ev += p * GAME_BONUS
        return ev

    return int(max(legal, key=lambda b: (score(b), -b)))


def top_left(hands: Hands, suit: int) -> int:
    """The highest rank of ``suit`` still in anybody's hand (-1: none)."""
    return max((h[suit][-1] for h in hands if h[suit]), default=-1)


def winning(trick: Trick) -> tuple[int, int, int]:
    best = trick[0]
    for play in trick[1:]:
        if (play[1] == best[1] and play[2] > best[2]) or (play[1] == HEARTS != best[1]):
            best = play
    return best


def lead(hands: Hands, seat: int, need: list[int]) -> Card:
    hand, mate = hands[seat], hands[seat ^ 2]
    side = [s for s in SIDE if hand[s]]
    if need[seat] > 0:  # cash sure winners, trumps first
        for s in (HEARTS, *side):
            if hand[s] and hand[s][-1] == top_left(hands, s):
                return s, hand[s][-1]
    elif need[seat ^ 2] > 0:  # lead to the partner's winners or ruffs
        for s in side:
            if (mate[s] and mate[s][-1] == top_left(hands, s)) or (not mate[s] and mate[HEARTS]):
                return s, hand[s][0]
    if side:  # low from the longest side suit
        s = max(side, key=lambda x: len(hand[x]))
        return s, hand[s][0]
    return HEARTS, hand[HEARTS][0]


def follow(hands: Hands, seat: int, trick: Trick, need: list[int]) -> Card:
    hand, led = hands[seat], trick[0][1]
    who, suit, rank = winning(trick)
    last = len(trick) == 3
    safe = who == seat ^ 2 and (last or rank >= top_left(hands, suit))
    safe = safe and not (need[seat] > 0 >= need[seat ^ 2])  # else take it ourselves
    cards = hand[led]
    if cards:  # must follow suit
        if safe or suit != led or cards[-1] < rank:
            return led, cards[0]
        if len(trick) >= 2:
            return led, next(r for r in cards if r > rank)
        return led, cards[-1] if cards[-1] >= top_left(hands, led) else cards[0]
    over = [r for r in hand[HEARTS] if suit != HEARTS or r > rank]
    if over and not safe:  # ruff as cheaply as holds now
        return HEARTS, over[0]
    side = [s for s in SIDE if hand[s]]
    if side:  # discard from a short suit, keeping winners
        losers = [s for s in side if hand[s][0] < top_left(hands, s)] or side
        s = min(losers, key=lambda x: (len(hand[x]), hand[x][0]))
        return s, hand[s][0]
    return HEARTS, hand[HEARTS][0]


def policy(hands: Hands, seat: int, trick: Trick, need: list[int]) -> Card:
    """A fast rule-based card for ``seat``: used for every seat in rollouts."""
    return follow(hands, seat, trick, need) if trick else lead(hands, seat, need)


def settled(won: list[int], bids: list[int], left: int) -> bool:
    """Whether every bid is made or out of reach with ``left`` tricks to go."""
    return left == 0 or all(w >= b or w + left < b for w, b in zip(won, bids, strict=True))


def rollout(hands: Hands, trick: Trick, won: list[int], bids: list[int], nxt: int) -> list[int]:
    """Play the hand out with the policy; returns the tricks won by seat."""
    won = won[:]
    left = (sum(len(x) for h in hands for x in h) + len(trick)) // 4
    while True:
        if len(trick) == 4:
            nxt = winning(trick)[0]
            won[nxt] += 1
            left -= 1
            trick = []
            if settled(won, bids, left):
                return won
        suit, rank = policy(hands, nxt, trick, [bids[s] - won[s] for s in range(4)])
        hands[nxt][suit].remove(rank)
        trick = [*trick, (nxt, suit, rank)]
        nxt = (nxt + 1) % 4


class Position:
    """What the view tells about the hand being played, and its deals."""

    def __init__(self, view: Json) -> None:
        self.rules: Json = view.get("rules") or {}
        self.seat: int = view["seat"]
        self.team = self.seat % 2
        self.scores: list[int] = list(view["scores"])
        self.bids: list[int] = [b or 0 for b in view["bids"]]
        self.won: list[int] = list(view["tricks_won"])
        self.mine: list[Card] = [parse(c) for c in view.get("hand") or []]
        self.played: list[list[Card]] = [[], [], [], []]
        self.voids: list[set[int]] = [set(), set(), set(), set()]
        self.trick: Trick = []
        for t in view["tricks"]:
            cards = [parse(c) for c in t["cards"]]
            for i, card in enumerate(cards):
                self.played[(t["leader"] + i) % 4].append(card)
                if card[0] != cards[0][0]:  # did not follow: void in the suit led
                    self.voids[(t["leader"] + i) % 4].add(cards[0][0])
            if t["winner"] is None:
                self.trick = [((t["leader"] + i) % 4, *c) for i, c in enumerate(cards)]
        self.gone = {c for p in self.played for c in p} | set(self.mine)
        self.unseen = [(s, r) for s in range(4) for r in range(13) if (s, r) not in self.gone]
        self.sizes = [13 - len(p) for p in self.played]
        self.values = [bid_value(self.rules, self.bids[s], self.scores[s]) for s in range(4)]

    def outcome(self, won: list[int]) -> float:
        """Our team's points minus theirs for these tricks, with game bonus."""
        delta = [v if w >= b else -v for v, w, b in zip(self.values, won, self.bids, strict=True)]
        ours = sum(d if s % 2 == self.team else -d for s, d in enumerate(delta))
        after = [sc + d for sc, d in zip(self.scores, delta, strict=True)]
        return ours + game_bonus(self.rules, after, self.team)

    def solve(
        self, hands: Hands, trick: Trick, won: list[int], nxt: int, window: tuple[float, float]
    ) -> float:
        """Exact value for our team of the rest of the hand (alpha-beta)."""
        if len(trick) == 4:
            nxt = winning(trick)[0]
            won = won[:]
            won[nxt] += 1
            if settled(won, self.bids, sum(len(x) for x in hands[0])):
                return self.outcome(won)
            trick = []
        alpha, beta = window
        hand, ours = hands[nxt], nxt % 2 == self.team
        led = trick[0][1] if trick else -1
        suits = [led] if trick and hand[led] else [s for s in range(4) if hand[s]]
        best = -math.inf if ours else math.inf
        for suit in suits:
            for rank in list(hand[suit]):
                if rank - 1 in hand[suit]:
                    continue  # the card just below it does the same
                hand[suit].remove(rank)
                after = [*trick, (nxt, suit, rank)]
                value = self.solve(hands, after, won, (nxt + 1) % 4, (alpha, beta))
                hand[suit].append(rank)
                hand[suit].sort()
                best = max(best, value) if ours else min(best, value)
                alpha, beta = (max(alpha, value), beta) if ours else (alpha, min(beta, value))
                if alpha >= beta:
                    return best
        return best

    def fits_bids(self, hands: list[list[Card]]) -> float:
        """How well a deal fits the other seats' bids (1: perfectly)."""
        weight = 1.0
        for s in range(4):
            if s != self.seat and self.bids[s]:
                gap = estimate(hands[s] + self.played[s]) + CALIBRATION - self.bids[s]
                if self.bids[s] <= self.rules.get("min_bid", 2):
                    gap = max(gap, 0.0)  # the smallest bid covers weak hands too
                weight *= math.exp(-gap * gap / 4.5)
        return weight

    def deal(self, rng: random.Random) -> Hands:
        """Unseen cards dealt to the others, preferring deals that fit bids."""
        best: list[list[Card]] = []
        best_weight = -1.0
        for _ in range(12):
            hands = self._deal_once(rng)
            weight = self.fits_bids(hands)
            if weight > best_weight:
                best, best_weight = hands, weight
            if rng.random() < weight:
                break
        best[self.seat] = self.mine
        return [[sorted(r for x, r in best[s] if x == suit) for suit in range(4)] for s in range(4)]

    def _deal_once(self, rng: random.Random) -> list[list[Card]]:
        others = [s for s in range(4) if s != self.seat]
        for attempt in range(30):
            strict = attempt < 29  # the last try forgets the voids
            cards = self.unseen[:]
            rng.shuffle(cards)
            options = {
                c: [s for s in others if not (strict and c[0] in self.voids[s])] for c in cards
            }
            cards.sort(key=lambda c: len(options[c]))  # the most constrained first
            room = {s: self.sizes[s] for s in others}
            hands: list[list[Card]] = [[], [], [], []]
            for card in cards:
                seats = [s for s in options[card] if room[s] > 0]
                if not seats:
                    break
                pick = rng.choices(seats, weights=[room[s] for s in seats])[0]
                hands[pick].append(card)
                room[pick] -= 1
            else:
                return hands
        raise RuntimeError("no deal fits the hand sizes")

    def same(self, a: Card, b: Card) -> bool:
        """Whether two of our cards touch: nothing unseen lies between them."""
        lo, hi = sorted((a, b))
        return lo[0] == hi[0] and all((lo[0], r) in self.gone for r in range(lo[1] + 1, hi[1]))


def choose_card(view: Json, deadline: float, rng: random.Random) -> str:
    pos = Position(view)
    cands: list[Card] = []
    for card in sorted(parse(c) for c in view["legal"]):
        if not (cands and pos.same(cands[-1], card)):
            cands.append(card)
    hands = pos.deal(rng)
    need = [b - w for b, w in zip(pos.bids, pos.won, strict=True)]
    base = policy(hands, pos.seat, pos.trick, need)
    if len(cands) == 1:
        return text(*base)
    base_i = next(i for i, c in enumerate(cands) if pos.same(c, base))
    exact, nxt = len(pos.mine) <= ENDGAME, (pos.seat + 1) % 4
    rows: list[list[float]] = []
    while True:
        row = []
        for suit, rank in cands:
            if time.perf_counter() > deadline:
                return text(*cands[pick(rows, base_i)])
            h = [[x[:] for x in hh] for hh in hands]
            h[pos.seat][suit].remove(rank)
            trick = [*pos.trick, (pos.seat, suit, rank)]
            if exact:
                row.append(pos.solve(h, trick, pos.won, nxt, (-math.inf, math.inf)))
            else:
                row.append(pos.outcome(rollout(h, trick, pos.won, pos.bids, nxt)))
        rows.append(row)
        hands = pos.deal(rng)


def pick(rows: list[list[float]], base: int) -> int:
    """The best candidate if it beats ``base`` by Z standard errors."""
    n = len(rows)
    if n < 3:
        return base
    best, best_gain = base, 0.0
    for i in range(len(rows[0])):
        diffs = [r[i] - r[base] for r in rows]
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
        if mean > Z * sd / math.sqrt(n) and mean > best_gain:
            best, best_gain = i, mean
    return best


def answer_act(msg: Json, start: float, rng: random.Random) -> Json | None:
    view, act_id = msg.get("view"), msg.get("id")
    legal = view.get("legal") if isinstance(view, dict) else None
    if not isinstance(view, dict) or not legal or not isinstance(legal, list):
        log(f"act {act_id!r}: no legal actions in the view, no answer")
        return None
    budget = msg.get("budget_ms")
    if not isinstance(budget, (int, float)) or isinstance(budget, bool) or budget <= 0:
        budget = 500
    bidding = isinstance(legal[0], int)
    if len(legal) == 1:
        return {"type": "action", "id": act_id, "bid" if bidding else "card": legal[0]}
    try:  # think for 70% of the budget, counted from reading the act
        deadline = start + 0.7 * budget / 1000.0
        choice = choose_bid(view) if bidding else choose_card(view, deadline, rng)
    except Exception:  # never crash: fall back to the first legal action
        log(f"act {act_id!r} failed:\n{traceback.format_exc()}")
        choice = legal[0]
    if choice not in legal:
        log(f"act {act_id!r}: {choice!r} is not legal, answering {legal[0]!r}")
        choice = legal[0]
    log(f"act {act_id}: {choice} in {1000 * (time.perf_counter() - start):.1f} ms")
    return {"type": "action", "id": act_id, "bid" if bidding else "card": choice}


def handle(msg: object, start: float, rng: random.Random) -> Json | None:
    """The answer to one message from the host (None: no answer)."""
    kind = msg.get("type") if isinstance(msg, dict) else None
    if not isinstance(msg, dict) or kind not in ("hello", "act", "result"):
        log(f"message ignored: {json.dumps(msg)[:100]}")
        return None
    if kind == "hello":
        if msg.get("protocol") != PROTOCOL:
            log(f"hello for protocol {msg.get('protocol')!r}; answering as {PROTOCOL}")
        return {"type": "ready", "name": "pimc-bot", "author": "examples/pimc_bot.py"}
    if kind == "act":
        return answer_act(msg, start, rng)
    view = msg.get("view")
    view = view if isinstance(view, dict) else {}
    keys = ("hand_index", "phase", "seat", "bids", "tricks_won", "scores")
    log("result: " + ", ".join(f"{k} {view.get(k)}" for k in keys))  # one line per hand
    return None


def main() -> None:
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv[:-1] else None
    rng = random.Random(seed)
    for line in iter(sys.stdin.readline, ""):  # the end of input means quit
        start = time.perf_counter()
        try:
            msg = json.loads(line)
        except ValueError:
            if line.strip():
                log(f"not JSON, ignored: {line.strip()[:100]}")
            continue
        if isinstance(msg, dict) and msg.get("type") == "quit":
            return
        answer = handle(msg, start, rng)
        if answer is not None:
            try:
                sys.stdout.write(json.dumps(answer) + "\n")
                sys.stdout.flush()
            except OSError:
                return  # the host has gone


if __name__ == "__main__":
    main()
