"""The names of things in each language: ranks (with the grammar a sentence
needs), suits, cards, categories and rule sets, and lists.

English names are the ones the rest of the core uses (``Rank.word``,
``Category.label``, ``RuleSet.title``); the other languages say them from
the ``core`` catalog (see :mod:`fivecard.core.lang`).

>>> from fivecard.core.cards import Rank
>>> ru = language('ru')
>>> '{r}, {r:gen}, {r:acc}, {r:letter}'.format(r=rank_name(Rank.KING, ru))
'король, короля, короля, К'
>>> '{r}, {r:gen}'.format(r=rank_name(Rank.KING, ru, plural=True))
'короли, королей'
>>> category_name('one_pair', 'One Pair', language('ja'))
'ワンペア'
>>> spoken_list(['Ann', 'Bob', 'Cy'], ru)
'Ann, Bob и Cy'
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, Rank, Suit
from .errors import Listed, Phrase, Quoted
from .lang import ENGLISH, NP_, Language, language

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Final

__all__ = [
    "RankName",
    "rank_name",
    "rank_letter",
    "SuitName",
    "suit_name",
    "card_text",
    "card_name",
    "category_name",
    "category_detail",
    "rules_title",
    "rules_summary",
    "spoken_list",
    "error_text",
]

# Each rank's forms, by the spec a template gives it (see RankName). The
# English of each is the form English uses in that place.
_FORMS: Final = ("", "gen", "acc", "letter")
_SINGULAR: Final = {
    Rank.TWO: (NP_("rank", "Two"), NP_("rank, genitive", "Two"), NP_("rank, accusative", "Two")),
    Rank.THREE: (NP_("rank", "Three"), NP_("rank, genitive", "Three"), NP_("rank, accusative", "Three")),
    Rank.FOUR: (NP_("rank", "Four"), NP_("rank, genitive", "Four"), NP_("rank, accusative", "Four")),
    Rank.FIVE: (NP_("rank", "Five"), NP_("rank, genitive", "Five"), NP_("rank, accusative", "Five")),
    Rank.SIX: (NP_("rank", "Six"), NP_("rank, genitive", "Six"), NP_("rank, accusative", "Six")),
    Rank.SEVEN: (NP_("rank", "Seven"), NP_("rank, genitive", "Seven"), NP_("rank, accusative", "Seven")),
    Rank.EIGHT: (NP_("rank", "Eight"), NP_("rank, genitive", "Eight"), NP_("rank, accusative", "Eight")),
    Rank.NINE: (NP_("rank", "Nine"), NP_("rank, genitive", "Nine"), NP_("rank, accusative", "Nine")),
    Rank.TEN: (NP_("rank", "Ten"), NP_("rank, genitive", "Ten"), NP_("rank, accusative", "Ten")),
    Rank.JACK: (NP_("rank", "Jack"), NP_("rank, genitive", "Jack"), NP_("rank, accusative", "Jack")),
    Rank.QUEEN: (NP_("rank", "Queen"), NP_("rank, genitive", "Queen"), NP_("rank, accusative", "Queen")),
    Rank.KING: (NP_("rank", "King"), NP_("rank, genitive", "King"), NP_("rank, accusative", "King")),
    Rank.ACE: (NP_("rank", "Ace"), NP_("rank, genitive", "Ace"), NP_("rank, accusative", "Ace")),
}
_PLURAL: Final = {
    Rank.TWO: (NP_("ranks", "Twos"), NP_("ranks, genitive", "Twos"), NP_("ranks, accusative", "Twos")),
    Rank.THREE: (NP_("ranks", "Threes"), NP_("ranks, genitive", "Threes"), NP_("ranks, accusative", "Threes")),
    Rank.FOUR: (NP_("ranks", "Fours"), NP_("ranks, genitive", "Fours"), NP_("ranks, accusative", "Fours")),
    Rank.FIVE: (NP_("ranks", "Fives"), NP_("ranks, genitive", "Fives"), NP_("ranks, accusative", "Fives")),
    Rank.SIX: (NP_("ranks", "Sixes"), NP_("ranks, genitive", "Sixes"), NP_("ranks, accusative", "Sixes")),
    Rank.SEVEN: (NP_("ranks", "Sevens"), NP_("ranks, genitive", "Sevens"), NP_("ranks, accusative", "Sevens")),
    Rank.EIGHT: (NP_("ranks", "Eights"), NP_("ranks, genitive", "Eights"), NP_("ranks, accusative", "Eights")),
    Rank.NINE: (NP_("ranks", "Nines"), NP_("ranks, genitive", "Nines"), NP_("ranks, accusative", "Nines")),
    Rank.TEN: (NP_("ranks", "Tens"), NP_("ranks, genitive", "Tens"), NP_("ranks, accusative", "Tens")),
    Rank.JACK: (NP_("ranks", "Jacks"), NP_("ranks, genitive", "Jacks"), NP_("ranks, accusative", "Jacks")),
    Rank.QUEEN: (NP_("ranks", "Queens"), NP_("ranks, genitive", "Queens"), NP_("ranks, accusative", "Queens")),
    Rank.KING: (NP_("ranks", "Kings"), NP_("ranks, genitive", "Kings"), NP_("ranks, accusative", "Kings")),
    Rank.ACE: (NP_("ranks", "Aces"), NP_("ranks, genitive", "Aces"), NP_("ranks, accusative", "Aces")),
}
_LETTERS: Final = {
    Rank.TWO: NP_("rank letter", "2"),
    Rank.THREE: NP_("rank letter", "3"),
    Rank.FOUR: NP_("rank letter", "4"),
    Rank.FIVE: NP_("rank letter", "5"),
    Rank.SIX: NP_("rank letter", "6"),
    Rank.SEVEN: NP_("rank letter", "7"),
    Rank.EIGHT: NP_("rank letter", "8"),
    Rank.NINE: NP_("rank letter", "9"),
    Rank.TEN: NP_("rank letter", "10"),
    Rank.JACK: NP_("rank letter", "J"),
    Rank.QUEEN: NP_("rank letter", "Q"),
    Rank.KING: NP_("rank letter", "K"),
    Rank.ACE: NP_("rank letter", "A"),
}
_SUITS: Final = {
    Suit.SPADES: (NP_("suit", "spades"), NP_("suit, genitive", "spades")),
    Suit.HEARTS: (NP_("suit", "hearts"), NP_("suit, genitive", "hearts")),
    Suit.DIAMONDS: (NP_("suit", "diamonds"), NP_("suit, genitive", "diamonds")),
    Suit.CLUBS: (NP_("suit", "clubs"), NP_("suit, genitive", "clubs")),
}
_CATEGORIES: Final = {
    "high_card": NP_("category", "High Card"),
    "ace_king": NP_("category", "Ace-King"),
    "one_pair": NP_("category", "One Pair"),
    "two_pair": NP_("category", "Two Pair"),
    "three_of_a_kind": NP_("category", "Three of a Kind"),
    "straight": NP_("category", "Straight"),
    "flush": NP_("category", "Flush"),
    "full_house": NP_("category", "Full House"),
    "four_of_a_kind": NP_("category", "Four of a Kind"),
    "straight_flush": NP_("category", "Straight Flush"),
    "royal_flush": NP_("category", "Royal Flush"),
    "five_of_a_kind": NP_("category", "Five of a Kind"),
    "no_pair": NP_("category", "No Pair"),
}
_TITLES: Final = {
    "standard": NP_("rules", "Standard"),
    "ace-king": NP_("rules", "Ace-King (Russian poker)"),
    "semi": NP_("rules", "Semi-Poker"),
    "joker": NP_("rules", "Joker Poker"),
    "one-joker": NP_("rules", "Joker Poker (one joker)"),
    "short-deck": NP_("rules", "Short deck (6+)"),
    "ace-to-five": NP_("rules", "Ace-to-five lowball"),
    "deuce-to-seven": NP_("rules", "Deuce-to-seven lowball"),
    "deuces-wild": NP_("rules", "Deuces Wild"),
    "one-eyed-jacks": NP_("rules", "One-Eyed Jacks"),
}

_SUMMARIES: Final = {
    "standard": NP_(
        "rules summary",
        "52 cards, ten straights from 5-high (A-2-3-4-5) to ace-high (ModelOff 2012, Poker vs Dealer)",
    ),
    "ace-king": NP_(
        "rules summary",
        "standard, with Ace-King (an ace and a king, nothing better) between High Card and One Pair; "
        "11 categories (Russian poker)",
    ),
    "semi": NP_(
        "rules summary",
        "ranks only (suits ignored): no flushes, ace high only (2-3-4-5-6 is the lowest straight), "
        "Five of a Kind on top (Semi-Poker)",
    ),
    "joker": NP_(
        "rules summary",
        "54 cards with two fully wild jokers; Five of a Kind above the royal flush; natural and wild hands "
        "of equal value draw (Joker Poker)",
    ),
    "one-joker": NP_(
        "rules summary",
        "53 cards with one wild joker, as video poker's Joker Poker deals; Five of a Kind above the royal "
        "flush; natural and wild hands of equal value draw",
    ),
    "short-deck": NP_(
        "rules summary",
        "36 cards (6 to A): a flush beats a full house; six straights, from 9-high (A-6-7-8-9, the ace low) "
        "to ace-high (short deck, six-plus)",
    ),
    "deuces-wild": NP_(
        "rules summary",
        "52 cards, the four 2s wild; Five of a Kind above the royal flush; natural and wild hands of equal "
        "value draw (Deuces Wild)",
    ),
    "one-eyed-jacks": NP_(
        "rules summary",
        "52 cards, J♠ and J♥ wild (J♣ and J♦ are natural); Five of a Kind above the royal flush; natural "
        "and wild hands of equal value draw (One-Eyed Jacks)",
    ),
    "ace-to-five": NP_(
        "rules summary",
        "lowball, 52 cards: the lowest hand wins; the ace is low only, straights and flushes do not count, "
        "so 5-4-3-2-A (the wheel) is the best hand and K-K-K-K-Q the worst (ace-to-five lowball, razz)",
    ),
    "deuce-to-seven": NP_(
        "rules summary",
        "lowball, 52 cards: standard reversed, the lowest hand wins; the ace is high only (A-2-3-4-5 is no "
        "straight), straights and flushes count against you, so 7-5-4-3-2 of mixed suits is the best hand "
        "and a royal flush the worst (deuce-to-seven lowball, Kansas City)",
    ),
}


class RankName:
    """A rank (or, ``plural``, a group of one rank) as a template field: it
    says itself in the case its format spec names: ``{r}`` (as a subject),
    ``{r:gen}`` (genitive: Russian "до туза"), ``{r:acc}`` (accusative:
    "бьёт короля"), ``{r:letter}`` (``K``; Russian ``К``)."""

    __slots__ = ("rank", "lang", "plural")  # a plain class: a dataclass costs the command's start-up

    def __init__(self, rank: Rank, lang: Language, plural: bool = False) -> None:
        self.rank, self.lang, self.plural = rank, lang, plural

    def __format__(self, spec: str) -> str:
        if spec == "letter":
            return self.lang.pgettext(*_LETTERS[self.rank])
        try:
            form = _FORMS.index(spec)
        except ValueError:
            raise ValueError(f"unknown form {spec!r} of a rank (use '', 'gen', 'acc' or 'letter')") from None
        table = _PLURAL if self.plural else _SINGULAR
        return self.lang.pgettext(*table[self.rank][form])

    def __str__(self) -> str:
        return self.__format__("")


def rank_name(rank: Rank, lang: Language | str | None = None, *, plural: bool = False) -> RankName:
    """The rank's name as a template field (see :class:`RankName`)."""
    return RankName(rank, language(lang), plural)


