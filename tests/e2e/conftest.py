"""Browser tests: Debian's Chromium driven by Playwright for Python.

Two kinds of page: the client's demo mode served as static files (no server:
the rendering, keyboard, languages and small screens), and the real product,
a ``fourhundred serve`` process started here on a free port with its own
SQLite database (the whole flow: register, create, invite, bid, play).
Chromium is Debian's (``apt-get install -y chromium``, done by ``make
services``); Playwright's browser download is never used.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# The helper modules beside this file (fh_e2e), as the other test folders do.
sys.path.insert(0, str(Path(__file__).resolve().parent))

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 860}


class Pages:
    """Opens pages in fresh contexts and remembers every script error."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(
        self,
        url: str | None = None,
        *,
        viewport: dict[str, int] | None = None,
        locale: str = "en-GB",
        strict_csp: bool = False,
    ) -> Any:
        """A page in a context of its own. Playwright's ``wait_for_function``
        polls with a string it evaluates in the page, which the server's
        Content-Security-Policy (no ``unsafe-eval``) refuses: tests drive
        pages with the policy bypassed, except ``strict_csp`` pages
        (tests/e2e/test_live_csp.py walks the whole client under it)."""
        context = self.browser.new_context(
            viewport=viewport or DESKTOP, locale=locale, bypass_csp=not strict_csp
        )
        context.set_default_timeout(15000)
        self.contexts.append(context)
        page = context.new_page()
        self.watch(page)
        if url:
            page.goto(url)
        return page

    def watch(self, page: Any) -> None:
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        # What the page says on its console: texts missing in a language
        # (i18n.js), in demo mode the commands it would send (app.js), and
        # every error (a failed request is one too).
        page.i18n_missing = []
        page.demo_sent = []
        page.console_errors = []

        def console(msg: Any) -> None:
            text = msg.text
            if msg.type == "error":
                page.console_errors.append(text)
            if text.startswith("i18n: no "):
                page.i18n_missing.append(text)
            elif text.startswith("demo: send "):
                page.demo_sent.append(json.loads(text.removeprefix("demo: send ")))

        page.on("console", console)

    def close(self) -> None:
        for c in self.contexts:
            with contextlib.suppress(Exception):
                c.close()


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    p = Pages(browser)
    try:
        yield p
        assert p.errors == [], "script errors in the page"
    finally:
        p.close()


@pytest.fixture
def demo(pages: Pages, static_url: str) -> Callable[..., Any]:
    """Open a demo scene: demo("play", lang="ar", phone=True)."""

    def open_scene(name: str, *, lang: str = "en", phone: bool = False) -> Any:
        page = pages.new(viewport=PHONE if phone else DESKTOP)
        page.goto(f"{static_url}/?demo={name}&lang={lang}")
        page.wait_for_selector("main#main > *")
        return page

    return open_scene


