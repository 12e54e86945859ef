"""A blank page in a real Chromium (the browser and the static file server
are the fixtures of ``tests/conftest.py``).

The client is plain files (``src/fourhundred/web``); these tests load its
ES modules in Debian's Chromium to check that they import, that the two
languages match, and that they draw what the server sends.
Chromium comes from ``apt-get install -y chromium`` (``make services``);
Playwright's own browser download is never used.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fh_web import blank_page


@pytest.fixture
def page(browser: Any, static_url: str) -> Iterator[Any]:
    with blank_page(browser, static_url) as pg:
        yield pg