def rank_letter(rank: Rank, lang: Language | str | None = None) -> str:
    """How the language writes the rank on a card: ``K``; in Russian ``К``."""
    lang = language(lang)
    return rank.short if lang is ENGLISH else lang.pgettext(*_LETTERS[rank])


class SuitName:
    """A suit as a template field: ``{suit}`` (``пики``), ``{suit:gen}``
    (``туз пик``)."""

    __slots__ = ("suit", "lang")

    def __init__(self, suit: Suit, lang: Language) -> None:
        self.suit, self.lang = suit, lang

    def __format__(self, spec: str) -> str:
        if spec not in ("", "gen"):
            raise ValueError(f"unknown form {spec!r} of a suit (use '' or 'gen')")
        return self.lang.pgettext(*_SUITS[self.suit][spec == "gen"])

    def __str__(self) -> str:
        return self.__format__("")


def suit_name(suit: Suit, lang: Language | str | None = None) -> str:
    """The suit's name: ``spades``, ``пики``, ``スペード``."""
    return str(SuitName(suit, language(lang)))


def card_text(card: Card, lang: Language | str | None = None) -> str:
    """The card as the language writes it: ``K♠``; in Russian ``К♠``; a
    joker ``🃏``... as :class:`str` gives it. It reads back as the same card."""
    lang = language(lang)
    if lang is ENGLISH or card.rank is None:
        return str(card)
    return rank_letter(card.rank, lang) + (card.suit.symbol if card.suit is not None else "")


