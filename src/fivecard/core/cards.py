r"""Cards and notation: ranks, suits, jokers; reading and writing them.

This module knows how cards are *spelled*. Whether a list of cards makes a
valid hand under a rule set (count, duplicates, jokers) is the job of
:mod:`fivecard.core.hand`.

Accepted spellings (any letter case):

* ranks ``2``-``9``, ``10`` or ``T``, ``J``, ``Q``, ``K``, ``A``;
* suits ``C D H S`` and the symbols ``♣ ♦ ♥ ♠`` (also ``♧ ♢ ♡ ♤``, and the
  emoji forms followed by U+FE0F);
* a joker: ``JK``, ``Joker``, ``X``, ``*`` or ``🃏``;
* a rank alone (``Q``, ``10``) is a rank-only card, for the ``semi`` rules;
* the Unicode playing cards (U+1F0A1 🂡 ace of spades ... U+1F0DE 🃞 king of
  clubs; the knights, U+1F0AC and its kin, are in no poker deck) and the
  Unicode jokers (U+1F0BF, U+1F0CF, U+1F0DF);
* the Russian card letters, in Cyrillic: ranks ``В`` (валет, jack), ``Д``
  (дама, queen), ``К`` (король, king), ``Т`` (туз, ace), and suits ``п``
  (пики, spades), ``т`` (трефы, clubs), ``б`` (бубны, diamonds), ``ч``
  (черви, hearts), as Russian cards are written (``Тп``, ``10ч``, ``Дб``,
  ``Т♠``, as :func:`fivecard.core.words.card_text` writes them in Russian).

The Russian letters are read in any text, whatever the language fivecard
speaks: they are other characters than the Latin ones (a hand pasted from a
Russian page reads the same everywhere), so no text reads two ways. The
Cyrillic ``Т`` is the ace and the Latin ``T`` the ten, each by its own
character. A rank in either alphabet takes a suit in either (``Aп``, ``Кs``,
``Т♠``), with one exception: a Latin ``T`` before a Russian suit letter
(``Tп``) is an error that asks for ``10`` or the Cyrillic ``Т``, since
the writer likely meant the ace and typed the Latin twin (as a Latin ``B``
before a Russian suit, which looks like the jack ``В``). A Cyrillic letter
that only looks like a Latin card letter (``А``, ``С``, ``Н``, ``Х``: ``Ас``
typed on a Russian keyboard) is not read as the Latin one: the error names
the letters, so the writer learns that the keyboard was in the other
alphabet rather than have a card guessed. A lone ``Т`` is the ace alone (the
``semi`` rules); a lone Russian suit letter, like a lone Latin one, does not
join the rank before it (``К т`` is two ranks alone). Suits and ranks
written as words (``пики``, ``туз``) are an error that says the letter.

Cards are separated by spaces and/or commas, or written together with no
separator at all, as other tools print them (``AsKd7h7c2s``, ``10h9h8h7h6h``,
``🂡🂮🂭🂫🂪``: cards with suits, jokers and Unicode cards; ranks alone need
separators). Cards are separated by spaces and/or commas (tabs count as spaces; a line
break inside a hand is an error; a byte order mark at the start is dropped).
A lone suit *symbol* after a lone rank joins it (``J ♦`` reads as ``J♦``), as
typeset text sometimes splits them; a lone suit letter does not.

There are two output forms, both of which parse back to the same card:
``Card.code_str`` (ASCII, ``As Td 7c JK``; used in JSON) and ``str(card)``
(``A♠ 10♦ 7♣ JK``; used for people).

A card as a number
------------------

Where a card must be a number (arrays of hands, decks, tables), it is its
*index*, ``Card.index``, the one number fivecard gives a card::

    index    0  1  2  3    4  5  6  7    8 ...   48 49 50 51   52 53   54 55 56 ... 66
    card    A♠ A♥ A♦ A♣   K♠ K♥ K♦ K♣   Q♠ ...   2♠ 2♥ 2♦ 2♣   JK JK    A  K  Q ...  2
            \___________________ suited ____________________/  jokers  \__ rank alone __/
            4 * (14 - rank) + suit (spades 0, hearts 1,          52 (53:  54 + (14 - rank)
            diamonds 2, clubs 3)                                 a 2nd)

The 52 suited cards come first, in sorted order (the ace of spades first,
the two of clubs last), so the first ``4 k`` indices are the cards of the
``k`` highest ranks (a short deck's 36 cards, 6 to ace, are 0-35); then the
joker, 52 (a deck with two jokers numbers the second 53, which names the
joker too); then the ranks alone (``semi``), the ace 54 ... the two 66.
Ascending index is sorted order for the cards of a hand (suited cards and
jokers, or ranks alone: no rule set mixes suited cards with ranks alone;
one with both jokers and ranks alone, which none built in has, would see
its jokers first). One table per form turns an index into the card
(:data:`CARDS`) or its text (:data:`TEXTS`); the evaluator's own number for
a card, its lookup code, is the evaluator's business
(:data:`fivecard.core.lookup.CODES`).

>>> Card.parse('AS').index, Card.parse('2C').index, JOKER.index, Card.parse('Q').index
(0, 51, 52, 56)
>>> CARDS[5], TEXTS[5], CARDS[53]
(Card.parse('Kh'), 'Kh', Card.parse('JK'))
>>> Card.parse('6C').index, [c.index for c in full_deck()[:4 * 9]] == list(range(36))
(35, True)
"""

