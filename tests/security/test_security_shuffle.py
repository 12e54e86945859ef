"""Shuffles come from ``secrets``: the server's deals cannot be reproduced
from a seed. By reading the code (the server never hands the engine a seed
or a ``random.Random``; ``decide`` deals and picks the first dealer only
from the random source its facts carry, and the table actor gives it
``secrets.SystemRandom()``) and by playing: tables set up identically, one
after the other, get different deals."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

from fh_wire import Account, Server

from fourhundred.engine import GameState

SERVER = Path(__file__).resolve().parents[2] / "src" / "fourhundred" / "server"


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return _dotted(node.func) + "()"
    return type(node).__name__


def _server_calls() -> list[tuple[str, ast.Call]]:
    out = []
    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out += [
            (path.relative_to(SERVER).as_posix(), n)
            for n in ast.walk(tree)
            if isinstance(n, ast.Call)
        ]
    return out


SOURCE = "facts.rng"
"""What ``decide`` deals from: the random source its caller gives it."""


def _module_constants() -> dict[str, str]:
    """Module-level names bound to a call, by file: ``{"table.py:_RNG": ...}``."""
    out = {}
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            target = node.target if isinstance(node, ast.AnnAssign) else None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
            value = getattr(node, "value", None)
            if isinstance(target, ast.Name) and isinstance(value, ast.Call):
                out[f"{path.relative_to(SERVER).as_posix()}:{target.id}"] = _dotted(value)
    return out


def test_the_server_deals_only_from_secrets() -> None:
    deals = facts = 0
    constants = _module_constants()
    for where, call in _server_calls():
        name = _dotted(call.func).rsplit(".", 1)[-1]
        if name == "deal_random":
            deals += 1
            assert not call.args and not call.keywords, f"{where}: deal_random with a seed"
        elif name == "deal_masks":
            deals += 1
            assert [_dotted(a) for a in call.args] == [SOURCE], where
            assert not call.keywords, where
        elif name == "Facts":
            # Whoever builds a decision's facts gives it the system's source.
            facts += 1
            (rng,) = [k.value for k in call.keywords if k.arg == "rng"]
            source = _dotted(rng)
            source = constants.get(f"{where}:{source}", source)
            assert source == "secrets.SystemRandom()", f"{where}: Facts(rng={source})"
        elif name == "GameState":
            assert all(k.arg != "rng" for k in call.keywords), f"{where}: GameState(rng=...)"
        elif _dotted(call.func) in ("random.Random", "Random", "random.seed", "seed"):
            raise AssertionError(f"{where}: {_dotted(call.func)}() in the server")
    assert deals >= 1, "the server deals somewhere (or this test reads the wrong code)"
    assert facts >= 1, "the server decides somewhere (or this test reads the wrong code)"


def test_the_first_dealer_is_drawn_from_secrets() -> None:
    found = []
    for where, call in _server_calls():
        if not _dotted(call.func).endswith("Started"):
            continue  # the fold replays a stored `started`; only making one draws
        for k in call.keywords:
            if k.arg == "first_dealer":
                found.append((where, _dotted(k.value)))
    assert found, "a `started` event names the first dealer"
    assert all(v == f"{SOURCE}.randrange()" for _, v in found), found


def test_the_engine_default_shuffle_is_not_reproducible() -> None:
    deals = set()
    for _ in range(20):
        s = GameState(first_dealer=0)
        s.deal_random()
        deals.add(tuple(s.hand(seat) for seat in range(4)))
    assert len(deals) == 20


async def test_identical_tables_get_different_deals(sec_server: Server) -> None:
    """Four tables, each one person and three bots, the same rules, set up
    the same way: each person's first hand differs from every other's (two
    equal 13-card hands by chance: about 1 in 6e11)."""
    hands = []
    for i in range(4):
        a = await Account(sec_server.url, f"Shuf{i}").guest()
        try:
            made = await a.create_table(kind="private", settings={"target": 41}, timer=90)
            w = await a.wire()
            await w.join(invite=made["invite"])
            for seat in (1, 2, 3):
                assert (await w.request("add_bot", seat=seat, bot="random"))["type"] == "ack"
            assert (await w.request("ready", ready=True))["type"] == "ack"
            assert await w.wait(lambda w=w: bool((w.latest() or {}).get("view")), 20)
            view = next(f["view"] for f in w.frames if f.get("view"))
            assert view["hand_index"] == 0 and len(view["hand"]) == 13
            hands.append(frozenset(view["hand"]))
            assert (await w.request("leave"))["type"] == "ack"
            await w.close()
        finally:
            await a.aclose()
    for x, y in itertools.combinations(hands, 2):
        assert x != y
    # Together they hold far more than one hand's worth of distinct cards.
    assert len(frozenset().union(*hands)) >= 24
