"""Helpers for the browser tests."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["received_frames", "say", "texts"]

LANG_DIR = Path(__file__).resolve().parents[2] / "src" / "fourhundred" / "web" / "js" / "lang"


@cache
def texts(lang: str) -> dict[str, str]:
    """The page's texts in ``lang`` (the simple ``"key": "text"`` entries of
    web/js/lang/LANG.js), so the test clicks what a person would read."""
    source = (LANG_DIR / f"{lang}.js").read_text(encoding="utf-8")
    return dict(re.findall(r'^\s*"?([\w.]+)"?: "((?:[^"\\]|\\.)*)",?$', source, re.M))


def say(lang: str, key: str, **values: str) -> str:
    text = texts(lang)[key].replace("\\'", "'")
    for k, v in values.items():
        text = text.replace("{" + k + "}", v)
    return text


def received_frames(page: Any) -> list[dict[str, Any]]:
    """Every frame the page's WebSockets receive from now on, decoded, in
    order (the list fills as they come)."""
    received: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda f: received.append(json.loads(f))),
    )
    return received
