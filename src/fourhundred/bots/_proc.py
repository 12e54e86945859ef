"""Worker processes that go when their parent goes.

A pool's workers wait on a queue for work; if the parent is killed (SIGKILL,
out of memory) nobody closes that queue and they would wait for ever. On
Linux the kernel can send them a signal when the parent dies instead."""

from __future__ import annotations

import ctypes
import os
import signal
import sys

__all__ = ["die_with_parent"]

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent dies (Linux
    only; elsewhere a no-op). Call it first thing in a worker process."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    # The parent may have died before the call: then we were re-parented.
    if os.getppid() == 1:
        os._exit(0)
