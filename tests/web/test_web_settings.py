"""The client holds no copy of the rules: its forms come from the server's
catalogue (js/settings.js over GET /api/presets), and no module computes a
trick winner, a bid value, a required total, a score or a winner."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fh_web import blank_page

from fourhundred.engine import SETTING_CHOICES, SETTING_RANGES, SETTING_SWITCHES, STANDARD
from fourhundred.server.api import presets_json

JS = Path(__file__).resolve().parents[2] / "src" / "fourhundred" / "web" / "js"


@pytest.fixture(scope="module")
def js(browser: Any, static_url: str) -> Iterator[Any]:
    with blank_page(browser, static_url) as page:
        page.evaluate("async () => { window.W = await import('/js/settings.js'); }")
        yield page


def test_the_form_is_built_from_the_catalogue(js: Any) -> None:
    specs = js.evaluate("(c) => W.settingSpecs(c)", presets_json())
    assert [s["name"] for s in specs] == list(STANDARD.to_dict())
    for s in specs:
        if s["type"] == "int":
            assert (s["min"], s["max"]) == SETTING_RANGES[s["name"]]
        elif s["type"] == "choice":
            assert tuple(s["choices"]) == SETTING_CHOICES[s["name"]]
        else:
            assert s["type"] == "bool" and s["name"] in SETTING_SWITCHES


def test_the_catalogue_is_asked_of_the_server_once(js: Any) -> None:
    got = js.evaluate(
        "async () => { const a = await W.loadCatalog(); const b = await W.loadCatalog();"
        " return [a === b, a.presets.map((p) => p.name)]; }"
    )
    assert got == [True, [p["name"] for p in presets_json()["presets"]]]


RULES = re.compile(
    r"trickWinner|bidValue|requiredTotal|winningTeam|legalCards|legalBids|interimView"
    r"|LEBANESE|CLASSIC|\[0, 1, 2, 3, 4, 10, 12"
)


def test_no_module_computes_a_rule() -> None:
    found = [
        f"{p.relative_to(JS)}: {m.group(0)}"
        for p in JS.rglob("*.js")
        for m in RULES.finditer(p.read_text(encoding="utf-8"))
    ]
    assert found == []
    assert not (JS / "rules.js").exists() and not (JS / "replayer.js").exists()
