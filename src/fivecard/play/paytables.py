"""Pay tables: what a video-poker machine pays per coin for each final
hand, by category (:class:`PayTable`), the built-in ones by name
(:data:`PAYTABLES`, :func:`builtin_paytable`, which takes built-in names only
and opens nothing) and one written as JSON text (:func:`parse_paytable`,
checked in full; a file of it is read by
:func:`fivecard.files.paytable_file.load_paytable`).

Loading this module loads no numpy, so that the command line can name the
built-in tables in its help and shell completion for free; what each hand of
a batch pays (:meth:`PayTable.hand_pays`, for the advisor and the solver)
loads it when first called.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from importlib import resources
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from ..core.cards import Card, Rank
from ..core.errors import FivecardError, quote
from ..core.lang import ENGLISH, NP_, LangLike, language
from ..core.words import category_name
from ..core.rules import RULE_SETS, RuleSet, get_rules

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "PayTable",
    "PayTableError",
    "PAYTABLES",
    "CATEGORY_NAMES",
    "PAY_NAMES",
    "MAX_PAY",
    "JACKS_OR_BETTER",
    "DEUCES_WILD_FULL_PAY",
    "builtin_paytable",
    "parse_paytable",
    "PayEntry",
    "ALIASES",
    "catalogue",
    "catalogue_report",
    "CatalogueReport",
    "parse_ranks",
    "spell_ranks",
    "spell_pay",
]

#: The most a category may pay per coin (a progressive royal pays some 4,000).
MAX_PAY: Final = 1_000_000
#: The most lines a table may have (the longest machines print some 15;
#: every pair of lines is checked for overlaps).
MAX_LINES: Final = 100


class PayTableError(FivecardError):
    """A pay table that cannot be read or is not valid."""


def _category_names() -> tuple[str, ...]:
    high = [r for r in RULE_SETS.values() if not r.low]  # pay tables pay high hands

    def height(name: str) -> tuple[float, float, str]:
        places = [r.scores[name] / len(r.ladder) for r in high if name in r.scores]
        return (-max(places), -min(places), name)

    return tuple(sorted({c.name for r in high for c in r.ladder}, key=height))


#: The machine names a pay table may pay: every (high, not lowball) rule
#: set's categories, strongest first.
CATEGORY_NAMES: Final[tuple[str, ...]] = _category_names()
#: What else a pay table may pay under a rule set with wild cards: a
#: category made without (``natural_royal_flush``) or with wild cards
#: (``wild_royal_flush``), which then pays instead of the category's own
#: entry, and four wild cards in one hand (``four_wild``: Deuces Wild's four
#: deuces), which pays whatever the fifth card.
PAY_NAMES: Final[tuple[str, ...]] = (
    *CATEGORY_NAMES,
    *(f"natural_{c}" for c in CATEGORY_NAMES),
    *(f"wild_{c}" for c in CATEGORY_NAMES),
    "four_wild",
)

_NAME_LIMIT: Final = 80


def _json_text(value: object) -> str:
    """A value as JSON spells it (``NaN``, ``true``, ``"800"``), shortened;
    a character that is not printable (a bidi override, a C1 control, a
    line separator) as JSON's ``\\u`` escape, so that an error quoting a
    hostile file prints as the one line it is."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    text = "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in text)
    return text if len(text) <= 60 else f"{text[:30]}...{text[-30:]} ({len(text):,} characters)"


#: Categories whose main group has a rank a pay table may narrow by
#: (``"ranks"``: the pair, the three, the four, the five of a kind, a full
#: house's three).
GROUPED: Final = frozenset({"one_pair", "three_of_a_kind", "full_house", "four_of_a_kind", "five_of_a_kind"})
#: Categories with a kicker a pay table may narrow by (``"kicker"``: four of
#: a kind's fifth card).
KICKED: Final = frozenset({"four_of_a_kind"})
_ALL_RANKS: Final = frozenset(Rank)
_ALL_WILDS: Final = frozenset(range(6))
_WILD_COUNTS: Final = ("no", "one", "two", "three", "four", "five")


#: The pay tables' lines by the names the catalogue gives them, said in
#: each language (a line of a table a user made keeps its name).
_LINES: Final = (
    NP_("pay line", "Jacks or Better"), NP_("pay line", "Kings or Better"), NP_("pay line", "Tens or Better"),
    NP_("pay line", "Pair of Aces"), NP_("pay line", "Two Pair"), NP_("pay line", "Three of a Kind"),
    NP_("pay line", "Straight"), NP_("pay line", "Flush"), NP_("pay line", "Full House"),
    NP_("pay line", "Four of a Kind"), NP_("pay line", "Straight Flush"), NP_("pay line", "Royal Flush"),
    NP_("pay line", "Five of a Kind"), NP_("pay line", "Natural Royal Flush"), NP_("pay line", "Wild Royal Flush"),
    NP_("pay line", "Joker Royal Flush"), NP_("pay line", "Four Deuces"), NP_("pay line", "Four Deuces with an Ace"),
    NP_("pay line", "Four Aces"), NP_("pay line", "Four Aces with a 2, 3 or 4"), NP_("pay line", "Four 2s, 3s or 4s"),
    NP_("pay line", "Four 2s, 3s or 4s with an A, 2, 3 or 4"), NP_("pay line", "Four 5s through Kings"),
    NP_("pay line", "Four 2s through 10s"), NP_("pay line", "Four Jacks, Queens or Kings"), NP_("pay line", "Five Aces"),
    NP_("pay line", "Five 3s, 4s or 5s"), NP_("pay line", "Five 6s through Kings"),
)  # fmt: skip
_LINE_NAMES: Final = {line[1]: line for line in _LINES}
_PLAY: Final = "play"  # their domain


def pay_line_name(label: str, hand: str = "", lang: LangLike = None) -> str:
    """A pay table's line as people read it in ``lang``: a line the
    catalogue names (``Jacks or Better``, ``Four Deuces``, ``Natural Royal
    Flush``) in the language's words, a category's label as
    :func:`~fivecard.core.words.category_name` says it; any other name (a
    line of a table a user made) as it is.

    >>> pay_line_name("Four Deuces", "five_of_a_kind", "ja"), pay_line_name("Flush", "flush", "ru")
    ('デュース4枚', 'Флеш')
    """
    words = language(lang)
    if words is ENGLISH:
        return label
    found = _LINE_NAMES.get(label)
    if found is not None:
        return words.pgettext(*found, _PLAY)
    return category_name(hand, label, words)


