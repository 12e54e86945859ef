"""The database schema (SQLAlchemy Core tables).

The schema itself is created and changed only by the Alembic migrations in
``migrations/versions``; these definitions are what the queries use, and a
test checks that they match the migrated database.

Times are integer milliseconds since the epoch (``*_ms``). JSON columns hold
plain JSON values.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    # Lower-cased; null for guests.
    sa.Column("username", sa.String(32), nullable=True, unique=True),
    sa.Column("password_hash", sa.Text, nullable=True),
    sa.Column("guest", sa.Boolean, nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    # OpenSkill (Plackett-Luce) rating.
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("rated_games", sa.Integer, nullable=False, server_default="0"),
    sa.Column("games", sa.Integer, nullable=False, server_default="0"),
    sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
    sa.Column("bids_made", sa.Integer, nullable=False, server_default="0"),
    sa.Column("bids", sa.Integer, nullable=False, server_default="0"),
    # A deleted account: anonymised, kept for the games it played.
    sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
)

sessions = sa.Table(
    "sessions",
    metadata,
    # sha256 of the cookie's token: a stolen database holds no usable session.
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column(
        "user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("expires_ms", sa.BigInteger, nullable=False),
    # The device, as named from the sign-in's User-Agent (never the header).
    sa.Column("browser", sa.String(40), nullable=False, server_default=""),
    sa.Column("system", sa.String(40), nullable=False, server_default=""),
    sa.Index("ix_sessions_expires", "expires_ms"),
    sa.Index("ix_sessions_user", "user_id"),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    # waiting | playing | over | closed
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("invite", sa.String(64), nullable=True, unique=True),
    sa.Column("host", sa.String(32), nullable=True),
    sa.Column("version", sa.Integer, nullable=False),
    # The lobby's row (seats, settings...), rewritten with each room change.
    sa.Column("summary", sa.JSON, nullable=False),
    sa.Column("open_seats", sa.Integer, nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("updated_ms", sa.BigInteger, nullable=False),
    # Wall-clock deadline of the running turn, for resuming timers.
    sa.Column("deadline_ms", sa.BigInteger, nullable=True),
    # The process that runs the table (issue 6: a lease holder).
    sa.Column("owner", sa.String(64), nullable=True),
    sa.Column("finished_ms", sa.BigInteger, nullable=True),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("reason", sa.String(16), nullable=True),
    sa.Column("scores", sa.JSON, nullable=True),
    sa.Column("hands", sa.Integer, nullable=True),
    # The game record (docs/game-record.md), once the game is over.
    sa.Column("record", sa.JSON, nullable=True),
    # The tournament this table's game is a match of.
    sa.Column("tournament", sa.String(32), nullable=True),
    # The fair-play check of a finished game (docs/fair-play.md, "Reports"):
    # when a process claimed it (taken again once the claim is old: that
    # process died) and when it was done.
    sa.Column("fair_play_claimed_ms", sa.BigInteger, nullable=True),
    sa.Column("fair_play_checked_ms", sa.BigInteger, nullable=True),
    sa.Index("ix_tables_status_kind", "status", "kind"),
    sa.Index("ix_tables_tournament", "tournament"),
    sa.Index("ix_tables_host_status", "host", "status"),
    sa.Index("ix_tables_fair_play", "fair_play_checked_ms", "finished_ms"),
)

table_events = sa.Table(
    "table_events",
    metadata,
    sa.Column(
        "table_id",
        sa.String(32),
        sa.ForeignKey("tables.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(32), nullable=False),
    # The event; a deal also holds its cards (never sent to a client).
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at_ms", sa.BigInteger, nullable=False),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column(
        "table_id",
        sa.String(32),
        sa.ForeignKey("tables.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.String(32), nullable=False),
    # False once the player left (a bot plays on); the seat no longer holds them.
    sa.Column("active", sa.Boolean, nullable=False),
    sa.Index("ix_seats_user", "user_id"),
)

game_players = sa.Table(
    "game_players",
    metadata,
    sa.Column(
        "table_id",
        sa.String(32),
        sa.ForeignKey("tables.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.String(32), nullable=True),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("rating_before", sa.Integer, nullable=True),
    sa.Column("rating_after", sa.Integer, nullable=True),
    sa.Column("bids_made", sa.Integer, nullable=False),
    sa.Column("bids", sa.Integer, nullable=False),
    sa.Column("finished_ms", sa.BigInteger, nullable=False),
    sa.Index("ix_game_players_user", "user_id", "finished_ms"),
)

heartbeats = sa.Table(
    "heartbeats",
    metadata,
    sa.Column("node", sa.String(64), primary_key=True),
    sa.Column("alive_ms", sa.BigInteger, nullable=False),
)

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    # Null for a tournament the server scheduled itself.
    sa.Column("organiser", sa.String(32), nullable=True),
    # open | running | finished | cancelled
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("invite", sa.String(64), nullable=True, unique=True),
    sa.Column("start_ms", sa.BigInteger, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    # The list's row (format, teams, rules...), rewritten with each event.
    sa.Column("summary", sa.JSON, nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("updated_ms", sa.BigInteger, nullable=False),
    sa.Index("ix_tournaments_status_start", "status", "start_ms"),
)

tournament_events = sa.Table(
    "tournament_events",
    metadata,
    sa.Column(
        "tournament_id",
        sa.String(32),
        sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at_ms", sa.BigInteger, nullable=False),
)


def _user_key(name: str) -> sa.Column[str]:
    return sa.Column(
        name, sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )


friends = sa.Table(
    "friends",
    metadata,
    # Accepted: one row each way. A request: one row from the asker.
    _user_key("user_id"),
    _user_key("friend_id"),
    sa.Column("accepted", sa.Boolean, nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Index("ix_friends_friend", "friend_id"),
)

blocks = sa.Table(
    "blocks",
    metadata,
    _user_key("user_id"),
    _user_key("blocked_id"),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
)

table_invites = sa.Table(
    "table_invites",
    metadata,
    _user_key("to_user"),
    sa.Column(
        "table_id",
        sa.String(32),
        sa.ForeignKey("tables.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("from_user", sa.String(32), nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
)

# ------------------------------------------------------------- moderation
# (docs/moderation.md): moderators, reports, penalties, the audit log and
# the chat log that lets a moderator read the chat around a reported moment.

moderators = sa.Table(
    "moderators",
    metadata,
    _user_key("user_id"),
    sa.Column("granted_ms", sa.BigInteger, nullable=False),
)

reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    # Null: filed by the server itself (a fair-play check), never a person.
    sa.Column("reporter", sa.String(32), nullable=True),
    sa.Column("reported", sa.String(32), nullable=False),
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("note", sa.Text, nullable=True),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("version", sa.Integer, nullable=True),
    # What a system report found (free-form JSON for the moderator).
    sa.Column("details", sa.JSON, nullable=True),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    # open | resolved
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("resolution", sa.Text, nullable=True),
    sa.Column("resolved_by", sa.String(32), nullable=True),
    sa.Column("resolved_ms", sa.BigInteger, nullable=True),
    sa.Index("ix_reports_status_created", "status", "created_ms"),
    sa.Index("ix_reports_reported", "reported", "created_ms"),
)

penalties = sa.Table(
    "penalties",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.String(32), nullable=False),
    # warn | mute | suspend | ban
    sa.Column("kind", sa.String(16), nullable=False),
    # Null for a warning (nothing lasts) and a ban (for ever).
    sa.Column("until_ms", sa.BigInteger, nullable=True),
    sa.Column("reason", sa.Text, nullable=False),
    # Null: an operator at the command line.
    sa.Column("moderator", sa.String(32), nullable=True),
    sa.Column("report", sa.String(32), nullable=True),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Index("ix_penalties_user", "user_id", "created_ms"),
)

audit = sa.Table(
    "audit",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    # Null: an operator at the command line.
    sa.Column("moderator", sa.String(32), nullable=True),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("target", sa.String(32), nullable=True),
    sa.Column("report", sa.String(32), nullable=True),
    sa.Column("details", sa.JSON, nullable=False),
    sa.Column("at_ms", sa.BigInteger, nullable=False),
    sa.Index("ix_audit_at", "at_ms"),
)

chat_log = sa.Table(
    "chat_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), nullable=False),
    # The table's version when the line was said: the moment it belongs to.
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("user_id", sa.String(32), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("channel", sa.String(16), nullable=False),
    # As said (unmasked): a moderator judges what was written.
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at_ms", sa.BigInteger, nullable=False),
    sa.Index("ix_chat_log_table", "table_id", "at_ms"),
    sa.Index("ix_chat_log_at", "at_ms"),
)

fair_play_pairs = sa.Table(
    "fair_play_pairs",
    metadata,
    # A partnership of two people (user_a < user_b) and its fair-play
    # evidence added up over its games together (docs/fair-play.md).
    sa.Column("user_a", sa.String(32), primary_key=True),
    sa.Column("user_b", sa.String(32), primary_key=True),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("deals", sa.Integer, nullable=False),
    # The sums of ``fourhundred.bots.fairplay.Evidence``.
    sa.Column("decisions", sa.Integer, nullable=False),
    sa.Column("llr", sa.Float, nullable=False),
    sa.Column("llr_sq", sa.Float, nullable=False),
    sa.Column("gain", sa.Float, nullable=False),
    sa.Column("discriminating", sa.Integer, nullable=False),
    sa.Column("agree_true", sa.Integer, nullable=False),
    sa.Column("agree_ref", sa.Integer, nullable=False),
    sa.Column("hand_sq", sa.Float, nullable=False),
    sa.Column("policy_decisions", sa.Integer, nullable=False, server_default="0"),
    sa.Column("policy", sa.Float, nullable=False, server_default="0"),
    sa.Column("policy_hand_sq", sa.Float, nullable=False, server_default="0"),
    # The ids of the reports last filed about the pair (null: none yet).
    sa.Column("reports", sa.JSON, nullable=True),
    sa.Column("updated_ms", sa.BigInteger, nullable=False),
)
