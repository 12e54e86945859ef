"""The engine is the only place a rule is computed (issue 10, item 1).

Every Python module of ``src/fourhundred`` outside ``engine/`` is parsed and
searched for the shapes a re-implemented rule takes. The engine's own play
cores (``_speedups.c`` and its twin ``_pycore.py``) are the one allowed
pair of copies, and they live inside ``engine/``, so they are not scanned.
The browser client (JavaScript) is not scanned either.

The patterns, and what to call instead:

==================  ==========================================================
pattern             what it finds
==================  ==========================================================
seat-arithmetic     ``x & 3``, ``x ^ 2``, ``x & 1``, ``x % 4``: seat and team
                    arithmetic (use ``next_seat``, ``partner_of``, ``team_of``,
                    ``other_team``, ``bidding_order``; in a hot loop the
                    ``SEAT_AFTER`` / ``TEAM_OF`` tables). ``m >> c & 1``, a
                    bit test, is not seat arithmetic.
suit-comparison     a card's suit (``c // 13``, ``SUIT_OF[c]``, ``suit_of(c)``,
                    ``.led_suit``, a name bound to one of them, or ``led``)
                    compared with the trump suit (``2``, ``Suit.HEARTS``) or
                    with another suit: how a trick is judged or a follow
                    checked (use ``trick_winner``, ``winning_index``,
                    ``beaters``, ``legal_plays``, ``SHOWN_VOID``).
follow-suit-set     ``(hand & suit) or hand``: the legal cards (use
                    ``legal_plays`` or ``GameState.legal_mask``).
bid-range           ``range(...)`` or ``lo <= x <= hi`` bounded by
                    ``lowest_bid``, ``highest_bid`` or ``bid_range()``: the
                    legal bids (use ``legal_bids()``, ``legal_actions()``,
                    ``view.legal``).
score-threshold     a comparison with 30, 40 or 50, the escalation thresholds
                    (use ``lowest_bid``, ``bid_value``, ``required_total``).
bid-value-table     a literal run of four or more values of a bid-value table
                    (use ``bid_value``).
==================  ==========================================================

The tests below plant each pattern in a snippet and check that the checker
reports it (and leaves the near misses alone): a check that cannot fail
would prove nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

import fourhundred
from fourhundred.engine.scoring import CLASSIC_VALUES, LEBANESE_VALUES

PACKAGE = Path(fourhundred.__file__).resolve().parent
ENGINE = PACKAGE / "engine"

SUIT_TABLES = frozenset({"SUIT_OF", "_SUIT_OF"})
SUIT_NAMES = frozenset({"led", "led_suit"})
"""Names that mean "the suit led" by this project's convention."""
BID_BOUNDS = frozenset({"lowest_bid", "highest_bid", "bid_range"})
THRESHOLDS = frozenset({30, 40, 50})
# Runs of four that only a bid-value table holds (the low bids' values are
# 1, 2, 3, 4 under every scoring, which is any small count).
VALUE_RUNS = frozenset(
    tuple(table[i : i + 4]) for table in (LEBANESE_VALUES, CLASSIC_VALUES) for i in range(5, 10)
)


Hit = Callable[[ast.AST, str], None]


class Finding(NamedTuple):
    path: str
    line: int
    pattern: str
    code: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.pattern}: {self.code}"


def _const(node: ast.AST, values: frozenset[int] | set[int]) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value in values


def _scope(root: ast.AST) -> Iterator[ast.AST]:
    """The nodes of one scope: ``root``'s body without nested functions."""
    stack = list(ast.iter_child_nodes(root))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))


def _callee(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Name):
            return f.id
        if isinstance(f, ast.Attribute):
            return f.attr
    return None