def spell_pay(pay: float) -> str:
    """A pay as people write it: ``800``, ``1,000,000``, ``5.5``.

    >>> spell_pay(1_000_000.0), spell_pay(5.5)
    ('1,000,000', '5.5')
    """
    return f"{int(pay):,}" if pay == int(pay) else f"{pay:g}"


def spell_ranks(ranks: frozenset[Rank]) -> str:
    """A set of ranks as pay tables write it: ``A``, ``2-4``, ``J-A``,
    ``A-4`` (the ace low: A, 2, 3, 4), ``A, 2-4``.

    >>> spell_ranks(frozenset({Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR}))
    'A-4'
    >>> spell_ranks(frozenset({Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE}))
    'J-A'
    """
    heights = sorted(int(r) for r in ranks)
    if Rank.ACE in ranks and Rank.TWO in ranks and Rank.KING not in ranks:
        heights = [1, *heights[:-1]]  # the ace reads low: A-4
    runs: list[list[int]] = []
    for h in heights:
        if runs and h == runs[-1][-1] + 1:
            runs[-1].append(h)
        else:
            runs.append([h])

    def short(height: int) -> str:
        return Rank(14 if height == 1 else height).short

    return ", ".join(short(r[0]) if len(r) == 1 else f"{short(r[0])}-{short(r[-1])}" for r in runs)


def parse_ranks(text: object, what: str) -> frozenset[Rank]:
    """Ranks as pay tables write them (:func:`spell_ranks`): ranks and
    ranges (``2-4``, ``J-A``; ``A-4`` reads the ace low) separated by
    commas. ``what`` names the field in the error.

    >>> sorted(r.short for r in parse_ranks("A, 5-7", "ranks"))
    ['5', '6', '7', 'A']
    >>> parse_ranks("4-2", "kicker")
    Traceback (most recent call last):
    ...
    fivecard.play.paytables.PayTableError: "kicker": the range "4-2" runs down; write the lower rank first ("2-4")
    """
    problem = f'"{what}" must be ranks or ranges such as "A", "2-4", "J-A", "A, 2-4", got {_json_text(text)}'
    if not isinstance(text, str) or not text.strip() or len(text) > 100:
        raise PayTableError(problem)
    found: set[Rank] = set()
    for part in text.split(","):
        low_text, dash, high_text = part.strip().partition("-")
        low, high = _one_rank(low_text, problem), _one_rank(high_text if dash else low_text, problem)
        bottom = 1 if low == Rank.ACE and dash and high != Rank.ACE else int(low)  # A-4: the ace low
        if bottom > high:
            raise PayTableError(
                f'"{what}": the range "{part.strip()}" runs down; write the lower rank first '
                f'("{high.short}-{low.short}")'
            )
        found.update(Rank(14 if h == 1 else h) for h in range(bottom, int(high) + 1))
    return frozenset(found)


def _one_rank(text: str, problem: str) -> Rank:
    try:
        card = Card.parse(text.strip())
    except FivecardError:
        raise PayTableError(problem) from None
    if card.rank is None or card.suit is not None:
        raise PayTableError(problem)
    return card.rank


def _from(least: Rank) -> frozenset[Rank]:
    """The ranks from ``least`` up to the ace."""
    return frozenset(r for r in Rank if r >= least)


def _spell_wilds(wilds: frozenset[int]) -> str:
    return ", ".join(str(w) for w in sorted(wilds))


