"""The choice model both kinds of decision are judged by: a softmax over
the values of the options, and one decision's verdict from the values
with the partner's real hand and with inferred ones.

>>> v = judged({1: 10.0, 2: 0.0}, [{1: 0.0, 2: 10.0}], chosen=1, beta=0.3)
>>> round(v.llr, 3), v.gain, v.discriminating, v.agrees_true, v.agrees_ref
(3.0, 10.0, True, True, False)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Judged", "judged", "log_softmax"]


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision's verdict (see :class:`.evidence.Evidence`)."""

    llr: float
    gain: float
    discriminating: bool
    agrees_true: bool
    agrees_ref: bool


def log_softmax(values: dict[int, float], beta: float) -> dict[int, float]:
    """The log chance of each option under a softmax of ``beta`` per point."""
    top = max(values.values())
    total = sum(math.exp(beta * (v - top)) for v in values.values())
    log_z = beta * top + math.log(total)
    return {c: beta * v - log_z for c, v in values.items()}


def judged(
    real: dict[int, float], refs: Sequence[dict[int, float]], chosen: int, beta: float
) -> Judged:
    """The verdict on choosing ``chosen`` (a key of every value dict):
    ``l = log p_real(chosen) - mean_j log p_ref_j(chosen)``, the points it
    gains judged with the real hand rather than the inferred ones, and
    which best it agrees with."""
    lp_real = log_softmax(real, beta)[chosen]
    lp_refs = [log_softmax(u, beta)[chosen] for u in refs]
    ref_mean = {c: sum(u[c] for u in refs) / len(refs) for c in real}
    best_real = max(real, key=real.__getitem__)
    best_ref = max(ref_mean, key=ref_mean.__getitem__)
    regret_real = real[best_real] - real[chosen]
    regret_refs = sum(max(u.values()) - u[chosen] for u in refs) / len(refs)
    return Judged(
        llr=lp_real - sum(lp_refs) / len(lp_refs),
        gain=regret_refs - regret_real,
        discriminating=best_real != best_ref,
        agrees_true=chosen == best_real,
        agrees_ref=chosen == best_ref,
    )
