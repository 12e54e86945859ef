"""An idle HTTP/1.1 connection stays open longer than clients and load
balancers keep theirs (docs/deploy.md): a request on a connection idle for
6 s is answered on that same connection, not cut by the server closing it
at 5 s (uvicorn's default, the same as httpx's own limit, so a reused
connection could be closed under a request)."""

from __future__ import annotations

import http.client
import time

from fh_server_helpers import Server


def test_an_idle_connection_outlives_the_clients_limit(server: Server) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", "/healthz")
        first = conn.getresponse()
        assert first.status == 200 and not first.will_close
        first.read()
        sock = conn.sock
        time.sleep(6)
        conn.request("GET", "/healthz")  # on a closed socket: RemoteDisconnected
        again = conn.getresponse()
        assert again.status == 200
        again.read()
        assert conn.sock is sock  # the same connection
    finally:
        conn.close()
