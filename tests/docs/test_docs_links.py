"""Links and references that land: every relative link and ``#anchor`` in
README.md and docs/*.md points at a file of the repository and at a heading
that makes that anchor on GitHub; every file of the repository that names a
document names one in docs/ (with a section that exists, when it names
one), and none names a document kept outside the repository.

The anchor function is checked first on headings whose anchors GitHub is
known to make, and each checker on planted faults, so that a checker that
finds nothing is seen to be able to find something.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fh_docs import (
    DOCS,
    REPO,
    Slugger,
    anchors,
    github_slug,
    headings,
    is_external,
    link_problems,
    links,
    rendered_text,
)

MD = ".md"
"""Written apart from the names it follows, so that this file does not
trip its own scan of the repository."""
PAGES = [REPO / "README.md", *sorted(DOCS.glob("*" + MD))]

# ------------------------------------------------------------ the anchors


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Settings and presets", "settings-and-presets"),
        ("Settings and presets (`engine/settings.py`)", "settings-and-presets-enginesettingspy"),
        ("Seats, teams, direction", "seats-teams-direction"),
        ("When a turn timer runs out", "when-a-turn-timer-runs-out"),
        ("The WebSocket `/ws`", "the-websocket-ws"),
        ("Events (`event.kind`)", "events-eventkind"),
        ("Many records at once: `--jsonl`", "many-records-at-once---jsonl"),
        ("fourhundred as the host: `cmd:` bots", "fourhundred-as-the-host-cmd-bots"),
        (
            "`heuristic` (`heuristic_bidding.py`, `heuristic.py`, `knowledge.py`)",
            "heuristic-heuristic_biddingpy-heuristicpy-knowledgepy",
        ),
        ("search at 50 ms over heuristic: target met", "search-at-50-ms-over-heuristic-target-met"),
        ("**Bold**, *emphasis*, _more_ and [a link](x.md)", "bold-emphasis-more-and-a-link"),
        ("What's new? (v1.2) & more!", "whats-new-v12--more"),
        ("Ünïcode letters stay; an emoji 🎉 goes", "ünïcode-letters-stay-an-emoji--goes"),
    ],
)
def test_anchor_of_a_heading(heading: str, anchor: str) -> None:
    assert github_slug(rendered_text(heading)) == anchor


def test_repeated_headings_are_numbered_as_github_does() -> None:
    s = Slugger()
    made = [s.slug(h) for h in ("Example", "Example", "Example-1", "Example")]
    assert made == ["example", "example-1", "example-1-1", "example-2"]


def test_headings_skip_code_blocks_and_read_setext_underlines() -> None:
    md = "# Title ##\n\n```sh\n# not a heading\n```\n\nSub `x`\n---\n\n- item\n---\n\n## Title\n"
    assert headings(md) == ["Title", "Sub x", "Title"]
    assert anchors(md) == {"title", "sub-x", "title-1"}


def test_links_are_read_outside_code_only() -> None:
    md = (
        '[a](one.md#x) ![img](pic.png) `[not](code.md)` [b](<two words.md> "title")\n'
        '[ref]: three.md\n<a href="four.md">4</a>\n```\n[no](five.md)\n```\n'
    )
    assert [link.target for link in links(md)] == [
        "one.md#x",
        "pic.png",
        "two words.md",
        "three.md",
        "four.md",
    ]
    assert is_external("https://example.org") and is_external("mailto:a@b.c")
    assert not is_external("docs/rules.md")


def test_link_checker_catches_planted_faults(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / ("rules" + MD)).write_text(
        "# Rules\n\n## Settings and presets (`engine/settings.py`)\n", encoding="utf-8"
    )
    (tmp_path / "data.txt").write_text("x", encoding="utf-8")
    page = tmp_path / "README.md"
    rules = "docs/rules" + MD
    md = (
        "# Read me\n"
        f"[fine]({rules}#rules) [fine too]({rules}#settings-and-presets-enginesettingspy)\n"
        f"[no jump]({rules}#settings-and-presets) [missing](docs/{'nope'}.md)\n"
        "[outside](../elsewhere.md) [self](#read-me) [self, wrong](#readme)\n"
        "[not markdown](data.txt#top) [web](https://example.org/#x)\n"
    )
    page.write_text(md, encoding="utf-8")
    problems = link_problems(page, md, tmp_path)
    assert len(problems) == 5, problems
    for fault in ("#settings-and-presets", "nope", "outside the repository", "#readme", "data"):
        assert any(fault in p for p in problems), (fault, problems)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_links_and_anchors_resolve(page: Path) -> None:
    assert link_problems(page, page.read_text(encoding="utf-8")) == []


def test_readers_find_the_formats() -> None:
    """The README links every format page, and docs/ links them where a
    reader of the rules, the engine or the online protocol looks."""
    targets = {link.target.partition("#")[0] for link in links(_text(REPO / "README.md"))}
    for name in ("rules", "view", "bot-protocol", "game-record", "protocol"):
        assert f"docs/{name}.md" in targets, name
    for page, names in {
        "rules": ("view", "game-record"),
        "engine": ("view", "game-record"),
        "bots": ("bot-protocol", "game-record"),
        "protocol": ("rules", "view", "game-record"),
        "bot-protocol": ("view", "rules"),
        "view": ("bot-protocol", "rules"),
        "game-record": ("rules",),
    }.items():
        found = {link.target.partition("#")[0] for link in links(_text(DOCS / (page + MD)))}
        for name in names:
            assert name + MD in found, (page, name)


# ----------------------------------------------- references from everything

SCANNED = ("src", "tests", "docs", "bench", "examples", "scripts", ".ci")
SCANNED_FILES = ("README.md", "Makefile", "pyproject.toml", "setup.py", "package.json")
SKIPPED_DIRS = {"__pycache__", "node_modules", ".venv", ".mypy_cache", ".ruff_cache"}
BINARY = {".png", ".sqlite", ".npz", ".gz", ".so", ".pyc", ".ico", ".jpg"}

OUTSIDE = ("../" + "shared", "shared/" + "spec", "seeds" + "/", "/" + "work/")
"""Places outside the repository that files used to point to."""

FORMAT_PAGES = ("view", "game-record", "bot-protocol", "rules")
_BARE = re.compile(r"(?<![\w-])(" + "|".join(FORMAT_PAGES) + r")\.md\b")
# A mention that opens a string literal ("docs/x.md") is data, checked by
# the code that uses it; mentions in prose, comments and help are checked here.
_DOC_MENTION = re.compile(r"(?<![\w./'\"-])docs/([\w-]+\.md)(?:#([\w-]+))?")
_SECTIONS = re.compile(r"docs/([\w-]+\.md)((?:\s*(?:,|\band\b)\s*\"[^\"]+\")+)")
_COMMENT = re.compile(r"^(#+|//+|\*+|--)\s*")


def repository_texts() -> Iterator[tuple[str, str]]:
    """``(path from the repository root, text)`` of every text file this
    test reads."""
    for name in SCANNED_FILES:
        path = REPO / name
        if path.is_file():
            yield name, _text(path)
    for top in SCANNED:
        for root, dirs, files in os.walk(REPO / top):
            dirs[:] = sorted(
                d for d in dirs if d not in SKIPPED_DIRS and not d.endswith(".egg-info")
            )
            for f in sorted(files):
                path = Path(root) / f
                if path.suffix in BINARY:
                    continue
                data = path.read_bytes()
                if b"\0" in data:
                    continue
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:
                    continue
                yield str(path.relative_to(REPO)), text


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _flat(text: str) -> str:
    """The text as one line: each line stripped of its indent and comment
    marks, so a section name broken across comment lines reads whole."""
    return " ".join(_COMMENT.sub("", line.strip()) for line in text.splitlines())


@functools.cache
def _page_anchors(page: str) -> set[str]:
    return anchors(_text(DOCS / page))


@functools.cache
def _section_anchors(page: str) -> set[str]:
    """The anchors of the headings of ``docs/page``: a section named in
    quotes is found when it makes one of them (so the name may be written
    with or without the heading's backticks)."""
    return {github_slug(h) for h in headings(_text(DOCS / page))}


def reference_problems(rel: str, text: str) -> list[str]:
    """What is wrong with the way the file ``rel`` (its text is ``text``)
    refers to documents."""
    problems = [f"{rel}: refers to {o!r}, outside the repository" for o in OUTSIDE if o in text]
    problems += _bare_mentions(rel, text)
    problems += _doc_mentions(rel, text)
    problems += _section_mentions(rel, text)
    return problems


def _bare_mentions(rel: str, text: str) -> list[str]:
    """A format page named without docs/ in front."""
    prose = text
    if rel.endswith(MD):
        # A Markdown link is the link test's to check: take out those that
        # land in the repository, so that a link labelled with its own
        # target's name is not a bare mention.
        page = REPO / rel
        for link in links(text):
            target = (page.parent / link.target.partition("#")[0]).resolve()
            if not is_external(link.target) and target.is_relative_to(REPO) and target.exists():
                prose = prose.replace(f"[{link.text}]({link.target})", "")
    problems = []
    for m in _BARE.finditer(prose):
        if prose[max(0, m.start() - 5) : m.start()] != "docs/":
            line = prose.count("\n", 0, m.start()) + 1
            problems.append(f"{rel}:{line}: {m.group(0)!r} without docs/ (write docs/{m.group(0)})")
    return problems


def _doc_mentions(rel: str, text: str) -> list[str]:
    """docs/NAME.md that does not exist, or whose #anchor no heading makes."""
    problems = []
    for m in _DOC_MENTION.finditer(text):
        page, anchor = m.group(1), m.group(2)
        if not (DOCS / page).is_file():
            problems.append(f"{rel}: docs/{page} does not exist")
        elif anchor and anchor not in _page_anchors(page):
            problems.append(f"{rel}: docs/{page} has no heading that makes #{anchor}")
    return problems


def _section_mentions(rel: str, text: str) -> list[str]:
    """docs/NAME.md, "Section" where the page has no such section."""
    problems = []
    for m in _SECTIONS.finditer(_flat(text)):
        page = m.group(1)
        if not (DOCS / page).is_file():
            continue  # reported by _doc_mentions
        for name in re.findall(r"\"([^\"]+)\"", m.group(2)):
            if github_slug(rendered_text(" ".join(name.split()))) not in _section_anchors(page):
                problems.append(f"{rel}: docs/{page} has no section {name!r}")
    return problems


def test_reference_checker_catches_planted_faults() -> None:
    rules, view = "docs/rules" + MD, "view" + MD
    good = (
        f'"""See {rules}, "Scoring" and "Winning"; {rules}, "When a turn\n'
        f'    timer runs out"; {rules}#settings-and-presets; docs/{view}."""\n'
        f'# ({rules}, "Play", rule 3)\n'
    )
    assert reference_problems("src/x.py", good) == []
    assert reference_problems("tests/x.py", 'findings("docs/' + 'made-up.md", text)') == []
    planted = {
        f"# as in {view}\n": "without docs/",
        "// the game" + "-record.md format\n": "without docs/",
        "# copied from ../" + "shared/vectors\n": "outside the repository",
        "# see the seeds" + "/ folder\n": "outside the repository",
        f'"""({rules}, "Escalations")"""\n': "no section 'Escalations'",
        f'# ({rules}, "Scoring", "Winning the\n#  game")\n': "no section 'Winning the game'",
        f"# {rules}#settings\n": "no heading that makes #settings",
        "# docs/" + "nowhere.md\n": "does not exist",
    }
    for text, fault in planted.items():
        problems = reference_problems("src/x.py", text)
        assert len(problems) == 1 and fault in problems[0], (text, problems)
    # In docs/, a link that lands is not a bare mention; plain text is.
    page = "docs/x" + MD
    assert reference_problems(page, f"[{view}]({view})\n") == []
    assert len(reference_problems(page, f"see `{view}`\n")) == 1


def test_no_reference_leaves_the_repository_or_misses() -> None:
    problems = [p for rel, text in repository_texts() for p in reference_problems(rel, text)]
    assert problems == []


def test_the_scan_reads_what_it_should() -> None:
    """The scan above reaches the code, the tests, the docs and the help
    texts (a scan that read nothing would pass)."""
    seen = {rel for rel, _ in repository_texts()}
    for rel in (
        "README.md",
        "Makefile",
        "docs/rules" + MD,
        "src/fourhundred/cli/bots.py",
        "src/fourhundred/web/js/table.js",
        "tests/engine/test_vectors.py",
        "examples/simple_bot.py",
        "bench/engine.py",
        "scripts/screenshots.py",
    ):
        assert rel in seen, rel
