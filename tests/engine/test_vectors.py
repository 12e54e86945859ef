"""The 150 public conformance vectors (tests/data/public-records.json.gz:
each a record and the result or error it must give; the formats are those of
docs/game-record.md).

Every vector goes through ``replay_result`` in process, through one
``fourhundred replay --jsonl`` process with the C core and one with the
pure-Python core; a sample also goes through ``fourhundred replay FILE``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fourhundred.engine import RecordError, replay_result

ERROR_LINE = re.compile(r"^hand (-|\d+) action (-|\d+): \S.*$")


def check_error_text(text: str, hand: object) -> None:
    """``text`` is the one-line error of docs/game-record.md and names hand ``hand``."""
    assert "\n" not in text, text
    assert text.startswith(f"hand {hand} "), f"expected an error in hand {hand}, got {text!r}"
    m = ERROR_LINE.match(text)
    assert m, f"not 'hand H action A: reason': {text!r}"
    if m.group(1) == "-":
        assert m.group(2) == "-", f"an error outside any hand has no action: {text!r}"


def check_result(got: dict[str, Any], vector: dict[str, Any]) -> None:
    expect = vector["expect"]
    if expect.get("error"):
        assert set(got) == {"error"}, f"{vector['name']} should be refused, got {got}"
        check_error_text(got["error"], expect["hand"])
    else:
        assert got == expect, vector["name"]


def test_vector_replay_result(vector: dict[str, Any]) -> None:
    expect = vector["expect"]
    if expect.get("error"):
        with pytest.raises(RecordError) as info:
            replay_result(vector["record"])
        check_error_text(str(info.value), expect["hand"])
    else:
        assert replay_result(vector["record"]) == expect


def test_vectors_cover_every_kind(vectors: list[dict[str, Any]]) -> None:
    kinds = {v["name"].split("-")[0] for v in vectors}
    assert kinds == {"full", "partial", "illegal"}
    assert len(vectors) == 150
    # Some illegal vectors fault the record as a whole, some a hand, some an action.
    hands = {v["expect"]["hand"] for v in vectors if v["expect"].get("error")}
    assert "-" in hands
    assert 0 in hands
    assert any(isinstance(h, int) and h > 0 for h in hands)


# ------------------------------------------------------- one record per process

# Each process costs the CLI's start-up, so the sample is small: a whole
# game, a partial one read from standard input, an illegal action, and a
# fault of the record as a whole.
SAMPLE = [
    ("full-0", False),
    ("partial-27", True),  # next is a bid; read from standard input ("-")
    ("illegal-4", False),  # plays in a thrown-in hand: hand 1 action 4
    ("illegal-13", False),  # an unknown setting: hand - action -
]


def test_cli_replay_file_sample(
    vectors: list[dict[str, Any]], run_cli: Any, tmp_path: Path
) -> None:
    by_name = {v["name"]: v for v in vectors}
    for name, from_stdin in SAMPLE:
        vector = by_name[name]
        text = json.dumps(vector["record"])
        if from_stdin:
            proc = run_cli(["replay", "-"], stdin=text)
        else:
            path = tmp_path / f"{name}.json"
            path.write_text(text, encoding="utf-8")
            proc = run_cli(["replay", str(path)])
        expect = vector["expect"]
        if expect.get("error"):
            assert proc.returncode == 2, (name, proc.stderr)
            assert proc.stdout == "", name
            lines = proc.stderr.splitlines()
            assert len(lines) == 1, (name, proc.stderr)
            check_error_text(lines[0], expect["hand"])
            assert "Traceback" not in proc.stderr
        else:
            assert proc.returncode == 0, (name, proc.stderr)
            assert proc.stderr == ""
            out = proc.stdout.splitlines()
            assert len(out) == 1, name
            assert json.loads(out[0]) == expect, name


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (None, "cannot read"),  # the file does not exist
        ("{not json", "not valid JSON"),
    ],
)
def test_cli_replay_bad_input_is_one_line(
    run_cli: Any, tmp_path: Path, content: str | None, fragment: str
) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    proc = run_cli(["replay", str(path)])
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    if content is None:  # no record at all: a plain message, not a record's error
        assert lines[0] == f"cannot read {path}: No such file or directory"
    else:
        check_error_text(lines[0], "-")
    assert fragment in lines[0]
    assert "Traceback" not in proc.stderr


# ------------------------------------------------------ all records, one process

# Lines that are not records, inserted among the vectors: each must give an
# error line of its own while the others go on.
NOT_RECORDS = {3: "", 10: "this is not json", 20: "[1, 2]", 40: "   "}


def jsonl_input(vectors: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any] | None]]:
    """The --jsonl input text and, per line, the vector it holds (None for junk)."""
    lines: list[str] = []
    owners: list[dict[str, Any] | None] = []
    for v in vectors:
        while len(lines) in NOT_RECORDS:
            lines.append(NOT_RECORDS[len(lines)])
            owners.append(None)
        lines.append(json.dumps(v["record"]))
        owners.append(v)
    return "\n".join(lines) + "\n", owners


def check_jsonl_output(
    proc: subprocess.CompletedProcess[str], owners: list[dict[str, Any] | None]
) -> list[str]:
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert len(out) == len(owners), "one result line per input line, in order"
    for line, owner in zip(out, owners, strict=True):
        got = json.loads(line)
        if owner is None:
            assert set(got) == {"error"}, got
            check_error_text(got["error"], "-")
        else:
            check_result(got, owner)
    return out


@pytest.fixture(scope="module")
def jsonl_case(vectors: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any] | None]]:
    return jsonl_input(vectors)


@pytest.fixture(scope="module")
def compiled_jsonl_output(
    jsonl_case: tuple[str, list[dict[str, Any] | None]],
    run_cli: Any,
    tmp_path_factory: pytest.TempPathFactory,
) -> list[str]:
    """Every vector through one `fourhundred replay --jsonl FILE` process."""
    text, owners = jsonl_case
    path = tmp_path_factory.mktemp("jsonl") / "records.jsonl"
    path.write_text(text, encoding="utf-8")
    proc = run_cli(["replay", "--jsonl", str(path)])
    return check_jsonl_output(proc, owners)


def test_cli_jsonl_every_vector(compiled_jsonl_output: list[str]) -> None:
    assert len(compiled_jsonl_output) == 150 + len(NOT_RECORDS)


def test_cli_jsonl_pure_python_core_agrees(
    jsonl_case: tuple[str, list[dict[str, Any] | None]],
    compiled_jsonl_output: list[str],
    run_cli: Any,
) -> None:
    """The same input on standard input, with FOURHUNDRED_PURE_PYTHON=1:
    every result right, and line for line the same as the C core's."""
    text, owners = jsonl_case
    pure = run_cli(["replay", "--jsonl", "-"], stdin=text, env={"FOURHUNDRED_PURE_PYTHON": "1"})
    assert check_jsonl_output(pure, owners) == compiled_jsonl_output


