from collections.abc import Sequence
from typing import Any

def init(
    trick_strength: Sequence[Sequence[int]],
    beaters: Sequence[Sequence[int]],
    shown_void: Sequence[Sequence[int]],
    seat_after: Sequence[Sequence[int]],
    above: Sequence[int],
    suit_masks: Sequence[int],
    hearts: int,
    non_hearts: int,
    side_suits: Sequence[int],
    /,
) -> None: ...
def choose_card(
    seat: int,
    hand: int,
    legal: int,
    trick: Sequence[int],
    gone: int,
    voids: Sequence[int],
    bids: Sequence[int],
    won: Sequence[int],
    values: Sequence[int],
    tricks_left: int,
    /,
) -> int: ...
def rollout(state: Any, gone: int, voids: list[int], seen: int = ..., /) -> None: ...
def likelihood(
    state: Any, order: Sequence[int], me: int, noise: float, judge_from: int, /
) -> float: ...
def draw(
    rng: Any,
    chances: bytes | None,
    seat: int,
    hand: int,
    unknown: int,
    caps: Sequence[int],
    voids: Sequence[int],
    rel: Sequence[int] | None,
    played_by: Sequence[int],
    bids: Sequence[int],
    lows: Sequence[int],
    tries: int,
    /,
) -> tuple[list[int] | None, int, bool, list[int] | None, float]: ...
def estimate_tricks(hand: int, /) -> float: ...
def solve(
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    won: Sequence[int],
    bids: Sequence[int],
    outcomes: Sequence[float],
    maximising: Sequence[int],
    /,
) -> dict[int, float]: ...
