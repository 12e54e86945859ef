"""Tournaments in a real browser against a real `fourhundred serve`
(docs/tournaments.md; the pages are js/screens/tournament*.js).

In English, on a desktop: an organiser creates a two-team knockout from the
Tournaments page, enters with a partner who accepts on their own page, a
second pair does the same, all four check in, the organiser starts early,
every player is taken to the match table and sees the bracket; nobody
plays, so the turn timer (ten times shorter here) and then substitute bots
finish the game, and the result appears in the bracket, with the replay
link and the export.

In Arabic, on a 360 px phone: a one-round Swiss is created, entered and
checked in (the second pair through the HTTP API), started, the organiser
is taken to the table and the standings and pairings show; every page is
right to left with no English and no sideways scrolling.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

PASSWORD = "correct horse battery"
PHONE = {"width": 360, "height": 740}


def uname(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def register(page: Any, base: str, username: str, lang: str = "en") -> None:
    """Register through the sign-in card (by ids: the labels are translated)."""
    page.goto(f"{base}/?pace=fast&lang={lang}")
    page.locator("#tab-register").click()
    page.locator("#reg-username").fill(username)
    page.locator("#reg-password").fill(PASSWORD)
    page.locator(".auth-form button[type=submit]").click()
    page.locator(".lobby").wait_for()


def api_player(pages: Any, base: str, username: str) -> Any:
    """A registered player acting through the HTTP API only (a browser
    context with no page: its requests keep the session cookie)."""
    context = pages.browser.new_context()
    pages.contexts.append(context)
    r = context.request.post(
        f"{base}/api/register", data={"username": username, "password": PASSWORD}
    )
    assert r.status == 201, r.text()
    return context


def post(context: Any, base: str, path: str, body: Any = None) -> Any:
    r = context.request.post(f"{base}{path}", data=body if body is not None else None)
    assert r.status == 200, r.text()
    return r.json()


def tournament_id(page: Any) -> str:
    page.locator(".tournament").wait_for()
    found = re.fullmatch(r"#/tournament/([\w-]+)", page.evaluate("location.hash"))
    assert found, page.evaluate("location.hash")
    return found.group(1)


def create(page: Any, *, name: str, swiss_rounds: int | None = None) -> str:
    """The organiser fills the create dialog (two teams, the quick rules to
    11, 15 s turns; the start in half an hour, so check-in is open)."""
    page.locator("[data-key=tour-create]").click()
    dialog = page.locator("dialog[open]")
    dialog.locator("#tour-name").fill(name)
    if swiss_rounds is not None:
        dialog.locator("input[name=tour-format][value=swiss]").check()
        dialog.locator("#tour-rounds").fill(str(swiss_rounds))
    dialog.locator("#tour-max").fill("2")
    dialog.locator("input[name=preset][value=quick]").check()
    dialog.locator("#tour-target").fill("11")
    dialog.locator("#tour-timer").select_option("15")
    dialog.locator("button[type=submit]").click()
    return tournament_id(page)


def enter_with(page: Any, partner: str) -> None:
    page.locator("#tour-partner").fill(partner)
    page.locator(".tour-enter button[type=submit]").click()
    page.locator(".tour-you .muted", has_text=partner).first.wait_for()


def accept_and_check_in(page: Any, base: str, tid: str, lang: str = "en") -> None:
    page.goto(f"{base}/?pace=fast&lang={lang}#/tournament/{tid}")
    page.locator("[data-key=tour-accept]").click()
    check_in(page)


def check_in(page: Any) -> None:
    page.locator("[data-key=tour-check-in]").click()
    page.locator(".tour-you .tour-ok").wait_for()


def taken_to_the_table(page: Any, tid: str) -> str:
    page.wait_for_function(f"location.hash.startsWith('#/table/{tid}-r1-')", timeout=20000)
    page.locator(".room .tour-match-banner").wait_for()
    table: str = page.evaluate("location.hash").removeprefix("#/table/")
    return table


def clean(page: Any) -> list[str]:
    """The page's console errors (a refused request logs one)."""
    return list(page.console_errors)


