"""How one server process is set up.

``fourhundred serve`` builds a :class:`ServerConfig` from its options, whose
defaults are this class's (the environment is read by ``fourhundred.env``).
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

__all__ = ["FAIR_PLAY_MODES", "FairPlayMode", "ServerConfig", "default_bot"]

WEB_DIR: Final = Path(__file__).resolve().parent.parent / "web"

FairPlayMode = Literal["off", "ranked", "all"]
FAIR_PLAY_MODES: Final[tuple[FairPlayMode, ...]] = ("off", "ranked", "all")
"""``--fair-play``: no checks, Ranked games only, or every kind of game."""


def default_bot() -> str:
    """The bot that fills seats: ``heuristic`` when it exists, else ``random``."""
    from fourhundred.bots import BOTS

    return "heuristic" if "heuristic" in BOTS else "random"


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Everything a server process needs to know (see ``fourhundred serve --help``)."""

    database_url: str | None = None
    """None: the SQLite file in the data directory."""
    host: str = "127.0.0.1"
    port: int = 8400
    bot: str = field(default_factory=default_bot)
    """The bot a host adds when naming no level (``add_bot`` without one)."""
    substitute: str = "expert"
    """The bot that stands in for a player who left or timed out; an expert
    falls back to the heuristic while the bot pool cannot keep up."""
    bot_budget_ms: int = 500
    """Thinking time per decision for bots that search (and for a hint)."""
    bot_delay_s: float = 0.6
    """A bot waits at least this long before acting, so people can follow."""
    bot_workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    """Processes in the bot pool (0: think in a thread, for small machines)."""
    timer_scale: float = 1.0
    """Test-only speed-up of every turn timer (``fourhundred.env.TIMER_SCALE``)."""
    secure_cookies: bool = False
    """Mark the session cookie ``Secure`` (behind HTTPS)."""
    node: str = field(default_factory=lambda: f"node-{secrets.token_hex(4)}")
    """This process's name in the tables' ``owner`` column and heartbeats."""
    event_buffer: int = 32
    """Events each table keeps in memory for clients that reconnect (a
    catchup); one who missed more gets a snapshot, which is just as whole."""
    web_dir: Path = WEB_DIR
    log_json: bool = True
    ws_rate: float = 20.0
    """Frames a second a socket may send on average (bursts of twice that)."""
    allowed_origins: tuple[str, ...] = ()
    """Other origins (``https://host``) whose pages may call the API and open
    sockets, besides the server's own."""
    auth_limit_per_minute: int = 10
    """Logins and registrations a client address may try per minute (burst too)."""
    guest_limit_per_minute: int = 10
    """Guests a client address may create per minute (burst too)."""
    rooms_per_address: int = 3
    """Open waiting rooms (Casual or Private) created from one client address."""
    rooms_per_user: int = 1
    """Open waiting rooms one user may host."""
    table_limit_per_minute: int = 5
    """Tables one user may create per minute (burst too)."""
    chat_limit_per_minute: int = 30
    """Chat lines one user may send per minute over all tables (burst too;
    each table also allows at most 5 in 10 seconds)."""
    friend_request_limit_per_hour: int = 30
    """Friend requests one user may send per hour (burst too)."""
    invite_limit_per_hour: int = 60
    """Invitations to a table one user may send per hour (burst too)."""
    report_limit_per_hour: int = 10
    """Reports one user may file per hour (burst too)."""
    chat_filter: str = "default"
    """The chat filter's word list (docs/moderation.md, "Chat filter"):
    ``default`` (the shipped list), ``off``, or a file's path."""
    ranked_timer: int = 30
    matchmaking_interval_s: float = 0.5
    finished_linger_s: float = 120.0
    waiting_expiry_s: float = 1800.0
    """A waiting room nobody has had open for this long is closed (it leaves
    the lobby and frees its players' seats)."""
    """How long a finished table's actor stays loaded for chat and late joins."""
    redis_url: str | None = None
    """Scale-out (docs/deploy.md): share tables with other processes through
    this Redis (and the PostgreSQL ``database_url``). None: one process."""
    redis_prefix: str = "fh:"
    """Prefix of every Redis key and channel (several clusters, one Redis)."""
    tournament_poll_s: float = 1.0
    """How often a tournament's director looks at its match tables (results,
    forfeits) and at its stored log (another process's writes)."""
    tournament_limit_per_minute: int = 30
    """Tournament requests (create, enter, check in...) a user may make per
    minute (burst too)."""
    tournaments_file: Path | None = None
    """System tournaments to schedule (docs/tournaments.md, "System
    tournaments"); None: only players' tournaments."""
    fair_play: FairPlayMode = "ranked"
    """Which finished games the collusion detector checks (docs/fair-play.md,
    "Reports"): ``off``, ``ranked`` (Ranked games only) or ``all``."""
    fair_play_interval_s: float = 30.0
    """How often the fair-play sweeper looks for finished games to check."""
    lease_ms: int = 3000
    """Life of a table's lease: a dead process's tables move after this."""
