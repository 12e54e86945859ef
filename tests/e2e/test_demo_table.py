"""The table, rendered from real engine views in the client's demo mode:
exactly the legal bids (with their values) and the legal cards are playable,
the hand is sorted with hearts marked as trumps, seats show names, bids,
tricks, the dealer, bots and players who dropped, and the trick, last
trick, score sheet and end of the game are all shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fourhundred.engine import CARD_NAMES

MINUS = "\u2212"  # the client writes a real minus sign
DEMO = Path(__file__).resolve().parents[1] / "web" / "demo"


def scene(name: str) -> dict[str, Any]:
    return json.loads((DEMO / f"{name}.json").read_text(encoding="utf-8"))


def sent(page: Any) -> list[dict[str, Any]]:
    """What the demo page would have sent (it says so on its console)."""
    return list(page.demo_sent)


def test_bidding_offers_exactly_the_legal_bids_with_their_values(demo: Any) -> None:
    view = scene("bid")["frame"]["view"]
    page = demo("bid")
    buttons = page.locator(".bid-panel .bid-btn")
    assert buttons.count() == len(view["legal"])
    for i, (bid, value) in enumerate(zip(view["legal"], view["values"], strict=True)):
        b = buttons.nth(i)
        assert b.locator(".bid-n").inner_text() == str(bid)
        assert b.locator(".bid-v").inner_text() == f"±{value}"
        assert f"worth {value} point" in b.get_attribute("aria-label")
    total = sum(b for b in view["bids"] if b is not None)
    hint = page.locator(".bid-hint").inner_text()
    assert f"{total} of the {view['required_total']}" in hint
    assert (
        page.locator(".bid-meter")
        .inner_text()
        .startswith(f"Bids {total} of {view['required_total']}")
    )
    # The lowest legal bid is 3: this player's score is 30 or more.
    assert view["legal"][0] == 3 and view["scores"][0] >= 30
    buttons.nth(2).click()
    assert sent(page) == [{"type": "bid", "bid": view["legal"][2]}]


def test_only_legal_cards_can_be_played(demo: Any) -> None:
    view = scene("play")["frame"]["view"]
    page = demo("play")
    cards = page.locator(".hand button.card")
    assert cards.count() == len(view["hand"])
    playable = page.locator(".hand button.card:not([aria-disabled])")
    assert sorted(playable.evaluate_all("els => els.map(e => e.dataset.card)")) == sorted(
        view["legal"]
    )
    illegal = next(c for c in view["hand"] if c not in view["legal"])
    page.locator(f'.hand button[data-card="{illegal}"]').click(force=True)
    assert sent(page) == []
    led = view["tricks"][-1]["cards"][0][1]
    suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[led]
    assert page.locator(".notice").inner_text() == f"You must follow {suit}."
    page.locator(f'.hand button[data-card="{view["legal"][0]}"]').click()
    assert sent(page) == [{"type": "play", "card": view["legal"][0]}]


def test_hand_is_sorted_by_suit_with_hearts_first_and_marked_trumps(demo: Any) -> None:
    view = scene("play")["frame"]["view"]
    page = demo("play")
    shown = page.locator(".hand button.card").evaluate_all("els => els.map(e => e.dataset.card)")
    order = "HSDC"
    ranks = "23456789TJQKA"
    assert shown == sorted(view["hand"], key=lambda c: (order.index(c[1]), -ranks.index(c[0])))
    for card in shown:
        label = page.locator(f'.hand button[data-card="{card}"]').get_attribute("aria-label")
        assert ("trump" in label) == (card[1] == "H"), label
        assert page.locator(f'.hand button[data-card="{card}"]').evaluate(
            "e => e.classList.contains('trump')"
        ) == (card[1] == "H")
    assert page.locator(".table-info .trump-chip").inner_text() == "Hearts are trumps"


def test_seats_show_names_bids_tricks_dealer_bots_and_dropped_players(demo: Any) -> None:
    frame = scene("play")["frame"]
    view = frame["view"]
    page = demo("play")
    for seat in range(4):
        plate = page.locator(f'.seat[data-seat="{seat}"]')
        text = plate.inner_text()
        entry = frame["room"]["seats"][seat]
        if entry["user"]:
            assert entry["user"]["name"] in text
        else:
            assert f"Bot {seat + 1}" in text
        assert f"Bid {view['bids'][seat]} · won {view['tricks_won'][seat]}" in text
        assert str(view["scores"][seat]) in text
        assert ("offline" in text) == (entry["user"] is not None and not entry["connected"])
        assert (plate.locator(".badge.dealer").count() == 1) == (view["dealer"] == seat)
    assert page.locator(".seat.turn").get_attribute("data-seat") == str(view["turn"])
    # The one whose turn it is has a visible countdown.
    assert page.locator(".seat.turn .countdown").inner_text().endswith(" s")
    assert page.locator(".status .countdown").inner_text().endswith(" s")
    # Your seat is at the bottom, the next to play at the right, the partner on top.
    assert page.locator(".seat.pos-bottom").get_attribute("data-seat") == "0"
    assert page.locator(".seat.pos-right").get_attribute("data-seat") == "1"
    assert page.locator(".seat.pos-top").get_attribute("data-seat") == "2"


def test_trick_in_the_middle_and_last_trick_on_demand(demo: Any) -> None:
    view = scene("play")["frame"]["view"]
    page = demo("play")
    current = view["tricks"][-1]
    played = page.locator(".trick .card.played")
    assert played.count() == len(current["cards"])
    assert played.first.evaluate("e => e.classList.contains('enter')")
    page.get_by_role("button", name="Last trick").click()
    dialog = page.locator("dialog[open]")
    previous = view["tricks"][-2]
    assert dialog.locator(".card").count() == 4
    labels = dialog.locator(".card").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    names = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    for card, label in zip(previous["cards"], labels, strict=True):
        assert names[card[1]] in label
    page.keyboard.press("Escape")
    assert page.locator("dialog[open]").count() == 0


def test_complete_trick_names_its_winner(demo: Any) -> None:
    frame = scene("trick")["frame"]
    trick = frame["view"]["tricks"][-1]
    assert trick["winner"] is not None
    page = demo("trick")
    winner = frame["room"]["seats"][trick["winner"]]
    name = winner["user"]["name"] if winner["user"] else f"Bot {trick['winner'] + 1}"
    assert page.locator(".trick-note").inner_text() == f"{name} takes the trick"
    assert page.locator(".trick .card.win").count() == 1


def test_score_sheet_lists_every_hand_and_player(demo: Any) -> None:
    frame = scene("bid")["frame"]
    page = demo("bid")
    page.get_by_role("button", name="Scores").click()
    sheet = page.locator("dialog[open] table.score-sheet")
    rows = sheet.locator("tbody tr:not(.in-progress)")
    assert rows.count() == len(frame["sheet"])
    cols = [0, 2, 1, 3]  # your team first
    for i, row in enumerate(frame["sheet"]):
        cells = rows.nth(i).locator("td")
        if row["thrown_in"]:
            continue
        for j, seat in enumerate(cols):
            text = cells.nth(j).inner_text().replace("\u2212", "-")
            d = row["deltas"][seat]
            assert f"{row['bids'][seat]}/{row['tricks'][seat]}" in text
            assert (f"+{d}" if d > 0 else str(d)) in text
            assert str(row["scores"][seat]) in text
    totals = sheet.locator("tfoot tr").first.locator("td").all_inner_texts()
    assert [int(x.replace("\u2212", "-")) for x in totals] == [
        frame["view"]["scores"][s] for s in cols
    ]


def test_game_over_shows_the_winner_and_rating_changes(demo: Any) -> None:
    sc = scene("over")
    page = demo("over")
    dialog = page.locator("dialog.game-over-dialog[open]")
    dialog.wait_for()
    winner = sc["frame"]["view"]["winner"]
    headline = dialog.locator(".headline").inner_text()
    assert headline == ("You and your partner win!" if winner == 0 else "Your team lost this one.")
    text = dialog.inner_text()
    for p in sc["game"]["players"]:
        change = p["rating_after"] - p["rating_before"]
        assert f"{p['rating_after']} ({'+' if change > 0 else MINUS}{abs(change)})" in text
    assert dialog.get_by_role("button", name="Back to the lobby").is_visible()


def test_spectators_see_no_hand_and_no_bidding_controls(demo: Any) -> None:
    page = demo("spectate")
    assert page.locator(".hand").count() == 0
    assert page.locator(".bid-panel").count() == 0
    assert "You are watching" in page.locator(".game-banner").inner_text()
    # Every card on the page is a played card (the trick), never a hand.
    shown = page.locator(".card").evaluate_all("els => els.map(e => e.className)")
    assert all("played" in c for c in shown)


def test_all_card_faces_are_drawn(demo: Any) -> None:
    page = demo("play")
    ok = page.evaluate(
        """async (names) => {
            const { cardFace } = await import('/js/cards.js');
            return names.every((n) => cardFace(n).startsWith('<svg'));
        }""",
        list(CARD_NAMES),
    )
    assert ok


# The look of a card in the hand that says whether it can be played.
LOOK_JS = """(e) => {
    const s = getComputedStyle(e), svg = getComputedStyle(e.querySelector('svg'));
    return {opacity: s.opacity, filter: s.filter, shadow: s.boxShadow, transform: s.transform,
            outline: s.outlineStyle + ' ' + s.outlineWidth,
            face: svg.filter, faceOpacity: svg.opacity};
}"""


def test_an_unplayable_trump_looks_like_any_other_unplayable_card(demo: Any) -> None:
    """Clubs were led: the hearts in the hand are as dim as the diamonds
    (the trump's gold ring and glow do not win over the dimmed look)."""
    view = scene("play")["frame"]["view"]
    led = view["tricks"][-1]["cards"][0][1]
    heart = next(c for c in view["hand"] if c[1] == "H" and c not in view["legal"])
    other = next(c for c in view["hand"] if c[1] not in ("H", led) and c not in view["legal"])
    playable = view["legal"][0]
    page = demo("play")
    page.mouse.move(0, 0)  # no card under the pointer

    def look(card: str) -> dict[str, str]:
        return dict(page.locator(f'.hand button[data-card="{card}"]').evaluate(LOOK_JS))

    assert led != "H"
    assert look(heart) == look(other)
    # ...and the dimmed look is not the look of a card that can be played.
    assert look(heart)["face"] != look(playable)["face"]


def test_game_over_shows_the_team_totals_of_the_score_sheet(demo: Any) -> None:
    frame = scene("over")["frame"]
    scores = frame["view"]["scores"]
    you = frame["you"]["seat"]
    page = demo("over")
    dialog = page.locator("dialog.game-over-dialog[open]")
    dialog.wait_for()
    shown = dict(
        dialog.locator("table.final tfoot tr").evaluate_all(
            """(rows) => rows.map((tr) => [Number(tr.dataset.team),
                Number(tr.querySelector('td').textContent.replace('\\u2212', '-'))])"""
        )
    )
    assert shown == {0: scores[0] + scores[2], 1: scores[1] + scores[3]}
    # The score sheet's team row: this player's team first.
    dialog.get_by_role("button", name="Score sheet").click()
    sheet = page.locator("dialog[open] table.score-sheet").last
    row = sheet.locator("tfoot tr.team-totals td").all_inner_texts()
    ours, theirs = (int(x.replace(MINUS, "-")) for x in row)
    assert (ours, theirs) == (shown[you % 2], shown[1 - you % 2])
