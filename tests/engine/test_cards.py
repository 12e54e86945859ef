"""Cards, suits, ranks and masks (docs/rules.md, "Cards")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourhundred.engine import (
    CARD_NAMES,
    FACE_MASK,
    HEARTS_MASK,
    SUIT_MASKS,
    TIMEOUT_ORDER,
    Rank,
    Suit,
    card,
    card_str,
    cards_of,
    mask_of,
    parse_card,
)
from fourhundred.engine.cards import (
    cards_str,
    count,
    hand_str,
    is_card_name,
    iter_cards,
    rank_of,
    suit_of,
)


def test_deck_order() -> None:
    assert len(CARD_NAMES) == 52
    assert len(set(CARD_NAMES)) == 52
    assert CARD_NAMES[:13] == tuple(r + "C" for r in "23456789TJQKA")
    assert CARD_NAMES[13] == "2D"
    assert CARD_NAMES[26] == "2H"
    assert CARD_NAMES[38] == "AH"
    assert CARD_NAMES[51] == "AS"
    for c in range(52):
        assert card(rank_of(c), suit_of(c)) == c
        assert c == suit_of(c) * 13 + rank_of(c)


def test_suits_and_ranks() -> None:
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert "".join(r.letter for r in Rank) == "23456789TJQKA"
    assert Rank.ACE > Rank.KING > Rank.TWO
    assert Suit.HEARTS.mask == HEARTS_MASK == SUIT_MASKS[2]
    assert card(Rank.TEN, Suit.DIAMONDS) == parse_card("TD")


@pytest.mark.parametrize("c", range(52))
def test_text_round_trip(c: int) -> None:
    assert parse_card(card_str(c)) == c
    assert is_card_name(card_str(c))


@pytest.mark.parametrize(
    ("text", "name"),
    [("ah", "AH"), (" td ", "TD"), ("10D", "TD"), ("10h", "TH"), ("2c", "2C"), ("Qs", "QS")],
)
def test_parse_card_is_lenient(text: str, name: str) -> None:
    assert card_str(parse_card(text)) == name


@pytest.mark.parametrize("text", ["", "1H", "AX", "HA", "A", "AHH", "11D", "ZZ", "🂡"])
def test_parse_card_refuses_and_quotes(text: str) -> None:
    with pytest.raises(ValueError, match="is not a card") as info:
        parse_card(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("value", [None, 38, b"AH", ["AH"]])
def test_parse_card_refuses_non_strings(value: object) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(value)  # type: ignore[arg-type]


def test_record_names_are_strict() -> None:
    """Records take only the canonical form ('AH', not 'ah' or '10H')."""
    assert is_card_name("AH")
    for bad in ("ah", "10H", " AH", "AH ", 38, None):
        assert not is_card_name(bad)


def test_suit_masks_partition_the_deck() -> None:
    assert sum(SUIT_MASKS) == (1 << 52) - 1
    for s, m in enumerate(SUIT_MASKS):
        assert m.bit_count() == 13
        assert all(suit_of(c) == s for c in cards_of(m))


def test_face_mask() -> None:
    names = {card_str(c) for c in cards_of(FACE_MASK)}
    assert names == {r + s for r in "AKQJ" for s in "CDHS"}


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(0, 51)))
def test_mask_round_trip(cs: set[int]) -> None:
    m = mask_of(cs)
    assert cards_of(m) == sorted(cs)
    assert list(iter_cards(m)) == sorted(cs)
    assert count(m) == len(cs)
    assert cards_str(m) == " ".join(card_str(c) for c in sorted(cs))


def test_hand_str() -> None:
    hand = mask_of(parse_card(x) for x in ["AH", "2H", "KS", "3C", "TH"])
    assert hand_str(hand) == "C:3 D:- H:AT2 S:K"
    assert hand_str(0) == "C:- D:- H:- S:-"


def test_timeout_order() -> None:
    """Lowest rank first; among equal ranks a non-heart before the heart,
    then clubs, diamonds, spades (docs/rules.md, "When a turn timer runs out")."""
    assert sorted(TIMEOUT_ORDER) == list(range(52))
    names = [card_str(c) for c in TIMEOUT_ORDER]
    assert names[:8] == ["2C", "2D", "2S", "2H", "3C", "3D", "3S", "3H"]
    assert names[-4:] == ["AC", "AD", "AS", "AH"]
    ranks = [rank_of(c) for c in TIMEOUT_ORDER]
    assert ranks == sorted(ranks)