class _Scope:
    """The names one scope binds to a suit or to a bid bound."""

    def __init__(self, root: ast.AST) -> None:
        self.nodes = list(_scope(root))
        self.suits = set(SUIT_NAMES)
        self.bounds: set[str] = set()
        self.values: dict[str, list[ast.expr]] = {}
        """What each simple name is assigned, for ``f = h & x; f or h``."""
        for node in self.nodes:
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        self.values.setdefault(t.id, []).append(node.value)
        # Twice, so that a name bound from another bound name is seen too.
        for _ in range(2):
            for node in self.nodes:
                if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
                    if self.is_suit(node.value):
                        self.suits.update(names)
                    if self.is_bound(node.value):
                        self.bounds.update(names)

    def is_suit(self, node: ast.AST) -> bool:
        match node:
            case ast.BinOp(op=ast.FloorDiv(), right=ast.Constant(value=13)):
                return True
            case ast.Subscript(value=ast.Name(id=name)) if name in SUIT_TABLES:
                return True
            case ast.Attribute(attr="led_suit"):
                return True
            case ast.Name(id=name):
                return name in self.suits
        return _callee(node) == "suit_of"

    def is_bound(self, node: ast.AST) -> bool:
        for n in ast.walk(node):
            if _callee(n) in BID_BOUNDS or (isinstance(n, ast.Name) and n.id in self.bounds):
                return True
        return False

    def is_trump(self, node: ast.AST) -> bool:
        return _const(node, {2}) or (isinstance(node, ast.Attribute) and node.attr == "HEARTS")


def check_source(source: str, path: str = "<snippet>") -> list[Finding]:
    """Every rule pattern found in one module's source."""
    tree = ast.parse(source)
    lines = source.splitlines()
    found: set[Finding] = set()

    def hit(node: ast.AST, pattern: str) -> None:
        line = getattr(node, "lineno", 0)
        found.add(Finding(path, line, pattern, lines[line - 1].strip() if line else ""))

    roots: list[ast.AST] = [tree]
    roots += [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
    ]
    for root in roots:
        scope = _Scope(root)
        for node in scope.nodes:
            if isinstance(node, ast.BinOp):
                _check_binop(node, hit)
            elif isinstance(node, ast.Compare):
                _check_compare(node, scope, hit)
            elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
                _check_or(node, scope, hit)
            elif isinstance(node, ast.Call) and _callee(node) == "range":
                if any(scope.is_bound(a) for a in node.args):
                    hit(node, "bid-range")
            elif isinstance(node, ast.Tuple | ast.List):
                values = [e.value for e in node.elts if isinstance(e, ast.Constant)]
                runs = {tuple(values[i : i + 4]) for i in range(len(values) - 3)}
                if runs & VALUE_RUNS:
                    hit(node, "bid-value-table")
    return sorted(found)


def _is_shift(node: ast.AST) -> bool:
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.RShift | ast.LShift)


def _check_binop(node: ast.BinOp, hit: Hit) -> None:
    op, left, right = node.op, node.left, node.right
    if isinstance(op, ast.BitAnd) and (_const(right, {1, 3}) or _const(left, {1, 3})):
        if not (_is_shift(left) or _is_shift(right)):
            hit(node, "seat-arithmetic")
    elif (isinstance(op, ast.BitXor) and (_const(right, {2}) or _const(left, {2}))) or (
        isinstance(op, ast.Mod) and _const(right, {4})
    ):
        hit(node, "seat-arithmetic")


def _check_compare(node: ast.Compare, scope: _Scope, hit: Hit) -> None:
    operands = [node.left, *node.comparators]
    suits = [scope.is_suit(o) for o in operands]
    if any(suits) and (sum(suits) > 1 or any(scope.is_trump(o) for o in operands)):
        hit(node, "suit-comparison")
    if len(operands) > 2 and any(scope.is_bound(o) for o in operands):
        hit(node, "bid-range")
    if any(_const(o, THRESHOLDS) for o in operands):
        hit(node, "score-threshold")


def _check_or(node: ast.BoolOp, scope: _Scope, hit: Hit) -> None:
    last = ast.dump(node.values[-1])
    for value in node.values[:-1]:
        seen = [value]
        if isinstance(value, ast.Name):
            seen += scope.values.get(value.id, [])
        for n in (x for v in seen for x in ast.walk(v)):
            if (
                isinstance(n, ast.BinOp)
                and isinstance(n.op, ast.BitAnd)
                and last in (ast.dump(n.left), ast.dump(n.right))
            ):
                hit(node, "follow-suit-set")


def scanned_modules() -> list[Path]:
    """Every Python module of the package outside the engine."""
    return sorted(p for p in PACKAGE.rglob("*.py") if ENGINE not in p.parents)


def check_package() -> list[Finding]:
    out: list[Finding] = []
    for path in scanned_modules():
        rel = str(path.relative_to(PACKAGE.parent))
        out += check_source(path.read_text(encoding="utf-8"), rel)
    return out


# ------------------------------------------------------------------- tests


