"""Cards written together with no separator (``AsKd7h7c2s``, as pokerkit and
other tools print them) and the Unicode playing-card characters read as
cards, through the single-hand parser, lines of hands and the batch path."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fivecard import Card, FivecardError, ParseError, evaluate, full_deck, parse_card, parse_cards
from fivecard.vector import batch
from fivecard.files.rows import split_line
from fivecard.core.cards import JOKER, cards_in_token, cards_written_together

DECK = full_deck()
UNICODE_SUITS = {"SPADES": "s", "HEARTS": "h", "DIAMONDS": "d", "CLUBS": "c"}
UNICODE_RANKS = {"ACE": "A", "TWO": "2", "THREE": "3", "FOUR": "4", "FIVE": "5", "SIX": "6", "SEVEN": "7",
                 "EIGHT": "8", "NINE": "9", "TEN": "T", "JACK": "J", "QUEEN": "Q", "KING": "K"}  # fmt: skip


def test_cards_written_together_or_apart() -> None:
    assert [c.code_str for c in parse_cards("AsKd7h7c2s")] == ["As", "Kd", "7h", "7c", "2s"]
    assert evaluate("10h9h8h7h6h").description == "Straight Flush, Ten high"
    assert evaluate("A♠K♦7♥7♣2♠").description == "One Pair, Sevens, A-K-2 kickers"
    assert evaluate("as kd7h7c 2s").label == "One Pair"  # runs and separators mixed


def test_every_unicode_playing_card_is_its_card() -> None:
    seen = 0
    for code in range(0x1F0A1, 0x1F0DF):
        name = unicodedata.name(chr(code), "")
        if not name.startswith("PLAYING CARD ") or " OF " not in name:
            continue
        rank, suit = name.removeprefix("PLAYING CARD ").split(" OF ")
        if rank == "KNIGHT":
            with pytest.raises(ParseError, match=f"a knight \\(U\\+{code:04X}\\) is in no poker deck"):
                parse_card(chr(code))
            continue
        assert parse_card(chr(code)) == Card.parse(UNICODE_RANKS[rank] + UNICODE_SUITS[suit]), name
        seen += 1
    assert seen == 52
    for joker in ("\U0001f0bf", "\U0001f0cf", "\U0001f0df"):
        assert parse_card(joker) == JOKER
    assert evaluate("\U0001f0a1\U0001f0ae\U0001f0ad\U0001f0ab\U0001f0aa").label == "Royal Flush"


suited = st.lists(st.sampled_from(DECK), min_size=1, max_size=10)
#: Each card's Unicode character (the knights, in no poker deck, left out).
UNICODE = {
    parse_card(chr(c)): chr(c)
    for c in range(0x1F0A1, 0x1F0DF)
    if " OF " in unicodedata.name(chr(c), "") and "KNIGHT" not in unicodedata.name(chr(c))
}


@given(suited, st.sampled_from(["code", "people", "unicode"]), st.booleans())
def test_cards_written_together_read_back(cards: list[Card], form: str, joker: bool) -> None:
    if joker:
        cards = [*cards, JOKER]
    if form == "unicode":
        text = "".join("\U0001f0cf" if c.is_joker else UNICODE[c] for c in cards)
    else:
        text = "".join(c.code_str if form == "code" else str(c) for c in cards)
    assert list(parse_cards(text)) == cards
    assert cards_in_token(text) == len(cards)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AsKd7x7c2s", "cards written together must each be a rank and a suit, a joker or a Unicode card: card 3 ('7x') of 'AsKd7x7c2s'"),
        ("AsKdQ", "card 3 ('Q') of 'AsKdQ'"),
        ("As\U0001f0ac", "a knight (U+1F0AC) is in no poker deck: card 2"),
        ("AsKd7h7c2s3s", "expected 5 cards, got 6"),
    ],
)
def test_a_run_that_does_not_read_says_where(text: str, message: str) -> None:
    with pytest.raises(FivecardError) as raised:
        evaluate(text)
    assert message in str(raised.value)


def test_lines_of_hands_written_together() -> None:
    assert split_line("AsKd7h7c2s 2c3c4c5c7d") == ["AsKd7h7c2s", "2c3c4c5c7d"]
    assert split_line("AsKd 7h7c2s 2c3c 4c5c7d") == ["AsKd 7h7c2s", "2c3c 4c5c7d"]
    assert split_line("AsKd7h7c2s | 2c 3c 4c 5c 7d") == ["AsKd7h7c2s", "2c 3c 4c 5c 7d"]
    with pytest.raises(ParseError, match="'AsKd7h7c2s2c' runs from hand 1 into the next"):
        split_line("AsKd7h7c2s2c 3c4c5c7d")
    with pytest.raises(ParseError, match="7 cards is not a whole number of hands"):
        split_line("AsKd7h7c2s 2c3c")


def test_the_batch_path_reads_them_as_the_single_hand_path() -> None:
    texts = ["AsKd7h7c2s", "10h9h8h7h6h", "\U0001f0a1\U0001f0ae\U0001f0ad\U0001f0ab\U0001f0aa", "2c 3c4c5c 7d"]
    encoded = batch.encode(texts)
    assert not encoded.errors
    assert batch.strengths(encoded).tolist() == [evaluate(t).strength for t in texts]


@pytest.mark.parametrize("mark", list("-/._+:~"))
def test_punctuation_between_cards_is_an_error_that_says_so(mark: str) -> None:
    """The notation reads spaces and commas between cards (or none); other
    punctuation (AH-KH-QH-JH-TH) is an error naming it, never some other
    hand, and text that looks like cards counts them (for telling a hand
    column from a label)."""
    text = mark.join(["AH", "KH", "QH", "JH", "TH"])
    with pytest.raises(ParseError, match=f"cards are separated by spaces or commas, not '{re.escape(mark)}'"):
        parse_cards(text)
    with pytest.raises(FivecardError):
        evaluate(text)
    assert cards_written_together("AsKd7h") == 3 and cards_written_together("AsKdQx") == 2
    assert cards_written_together("As") == cards_written_together("Round") == 0
