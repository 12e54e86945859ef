"""A fuzzer for a live table: Hypothesis strategies of hostile frames and a
harness that fires them at a real server and judges every answer.

The harness (:class:`FuzzRig`) keeps a Private table of four guests in
play, plus a spectator, an outsider (a user attached to no table), a silent
*witness* spectator that records every event, and a *control* table whose
players never misbehave. Each batch of frames is judged like this:

1. **Before**: every seat's user opens a fresh socket and joins (its
   ``snapshot``), and a fresh observer joins as a spectator. These sockets
   are the ones the batch fires from.
2. **Fire**: each frame is sent on its sender's socket and its reply is
   awaited (``ack``, ``error``, ``pong``, or a close). An ``error`` must carry
   a code that ``docs/protocol.md`` documents, a message, and the frame's id
   (null when the frame had none the server could read); a close must be a
   documented close code after a ``closing`` frame (or the transport's
   close for frames the protocol layer never sees). Frames whose answer is
   known exactly (out of turn, another seat, stale, a replayed id...) must
   get exactly that.
3. **After**: fresh sockets again. If no frame of the batch was accepted as
   a game command, every seat's and the observer's snapshot must equal the
   one from before (version, view, room, score sheet, turn deadline), and
   the witness must have seen no event. If one was accepted, the witness's
   events must start at its ack's version. No sleep lets events arrive:
   the fresh joins are answered only after every earlier frame was judged,
   and then a ping on the witness's socket is answered only after every
   event queued for it.

Between batches the harness makes a legal move now and then, so frames hit
every phase of the game, and checks that the server is healthy and that the
control table still takes moves.

Every loop is bounded in count and time; everything is on 127.0.0.1.

The fuzzer lives in these modules of ``tests/fuzz/``; this one re-exports
its public names (``__all__``), which the tests and ``bench/fuzz.py``
import:

- ``fh_fuzz_ids.py``: the constants, reading a frame's id, and the types a
  drawn action goes through (``Spec``, ``Ctx``, ``Shot``);
- ``fh_fuzz_transport.py``: the frame- and message-level families (junk,
  binary, shapes, huge ids, oversized frames, floods, bad UTF-8, nesting);
- ``fh_fuzz_moves.py``: the game-level families (out of turn, another
  seat, not a player, stale, illegal, room commands, replayed ids, joins);
- ``fh_fuzz_families.py``: ``FAMILIES``, ``KNOWN_BUG_FAMILIES``,
  ``SUITE_FAMILIES``, ``spec_strategy`` and ``batches``;
- ``fh_fuzz_checks.py``: the oracle (``FuzzChecks``, ``Violation``,
  ``Snap``): judging replies, batches and the server's health;
- ``fh_fuzz_rig.py``: the driving (``FuzzRig``, ``RigLoop``).
"""

from __future__ import annotations

from fh_fuzz_families import FAMILIES, KNOWN_BUG_FAMILIES, SUITE_FAMILIES, batches, spec_strategy
from fh_fuzz_ids import Ctx, Shot, Spec, readable_id
from fh_fuzz_rig import FuzzRig, RigLoop

__all__ = [
    "FAMILIES",
    "KNOWN_BUG_FAMILIES",
    "SUITE_FAMILIES",
    "Ctx",
    "FuzzRig",
    "RigLoop",
    "Shot",
    "Spec",
    "batches",
    "readable_id",
    "spec_strategy",
]
