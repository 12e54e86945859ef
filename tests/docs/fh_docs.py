"""Reading the repository's Markdown the way GitHub shows it: the anchors
its headings get, the links it holds, and the fenced blocks the docs mark
for checking (``<!-- docs-check: NAME -->`` on the line before a fence).

Used by ``test_docs_links.py`` (links, anchors, references from the code)
and ``test_docs_examples.py`` (the docs' examples run through the code).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_LINK_TEXT = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_HTML_TAG = re.compile(r"<[^>]+>")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_UNDERSCORE_DELIM = re.compile(r"(?<![0-9A-Za-z])_+|_+(?![0-9A-Za-z])")
_HTML_ID = re.compile(r"<a\s[^>]*\b(?:id|name)=\"([^\"]+)\"", re.IGNORECASE)
_INLINE_LINK = re.compile(
    r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]"  # [text], one level of brackets inside
    r"\(\s*(<[^>]*>|[^)\s]*)(?:\s+\"[^\"]*\")?\s*\)"  # (target "title")
)
_REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
_HTML_LINK = re.compile(r"<(?:a|img)\s[^>]*\b(?:href|src)=\"([^\"]+)\"", re.IGNORECASE)
_MARK = re.compile(r"^<!--\s*docs-check:\s*([\w-]+)\s*-->\s*$")


def github_slug(text: str) -> str:
    """The anchor GitHub gives a heading whose rendered text is ``text``
    (github-slugger): lowercase; every character dropped except letters,
    marks, digits, ``_`` and other connector punctuation, hyphens and
    spaces; each space becomes a hyphen. Duplicates are :class:`Slugger`'s."""
    out = []
    for ch in text.lower():
        if ch == " ":
            out.append("-")
        elif ch == "-" or unicodedata.category(ch)[0] in "LMN" or unicodedata.category(ch) == "Pc":
            out.append(ch)
    return "".join(out)


class Slugger:
    """Anchors for the headings of one page, in order: a repeated one gets
    ``-1``, ``-2``, ... as GitHub does."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def slug(self, text: str) -> str:
        base = github_slug(text)
        slug = base
        while slug in self.seen:
            self.seen[base] += 1
            slug = f"{base}-{self.seen[base]}"
        self.seen[slug] = 0
        return slug


def rendered_text(markdown: str) -> str:
    """The plain text GitHub renders for one line of inline Markdown (code
    spans keep their content, links their text; emphasis marks, HTML tags
    and backslashes of escapes go)."""
    parts: list[str] = []
    pos = 0
    for m in _CODE_SPAN.finditer(markdown):
        parts.append(_plain(markdown[pos : m.start()]))
        code = m.group(2)
        if code.startswith(" ") and code.endswith(" ") and code.strip():
            code = code[1:-1]
        parts.append(code)
        pos = m.end()
    parts.append(_plain(markdown[pos:]))
    return "".join(parts).strip()


def _plain(text: str) -> str:
    text = _LINK_TEXT.sub(r"\1", text)
    text = _HTML_TAG.sub("", text)
    text = text.replace("*", "")
    text = _UNDERSCORE_DELIM.sub("", text)
    return _ESCAPE.sub(r"\1", text)


def _lines(markdown: str) -> Iterator[tuple[int, str | None]]:
    """``(line number, line)`` for every line, the line ``None`` when it
    belongs to a fenced code block (its fences included)."""
    fence: str | None = None
    for number, line in enumerate(markdown.splitlines(), 1):
        m = _FENCE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)
                yield number, None
                continue
            yield number, line
        else:
            closing = m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)
            if closing and not line.strip().strip(fence[0]):
                fence = None
            yield number, None


def prose_lines(markdown: str) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` for the lines outside fenced code blocks."""
    for number, line in _lines(markdown):
        if line is not None:
            yield number, line


