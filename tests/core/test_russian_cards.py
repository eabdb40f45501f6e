"""Cards written with the Russian letters (ranks В Д К Т, suits п т б ч):
read in any text, the same card on every path (one card, a hand, cards
written together, the fast text path, the batch path), written back by
card_text in Russian, and the near misses (Latin twins, look-alike letters,
words) errors that say what to write."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fivecard import Card, Hand, ParseError, evaluate, full_deck, parse_card, parse_cards
from fivecard.core.cards import CARDS, JOKER, TOKENS, Rank, Suit, parse_card_at
from fivecard.core.evaluate import strength_function
from fivecard.core.words import card_text
from fivecard.vector import batch

# The test's own tables of how a rank and a suit may be written (not the parser's).
LATIN_RANKS = {
    **{str(n): Rank(n) for n in range(2, 10)},
    "10": Rank.TEN, "T": Rank.TEN, "t": Rank.TEN, "J": Rank.JACK, "j": Rank.JACK, "Q": Rank.QUEEN,
    "q": Rank.QUEEN, "K": Rank.KING, "k": Rank.KING, "A": Rank.ACE, "a": Rank.ACE,
}  # fmt: skip
RUSSIAN_RANKS = {"В": Rank.JACK, "Д": Rank.QUEEN, "К": Rank.KING, "Т": Rank.ACE}
RUSSIAN_RANKS |= {k.lower(): v for k, v in RUSSIAN_RANKS.items()}
RUSSIAN_SUITS = {"п": Suit.SPADES, "т": Suit.CLUBS, "б": Suit.DIAMONDS, "ч": Suit.HEARTS}
RUSSIAN_SUITS |= {k.upper(): v for k, v in RUSSIAN_SUITS.items()}
OTHER_SUITS = {
    **{c: s for s in Suit for c in (s.value, s.value.upper(), s.symbol)},
    "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS,
}  # fmt: skip
OTHER_SUITS |= {k + "\ufe0f": v for k, v in OTHER_SUITS.items() if not k.isascii()}  # the emoji forms


def russian_cards() -> dict[str, Card]:
    """Every token with a Russian letter that is a card, and its card: a
    Russian rank with any suit, a Russian suit after any rank but the
    Latin T, and a Russian rank alone."""
    cards: dict[str, Card] = {}
    for rank_text, rank in RUSSIAN_RANKS.items():
        cards[rank_text] = Card(rank, None)
        for suit_text, suit in (RUSSIAN_SUITS | OTHER_SUITS).items():
            cards[rank_text + suit_text] = Card(rank, suit)
    for rank_text, rank in LATIN_RANKS.items():
        if rank_text not in ("T", "t"):
            for suit_text, suit in RUSSIAN_SUITS.items():
                cards[rank_text + suit_text] = Card(rank, suit)
    return cards


RUSSIAN = russian_cards()


def test_every_russian_spelling_is_its_card_on_the_single_card_paths() -> None:
    # 8 Russian ranks, alone or with 8 Russian and 24 other suits; 17 Latin ranks with 8 Russian suits
    assert len(RUSSIAN) == 8 * (1 + 8 + 24) + 17 * 8
    for token, card in RUSSIAN.items():
        assert parse_card(token) == card, token
        assert parse_card_at(token, 1) == card, token
        assert parse_cards(f" {token} ,") == (card,), token  # the careful path
        assert TOKENS[token] == card, token  # the fast path's table


def test_the_fast_table_holds_exactly_the_spellings_the_parser_reads() -> None:
    """TOKENS, from which every fast path is built (the hand parser's, the
    text strength function's), has no Russian spelling beyond those read."""
    russian_letters = set("ВДКТПБЧвдктпбч")
    in_table = {t for t in TOKENS if russian_letters & set(t)}
    assert in_table == set(RUSSIAN)


def test_russian_hands_score_alike_on_every_path() -> None:
    """The fast text path, the batch path and cards written together read
    a Russian hand as the hand of the same cards in Latin letters."""
    score = strength_function(text=True)
    hands = ["Тп Кч Дб Вт 10п", "тп тч тб 9т 9п", "Aп Кs Д♦ 10ч 2т", "Т♠ К♠ Д♠ В♠ 10♠", "Вп Вч 7б 7т 2п"]
    for text in hands:
        latin = " ".join(c.code_str for c in parse_cards(text))
        strength = evaluate(latin).strength
        assert score(text) == strength == evaluate(text).strength, text
        assert evaluate(text.replace(" ", "")).strength == strength, text
        assert evaluate(", ".join(text.split())).strength == strength, text
    encoded = batch.encode(hands)
    assert not encoded.errors
    assert batch.strengths(encoded).tolist() == [evaluate(t).strength for t in hands]


@given(st.lists(st.sampled_from(sorted(RUSSIAN)), min_size=1, max_size=7))
def test_any_list_of_russian_tokens_reads_token_by_token(tokens: list[str]) -> None:
    expected = tuple(RUSSIAN[t] for t in tokens)
    assert parse_cards(" ".join(tokens)) == expected
    suited = [t for t in tokens if RUSSIAN[t].suit is not None]
    if len(suited) >= 2:  # cards with suits may be written together
        assert parse_cards("".join(suited)) == tuple(RUSSIAN[t] for t in suited)


def test_every_card_of_every_deck_reads_back_from_its_russian_text() -> None:
    for card in set(CARDS):
        assert parse_card(card_text(card, "ru")) == card, card
    assert card_text(Card.parse("As"), "ru") == "Т♠"
    assert parse_cards(" ".join(card_text(c, "ru") for c in full_deck())) == full_deck()


def test_the_cyrillic_t_is_the_ace_and_the_latin_t_the_ten() -> None:
    assert parse_card("Т♠") == Card(Rank.ACE, Suit.SPADES)  # Cyrillic
    assert parse_card("T♠") == Card(Rank.TEN, Suit.SPADES)  # Latin
    assert parse_card("Тт") == Card(Rank.ACE, Suit.CLUBS)  # the ace of clubs (туз треф)
    assert parse_card("10т") == Card(Rank.TEN, Suit.CLUBS)
    assert parse_cards("Т т") == (Card(Rank.ACE, None), Card(Rank.ACE, None))  # ranks alone (semi)
    assert Hand.parse("Т К Д В 10", rules="semi").sorted_str() == "A K Q J 10"


def test_a_lone_suit_letter_does_not_join_the_rank_before_it() -> None:
    assert parse_cards("К ♠") == (Card(Rank.KING, Suit.SPADES),)  # a symbol joins, as in Latin
    with pytest.raises(ParseError, match=r"^suit without a rank in card 2 \('п'\)$"):
        parse_cards("К п")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Tп", "card 1 ('Tп') has a Latin T (ten) before a Russian suit letter: write 10 for the ten, "
               "or the Cyrillic Т (туз) for the ace"),
        ("tч", "card 1 ('tч') has a Latin T (ten) before a Russian suit letter: write 10 for the ten, "
               "or the Cyrillic Т (туз) for the ace"),
        ("Bп", "card 1 ('Bп') has a Latin B, which is no rank, before a Russian suit letter: "
               "write J or the Cyrillic В (валет) for the jack"),
        ("А♠", "the Cyrillic letter А in card 1 ('А♠') only looks like the Latin A: type it in Latin letters, "
               "or write the card in Russian letters (ranks В, Д, К, Т; suits п, т, б, ч)"),
        ("А", "the Cyrillic letter А in card 1 ('А') only looks like the Latin A: type it in Latin letters, "
              "or write the card in Russian letters (ranks В, Д, К, Т; suits п, т, б, ч)"),
        ("Кс", "the Cyrillic letter с in card 1 ('Кс') only looks like the Latin c: type it in Latin letters, "
               "or write the card in Russian letters (ranks В, Д, К, Т; suits п, т, б, ч)"),
        ("Ас", "the Cyrillic letters А, с in card 1 ('Ас') only look like the Latin A, c: type them in Latin "
               "letters, or write the card in Russian letters (ranks В, Д, К, Т; suits п, т, б, ч)"),
        ("9Н", "the Cyrillic letter Н in card 1 ('9Н') only looks like the Latin H: type it in Latin letters, "
               "or write the card in Russian letters (ranks В, Д, К, Т; suits п, т, б, ч)"),
        ("Х", "the Cyrillic letter Х in card 1 ('Х') only looks like the Latin X: type it in Latin letters, "
              "or write the card in Russian letters (ranks В, Д, К, Т; suits п, т, б, ч)"),
        ("пики", "the suit 'пики' in card 1 ('пики') is written as one letter or symbol: п or ♠"),
        ("Кчерви", "the suit 'черви' in card 1 ('Кчерви') is written as one letter or symbol: ч or ♥"),
        ("10Бубны", "the suit 'Бубны' in card 1 ('10Бубны') is written as one letter or symbol: б or ♦"),
        ("туз", "the rank 'туз' in card 1 ('туз') is written as one letter: Т or A"),
        ("Валет", "the rank 'Валет' in card 1 ('Валет') is written as one letter: В or J"),
        ("Зп", "unknown rank 'З' in card 1 ('Зп')"),
        ("Кz", "unknown suit 'z' in card 1 ('Кz')"),
        ("б", "suit without a rank in card 1 ('б')"),
    ],
)
def test_near_misses_are_errors_that_say_what_to_write(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_card(text)
    assert str(caught.value) == message


def test_a_suit_word_after_a_rank_is_the_word_error_not_cards_written_together() -> None:
    with pytest.raises(ParseError, match=r"^the suit 'пик' in card 2 \('пик'\) is written as one letter"):
        parse_cards("Т пик")
    with pytest.raises(ParseError, match=r"^the suit 'пики' in card 1 \('Кпики'\)"):
        parse_cards("Кпики Тп")


def test_latin_input_reads_and_fails_as_before() -> None:
    """The Russian letters add spellings; Latin text reads as it did,
    its errors word for word."""
    assert parse_cards("As Td 10h 9c JK") == (Card.parse("As"), Card.parse("Td"), Card.parse("Th"),
                                              Card.parse("9c"), JOKER)  # fmt: skip
    for text, message in [
        ("Bs", "unknown rank 'B' in card 1 ('Bs')"),
        ("Ax", "unknown suit 'x' in card 1 ('Ax')"),
        ("s", "suit without a rank in card 1 ('s')"),
        ("zz", "unknown card 'zz' (card 1): expected a rank (2-10 or T, J, Q, K, A) followed by a suit "
               "(C, D, H, S or ♣ ♦ ♥ ♠), a rank alone, or a joker (JK)"),
    ]:
        with pytest.raises(ParseError) as caught:
            parse_card(text)
        assert str(caught.value) == message


def test_a_line_of_russian_hands_splits_into_hands() -> None:
    """The file readers tell Russian cards from labels as they do Latin ones."""
    from fivecard.files.rows import split_line

    assert split_line("Тп Кч Дб Вт 10п | 2т 3т 4т 5т 7б") == ["Тп Кч Дб Вт 10п", "2т 3т 4т 5т 7б"]
    assert split_line("ТпКчДбВт10п 2т3т4т5т7б") == ["ТпКчДбВт10п", "2т3т4т5т7б"]
    assert split_line("Т ♠ К ♠ Д ♠ В ♠ 10 ♠") == ["Т ♠ К ♠ Д ♠ В ♠ 10 ♠"]