def test_no_module_outside_the_engine_computes_a_rule() -> None:
    findings = check_package()
    assert not findings, "rules computed outside the engine:\n" + "\n".join(map(str, findings))


def test_the_scan_covers_the_layers_above_the_engine() -> None:
    names = {str(p.relative_to(PACKAGE)) for p in scanned_modules()}
    for expected in ("bots/solver.py", "bots/knowledge.py", "server/table.py", "cli/play.py"):
        assert expected in names
    assert not any(n.startswith("engine/") for n in names)


PLANTED: list[tuple[str, str]] = [
    ("seat-arithmetic", "nxt = (seat + 1) & 3"),
    ("seat-arithmetic", "partner = seat ^ 2"),
    ("seat-arithmetic", "team = seat & 1"),
    ("seat-arithmetic", "bidder = (dealer + 1 + i) % 4"),
    ("seat-arithmetic", "t = 1 & seat"),
    ("suit-comparison", "trump = c // 13 == 2"),
    ("suit-comparison", "follows = SUIT_OF[c] == SUIT_OF[trick[0]]"),
    ("suit-comparison", "def f(c, t):\n    s = SUIT_OF[c]\n    return s != led"),
    ("suit-comparison", "def f(c):\n    s = suit_of(c)\n    return s is Suit.HEARTS"),
    ("suit-comparison", "ok = state.led_suit != c // 13"),
    ("suit-comparison", "trumps = sorted(cards, key=lambda c: SUIT_OF[c] == 2)"),
    ("seat-arithmetic", "class A:\n    def f(self, s):\n        return s ^ 2"),
    (
        "suit-comparison",
        "def winner(trick):\n    best = 0\n    for i, c in enumerate(trick):\n"
        "        if c // 13 == trick[best] // 13 and c > trick[best]:\n            best = i\n"
        "    return best",
    ),
    ("follow-suit-set", "legal = (h & SUIT_MASKS[s]) or h"),
    ("follow-suit-set", "legal = h & follow or h"),
    ("follow-suit-set", "def f(h, s):\n    f = h & SUIT_MASKS[s]\n    return f or h"),
    ("bid-range", "legal = list(range(lowest_bid(st, score), 13))"),
    (
        "bid-range",
        "def f(g):\n    low, high = g.bid_range()\n    return tuple(range(low, high + 1))",
    ),
    ("bid-range", "def f(g, n):\n    low, high = g.bid_range()\n    return low <= n <= high"),
    ("bid-range", "def f(st, s, n):\n    lo = lowest_bid(st, s)\n    return not lo <= n <= 12"),
    ("score-threshold", "low = 4 if own_score >= 40 else 2"),
    ("score-threshold", "half = score < 50"),
    ("bid-value-table", "VALUES = (0, 1, 2, 3, 4, 10, 12, 14, 16, 27, 30, 33, 36)"),
    ("bid-value-table", "v = [14, 16, 18, 20][bid - 7]"),
]


@pytest.mark.parametrize(("pattern", "source"), PLANTED)
def test_the_checker_finds_a_planted_rule(pattern: str, source: str) -> None:
    found = {f.pattern for f in check_source(source)}
    assert pattern in found, f"{pattern!r} not found in:\n{source}"


NEAR_MISSES = [
    "bit = hand >> c & 1",  # a bit test, not a team
    "low = (mask >> 13) & 3",
    "x = n % 7 + (n ^ 5) + (n & 7)",
    "same = SUIT_MASKS[s] & hand == 0",
    "rank_high = c % 13 == 12",
    "def f(c):\n    s = SUIT_OF[c]\n    return SUIT_MASKS[s] & HEARTS_MASK",
    "ok = legal or fallback",
    "def f(st, s, b):\n    low = lowest_bid(st, s)\n    return b <= low",  # an inference
    "bids = tuple(range(1, 14))",
    "v = (1, 2, 3, 4)",
    "if a == 2 and seat_count == 2: pass",
]


@pytest.mark.parametrize("source", NEAR_MISSES)
def test_the_checker_leaves_near_misses_alone(source: str) -> None:
    assert check_source(source) == []


def test_findings_name_the_place() -> None:
    (f,) = check_source("x = 1\ny = (seat + 1) & 3\n", "bots/x.py")
    assert (f.path, f.line, f.pattern) == ("bots/x.py", 2, "seat-arithmetic")
    assert str(f) == "bots/x.py:2: seat-arithmetic: y = (seat + 1) & 3"
