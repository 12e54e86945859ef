"""The expert bot: the search, reading the other hands from their play, with
the learned bidder.

* **Play**: the determinized search of :mod:`.search` (rollouts with the
  heuristic, the exact solver for the last tricks, the same budget control
  over both cores) on its fast path, about nine times the search's deals
  at 50 ms, its rollouts played by seats that see the deal (``seen=2``:
  which suits the others hold, whether a card can be beaten); the deals
  are the search's own below a budget of ``INFERENCE_FROM_MS``, and from
  it drawn by
  :class:`.inference.PlayInference`: deals on which the others' cards so far
  make sense are favoured. (The learned model of where the hidden cards lie,
  :mod:`.locations`, is an option: with many deals its deals cost what the
  deals gained, docs/bots.md.)
* **Bids**: the search's simulation of whole hands values the bids near the
  heuristic's; the bid it keeps unless another beats it deal by deal is the
  learned bidder's (:mod:`.bidder`) instead of the heuristic's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from fourhundred.engine import BID_BASE, Action, View

from .inference import PlayInference
from .knowledge import Knowledge
from .search import Sampler, SearchBot, SearchOptions, pick

if TYPE_CHECKING:
    from .model import TrickModel

__all__ = ["INFERENCE_FROM_MS", "ExpertBot", "ExpertOptions"]

INFERENCE_FROM_MS: Final = 250
"""Budgets from which the deals are drawn with the inference from play. At
50 ms it cost more deals than it gained (docs/bots.md: the expert with it
was level with the search, without it ahead); from 250 ms the search has
five times the deals. At 250 ms, head to head against the location model's
deals, it scored +0.41 [-0.17, +0.98] over 207 pairs (docs/bots.md)."""


@dataclass(frozen=True, slots=True)
class ExpertOptions(SearchOptions):
    """The search's options and the expert's own. ``inference``: draw the
    deals with the inference from play (default ``None``: from a budget of
    ``INFERENCE_FROM_MS``, and with ``iterations``); off leaves them to the
    search's own sampler. ``inference_window``: judge only the plays of the
    last tricks (cheaper). ``learned_bids`` off keeps the heuristic's bid as
    the prior; ``locations`` on draws the deals with the location model
    where the inference is not used (off by default: on the fast path it
    cost what the deals gained, docs/bots.md), and ``locations_fit`` off
    keeps its deals without weighing them by the bids' fit (the model reads
    the bids itself); ``inference_power``: the inference weighs every deal
    drawn by its likelihood to this power instead of resampling
    (:class:`.inference.PlayInference`); ``bid_calib``: the learned
    bidder's chances calibrated by this ``(a, c, d)`` instead of the
    shipped weights' (:class:`.model.TrickModel`); these are for measuring
    what each part adds.
    ``fast`` is on (the search's option): the deals are searched on the
    fast path (rollouts and deals in C); ``prune`` is off, as in the search
    (it changed nothing measurable on the fast path); ``seen`` is 2 (the
    search's option: the rollouts' seats see the deal; head to head at
    50 ms it gained +0.40 [+0.06, +0.74] a deal over 707 pairs,
    docs/bots.md)."""

    fast: bool = True
    seen: int = 2
    inference: bool | None = None
    learned_bids: bool = True
    inference_window: int | None = None
    locations: bool = False
    locations_fit: bool = True
    inference_power: float | None = None
    bid_calib: tuple[float, float, float] | None = None


class ExpertBot(SearchBot):
    """The strongest built-in bot (see the module's description). Takes the
    search's arguments; ``options``: see :class:`ExpertOptions`."""

    name = "expert"

    def __init__(
        self,
        *,
        seed: int | None = None,
        budget_ms: int | None = None,
        workers: int | None = None,
        iterations: int | None = None,
        options: ExpertOptions | None = None,
    ) -> None:
        options = options or ExpertOptions()
        super().__init__(
            seed=seed, budget_ms=budget_ms, workers=workers, iterations=iterations, options=options
        )
        self.inference = options.inference
        self.learned_bids = options.learned_bids
        self.inference_window = options.inference_window
        self.locations = options.locations
        self.locations_fit = options.locations_fit
        self.inference_power = options.inference_power
        self.bid_model: TrickModel | None = None
        # numpy and the weights are loaded now, not inside the first
        # decision's budget (the import alone takes a good part of a second).
        if self.learned_bids:
            from .model import shipped_model

            m = shipped_model()
            if options.bid_calib is not None:
                self.bid_model = m.recalibrated(options.bid_calib)
        if self.locations and not self.infers:
            from .locations import shipped_locations

            shipped_locations()

    def choose(self, view: View) -> Action:
        if view.phase != "bid" or not self.learned_bids or view.legal is None:
            return super().choose(view)
        if len(view.legal) == 1 and not view.can_redeal:
            return BID_BASE + view.legal[0]
        if view.can_redeal:
            return super().choose(view)  # the search's redeal rule
        from .bidder import model_bid  # numpy, only once a bid is searched

        k = Knowledge.from_view(view)
        prior = BID_BASE + model_bid(k, view.legal, self.bid_model)
        tally = self.search(view)
        self.last = tally
        if prior not in tally.values:
            return prior
        return pick(tally, prior, self.z)

    @property
    def infers(self) -> bool:
        """Whether the deals are drawn with the inference from play."""
        if self.inference is not None:
            return self.inference
        return self.iterations is not None or self.budget >= INFERENCE_FROM_MS

    def sampler(self, view: View) -> Sampler | None:
        """While it plays: the inference from play's sampler (see
        :attr:`infers`), else the location model's; in the bidding, the
        search's own."""
        if view.phase != "play":
            return None
        if self.infers:
            return PlayInference(
                view, window=self.inference_window, fast=self.fast, power=self.inference_power
            )
        if self.locations:
            from .locations import LocationSampler  # numpy, only once it plays

            return LocationSampler.for_view(view, fast=self.fast, fit=self.locations_fit)
        return None