def card_name(card: Card, lang: Language | str | None = None) -> str:
    """The card in words, for screen readers: ``King of spades``,
    ``король пик``, ``スペードのキング``."""
    lang = language(lang)
    if card.rank is None:
        return lang.pgettext("card", "Joker")
    rank = rank_name(card.rank, lang)
    if card.suit is None:
        return str(rank)
    return lang.phrase_p("card", "{rank} of {suit}", rank=rank, suit=SuitName(card.suit, lang))


def _by_name(table: dict[str, tuple[str, str]], name: str, english: str, lang: Language | str | None) -> str:
    """What ``table`` holds for ``name``, said in the language; ``english``
    as it is when the table does not hold that very English (a rule set or
    category a user made) or the language is English."""
    lang = language(lang)
    found = table.get(name)
    if lang is ENGLISH or found is None or found[1] != english:
        return english
    return lang.pgettext(*found)


def category_name(name: str, label: str, lang: Language | str | None = None) -> str:
    """A category's label in the language, by its machine name (``label``,
    the English, for a category of a custom rule set, said as it is)."""
    return _by_name(_CATEGORIES, name, label, lang)


def rules_title(name: str, title: str, lang: Language | str | None = None) -> str:
    """A rule set's title in the language (by its name; a rule set made by
    a user keeps the title it was given)."""
    return _by_name(_TITLES, name, title, lang)


