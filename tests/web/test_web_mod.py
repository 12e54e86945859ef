"""The moderator page (js/screens/mod.js) shows a report by the system as
the system's, with what the fair-play check found (score, cards judged,
games and deals, the thresholds, the partner), in both languages, from the JSON the
server's own code makes for it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fh_web import modules_page

from fourhundred.server.api.moderation import _report_json
from fourhundred.store import Report

HOSTILE = '<img src=x onerror="document.title=1">'


def system_report() -> dict[str, Any]:
    details: dict[str, Any] = {"z": 3.162, "policy_z": 0.41, "decisions": 60, "games": 2}
    details.update(deals=10, thresholds=[2.8, 2.8])
    details["partner"] = "uc"
    details["text"] = "Seats 0 and 2: cards follow the partner's hidden hand. For review."
    r = Report("r_1", None, "ua", "fair_play", None, "g2", None, 5000, details=details)
    users = {"ua": {"id": "ua", "name": "Ali"}, "uc": {"id": "uc", "name": HOSTILE}}
    return _report_json(r, users)


@pytest.fixture(scope="module")
def js(browser: Any, static_url: str) -> Iterator[Any]:
    with modules_page(browser, static_url, M="/js/screens/mod.js", I="/js/i18n.js") as page:
        yield page


DRAW = """({ report, lang }) => {
    I.initLang(lang);
    const root = document.createElement("main");
    document.body.replaceChildren(root);
    M.renderModList({}, root, [report], []);
    const item = root.querySelector(".mod-report").textContent;
    const detail = {
        report, moment_ms: report.created_ms, game: null, chat: [],
        history: { reports: [], penalties: [], games: [], standing: { penalty: null } },
        proposal: { kind: "warn", hours: null },
    };
    M.renderModReport({}, root, detail, () => {});
    return {
        item,
        summary: root.querySelector(".mod-summary").textContent,
        facts: [...root.querySelectorAll(".mod-facts dd")].map((d) => d.textContent),
        images: root.querySelectorAll("img").length,
    };
}"""


@pytest.mark.parametrize(
    ("lang", "by", "score"),
    [("en", "the system", "Fair-play score"), ("ar", "النظام", "درجة اللعب النظيف")],
)
def test_a_system_report_shows_the_system_and_its_findings(
    js: Any, lang: str, by: str, score: str
) -> None:
    report = system_report()
    assert report["system"] and report["partner"]["id"] == "uc"
    out = js.evaluate(DRAW, {"report": report, "lang": lang})
    assert by in out["item"] and score in out["item"] and "3.2" in out["item"]
    assert by in out["summary"] and score in out["summary"]
    # both scores, the thresholds they were held to, the partner's name as text
    assert out["facts"] == ["3.2", "0.4", "60", "2", "10", "2.8 / 2.8", HOSTILE]
    # A report filed before the second score and the thresholds shows the rest.
    del report["details"]["policy_z"]
    del report["details"]["thresholds"]
    out = js.evaluate(DRAW, {"report": report, "lang": lang})
    assert out["facts"] == ["3.2", "60", "2", "10", HOSTILE]
    assert out["images"] == 0
    assert js.missing == [] and js.errors == []
