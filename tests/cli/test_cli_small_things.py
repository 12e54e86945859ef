"""Small things a newcomer trips on: the Makefile names only targets it has,
``loadtest`` says when it did not measure memory, and a bot-protocol
``hello`` without a protocol is answered without "None"."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from fourhundred.bots import make_bot
from fourhundred.bots.guest import serve
from fourhundred.cli.loadstats import LoadResult, summary_text

ROOT = Path(__file__).parents[2]


def _make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"(?m)^([A-Za-z][\w-]*):", text))


def test_every_make_command_named_in_the_makefile_and_readme_exists() -> None:
    targets = _make_targets()
    assert {"test", "serve", "install"} <= targets
    comments = "\n".join(
        line
        for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    )
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`make ([a-z][\w-]*)`", comments + readme))
    named |= set(re.findall(r"(?m)^make ([a-z][\w-]*)", readme))
    assert named, "the check found nothing to check"
    assert named - targets == set(), f"named but not in the Makefile: {named - targets}"


def _result(before: int | None, during: int | None) -> LoadResult:
    return LoadResult(
        tables=4,
        duration_s=1.0,
        actions=10,
        actions_per_s=10.0,
        p50_ms=1.0,
        p95_ms=2.0,
        p99_ms=3.0,
        max_ms=4.0,
        errors=0,
        error_codes={},
        disconnects=0,
        games_finished=0,
        server_rss_bytes_before=before,
        server_rss_bytes_during=during,
    )


def test_loadtest_without_a_server_pid_says_memory_was_not_measured() -> None:
    text = summary_text(_result(None, None), servers=1)
    assert "None" not in text
    assert "server memory: not measured (give --server-pid)" in text
    measured = summary_text(_result(1000, 5000), servers=1)
    assert "server rss per table: 1000.0 bytes" in measured


def test_a_hello_without_protocol_is_answered_without_none() -> None:
    out, err = io.StringIO(), io.StringIO()
    source = io.StringIO(json.dumps({"type": "hello"}) + "\n" + json.dumps({"type": "quit"}) + "\n")
    assert serve(make_bot("random", seed=1), "random", source, out, err) == 0
    assert json.loads(out.getvalue())["type"] == "ready"
    assert "None" not in err.getvalue()
    assert "names no protocol" in err.getvalue()
    other = io.StringIO()
    source = io.StringIO(json.dumps({"type": "hello", "protocol": "x/9"}) + "\n")
    serve(make_bot("random", seed=1), "random", source, io.StringIO(), other)
    assert "host speaks 'x/9'" in other.getvalue()
