"""``fourhundred fairplay``: the collusion detector on finished games
(docs/fair-play.md)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from .common import fail, read_json
from .help import HelpCommand

if TYPE_CHECKING:
    from fourhundred.bots.fairplay import SeatScore

__all__ = ["fairplay", "print_scores", "register"]


def fairplay(
    records: Annotated[list[str], typer.Argument(help="Game records (JSON files), - for stdin.")],
    deals: Annotated[
        int, typer.Option("--deals", min=1, help="Sampled deals per partner hand.")
    ] = 64,  # ScoreOptions().deals: the bots' modules load only when it runs
    refs: Annotated[
        int, typer.Option("--refs", min=1, help="Partner hands inferred per decision.")
    ] = 2,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sampled deals.")] = 0,
    threshold: Annotated[
        float | None,
        typer.Option(
            "--threshold",
            help="Partnership score from which it is flagged, up to 50 deals (past them,"
            " a little higher).",
            show_default="the detector's own (docs/fair-play.md)",
        ),
    ] = None,
    policy_threshold: Annotated[
        float | None,
        typer.Option(
            "--policy-threshold",
            help="Partnership score of the second statistic from which it is flagged, up"
            " to 50 deals (past them, a little higher).",
            show_default="the detector's own (docs/fair-play.md)",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Fair-play scores: do a seat's bids and cards follow its partner's hidden hand?

    For every bid and card made with a choice, the options are valued with
    the partner's real hand and with hands inferred from the player's view;
    the score (about N(0, 1) for an honest player) adds the evidence up
    over every record given, seat by seat, so give the records of one
    line-up. A second score asks whether the cards follow the partner's
    hand the way a player told it would play them; a partnership is flagged
    when either score reaches its threshold, for a moderator to review,
    never a verdict.
    """
    from rich.progress import Progress

    from fourhundred.bots.fairplay import (
        FLAG_Z,
        POLICY_FLAG_Z,
        Evidence,
        ScoreOptions,
        score_by_hand,
        thresholds_at,
    )
    from fourhundred.bots.fairplay import seat_scores as make_scores
    from fourhundred.engine import RecordError, replay

    options = ScoreOptions(deals=deals, refs=refs, seed=seed)
    limit = FLAG_Z if threshold is None else threshold
    policy_limit = POLICY_FLAG_Z if policy_threshold is None else policy_threshold
    data = []
    for path in records:
        d = read_json(path)
        try:
            replay(d)
        except RecordError as e:
            raise fail(f"{path}: not a valid game record: {e}") from None
        data.append(d)
    hands: list[list[Evidence]] = []
    with Progress(transient=True, disable=as_json and not sys.stderr.isatty()) as progress:
        task = progress.add_task("scoring", total=len(data))
        for d in data:
            hands.extend(score_by_hand(d, options))
            progress.advance(task)
    scores = make_scores(hands, limit, policy_limit)
    limit, policy_limit = thresholds_at(len(hands), limit, policy_limit)
    if as_json:
        out = {
            "records": len(data),
            "deals": len(hands),
            "threshold": limit,
            "policy_threshold": policy_limit,
            "seats": [s.to_dict() for s in scores],
        }
        print(json.dumps(out))
    else:
        print_scores(scores, limit, policy_limit)


def print_scores(scores: list[SeatScore], threshold: float, policy_threshold: float) -> None:
    """The scores as a table for a person."""
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"Fair play (a partnership is flagged from z >= {threshold:g}"
        f" or second z >= {policy_threshold:g})"
    )
    for col in ("seat", "judged", "telling", "real best", "inferred best"):
        table.add_column(col, justify="right")
    for col in ("gain/decision", "z", "pair z", "second z", "pair second z", "flag"):
        table.add_column(col, justify="right")
    for s in scores:
        e = s.evidence
        table.add_row(
            str(s.seat),
            str(e.decisions),
            str(e.discriminating),
            str(e.agree_true),
            str(e.agree_ref),
            f"{e.mean_gain:+.2f}",
            f"{e.z:+.2f}",
            f"{s.pair_z:+.2f}",
            f"{e.policy_z:+.2f}",
            f"{s.pair.policy_z:+.2f}",
            "REVIEW" if s.flagged else "",
        )
    console = Console(highlight=False)
    console.print(table)
    console.print(
        "judged: bids and cards made with a choice; telling: of those, where the"
        " partner's real hand changes the best one; real best / inferred best: how often"
        " the one made was the best with the real hand / with the inferred hands;"
        " second z: the second statistic (do the cards follow the partner's hand as a"
        " player told it would play them)."
    )


def register(app: typer.Typer) -> None:
    """Add ``fairplay`` to the ``fourhundred`` command."""
    app.command(cls=HelpCommand)(fairplay)