def headings(markdown: str) -> list[str]:
    """The rendered text of every heading (ATX ``#`` headings and setext
    ``===``/``---`` underlines), in order."""
    out: list[str] = []
    previous: str | None = None
    for _, line in _lines(markdown):
        if line is None:
            previous = None
            continue
        m = _ATX.match(line)
        if m:
            out.append(rendered_text(m.group(2) or ""))
            previous = None
            continue
        if previous is not None and re.match(r"^ {0,3}(=+|-+)\s*$", line) and _paragraph(previous):
            out.append(rendered_text(previous))
            previous = None
            continue
        previous = line
    return out


def _paragraph(line: str) -> bool:
    """Whether ``line`` can be the text of a setext heading (not blank, not
    a list item, a table row, a quote or an HTML comment)."""
    s = line.strip()
    return bool(s) and not re.match(r"^([-*+>|]|\d+[.)]|<!--)", s)


def anchors(markdown: str) -> set[str]:
    """Every ``#fragment`` that jumps somewhere on the page: the headings'
    anchors and explicit ``<a id=...>``/``<a name=...>``."""
    slugger = Slugger()
    found = {slugger.slug(h) for h in headings(markdown)}
    found.update(_HTML_ID.findall(markdown))
    return found


@dataclass(frozen=True)
class Link:
    line: int
    text: str
    target: str


def links(markdown: str) -> list[Link]:
    """Every link and image target outside code: inline ``[text](target)``,
    reference definitions ``[ref]: target`` and HTML ``href``/``src``."""
    out: list[Link] = []
    for number, line in prose_lines(markdown):
        prose = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
        for m in _INLINE_LINK.finditer(prose):
            out.append(Link(number, m.group(2), m.group(3).strip("<>")))
        m = _REF_DEF.match(prose)
        if m:
            out.append(Link(number, "", m.group(1).strip("<>")))
        out.extend(Link(number, "", t) for t in _HTML_LINK.findall(prose))
    return out


def is_external(target: str) -> bool:
    return re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) is not None or target.startswith("//")


def link_problems(page: Path, markdown: str, repo: Path = REPO) -> list[str]:
    """What is wrong with the relative links of ``page`` (its text is
    ``markdown``): a target outside ``repo`` or missing, an anchor into a
    file that is not Markdown, an anchor no heading of the target makes."""
    problems: list[str] = []
    for link in links(markdown):
        if is_external(link.target) or not link.target:
            continue
        where = f"{page.relative_to(repo)}:{link.line}: ({link.target})"
        path_part, _, fragment = link.target.partition("#")
        target = (page.parent / unquote(path_part)).resolve() if path_part else page
        if not target.is_relative_to(repo.resolve()):
            problems.append(f"{where} points outside the repository")
            continue
        if not target.exists():
            problems.append(f"{where}: no such file")
            continue
        if not fragment:
            continue
        if target.suffix != ".md":
            problems.append(f"{where}: an anchor into a file that is not Markdown")
            continue
        text = markdown if target == page else target.read_text(encoding="utf-8")
        if unquote(fragment) not in anchors(text):
            problems.append(f"{where}: no heading in {target.name} makes #{fragment}")
    return problems


def marked_blocks(markdown: str) -> dict[str, str]:
    """The fenced blocks that follow a ``<!-- docs-check: NAME -->`` line,
    by NAME (the block's content, without its fences)."""
    blocks: dict[str, str] = {}
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        m = _MARK.match(line.strip())
        if not m:
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        fence = _FENCE.match(lines[j]) if j < len(lines) else None
        if fence is None:
            raise ValueError(f"docs-check mark {m.group(1)!r} is not followed by a fenced block")
        body: list[str] = []
        for k in range(j + 1, len(lines)):
            if lines[k].strip().startswith(fence.group(1)):
                break
            body.append(lines[k])
        else:
            raise ValueError(f"docs-check block {m.group(1)!r} is not closed")
        if m.group(1) in blocks:
            raise ValueError(f"docs-check mark {m.group(1)!r} is used twice")
        blocks[m.group(1)] = "\n".join(body) + "\n"
    return blocks
