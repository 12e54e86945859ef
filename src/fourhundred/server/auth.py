"""Accounts and sessions: guests with a name, registered users with an
argon2id-hashed password, and session tokens kept in an HttpOnly cookie.

The database keeps only a token's SHA-256, so a copy of it opens no session.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import unicodedata
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from fourhundred.store import Store, User

from .errors import CommandError

__all__ = [
    "COOKIE",
    "SESSION_TTL_MS",
    "check_name",
    "check_password",
    "check_username",
    "hash_password",
    "new_session_token",
    "new_user_id",
    "token_hash",
    "user_for_token",
    "verify_password",
]

COOKIE: Final = "fh_session"
SESSION_TTL_MS: Final = 30 * 24 * 3600 * 1000
_USERNAME: Final = re.compile(r"[A-Za-z0-9_.-]{3,24}")
_hasher: Final = PasswordHasher()
# Verified against when the username does not exist, so that a wrong
# username takes as long as a wrong password (no probing for accounts).
_DUMMY_HASH: Final = _hasher.hash(secrets.token_hex(16))


def new_user_id() -> str:
    return "u_" + secrets.token_urlsafe(9)


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_name(name: str) -> str:
    """A display name, trimmed; ``CommandError`` (``bad_request``) if unusable.

    >>> check_name("  Rami ")
    'Rami'
    >>> check_name("a\\u202eb")
    Traceback (most recent call last):
    ...
    fourhundred.server.errors.CommandError: name: no control characters allowed
    """
    name = name.strip()
    if any(unicodedata.category(c)[0] == "C" for c in name):
        raise CommandError("bad_request", "name: no control characters allowed")
    if not 1 <= len(name) <= 24:
        raise CommandError("bad_request", "name: 1 to 24 characters")
    return name


def check_username(username: str) -> str:
    if not _USERNAME.fullmatch(username):
        raise CommandError("bad_request", "username: 3 to 24 letters, digits, '_', '.' or '-'")
    return username


def check_password(password: str) -> str:
    if not 8 <= len(password) <= 256:
        raise CommandError("bad_request", "password: 8 to 256 characters")
    return password


async def hash_password(password: str) -> str:
    """An argon2id hash (in a thread: hashing takes tens of milliseconds)."""
    return await asyncio.to_thread(_hasher.hash, password)


async def verify_password(hashed: str | None, password: str) -> bool:
    def run() -> bool:
        try:
            return _hasher.verify(hashed or _DUMMY_HASH, password) and hashed is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(run)


async def user_for_token(store: Store, token: str | None, now_ms: int) -> User | None:
    """The user of a session cookie's token, or None."""
    if not token or len(token) > 128:
        return None
    return await store.session_user(token_hash(token), now_ms)
