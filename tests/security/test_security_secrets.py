"""Secrets come from the environment or are generated, never from the repo:
no tracked file holds anything that looks like a key, a token or a
password, and the server holds no secret constant (its session tokens,
invite codes and ids come from ``secrets``; the database URL, the only
credential it takes, from ``--database-url`` or the environment)."""

from __future__ import annotations

import ast
import math
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest
import typer

from fourhundred import cli
from fourhundred.cli.serveconfig import OPTION_FIELDS, server_config

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "fourhundred" / "server"
STORE = ROOT / "src" / "fourhundred" / "store"

# Formats of real credentials: these never belong in a repository.
FORMATS = {
    "private key": re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----"),
    "AWS access key": re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    "GitHub token": re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b"),
    "Slack token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),
    "Stripe key": re.compile(r"\b[rs]k_live_[0-9A-Za-z]{20,}\b"),
    "JSON web token": re.compile(
        r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"
    ),
    # user:password@ in a URL, unless the password is a placeholder
    # (PASSWORD, <password>, ${VAR}, ***).
    "password in a URL": re.compile(
        r"\b[a-z][a-z0-9+.-]*://[^\s/:@'\"]+:(?![A-Z_]+@|<[^>]*>@|\$\{[^}]*\}@|\*+@)[^\s/@'\"]+@"
    ),
}
# NAME = "long random string", where NAME says secret (outside the tests,
# whose made-up passwords are test data).
ASSIGNED = re.compile(
    r"""(?i)\b[\w.]*(?:secret|api_?key|access_?key|auth_?token|passw(?:or)?d|private_?key|salt)"""
    r"""[\w.]*["']?\s*[:=]\s*["']([^"'\s]{16,})["']"""
)
FILES = re.compile(
    r"(^|/)(\.env(\..*)?|.*\.pem|.*\.key|.*\.p12|.*\.pfx|id_rsa.*|id_ed25519.*|\.pypirc|\.netrc)$"
)


def entropy(text: str) -> float:
    """Bits per character (a random token has 4 or more).

    >>> round(entropy("aaaa"), 2), entropy("abcd")
    (0.0, 2.0)
    """
    counts = Counter(text)
    return sum(n / len(text) * math.log2(len(text) / n) for n in counts.values())


def findings(path: str, text: str) -> list[str]:
    """What in ``text`` (the file ``path``) looks like a secret."""
    out = []
    if FILES.search(path):
        out.append(f"{path}: a credentials file is tracked")
    for name, pattern in FORMATS.items():
        for m in pattern.finditer(text):
            out.append(f"{path}: {name}: {m.group(0)[:40]}")
    if not path.startswith("tests/"):
        for m in ASSIGNED.finditer(text):
            value = m.group(1)
            if entropy(value) >= 3.5 and not re.fullmatch(r"[A-Z_]+", value):
                out.append(f"{path}: a hard-coded secret: {m.group(0)[:60]}")
    return out


def tracked_files() -> list[str]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout
        return [p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: every file
        skip = {".git", ".venv", "node_modules", "data", ".mypy_cache", ".ruff_cache"}
        return [
            str(p.relative_to(ROOT))
            for p in ROOT.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(ROOT).parts)
        ]


def test_the_scanner_finds_what_it_looks_for() -> None:
    # Built at run time, so that this file holds no key-looking text itself.
    key = "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIE..."
    assert findings("src/x.py", key)
    assert findings("src/x.py", "aws = '" + "AKIA" + "ABCDEFGHIJKLMNOP'")
    assert findings("src/x.py", "t = 'ghp_" + "a1B2" * 9 + "'")
    assert findings("docs/x.md", "postgresql://app:" + "s3cr3tPw" + "@db/x")
    assert findings("src/x.py", 'SECRET_KEY = "' + "q8Zr2LmX0vTn4PwK9sYb" + '"')
    assert findings("config/.env", "")
    # Not secrets: placeholders, names, test passwords, short words.
    assert not findings("docs/x.md", "postgresql+asyncpg://USER:PASSWORD@HOST/DB")
    assert not findings("docs/x.md", "postgresql://postgres@127.0.0.1:5432/test")
    assert not findings("src/x.py", 'COOKIE = "fh_session"')
    assert not findings("tests/x.py", 'PASSWORD = "' + "q8Zr2LmX0vTn4PwK9sYb" + '"')
    assert not findings("src/x.py", 'password: str = "..."')


