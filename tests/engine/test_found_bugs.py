"""Engine bugs found while writing the engine suite (issue 2) and not fixed
yet.

Each test states the input, what the spec or the rest of the API leads one
to expect, and what happens instead. They fail until the engine is fixed;
none is skipped on purpose. When one is fixed, move it to the test file of
its module (the first five bugs found are now in test_state.py,
test_core_parity.py and test_vectors.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from fourhundred.engine import _pycore

try:
    from fourhundred.engine import _speedups as _c_module
except ImportError:  # pragma: no cover - only where no C compiler was at hand
    _c_module = None

HANDS = tuple(0x1FFF << (13 * s) for s in range(4))
EMPTY = (0, 0, 0, 0)

# --------------------------------------------------------------------------
# Bug 6 (low severity: private API, reached only through a crafted pickle):
# the two cores do not refuse the same malformed core states.
#
# Input: PlayCore._core_restore(data) (what GameState.__reduce__ pickles)
# with a card outside 0..51 in the trick or in the done cards, a trick winner
# that is not a seat, a trick count of 14, or a hand mask with bits beyond
# the 52 cards.  Expected: ValueError from both cores, as the C core raises
# ("not a play-core state" / "a card mask has bits beyond the 52 cards").
# Got with the pure-Python core: the state is accepted as it is (a card 52 in
# the trick raises IndexError instead), so a bad pickle gives a corrupt game
# with one core and an error with the other.

MALFORMED = {
    "a card 52 in the trick": (HANDS, 0, (52,), (), (), EMPTY, -1),
    "a card -1 played": (HANDS, 0, (), (-1, 1, 2, 3), (0,), (1, 0, 0, 0), -1),
    "a trick won by seat 4": (HANDS, 0, (), (0, 1, 2, 3), (4,), (1, 0, 0, 0), -1),
    "14 tricks won": (HANDS, 0, (), (), (), (14, 0, 0, 0), -1),
    "a mask beyond 52 cards": ((HANDS[0] | 1 << 52, *HANDS[1:]), 0, (), (), (), EMPTY, -1),
}


def cores() -> list[Any]:
    out = []
    for module in (_pycore, *([_c_module] if _c_module else [])):

        class Core(module.PlayCore):  # type: ignore[name-defined,misc]
            def _hand_over(self) -> None:
                pass

        out.append(Core())
    return out


@pytest.mark.parametrize("data", list(MALFORMED.values()), ids=list(MALFORMED))
def test_both_cores_refuse_a_malformed_core_state(data: tuple[Any, ...]) -> None:
    for core in cores():
        with pytest.raises(ValueError):
            core._core_restore(data)