from __future__ import annotations

import enum
import re

from .errors import ParseError, Phrase, phrase, phrase_n, quote
from .frozen import Frozen

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Final

__all__ = [
    "Rank",
    "Suit",
    "Card",
    "JOKER",
    "CARDS",
    "TEXTS",
    "JOKER_SYMBOL",
    "parse_card",
    "parse_cards",
    "parse_card_at",
    "format_cards",
    "full_deck",
]


class Rank(enum.IntEnum):
    """A card rank; the value is the rank's height (2 ... 14, ace high)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """One ASCII character: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_CHARS[self]

    @property
    def short(self) -> str:
        """How people write it: ``2``-``10``, ``J``, ``Q``, ``K``, ``A``."""
        return "10" if self == 10 else _RANK_CHARS[self]

    @property
    def word(self) -> str:
        """``Ace``, ``Ten``, ``Two`` ..."""
        return _RANK_WORDS[self - 2]

    @property
    def plural(self) -> str:
        """``Aces``, ``Sixes``, ``Twos`` ..."""
        return _RANK_WORDS[self - 2] + ("es" if self == 6 else "s")


class Suit(enum.Enum):
    """A suit. Suits are listed in fivecard's tie order for sorting: spades,
    hearts, diamonds, clubs (suits never decide a showdown)."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self.value]

    @property
    def order(self) -> int:
        """Position in the sort order: spades 0, hearts 1, diamonds 2, clubs 3."""
        return _SUIT_ORDER[self.value]


_RANK_CHARS: Final = {r: "23456789TJQKA"[r - 2] for r in Rank}
_RANK_WORDS: Final = (
    "Two Three Four Five Six Seven Eight Nine Ten Jack Queen King Ace".split()
)
_SUIT_SYMBOLS: Final = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_SUIT_ORDER: Final = {"s": 0, "h": 1, "d": 2, "c": 3}
_JOKER: Final = 52  # the joker's index (53 stands for it too: a second joker of a deck)
_RANK_ALONE: Final = 54  # the index of the ace alone; the two's is 66
JOKER_SYMBOL: Final = "JK"


class Card(Frozen):
    """A playing card: a rank and a suit, a rank alone (``semi`` rules), or a
    joker (rank and suit both ``None``).

    >>> Card.parse('10d')
    Card.parse('Td')
    >>> str(Card.parse('qS')), Card.parse('qS').code_str
    ('Q♠', 'Qs')
    """

    __slots__ = ("rank", "suit", "index")
    rank: Rank | None
    suit: Suit | None
    #: The card's index, the one number of a card (see the module text).
    index: int

    def __init__(self, rank: Rank | None, suit: Suit | None) -> None:
        if rank is None and suit is not None:
            raise ValueError("a joker has no suit")
        if rank is None:
            index = _JOKER
        elif suit is None:
            index = _RANK_ALONE + 14 - rank
        else:
            index = 4 * (14 - rank) + suit.order
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "index", index)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.rank == other.rank and self.suit == other.suit

    def __hash__(self) -> int:
        return hash((self.rank, self.suit))

    @staticmethod
    def parse(text: str) -> Card:
        """Read one card; see :func:`parse_card`."""
        return parse_card(text)

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    def rank_only(self) -> Card:
        """The card without its suit (jokers stay jokers)."""
        return self if self.rank is None else _CARDS[self.rank, None]

    @property
    def code_str(self) -> str:
        """Canonical ASCII form: ``As``, ``Td``, ``Q`` (rank only), ``JK``."""
        if self.rank is None:
            return JOKER_SYMBOL
        return self.rank.char + ("" if self.suit is None else self.suit.value)

    @property
    def sort_key(self) -> tuple[int, int]:
        """Sorted order: rank high to low, then spades, hearts, diamonds,
        clubs; rank-only cards after suited ones of a rank; jokers last."""
        if self.rank is None:
            return (0, 0)
        return (self.rank, -(4 if self.suit is None else self.suit.order))

    def __str__(self) -> str:
        if self.rank is None:
            return JOKER_SYMBOL
        return self.rank.short + ("" if self.suit is None else self.suit.symbol)

    def __repr__(self) -> str:
        return f"Card.parse({self.code_str!r})"


JOKER: Final = Card(None, None)

_CARDS: Final[dict[tuple[Rank, Suit | None], Card]] = {
    (r, s): Card(r, s) for r in Rank for s in (*Suit, None)
}

#: Card index -> the card (see the module text): the 52 suited cards in
#: sorted order, the joker twice (52 and 53), then the 13 ranks alone.
CARDS: Final[tuple[Card, ...]] = (
    *(_CARDS[r, s] for r in reversed(Rank) for s in Suit),
    JOKER,
    JOKER,
    *(_CARDS[r, None] for r in reversed(Rank)),
)
#: Card index -> canonical ASCII text (``As``, ``JK``, ``Q``: ``Card.code_str``).
TEXTS: Final[tuple[str, ...]] = tuple(c.code_str for c in CARDS)
assert all(c.index == i for i, c in enumerate(CARDS) if i != _JOKER + 1)


# --- decks -----------------------------------------------------------------------


def full_deck(*, suits: bool = True, jokers: int = 0) -> tuple[Card, ...]:
    """The cards of a deck in sorted order (ace of spades first), then jokers.

    >>> len(full_deck()), len(full_deck(jokers=2)), len(full_deck(suits=False))
    (52, 54, 13)
    """
    if suits:
        cards = [_CARDS[r, s] for r in reversed(Rank) for s in Suit]
    else:
        cards = [_CARDS[r, None] for r in reversed(Rank)]
    return tuple(cards) + (JOKER,) * jokers


# --- reading -----------------------------------------------------------------

def _rank_spellings() -> dict[str, Rank]:
    spellings: dict[str, Rank] = {}
    for rank in Rank:
        for spelling in (rank.char, rank.short):
            spellings[spelling] = spellings[spelling.lower()] = rank
    for letter, rank in _RUSSIAN_RANKS.items():
        spellings[letter] = spellings[letter.lower()] = rank
    return spellings


#: The Russian card letters (see the module text), upper case.
_RUSSIAN_RANKS: Final = {"В": Rank.JACK, "Д": Rank.QUEEN, "К": Rank.KING, "Т": Rank.ACE}
_RUSSIAN_SUITS: Final = {"П": Suit.SPADES, "Т": Suit.CLUBS, "Б": Suit.DIAMONDS, "Ч": Suit.HEARTS}
#: Cyrillic letters that look like Latin card letters but are none of the
#: Russian ones, with their Latin twins.
_LOOKALIKES: Final = {"А": "A", "а": "a", "С": "C", "с": "c", "Н": "H", "Х": "X", "х": "x"}
#: Russian words for suits and ranks (lower case), with the letter that
#: writes them.
_RUSSIAN_WORDS: Final[dict[str, Suit | Rank]] = {
    **dict.fromkeys(("пики", "пик", "пика"), Suit.SPADES),
    **dict.fromkeys(("трефы", "треф", "трефа"), Suit.CLUBS),
    **dict.fromkeys(("бубны", "бубен", "бубна", "буби"), Suit.DIAMONDS),
    **dict.fromkeys(("черви", "червы", "червей", "черва"), Suit.HEARTS),
    **dict.fromkeys(("туз", "туза"), Rank.ACE),
    **dict.fromkeys(("король", "короля"), Rank.KING),
    **dict.fromkeys(("дама", "даму", "дамы"), Rank.QUEEN),
    **dict.fromkeys(("валет", "валета"), Rank.JACK),
}


def _suit_spellings() -> dict[str, Suit]:
    outlines = {Suit.SPADES: "♤", Suit.HEARTS: "♡", Suit.DIAMONDS: "♢", Suit.CLUBS: "♧"}
    spellings: dict[str, Suit] = {}
    for suit, outline in outlines.items():
        for spelling in (suit.value, suit.value.upper(), suit.symbol, outline):
            spellings[spelling] = suit
            if not spelling.isascii():  # the emoji form: symbol + U+FE0F
                spellings[spelling + "\ufe0f"] = suit
    return spellings


_RANK_SPELLINGS: Final = _rank_spellings()
_SUIT_SPELLINGS: Final = _suit_spellings()
#: The Russian suit letters, either case (kept apart from the symbols and
#: Latin letters: a lone one never joins the rank before it).
_LETTER_SUITS: Final = {
    spelling: suit for letter, suit in _RUSSIAN_SUITS.items() for spelling in (letter, letter.lower())
}
#: Every suit spelling a card may end with.
_ANY_SUIT: Final = {**_SUIT_SPELLINGS, **_LETTER_SUITS}
_JOKER_SPELLINGS: Final = frozenset({"jk", "joker", "x", "*", "\U0001f0bf", "\U0001f0cf", "\U0001f0df"})
#: How ranks, suits and jokers may be written (jokers in lower case); the
#: table reader uses them to tell card-like cells from labels. The suits
#: here are the Latin letters and the symbols (a lone symbol joins the rank
#: before it); the Russian suit letters, which do not, are apart.
RANK_SPELLINGS: Final = _RANK_SPELLINGS
SUIT_SPELLINGS: Final = _SUIT_SPELLINGS
JOKER_SPELLINGS: Final = _JOKER_SPELLINGS


def _tokens() -> dict[str, Card]:
    """Every spelling of a card that the fast path recognises, letter case
    variants included; anything else goes through the careful path."""
    tokens: dict[str, Card] = {}
    suits_of: dict[Suit | None, list[str]] = {None: [""]}
    for spelling, suit in _ANY_SUIT.items():
        suits_of.setdefault(suit, []).append(spelling)
    for rank_spelling, rank in _RANK_SPELLINGS.items():
        for maybe_suit, suit_spellings in suits_of.items():
            for suit_spelling in suit_spellings:
                if rank_spelling in ("T", "t") and suit_spelling in _LETTER_SUITS:
                    continue  # "Tп": the Latin ten or the Cyrillic ace? an error says
                tokens[rank_spelling + suit_spelling] = _CARDS[rank, maybe_suit]
    for joker in ("JK", "Jk", "jK", "jk", "Joker", "JOKER", "joker", "X", "x", "*", *_UNICODE_JOKERS):
        tokens[joker] = JOKER
    for char, (rank, suit) in _UNICODE_CARDS.items():
        tokens[char] = _CARDS[rank, suit]
    return tokens


def _unicode_cards() -> dict[str, tuple[Rank, Suit]]:
    """The Unicode playing cards: a block per suit (spades U+1F0A0, hearts
    U+1F0B0, diamonds U+1F0C0, clubs U+1F0D0), ace 1, two to ten 2-10, jack
    11, the knight 12 (not a poker card), queen 13, king 14."""
    cards: dict[str, tuple[Rank, Suit]] = {}
    values = {1: Rank.ACE, **{n: Rank(n) for n in range(2, 11)}, 11: Rank.JACK, 13: Rank.QUEEN, 14: Rank.KING}
    for base, suit in ((0x1F0A0, Suit.SPADES), (0x1F0B0, Suit.HEARTS), (0x1F0C0, Suit.DIAMONDS), (0x1F0D0, Suit.CLUBS)):
        for value, rank in values.items():
            cards[chr(base + value)] = (rank, suit)
    return cards


_UNICODE_CARDS: Final = _unicode_cards()
_UNICODE_JOKERS: Final = ("🂿", "🃏", "🃟")
_UNICODE_KNIGHTS: Final = frozenset(chr(base + 12) for base in (0x1F0A0, 0x1F0B0, 0x1F0C0, 0x1F0D0))


TOKENS: Final = _tokens()
_SEPARATORS: Final = re.compile(r"[\s,]+")


def parse_card(text: str) -> Card:
    """Read one card.

    >>> parse_card('KD'), parse_card('10♦'), parse_card('q'), parse_card('Joker')
    (Card.parse('Kd'), Card.parse('Td'), Card.parse('Q'), Card.parse('JK'))
    >>> parse_card('1S')
    Traceback (most recent call last):
    ...
    fivecard.core.errors.ParseError: unknown rank '1' in card 1 ('1S')
    """
    cards = parse_cards(text)
    if len(cards) != 1:
        raise ParseError(phrase("expected one card, got {n} in {text}", n=len(cards), text=quote(text)))
    return cards[0]


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces and/or commas; no rule-set checks.

    >>> parse_cards('KD, 9C, 4H')
    (Card.parse('Kd'), Card.parse('9c'), Card.parse('4h'))
    >>> [str(c) for c in parse_cards('A♥ 2♥ 3♠ 4♥ 5♣')]
    ['A♥', '2♥', '3♠', '4♥', '5♣']

    Raises :class:`~fivecard.core.errors.ParseError` naming the first bad token and
    its position, and :class:`TypeError` for anything but text.
    """
    if not isinstance(text, str):
        raise TypeError(f"expected text such as 'AS KD 7C', got {type(text).__name__} {text!r:.60}")
    if "\n" not in text and "\r" not in text:
        try:
            return tuple([TOKENS[t] for t in text.replace(",", " ").split()])
        except KeyError:
            pass
    return _parse_carefully(text)


