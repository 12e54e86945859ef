"""``fourhundred play``: one person against three bots, in the terminal.

The picture at each of your turns: the settings line, the score sheet
line, the bids with what each is worth, the trick on the table and your
hand by suit (hearts marked as trumps, the cards you may play marked).
Type a bid (``3``) or a card (``QD``, ``10d``); ``last`` shows the last
trick, ``scores`` the score sheet, ``rules`` the settings, ``hand`` the
picture and the question again, ``help`` the commands and ``quit`` (or
Ctrl-C, or the end of input) ends the game. Anything else gets a message
and a new prompt. At the end you may save the game record (JSON, as in
docs/game-record.md). Hands and tricks are counted from 1, as a player counts them.

Everything reads from and writes to the streams it is given, so the tests
drive it with piped input; long lines are wrapped between words to
``width``.
"""

from __future__ import annotations

import json
import random
import secrets
import shutil
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
    Trick,
    next_seat,
    parse_card,
    partner_of,
    record_from_state,
    team_of,
    view_for,
)

from .common import BOT_BUDGET_DEFAULT, BotLog, check_bot_name, preset_or_exit
from .help import HelpCommand
from .playtext import (
    HELP,
    bid_choices,
    bids_line,
    cards_text,
    fit,
    hand_text,
    rules_lines,
    score_sheet,
    seat_names,
    trick_text,
)

__all__ = ["TerminalGame", "register", "seat_names"]

TERMINAL_DELAY: Final = 0.4
"""Seconds after each bot move when you play in a terminal."""


class Quit(Exception):
    """The player asked to stop (``quit``, Ctrl-C or the end of input)."""


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
    width: int | None = 80
    """Columns of the terminal: longer lines are wrapped between words
    (``None``: not a terminal, no wrapping)."""

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
        self.out.write((fit(text, self.width) if self.width else text) + "\n")
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
        name = self.settings.preset_name or "custom"
        return "\n".join([f"Rules: {name}.", *(f"  {line}" for line in rules_lines(self.settings))])

    def table_text(self) -> str:
        tricks = self.state.tricks()
        if not tricks or tricks[-1][2] is not None:
            return "Table: empty (you lead)" if self.state.turn == self.seat else "Table: empty"
        leader, cards, _ = tricks[-1]
        shown = ", ".join(
            f"{self.names[next_seat(leader, i)]} {CARD_NAMES[c]}" for i, c in enumerate(cards)
        )
        return f"Table: {shown}"

    def trick_text(self, trick: Trick) -> str:
        """A complete trick of this hand or, between hands, of the last one."""
        s = self.state
        done = s.n_tricks if s.phase is Phase.PLAY else len(s.history[-1].trick_winners)
        return trick_text(self.names, trick, done, self.seat)

    def last_trick_text(self) -> str:
        trick = self.state.last_trick()
        if trick is None:
            return "No trick has been completed in this hand yet."
        return "Last trick: " + self.trick_text(trick)

    def picture(self, legal: set[int]) -> None:
        s = self.state
        self.say()
        self.say(
            f"Hand {s.hand_index + 1}, dealer {self.who(s.dealer)}. Scores: "
            + ", ".join(f"{self.names[i]} {s.scores[i]}" for i in range(4))
            + f". Target {self.settings.target}."
        )
        self.say(bids_line(self.state, self.names))
        if s.phase is Phase.PLAY:
            self.say(f"Trick {s.n_tricks + 1} of 13. " + self.table_text())
        self.say(hand_text(self.state.hand(self.seat), legal))

    # -------------------------------------------------------------- turns

    def show_turn(self) -> None:
        """The picture and the question of your turn (again after ``hand``)."""
        s = self.state
        v = view_for(s, self.seat)
        if s.phase is Phase.BID:
            self.picture(set())
            offers = ", ".join(
                f"{b} ({'game' if val is None else val})"
                for b, val in zip(v.legal or (), v.values or (), strict=False)
            )
            self.say(f"Your bid, worth (points): {offers}")
            if v.can_redeal:
                self.say("You hold no A, K, Q or J: you may type 'redeal' for a new deal.")
        else:
            legal_cards = set(v.legal or ())
            self.picture(legal_cards)
            self.say("You may play: " + cards_text(sorted(legal_cards)))

    def human_turn(self) -> None:
        self.show_turn()
        while True:
            text = self.ask("> ")
            if self.command(text):
                continue
            refusal = self.act(text)
            if refusal is None:
                return
            self.say(refusal)

    def act(self, text: str) -> str | None:
        """Take your bid, card or redeal request; or say, to you, why not."""
        legal = list(view_for(self.state, self.seat).legal or ())
        if text.lower() == "redeal":
            return self.redeal()
        if self.state.phase is Phase.BID:
            return self.bid(text, legal)
        return self.play_card(text, legal)

    def bid(self, text: str, legal: list[int]) -> str | None:
        low = text.lower()
        n_text = low[3:].strip() if low.startswith("bid") else low
        if not n_text.isdigit():
            return f"{text!r} is not a bid: type a number such as {legal[0]}."
        if int(n_text) not in legal:
            return f"You cannot bid {int(n_text)}: you may bid {bid_choices(legal)}."
        self.state.bid(int(n_text), self.seat)
        return None

    def play_card(self, text: str, legal: list[int]) -> str | None:
        try:
            c = parse_card(text)
        except ValueError:
            return f"{text!r} is not a card: type one like QD or 10H (help: 'help')."
        if not self.state.hand(self.seat) >> c & 1:
            return f"You do not hold {CARD_NAMES[c]}."
        if c not in legal:
            return f"You must follow suit: you may play {cards_text(sorted(legal))}."
        self.state.play(c, self.seat)
        return None

    def redeal(self) -> str | None:
        s = self.state
        if s.can_redeal(self.seat):
            s.request_redeal(self.seat)
            self.say("You asked for a new deal.")
            return None
        if not self.settings.no_face_card_redeal:
            return "You cannot ask for a new deal: the rules of this game do not allow it."
        if s.phase is not Phase.BID or s.n_bids:
            return "You can ask for a new deal only before the first bid."
        return "You cannot ask for a new deal: you hold an A, K, Q or J."

    def command(self, text: str) -> bool:
        """Handle an information command; False if ``text`` is not one."""
        low = text.lower()
        if low in ("", "hand", "h", "show"):
            if low:
                self.show_turn()
            return True
        if low in ("help", "?"):
            self.say(HELP)
            return True
        if low in ("last", "l"):
            self.say(self.last_trick_text())
            return True
        if low in ("scores", "score", "s"):
            self.say(score_sheet(self.state, self.names))
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
        deals = "You deal" if s.dealer == self.seat else f"{self.who(s.dealer)} deals"
        self.say(f"=== Hand {s.hand_index + 1}: {deals}. ===")
        hand_index = s.hand_index
        while s.phase in (Phase.BID, Phase.PLAY) and s.hand_index == hand_index:
            if s.turn == self.seat:
                before = s.n_tricks if s.phase is Phase.PLAY else 0
                self.human_turn()
                if s.phase is Phase.PLAY and s.n_tricks > before:
                    self.say(self.last_trick_text())
            else:
                self.bot_turn()
        self.hand_end()
        from fourhundred.bots.arena import tell_hand_end

        tell_hand_end(s, self.bots)

    def hand_end(self) -> None:
        """How the hand just finished ended: its last trick and the scores."""
        s = self.state
        h = s.history[-1]
        if h.redeal_request is not None:
            by = "you" if h.redeal_request == self.seat else self.who(h.redeal_request)
            self.say(f"New deal asked for by {by}: the same dealer deals again.")
            return
        if h.thrown_in:
            self.say(
                f"The bids total {sum(h.bids)}, less than {s.required}: the hand is thrown in."
            )
            return
        last = s.last_trick()
        if last is not None:
            self.say("Final trick: " + self.trick_text(last))
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
        self.say(f"Rules: {self.settings.preset_name or 'custom'} (type 'rules' to read them).")
        self.say(f"Bots: {self.bot_names}. Type 'help' for the commands.")
        try:
            while s.phase is not Phase.OVER:
                self.play_hand()
        except (Quit, KeyboardInterrupt):
            self.say()
            self.say("Game stopped.")
        if s.phase is Phase.OVER and s.winner is not None:
            you_won = s.winner == team_of(self.seat)
            self.say()
            self.say(score_sheet(self.state, self.names))
            self.say("You and your partner win!" if you_won else "The other team wins.")
        self.offer_save()
        for bot in self.bots.values():
            bot.close()
        return 0

    def offer_save(self) -> None:
        """Ask whether to save the record; Ctrl-C or the end of input here
        means no."""
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
        except (Quit, KeyboardInterrupt):
            self.say("Not saved.")
            return


