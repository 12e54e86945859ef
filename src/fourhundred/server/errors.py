"""Refusals: a command the server will not carry out, with a code a client
can act on and a message a person can read (docs/protocol.md, "Errors")."""

from __future__ import annotations

from fourhundred.engine import GameOver, IllegalAction, NotYourTurn, WrongPhase

__all__ = ["CommandError", "from_engine", "unavailable"]


class CommandError(Exception):
    """A refused command: nothing changed. ``code`` is one of the protocol's
    error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"CommandError({self.code!r}, {self.message!r})"


def unavailable(what: str) -> CommandError:
    """The refusal while ``what`` (a cluster, a queue) cannot be reached."""
    return CommandError("unavailable", f"the server cannot reach {what}: try again in a moment")


def from_engine(e: IllegalAction) -> CommandError:
    """The protocol error for an engine refusal (the engine's message kept).

    >>> from fourhundred.engine import IllegalBid
    >>> from_engine(IllegalBid("bid 1 by seat 0 is not legal")).code
    'illegal'
    """
    if isinstance(e, NotYourTurn):
        return CommandError("not_your_turn", str(e))
    if isinstance(e, GameOver | WrongPhase):
        return CommandError("wrong_phase", str(e))
    return CommandError("illegal", str(e))
