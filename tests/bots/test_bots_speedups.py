"""The bots' C inner loops (``bots/_speedups.c``) do what their Python twins
do. The rollout plays the very cards of ``rollout.rollout`` with
``heuristic.choose_card``: the same final states on the same deals, and the
same card in every position, including positions with invented voids, bids
and tricks won that reach the rarer branches of the heuristic. The location
model's deal and the search's own deal of the hidden cards give the same
hands from the same random draws."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from fourhundred.bots import rollout as rollout_module
from fourhundred.bots import sampling
from fourhundred.bots.expert import ExpertBot, ExpertOptions
from fourhundred.bots.heuristic import HeuristicBot, choose_card, estimate_tricks
from fourhundred.bots.inference import PlayInference, play_likelihood
from fourhundred.bots.knowledge import FULL, SUIT_MASKS, SUIT_OF, Knowledge
from fourhundred.bots.locations import LocationSampler
from fourhundred.bots.sampling import sample_hands
from fourhundred.bots.search import SearchBot, SearchOptions
from fourhundred.engine import (
    GameState,
    Phase,
    View,
    deal_masks,
    mask_of,
    parse_card,
    preset,
    state_from_view,
    view_for,
)

if rollout_module.fast_rollout is None:  # pragma: no cover - the build has no C compiler
    pytest.skip("the C rollout is not built", allow_module_level=True)

from fourhundred.bots import _speedups


def _play_state(rng: random.Random, preset_name: str, thirteen: bool) -> GameState:
    """A deal bid by the heuristic (or with a 13 bid first), some cards in."""
    s = GameState(preset(preset_name), first_dealer=rng.randrange(4))
    s.deal(deal_masks(rng))
    h = HeuristicBot()
    if thirteen and 13 in s.legal_bids():
        s.bid(13)
    while s.phase is Phase.BID:
        s.apply(h.choose(view_for(s, s.turn)))
    for _ in range(rng.randrange(0, 30)):
        if s.phase is not Phase.PLAY:
            break
        legal = [c for c in range(52) if s.legal_mask() >> c & 1]
        s.play_unchecked(rng.choice(legal))
    return s


def _states(n: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < n:
        s = _play_state(rng, rng.choice(("standard", "traditional")), rng.random() < 0.3)
        if s.phase is Phase.PLAY:
            out.append(s)
    return out


def test_the_c_rollout_ends_every_hand_as_the_python_one() -> None:
    thirteens = 0
    for s in _states(300, seed=5):
        thirteens += s.thirteen_bidder >= 0
        k = Knowledge.from_view(view_for(s, s.turn))
        py, c = s.clone(), s.clone()
        py_voids, c_voids = list(k.voids), list(k.voids)
        rollout_module.rollout(py, k.gone, py_voids)
        _speedups.rollout(c, k.gone, c_voids)
        assert c.plays == py.plays
        assert c.scores == py.scores
        assert c_voids == py_voids
        assert c.phase is py.phase
    assert thirteens >= 5  # the hands a 13 bid ends early are among them


@pytest.mark.parametrize("seen", [1, 2, 3, 4])
def test_a_rollout_that_sees_the_deal_is_the_same_in_c_and_changes_the_play(seen: int) -> None:
    differ = 0
    for s in _states(200, seed=6):
        k = Knowledge.from_view(view_for(s, s.turn))
        py, c, blind = s.clone(), s.clone(), s.clone()
        py_voids, c_voids, blind_voids = list(k.voids), list(k.voids), list(k.voids)
        rollout_module.rollout(py, k.gone, py_voids, seen)
        _speedups.rollout(c, k.gone, c_voids, seen)
        # Each level against the one it builds on: every step changes the
        # play (4 is 2 with leads into the partner's winners, not 3's reading).
        rollout_module.rollout(blind, k.gone, blind_voids, 2 if seen == 4 else seen - 1)
        assert c.plays == py.plays
        assert c.scores == py.scores
        assert c_voids == py_voids
        if py.plays == blind.plays:
            # The voids given back are still the ones the play showed.
            assert py_voids == blind_voids
        differ += py.plays != blind.plays
    assert differ >= 20  # seeing more of the deal changes how the hand is played


def test_the_true_voids_are_the_suits_a_hand_lacks() -> None:
    hand = mask_of(parse_card(c) for c in ("AH", "2C"))
    voids = rollout_module.true_voids([hand, FULL ^ hand, 0, 0])
    held = SUIT_MASKS[SUIT_OF[parse_card("AH")]] | SUIT_MASKS[SUIT_OF[parse_card("2C")]]
    assert voids[0] == FULL ^ held
    assert voids[1] == 0
    assert voids[2] == voids[3] == FULL


def _random_position(rng: random.Random) -> tuple[object, ...]:
    s = _play_state(rng, "standard", False)
    while s.phase is not Phase.PLAY:
        s = _play_state(rng, "standard", False)
    k = Knowledge.from_view(view_for(s, s.turn))
    voids = list(k.voids)
    bids = list(k.bids)
    won = list(k.won)
    if rng.random() < 0.6:  # invent what the heuristic reads, within reason
        voids = [v | (SUIT_MASKS[rng.randrange(4)] if rng.random() < 0.3 else 0) for v in voids]
        bids = [rng.randrange(0, 8) for _ in range(4)]
        won = [rng.randrange(0, 4) for _ in range(4)]
    return (
        k.seat,
        k.hand,
        mask_of(k.legal or ()),
        list(k.trick),
        k.gone,
        voids,
        bids,
        won,
        list(k.values),
        k.tricks_left,
    )


def test_the_c_heuristic_chooses_every_card_as_the_python_one() -> None:
    rng = random.Random(11)
    leads = 0
    for _ in range(3000):
        args = _random_position(rng)
        leads += not args[3]
        assert _speedups.choose_card(*args) == choose_card(*args), args  # type: ignore[arg-type]
    assert leads > 100


def test_the_c_estimate_of_a_hands_tricks_is_the_python_one_to_the_last_bit() -> None:
    rng = random.Random(4)
    hands = [h for _ in range(3000) for h in deal_masks(rng)]
    for _ in range(5000):  # long suits and void suits, rare in fair deals
        pool = [c for s in rng.sample(range(4), 2) for c in range(13 * s, 13 * s + 13)]
        hands.append(mask_of(rng.sample(pool, 13)))
    for h in hands:
        assert _speedups.estimate_tricks(h) == estimate_tricks(h), h


def test_bad_arguments_are_refused_not_misread() -> None:
    with pytest.raises(ValueError, match="no legal card"):
        _speedups.choose_card(0, 1, 0, [], 0, [0] * 4, [0] * 4, [0] * 4, [0] * 4, 13)
    with pytest.raises(ValueError, match="not a seat"):
        _speedups.choose_card(4, 1, 1, [], 0, [0] * 4, [0] * 4, [0] * 4, [0] * 4, 13)
    with pytest.raises(ValueError, match="bits beyond"):
        _speedups.choose_card(0, 1 << 60, 1, [], 0, [0] * 4, [0] * 4, [0] * 4, [0] * 4, 13)
    with pytest.raises(ValueError, match="at most 3 cards"):
        _speedups.choose_card(0, 1, 1, [1, 2, 3, 4], 0, [0] * 4, [0] * 4, [0] * 4, [0] * 4, 13)
    with pytest.raises(ValueError, match="voids"):
        _speedups.choose_card(0, 1, 1, [], 0, [0] * 3, [0] * 4, [0] * 4, [0] * 4, 13)


def test_the_c_location_deal_gives_the_python_deals_from_the_same_draws() -> None:
    checked = 0
    for i, s in enumerate(_states(60, seed=8)):
        v = view_for(s, s.turn)
        k = Knowledge.from_view(v)
        fast = LocationSampler.for_view(v)
        slow = dataclasses.replace(fast, fast=False)
        a, b = random.Random(i), random.Random(i)
        for _ in range(5):
            assert fast(k, a) == slow(k, b)
        assert a.getstate() == b.getstate()  # the same draws, no more, no fewer
        checked += any(k.voids)
    assert checked >= 10  # positions with voids shown are among them


def test_the_c_search_deal_gives_the_python_deals_from_the_same_draws() -> None:
    """The search's sampler on the fast path: the same deals, weighed by the
    bids the same way, from the same draws (and the careful deal that takes
    over after dead ends, still Python, is reached: positions with voids)."""
    checked = 0
    for i, s in enumerate(_states(80, seed=9)):
        k = Knowledge.from_view(view_for(s, s.turn))
        a, b = random.Random(i), random.Random(i)
        for _ in range(5):
            assert sample_hands(k, a, fast=True) == sample_hands(k, b)
            assert sample_hands(k, a, False, fast=True) == sample_hands(k, b, False)
        assert a.getstate() == b.getstate()  # the same draws, no more, no fewer
        checked += sum(v.bit_count() for v in k.voids) >= 2
    assert checked >= 10  # positions with voids shown are among them


class _CountingRandom(random.Random):
    """A generator whose own ``random`` the C must call (not the base's)."""

    calls = 0

    def random(self) -> float:
        self.calls += 1
        return super().random()


def test_a_generator_that_overrides_its_methods_is_called_through_them() -> None:
    for i, s in enumerate(_states(10, seed=11)):
        k = Knowledge.from_view(view_for(s, s.turn))
        a, b = _CountingRandom(i), _CountingRandom(i)
        assert sample_hands(k, a, fast=True) == sample_hands(k, b)
        assert a.calls == b.calls > 0
        assert a.getstate() == b.getstate()


def _split_suits_view(rng: random.Random) -> tuple[GameState, Knowledge]:
    """The first lead of a deal where one opponent holds only the first two
    suits and another only the last two, and the seat to lead knows it (the
    voids): random deals of the hidden cards often run into dead ends."""
    while True:
        me = rng.randrange(4)
        a, b, c = (s for s in range(4) if s != me)
        cards = list(range(52))
        rng.shuffle(cards)
        rest = cards[13:]
        low = [x for x in rest if x < 26]
        high = [x for x in rest if x >= 26]
        if len(low) < 13 or len(high) < 13:
            continue
        hands = [0, 0, 0, 0]
        hands[me] = mask_of(cards[:13])
        hands[a], hands[b] = mask_of(low[:13]), mask_of(high[:13])
        hands[c] = mask_of(low[13:] + high[13:])
        s = GameState(preset("standard"), first_dealer=(me + 3) % 4)
        s.deal((hands[0], hands[1], hands[2], hands[3]))
        h = HeuristicBot()
        while s.phase is Phase.BID:
            s.apply(h.choose(view_for(s, s.turn)))
        if s.phase is not Phase.PLAY:
            continue
        k = Knowledge.from_view(view_for(s, me))
        for seat in (a, b, c):
            k.voids[seat] = sum(m for m in SUIT_MASKS if not s.hand(seat) & m)
        return s, k


def test_the_search_deal_after_dead_ends_is_the_python_one_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where random deals run into dead ends, the loop goes on in Python
    with the careful deal after three: still the same deals."""
    careful = 0
    real = sampling._deal_careful

    def counted(*args: Any) -> list[int] | None:
        nonlocal careful
        careful += 1
        return real(*args)

    monkeypatch.setattr(sampling, "_deal_careful", counted)
    rng = random.Random(3)
    for i in range(30):
        _, k = _split_suits_view(rng)
        a, b = random.Random(i), random.Random(i)
        for _ in range(3):
            assert sample_hands(k, a, fast=True) == sample_hands(k, b)
        assert a.getstate() == b.getstate()
    assert careful >= 100  # the careful deal took over many times


def test_a_deal_with_no_room_left_or_bad_arguments_are_refused() -> None:
    chances = LocationSampler.for_view(view_for(_states(1, seed=2)[0], 0)).packed
    rest = ([0] * 4, [0] * 4, [0] * 4, [0] * 4, [0] * 4)
    for packed, rel in ((chances, [0] * 4), (None, None)):
        # One unknown card and no seat with room for it: a dead end.
        kept, tried, dead, best, _ = _speedups.draw(
            random.Random(1), packed, 0, 0, 1, *rest[:2], rel, *rest[2:], 12
        )
        assert (kept, tried, dead, best) == (None, 1, True, None)
    with pytest.raises(ValueError, match="packed doubles"):
        _speedups.draw(random.Random(1), b"", 0, 0, 1, *rest[:2], [0] * 4, *rest[2:], 1)
    with pytest.raises(ValueError, match="not a seat"):
        _speedups.draw(random.Random(1), None, 5, 0, 1, *rest[:2], None, *rest[2:], 1)
    with pytest.raises(ValueError, match="caps"):
        _speedups.draw(random.Random(1), None, 0, 0, 1, [0, 14, 0, 0], [0] * 4, None, *rest[2:], 1)
    with pytest.raises(ValueError, match="rel"):
        _speedups.draw(random.Random(1), chances, 0, 0, 1, *rest[:2], [0, 3, 0, 0], *rest[2:], 1)


def _decisions(n: int, seed: int) -> list[View]:
    """Views of the seat to act: bids and cards, from heuristic self-play."""
    rng = random.Random(seed)
    h = HeuristicBot()
    out: list[View] = []
    while len(out) < n:
        s = GameState(preset("standard"), first_dealer=rng.randrange(4))
        s.deal(deal_masks(rng))
        stop = rng.randrange(0, 40)
        while s.phase in (Phase.BID, Phase.PLAY) and stop > 0:
            s.apply(h.choose(view_for(s, s.turn)))
            stop -= 1
        if s.phase in (Phase.BID, Phase.PLAY) and len(s.legal_actions()) > 1:
            out.append(view_for(s, s.turn))
    return out


def _searcher(kind: str, fast: bool, seed: int) -> SearchBot:
    if kind == "search":
        return SearchBot(seed=seed, iterations=12, options=SearchOptions(fast=fast))
    if kind == "inference":
        return ExpertBot(seed=seed, iterations=12, options=ExpertOptions(fast=fast))
    if kind == "weighed":
        options = ExpertOptions(fast=fast, inference_power=0.5)
        return ExpertBot(seed=seed, iterations=12, options=options)
    options = ExpertOptions(fast=fast, inference=False, locations=True)
    return ExpertBot(seed=seed, iterations=12, options=options)


def test_the_fast_path_searches_the_same_deals_to_the_same_values() -> None:
    """With a fixed number of deals, the search and the expert (the location
    model's deals, and the inference from play's, resampled or weighed)
    find the very same tallies on and off the fast path."""
    phases = set()
    for i, v in enumerate(_decisions(16, seed=21)):
        phases.add(v.phase)
        for kind in ("search", "expert", "inference", "weighed"):
            slow = _searcher(kind, False, i).search(v)
            fast = _searcher(kind, True, i).search(v)
            assert fast.deals == slow.deals == 12
            assert fast.values.keys() == slow.values.keys()
            for a, vs in slow.values.items():
                assert fast.values[a] == vs, (kind, i, a)
            assert fast.weights == slow.weights
    assert phases == {"bid", "play"}


def _played_views(n: int, seed: int) -> list[tuple[GameState, View]]:
    """Play decisions after a few tricks of heuristic self-play, with the
    state they were seen from."""
    rng = random.Random(seed)
    h = HeuristicBot()
    out: list[tuple[GameState, View]] = []
    while len(out) < n:
        s = GameState(preset(rng.choice(("standard", "traditional"))))
        s.deal(deal_masks(rng))
        while s.phase is Phase.BID:
            s.apply(h.choose(view_for(s, s.turn)))
        for _ in range(rng.randrange(1, 45)):
            if s.phase is not Phase.PLAY:
                break
            s.apply(h.choose(view_for(s, s.turn)))
        if s.phase is Phase.PLAY and len(s.legal_cards()) > 1:
            out.append((s, view_for(s, s.turn)))
    return out


def test_the_c_likelihood_is_the_python_one_to_the_last_bit() -> None:
    """The same product over the same plays, on the real deal and on drawn
    ones, for every noise and window."""
    for i, (state, view) in enumerate(_played_views(40, seed=31)):
        k = Knowledge.from_view(view)
        rng = random.Random(i)
        deals = [list(state.hands), *(sample_hands(k, rng) for _ in range(4))]
        for noise, window in ((0.35, None), (0.0, None), (0.2, 1), (0.5, 2)):
            inf = PlayInference(view, noise=noise, window=window)
            for hands in deals:
                whole = [hands[s] | k.played_by[s] for s in range(4)]
                args = (inf.order, inf.seat, noise, inf.judge_from)
                py = play_likelihood(state_from_view(inf.start_view, whole), *args)
                c = _speedups.likelihood(state_from_view(inf.start_view, whole), *args)
                assert c == py, (i, noise, window)
        assert PlayInference(view).likelihood(k, list(state.hands)) > 0


def test_the_fast_inference_keeps_the_python_deal_from_the_same_draws() -> None:
    for i, (_state, view) in enumerate(_played_views(30, seed=32)):
        k = Knowledge.from_view(view)
        slow, fast = PlayInference(view), PlayInference(view, fast=True)
        r1, r2 = random.Random(i), random.Random(i)
        for _ in range(5):
            assert fast(k, r2) == slow(k, r1), i
        assert r1.getstate() == r2.getstate()
        assert fast.weighted(k, r2, 3) == slow.weighted(k, r1, 3)


def test_the_c_likelihood_refuses_a_card_that_is_not_legal() -> None:
    state, view = _played_views(1, seed=33)[0]
    inf = PlayInference(view)
    k = Knowledge.from_view(view)
    start = state_from_view(inf.start_view, [state.hands[s] | k.played_by[s] for s in range(4)])
    bad = next(c for c in range(52) if not start.legal_mask() >> c & 1)
    with pytest.raises(ValueError, match="not a legal play"):
        _speedups.likelihood(start, [bad], -1, 0.35, 0)
    with pytest.raises(TypeError):
        _speedups.likelihood(start, [bad], -1, 0.35)


def test_the_c_loops_compute_no_rule_of_their_own() -> None:
    """The engine is the only place a rule is computed: the C takes the
    engine's tables and plays through ``play_unchecked``. A guard against the
    shapes a copied rule takes in C (seat arithmetic, a suit compared)."""
    import re
    from pathlib import Path

    here = Path(_speedups.__file__).parent
    units = sorted(here.glob("_*.[ch]"))
    assert {u.name for u in units} >= {
        "_speedups.c",
        "_walk.c",
        "_heuristic.c",
        "_deal.c",
        "_solve.c",
        "_speedups.h",
    }
    source = "\n".join(u.read_text() for u in units)
    code = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    for shape in (
        r"%\s*4\b",
        r"&\s*3\b",
        r"\^\s*2\b",
        r"/\s*13\s*[=!<>]=?",
        r"\bsuit\w*\s*==\s*2\b",
    ):
        assert not re.search(shape, code), shape
    assert "play_unchecked" in source and "TRICK_STRENGTH" in source
    assert "ENGINE->legal" in source and "ENGINE->winner" in source
