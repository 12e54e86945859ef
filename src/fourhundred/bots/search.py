"""The search bot: determinized Monte Carlo search (PIMC) over sampled deals.

For a card decision it samples deals of the hidden cards consistent with
its view (:mod:`.sampling`: counts, voids shown, bids), and for each deal
scores every distinct legal card: by a rollout to the end of the hand with
the heuristic policy on the engine's fast path (``state_from_view``,
``clone``, ``legal_mask``, ``play_unchecked``), or, near the end of the
hand, by solving the rest exactly (:mod:`.solver`). The score is the 400
objective for its team: each player against their own bid at the real bid
values, plus a bonus when the hand decides the game. Common deals for all
cards keep the comparison fair, and the bot leaves the heuristic's own
choice only for an action that beats it deal by deal by more than the
noise of the sample (``z`` standard errors), so that noise alone does not
make it play worse than its rollout policy.

For a bid it simulates whole hands: the later bidders bid as the heuristic
would on their sampled cards, everyone plays the heuristic, and each
candidate bid is valued by what it scores across the deals (a thrown-in
hand scores nothing).

The work is spread over both cores: this process and ``workers - 1``
worker processes each search their own deals until the deadline, and the
tallies are added up. ``iterations`` fixes the number of deals instead of
the time (for tests and analysis: repeatable).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Final

from fourhundred.engine import (
    BID_BASE,
    Action,
    GameState,
    Phase,
    View,
    mask_of,
    team_of,
)

from .base import Bot
from .heuristic import (
    HeuristicBot,
    estimate_tricks,
    heuristic_bid,
    heuristic_card,
)
from .knowledge import ABOVE, Knowledge
from .limits import Limits, Sampler
from .rollout import rollout, team_value, voids_after
from .searchpool import default_workers, worker_pool
from .solver import Scorer, distinct_cards, solve_root
from .tally import Tally, pick

__all__ = [
    "DEFAULT_BUDGET_MS",
    "Z_SCORE",
    "Limits",
    "Sampler",
    "SearchBot",
    "SearchOptions",
    "Tally",
    "default_workers",
    "evaluate",
    "exact_tricks_for",
    "pick",
    "play_candidates",
    "representative",
    "rollout",
]

DEFAULT_BUDGET_MS: Final = 500
Z_SCORE: Final = 1.0
"""Standard errors by which another action must beat the heuristic's
choice, deal by deal, for the bot to prefer it."""
PRUNE_Z: Final = 1.5
"""Standard errors by which a card must trail the heuristic's or the leading
card, deal by deal, to be dropped from a pruning search
(:meth:`.tally.Tally.behind`)."""

_SAFETY: Final = 0.75
"""Share of the budget the search plans to use (the rest covers the
overheads: pickling the view, waking the workers, adding up)."""


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """How the search bot chooses. ``z``: how many standard errors an action
    must gain over the heuristic's choice; ``search_bids`` / ``search_play``
    off leave that phase to the heuristic (for measuring where the search
    gains); ``prune``: stop playing out the cards that fall clearly behind
    the heuristic's or the leading one (their deals go to the others);
    ``fast``: the fast path, the same deals and cards sooner (rollouts and
    the exact solver in C, ``_speedups.c`` and its units, about ten times
    faster than in Python, and each deal set into one state rebuilt from
    the view), so more deals fit the budget. Both are off in the search, the fixed
    baseline the expert is measured against, and on in the expert
    (``prune`` only as an option). ``exact``: solve the play
    exactly from this many tricks left (default: by the budget,
    :func:`exact_tricks_for`). ``seen``: how much the rollouts' seats see
    of the deal (1: which suits the others hold; 2: their cards too, for
    whether a card can be beaten; 3: also for which cards are the top ones
    left; 4: as 2, with leads into the partner's sure winners;
    :func:`.rollout.rollout`)."""

    z: float = Z_SCORE
    search_bids: bool = True
    search_play: bool = True
    prune: bool = False
    fast: bool = False
    exact: int | None = None
    seen: int = 0


def exact_tricks_for(budget_ms: float) -> int:
    """From how many tricks left the play is solved exactly, by budget
    (the search's solver is Python: 5 tricks take tens of ms a deal; the
    fast path's C solver about a millisecond)."""
    if budget_ms >= 2000:
        return 5
    if budget_ms >= 250:
        return 4
    return 3


# ---------------------------------------------------------------- search


def representative(card: int, candidates: Mapping[int, object], k: Knowledge) -> int:
    """The candidate that stands for ``card``: itself, or the highest of the
    touching cards it belongs to (no card in play between them)."""
    if card in candidates:
        return card
    in_play = (~k.gone | sum(1 << c for c in k.trick)) & ((1 << 52) - 1)
    above = ABOVE[card] & in_play
    while above:
        nxt = (above & -above).bit_length() - 1
        if nxt in candidates:
            return nxt
        if not k.hand >> nxt & 1:
            break
        above &= above - 1
    return card


def play_candidates(k: Knowledge) -> list[int]:
    """The distinct legal cards of a play decision (touching cards once)."""
    legal = mask_of(k.legal or ())
    # Touching cards: only the cards the others still hold, and the trick,
    # can come between two of ours.
    in_play = (~k.gone | sum(1 << c for c in k.trick)) & ((1 << 52) - 1)
    return distinct_cards(k.hand, legal, in_play)


def _evaluate_play(view: View, k: Knowledge, rng: random.Random, limits: Limits) -> Tally:
    deadline = limits.deadline
    max_deals = limits.max_deals
    exact = limits.exact
    sampler = limits.dealer()
    # A sampler that weighs its deals (importance weights) says so.
    weighs = bool(getattr(sampler, "weighs", False))
    roll = limits.roller()
    build = limits.builder(view)
    lean = limits.fast  # the rollouts' copies settle the hand only
    tally = Tally()
    cands = play_candidates(k)
    live = set(cands)
    next_prune = 3
    team = team_of(k.seat)
    sc: Scorer | None = None
    per_deal = 0.0
    start = time.monotonic()
    while tally.deals < max_deals:
        now = time.monotonic()
        if tally.deals and now + per_deal > deadline:
            break
        hands = sampler(k, rng)
        base = build(hands)
        if base.phase is not Phase.PLAY:
            break
        if k.tricks_left <= exact:
            # One scorer for every deal: the bids and scores are the view's.
            sc = sc or Scorer.from_state(base, team)
            vals = solve_root(
                base.hands, base.current_trick, base.turn, base.tricks_won, sc, fast=limits.fast
            )
            for c in cands:
                tally.add(c, vals[c])
        else:
            scores = list(base.scores)
            for c in cands:
                if c not in live:
                    tally.add(c, math.nan)
                    continue
                s = base.clone(lean=lean)
                voids = voids_after(k.voids, k.trick, k.seat, c)
                if s.play_unchecked(c):
                    roll(s, k.gone | (1 << c), voids)
                tally.add(c, team_value(s, scores, team))
        tally.deals += 1
        if weighs:
            tally.weights.append(getattr(sampler, "last_weight", 1.0))
        keep = limits.keep
        if keep in live and tally.deals >= next_prune:
            # Judged on a schedule that thins out (every deal up to ten,
            # then every tenth or so of the deals so far): judging every
            # deal costs time in proportion to the deals so far.
            next_prune = max(tally.deals + 1, tally.deals * 11 // 10)
            lead = max(live, key=tally.mean)
            live = {
                c
                for c in live
                if c in (keep, lead)
                or not (tally.behind(c, keep, PRUNE_Z) or tally.behind(c, lead, PRUNE_Z))
            }
            if live == {keep}:
                break  # every other card is clearly behind: nothing left to ask
        per_deal = (time.monotonic() - start) / tally.deals
    return tally


def _world_bids(state: GameState, seat: int, my_bid: int) -> None:
    """Complete the bidding of a sampled deal: ``seat`` bids ``my_bid``,
    the later bidders bid as the heuristic would on their cards."""
    while state.phase is Phase.BID:
        s = state.turn
        if s == seat:
            state.bid_unchecked(my_bid)
            continue
        k = Knowledge.from_view(_bid_view(state, s))
        state.bid_unchecked(heuristic_bid(k, tuple(state.legal_bids())))


def _bid_view(state: GameState, seat: int) -> View:
    from fourhundred.engine import view_for

    return view_for(state, seat)


def _bid_candidates(legal: tuple[int, ...], h: int, asked: tuple[int, ...] | None) -> list[int]:
    if asked is not None:
        return list(asked)
    cands = [b for b in legal if h - 1 <= b <= h + 2 and b != 13]
    return cands if h in cands else [*cands, h]


def _evaluate_bid(view: View, k: Knowledge, rng: random.Random, limits: Limits) -> Tally:
    """Value each legal bid near the heuristic's by simulating whole hands."""
    deadline = limits.deadline
    max_deals = limits.max_deals
    tally = Tally()
    legal = tuple(k.legal or ())
    h = heuristic_bid(k, legal)
    cands = _bid_candidates(legal, h, limits.bids)
    sampler = limits.dealer()
    roll = limits.roller()
    build = limits.builder(view)
    team = team_of(k.seat)
    seat = k.seat
    per_deal = 0.0
    start = time.monotonic()
    # Two simulated bids cover the candidates: playing for h tricks, and
    # pushing for one more (which is how a higher bid would be played).
    sims = sorted({h, min(h + 1, 12)})
    while tally.deals < max_deals:
        now = time.monotonic()
        if tally.deals and now + per_deal > deadline:
            break
        hands = sampler(k, rng)
        base = build(hands)
        outcomes: dict[int, tuple[int, list[int], list[int]]] = {}
        for sb in sims:
            s = base.clone()
            _world_bids(s, seat, sb)
            if s.phase is not Phase.PLAY:
                # Thrown in with this bid: the hand's summary keeps the bids.
                last = s.history[-1]
                by_seat = [b or 0 for b in last.bids_by_seat]
                outcomes[sb] = (-1, by_seat, [0, 0, 0, 0])
                continue
            bids_now = list(s.bids)
            roll(s, 0, [0, 0, 0, 0])
            tricks = list(s.history[-1].tricks)
            outcomes[sb] = (tricks[seat], bids_now, tricks)
        for b in cands:
            sb = sims[-1] if b > h else sims[0]
            mine, sim_bids, won = outcomes[sb]
            bids = sim_bids[:]
            bids[seat] = b
            if sum(bids) < k.required:
                tally.add(b, 0.0)
                continue
            if mine < 0:
                # The simulated bid was thrown in but this one is played:
                # fall back to the other simulation's play.
                other = outcomes[sims[0] if sb != sims[0] else sims[-1]]
                if other[0] < 0:
                    tally.add(b, 0.0)
                    continue
                won = other[2]
            sc = Scorer.create(k.settings, team, bids, k.scores)
            tally.add(b, sc.value(won))
        tally.deals += 1
        per_deal = (time.monotonic() - start) / tally.deals
    return tally


def evaluate(view: View, seed: int, limits: Limits) -> Tally:
    """Search ``view`` (this seat's turn) within ``limits``: the summed team
    value of each candidate action (cards, or bid actions)."""
    k = Knowledge.from_view(view)
    rng = random.Random(seed)
    if view.phase == "bid":
        t = _evaluate_bid(view, k, rng, limits)
        return Tally({BID_BASE + b: vs for b, vs in t.values.items()}, t.deals)
    return _evaluate_play(view, k, rng, limits)


class SearchBot(Bot):
    """Determinized search within a time budget per decision (default
    0.5 s), on this process and ``workers - 1`` others (default: one per
    core). With ``iterations`` it searches that many deals per process
    instead, whatever the time (repeatable for a given seed). ``options``:
    see :class:`SearchOptions`."""

    name = "search"
    uses_processes = True

    def __init__(
        self,
        *,
        seed: int | None = None,
        budget_ms: int | None = None,
        workers: int | None = None,
        iterations: int | None = None,
        options: SearchOptions | None = None,
    ) -> None:
        super().__init__(seed=seed, budget_ms=budget_ms)
        if workers is None and iterations is not None:
            workers = 1  # repeatable: one process, a fixed number of deals
        if workers is None:
            workers = default_workers()
        self.workers = max(1, workers)
        self.iterations = iterations
        self._rng = random.Random(seed)
        self._fallback = HeuristicBot()
        self.last: Tally | None = None
        options = options or SearchOptions()
        self.z = options.z
        self.search_bids = options.search_bids
        self.search_play = options.search_play
        self.prune = options.prune
        self.fast = options.fast
        self.exact = options.exact
        self.seen = options.seen
        if self.workers > 1:
            worker_pool(self.workers - 1)  # start the workers now, not on move one

    def choose(self, view: View) -> Action:
        if view.legal is None:
            raise ValueError("it is not this seat's turn: the view has no legal actions")
        if len(view.legal) == 1 and not view.can_redeal:
            only = view.legal[0]
            return BID_BASE + only if view.phase == "bid" else only
        if view.phase == "bid" and view.can_redeal:
            k = Knowledge.from_view(view)
            if estimate_tricks(k.hand) < 1.5:
                return self._fallback.choose(view)
        k = Knowledge.from_view(view)
        if (view.phase == "bid" and not self.search_bids) or (
            view.phase == "play" and not self.search_play
        ):
            return self._fallback.choose(view)
        cands = play_candidates(k) if view.phase == "play" else []
        if len(cands) == 1:
            return cands[0]
        prior = (
            BID_BASE + heuristic_bid(k, view.legal) if view.phase == "bid" else heuristic_card(k)
        )
        keep = representative(prior, dict.fromkeys(cands), k) if self.prune and cands else None
        tally = self.search(view, keep)
        self.last = tally
        if view.phase == "play":
            rep = representative(prior, tally.values, k)
            best = pick(tally, rep, self.z)
            # The heuristic's own card when the search keeps its choice (a
            # touching card of it is the same card).
            return prior if best == rep else best
        return pick(tally, prior, self.z)

    @property
    def budget(self) -> int:
        """Milliseconds per decision (``budget_ms``, default 500)."""
        return DEFAULT_BUDGET_MS if self.budget_ms is None else max(1, self.budget_ms)

    def sampler(self, view: View) -> Sampler | None:
        """What deals the hidden cards of ``view`` (``None``: the default)."""
        return None

    def search(self, view: View, keep: int | None = None) -> Tally:
        """The tally of every candidate action in ``view``, within the
        budget (or ``iterations`` deals); ``keep``: see :attr:`Limits.keep`."""
        seed = self._rng.getrandbits(63)
        exact = exact_tricks_for(self.budget) if self.exact is None else self.exact
        if self.iterations is not None:
            deadline = float("inf")
            max_deals = self.iterations
        else:
            deadline = time.monotonic() + max(1.0, self.budget * _SAFETY - 3.0) / 1000.0
            max_deals = 1_000_000
        limits = Limits(
            deadline,
            max_deals,
            exact,
            self.sampler(view),
            keep=keep,
            fast=self.fast,
            seen=self.seen,
        )
        futures: list[Future[Tally]] = []
        if self.workers > 1:
            pool = worker_pool(self.workers - 1)
            futures = [
                pool.submit(evaluate, view, seed + i + 1, limits) for i in range(self.workers - 1)
            ]
        tally = evaluate(view, seed, limits)
        for f in futures:
            tally.merge(f.result())
        return tally

    def close(self) -> None:
        # The pool is shared by every search bot of this process; it goes
        # at exit.
        pass
