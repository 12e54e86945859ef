"""The families of hostile frames by name (:data:`FAMILIES`), the ones the
test suite fires (:data:`SUITE_FAMILIES`: all but the
:data:`KNOWN_BUG_FAMILIES`), and the strategies that draw one action
(:func:`spec_strategy`) or a batch of them (:func:`batches`) from them.
"""

from __future__ import annotations

from fh_fuzz_ids import Spec
from fh_fuzz_moves import (
    bad_joins,
    illegal_moves,
    not_a_player,
    other_seat,
    out_of_turn,
    replayed,
    room_commands,
    stale,
)
from fh_fuzz_transport import (
    bad_utf8,
    deep_nesting,
    floods,
    huge_ids,
    junk_binary,
    junk_bursts,
    junk_text,
    not_objects,
    oversized,
    oversized_multibyte,
    shapes,
)
from hypothesis import strategies as st

FAMILIES: dict[str, st.SearchStrategy[Spec]] = {
    "junk_text": junk_text(),
    "binary": junk_binary(),
    "not_object": not_objects(),
    "shape": shapes(),
    "huge_id": huge_ids(),
    "out_of_turn": out_of_turn(),
    "other_seat": other_seat(),
    "not_a_player": not_a_player(),
    "stale": stale(),
    "illegal": illegal_moves(),
    "room_cmd": room_commands(),
    "replayed": replayed(),
    "bad_join": bad_joins(),
    "oversize": oversized(),
    "oversize_multibyte": oversized_multibyte(),
    "flood": floods(),
    "junk_burst": junk_bursts(),
    "bad_utf8": bad_utf8(),
    "deep_nesting": deep_nesting(),
}
"""Every family of hostile frames, by name."""

KNOWN_BUG_FAMILIES: tuple[str, ...] = ()
"""Families that find server bugs still open (each with a failing test in
tests/security/test_server_bugs_found.py). ``bench/fuzz.py`` fires them and
reports what they find; the suite's fuzz test leaves them out until the bugs
are fixed, so that it keeps guarding everything else. (``deep_nesting`` and
``oversize_multibyte`` were here until the server fixed what they found; see
tests/fuzz/test_fuzz_regressions.py.)"""

SUITE_FAMILIES = tuple(f for f in FAMILIES if f not in KNOWN_BUG_FAMILIES)

_HEAVY = frozenset(
    {"oversize", "oversize_multibyte", "flood", "junk_burst", "bad_utf8", "deep_nesting"}
)


def spec_strategy(families: tuple[str, ...] = SUITE_FAMILIES) -> st.SearchStrategy[Spec]:
    """One fuzz action from ``families``, the family picked evenly (so that
    Hypothesis's bias towards the first choice does not starve the others),
    the costly ones (that close their socket, send a megabyte or a hundred
    frames) ten times less often."""
    weighted = [f for f in families for _ in range(1 if f in _HEAVY else 10)]
    return st.sampled_from(weighted).flatmap(lambda name: FAMILIES[name])


def batches(
    families: tuple[str, ...] = SUITE_FAMILIES, *, min_size: int = 1, max_size: int = 40
) -> st.SearchStrategy[list[Spec]]:
    """A batch of fuzz actions, judged together (see :meth:`FuzzRig.run_batch`)."""
    return st.lists(spec_strategy(families), min_size=min_size, max_size=max_size)
