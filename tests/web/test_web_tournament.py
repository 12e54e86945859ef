"""The tournament page (js/screens/tournament.js) drawn from DETAILs the
server's own code makes (``competitions.detail`` over tournaments run by
the pure ``decide``): a knockout's bracket has a column per round with its
byes and winners, a Swiss has the server's standings in the server's order,
names stay text, and both languages have every text the page asks for."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fh_web import modules_page

from fourhundred.server.competitions import SYSTEM
from fourhundred.server.competitions.commands import PairNextRound
from fourhundred.server.competitions.detail import detail
from fourhundred.server.competitions.events import to_stored
from fourhundred.store import StoredEvent

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from fh_competitions import T0, play_round, run, started

HOSTILE = '<img src=x onerror="document.title=1">'
"""A player's name that would be markup if it were ever inserted as HTML."""


def make(fmt: str, n: int, rounds: int | None, played: int) -> dict[str, Any]:
    """A started tournament of ``n`` teams with ``played`` rounds decided."""
    rng = random.Random(13)
    m, log, _ = started(fmt, n, rounds, rng)  # type: ignore[arg-type]
    for _ in range(played):
        play_round(m, rng, log)
        run(m, SYSTEM, PairNextRound(), log=log)
    stored = [StoredEvent(i + 1, *to_stored(e), at_ms=T0 + i) for i, e in enumerate(log)]
    people = {f"{x}{i}": (f"{x.upper()}{i}", 1500) for i in range(n) for x in "ab"}
    people["a0"] = (HOSTILE, 1500)
    people["org"] = ("Organiser", 1500)
    return detail("Tk", m, stored, people, 180_000)


@pytest.fixture(scope="module")
def js(browser: Any, static_url: str) -> Iterator[Any]:
    with modules_page(browser, static_url, T="/js/screens/tournament.js", I="/js/i18n.js") as page:
        yield page


DRAW = """({ detail, lang, me }) => {
    I.initLang(lang);
    const root = document.createElement("main");
    document.body.replaceChildren(root);
    const ctx = { me, muted: new Set(), socket: null, tourAct: () => {}, signInFirst: () => {},
                  mute: () => {}, say: () => {}, chatExtras: () => ({}) };
    T.renderTournament(ctx, root, { ...T.tourView(detail.id), detail });
    const texts = (sel, el = root) => [...el.querySelectorAll(sel)].map((e) => e.textContent);
    return {
        dir: document.documentElement.dir,
        images: root.querySelectorAll("img").length,
        title: document.title,
        names: texts(".tour-team-names bdi"),
        columns: [...root.querySelectorAll(".bracket .tour-round")].map((c) => ({
            matches: c.querySelectorAll(".tour-match:not(.bye)").length,
            byes: texts(".tour-match.bye .tour-side-name", c),
            won: texts(".tour-match:not(.bye) .tour-side.won .tour-side-name", c),
            links: [...c.querySelectorAll(".tour-match a")].map((a) => a.getAttribute("href")),
        })),
        standings: texts(".tour-standings tbody th"),
        you: root.querySelector(".tour-you").textContent,
        facts: root.querySelector(".tour-facts").textContent,
        mine: root.querySelectorAll(".tour-match.mine.st-playing").length,
    };
}"""


def name_of(d: dict[str, Any], team: str) -> str:
    t = next(x for x in d["teams"] if x["id"] == team)
    return " & ".join(p["name"] for p in t["players"])


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_knockout_bracket_has_a_column_per_round_with_byes_and_winners(
    js: Any, lang: str
) -> None:
    d = make("knockout", 3, None, 1)
    assert len(d["rounds"]) == 2
    out = js.evaluate(DRAW, {"detail": d, "lang": lang, "me": {"id": "a1", "name": "A1"}})
    assert out["dir"] == ("rtl" if lang == "ar" else "ltr")
    first, second = d["rounds"]
    assert [c["matches"] for c in out["columns"]] == [len(first["matches"]), 1]
    assert out["columns"][0]["byes"] == [name_of(d, b) for b in first["byes"]]
    assert out["columns"][0]["won"] == [name_of(d, first["matches"][0]["winner"])]
    assert out["columns"][0]["links"] == [f"#/replay/{first['matches'][0]['table']}"]
    assert out["columns"][1]["won"] == []
    assert out["columns"][1]["links"] == [f"#/table/{second['matches'][0]['table']}"]
    # Markup in a name is shown as the name, never made into elements.
    assert out["images"] == 0 and out["title"] != "1"
    assert any(HOSTILE in n for n in out["names"])
    assert js.missing == [] and js.errors == []


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_swiss_standings_are_the_servers_in_its_order(js: Any, lang: str) -> None:
    d = make("swiss", 4, 2, 1)
    me = {"id": "b2", "name": "B2"}
    out = js.evaluate(DRAW, {"detail": d, "lang": lang, "me": me})
    assert out["standings"] == [name_of(d, s["team"]) for s in d["standings"]]
    assert out["columns"] == []
    rounds = {"en": "Swiss, 2 rounds", "ar": "سويسري، جولتان"}[lang]
    assert rounds in out["facts"]
    # This player's match of the round under way is marked, with its table.
    assert out["mine"] == 1
    ready = {"en": "Your match is ready", "ar": "مباراتك جاهزة"}[lang]
    assert ready in out["you"]
    assert js.missing == [] and js.errors == []


def test_the_table_of_a_tournament_names_its_tournament(js: Any) -> None:
    assert js.evaluate("T.tournamentOfTable('q8Zt3rMw-r2-11')") == "q8Zt3rMw"
    assert js.evaluate("T.tournamentOfTable('Hk2p9QvZxA4')") is None
