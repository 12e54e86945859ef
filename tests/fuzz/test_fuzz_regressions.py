"""Regression tests for the frame-level bugs the fuzzer found (fixed in the
server by commit abf2fab). Each docstring says what was sent, what the
contract expects, and what the server used to do."""

from __future__ import annotations

import pytest
from fh_wire import CLOSE_CODES, Account, Server, Wire


async def _reply_and_alive(
    w: Wire, data: str | bytes, binary: bool = False
) -> tuple[dict[str, object], bool]:
    """The reply to one frame, and whether the socket still answers a ping."""
    n = len(w.frames)
    await w.send(data, binary=binary)
    outcome = await w.next_reply(n, 10)
    frame: dict[str, object] = outcome.frame or {
        "type": outcome.kind,
        "close_code": outcome.close_code,
    }
    alive = False
    if not w.closed:
        try:
            alive = (await w.request("ping", timeout=10))["type"] == "pong"
        except (TimeoutError, ConnectionError):
            alive = False
    return frame, alive


@pytest.mark.parametrize(
    "nest",
    ["[" * 2000 + "]" * 2000, '{"a": ' * 2000 + "1" + "}" * 2000],
    ids=["arrays", "objects"],
)
async def test_deeply_nested_json_gets_an_error_frame(fuzz_server: Server, nest: str) -> None:
    """Sent: ``{"type": "configure", "id": 1, "settings": {"target": <JSON
    nested 2000 deep>}}`` (8 KB). Expected: an ``error`` (``bad_json`` or
    ``bad_message``), the socket still open. Used to: no reply at all --
    msgspec raised ``RecursionError`` while decoding the ``Any`` of
    ``settings``, ``ws.py`` caught only ``CommandError``, the handler died
    and the socket was closed with 1000."""
    a = await Account(fuzz_server.url, "Deep").guest()
    try:
        w = await a.wire()
        frame, alive = await _reply_and_alive(
            w, '{"type": "configure", "id": 1, "settings": {"target": ' + nest + "}}"
        )
        assert frame.get("type") == "error", frame
        assert frame.get("code") in ("bad_json", "bad_message"), frame
        assert alive, "the socket must stay open after an ordinary refusal"
        await w.close()
    finally:
        await a.aclose()


@pytest.mark.parametrize("char", ["\u20ac", "\U0001f0a1", "\u0628"], ids=["euro", "card", "ba"])
async def test_a_frame_over_64_kib_of_utf8_is_too_large(fuzz_server: Server, char: str) -> None:
    """Sent: a chat frame of about 66,000 UTF-8 bytes in 2- to 4-byte
    characters (fewer than 65,536 characters). Expected: ``error``
    ``too_large``, then the close 1009 (the limit is 64 KiB of frame). Used
    to: decoded and refused as an ordinary ``bad_message``, the socket left
    open -- the size test counted characters, not bytes, so frames of up to
    256 KiB of UTF-8 got through."""
    a = await Account(fuzz_server.url, "Wide").guest()
    try:
        w = await a.wire()
        n = (64 * 1024 + 500) // len(char.encode()) + 1
        data = '{"type": "chat", "id": 1, "text": "' + char * n + '"}'
        assert len(data) < 64 * 1024 < len(data.encode())
        frame, _ = await _reply_and_alive(w, data)
        assert frame.get("code") == "too_large", frame
        assert await w.wait(lambda: w.closed, 10) and w.close_code == 1009
    finally:
        await a.aclose()


async def test_a_binary_frame_over_64_kib_is_too_large(fuzz_server: Server) -> None:
    """Sent: a binary frame of 70 KiB. Expected: ``too_large`` and the close
    1009, like any frame over 64 KiB. Used to: ``bad_json`` ("send text
    frames of JSON, not binary") and the socket left open (binary frames
    were refused before their size was looked at)."""
    a = await Account(fuzz_server.url, "Bin").guest()
    try:
        w = await a.wire()
        frame, _ = await _reply_and_alive(w, b"x" * (70 * 1024), binary=True)
        assert frame.get("code") == "too_large", frame
        assert await w.wait(lambda: w.closed, 10) and w.close_code == 1009
    finally:
        await a.aclose()


async def test_a_non_utf8_text_frame_closes_with_a_documented_code(fuzz_server: Server) -> None:
    """Sent: a text frame whose payload is not UTF-8. The transport (uvicorn,
    as RFC 6455 requires) closes the socket with 1007 before the application
    sees the frame. Used to: 1007 was missing from protocol.md's close codes
    (which said ``bad_json`` covered "not UTF-8 text"); now it is listed."""
    a = await Account(fuzz_server.url, "Utf").guest()
    try:
        w = await a.wire()
        frame, alive = await _reply_and_alive(w, b'{"type": "ping", "id": 1, "x": "\xff"}')
        assert frame.get("type") == "closed" and not alive, frame
        assert w.close_code == 1007
        assert 1007 in CLOSE_CODES, sorted(CLOSE_CODES)
    finally:
        await a.aclose()
