"""The choice models decisions are judged by, and one decision's verdict
from the values with the partner's real hand and with inferred ones.

Three models: a softmax over the values of the options (``beta`` per
point; the bids'), the chance that each option is the best of the
means over a resample of the deals valued (:func:`argmax_log_probs`: a
player who takes the best option by its own sample of as many deals, the
cards' since session 22), and the chance that the search's own rule
picks it on such a resample (:func:`pick_log_probs`: the heuristic's
option unless another beats it deal by deal by a standard error;
screened in session 28).

>>> v = judged({1: 10.0, 2: 0.0}, [{1: 0.0, 2: 10.0}], chosen=1, beta=0.3)
>>> round(v.llr, 3), v.gain, v.discriminating, v.agrees_true, v.agrees_ref
(3.0, 10.0, True, True, False)
>>> t = Tally({1: [3.0, 5.0, 4.0], 2: [0.0, 1.0, 0.5]}, deals=3)
>>> [round(math.exp(lp[1]), 3) for lp in argmax_log_probs([t], draws=50, eps=0.1, seed=1)]
[0.95]
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ..tally import Tally

__all__ = [
    "Judged",
    "SearchRule",
    "argmax_log_probs",
    "argmax_shares",
    "judged",
    "log_softmax",
    "mixture_llr",
    "pick_log_probs",
    "pick_shares",
    "smoothed_log",
    "verdict",
]


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision's verdict (see :class:`.evidence.Evidence`)."""

    llr: float
    gain: float
    discriminating: bool
    agrees_true: bool
    agrees_ref: bool
    chosen_log_probs: tuple[float, ...] = ()
    """The log chance of the option chosen under the model given each
    partner hand, the real one first (what :func:`mixture_llr` weighs)."""


def mixture_llr(log_probs: Sequence[float], rate: float) -> float:
    """A decision's evidence against a player who is told the partner's
    hand on a share ``rate`` of decisions: with ``p_x`` the chance of the
    option chosen given partner hand ``x`` (the real one first) and ``s``
    their mean over all the hands, ``h(x) = log(rate * p_x + (1 - rate) *
    s)`` and ``l = h(real) - mean_j h(inferred_j)``.

    ``rate`` 1 is the plain ``log p_real - mean_j log p_j``. A smaller rate
    is the likelihood ratio of a cheat who plays as told on that share of
    decisions and by their own view on the rest: a decision where the
    real hand's model gives the card played little chance costs at most
    ``log((1 + rate * (k - 1)) / (1 - rate))`` for ``k`` partner hands,
    not the model's whole log ratio. ``s`` is the same for every hand, so
    ``h`` is one function of each partner hand and the null (the real hand
    one more draw of the inferred ones) still gives ``l`` a mean of zero
    (docs/fair-play.md, "The mixture (session 27)").

    >>> round(mixture_llr([math.log(0.5), math.log(0.25)], 1.0), 4) == round(math.log(2), 4)
    True
    >>> round(mixture_llr([math.log(0.01), math.log(0.5)], 0.25), 3)
    -0.49
    """
    if not 0.0 < rate <= 1.0:
        raise ValueError(f"the rate is in (0, 1], not {rate}")
    if rate == 1.0:
        return log_probs[0] - sum(log_probs[1:]) / (len(log_probs) - 1)
    ps = [math.exp(lp) for lp in log_probs]
    s = (1.0 - rate) * sum(ps) / len(ps)
    h = [math.log(rate * p + s) for p in ps]
    return h[0] - sum(h[1:]) / (len(h) - 1)


def log_softmax(values: dict[int, float], beta: float) -> dict[int, float]:
    """The log chance of each option under a softmax of ``beta`` per point."""
    top = max(values.values())
    total = sum(math.exp(beta * (v - top)) for v in values.values())
    log_z = beta * top + math.log(total)
    return {c: beta * v - log_z for c, v in values.items()}


def _resampled(
    tallies: Sequence[Tally], draws: int, seed: int, size: int | None = None
) -> Iterator[tuple[list[int], np.ndarray, np.ndarray]]:
    """For each tally, its options, its values (options x deals) and the
    deals of ``draws`` resamples (draws x ``size`` or as many as it has,
    with replacement, weighted if the tally is): the same draws for every
    tally, so that a model worked out on them is one function of each."""
    rng = np.random.default_rng(seed)
    n = max(t.deals for t in tallies)
    picks = rng.random((draws, size or n))
    for t in tallies:
        options = sorted(t.values)
        m = np.array([t.values[c] for c in options], dtype=float)
        w = np.asarray(t.weights, dtype=float) if t.weights else np.ones(m.shape[1])
        cum = np.cumsum(w) / w.sum()
        take = picks if size else picks[:, : m.shape[1]]
        yield options, m, np.minimum(np.searchsorted(cum, take), m.shape[1] - 1)


def argmax_shares(
    tallies: Sequence[Tally], draws: int, seed: int, size: int | None = None
) -> list[dict[int, float]]:
    """For each tally, the share of ``draws`` resamples of its deals (as
    many as it has, or ``size``, with replacement, weighted if the tally
    is) in which each option's mean is the best (ties shared). Every tally
    is resampled with the same draws, so that the shares are the same
    function of each (the null of the detector needs the model symmetric)."""
    out = []
    for options, m, idx in _resampled(tallies, draws, seed, size):
        means = np.nanmean(m[:, idx], axis=2)  # options x draws
        best = np.isclose(means, np.nanmax(means, axis=0))
        share = (best / best.sum(axis=0)).mean(axis=1)
        out.append({c: float(p) for c, p in zip(options, share, strict=True)})
    return out


