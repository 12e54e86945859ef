"""``fourhundred play``: one person against three bots, in the terminal.

The picture at each of your turns: the settings line, the score sheet
line, the bids with what each is worth, the trick on the table and your
hand by suit (hearts marked as trumps, the cards you may play marked).
Type a bid (``3``) or a card (``QD``, ``10d``); ``last`` shows the last
trick, ``scores`` the score sheet, ``rules`` the settings, ``hand`` the
picture again, ``help`` the commands and ``quit`` ends the game. Anything
else gets a message and a new prompt. At the end you may save the game
record (JSON, as in docs/game-record.md).

Everything reads from and writes to the streams it is given, so the tests
drive it with piped input.
"""

from __future__ import annotations

import json
import random
import secrets
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Final, TextIO

import typer

from fourhundred.engine import (
    BID_BASE,
    CARD_NAMES,
    REDEAL,
    GameState,
    Phase,
    Settings,
    next_seat,
    parse_card,
    partner_of,
    record_from_state,
    team_of,
    view_for,
)

from .common import check_bot_name, preset_or_exit

__all__ = ["TerminalGame", "register", "seat_names"]

SUIT_NAMES: Final = ("Clubs", "Diamonds", "Hearts", "Spades")
SUIT_SYMBOLS: Final = ("♣", "♦", "♥", "♠")
HELP: Final = """Commands:
  a number (3, or "bid 3")   bid that many tricks
  a card (QD, 10d, ah)       play it
  last                       show the last complete trick
  scores                     show the score sheet
  rules                      show the settings of this game
  hand                       show your hand and the table again
  redeal                     ask for a new deal (only when allowed)
  help                       this list
  quit                       stop the game (you may save it first)"""


class Quit(Exception):
    """The player asked to stop (or the input ended)."""


def seat_names(you: int) -> list[str]:
    """Names of the seats as seen from ``you``: play goes to the right, so
    the next seat is on your right and the one before on your left."""
    names = ["", "", "", ""]
    names[you] = "You"
    names[next_seat(you, 1)] = "Right"
    names[next_seat(you, 2)] = "Partner"
    names[next_seat(you, 3)] = "Left"
    return names