@dataclass(frozen=True, slots=True)
class PayEntry:
    """One line of a pay table: what a final hand of category ``hand``
    (a machine name, :data:`CATEGORY_NAMES`) pays per coin at the most
    coins (``pays``; ``below_max``: per coin at fewer coins, when it
    differs, as a royal's 250 against 800 at five coins), optionally only
    for some of those hands:

    * ``ranks``: the rank of the hand's main group (:data:`GROUPED`: four
      aces, a pair of jacks or better);
    * ``kicker``: four of a kind's fifth card (:data:`KICKED`);
    * ``wilds``: how many wild cards the hand holds (``{0}``: natural,
      ``{1, ..., 5}``: wild; four deuces are a Five of a Kind with four).

    ``label`` is the line as machines print it (made from the rest when
    empty); ``key`` its machine name in reports (made from the rest when
    empty: ``four_of_a_kind_A_kicker_2-4``, ``natural_royal_flush``).
    Checked when made; a :class:`PayTableError` says what is wrong.
    """

    hand: str
    pays: float
    ranks: frozenset[Rank] | None = None
    kicker: frozenset[Rank] | None = None
    wilds: frozenset[int] | None = None
    label: str = ""
    key: str = ""
    below_max: float | None = None

    def __post_init__(self) -> None:
        if self.hand not in CATEGORY_NAMES:
            raise PayTableError(
                f"unknown category {_json_text(self.hand)}; the categories are {', '.join(CATEGORY_NAMES)}"
            )
        object.__setattr__(self, "pays", _checked_pay(self.pays, f'"pays" of "{self.key or self.hand}"'))
        if self.below_max is not None:
            object.__setattr__(
                self, "below_max", _checked_pay(self.below_max, f'"below_max" of "{self.key or self.hand}"')
            )
        if self.ranks is not None and self.hand not in GROUPED:
            raise PayTableError(
                f'"ranks" on {self.hand}, a category without a group to rank; ranks narrow '
                + ", ".join(sorted(GROUPED))
            )
        if self.kicker is not None and self.hand not in KICKED:
            raise PayTableError(
                f'"kicker" on {self.hand}, a category that has none; only '
                + ", ".join(sorted(KICKED))
                + " has a kicker (four deuces with an ace: five_of_a_kind, \"ranks\": \"A\", \"wilds\": 4)"
            )
        for field_name in ("ranks", "kicker", "wilds"):
            value = getattr(self, field_name)
            if value is not None and not value:
                raise PayTableError(f'"{field_name}" of {self.hand} is empty, so the line pays no hand')
        if self.wilds is not None and not self.wilds <= _ALL_WILDS:
            raise PayTableError(f'"wilds" must be counts of wild cards from 0 to 5, got {_spell_wilds(self.wilds)}')
        if not self.key:
            object.__setattr__(self, "key", self._made_key())
        if not isinstance(self.label, str) or len(self.label) > _NAME_LIMIT or not self.label.isprintable():
            raise PayTableError(
                f'"label" must be one line of text (at most {_NAME_LIMIT} characters), got {_json_text(self.label)}'
            )

    def _made_key(self) -> str:
        hand = self.hand
        if self.wilds == frozenset({4}) and hand == "five_of_a_kind":
            key = "four_wild"
        elif self.wilds == frozenset({0}):
            key = f"natural_{hand}"
        elif self.wilds == _ALL_WILDS - {0}:
            key = f"wild_{hand}"
        elif self.wilds is not None:
            key = f"{hand}_wilds_{_spell_wilds(self.wilds).replace(', ', ',')}"
        else:
            key = hand
        if self.ranks is not None:
            key += "_" + spell_ranks(self.ranks).replace(", ", ",")
        if self.kicker is not None:
            key += "_kicker_" + spell_ranks(self.kicker).replace(", ", ",")
        return key

    def space(self) -> tuple[str, frozenset[Rank], frozenset[Rank], frozenset[int]]:
        """The hands the line pays, as one set per trait (every value where
        the line does not narrow it): what overlaps are checked on."""
        return (self.hand, self.ranks or _ALL_RANKS, self.kicker or _ALL_RANKS, self.wilds or _ALL_WILDS)

    def describe(self, labels: Mapping[str, str]) -> str:
        """The line as people read it: ``label``, else made from the
        category's label (``labels``: machine name to label) and what
        narrows it: ``Royal Flush (natural)``, ``Four of a Kind (A, kicker
        2-4)``, ``Four wild cards``."""
        if self.label:
            return self.label
        notes = []
        if self.wilds == frozenset({4}) and self.hand == "five_of_a_kind":
            base = "Four wild cards"
            if self.ranks is not None:
                notes.append(f"with {spell_ranks(self.ranks)}")
        else:
            base = labels.get(self.hand, self.hand)
            counted = {"one_pair": "Pair of", "three_of_a_kind": "Three", "four_of_a_kind": "Four"}
            counted["five_of_a_kind"] = "Five"
            if self.ranks is not None and self.hand == "one_pair" and self.ranks == _from(min(self.ranks)):
                base = f"{min(self.ranks).plural} or Better" if len(self.ranks) > 1 else f"Pair of {Rank.ACE.plural}"
            elif self.ranks is not None and len(self.ranks) == 1 and self.hand in counted:
                base = f"{counted[self.hand]} {next(iter(self.ranks)).plural}"
            elif self.ranks is not None:
                notes.append(spell_ranks(self.ranks))
            if self.kicker is not None:
                notes.append(f"kicker {spell_ranks(self.kicker)}")
            if self.wilds == frozenset({0}):
                notes.append("natural")
            elif self.wilds == _ALL_WILDS - {0}:
                notes.append("wild")
            elif self.wilds is not None:
                notes.append(f"{_spell_wilds(self.wilds)} wild cards")
        if base == "Four wild cards":
            return " ".join([base, *notes])
        return f"{base} ({', '.join(notes)})" if notes else base

    def matches(self, category: str, rank: Rank | None, kicker: Rank | None, wilds: int) -> bool:
        """Whether the line pays a hand of ``category`` whose main group has
        ``rank`` and whose kicker is ``kicker``, holding ``wilds`` wild cards."""
        return (
            category == self.hand
            and (self.ranks is None or rank in self.ranks)
            and (self.kicker is None or kicker in self.kicker)
            and (self.wilds is None or wilds in self.wilds)
        )


def _checked_pay(pay: object, what: str) -> float:
    number: float | None = None
    if isinstance(pay, (int, float)) and not isinstance(pay, bool):
        try:
            number = float(pay)
        except OverflowError:  # an int beyond any float
            number = None
    if number is None or not math.isfinite(number) or not 0 <= number <= MAX_PAY:
        raise PayTableError(f"{what} must be a number from 0 to {MAX_PAY:,}, got {_json_text(pay)}")
    return number + 0.0  # no -0.0


def _short_entries(pays: Mapping[str, float], min_pair: Rank | None) -> tuple[PayEntry, ...]:
    """The short form's lines: ``{"royal_flush": 800, "one_pair": 1}``
    (with ``min_pair``, the pairs that pay), ``natural_``/``wild_`` before a
    category, ``four_wild``."""
    if not isinstance(pays, Mapping):
        raise PayTableError(
            f'"pays" must be an object of category: payout per coin, or a list of lines, got {_json_text(pays)}'
        )
    entries = []
    for name, pay in pays.items():
        if name not in PAY_NAMES:
            raise PayTableError(
                f"unknown category {_json_text(name)} in \"pays\"; "
                f"the categories are {', '.join(CATEGORY_NAMES)} (also natural_ or wild_ "
                "before one, and four_wild, under wild cards)"
            )
        kind, _, base = name.partition("_")
        ranks = None
        if name == "four_wild":
            hand, wilds = "five_of_a_kind", frozenset({4})
        elif kind in ("natural", "wild") and base in CATEGORY_NAMES:
            hand, wilds = base, frozenset({0}) if kind == "natural" else _ALL_WILDS - {0}
        else:
            hand, wilds = name, None
        if hand == "one_pair" and min_pair is not None:
            ranks = frozenset(r for r in Rank if r >= min_pair)
        entries.append(PayEntry(hand, pay, ranks, None, wilds, key=name))
    return tuple(entries)


