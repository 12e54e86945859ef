"""The shape of the server's socket, table-locating and queue layer: one
idea per module, none that asks whether it runs in a cluster, and the
cluster transport's insides left to it."""

from __future__ import annotations

import re
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "fourhundred" / "server"
PARTS = (
    "hub.py",
    "sockets.py",
    "locator.py",
    "cluster_locator.py",
    "remote.py",
    "cluster.py",
    "cluster_messages.py",
    "ranked.py",
    "ranked_queue.py",
    "creation.py",
    "heartbeat.py",
)


def test_no_module_asks_whether_it_runs_in_a_cluster() -> None:
    for path in SERVER.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"cluster is (not )?None", text), path.name


def test_only_the_transport_touches_its_outbox() -> None:
    for path in SERVER.glob("*.py"):
        if path.name != "cluster.py":
            assert not re.search(r"\._out\b", path.read_text(encoding="utf-8")), path.name


def test_the_parts_are_small() -> None:
    for name in PARTS:
        lines = (SERVER / name).read_text(encoding="utf-8").count("\n")
        assert lines <= 450, f"{name}: {lines} lines"


def test_the_cluster_transport_reads_no_environment() -> None:
    text = (SERVER / "cluster.py").read_text(encoding="utf-8")
    assert "os.environ" not in text and "getenv" not in text
    assert "default_prefix" not in text


def test_the_created_event_is_built_in_one_place() -> None:
    makers = [
        path.relative_to(SERVER).as_posix()
        for path in SERVER.rglob("*.py")
        if re.search(r"\bCreated\(\s*table_kind=", path.read_text(encoding="utf-8"))
    ]
    assert makers == ["creation.py"]