@dataclass(frozen=True, slots=True)
class SearchRule:
    """The search's rule of choice (:func:`..tally.pick`): ``prior``, the
    heuristic's option (a function of the player's view alone), unless
    another beats it deal by deal by more than ``z`` standard errors;
    ``size``: the deals the player decides on, when fewer than were
    valued (each resample is of that many; ``None``, as many as valued)."""

    prior: int
    z: float = 1.0
    size: int | None = None


def pick_shares(
    tallies: Sequence[Tally], rule: SearchRule, draws: int, seed: int
) -> list[dict[int, float]]:
    """For each tally, the share of ``draws`` resamples of its deals (of
    ``rule.size`` deals, or as many as it has) in which the search's
    ``rule`` takes each option: the prior unless
    another option's mean difference over it, deal by deal, is more than
    ``z`` standard errors above zero; then the one whose edge is the
    largest (ties shared). With the prior not among the options, the rule
    takes the best mean, so the shares are :func:`argmax_shares`'.
    Every tally is resampled with the same draws, so the shares are one
    function of each (the detector's null).

    >>> t = Tally({1: [3.0, 3.2, 2.9, 3.1], 2: [3.0, 3.1, 3.0, 3.0]}, deals=4)
    >>> argmax_shares([t], 200, 1)[0][2] > 0.05, pick_shares([t], SearchRule(2), 200, 1)[0][2] > 0.5
    (True, True)
    """
    prior, z = rule.prior, rule.z
    if any(prior not in t.values for t in tallies):
        return argmax_shares(tallies, draws, seed, rule.size)
    out = []
    for options, m, idx in _resampled(tallies, draws, seed, rule.size):
        p = options.index(prior)
        d = m[:, idx] - m[p, idx]  # options x draws x deals: differences over the prior
        count = np.sum(~np.isnan(d), axis=2)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.nanmean(d, axis=2)
            se = np.nanstd(d, axis=2, ddof=1) / np.sqrt(count)
        edge = np.where(count >= 2, mean - z * se, -np.inf)
        edge[p] = -np.inf
        top = np.max(edge, axis=0)
        switch = top > 0.0
        best = np.isclose(edge, top) & switch
        best[p] = ~switch
        share = (best / best.sum(axis=0)).mean(axis=1)
        out.append({c: float(x) for c, x in zip(options, share, strict=True)})
    return out


def pick_log_probs(
    tallies: Sequence[Tally], rule: SearchRule, draws: int, eps: float, seed: int
) -> list[dict[int, float]]:
    """For each tally, the log chance of each option under a player who
    decides by the search's rule on a sample of as many deals
    (:func:`pick_shares`), mixed with ``eps`` of the uniform."""
    return [smoothed_log(s, eps) for s in pick_shares(tallies, rule, draws, seed)]


def smoothed_log(shares: dict[int, float], eps: float) -> dict[int, float]:
    """The log of ``shares`` mixed with ``eps`` of the uniform."""
    k = len(shares)
    return {c: math.log((1.0 - eps) * p + eps / k) for c, p in shares.items()}


def argmax_log_probs(
    tallies: Sequence[Tally], draws: int, eps: float, seed: int, size: int | None = None
) -> list[dict[int, float]]:
    """For each tally, the log chance of each option under a player who
    takes the option with the best mean over a sample of as many deals as
    the tally has (or ``size``): :func:`argmax_shares` mixed with ``eps``
    of the uniform."""
    return [smoothed_log(s, eps) for s in argmax_shares(tallies, draws, seed, size)]


def judged(
    real: dict[int, float],
    refs: Sequence[dict[int, float]],
    chosen: int,
    beta: float,
    rate: float = 1.0,
) -> Judged:
    """The verdict on choosing ``chosen`` (a key of every value dict) under
    the softmax of ``beta`` per point (see :func:`verdict`)."""
    model = [log_softmax(v, beta) for v in (real, *refs)]
    return verdict(real, refs, chosen, model, rate)


def verdict(
    real: dict[int, float],
    refs: Sequence[dict[int, float]],
    chosen: int,
    model: Sequence[dict[int, float]],
    rate: float = 1.0,
) -> Judged:
    """The verdict on choosing ``chosen`` (a key of every value dict), given
    the choice model's log chances with the real hand and each inferred one
    (``model``, in that order): ``l`` of :func:`mixture_llr` at ``rate``
    (at 1, ``log p_real(chosen) - mean_j log p_ref_j(chosen)``), the
    points it gains judged with the real hand rather than the inferred
    ones, and which best it agrees with."""
    chosen_lp = tuple(lp[chosen] for lp in model)
    ref_mean = {c: sum(u[c] for u in refs) / len(refs) for c in real}
    best_real = max(real, key=real.__getitem__)
    best_ref = max(ref_mean, key=ref_mean.__getitem__)
    regret_real = real[best_real] - real[chosen]
    regret_refs = sum(max(u.values()) - u[chosen] for u in refs) / len(refs)
    return Judged(
        llr=mixture_llr(chosen_lp, rate),
        gain=regret_refs - regret_real,
        discriminating=best_real != best_ref,
        agrees_true=chosen == best_real,
        agrees_ref=chosen == best_ref,
        chosen_log_probs=chosen_lp,
    )
