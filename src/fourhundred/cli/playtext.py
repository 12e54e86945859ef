"""Words for the terminal game (:mod:`.play`): the seats' names, the rules
in sentences, tricks and long lines fitted to the terminal.

Pure functions of engine values, so the tests read them without a game.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Final

from fourhundred.engine import CARD_NAMES, GameState, Settings, Trick, next_seat

__all__ = [
    "HELP",
    "bid_choices",
    "bids_line",
    "cards_text",
    "fit",
    "hand_text",
    "rules_lines",
    "score_sheet",
    "seat_names",
    "trick_text",
]

SUIT_NAMES: Final = ("Clubs", "Diamonds", "Hearts", "Spades")
SUIT_SYMBOLS: Final = ("♣", "♦", "♥", "♠")
HELP: Final = """Commands:
  a number (3, or "bid 3")   bid that many tricks
  a card (QD, 10d, ah)       play it
  last                       show the last complete trick
  scores                     show the score sheet
  rules                      show the settings of this game
  hand                       show your hand, the table and the question again
  redeal                     ask for a new deal (only when allowed)
  help                       this list
  quit (or Ctrl-C)           stop the game (you may save it first)"""


_SCORING: Final = {
    "lebanese": "Lebanese: bids of 1 to 4 are worth their number, 5 to 8 double, 9 to 12 triple",
    "classic": "classic: bids of 1 to 6 are worth their number, 7 to 12 double",
}
_BIG_BIDS: Final = {
    "none": "worth what the scoring says",
    "ten_40": "any bid of 10 or more is worth 40 points",
    "eleven_50": "any bid of 11 or more is worth 50 points",
}
_PARTNER: Final = {"positive": "more than zero", "non_negative": "zero or more"}


def seat_names(you: int) -> list[str]:
    """Names of the seats as seen from ``you``: play goes to the right, so
    the next seat is on your right and the one before on your left."""
    names = ["", "", "", ""]
    names[you] = "You"
    names[next_seat(you, 1)] = "Right"
    names[next_seat(you, 2)] = "Partner"
    names[next_seat(you, 3)] = "Left"
    return names


def _on(flag: bool, on: str, off: str) -> str:
    return on if flag else off


def rules_lines(st: Settings) -> list[str]:
    """One sentence per setting of ``st`` (docs/rules.md, "Settings and presets"), in words a
    player reads rather than the settings' keys."""
    return [
        f"Target: a team wins when one partner has {st.target} points"
        f" and the other {_PARTNER[st.partner_rule]}.",
        f"Lowest bid: {st.min_bid} tricks"
        + _on(
            st.escalating_min_bid,
            "; your own lowest bid rises to 3 at 30 points, 4 at 40 and 5 at 50.",
            ", whatever your score.",
        ),
        f"The four bids must add up to {st.min_total} or more, or the cards are dealt again"
        + _on(
            st.escalating_total,
            "; this rises to 12, 13 and 14 once anyone has 30, 40 or 50 points.",
            ".",
        ),
        f"Scoring: {_SCORING[st.scoring]}.",
        _on(
            st.five_six_face_at_30,
            "From 30 points, your bids of 5 and 6 are worth 5 and 6 (Lebanese scoring).",
            "Bids of 5 and 6 keep their value at any score.",
        ),
        f"Big bids: {_BIG_BIDS[st.big_bids]}.",
        _on(
            st.thirteen_bid,
            "A player may bid all 13 tricks: take them all and the team wins at once,"
            " lose one and it loses.",
            "Nobody may bid 13.",
        ),
        _on(
            st.five_to_run,
            "Five to run: if nobody before the dealer has bid 5 or more,"
            " the dealer must bid at least 5.",
            "The dealer bids like everyone else (no five to run).",
        ),
        _on(
            st.no_face_card_redeal,
            "A player dealt no ace, king, queen or jack may ask for a new deal"
            " before the first bid.",
            "No new deal for a hand without face cards.",
        ),
    ]


def trick_text(names: Sequence[str], trick: Trick, number: int, you: int) -> str:
    """A complete trick: its number in the hand (from 1), each seat's card
    in play order and who won it."""
    shown = ", ".join(
        f"{names[next_seat(trick.leader, i)]} {CARD_NAMES[c]}" for i, c in enumerate(trick.cards)
    )
    winner = "you" if trick.winner == you else f"{names[trick.winner]} (seat {trick.winner})"
    return f"Trick {number}: {shown} -> won by {winner}"


def cards_text(cards: list[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in cards) or "-"


def bid_choices(bids: list[int]) -> str:
    """Legal bids in few words: ``2 to 12`` when they run without a gap."""
    if len(bids) > 2 and bids == list(range(bids[0], bids[-1] + 1)):
        return f"{bids[0]} to {bids[-1]}"
    return ", ".join(map(str, bids))


def bids_line(s: GameState, names: Sequence[str]) -> str:
    """Each seat's bid this hand, what it is worth and the tricks it has won."""
    parts = []
    for i in range(4):
        b = s.bid_of(i)
        if b is None:
            parts.append(f"{names[i]}: -")
            continue
        v = s.value_of_bid(i, b)
        worth = "decides the game" if v is None else f"worth {v}"
        parts.append(f"{names[i]}: {b} ({worth}), won {s.tricks_won[i]}")
    return "Bids: " + "; ".join(parts) + f"   (need a total of {s.required})"


def hand_text(hand: int, legal: set[int]) -> str:
    """The cards of ``hand`` (a mask) by suit, trumps first; those in
    ``legal`` marked ``*``."""
    lines = ["Your hand (cards you may play are marked *):"]
    for suit in (2, 3, 1, 0):  # trumps first, then the others
        cards = [c for c in range(suit * 13 + 12, suit * 13 - 1, -1) if hand >> c & 1]
        label = f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}" + (" (trumps)" if suit == 2 else "")
        shown = " ".join(f"{CARD_NAMES[c]}{'*' if c in legal else ' '}" for c in cards)
        lines.append(f"  {label:<20} {shown or '-'}")
    return "\n".join(lines)


def score_sheet(s: GameState, names: Sequence[str]) -> str:
    """Each hand's points and totals by seat, hands counted from 1."""
    head = "hand  " + "  ".join(f"{names[i]:>8}" for i in range(4))
    lines = ["Score sheet (your team: You + Partner):", head]
    for h in s.history:
        if h.thrown_in:
            row = "   thrown in"
        else:
            row = "  ".join(f"{h.deltas[i]:>+4} {h.scores[i]:>3}" for i in range(4))
        lines.append(f"{h.hand_index + 1:>4}  {row}")
    lines.append(
        "total "
        + "  ".join(f"{s.scores[i]:>8}" for i in range(4))
        + f"   (target {s.settings.target})"
    )
    return "\n".join(lines)


def fit(text: str, width: int) -> str:
    """``text`` with each line longer than ``width`` wrapped between words
    (never inside one), continued two spaces in."""
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip())]
        out.extend(
            textwrap.wrap(
                line,
                width,
                subsequent_indent=lead + "  ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    return "\n".join(out)
