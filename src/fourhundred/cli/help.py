"""Help screens that read whole in 80 columns.

Typer's boxed help squeezes each option's text into a narrow column at 80
columns and cuts what does not fit (``$FOURHUNDRED_DAT…``); click's plain
help breaks words at hyphens. Every ``fourhundred`` command is made with
:class:`HelpCommand` (a group with :class:`HelpGroup`), whose help is plain
text: usage, the description, then a list of arguments, options (or
commands), each with its help wrapped between words only. A default, an
environment variable or a range is kept on one line when it fits the
column. Flags show no type (no ``<bool>``).

Typer's own help record methods give the defaults, so what is shown is
what typer would show.
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Sequence
from typing import Final

from typer import _click  # the click that typer vendors: its Context and HelpFormatter
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

__all__ = ["HelpCommand", "HelpGroup"]

INDENT: Final = 2
GAP: Final = 2
TERM_MAX: Final = 24
"""Widest name column; a longer option name has its help on the next line."""
_NBSP: Final = "\xa0"
_TYPE_WORDS: Final = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER", "path": "PATH"}

Param = TyperOption | TyperArgument


def _wrap(text: str, width: int, tags: Sequence[str] = ()) -> list[str]:
    """``text`` and then ``tags`` wrapped to ``width`` between words (never
    inside one, nor at a hyphen); a tag that fits on a line is not split."""
    glued = [t.replace(" ", _NBSP) if len(t) <= width else t for t in tags]
    whole = " ".join(x for x in (" ".join(text.split()), *glued) if x)
    lines = textwrap.wrap(whole, width, break_long_words=False, break_on_hyphens=False)
    return [line.replace(_NBSP, " ") for line in lines]


def _write_rows(formatter: _click.HelpFormatter, rows: list[tuple[str, str, list[str]]]) -> None:
    """A list of (name, text, tags): names in a column, text beside them."""
    col = min(max(len(term) for term, _, _ in rows), TERM_MAX)
    width = formatter.width - INDENT - col - GAP
    pad = " " * (INDENT + col + GAP)
    for term, text, tags in rows:
        lines = _wrap(text, width, tags)
        if len(term) <= col and lines:
            formatter.write(f"{' ' * INDENT}{term:<{col}}{' ' * GAP}{lines.pop(0)}\n")
        else:
            formatter.write(f"{' ' * INDENT}{term}\n")
        formatter.write("".join(f"{pad}{line}\n" for line in lines))


def _type_word(param: Param, ctx: _click.Context) -> str:
    if param.metavar is not None:
        return param.metavar
    label = param.display_type(ctx).strip("<>").removesuffix(" range")
    label = label.removeprefix("list[").removesuffix("]")
    return _TYPE_WORDS.get(label, label.upper())


def _term(param: Param, ctx: _click.Context) -> str:
    if isinstance(param, TyperArgument):
        return param.metavar or (param.name or "").upper()
    names = ", ".join(param.opts)
    if param.secondary_opts:
        names += " / " + ", ".join(param.secondary_opts)
    if param.is_flag or param.count:
        return names
    return f"{names} {_type_word(param, ctx)}"


def _tags(param: Param, ctx: _click.Context) -> list[str]:
    """The bracketed notes after an option's help, as typer would give them."""
    tags = []
    if param.envvar and param.show_envvar:
        names = [param.envvar] if isinstance(param.envvar, str) else list(param.envvar)
        tags.append(f"[env var: {', '.join(names)}]")
    value = param._extract_default_help_str(ctx=ctx)
    as_text = isinstance(param.show_default, str)
    if as_text or (value is not None and (param.show_default or ctx.show_default)):
        shown = param._get_default_string(ctx=ctx, show_default_is_str=as_text, default_value=value)
        if shown:
            tags.append(f"[default: {shown}]")
    limits = param._get_number_range_help_str()
    if limits:
        tags.append(f"[{limits}]")
    if param.required:
        tags.append("[required]")
    return tags


def _format_help_text(cmd: _click.Command, formatter: _click.HelpFormatter) -> None:
    text = inspect.cleandoc(cmd.help or "").partition("\f")[0]
    for paragraph in text.split("\n\n"):
        if paragraph.strip():
            formatter.write("\n")
            lines = _wrap(paragraph, formatter.width - INDENT)
            formatter.write("".join(f"{' ' * INDENT}{line}\n" for line in lines))


def _format_params(
    cmd: _click.Command, ctx: _click.Context, formatter: _click.HelpFormatter
) -> None:
    params = [p for p in cmd.get_params(ctx) if isinstance(p, Param) and not p.hidden]
    for title, kind in (("Arguments", TyperArgument), ("Options", TyperOption)):
        rows = [(_term(p, ctx), p.help or "", _tags(p, ctx)) for p in params if isinstance(p, kind)]
        if rows:
            formatter.write(f"\n{title}:\n")
            _write_rows(formatter, rows)


def _usage_pieces(cmd: _click.Command, ctx: _click.Context) -> list[str]:
    pieces = [cmd.options_metavar] if cmd.options_metavar else []
    for p in cmd.get_params(ctx):
        if isinstance(p, TyperArgument):
            name = _term(p, ctx)
            pieces.append(name if p.required else f"[{name}]")
    return pieces


class HelpCommand(TyperCommand):
    """A command whose ``--help`` reads whole in 80 columns."""

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _click.Command.format_help(self, ctx, formatter)  # plain, not typer's boxes

    def collect_usage_pieces(self, ctx: _click.Context) -> list[str]:
        return _usage_pieces(self, ctx)

    def format_help_text(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _format_help_text(self, formatter)

    def format_options(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _format_params(self, ctx, formatter)


class HelpGroup(TyperGroup):
    """A group of commands whose ``--help`` reads whole in 80 columns: each
    command with the whole first paragraph of its help."""

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _click.Command.format_help(self, ctx, formatter)  # plain, not typer's boxes

    def collect_usage_pieces(self, ctx: _click.Context) -> list[str]:
        return [*_usage_pieces(self, ctx), self.subcommand_metavar]

    def format_help_text(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _format_help_text(self, formatter)

    def format_options(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _format_params(self, ctx, formatter)
        rows: list[tuple[str, str, list[str]]] = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                first = inspect.cleandoc(cmd.help or "").split("\n\n")[0]
                rows.append((name, first, []))
        if rows:
            formatter.write("\nCommands:\n")
            _write_rows(formatter, rows)
