"""The stylesheet is well formed: every rule closes before the next opens
(only at-rules such as ``@media`` hold rules), and the braces balance. A
rule left open swallows every rule after it, which the browser does not
report: a merge once did that and the phone layout lost its one column."""

from __future__ import annotations

import re
from pathlib import Path

CSS = Path(__file__).resolve().parents[2] / "src" / "fourhundred" / "web" / "css" / "app.css"


def _without_comments_and_strings(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), text, flags=re.S)
    return re.sub(r'"[^"\n]*"|\'[^\'\n]*\'', '""', text)


def test_every_rule_closes_before_the_next_opens() -> None:
    text = _without_comments_and_strings(CSS.read_text(encoding="utf-8"))
    open_blocks: list[tuple[str, int]] = []
    selector = ""
    for number, line in enumerate(text.splitlines(), 1):
        for ch in line:
            if ch == "{":
                head = selector.strip()
                if open_blocks and not open_blocks[-1][0].startswith("@"):
                    parent, at = open_blocks[-1]
                    raise AssertionError(
                        f"app.css:{number}: {head!r} opens inside {parent!r} (line {at}),"
                        " which never closed"
                    )
                open_blocks.append((head, number))
                selector = ""
            elif ch == "}":
                assert open_blocks, f"app.css:{number}: a '}}' closes nothing"
                open_blocks.pop()
                selector = ""
            elif ch == ";":
                selector = ""
            else:
                selector += ch
        selector += " "
    if open_blocks:
        head, at = open_blocks[-1]
        raise AssertionError(f"app.css: {head!r} (line {at}) never closes")