def play(
    preset_name: Annotated[str, typer.Option("--preset", help="Rules preset.")] = "standard",
    seat: Annotated[int, typer.Option("--seat", min=0, max=3, help="Your seat (0-3).")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", help="The other three: a built-in bot (heuristic, expert...) or cmd:..."
        ),
    ] = "heuristic",
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed of the deals (repeatable).", show_default="random"),
    ] = None,
    budget_ms: Annotated[
        int | None,
        typer.Option(
            "--budget-ms",
            min=1,
            help="Bots' thinking time per decision, in ms.",
            show_default=BOT_BUDGET_DEFAULT,
        ),
    ] = None,
    delay: Annotated[
        float | None,
        typer.Option(
            "--delay",
            min=0.0,
            help="Seconds to pause after each bot move.",
            show_default=f"{TERMINAL_DELAY} in a terminal, 0 when piped",
        ),
    ] = None,
    bot_log: BotLog = None,
) -> None:
    """Play one game of 400 in the terminal against three bots.

    Hands and tricks are counted from 1. Ctrl-C stops the game and asks
    whether to save its record.
    """
    check_bot_name(bots)
    settings = preset_or_exit(preset_name)
    if bot_log is not None:
        from fourhundred.bots.external import log_bot_stderr

        log_bot_stderr(str(bot_log))
    pause = delay if delay is not None else (TERMINAL_DELAY if sys.stdin.isatty() else 0.0)
    game = TerminalGame(
        settings,
        seat,
        bots,
        seed,
        sys.stdin,
        sys.stdout,
        budget_ms=budget_ms,
        bot_delay=pause,
        width=shutil.get_terminal_size(fallback=(0, 0)).columns or None,
    )
    raise typer.Exit(game.run())


def register(app: typer.Typer) -> None:
    """Add ``play`` to the ``fourhundred`` command."""
    app.command(cls=HelpCommand)(play)