def parse_card_at(text: str, position: int) -> Card:
    """Read one card given on its own as card ``position`` of a hand (an item
    of a list such as ``['AS', 'KD', ...]``); errors name that position.

    >>> parse_card_at('10♦', 3), parse_card_at(' kd ', 1)
    (Card.parse('Td'), Card.parse('Kd'))
    >>> parse_card_at('1S', 3)
    Traceback (most recent call last):
    ...
    fivecard.core.errors.ParseError: unknown rank '1' in card 3 ('1S')
    >>> parse_card_at('AS KD', 2)
    Traceback (most recent call last):
    ...
    fivecard.core.errors.ParseError: card 2 ('AS KD') holds 2 cards; a list of cards takes one card per item
    """
    card = TOKENS.get(text)
    if card is not None:
        return card
    tokens = [t for t in _SEPARATORS.split(text.removeprefix("\ufeff")) if t]
    if len(tokens) == 2 and tokens[1] in _SUIT_SPELLINGS and not tokens[1].isascii():
        tokens = [tokens[0] + tokens[1]]  # "J ♦", as in a list of cards
    if len(tokens) == 1 and tokens[0] not in TOKENS:
        run = _run_together(tokens[0], position, text)
        if run is not None:
            tokens = [c.code_str for c in run]
    if not tokens:
        raise ParseError(
            phrase(
                "card {position} ({text}) holds no card; a list of cards takes one card per item",
                position=position,
                text=quote(text),
            )
        )
    if len(tokens) != 1:
        raise ParseError(
            phrase_n(
                "card {position} ({text}) holds {n} card; a list of cards takes one card per item",
                "card {position} ({text}) holds {n} cards; a list of cards takes one card per item",
                len(tokens),
                position=position,
                text=quote(text),
            )
        )
    return _read_token(tokens[0], position, text)