def _check_overlaps(entries: Sequence[PayEntry]) -> None:
    """Every hand is paid by one line at most: where two lines pay some
    hands alike and neither holds the other, a third line must pay exactly
    those hands (the most specific line pays)."""
    spaces = [e.space() for e in entries]
    known = set(spaces)
    for i, first in enumerate(spaces):
        for j in range(i + 1, len(spaces)):
            second = spaces[j]
            if first[0] != second[0]:
                continue
            both = (first[0], first[1] & second[1], first[2] & second[2], first[3] & second[3])
            if not all(both[1:]):
                continue  # no hand is paid by both
            if first == second:
                raise PayTableError(
                    f"lines {i + 1} ({entries[i].key}) and {j + 1} ({entries[j].key}) pay the same hands"
                )
            inside = all(a <= b for a, b in zip(first[1:], second[1:])) or all(
                b <= a for a, b in zip(first[1:], second[1:])
            )
            if not inside and both not in known:
                shared = PayEntry(first[0], 0, *_narrowing(both))
                raise PayTableError(
                    f"lines {i + 1} ({entries[i].key}) and {j + 1} ({entries[j].key}) overlap: "
                    f"both pay {shared.key} and neither is more specific; narrow one of them, "
                    "or add a line for the hands of both"
                )


def _narrowing(
    space: tuple[str, frozenset[Rank], frozenset[Rank], frozenset[int]],
) -> tuple[frozenset[Rank] | None, frozenset[Rank] | None, frozenset[int] | None]:
    _, ranks, kicker, wilds = space
    return (
        None if ranks == _ALL_RANKS else ranks,
        None if kicker == _ALL_RANKS else kicker,
        None if wilds == _ALL_WILDS else wilds,
    )


