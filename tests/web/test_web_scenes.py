"""The demo scenes committed under web/demo are exactly what the engine
produces today (python tests/web/scenes.py rewrites them)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from fourhundred.engine import Settings

HERE = Path(__file__).resolve().parent


def _scenes_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("web_scenes", HERE / "scenes.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_committed_scenes_are_current() -> None:
    mod = _scenes_module()
    scenes = mod.build_scenes()
    stale = []
    for name, scene in scenes.items():
        path = mod.DEMO_DIR / f"{name}.json"
        if not path.exists():
            stale.append(name)
            continue
        committed = json.loads(path.read_text(encoding="utf-8"))
        # The analysis is the search bot's opinion: it moves when the bot does.
        if name.startswith("replay"):
            assert committed["analysis"]["hands"], name
            committed["analysis"] = None
        if mod.render(committed) != mod.render(scene):
            stale.append(name)
    extra = sorted(p.stem for p in mod.DEMO_DIR.glob("*.json") if p.stem not in scenes)
    assert stale == [], "run: python tests/web/scenes.py"
    assert extra == []


def test_table_scenes_hold_engine_views() -> None:
    mod = _scenes_module()
    for name, scene in mod.build_scenes().items():
        frame = scene.get("frame")
        if not frame or frame["view"] is None:
            continue
        view = frame["view"]
        assert view["format"] == "fourhundred-view/1"
        Settings.from_dict(view["rules"])
        if frame["you"]["seat"] is None:
            assert "hand" not in view, name
        else:
            assert view["seat"] == frame["you"]["seat"]
        json.dumps(scene)