def _parse_carefully(text: str) -> tuple[Card, ...]:
    if text.startswith("\ufeff"):
        text = text[1:]
    for bad in ("\n", "\r"):
        if bad in text:
            raise ParseError(phrase("line break inside a list of cards (write one hand per line)"))
    tokens = [t for t in _SEPARATORS.split(text) if t]
    cards: list[Card] = []
    position = 0
    pending_rank: str | None = None
    for token in tokens:
        if pending_rank is not None and token in _SUIT_SPELLINGS and not token.isascii():
            # "J ♦": a lone suit after a lone rank completes that card.
            cards[-1] = _read_token(pending_rank + token, position, text)
            pending_rank = None
            continue
        position += 1
        run = None if token in TOKENS else _run_together(token, position, text)
        if run is not None:  # "AsKd7h7c2s": several cards with no separator
            cards.extend(run)
            position += len(run) - 1
            pending_rank = None
            continue
        card = _read_token(token, position, text)
        cards.append(card)
        pending_rank = token if card.suit is None and card.rank is not None else None
    return tuple(cards)


#: One card at the start of run-together text: a Unicode card or joker, a
#: joker's letters, or a rank and a suit.
_RUN_PIECE: Final = re.compile(
    "|".join(
        [
            "[" + "".join([*_UNICODE_CARDS, *_UNICODE_JOKERS]) + "]",
            "(?i:joker|jk)(?![cdhs])",
            "(?i:10|[2-9tjqka])(?:[cdhsCDHS]|[♠♥♦♣♤♡♢♧]\ufe0f?)",
            # the Russian letters: a Russian rank with any suit, a Russian
            # suit letter after any rank but the Latin T
            "[ВДКТвдкт](?:[cdhsCDHSпбчтПБЧТ]|[♠♥♦♣♤♡♢♧]\ufe0f?)",
            "(?i:10|[2-9jqka])[пбчтПБЧТ]",
        ]
    )
)