def two_teams_check_in(base: str, tid: str, players: tuple[Any, ...], names: list[str]) -> None:
    """Each first player enters with the second, who accepts; all check in."""
    org, mate, a, b = players
    enter_with(org, names[1])
    accept_and_check_in(mate, base, tid)
    check_in(org)
    a.goto(f"{base}/?pace=fast#/tournament/{tid}")
    enter_with(a, names[3])
    accept_and_check_in(b, base, tid)
    check_in(a)

    # Everyone's page follows the tournament: the teams and their check-ins.
    for page in players:
        page.wait_for_function(
            "document.querySelectorAll('.tour-team .tick').length === 4", timeout=10000
        )
    # The tournament's chat reaches every player's page.
    org.locator("#chat-input").fill("good luck <b>all</b>")
    org.locator(".chat-form button[type=submit]").click()
    for page in players:
        page.locator(".chat-msg .text", has_text="good luck <b>all</b>").wait_for()


def the_result_comes_in(org: Any, watcher: Any, base: str, table: str) -> None:
    """Nobody plays: the timer, then substitute bots, finish the game; its
    result reaches the bracket, the follower's page and the export."""
    org.locator("dialog.game-over-dialog[open]").wait_for(timeout=300_000)
    dialog = org.locator("dialog.game-over-dialog[open]")
    assert dialog.get_by_role("button", name="Rematch").count() == 0
    dialog.get_by_role("link", name="Back to the tournament").click()
    org.locator(".tournament").wait_for()
    org.locator(".tour-status.status-finished").first.wait_for(timeout=30000)
    match = org.locator(".bracket .tour-match")
    assert match.locator(".tour-side.won").count() == 1
    assert match.get_by_role("link", name="Replay").get_attribute("href") == f"#/replay/{table}"
    assert org.locator(".tour-team.winner").count() == 1
    assert org.locator(".tour-winner").count() == 1
    # The result reached the follower too, over the socket.
    watcher.locator(".bracket .tour-side.won").wait_for(timeout=10000)
    # The export: the same result as CSV.
    href = org.get_by_role("link", name="Download CSV").get_attribute("href")
    csv = org.request.get(f"{base}{href}").text()
    header, line = csv.strip().splitlines()
    assert header.startswith("round,slot,table,team_a,team_b")
    assert line.startswith(f"1,1,{table},")