@dataclass(frozen=True, slots=True)
class PayTable:
    """A video-poker pay table: what each final hand pays per coin bet (the
    coin included, as video poker machines quote it), line by line
    (:class:`PayEntry`); a hand no line pays pays nothing.

    The lines are given as ``entries``, or in the short form as ``pays``, a
    mapping of category: pay (``natural_``/``wild_`` before a category,
    ``four_wild``) with ``min_pair``, the lowest pair that pays (``J`` for
    Jacks or Better). After checking, ``entries`` holds the lines (a tuple)
    and ``pays`` maps each line's :attr:`PayEntry.key` to its pay.

    Named as a :class:`~fivecard.core.rules.RuleSet` is: ``name`` is its id
    (``jacks-or-better-9-6``, a key of :data:`PAYTABLES`; a file's name for a
    table read from one), ``title`` the label people read
    (``Jacks or Better 9/6``; a JSON table's ``"name"``), the name itself
    when not given. ``coins``: the most coins a hand may bet (5, or 6 on
    machines with a sixth coin; what a sixth coin buys on some machines,
    such as Quick Quads, is not a pay table's to say); ``published``: a
    return published for the table and ``source`` where, shown beside the
    exact one; ``exact``: the exact return, where known.

    Checked when made: a :class:`PayTableError` says what is wrong (an
    unknown category, a pay that is not a number from 0 to
    :data:`MAX_PAY`, a kicker on a category that has none, two lines that
    pay some hands alike with neither more specific).
    """

    name: str
    pays: Mapping[str, float] = field(default_factory=dict)
    min_pair: Rank | None = None
    #: The rule set it plays under (a name), if it names one.
    rules: str | None = None
    #: The label people read; the name itself if empty.
    title: str = ""
    coins: int = 5
    published: str | None = None
    source: str | None = None
    #: The exact return under perfect play, where known (the catalogue's
    #: tables state it; the tests solve each to check it).
    exact: Fraction | None = None
    #: The lines (the long form); the short form's ``pays`` become lines too.
    entries: Sequence[PayEntry] = ()

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", self.name)
        for text in (self.name, self.title):
            if not isinstance(text, str) or not text.strip() or not text.isprintable() or len(text) > _NAME_LIMIT:
                raise PayTableError(
                    f'"name" must be one line of text (at most {_NAME_LIMIT} characters), '
                    f"got {_json_text(text)}"
                )
        if self.min_pair is not None and not isinstance(self.min_pair, Rank):
            raise PayTableError(f'"min_pair" must be a rank, got {_json_text(self.min_pair)}')
        if self.entries:
            if self.pays:
                raise PayTableError('give "pays" as an object or as a list of lines, not both')
            if self.min_pair is not None:
                raise PayTableError('"min_pair" is for the short form; narrow the one_pair line by "ranks"')
            if not isinstance(self.entries, (list, tuple)) or not all(isinstance(e, PayEntry) for e in self.entries):
                raise PayTableError(f"the lines must be PayEntry values, got {_json_text(repr(self.entries))}")
            entries = tuple(self.entries)
        else:
            entries = _short_entries(self.pays, self.min_pair)
        if len(entries) > MAX_LINES:
            raise PayTableError(f"a table has at most {MAX_LINES} lines, not {len(entries):,}")
        keys = [e.key for e in entries]
        twice = next((k for k in keys if keys.count(k) > 1), None)
        if twice is not None:
            raise PayTableError(f"two lines are named {twice}")
        _check_overlaps(entries)
        object.__setattr__(self, "entries", entries)
        object.__setattr__(self, "pays", {e.key: e.pays for e in entries})
        if isinstance(self.coins, bool) or not isinstance(self.coins, int) or not 1 <= self.coins <= 6:
            raise PayTableError(f'"coins" must be the most coins a hand bets, 1 to 6, got {_json_text(self.coins)}')
        for what, given in (("published", self.published), ("source", self.source)):
            if given is not None and (not isinstance(given, str) or len(given) > 200 or not given.isprintable()):
                raise PayTableError(f'"{what}" must be one line of text, got {_json_text(given)}')
        if self.exact is not None and (not isinstance(self.exact, Fraction) or self.exact < 0):
            raise PayTableError(f'"return" must be a fraction such as "1653526326983/1661102543100", got {_json_text(str(self.exact))}')
        if self.rules is not None:
            if not isinstance(self.rules, str):
                raise PayTableError(f'"rules" must be a rule set\'s name, got {_json_text(self.rules)}')
            try:
                object.__setattr__(self, "rules", get_rules(self.rules).name)
            except FivecardError as exc:
                raise PayTableError(f'"rules": {exc}') from None

    def __hash__(self) -> int:
        return hash((self.name, tuple(self.entries), self.rules, self.title, self.coins))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PayTable):
            return NotImplemented
        mine = (self.name, tuple(self.entries), self.rules, self.title, self.coins, self.published, self.source)
        theirs = (other.name, tuple(other.entries), other.rules, other.title, other.coins, other.published, other.source)
        return mine == theirs and self.exact == other.exact

    @property
    def paying_pairs(self) -> frozenset[Rank]:
        """The ranks of the pairs that pay (J to A under Jacks or Better;
        none when only two pair or better pays)."""
        found: set[Rank] = set()
        for entry in self.entries:
            if entry.hand == "one_pair" and entry.pays > 0 and entry.wilds in (None, frozenset({0})):
                found |= entry.ranks or _ALL_RANKS
        return frozenset(found)

    @property
    def lowest_pair(self) -> Rank | None:
        """The lowest pair that pays (``J`` under Jacks or Better, ``A``
        under Royal Aces), or ``None`` when no pair pays: the cards from it
        up are a draw's high cards."""
        return min(self.paying_pairs, default=None)

    def rules_to_play(self, rules: str | RuleSet | None = None) -> RuleSet:
        """The rule set the table is played under: ``rules`` when given
        (checked: :meth:`check_rules`), else the one the table names, else
        ``standard``. A table that names its rule set implies it.

        >>> DEUCES_WILD_FULL_PAY.rules_to_play().name, JACKS_OR_BETTER.rules_to_play().name
        ('deuces-wild', 'standard')
        >>> DEUCES_WILD_FULL_PAY.rules_to_play("joker")
        Traceback (most recent call last):
        ...
        fivecard.play.paytables.PayTableError: Deuces Wild (full pay) plays under the deuces-wild rules, not joker
        """
        ruleset = get_rules(rules if rules is not None else self.rules or "standard")
        self.check_rules(ruleset)
        return ruleset

    def check_rules(self, rules: RuleSet) -> None:
        """Raise :class:`PayTableError` when the table names another rule
        set than ``rules``, or pays by wild cards under rules without any."""
        if self.rules is not None and self.rules != rules.name:
            raise PayTableError(
                f"{self.title} plays under the {self.rules} rules, not {rules.name}", option=("rules", self.rules)
            )
        special = [e.key for e in self.entries if e.wilds is not None]
        if special and not rules.wild_indices:
            raise PayTableError(
                f"{self.title} pays {special[0]}, which needs wild cards; the {rules.name} rules have none"
            )

    def hand_pays(
        self, rules: RuleSet, indices: npt.NDArray[np.int32], strengths: npt.NDArray[np.integer[Any]]
    ) -> npt.NDArray[np.float64]:
        """What each hand (rows of five card indices, with their strengths)
        pays: the pay of the most specific line that pays it, else 0."""
        import numpy as np  # loaded when a batch is paid, not with the table

        _, entry = self.final_entries(rules, indices, strengths)
        pays: npt.NDArray[np.float64] = self.line_pays()[entry]
        return pays

    def line_pays(self, coins: int | None = None) -> npt.NDArray[np.float64]:
        """What each line pays per coin, in :attr:`entries`' order, then 0
        for nothing: indexed by :meth:`final_entries`' answer, the pays. At
        a bet of fewer ``coins`` than the most (:attr:`coins`), a line's
        ``below_max`` pays where it has one (the royal's 250 per coin)."""
        import numpy as np

        if coins is not None and not 1 <= coins <= self.coins:
            raise PayTableError(f"{self.title} takes a bet of 1 to {self.coins} coins, not {coins}")
        short = coins is not None and coins < self.coins
        return np.array(
            [*(e.below_max if short and e.below_max is not None else e.pays for e in self.entries), 0.0]
        )

    def coin_columns(self, rules: RuleSet | None = None) -> list[tuple[str, str, list[int | float]]]:
        """The table as machines show it: per line, highest pay first, its
        key, its label and what it pays in all at a bet of 1, 2, ... up to
        :attr:`coins` coins (a line's ``below_max`` below the most: the
        royal's 250, 500, ... 4,000).

        >>> JACKS_OR_BETTER.coin_columns()[0]
        ('royal_flush', 'Royal Flush', [250, 500, 750, 1000, 4000])
        """
        ruleset = self.rules_to_play(rules)
        labels = {c.name: c.label for c in ruleset.ladder}
        columns = [self.line_pays(bet)[:-1] * bet for bet in range(1, self.coins + 1)]
        order = sorted(range(len(self.entries)), key=lambda j: (-self.entries[j].pays, j))
        return [
            (
                self.entries[j].key,
                self.entries[j].describe(labels),
                [int(c[j]) if c[j] == int(c[j]) else float(c[j]) for c in columns],
            )
            for j in order
            if self.entries[j].pays > 0
        ]

    def coin_table(self, rules: RuleSet | None = None, lang: LangLike = None) -> str:
        """:meth:`coin_columns` as text, a column per coin (its words in ``lang``)."""
        words = language(lang)
        ruleset = self.rules_to_play(rules)
        rows = [
            (key, label if words is ENGLISH else self.entry_label(key, ruleset, lang=words), pays)
            for key, label, pays in self.coin_columns(rules)
        ]
        width = max(len(label) for _, label, _ in rows)
        cells = [[spell_pay(p) for p in pays] for _, _, pays in rows]
        coins = [words.phrase_n("{n} coin", "{n} coins", n, "play") for n in range(1, self.coins + 1)]
        widths = [max(len(coin), *(len(r[i]) for r in cells)) for i, coin in enumerate(coins)]
        head = " ".join(f"{coin:>{w}}" for coin, w in zip(coins, widths))
        lines = [f"{'':<{width}}  {head}"]
        for (_, label, _), row in zip(rows, cells):
            lines.append(f"{label:<{width}}  " + " ".join(f"{c:>{w}}" for c, w in zip(row, widths)))
        return "\n".join(lines) + "\n"

    def kinds_key(self) -> tuple[object, ...]:
        """What tells this table's final hands apart (its lines, and which
        of them pay: a line that pays 0 sorts its hands as nothing), as
        plain data: two tables with the same key sort every hand into the
        same lines (:meth:`final_entries`), whatever else they pay.

        >>> free = parse_paytable('{"pays": {"royal_flush": 0, "flush": 6}}', name="x")
        >>> paid = parse_paytable('{"pays": {"royal_flush": 800, "flush": 6}}', name="x")
        >>> free.kinds_key() == paid.kinds_key()
        False
        >>> paid.kinds_key() == parse_paytable('{"pays": {"royal_flush": 250, "flush": 5}}', name="y").kinds_key()
        True
        """
        return tuple(
            (e.hand, repr(sorted(e.ranks or ())), repr(sorted(e.kicker or ())), repr(sorted(e.wilds or ())),
             e.ranks is None, e.kicker is None, e.wilds is None, e.pays > 0)
            for e in self.entries
        )

    def final_names(self) -> tuple[str, ...]:
        """The final hands the table tells apart: its lines' keys
        (:attr:`PayEntry.key`, in the table's order), then ``"nothing"``;
        what :meth:`final_entries` indexes."""
        return (*(e.key for e in self.entries), "nothing")

    def final_entries(
        self,
        rules: RuleSet,
        indices: npt.NDArray[np.int32],
        strengths: npt.NDArray[np.integer[Any]],
    ) -> tuple[tuple[str, ...], npt.NDArray[np.int64]]:
        """What each final hand is, as the table tells hands apart: the
        line that pays it, or ``"nothing"`` (the last name) for a hand no
        line pays or one that pays 0, such as a pair of tens under Jacks or
        Better. Returns the lines' keys (:attr:`PayEntry.key`, in the
        table's order, then ``"nothing"``) and, per hand, an index into
        them (and into :meth:`line_pays`)."""
        import numpy as np

        table = self.entry_table(rules)
        if table.shape[1] == 1:
            entry: npt.NDArray[np.int64] = table[strengths, 0]
        else:
            wild = np.isin(indices, list(rules.wild_indices)).sum(axis=1)
            entry = table[strengths, np.minimum(wild, table.shape[1] - 1)]
        return self.final_names(), entry

    def entry_table(self, rules: RuleSet) -> npt.NDArray[np.int64]:
        """Per strength under ``rules`` and count of wild cards held (one
        column without wild cards, else up to 5), the index of the line that
        pays the hand (:attr:`entries`), or ``len(entries)`` for nothing."""
        return _entry_table(self, rules)

    def entry_label(self, name: str, rules: RuleSet, *, pay: bool = False, lang: LangLike = None) -> str:
        """A line's key (:meth:`final_entries`) as people read it, and
        with ``pay`` what it pays per coin: the one wording of every report
        of final hands under a pay table; in ``lang`` (default English: the
        line's name as the table gives it, :func:`pay_line_name`).

        >>> from fivecard.core.rules import get_rules
        >>> JACKS_OR_BETTER.entry_label("one_pair_J-A", get_rules("standard"), pay=True)
        'Jacks or Better (pays 1)'
        >>> parse_paytable('{"pays": {"one_pair": 1}, "min_pair": "J"}', name="x").entry_label(
        ...     "one_pair", get_rules("standard"), pay=True)
        'Jacks or Better (pays 1)'
        >>> DEUCES_WILD_FULL_PAY.entry_label("natural_royal_flush", get_rules("deuces-wild"))
        'Natural Royal Flush'
        >>> parse_paytable('{"pays": {"natural_royal_flush": 800}}', name="x").entry_label(
        ...     "natural_royal_flush", get_rules("deuces-wild"), pay=True)
        'Royal Flush (natural, pays 800)'
        >>> JACKS_OR_BETTER.entry_label("nothing", get_rules("standard"), pay=True)
        'Nothing (pays 0)'
        >>> JACKS_OR_BETTER.entry_label("one_pair_J-A", get_rules("standard"), pay=True, lang="ru")
        'Валеты и выше (выплата 1)'
        """
        words = language(lang)
        if name == "nothing":  # (with its pay, asked for or not)
            return words.phrase("Nothing (pays 0)", "play")
        labels = {c.name: c.label for c in rules.ladder}
        entry = next((e for e in self.entries if e.key == name), None)
        label = entry.describe(labels) if entry is not None else labels.get(name, name)
        said = pay_line_name(label, entry.hand if entry is not None else name, words)
        if not pay:
            return said
        paid = spell_pay(self.pays.get(name, 0.0))
        if label.endswith(")") and entry is not None and not entry.label and words is ENGLISH:
            return f"{label[:-1]}, pays {paid})"
        return words.phrase("{line} (pays {pay})", "play", line=said, pay=paid)

    def payout(self, rules: RuleSet) -> npt.NDArray[np.float64]:
        """The pay of each strength under ``rules`` for a hand without wild
        cards (index 0 unused)."""
        import numpy as np

        out: npt.NDArray[np.float64] = self.line_pays()[self.entry_table(rules)[:, 0]]
        out[0] = 0.0
        return out