def cards_in_token(token: str) -> int:
    """How many cards a token (text with no separator) holds: several when
    they are written together (``AsKd7h``: 3), else 1 (a bad token counts
    as one card: reading it says what is wrong)."""
    if token in TOKENS:
        return 1
    try:
        run = _run_together(token, 1, token)
    except ParseError:
        return 1
    return 1 if run is None else len(run)


def cards_written_together(token: str) -> int:
    """How many cards written together a token starts with: two or more for
    a run (``AsKd7h``: 3; ``AsKdQx``: 2, its typo after them not counted),
    else 0. For telling text that looks like cards; reading it says what is
    wrong. Linear in the token's length.

    >>> cards_written_together('AsKd7h'), cards_written_together('AsKdQx'), cards_written_together('As')
    (3, 2, 0)
    """
    count = at = 0
    while (piece := _RUN_PIECE.match(token, at)) is not None:
        count, at = count + 1, piece.end()
    return count if count >= 2 else 0


#: Punctuation that people put between cards but the notation does not read
#: as a separator (``AH-KH-QH-JH-TH``): a hand so written is an error that says so.
FOREIGN_SEPARATORS: Final = "-/._+:~"


def _run_together(token: str, position: int, text: str) -> list[Card] | None:
    """The cards of a token that holds two or more written together, or
    None when it does not start as such. A token whose first card reads but
    whose rest does not is an error naming the piece that does not read."""
    first = _RUN_PIECE.match(token)
    if first is None or first.end() == len(token):
        return None
    cards: list[Card] = []
    at = 0
    while at < len(token):
        piece = _RUN_PIECE.match(token, at)
        if piece is None:
            if not token.isascii():  # "Кпики": a word, not cards written together
                _russian_mistake(token, phrase("card {position} ({token})", position=position, token=quote(token)))
            rest = token[at:]
            where = phrase(
                "card {position} ({piece}) of {token}",
                position=position + len(cards),
                piece=quote(rest[: 3 if rest.startswith("10") else 2]),
                token=quote(token),
            )
            if rest[0] in _UNICODE_KNIGHTS:
                raise ParseError(_knight(rest[0], where))
            if rest[0] in FOREIGN_SEPARATORS:
                raise ParseError(
                    phrase("cards are separated by spaces or commas, not {separator}: {where}",
                           separator=quote(rest[0]), where=where)
                )
            raise ParseError(
                phrase(
                    "cards written together must each be a rank and a suit, a joker or a Unicode card: {where}",
                    where=where,
                )
            )
        spelling = piece.group(0)
        card = TOKENS.get(spelling)
        cards.append(card if card is not None else JOKER)
        at = piece.end()
    return cards


