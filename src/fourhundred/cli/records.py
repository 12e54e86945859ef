"""``fourhundred replay``: re-play game records and print their results
(JSON, or in words with ``--text``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, BinaryIO, TextIO

import typer

from fourhundred.engine import FourHundredError, RecordError, replay_result, team_of

from .common import fail, read_text
from .help import HelpCommand

__all__ = ["register", "replay_jsonl", "result_text"]


def _result_of_text(text: str) -> dict[str, Any]:
    """Parse a record and replay it; ``RecordError`` on any fault."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise RecordError(f"not valid JSON ({e})") from None
    try:
        return replay_result(data)
    except RecordError:
        raise
    except FourHundredError as e:  # pragma: no cover - every fault is a RecordError
        raise RecordError(str(e)) from None


def replay_jsonl(source: BinaryIO, out: TextIO) -> int:
    """Replay one record per line of ``source`` (bytes: a line that is not
    UTF-8 is an error on that line only), one result per line to ``out``;
    returns how many lines were records in error."""
    errors = 0
    for raw in source:
        try:
            line = raw.rstrip(b"\n").decode("utf-8")
            if not line.strip():
                raise RecordError("blank line: expected a JSON record")
            result: dict[str, Any] = _result_of_text(line)
        except UnicodeDecodeError as e:
            errors += 1
            result = {"error": str(RecordError(f"the line is not UTF-8 text ({e.reason})"))}
        except RecordError as e:
            errors += 1
            result = {"error": str(e)}
        out.write(json.dumps(result) + "\n")
    return errors


def _seats(values: list[int], signed: bool = False) -> str:
    return " ".join(f"{v:+d}" if signed else str(v) for v in values)


def result_text(result: dict[str, Any]) -> list[str]:
    """A replay result in words, hands counted from 1: each hand, saying
    so when the last one is unfinished, then the scores and the winner or
    who acts next. Figures are by seat, 0 to 3."""
    hands = result["hands"]
    nxt = result["next"]
    lines = []
    for i, h in enumerate(hands):
        if h["thrown_in"]:
            lines.append(f"Hand {i + 1}: thrown in (no cards played, nobody scored)")
        elif nxt is not None and nxt["hand"] == i:
            stage = (
                f"{sum(h['tricks'])} of 13 tricks played, won so far {_seats(h['tricks'])}"
                if nxt["phase"] == "play"
                else "still in the bidding"
            )
            lines.append(f"Hand {i + 1}: unfinished, {stage}; not scored yet")
        else:
            lines.append(
                f"Hand {i + 1}: tricks {_seats(h['tricks'])}; points"
                f" {_seats(h['deltas'], signed=True)}; scores {_seats(h['scores'])}"
            )
    lines.append(f"Scores by seat: {_seats(result['scores'])}")
    if nxt is None:
        w = result["winner"]
        seats = " and ".join(str(s) for s in range(4) if team_of(s) == w)
        lines.append(f"Game over: team {w} (seats {seats}) wins")
    else:
        deal = "" if nxt["hand"] < len(hands) else ", not dealt yet"
        verb = "bids" if nxt["phase"] == "bid" else "plays"
        lines.append(f"Next: hand {nxt['hand'] + 1}{deal}; seat {nxt['seat']} {verb}")
    return lines


def replay(
    record: Annotated[
        str | None,
        typer.Argument(help="A game record (JSON). With --jsonl: a file of records, - for stdin."),
    ] = None,
    jsonl: Annotated[
        bool,
        typer.Option(
            "--jsonl",
            help="Read one record per line; write one result per line. A record in error"
            ' gives {"error": "hand H action A: reason"} on its own line, and the exit'
            " status stays 0.",
        ),
    ] = False,
    text: Annotated[
        bool,
        typer.Option("--text", help="Print the result in words, hands counted from 1."),
    ] = False,
) -> None:
    """Re-play a game record and print the scores, the winner and what comes next.

    The result is one JSON object (docs/game-record.md, "The result of a replay"), whose hands
    count from 0; --text says the same in words, hands counted from 1, and
    names an unfinished last hand as such.

    A record that breaks the rules prints `hand H action A: reason` on
    standard error (H and A count from 0) and exits with status 2. With
    --jsonl that line goes instead, as {"error": ...}, on the record's own
    line of standard output, the other records go on, and the exit status
    is 0 (1 only when the input cannot be read).
    """
    if jsonl:
        if text:
            raise fail("--text reads one record: leave out --jsonl")
        try:
            if record in (None, "-"):
                replay_jsonl(sys.stdin.buffer, sys.stdout)
            else:
                with Path(record).open("rb") as f:
                    replay_jsonl(f, sys.stdout)
        except OSError as e:
            raise fail(f"cannot read {record or 'standard input'}: {e.strerror or e}", 1) from None
        return
    if record is None:
        raise fail("name a record file, - for standard input (or use --jsonl)")
    source = read_text(record)
    try:
        result = _result_of_text(source)
    except RecordError as e:
        raise fail(str(e)) from None
    print("\n".join(result_text(result)) if text else json.dumps(result))


def register(app: typer.Typer) -> None:
    """Add ``replay`` to the ``fourhundred`` command."""
    app.command(cls=HelpCommand)(replay)
