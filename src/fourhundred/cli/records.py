"""``fourhundred replay``: re-play game records and print their results."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, BinaryIO, TextIO

import typer

from fourhundred.engine import FourHundredError, RecordError, replay_result

from .common import fail

__all__ = ["register", "replay_jsonl"]


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


def replay(
    record: Annotated[
        str | None,
        typer.Argument(help="A game record (JSON). With --jsonl: a file of records, - for stdin."),
    ] = None,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="Read one record per line; write one result per line.")
    ] = False,
) -> None:
    """Re-play a game record and print the scores, the winner and what comes next.

    A record that breaks the rules prints `hand H action A: reason` on standard
    error and exits with status 2.
    """
    if jsonl:
        try:
            if record in (None, "-"):
                replay_jsonl(sys.stdin.buffer, sys.stdout)
            else:
                with Path(record).open("rb") as f:
                    replay_jsonl(f, sys.stdout)
        except OSError as e:
            raise fail(f"cannot read {record or 'standard input'}: {e}", 1) from None
        return
    if record is None:
        raise fail("hand - action -: name a record file (or use --jsonl to read standard input)")
    try:
        text = sys.stdin.read() if record == "-" else Path(record).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise fail(f"hand - action -: cannot read {record}: {reason}") from None
    try:
        result = _result_of_text(text)
    except RecordError as e:
        raise fail(str(e)) from None
    print(json.dumps(result))


def register(app: typer.Typer) -> None:
    """Add ``replay`` to the ``fourhundred`` command."""
    app.command()(replay)