def _knight(char: str, where: object) -> Phrase:
    return phrase("a knight ({code}) is in no poker deck: {where}", code=f"U+{ord(char):04X}", where=where)


def _read_token(token: str, position: int, text: str) -> Card:
    card = TOKENS.get(token)
    if card is not None:
        return card
    if token.lower() in _JOKER_SPELLINGS:
        return JOKER
    where = phrase("card {position} ({token})", position=position, token=quote(token))
    for ch in token:
        if not ch.isprintable():
            import unicodedata

            if unicodedata.category(ch) == "Cs":  # from undecodable bytes
                name: object = phrase("a lone surrogate, not a character")
            else:
                name = unicodedata.name(ch, "") or phrase("control character")
            raise ParseError(
                phrase("unexpected character {code} ({name}) in {where}", code=f"U+{ord(ch):04X}", name=name, where=where)
            )
    if token in _ANY_SUIT:
        raise ParseError(phrase("suit without a rank in {where}", where=where))
    if token in _UNICODE_KNIGHTS:
        raise ParseError(_knight(token, where))
    if not token.isascii():
        _russian_mistake(token, where)
    for cut in (2, 1):  # the suit is the last character, or two with U+FE0F
        rank_part, suit_part = token[:-cut], token[-cut:]
        if suit_part in _ANY_SUIT:
            if not rank_part:
                break
            raise ParseError(phrase("unknown rank {rank} in {where}", rank=quote(rank_part), where=where))
    for cut in (2, 1):
        rank_part, suit_part = token[:cut], token[cut:]
        if rank_part in _RANK_SPELLINGS:
            raise ParseError(phrase("unknown suit {suit} in {where}", suit=quote(suit_part), where=where))
    raise ParseError(
        phrase(
            "unknown card {token} (card {position}): expected a rank (2-10 or T, J, Q, K, A) "
            "followed by a suit (C, D, H, S or ♣ ♦ ♥ ♠), a rank alone, or a joker (JK)",
            token=quote(token),
            position=position,
        )
    )


