"""Errors named by their cause. All are ``ValueError`` so callers that only
care about "bad input" can catch one thing."""

from __future__ import annotations


class FourHundredError(ValueError):
    """Base of every error the engine raises for bad input."""


class InvalidSettings(FourHundredError):
    """A setting is unknown or out of its range (docs/rules.md, "Settings and presets")."""


class IllegalAction(FourHundredError):
    """An action that the rules do not allow now."""


class NotYourTurn(IllegalAction):
    """A seat tried to act when it is another seat's turn."""


class WrongPhase(IllegalAction):
    """A bid during play, a card during bidding, anything after the game ended."""


class IllegalBid(IllegalAction):
    """A bid outside the legal range for this seat now."""


class IllegalCard(IllegalAction):
    """A card the seat does not hold, or that breaks the duty to follow suit."""


class IllegalRedeal(IllegalAction):
    """A request for a new deal that ``no_face_card_redeal`` does not allow."""


class GameOver(WrongPhase):
    """The game has ended; no more actions are taken."""


class InvalidDeal(FourHundredError):
    """A deal that is not 52 distinct cards, 13 to each seat."""


class RecordError(FourHundredError):
    """A game record that is malformed or breaks the rules.

    ``hand`` and ``action`` locate the fault as in docs/game-record.md,
    "When a record is wrong" (``None`` prints as ``-``); ``str()`` is its
    one-line form ``hand H action A: reason``.
    """

    def __init__(self, reason: str, hand: int | None = None, action: int | None = None) -> None:
        self.reason = reason
        self.hand = hand
        self.action = action
        super().__init__(str(self))

    def __str__(self) -> str:
        h = "-" if self.hand is None else str(self.hand)
        a = "-" if self.action is None else str(self.action)
        return f"hand {h} action {a}: {self.reason}"