def _cards_text(cards: list[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in cards) or "-"


@dataclass
class TerminalGame:
    """One game: you at ``seat``, bots in the other seats."""

    settings: Settings
    seat: int
    bot_names: str
    seed: int | None
    inp: TextIO
    out: TextIO
    budget_ms: int | None = None
    bot_delay: float = 0.0
    """Seconds to pause after each bot action (0 for tests and pipes)."""

    def __post_init__(self) -> None:
        from fourhundred.bots import make_bot

        rng: random.Random = (
            random.Random(self.seed) if self.seed is not None else secrets.SystemRandom()
        )
        self.state = GameState(self.settings, first_dealer=rng.randrange(4), rng=rng)
        self.names = seat_names(self.seat)
        base = self.seed if self.seed is not None else secrets.randbits(32)
        self.bots = {
            s: make_bot(self.bot_names, seed=base + s, budget_ms=self.budget_ms)
            for s in range(4)
            if s != self.seat
        }

    # ------------------------------------------------------------ output

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise Quit
        return line.strip()

    def who(self, seat: int) -> str:
        return f"{self.names[seat]} (seat {seat})"

    def rules_text(self) -> str:
        st = self.settings
        name = st.preset_name or "custom"
        lines = [f"Rules: {name}, target {st.target}, partner must be {st.partner_rule}."]
        for k, v in st.to_dict().items():
            lines.append(f"  {k}: {json.dumps(v)}")
        return "\n".join(lines)

    def scores_text(self) -> str:
        s = self.state
        head = "hand  " + "  ".join(f"{self.names[i]:>8}" for i in range(4))
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
            + f"   (target {self.settings.target})"
        )
        return "\n".join(lines)

    def bids_text(self) -> str:
        s = self.state
        parts = []
        for i in range(4):
            b = s.bid_of(i)
            if b is None:
                parts.append(f"{self.names[i]}: -")
                continue
            v = s.value_of_bid(i, b)
            worth = "decides the game" if v is None else f"worth {v}"
            parts.append(f"{self.names[i]}: {b} ({worth}), won {s.tricks_won[i]}")
        return "Bids: " + "; ".join(parts) + f"   (need a total of {s.required})"

    def hand_text(self, legal: set[int]) -> str:
        hand = self.state.hand(self.seat)
        lines = ["Your hand (cards you may play are marked *):"]
        for suit in (2, 3, 1, 0):  # trumps first, then the others
            cards = [c for c in range(suit * 13 + 12, suit * 13 - 1, -1) if hand >> c & 1]
            label = f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}" + (" (trumps)" if suit == 2 else "")
            shown = " ".join(f"{CARD_NAMES[c]}{'*' if c in legal else ' '}" for c in cards)
            lines.append(f"  {label:<20} {shown or '-'}")
        return "\n".join(lines)

    def trick_text(self) -> str:
        tricks = self.state.tricks()
        if not tricks or tricks[-1][2] is not None:
            return "Table: empty (you lead)" if self.state.turn == self.seat else "Table: empty"
        leader, cards, _ = tricks[-1]
        shown = ", ".join(
            f"{self.names[next_seat(leader, i)]} {CARD_NAMES[c]}" for i, c in enumerate(cards)
        )
        return f"Table: {shown}"

    def last_trick_text(self) -> str:
        done = [t for t in self.state.tricks() if t[2] is not None]
        if not done:
            return "No trick has been completed in this hand yet."
        leader, cards, winner = done[-1]
        assert winner is not None
        shown = ", ".join(
            f"{self.names[next_seat(leader, i)]} {CARD_NAMES[c]}" for i, c in enumerate(cards)
        )
        return f"Last trick (#{len(done)}): {shown} -> won by {self.who(winner)}"

    def picture(self, legal: set[int]) -> None:
        s = self.state
        st = self.settings
        self.say()
        self.say(
            f"Hand {s.hand_index + 1}, dealer {self.who(s.dealer)}. "
            f"Scores: "
            + ", ".join(f"{self.names[i]} {s.scores[i]}" for i in range(4))
            + f". Target {st.target}."
        )
        self.say(self.bids_text())
        if s.phase is Phase.PLAY:
            self.say(f"Trick {s.n_tricks + 1} of 13. " + self.trick_text())
        self.say(self.hand_text(legal))

    # -------------------------------------------------------------- turns

    def human_turn(self) -> None:
        s = self.state
        v = view_for(s, self.seat)
        if s.phase is Phase.BID:
            legal_bids = list(v.legal or ())
            self.picture(set())
            offers = ", ".join(
                f"{b} ({'game' if val is None else val})"
                for b, val in zip(legal_bids, v.values or (), strict=False)
            )
            self.say(f"Your bid, worth (points): {offers}")
            if v.can_redeal:
                self.say("You hold no A, K, Q or J: you may type 'redeal' for a new deal.")
        else:
            legal_cards = set(v.legal or ())
            self.picture(legal_cards)
            self.say("You may play: " + _cards_text(sorted(legal_cards)))
        while True:
            text = self.ask("> ")
            if self.command(text):
                continue
            low = text.lower()
            try:
                if s.phase is Phase.BID:
                    if low == "redeal":
                        s.request_redeal(self.seat)
                        self.say("You asked for a new deal.")
                        return
                    n_text = low[3:].strip() if low.startswith("bid") else low
                    if not n_text.isdigit():
                        self.say(f"{text!r} is not a bid: type a number such as {legal_bids[0]}.")
                        continue
                    s.bid(int(n_text), self.seat)
                    return
                if low == "redeal":
                    self.say("A new deal can only be asked for before the first bid.")
                    continue
                try:
                    c = parse_card(text)
                except ValueError:
                    self.say(f"{text!r} is not a card: type one like QD or 10H (help: 'help').")
                    continue
                s.play(c, self.seat)
                return
            except ValueError as e:  # IllegalAction and friends
                self.say(f"Not allowed: {e}.")

    def command(self, text: str) -> bool:
        """Handle an information command; False if ``text`` is not one."""
        low = text.lower()
        if low in ("", "hand", "h", "show"):
            if low:
                v = view_for(self.state, self.seat)
                legal = set(v.legal or ()) if self.state.phase is Phase.PLAY else set()
                self.picture(legal)
            return True
        if low in ("help", "?"):
            self.say(HELP)
            return True
        if low in ("last", "l"):
            self.say(self.last_trick_text())
            return True
        if low in ("scores", "score", "s"):
            self.say(self.scores_text())
            return True
        if low in ("rules", "settings"):
            self.say(self.rules_text())
            return True
        if low in ("quit", "q", "exit"):
            raise Quit
        return False

    def bot_turn(self) -> None:
        s = self.state
        seat = s.turn
        bot = self.bots[seat]
        action = bot.choose(view_for(s, seat))
        for f in bot.drain_faults():
            self.say(f"[bot fault] {f}")
        if action == REDEAL and s.can_redeal(seat):
            s.request_redeal(seat)
            self.say(f"{self.who(seat)} asks for a new deal (no face card).")
            return
        if action not in s.legal_actions():
            self.say(
                f"[bot fault] {self.who(seat)} chose an illegal action;"
                " it plays the timeout action."
            )
            action = s.timeout_action()
        if s.phase is Phase.BID:
            n = action - BID_BASE
            v = s.value_of_bid(seat, n)
            worth = "decides the game" if v is None else f"worth {v}"
            s.apply(action, seat)
            self.say(f"{self.who(seat)} bids {n} ({worth}).")
        else:
            trick_before = s.n_tricks
            s.apply(action, seat)
            self.say(f"{self.who(seat)} plays {CARD_NAMES[action]}.")
            if s.phase is Phase.PLAY and s.n_tricks > trick_before:
                self.say(self.last_trick_text())
        if self.bot_delay:
            time.sleep(self.bot_delay)

    def play_hand(self) -> None:
        s = self.state
        s.deal_random()
        self.say()
        self.say(f"=== Hand {s.hand_index + 1}: {self.who(s.dealer)} deals. ===")
        hand_index = s.hand_index
        while s.phase in (Phase.BID, Phase.PLAY) and s.hand_index == hand_index:
            if s.turn == self.seat:
                before = s.n_tricks if s.phase is Phase.PLAY else 0
                self.human_turn()
                if s.phase is Phase.PLAY and s.n_tricks > before:
                    self.say(self.last_trick_text())
            else:
                self.bot_turn()
        h = s.history[-1]
        if h.redeal_request is not None:
            self.say(
                f"New deal asked for by {self.who(h.redeal_request)}: the same dealer deals again."
            )
        elif h.thrown_in:
            self.say(
                f"The bids total {sum(h.bids)}, less than {s.required}: the hand is thrown in."
            )
        else:
            if h.plays:
                last = h.plays[-4:]
                self.say("Final trick: " + " ".join(CARD_NAMES[c] for c in last))
            for i, b in enumerate(h.bids_by_seat):
                assert b is not None  # a played hand has all four bids
                made = "made" if h.tricks[i] >= b else "failed"
                self.say(
                    f"  {self.who(i)}: bid {b}, won {h.tricks[i]} -> {made}, {h.deltas[i]:+d}"
                    f" (now {h.scores[i]})"
                )

    def run(self) -> int:
        """Play until the game ends or the player quits; offers to save."""
        s = self.state
        self.say(
            f"400 (arba'meyeh). You are seat {self.seat};"
            f" your partner is seat {partner_of(self.seat)}."
        )
        self.say(self.rules_text().splitlines()[0])
        self.say(f"Bots: {self.bot_names}. Type 'help' for the commands.")
        try:
            while s.phase is not Phase.OVER:
                self.play_hand()
        except Quit:
            self.say("Game stopped.")
        if s.phase is Phase.OVER and s.winner is not None:
            you_won = s.winner == team_of(self.seat)
            self.say()
            self.say(self.scores_text())
            self.say("You and your partner win!" if you_won else "The other team wins.")
        self.offer_save()
        for bot in self.bots.values():
            bot.close()
        return 0

    def offer_save(self) -> None:
        s = self.state
        if not s.history and s.phase is Phase.DEAL:
            return
        try:
            answer = self.ask("Save the game record? [y/N] ").lower()
            if answer not in ("y", "yes"):
                return
            default = f"fourhundred-{time.strftime('%Y%m%d-%H%M%S')}.json"
            while True:
                name = self.ask(f"File name [{default}]: ") or default
                path = Path(name).expanduser()
                try:
                    path.write_text(
                        json.dumps(record_from_state(s).to_dict(), indent=1) + "\n",
                        encoding="utf-8",
                    )
                except OSError as e:
                    self.say(f"Cannot write {path}: {e.strerror or e}. Try another name.")
                    continue
                self.say(f"Saved the game record to {path} (replay it: fourhundred replay {path}).")
                return
        except Quit:
            return