#: The longest token :func:`_russian_mistake` explains: a rank and a word.
_LONGEST_MISTAKE: Final = 2 + max(map(len, _RUSSIAN_WORDS))


def _russian_mistake(token: str, where: object) -> None:
    """Raise the error that explains a token with a Cyrillic letter that is
    not read (see the module text): a Russian word for a suit or a rank,
    Cyrillic look-alikes of Latin card letters, a Latin ``T`` or ``B``
    before a Russian suit letter. Return when it is none of these."""
    if len(token) > _LONGEST_MISTAKE:  # (linear time on any input: no word or card is longer)
        return
    low = token.lower()
    for cut in range(len(low) + 1):  # a word alone, or after a rank ("Кпики")
        word = _RUSSIAN_WORDS.get(low[cut:])
        if word is not None and (cut == 0 or low[:cut] in _RANK_SPELLINGS):
            if isinstance(word, Suit):
                letter = next(k for k, v in _RUSSIAN_SUITS.items() if v is word).lower()
                raise ParseError(
                    phrase(
                        "the suit {word} in {where} is written as one letter or symbol: {letter} or {symbol}",
                        word=quote(token[cut:]),
                        where=where,
                        letter=letter,
                        symbol=word.symbol,
                    )
                )
            letter = next(k for k, v in _RUSSIAN_RANKS.items() if v is word)
            raise ParseError(
                phrase(
                    "the rank {word} in {where} is written as one letter: {letter} or {latin}",
                    word=quote(token[cut:]),
                    where=where,
                    letter=letter,
                    latin=word.char,
                )
            )
    swapped = "".join(_LOOKALIKES.get(ch, ch) for ch in token)
    if swapped != token and (swapped in TOKENS or swapped.lower() in _JOKER_SPELLINGS):
        letters = list(dict.fromkeys(ch for ch in token if ch in _LOOKALIKES))
        raise ParseError(
            phrase_n(
                "the Cyrillic letter {letters} in {where} only looks like the Latin {latin}: type it in "
                "Latin letters, or write the card in Russian letters (ranks В, Д, К, Т; suits п, т, б, ч)",
                "the Cyrillic letters {letters} in {where} only look like the Latin {latin}: type them in "
                "Latin letters, or write the card in Russian letters (ranks В, Д, К, Т; suits п, т, б, ч)",
                len(letters),
                letters=", ".join(letters),
                latin=", ".join(_LOOKALIKES[ch] for ch in letters),
                where=where,
            )
        )
    if len(token) == 2 and token[1] in _LETTER_SUITS:
        if token[0] in "Tt":
            raise ParseError(
                phrase(
                    "{where} has a Latin T (ten) before a Russian suit letter: write 10 for the ten, "
                    "or the Cyrillic Т (туз) for the ace",
                    where=where,
                )
            )
        if token[0] in "Bb":
            raise ParseError(
                phrase(
                    "{where} has a Latin B, which is no rank, before a Russian suit letter: "
                    "write J or the Cyrillic В (валет) for the jack",
                    where=where,
                )
            )


def format_cards(cards: tuple[Card, ...] | list[Card], *, ascii: bool = False) -> str:
    """Cards separated by spaces, as ``A♠ 10♦`` or (``ascii=True``) ``As Td``.

    >>> format_cards(parse_cards('as td jk'))
    'A♠ 10♦ JK'
    >>> format_cards(parse_cards('as td jk'), ascii=True)
    'As Td JK'
    """
    if ascii:
        return " ".join(c.code_str for c in cards)
    return " ".join(map(str, cards))