def test_a_knockout_from_creation_to_its_result_in_english(
    pages: Any, quick_timer_server: str, checks: Any
) -> None:
    base = quick_timer_server
    org, mate, a, b = (pages.new() for _ in range(4))
    names = [uname(p) for p in ("Org", "Mate", "Ana", "Bo")]
    for page, name in zip((org, mate, a, b), names, strict=True):
        register(page, base, name)
    # The lobby leads to the tournaments.
    org.get_by_role("link", name="See the tournaments").click()
    org.locator(".tournaments").wait_for()
    assert org.get_by_role("link", name="Upcoming").get_attribute("aria-current") == "page"
    title = f"Friday Cup {secrets.token_hex(2)}"
    tid = create(org, name=title)
    assert org.locator(".tour-header h1").inner_text().startswith(title)
    assert "Knockout" in org.locator(".tour-facts").inner_text()
    assert org.get_by_text("The bracket is drawn when the tournament starts.").is_visible()

    two_teams_check_in(base, tid, (org, mate, a, b), names)
    # It is listed among the upcoming ones.
    b.goto(f"{base}/?pace=fast#/tournaments")
    b.locator(".tour-row", has_text=title).wait_for()
    assert "2 of 2 teams" in b.locator(".tour-row", has_text=title).inner_text()
    b.locator(".tour-row", has_text=title).get_by_role("link", name="Open").click()
    b.locator(".tournament").wait_for()
    # One player waits in the lobby: the match ready takes them to it too.
    b.goto(f"{base}/?pace=fast#/")
    b.locator(".lobby").wait_for()

    org.locator("[data-key=tour-start]").click()
    tables = {taken_to_the_table(page, tid) for page in (org, mate, a, b)}
    assert len(tables) == 1
    table = tables.pop()
    assert "Your tournament match is ready!" in org.locator(".tour-match-banner").inner_text()
    # The seats are the draw's: no leaving, no invite link.
    assert org.locator(".room .invite").count() == 0
    for page in (org, mate, a, b):
        page.locator("[data-key=ready]").click()
    for page in (org, mate, a, b):
        page.locator(".table-screen").wait_for(timeout=20000)

    # A guest following the tournament sees the match in the bracket with
    # its table to watch (and that entering needs an account).
    watcher = pages.new(f"{base}/?pace=fast")
    watcher.locator("#guest-name").fill("Watcher")
    watcher.locator(".auth-form button[type=submit]").click()
    watcher.locator(".lobby").wait_for()
    watcher.goto(f"{base}/?pace=fast#/tournament/{tid}")
    watcher.locator(".bracket .tour-match").wait_for()
    watch = watcher.locator(".bracket .tour-match").get_by_role("link", name="Watch")
    assert watch.get_attribute("href") == f"#/table/{table}"
    assert watcher.get_by_text("Tournaments need an account").count() == 1
    assert watcher.locator(".tour-side-col .chat-form").count() == 0

    the_result_comes_in(org, watcher, base, table)

    for page in (org, mate, a, b, watcher):
        assert checks.missing_keys(page) == []
        assert clean(page) == []
    assert checks.unnamed_controls(org) == []


def api_team_checks_in(base: str, tid: str, other: list[Any], names: list[str]) -> None:
    """The second pair enters, accepts and checks in through the API."""
    team = post(other[0], base, f"/api/tournaments/{tid}/enter", {"partner": names[1]})
    team_id = next(
        x["id"] for x in team["tournament"]["teams"] if x["players"][0]["name"] == names[0]
    )
    post(other[1], base, f"/api/tournaments/{tid}/accept", {"team": team_id})
    for ctx in other:
        post(ctx, base, f"/api/tournaments/{tid}/check-in")


def test_a_swiss_in_arabic_on_a_phone(pages: Any, server: str, checks: Any) -> None:
    base = server
    org = pages.new(viewport=PHONE, locale="ar")
    mate = pages.new(locale="ar")
    names = [uname(p) for p in ("Rami", "Nour", "Hala", "Karim")]
    register(org, base, names[0], "ar")
    register(mate, base, names[1], "ar")
    other = [api_player(pages, base, n) for n in names[2:]]

    org.goto(f"{base}/?pace=fast&lang=ar#/tournaments")
    org.locator(".tournaments").wait_for()
    assert org.evaluate("document.documentElement.dir") == "rtl"
    assert checks.untranslated(org) == []
    assert checks.horizontal_overflow(org) <= 0
    org.locator("[data-key=tour-create]").click()
    assert checks.untranslated(org) == []
    org.keyboard.press("Escape")
    tid = create(org, name="كأس الجمعة", swiss_rounds=1)
    assert checks.untranslated(org) == []
    assert checks.horizontal_overflow(org) <= 0

    enter_with(org, names[1])
    accept_and_check_in(mate, base, tid, "ar")
    check_in(org)
    api_team_checks_in(base, tid, other, names[2:])
    org.wait_for_function(
        "document.querySelectorAll('.tour-team .tick').length === 4", timeout=10000
    )
    assert checks.untranslated(org) == []
    assert checks.horizontal_overflow(org) <= 0

    org.locator("[data-key=tour-start]").click()
    taken_to_the_table(org, tid)
    assert org.evaluate("document.documentElement.dir") == "rtl"
    assert checks.untranslated(org) == []
    assert checks.horizontal_overflow(org) <= 0
    # Back to the tournament: the standings and the round's pairing.
    org.get_by_role("link", name="العودة إلى البطولة").click()
    org.locator(".tour-standings table").wait_for()
    assert org.locator(".tour-standings tbody tr").count() == 2
    assert org.locator(".tour-rounds .tour-match").count() == 1
    assert org.get_by_role("link", name="اذهب إلى طاولتك").count() >= 1
    assert checks.untranslated(org) == []
    assert checks.horizontal_overflow(org) <= 0
    assert checks.unnamed_controls(org) == []
    # The organiser pauses and resumes.
    org.locator("[data-key=tour-pause]").click()
    org.locator(".tour-header .tour-status.status-paused").wait_for()
    assert checks.untranslated(org) == []
    org.locator("[data-key=tour-resume]").click()
    org.locator("[data-key=tour-pause]").wait_for()
    assert org.locator(".tour-header .tour-status.status-paused").count() == 0
    # The partner's page (desktop) shows the same, in Arabic.
    mate.goto(f"{base}/?pace=fast&lang=ar#/tournament/{tid}")
    mate.locator(".tour-standings table").wait_for()
    assert checks.untranslated(mate) == []
    for page in (org, mate):
        assert checks.missing_keys(page) == []
        assert clean(page) == []


