"""How much of the real deal the expert's deals find: the search's own
sampler (counts, voids, the bids' fit) against the location model's
(docs/bots.md, "Where the hidden cards lie").

Plays heuristic self-play hands from a seed, stops at random moments of the
play, and deals the hidden cards of the seat to play ``--deals`` times with
each sampler; prints the share of hidden cards dealt to the seat that
really holds them, by sampler and by stage of the hand, each sampler's
time per deal and the network's time per decision (medians over the
moments; same process, same moments).

    .venv/bin/python bench/locations.py --hands 150 --moments 3 --deals 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from fourhundred.bots.heuristic import HeuristicBot
from fourhundred.bots.knowledge import Knowledge
from fourhundred.bots.locations import LocationSampler
from fourhundred.bots.sampling import sample_hands
from fourhundred.engine import GameState, Phase, view_for

_STAGES = ("tricks 1-4", "tricks 5-8", "tricks 9-13")
"""By tricks done before the moment: 0-3, 4-7, 8-12."""


def _moments(seed: int, hands: int, per_hand: int) -> list[tuple[GameState, int]]:
    """(state, seat to play) at ``per_hand`` random moments of each hand."""
    rng = random.Random(seed)
    bot = HeuristicBot()
    out: list[tuple[GameState, int]] = []
    while len(out) < hands * per_hand:
        s = GameState(first_dealer=rng.randrange(4))
        s.deal_random(seed=rng.getrandbits(63))
        while s.phase is Phase.BID:
            s.apply(bot.choose(view_for(s, s.turn)))
        if s.phase is not Phase.PLAY:
            continue
        stops = set(rng.sample(range(1, 52), per_hand))
        for i in range(52):
            if i in stops:
                out.append((s.clone(), s.turn))
            s.apply(bot.choose(view_for(s, s.turn)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--moments", type=int, default=3, help="moments per hand")
    ap.add_argument("--deals", type=int, default=20, help="deals per moment and sampler")
    ap.add_argument("--seed", type=int, default=99)
    a = ap.parse_args()
    found: dict[str, dict[str, list[float]]] = {"uniform": {}, "model": {}}
    times: dict[str, list[float]] = {"uniform": [], "model": []}
    network: list[float] = []
    for n, (s, seat) in enumerate(_moments(a.seed, a.hands, a.moments)):
        v = view_for(s, seat)
        k = Knowledge.from_view(v)
        t0 = time.perf_counter()
        sampler = LocationSampler.for_view(v)
        network.append((time.perf_counter() - t0) * 1000)
        stage = _STAGES[min(2, s.n_tricks // 4)]
        hidden = k.unknown.bit_count()
        for name, deal in (("uniform", sample_hands), ("model", sampler)):
            rng = random.Random(n)
            hits = 0
            t0 = time.perf_counter()
            for _ in range(a.deals):
                hands = deal(k, rng)
                hits += sum((hands[x] & s.hand(x)).bit_count() for x in range(4) if x != seat)
            spent = (time.perf_counter() - t0) / a.deals
            times[name].append(spent * 1000)
            if hidden:
                share = hits / (hidden * a.deals)
                found[name].setdefault(stage, []).append(share)
                found[name].setdefault("all", []).append(share)
    print(f"{n + 1} moments of heuristic self-play (seed {a.seed}), {a.deals} deals each")
    print("share of hidden cards dealt to the seat that holds them:")
    for stage in (*_STAGES, "all"):
        u, m = (statistics.fmean(found[x][stage]) for x in ("uniform", "model"))
        count = len(found["model"][stage])
        print(f"  {stage:12} uniform {u:.1%}   model {m:.1%}   ({count} moments)")
    print("time per deal, median over the moments:")
    for name, ms in times.items():
        print(f"  {name:8} {statistics.median(ms):.3f} ms")
    print(f"the network, once per decision: median {statistics.median(network):.3f} ms")


if __name__ == "__main__":
    main()