def rules_summary(name: str, summary: str, lang: Language | str | None = None) -> str:
    """A rule set's summary in the language (by its name; a rule set made by
    a user, or a summary that is not the one the catalog knows, is said as
    it is)."""
    return _by_name(_SUMMARIES, name, summary, lang)


def spoken_list(items: Sequence[object], lang: Language | str | None = None) -> str:
    """Items as a sentence of the language lists them: "Ann, Bob and Cy";
    "Ann, Bob и Cy"; "Ann、BobとCy"."""
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    lang = language(lang)
    separator = lang.pgettext("list", ", ")
    return lang.phrase_p("list", "{items} and {last}", items=separator.join(words[:-1]), last=words[-1])


# A category's description after its name (see fivecard.core.evaluate.describe),
# by category; the English is the category's ``detail``.
_DETAILS: Final = {
    "high_card": NP_("high_card", "{cards}"),
    "ace_king": NP_("ace_king", "{cards}"),
    "flush": NP_("flush", "{cards}"),
    "one_pair": NP_("one_pair", "{0}, {kickers}"),
    "two_pair": NP_("two_pair", "{0} and {1}, {kickers}"),
    "three_of_a_kind": NP_("three_of_a_kind", "{0}, {kickers}"),
    "four_of_a_kind": NP_("four_of_a_kind", "{0}, {kickers}"),
    "straight": NP_("straight", "{high} high"),
    "straight_flush": NP_("straight_flush", "{high} high"),
    "full_house": NP_("full_house", "{0} over {1}"),
    "five_of_a_kind": NP_("five_of_a_kind", "{0}"),
    "no_pair": NP_("no_pair", "{low}, {cards}{wheel}"),
}


def category_detail(name: str, detail: str, lang: Language) -> str:
    """The template of a category's description after its name (English:
    ``detail`` itself; a custom category's detail is said as it is)."""
    return _by_name(_DETAILS, name, detail, lang)


def error_text(error: BaseException, lang: Language | str | None = None) -> str:
    """An error's message in the language (English: ``str(error)``). A
    :class:`~fivecard.core.errors.FivecardError` made from a template (its
    :attr:`~fivecard.core.errors.FivecardError.said`) says it in the
    language; any other says its English. Quotes of the input stay as they
    are; cards are written as the language writes them.

    >>> from fivecard.core.cards import parse_cards
    >>> try:
    ...     parse_cards('AS 1S')
    ... except ValueError as exc:
    ...     for lang in (None, 'ru', 'ja'):
    ...         print(error_text(exc, lang))
    unknown rank '1' in card 2 ('1S')
    неизвестный ранг '1' в карте 2 ('1S')
    カード 2（'1S'）のランク '1' がわかりません
    """
    said = getattr(error, "said", None)
    lang = language(lang)
    if lang is ENGLISH or not isinstance(said, Phrase):
        return str(error)
    return _said(said, lang)


def _said(phrase: Phrase, lang: Language) -> str:
    """A phrase in the language, its fields said in it too."""
    fields = {name: _field(value, lang) for name, value in phrase.fields.items()}
    if phrase.plural is None:
        return lang.phrase(phrase.template, phrase.domain, **fields)
    return lang.phrase_n(phrase.template, phrase.plural, phrase.n, phrase.domain, **fields)


def _field(value: object, lang: Language) -> object:
    if isinstance(value, Phrase):
        return _said(value, lang)
    if isinstance(value, Quoted):  # a long input's quote: its length said in the language
        count = f"{value.length:,}".replace(",", lang.pgettext("thousands separator", ","))
        return lang.phrase_n(
            "{quote} ({count} character)", "{quote} ({count} characters)", value.length, quote=value.shown, count=count
        )
    if isinstance(value, Card):
        return card_text(value, lang)
    if isinstance(value, RankName):
        return RankName(value.rank, lang, value.plural)
    if isinstance(value, Listed):
        items = [_field(i, lang) for i in value.items]
        if not value.more:
            return spoken_list(items, lang)
        separator = lang.pgettext("list", ", ")
        return lang.phrase_p(
            "list", "{items} and {more:,} more", items=separator.join(map(str, items)), more=value.more
        )
    return value