# ------------------------------------------------------------ the server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fourhundred() -> list[str]:
    exe = Path(sys.executable).with_name("fourhundred")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("fourhundred")
    return [found] if found else [sys.executable, "-m", "fourhundred.cli"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real `fourhundred serve` on a free port with a fresh SQLite file."""
    yield from _serve(tmp_path_factory)


@pytest.fixture(scope="module")
def quick_timer_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """As `server`, with turn timers ten times shorter (15 s -> 1.5 s)."""
    yield from _serve(tmp_path_factory, {"FOURHUNDRED_TEST_TIMER_SCALE": "0.1"})


def _serve(
    factory: pytest.TempPathFactory, env_extra: dict[str, str] | None = None
) -> Iterator[str]:
    for url, _db in serve_with_db(factory, env_extra):
        yield url


def serve_with_db(
    factory: pytest.TempPathFactory, env_extra: dict[str, str] | None = None
) -> Iterator[tuple[str, str]]:
    """A real `fourhundred serve` (as the `server` fixture) and its database
    URL, for tests that also use the command line on it."""
    data = factory.mktemp("server")
    port = _free_port()
    db = f"sqlite+aiosqlite:///{data / 'fourhundred.db'}"
    log = (data / "server.log").open("wb")
    cmd = [
        *_fourhundred(),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--database-url",
        db,
        # Bots answer at once (the page itself paces what it shows) and think
        # in a thread: the browser and the tests need the machine's cores.
        "--bot-delay",
        "0",
        "--bot-workers",
        "0",
        # Substitutes finish timed-out games quickly (the default, the
        # expert, searches for half a second a card).
        "--substitute",
        "heuristic",
        # No fair-play checks: seconds of CPU per finished game.
        "--fair-play",
        "off",
        "--log-text",
        # Every page of a module signs in from 127.0.0.1: the abuse limits
        # (tests/security) stay out of the way.
        "--guest-limit",
        "1000",
        "--rooms-per-address",
        "1000",
        "--rooms-per-user",
        "1000",
        "--table-limit",
        "1000",
    ]
    env = {**os.environ, "FOURHUNDRED_DATA": str(data), **(env_extra or {})}
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=data)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            if proc.poll() is not None:
                log.flush()
                text = (data / "server.log").read_text(errors="replace")[-3000:]
                pytest.fail(f"`{' '.join(cmd)}` exited with {proc.returncode}:\n{text}")
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2) as r:
                    if r.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                pytest.fail("the server did not answer /healthz within 60 s")
            time.sleep(0.2)
        yield url, db
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


# ---------------------------------------------------------------- checks

# Roles a person operates; each must have an accessible name.
CONTROL_ROLES = {
    "button",
    "link",
    "textbox",
    "combobox",
    "checkbox",
    "radio",
    "slider",
    "tab",
    "spinbutton",
    "searchbox",
    "switch",
    "menuitem",
}

_TEXTS_JS = """() => {
    // Visible text and the names/hints of elements, outside player-written
    // content (names, chat: marked translate="no"), plus the words found in
    // that content (a name may appear inside an aria-label).
    const out = [], user = [];
    // A player's own words, or text marked as another language on purpose
    // (the language switch says "English" in English).
    const root = document.documentElement;
    const other = (el) => {
        const l = el.closest('[lang]');
        return l && l !== root && l.lang !== root.lang;
    };
    const isUser = (el) => el.closest('[translate="no"]') || other(el);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || el.closest('script, style, noscript, svg')) continue;
        const text = n.textContent.trim();
        if (!text) continue;
        const box = el.getBoundingClientRect();
        const empty = box.width === 0 && box.height === 0 && !el.closest('.sr-only, #live');
        const hidden = getComputedStyle(el).visibility === 'hidden' || empty;
        if (hidden) continue;
        (isUser(el) ? user : out).push(text);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
        for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
            const v = el.getAttribute(a);
            if (v) out.push(v);
        }
    }
    out.push(document.title);
    return { texts: out, user };
}"""


class Checks:
    """What every screen must pass: no sideways scrolling on a phone, names
    for every control, and (in Arabic) right to left with no English."""

    @staticmethod
    def horizontal_overflow(page: Any) -> int:
        """How many pixels the page is wider than the viewport (0 is right)."""
        return int(
            page.evaluate(
                "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
                " - window.innerWidth"
            )
        )

    @staticmethod
    def unnamed_controls(page: Any) -> list[str]:
        """Controls with no accessible name, from Chromium's accessibility tree."""
        cdp = page.context.new_cdp_session(page)
        try:
            tree = cdp.send("Accessibility.getFullAXTree")
        finally:
            cdp.detach()
        bad = []
        for node in tree["nodes"]:
            if node.get("ignored"):
                continue
            role = node.get("role", {}).get("value")
            name = (node.get("name", {}) or {}).get("value", "")
            if role in CONTROL_ROLES and not str(name).strip():
                bad.append(f"{role} (backend node {node.get('backendDOMNodeId')})")
        return bad

    @staticmethod
    def untranslated(page: Any) -> list[str]:
        """Latin words in an Arabic page that are not a player's own words."""
        import re

        got = page.evaluate(_TEXTS_JS)
        allowed = set()
        for text in got["user"]:
            allowed |= set(re.findall(r"[A-Za-z]{2,}", text))
        bad = []
        for text in got["texts"]:
            words = [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in allowed]
            if words:
                bad.append(text)
        return bad

    @staticmethod
    def missing_keys(page: Any) -> list[str]:
        return list(page.i18n_missing)


@pytest.fixture(scope="session")
def checks() -> Checks:
    return Checks()
