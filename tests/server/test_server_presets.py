"""GET /api/presets is the engine's catalogue of rules, which the browser's
forms are built from (docs/protocol.md, "Rules and presets")."""

from __future__ import annotations

import httpx
from fh_server_helpers import Server

from fourhundred.bots import BOTS
from fourhundred.engine import (
    PRESET_NOTES,
    PRESETS,
    SETTING_CHOICES,
    SETTING_RANGES,
    SETTING_SWITCHES,
    TARGETS_OFFERED,
    TURN_TIMERS,
    Settings,
)


async def test_presets_are_the_engines_catalogue(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        r = await http.get("/api/presets")
    assert r.status_code == 200
    got = r.json()
    assert [p["name"] for p in got["presets"]] == list(PRESETS)
    for p in got["presets"]:
        assert Settings.from_dict(p["settings"]) == PRESETS[p["name"]]
        assert p["note"] == PRESET_NOTES[p["name"]]
        assert list(p["settings"]) == list(Settings().to_dict())
    assert got["timers"] == list(TURN_TIMERS)
    assert got["targets_offered"] == list(TARGETS_OFFERED)
    assert got["ranges"] == {k: list(v) for k, v in SETTING_RANGES.items()}
    assert got["choices"] == {k: list(v) for k, v in SETTING_CHOICES.items()}
    assert got["switches"] == list(SETTING_SWITCHES)
    assert got["bots"] == sorted(BOTS)
    # Every setting is exactly one of: a range, a choice, a switch.
    kinds = [*got["ranges"], *got["choices"], *got["switches"]]
    assert sorted(kinds) == sorted(Settings().to_dict())