@lru_cache(maxsize=64)
def _entry_table(paytable: PayTable, rules: RuleSet) -> npt.NDArray[np.int64]:
    import numpy as np

    from ..core.lookup import tables_for

    tables = tables_for(rules)
    columns = 1 if not rules.wild_indices else min(5, rules.wilds) + 1
    nothing = len(paytable.entries)
    out = np.full((tables.size + 1, columns), nothing, dtype=np.int64)
    spaces = [e.space() for e in paytable.entries]
    rows: dict[tuple[str, Rank | None, Rank | None], list[int]] = {}  # what a line can tell apart: a row each
    for strength, (index, key, _) in enumerate(tables.shapes, 1):  # (the classes' raw shapes: no class made)
        category = rules.ladder[index].name
        rank = Rank(key[0]) if category in GROUPED else None
        kicker = Rank(key[1]) if category in KICKED and len(key) > 1 else None
        row = rows.get((category, rank, kicker))
        if row is None:
            row = rows[category, rank, kicker] = [nothing] * columns
            for wilds in range(columns):
                found = [i for i, e in enumerate(paytable.entries) if e.matches(category, rank, kicker, wilds)]
                if not found:
                    continue
                # the most specific: its hands lie within every other match's
                best = min(found, key=lambda i: math.prod(len(part) for part in spaces[i][1:]))
                if paytable.entries[best].pays > 0:
                    row[wilds] = best
        out[strength] = row
    return out


#: Other names the catalogue's tables answer to.
ALIASES: Final = {"jacks-or-better": "jacks-or-better-9-6", "deuces-wild": "deuces-wild-full-pay"}


