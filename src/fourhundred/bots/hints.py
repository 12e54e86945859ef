"""Hints for people: what the expert would bid or play now, and why.

:func:`hint` takes the asking seat's view (exactly what that player sees)
and a time budget, and returns the expert's suggestion with a one-line
reason: for a card, the expected points of the two best choices (team
points over the sampled deals); for a bid, the chance of making it. The
server decides who may ask (a table setting, never in Ranked) and marks the
hand; this module only answers.
"""

from __future__ import annotations

from dataclasses import dataclass

from fourhundred.engine import BID_BASE, REDEAL, Action, View, action_str

from .expert import ExpertBot
from .knowledge import Knowledge
from .search import representative

__all__ = ["Hint", "hint"]


@dataclass(frozen=True, slots=True)
class Hint:
    """The suggested ``action`` (an engine action from ``view.legal``), its
    text form (``"bid 4"``, ``"QD"``) and a one-line ``reason``.
    ``chance``: for a bid, the chance of making it; ``values``: for a card,
    the expected team points of the choices compared, best first."""

    action: Action
    text: str
    reason: str
    chance: float | None = None
    values: tuple[tuple[str, float], ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "action": self.text,
            "reason": self.reason,
            "chance": self.chance,
            "values": [list(v) for v in self.values],
        }


def hint(
    view: View, budget_ms: int = 500, *, seed: int | None = None, workers: int | None = None
) -> Hint:
    """The expert's suggestion for the seat of ``view`` (its turn), thinking
    for about ``budget_ms`` (on ``workers`` processes: by default as a bot
    would, one per core, or this process only inside a host's bot pool).
    Raises ``ValueError`` for a view without a turn."""
    if view.legal is None or view.seat is None:
        raise ValueError("a hint needs the view of the seat whose turn it is")
    bot = ExpertBot(seed=seed, budget_ms=budget_ms, workers=workers)
    action = bot.choose(view)
    text = (
        f"bid {action - BID_BASE}"
        if view.phase == "bid" and action != REDEAL
        else action_str(action)
    )
    if action == REDEAL:
        return Hint(action, text, "no ace, king, queen or jack: ask for a new deal")
    if view.phase == "bid":
        from .bidder import chance_of_making

        bid = action - BID_BASE
        p = chance_of_making(view, bid)
        return Hint(action, text, f"bid {bid}: {p:.0%} chance of making it", chance=p)
    tally = bot.last
    if tally is None or len(tally.values) < 2:
        only = "the only sensible card" if len(view.legal) > 1 else "the only legal card"
        return Hint(action, text, f"{text}: {only}")
    ranked = sorted(tally.values, key=tally.mean, reverse=True)
    # The card played stands for its touching cards in the tally.
    first = representative(action, tally.values, Knowledge.from_view(view))
    if first not in tally.values:
        first = ranked[0]
    second = next(a for a in ranked if a != first)
    values = ((text, tally.mean(first)), (action_str(second), tally.mean(second)))
    reason = (
        f"{text}: {values[0][1]:+.1f} expected points; "
        f"next best {values[1][0]}: {values[1][1]:+.1f}"
    )
    return Hint(action, text, reason, values=values)