def test_pure_python_switch_really_switches() -> None:
    """The environment variable the test above relies on does select the
    pure-Python core, and without it the C core is used when it is built."""
    code = (
        "from fourhundred.engine import _core; "
        "print(_core.PURE_PYTHON, _core.COMPILED, _core.PlayCore.__module__)"
    )

    def probe(pure: bool) -> list[str]:
        env = dict(os.environ)
        env.pop("FOURHUNDRED_PURE_PYTHON", None)
        if pure:
            env["FOURHUNDRED_PURE_PYTHON"] = "1"
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        )
        return proc.stdout.split()

    assert probe(pure=True) == ["True", "False", "fourhundred.engine._pycore"]
    if importlib.util.find_spec("fourhundred.engine._speedups") is not None:
        assert probe(pure=False) == ["False", "True", "fourhundred.engine._speedups"]
    else:  # no C compiler where this was installed: the fallback is used
        assert probe(pure=False) == ["False", "False", "fourhundred.engine._pycore"]


def test_cli_jsonl_unreadable_file_fails(run_cli: Any, tmp_path: Path) -> None:
    proc = run_cli(["replay", "--jsonl", str(tmp_path / "missing.jsonl")])
    assert proc.returncode != 0
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_cli_jsonl_line_that_is_not_utf8(run_cli: Any, tmp_path: Path) -> None:
    """A line of bytes that are not UTF-8 is an error on that line only, from
    a file as from standard input (once a file gave up on the whole run)."""
    path = tmp_path / "records.jsonl"
    path.write_bytes(b'{"format": 1}\n\xff\xfe bad\n[]\n')
    proc = run_cli(["replay", "--jsonl", str(path)])
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 3
    for got in out:
        assert set(got) == {"error"}
        check_error_text(got["error"], "-")
    assert "UTF-8" in out[1]["error"]
