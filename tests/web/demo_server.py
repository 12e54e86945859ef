"""The client's files served for the browser tests and the screenshots,
with what its demo mode needs from a server: the demo scenes
(``tests/web/demo``, not part of the package), the rules catalogue
(``GET /api/presets``) and the demo game's replay
(``GET /api/games/demo/replay``), both built by the server's own code.
"""

from __future__ import annotations

import functools
import http.server
import json
import posixpath
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "fourhundred" / "web"
DEMO = Path(__file__).resolve().parent / "demo"


def _api(path: str) -> Any | None:
    """The JSON body for an API path the demo uses, or None."""
    from fourhundred.server.api import presets_json
    from fourhundred.server.replays import replay_json

    if path == "/api/presets":
        return presets_json()
    if path == "/api/games/demo/replay":
        scene = json.loads((DEMO / "replay.json").read_text(encoding="utf-8"))
        return replay_json("demo", scene["record"])
    return None


class DemoHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the stdlib attribute
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".json": "application/json",
        ".svg": "image/svg+xml",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=str(WEB), **kwargs)

    def translate_path(self, path: str) -> str:
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if clean.startswith("/demo/"):
            return str(DEMO / posixpath.basename(clean))
        return super().translate_path(path)

    def do_GET(self) -> None:
        body = _api(self.path.split("?", 1)[0])
        if body is None:
            super().do_GET()
            return
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve() -> Iterator[str]:
    """Serve on a free loopback port; yields the base URL."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(DemoHandler))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
