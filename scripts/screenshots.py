"""Write screenshots of each main screen of the browser client.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots]

Every screen is shown in English and in Arabic, on a 360 px phone and on a
desktop, as ``docs/screenshots/SCREEN-LANG-DEVICE.png``. The pages are the
client's demo scenes (``tests/web/demo``: real engine views in the
server's frames), served with the client's files by
``tests/web/demo_server.py``, so the pictures need no server and come out
the same each time. Needs Debian's Chromium
(``apt-get install -y chromium``).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "tests" / "web" / "demo"
DEMO_SERVER = ROOT / "tests" / "web" / "demo_server.py"
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    "--headless",
    "--no-sandbox",
]
DEVICES = {
    "phone": {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2},
    "desktop": {"viewport": {"width": 1280, "height": 860}, "device_scale_factor": 1},
}
# (file name, demo scene, what to do on the page before the picture)
SCREENS: list[tuple[str, str, str | None]] = [
    ("home", "home", None),
    ("lobby", "lobby", None),
    ("create-table", "lobby", "create"),
    ("waiting-room", "room", None),
    ("table-bidding", "bid", None),
    ("table-playing", "play", None),
    ("score-sheet", "play", "scores"),
    ("game-over", "over", None),
    ("replay", "replay", "replay"),
    ("profile", "profile", None),
    ("leaderboard", "leaderboard", None),
]


def _demo_server() -> Any:
    """tests/web/demo_server.py: the client's files, the demo scenes and the
    API answers the demo mode asks for."""
    spec = importlib.util.spec_from_file_location("demo_server", DEMO_SERVER)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _prepare(page: Any, step: str | None, lang: str) -> None:
    """Bring the screen to the state worth showing."""
    if step == "create":
        name = "أنشئ طاولة" if lang == "ar" else "Create a table"
        page.get_by_role("button", name=name).first.click()
        page.locator("dialog[open]").wait_for()
    elif step == "scores":
        page.locator('.tool[data-key="scores"]').click()
        page.locator("dialog[open]").wait_for()
    elif step == "replay":
        # A few cards into the first hand, so the trick shows.
        for _ in range(7):
            page.locator('[data-key="r-next"]').click()
    page.wait_for_timeout(450)  # let the card animations finish


def _scene_for(scene: str, lang: str) -> str:
    """The Arabic variant of a scene (Arabic names) when there is one."""
    if lang == "ar" and (DEMO / f"{scene}_ar.json").exists():
        return f"{scene}_ar"
    return scene


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print("Chromium is missing: run `apt-get install -y chromium`.", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    jobs = [(s, lang, d) for s in SCREENS for lang in ("en", "ar") for d in DEVICES]
    written = []
    with (
        _demo_server().serve() as base,
        sync_playwright() as p,
        Progress(
            TextColumn("[bold]screenshots"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.description}"),
        ) as progress,
    ):
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        task = progress.add_task("", total=len(jobs))
        for (name, scene, step), lang, device in jobs:
            progress.update(task, description=f"{name}-{lang}-{device}")
            context = browser.new_context(**DEVICES[device], locale=lang)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            page.goto(f"{base}/?demo={_scene_for(scene, lang)}&lang={lang}")
            page.locator("main#main > *").first.wait_for()
            _prepare(page, step, lang)
            path = args.out / f"{name}-{lang}-{device}.png"
            page.screenshot(path=str(path))
            context.close()
            if errors:
                print(f"{path.name}: script errors: {errors}", file=sys.stderr)
                return 1
            written.append(path)
            progress.advance(task)
        browser.close()
    size = sum(p.stat().st_size for p in written)
    print(f"wrote {len(written)} screenshots to {args.out} ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
