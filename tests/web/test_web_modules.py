"""Every ES module of the client loads in Chromium, and every relative
import names a file that exists (no build step hides a broken path)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

WEB = Path(__file__).resolve().parents[2] / "src" / "fourhundred" / "web"


MODULES = sorted(p.relative_to(WEB).as_posix() for p in (WEB / "js").rglob("*.js"))
IMPORT = re.compile(r"""^\s*import\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["'];?""", re.M)
NAMED = re.compile(r"""^\s*import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']""", re.M)
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function|const|let|class)\s+(\w+)", re.M)


def test_there_are_modules() -> None:
    assert "js/app.js" in MODULES
    assert "js/net.js" in MODULES
    assert len(MODULES) >= 15


def test_relative_imports_resolve_and_name_real_exports() -> None:
    problems = []
    for rel in MODULES:
        path = WEB / rel
        text = path.read_text(encoding="utf-8")
        for spec in IMPORT.findall(text):
            if not spec.startswith("."):
                problems.append(f"{rel}: bare import {spec!r} needs a bundler")
                continue
            if not (path.parent / spec).resolve().is_file():
                problems.append(f"{rel}: {spec} does not exist")
        for names, spec in NAMED.findall(text):
            target = (path.parent / spec).resolve()
            if not target.is_file():
                continue
            exported = set(EXPORT.findall(target.read_text(encoding="utf-8")))
            for name in (n.split(" as ")[0].strip() for n in names.split(",")):
                if name and name not in exported:
                    problems.append(f"{rel}: {spec} exports no {name!r}")
    assert not problems, "\n".join(problems)


def test_every_module_imports_in_chromium(page: Any, static_url: str) -> None:
    failures = page.evaluate(
        """async (mods) => {
            const out = [];
            for (const m of mods) {
                // app.js boots the page; the others must have no side effects.
                if (m === "js/app.js") continue;
                try { await import("/" + m); } catch (e) { out.push(m + ": " + e); }
            }
            return out;
        }""",
        MODULES,
    )
    assert failures == []
    assert page.errors == []


def test_index_html_loads_the_app_as_a_module() -> None:
    html = (WEB / "index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="js/app.js">' in html
    assert 'name="viewport"' in html
    assert 'id="live"' in html and 'aria-live="polite"' in html


def test_what_is_served_holds_no_test_hooks_nor_demo_scenes() -> None:
    """Tests read the page another way (its console) or inject what they
    need; the demo scenes live in tests/web/demo."""
    hooks = re.compile(r"(?:window|globalThis|self)\.__\w+")
    found = [
        f"{p.relative_to(WEB)}: {m.group(0)}"
        for p in WEB.rglob("*")
        if p.is_file() and p.suffix in (".js", ".html")
        for m in hooks.finditer(p.read_text(encoding="utf-8"))
    ]
    assert found == []
    assert not (WEB / "demo").exists()
    assert not list(WEB.rglob("*.json"))