def play(  # noqa: PLR0913, PLR0917 - one parameter per command-line option
    preset_name: Annotated[str, typer.Option("--preset", help="Rules preset.")] = "standard",
    seat: Annotated[int, typer.Option("--seat", min=0, max=3, help="Your seat (0-3).")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", help="The other three: a built-in bot (heuristic, expert...) or cmd:..."
        ),
    ] = "heuristic",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the deals (repeatable).")
    ] = None,
    budget_ms: Annotated[
        int | None, typer.Option("--budget-ms", min=1, help="Bots' thinking time per decision.")
    ] = None,
    delay: Annotated[
        float | None, typer.Option("--delay", min=0.0, help="Seconds to pause after each bot move.")
    ] = None,
) -> None:
    """Play one game of 400 in the terminal against three bots."""
    check_bot_name(bots)
    settings = preset_or_exit(preset_name)
    pause = delay if delay is not None else (0.4 if sys.stdin.isatty() else 0.0)
    game = TerminalGame(
        settings, seat, bots, seed, sys.stdin, sys.stdout, budget_ms=budget_ms, bot_delay=pause
    )
    raise typer.Exit(game.run())


def register(app: typer.Typer) -> None:
    """Add ``play`` to the ``fourhundred`` command."""
    app.command()(play)