def test_a_private_tournament_is_reached_by_its_invite_link(
    pages: Any, server: str, checks: Any
) -> None:
    """The organiser of a private tournament copies its link; a visitor who
    opens it sees the tournament, signs up from it, comes back to it and
    enters alone."""
    base = server
    org, visitor = pages.new(), pages.new(viewport=PHONE)
    register(org, base, uname("Priv"))
    org.goto(f"{base}/?pace=fast#/tournaments")
    org.locator("[data-key=tour-create]").click()
    dialog = org.locator("dialog[open]")
    dialog.locator("#tour-name").fill("Invitation only")
    dialog.get_by_label("Private").check()
    dialog.locator("button[type=submit]").click()
    tid = tournament_id(org)
    link = org.get_by_role("textbox", name="Invite link").input_value()
    assert re.fullmatch(rf"{re.escape(base)}/\?tournament=[\w-]+", link)
    # Not listed among the public ones.
    org.goto(f"{base}/?pace=fast#/tournaments")
    org.locator(".tournaments").wait_for()
    assert org.locator(".tour-row", has_text="Invitation only").count() == 0

    visitor.goto(link)
    visitor.locator(".tournament").wait_for()
    assert visitor.evaluate("location.hash") == f"#/tournament/{tid}"
    visitor.get_by_role("button", name="Sign in or register").click()
    visitor.locator("#tab-register").click()
    visitor.locator("#reg-username").fill(uname("Solo"))
    visitor.locator("#reg-password").fill(PASSWORD)
    visitor.locator(".auth-form button[type=submit]").click()
    visitor.locator(".tournament").wait_for()
    visitor.locator("[data-key=tour-solo]").click()
    visitor.get_by_text("You are entered alone").wait_for()
    assert checks.horizontal_overflow(visitor) <= 0
    # The organiser's page, following it, lists the solo entrant.
    org.goto(f"{base}/?pace=fast#/tournament/{tid}")
    org.locator(".tour-solos").wait_for()
    # The organiser cancels it (after saying yes); the visitor's page says so.
    org.locator("[data-key=tour-cancel]").click()
    org.locator("dialog[open]").get_by_role("button", name="Cancel the tournament").click()
    org.locator(".tour-header .tour-status.status-cancelled").wait_for()
    visitor.get_by_text("This tournament was cancelled by its organiser.").wait_for()
    for page in (org, visitor):
        assert checks.missing_keys(page) == []
        assert clean(page) == []