def test_no_tracked_file_holds_a_secret() -> None:
    files = tracked_files()
    assert len(files) > 50, "the scan sees the repository"
    found = []
    for path in files:
        full = ROOT / path
        if not full.is_file() or full.stat().st_size > 2_000_000:
            continue
        try:
            text = full.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary (images, fonts): no text secrets
        found += findings(path, text)
    assert not found, "\n".join(found)


def _modules(*dirs: Path) -> list[tuple[Path, ast.Module]]:
    return [
        (p, ast.parse(p.read_text(encoding="utf-8"))) for d in dirs for p in sorted(d.rglob("*.py"))
    ]


SECRET_NAME = re.compile(r"(?i)secret|key|token|passw|salt|pepper|credential")


def test_the_server_holds_no_secret_constant() -> None:
    offenders = []
    for path, tree in _modules(SERVER, STORE):
        for node in ast.walk(tree):
            targets: list[ast.expr] = []
            value = None
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign):
                targets, value = [node.target], node.value
            for t in targets:
                name = (
                    t.id
                    if isinstance(t, ast.Name)
                    else t.attr
                    if isinstance(t, ast.Attribute)
                    else ""
                )
                if (
                    SECRET_NAME.search(name)
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str | bytes)
                    and len(value.value) >= 8
                ):
                    offenders.append(f"{path.name}:{node.lineno} {name} = {value.value!r}")
    assert not offenders, offenders


def _calls(tree: ast.Module) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)]


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def test_tokens_codes_and_ids_come_from_secrets() -> None:
    modules = {p.relative_to(SERVER).as_posix(): t for p, t in _modules(SERVER)}
    # `random` is not for secrets. The modules that hold sessions, games and
    # the wire do not import it at all; elsewhere (back-off jitter, the order
    # in which a process takes over tables) no function that makes a token,
    # an id, a code or a deal touches it.
    wire = ("auth.py", "table.py", "room.py", "ws.py", "protocol.py", "frames.py", "decide.py")
    for name in (*wire, *(n for n in modules if n.startswith("api/"))):
        for node in ast.walk(modules[name]):
            if isinstance(node, ast.Import):
                assert all(a.name != "random" for a in node.names), name
            if isinstance(node, ast.ImportFrom):
                assert node.module != "random", name
    secret_makers = {
        "deal_masks",
        "deal_random",
        "token_urlsafe",
        "token_hex",
        "randbelow",
        "new_session_token",
        "new_user_id",
        "SystemRandom",
    }
    for name, tree in modules.items():
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            called = {_dotted(c.func) for c in ast.walk(fn) if isinstance(c, ast.Call)}
            if {c.rsplit(".", 1)[-1] for c in called} & secret_makers:
                assert not [c for c in called if c.startswith("random.")], f"{name}:{fn.name}"
    # Each generator of a session token, invite, table or user id.
    made = {
        _dotted(c.func)
        for tree in modules.values()
        for c in _calls(tree)
        if _dotted(c.func).startswith("secrets.")
    }
    # Tokens and ids; deals and first dealers from the system's source.
    assert {"secrets.token_urlsafe", "secrets.SystemRandom"} <= made, made
    auth = modules["auth.py"]
    funcs = {f.name: f for f in ast.walk(auth) if isinstance(f, ast.FunctionDef)}
    for fn in ("new_session_token", "new_user_id"):
        called = {_dotted(c.func) for c in ast.walk(funcs[fn]) if isinstance(c, ast.Call)}
        assert "secrets.token_urlsafe" in called, fn
    creation = modules["creation.py"]
    src = ast.unparse(creation)
    assert "invite = secrets.token_urlsafe(16)" in src, "128-bit invite codes"


def test_the_database_credential_comes_from_the_option_or_the_environment() -> None:
    command = typer.main.get_command(cli.app)
    serve = command.commands["serve"]  # type: ignore[attr-defined]
    param = next(p for p in serve.params if p.name == "database_url")
    assert param.default is None, "no built-in database URL (with a password) in the code"
    # Left out, it comes from the environment (read by fourhundred.env).
    secret = "postgresql://app:PASSWORD@db.internal/fh"
    given = dict.fromkeys(OPTION_FIELDS)
    assert server_config(given, {"FOURHUNDRED_DATABASE_URL": secret}).database_url == secret
    assert server_config(given, {}).database_url is None


@pytest.mark.parametrize("path", ["src/fourhundred/server/config.py"])
def test_the_config_has_no_secret_fields(path: str) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    cls = next(
        n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == "ServerConfig"
    )
    names = [
        n.target.id
        for n in cls.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    ]
    assert names, "ServerConfig has fields"
    assert not [n for n in names if SECRET_NAME.search(n)], names