class _Catalogue(Mapping[str, PayTable]):
    """The pay tables shipped with fivecard (``play/catalogue/*.json``, in
    the language :func:`parse_paytable` reads), by id: listed without being
    read, each read and checked when first asked for."""

    def __init__(self) -> None:
        self._folder = resources.files(__package__ or "fivecard.play") / "catalogue"
        self._read: dict[str, PayTable] = {}
        self._names: tuple[str, ...] | None = None

    def _ids(self) -> tuple[str, ...]:
        if self._names is None:
            self._names = tuple(
                sorted(f.name.removesuffix(".json") for f in self._folder.iterdir() if f.name.endswith(".json"))
            )
        return self._names

    def __getitem__(self, name: str) -> PayTable:
        found = self._read.get(name)
        if found is None:
            if name not in self._ids():
                raise KeyError(name)
            found = parse_paytable((self._folder / f"{name}.json").read_text("utf-8"), name=name)
            self._read[name] = found
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __len__(self) -> int:
        return len(self._ids())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._ids()


#: The pay tables shipped with fivecard, by id (``jacks-or-better-9-6``),
#: players' usual names (``fivecard strategy --list``); :data:`ALIASES`
#: name two of them too.
PAYTABLES: Final[Mapping[str, PayTable]] = _Catalogue()


@dataclass(frozen=True, slots=True)
class CatalogueReport:
    """The catalogue as ``fivecard strategy --list`` prints it: each
    table's name for ``--paytable``, its title, the rule set it plays under,
    its exact return under perfect play and the return a source published."""

    tables: tuple[PayTable, ...]

    def text(self) -> str:
        """A line per table, in :func:`catalogue`'s order."""
        aliases = {name: alias for alias, name in ALIASES.items()}
        rows = [("name", "game", "rules", "return", "published")]
        for table in self.tables:
            also = f" ({aliases[table.name]})" if table.name in aliases else ""
            exact = f"{float(table.exact * 100):.4f}%" if table.exact is not None else "-"
            rows.append((table.name + also, table.title, table.rules or "standard", exact, table.published or "-"))
        widths = [max(len(row[i]) for row in rows) for i in range(5)]
        lines = [
            "  ".join(
                (cell.rjust(width) if i == 3 else cell.ljust(width)) for i, (cell, width) in enumerate(zip(row, widths))
            ).rstrip()
            for row in rows
        ]
        note = (
            "return: exact, under perfect play at the most coins; published: as its source prints it "
            "(fivecard strategy --paytable NAME names the source)"
        )
        return "\n".join([*lines, note]) + "\n"

    def to_json(self) -> list[dict[str, Any]]:
        """A JSON object per table: ``name``, ``aliases``, ``title``,
        ``rules``, ``coins``, ``return`` (the exact fraction) and
        ``percent``, ``published`` and ``source`` (``null`` where none)."""
        return [
            {
                "name": t.name,
                "aliases": [alias for alias, name in ALIASES.items() if name == t.name],
                "title": t.title,
                "rules": t.rules or "standard",
                "coins": t.coins,
                "return": None if t.exact is None else f"{t.exact.numerator}/{t.exact.denominator}",
                "percent": None if t.exact is None else float(t.exact * 100),
                "published": t.published,
                "source": t.source,
            }
            for t in self.tables
        ]


def catalogue_report() -> CatalogueReport:
    """The catalogue's report (:class:`CatalogueReport`)."""
    return CatalogueReport(tuple(catalogue()))


def catalogue() -> list[PayTable]:
    """Every table of :data:`PAYTABLES`, as ``strategy --list`` shows
    them: the games without wild cards first, then deuces wild, then the
    joker's, each by name."""
    order = {"standard": 0, "deuces-wild": 1, "one-joker": 2}
    return sorted(PAYTABLES.values(), key=lambda t: (order.get(t.rules or "standard", 3), t.name))


_DEPTH_LIMIT: Final = 20  # a pay table nests 2 deep
_KEYS: Final = ("name", "rules", "coins", "pays", "min_pair", "return", "published", "source")
_LINE_KEYS: Final = ("hand", "ranks", "kicker", "natural", "wilds", "pays", "below_max", "label")
_RANKS: Final = "2-10, J, Q, K, A"
# A JSON string (possessive: linear even when unterminated) or a bracket.
_STRING_OR_BRACKET: Final = re.compile(r'"(?:[^"\\]|\\.)*+"?|[\[\]{}]', re.DOTALL)


