"""``fourhundred serve``'s options and ``ServerConfig`` agree: each option
sets one config field, its default is the field's (written once, in the
config), the help shows it, and a left-out option falls back on its
environment variable."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from fourhundred import env
from fourhundred.cli import app
from fourhundred.cli.serveconfig import FROM_ENV, OPTION_FIELDS, server_config
from fourhundred.server.config import ServerConfig, default_bot

FIELDS = {f.name: f for f in dataclasses.fields(ServerConfig)}


def serve_params() -> dict[str, Any]:
    command = typer.main.get_command(app)
    serve = command.commands["serve"]  # type: ignore[attr-defined]
    return {p.name: p for p in serve.params if p.name and p.name != "help"}


def test_every_option_sets_a_config_field() -> None:
    params = serve_params()
    assert set(params) == set(OPTION_FIELDS)
    assert set(OPTION_FIELDS.values()) <= set(FIELDS)


@pytest.mark.parametrize("option", sorted(OPTION_FIELDS))
def test_an_option_default_is_the_config_default(option: str) -> None:
    param = serve_params()[option]
    field = FIELDS[OPTION_FIELDS[option]]
    if option in FROM_ENV or field.default is dataclasses.MISSING or field.default in (None, ()):
        # Left out: the environment or the config decides; the help says what.
        assert param.default is None, option
        shown = getattr(param, "show_default", None)
        assert isinstance(shown, str) and shown, option
        if field.default not in (dataclasses.MISSING, None, ()):
            assert shown == str(field.default), option
    else:
        assert param.default == field.default, option
        assert getattr(param, "show_default", True) is not False, option


def test_the_shown_bot_is_the_default_bot() -> None:
    assert serve_params()["bot"].show_default == default_bot()


def test_the_help_shows_the_defaults_and_the_variables() -> None:
    out = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    plain = ServerConfig(bot="random", bot_workers=1, node="n")
    for shown in (
        plain.host,
        plain.port,
        plain.bot_budget_ms,
        plain.bot_delay_s,
        plain.ws_rate,
        plain.waiting_expiry_s,
        plain.auth_limit_per_minute,
        plain.guest_limit_per_minute,
        plain.rooms_per_address,
        plain.table_limit_per_minute,
        plain.chat_limit_per_minute,
        plain.friend_request_limit_per_hour,
        plain.report_limit_per_hour,
        plain.redis_prefix,
        plain.lease_ms,
    ):
        assert f"[default: {shown}]" in out or f"[default: ({shown})]" in out, shown
    for name in (env.DATABASE_URL, env.DATABASE_URL_FALLBACK, env.REDIS_URL, env.REDIS_PREFIX):
        assert f"${name}" in out, name
    assert f"${env.LEASE_MS}" in out and f"${env.NODE}" in out


def test_options_win_over_the_environment_which_wins_over_the_defaults() -> None:
    environ = {
        env.DATABASE_URL_FALLBACK: "postgresql://db/fallback",
        env.REDIS_PREFIX: "env:",
        env.LEASE_MS: "4000",
        env.NODE: "web-9",
        env.TIMER_SCALE: "0.5",
    }
    left_out = dict.fromkeys(OPTION_FIELDS)
    c = server_config(left_out, environ)
    assert c.database_url == "postgresql://db/fallback"
    assert (c.redis_prefix, c.lease_ms, c.node, c.timer_scale) == ("env:", 4000, "web-9", 0.5)
    assert c.redis_url is None and c.port == FIELDS["port"].default
    given = {**left_out, "redis_prefix": "opt:", "lease_ms": 900, "database_url": "sqlite://"}
    c = server_config(given, environ)
    assert (c.redis_prefix, c.lease_ms, c.database_url) == ("opt:", 900, "sqlite://")
    bare = server_config(left_out, {})
    assert bare.redis_prefix == FIELDS["redis_prefix"].default
    assert bare.lease_ms == FIELDS["lease_ms"].default
    assert bare.allowed_origins == () and bare.database_url is None


@pytest.mark.parametrize(
    ("name", "value"),
    [(env.LEASE_MS, "10"), (env.LEASE_MS, "soon"), (env.TIMER_SCALE, "fast")],
)
def test_a_bad_variable_is_refused_by_name(name: str, value: str) -> None:
    with pytest.raises(env.BadEnvironment, match=name):
        server_config(dict.fromkeys(OPTION_FIELDS), {name: value})
    result = CliRunner().invoke(app, ["serve"], env={name: value})
    assert result.exit_code == 1 and name in result.stderr


@pytest.mark.parametrize("node", ["*", "web 1", "web:1", "a/b", "x" * 65])
def test_a_node_name_that_keys_and_channels_cannot_hold_is_refused(node: str) -> None:
    # Lease values are NODE:TOKEN, user keys NODE/socket, and the inbox
    # "node:*" is every process's: such a name would be misread.
    result = CliRunner().invoke(app, ["serve", "--node", node])
    assert result.exit_code == 1 and "--node" in result.stderr


def test_fair_play_takes_the_config_modes_only() -> None:
    from fourhundred.cli.server import FairPlayChoice
    from fourhundred.server.config import FAIR_PLAY_MODES

    assert tuple(c.value for c in FairPlayChoice) == FAIR_PLAY_MODES
    c = server_config({**dict.fromkeys(OPTION_FIELDS), "fair_play": FairPlayChoice.all}, {})
    assert c.fair_play == "all" and type(c.fair_play) is str
    result = CliRunner().invoke(app, ["serve", "--fair-play", "sometimes"])
    assert result.exit_code == 2 and "--fair-play" in result.output + result.stderr
