"""The ``fourhundred`` command.

One module per group of subcommands, each defining ``register(app)`` and
listed in ``COMMAND_MODULES`` (in the order ``--help`` shows them):

- :mod:`.records`: ``replay``
- :mod:`.server`: ``serve`` (its options become a config in :mod:`.serveconfig`)
  and ``db upgrade|current``
- :mod:`.bots`: ``arena`` (its report in :mod:`.arenatext`), ``analyse``,
  ``bot`` (and the place for more bot tools, such as training)
- :mod:`.play`: ``play``, a game in the terminal against three bots (its
  words in :mod:`.playtext`)
- :mod:`.loadtest`: ``loadtest`` (its generator in :mod:`.loadgen`)
- :mod:`.admin`: ``admin grant-moderator|revoke-moderator|reports|penalise|audit``
- :mod:`.fairplay`: ``fairplay``, the collusion detector on game records

Every command is made with :class:`.help.HelpCommand` (groups with
:class:`.help.HelpGroup`), so that its ``--help`` reads whole in 80 columns.
Heavy imports stay inside the commands so that ``fourhundred --help`` is
quick. The layers import one way, engine <- bots <- server <- cli: nothing
below imports this package.
"""

from __future__ import annotations

import importlib

import typer

from .help import HelpGroup

COMMAND_MODULES: tuple[str, ...] = (
    "fourhundred.cli.records",
    "fourhundred.cli.server",
    "fourhundred.cli.bots",
    "fourhundred.cli.play",
    "fourhundred.cli.loadtest",
    "fourhundred.cli.admin",
    "fourhundred.cli.fairplay",
)
"""Modules that add subcommands (each defines ``register(app: typer.Typer)``)."""

app = typer.Typer(
    cls=HelpGroup,
    name="fourhundred",
    help="400 (arba'meyeh), the Lebanese and Syrian partnership card game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """400 (arba'meyeh): play, replay and serve the partnership card game."""


for _module in COMMAND_MODULES:
    importlib.import_module(_module).register(app)


def main() -> None:
    """Entry point of the ``fourhundred`` console script."""
    app()
