"""A session's device as a person would name it (Firefox, Windows), from
the ``User-Agent`` of the request that signed in, so the account page can
say which session is which ("Firefox on Windows").

Only the names below are kept, never the header itself: the account page
and the data download show no more than a browser and a system.

>>> device_of("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0")
('Firefox', 'Windows')
>>> device_of("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
...           "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")
('Safari', 'iPhone')
>>> device_of("curl/8.5.0")
('curl', '')
>>> device_of(None)
('', '')
"""

from __future__ import annotations

from typing import Final

__all__ = ["device_of"]

_BROWSERS: Final = (
    # (a word in the header, the name), the first found wins: Edge, Opera
    # and Samsung's browser also say Chrome, and Chrome also says Safari.
    ("Edg/", "Edge"),
    ("EdgA/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("HeadlessChrome/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
_SYSTEMS: Final = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Macintosh", "macOS"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
)
_TOOLS: Final = ("curl", "python-httpx", "python-requests", "Python-urllib", "Wget", "okhttp")


def device_of(user_agent: str | None) -> tuple[str, str]:
    """The browser (or tool) and the system named by ``user_agent`` (""
    for what it does not name)."""
    if not user_agent:
        return "", ""
    ua = user_agent[:512]
    browser = next((name for word, name in _BROWSERS if word in ua), "")
    system = next((name for word, name in _SYSTEMS if word in ua), "")
    if not browser and not system:
        browser = next((t for t in _TOOLS if ua.lower().startswith(t.lower())), "")
    return browser, system
