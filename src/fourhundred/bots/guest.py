"""The bot side of the protocol: run a built-in bot as a protocol program.

``fourhundred bot NAME`` calls :func:`serve`, which reads JSON lines from
standard input and answers on standard output (docs/bot-protocol.md), so that
other hosts and tools can use our bots. A line it cannot use is reported on
standard error and otherwise ignored; ``quit`` or the end of input ends it.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from typing import Any, TextIO

from fourhundred.engine import REDEAL

from .base import Bot
from .budget import BudgetKeeper
from .protocol import PROTOCOL, ProtocolError, action_message, view_from_dict

__all__ = ["serve"]


def _say(out: TextIO, msg: dict[str, Any]) -> None:
    out.write(json.dumps(msg) + "\n")
    out.flush()


def serve(bot: Bot, name: str, source: TextIO, out: TextIO, err: TextIO) -> int:
    """Answer the host until ``quit`` or the end of input; returns the exit
    status (0). Of each ``budget_ms`` the bot gets what :class:`BudgetKeeper`
    allots (the budget less a margin that scales with it and with the
    overhead measured here), capped by the bot's own budget if it has one."""
    guest = _Guest(bot, name, out, err)
    for raw in source:
        received = time.perf_counter()
        line = raw.strip()
        if not line:
            print("ignored a blank line", file=err, flush=True)
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError as e:
            print(f"ignored a line that is not JSON ({e.msg})", file=err, flush=True)
            continue
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "quit":
            break
        handler = guest.handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            print(f"ignored a message of type {kind!r}", file=err, flush=True)
        else:
            handler(msg, received)
    bot.close()
    return 0


class _Guest:
    """One bot answering one host: a handler per message type."""

    def __init__(self, bot: Bot, name: str, out: TextIO, err: TextIO) -> None:
        self.bot = bot
        self.name = name
        self.out = out
        self.err = err
        self.own_budget = bot.budget_ms
        self.keeper = BudgetKeeper()
        self.handlers: dict[str, Callable[[dict[str, Any], float], None]] = {
            "hello": self.hello,
            "act": self.act,
            "result": self.result,
        }

    def hello(self, msg: dict[str, Any], received: float) -> None:
        spoken = msg.get("protocol")
        if spoken is None:
            print(f"the host's hello names no protocol; answering as {PROTOCOL}", file=self.err)
        elif spoken != PROTOCOL:
            print(f"host speaks {spoken!r}; answering as {PROTOCOL}", file=self.err)
        _say(
            self.out, {"type": "ready", "name": f"fourhundred-{self.name}", "author": "fourhundred"}
        )

    def act(self, msg: dict[str, Any], received: float) -> None:
        act_id = msg.get("id")
        try:
            view = view_from_dict(msg.get("view"))
            if view.legal is None or not view.legal:
                raise ProtocolError("the view has no legal actions")
        except ProtocolError as e:
            print(f"act {act_id!r}: {e}", file=self.err, flush=True)
            return
        allotted = self._allot(msg.get("budget_ms"))
        try:
            start = time.perf_counter()
            action = self.bot.choose(view)
            if action == REDEAL:
                # The protocol has no redeal answer: bid instead.
                action = self.bot.choose(dataclasses.replace(view, can_redeal=False))
            think = time.perf_counter() - start
        except ValueError as e:  # a view no seat could have (no hand...)
            print(f"act {act_id!r}: cannot act on this view: {e}", file=self.err, flush=True)
            return
        _say(self.out, action_message(action, act_id if type(act_id) is int else 0))
        total = time.perf_counter() - received
        self.keeper.record(allotted_ms=allotted, think_ms=think * 1e3, total_ms=total * 1e3)

    def _allot(self, budget: object) -> int:
        """The bot's share of the host's ``budget`` (0, and the bot's budget
        untouched, when the host gives none)."""
        if type(budget) is not int or budget <= 0:
            return 0
        allotted = self.keeper.allot(budget)
        if self.own_budget is not None:
            allotted = min(self.own_budget, allotted)
        self.bot.budget_ms = allotted
        return allotted

    def result(self, msg: dict[str, Any], received: float) -> None:
        try:
            self.bot.observe(view_from_dict(msg.get("view")))
        except ProtocolError as e:
            print(f"result: {e}", file=self.err, flush=True)


def main(argv: list[str] | None = None) -> int:
    """``python -m fourhundred.bots.guest NAME [BUDGET_MS]``: the same as
    ``fourhundred bot NAME`` without loading the whole command line tool."""
    import sys

    from . import BOTS, make_bot

    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] not in BOTS:
        print(
            f"usage: python -m fourhundred.bots.guest {{{','.join(sorted(BOTS))}}} [BUDGET_MS]",
            file=sys.stderr,
        )
        return 2
    budget = int(args[1]) if len(args) > 1 and args[1].isdigit() else None
    return serve(make_bot(args[0], budget_ms=budget), args[0], sys.stdin, sys.stdout, sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