def builtin_paytable(name: str) -> PayTable:
    """A built-in pay table (:data:`PAYTABLES`, :data:`ALIASES`) by its
    name, in any case: the names only, never a file (nothing is opened
    beyond the catalogue's own, whatever the text is). Any other text is a
    :class:`PayTableError` that names the closest ones.

    >>> builtin_paytable("Jacks-or-Better").title
    'Jacks or Better 9/6'
    >>> builtin_paytable("double-bonus-10-6")
    Traceback (most recent call last):
    ...
    fivecard.play.paytables.PayTableError: unknown pay table 'double-bonus-10-6' (did you mean double-bonus-10-7?); fivecard strategy --list lists the pay tables
    """
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in PAYTABLES:
        close = difflib.get_close_matches(key, [*PAYTABLES, *ALIASES], n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise PayTableError(f"unknown pay table {quote(name)}{hint}; fivecard strategy --list lists the pay tables")
    return PAYTABLES[key]



def parse_paytable(text: str, *, name: str) -> PayTable:
    """A pay table written as JSON::

        {"name": "My table", "pays": {"royal_flush": 250, "one_pair": 1},
         "min_pair": "J"}

    ``pays`` maps category machine names (:data:`CATEGORY_NAMES`) to the
    payout per coin, a number from 0 to 1,000,000; categories left out pay
    nothing; ``min_pair`` (optional) is the lowest paying pair; ``rules``
    (optional) the rule set it plays under; ``name`` (optional: the table's
    :attr:`PayTable.title`, default the ``name`` argument, which is its id)
    is shown with the advice. Other keys are errors (a misspelt
    key would otherwise be ignored), as are JSON nested too deep and keys
    given twice: a :class:`PayTableError` that says what and where.

    >>> parse_paytable('{"pays": {"royal_flush": 250}}', name="mine").pays
    {'royal_flush': 250.0}
    """
    return _paytable_of(_parse_json(text), name)


def _position(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    column = offset - text.rfind("\n", 0, offset)  # rfind is -1 on line 1
    return f"line {line}, column {column}"


def _parse_json(text: str) -> Any:
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > _DEPTH_LIMIT:
                raise PayTableError(
                    f"JSON nested deeper than {_DEPTH_LIMIT} levels at {_position(text, match.start())}"
                )
        elif token in ("]", "}"):
            depth -= 1

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for key, value in pairs:
            if key in found:
                raise PayTableError(f"key {_json_text(key)} appears twice in one object")
            found[key] = value
        return found

    try:
        return json.loads(
            text,
            object_pairs_hook=no_duplicates,
            # Integers past any float read as such (then refused as not
            # finite), not as a slow conversion or a digit-limit error.
            parse_int=lambda digits: int(digits) if len(digits) <= 300 else float(digits),
        )
    except json.JSONDecodeError as exc:
        raise PayTableError(
            f"not valid JSON: {exc.msg.removesuffix(' at')} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except PayTableError:
        raise
    except ValueError as exc:  # none known; still one line, not a traceback
        raise PayTableError(f"not valid JSON: {exc}") from None
    except RecursionError:  # not reached after the depth check; never a traceback
        raise PayTableError(f"JSON nested deeper than {_DEPTH_LIMIT} levels") from None


def _unknown_key(key: object, keys: Sequence[str], where: str) -> PayTableError:
    close = difflib.get_close_matches(key, keys, n=1) if isinstance(key, str) else []
    hint = f' (did you mean "{close[0]}"?)' if close else ""
    return PayTableError(
        f"unknown key {_json_text(key)}{hint}{where}; the keys are " + ", ".join(f'"{k}"' for k in keys)
    )


def _paytable_of(data: Any, default_name: str) -> PayTable:
    if not isinstance(data, dict):
        raise PayTableError(
            f"the top level must be an object {{\"pays\": ...}}, got {_json_text(data)}"
        )
    for key in data:
        if key not in _KEYS:
            raise _unknown_key(key, _KEYS, "")
    if "pays" not in data:
        raise PayTableError('no "pays": the object needs "pays": {category: payout per coin} or a list of lines')
    title = data.get("name", default_name)
    if not isinstance(title, str):
        raise PayTableError(f'"name" must be a string, got {_json_text(title)}')
    rank = None
    if data.get("min_pair") is not None:
        rank = _rank_of(data["min_pair"])
    pays = data["pays"]
    lines: list[PayEntry] = []
    if isinstance(pays, list):
        if not pays:
            raise PayTableError('"pays" is an empty list: a table pays at least one hand')
        if len(pays) > MAX_LINES:
            raise PayTableError(f'"pays" has {len(pays):,} lines; a table has at most {MAX_LINES}')
        lines = [_line_of(line, number) for number, line in enumerate(pays, 1)]
        pays = {}
    return PayTable(
        default_name,
        pays,
        rank,
        data.get("rules"),
        title=title,
        coins=data.get("coins", 5),
        published=data.get("published"),
        source=data.get("source"),
        exact=_fraction_of(data["return"]) if "return" in data else None,
        entries=lines,
    )


def _fraction_of(value: object) -> Fraction:
    problem = f'"return" must be an exact fraction such as "1653526326983/1661102543100", got {_json_text(value)}'
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{1,40}/[0-9]{1,40}", value.strip()):
        raise PayTableError(problem)
    numerator, denominator = (int(part) for part in value.strip().split("/"))
    if denominator == 0:
        raise PayTableError(problem)
    return Fraction(numerator, denominator)


def _line_of(line: object, number: int) -> PayEntry:
    """One line of the long form: ``{"hand": "four_of_a_kind", "ranks":
    "A", "kicker": "2-4", "pays": 400, "label": "Four Aces with 2-4"}``."""
    where = f" in line {number} of \"pays\""
    if not isinstance(line, dict):
        raise PayTableError(f'line {number} of "pays" must be an object {{"hand": ..., "pays": ...}}, got {_json_text(line)}')
    for key in line:
        if key not in _LINE_KEYS:
            raise _unknown_key(key, _LINE_KEYS, where)
    for key in ("hand", "pays"):
        if key not in line:
            raise PayTableError(f'line {number} of "pays" has no "{key}"')
    try:
        if "natural" in line and "wilds" in line:
            raise PayTableError('give "natural" or "wilds", not both')
        wilds: frozenset[int] | None = None
        if "natural" in line:
            if not isinstance(line["natural"], bool):
                raise PayTableError(f'"natural" must be true or false, got {_json_text(line["natural"])}')
            wilds = frozenset({0}) if line["natural"] else _ALL_WILDS - {0}
        elif "wilds" in line:
            given = line["wilds"]
            counts = given if isinstance(given, list) else [given]
            if not counts or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 5 for c in counts):
                raise PayTableError(f'"wilds" must be a count of wild cards from 0 to 5, or a list of them, got {_json_text(given)}')
            wilds = frozenset(counts)
        hand = line["hand"]
        if not isinstance(hand, str):
            raise PayTableError(f'"hand" must be a category\'s name, got {_json_text(hand)}')
        label = line.get("label", "")
        if not isinstance(label, str):
            raise PayTableError(f'"label" must be a string, got {_json_text(label)}')
        return PayEntry(
            hand,
            line["pays"],
            parse_ranks(line["ranks"], "ranks") if "ranks" in line else None,
            parse_ranks(line["kicker"], "kicker") if "kicker" in line else None,
            wilds,
            label=label,
            below_max=line.get("below_max"),
        )
    except PayTableError as exc:
        raise PayTableError(f"line {number} of \"pays\": {exc}") from None


def _rank_of(value: object) -> Rank:
    problem = f'"min_pair" must be a rank ({_RANKS}), got {_json_text(value)}'
    if not isinstance(value, str):
        raise PayTableError(problem)
    try:
        card = Card.parse(value)
    except FivecardError:
        raise PayTableError(problem) from None
    if card.rank is None or card.suit is not None:
        raise PayTableError(problem)
    return card.rank


#: Jacks or Better 9/6, the full-pay game every other is measured against.
JACKS_OR_BETTER: Final = builtin_paytable("jacks-or-better-9-6")
#: Full-pay Deuces Wild.
DEUCES_WILD_FULL_PAY: Final = builtin_paytable("deuces-wild-full-pay")
