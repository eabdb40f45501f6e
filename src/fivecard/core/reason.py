"""Why a showdown ends as it does, as data, said in any language.

A :class:`Step` is why one class of hands beats (or draws with) another: the
category, the top card of a straight, a group, a kicker, or nothing (a draw,
and why suits or wild cards do not break it). A :class:`Verdict` is a whole
showdown's reason: who wins or splits, and the steps that decide it. Both are
made in one place (:func:`fivecard.core.showdown.outcome_of`) and said by
:meth:`Verdict.text` in English, Japanese or Russian, the hands called by
number or by name.

>>> from fivecard import showdown
>>> verdict = showdown(['AS AD KH 7C 2D', 'AH AC QS JD 9H']).verdict
>>> verdict.step.kind, verdict.step.position
('card', 2)
>>> verdict.text()
'Hand 1 wins: both One Pair of Aces; the third card decides, K beats Q'
>>> verdict.text('ja', names=['Ann', 'Bob'])
'Annの勝ち：どちらもエースのワンペア。3枚目で決まり、KがQに勝ちます'
>>> verdict.text('ru')
'Побеждает рука 1: у обеих Пара тузов; решает третья карта, К бьёт Д'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from .cards import Rank
from .lang import NP_, Language, language
from .lookup import HandClass
from .rules import RuleSet
from .evaluate import describe
from .words import category_name, rank_letter, rank_name, spoken_list

__all__ = ["Step", "Verdict", "step", "verdict"]

_ORDINALS: Final = (
    NP_("ordinal card", "first"),
    NP_("ordinal card", "second"),
    NP_("ordinal card", "third"),
    NP_("ordinal card", "fourth"),
    NP_("ordinal card", "fifth"),
)
_GROUP_NOUNS: Final = {
    2: NP_("group", "pair"),
    3: NP_("group", "three of a kind"),
    4: NP_("group", "four of a kind"),
    5: NP_("group", "five of a kind"),
}
#: Two groups of one size can only be two pairs (in five cards).
_HIGHER_GROUP_NOUNS: Final = {2: NP_("group", "higher pair")}
_LOWER_GROUP_NOUNS: Final = {2: NP_("group", "lower pair")}

#: What decided: the ``category``; nothing, a ``draw`` (``wild_draw``: a
#: natural and a wild hand of equal value); the ``top`` card of two straights;
#: a ``group`` of cards; a single ``card`` (a kicker, or a card of a no-pair hand).
Kind = Literal["category", "draw", "wild_draw", "top", "group", "card"]


@dataclass(frozen=True, slots=True)
class Step:
    """Why the ``winner``'s class beats (or draws with) the ``loser``'s,
    under ``rules``, and whether each hand is natural.

    ``kind`` says what decided; for ``top``, ``group`` and ``card``,
    ``position`` is the place in the compared list (0-based; for ``card``,
    the card's place in the hand: 2 is "the third card") and ``ranks``
    the winner's and the loser's rank there."""

    winner: HandClass
    loser: HandClass
    rules: RuleSet
    naturals: tuple[bool, bool] = (True, True)
    kind: Kind = "category"
    position: int = 0
    ranks: tuple[Rank, Rank] | None = None
    #: For a group: its size (2 a pair) and, when two groups of that size
    #: are compared (two pair), 1 for the higher and 2 for the lower.
    size: int = 0
    rung: int = 0

    def text(self, lang: Language | str | None = None) -> str:
        """The step as a phrase in ``lang`` (default English):
        ``Flush beats Straight``, ``both One Pair of Aces; the third card
        decides, K beats Q``."""
        return _step_text(self, language(lang))

    def _text(self, words: Language) -> str:
        winner = self.winner.category
        if self.kind == "category":
            return words.phrase(
                "{winner} beats {loser}",
                winner=category_name(winner.name, winner.label, words),
                loser=category_name(self.loser.category.name, self.loser.category.label, words),
            )
        if self.kind in ("draw", "wild_draw"):
            both = describe(self.winner, words)
            if self.kind == "wild_draw":
                return words.phrase("both {hand}; a natural hand and a wild hand of equal value draw", hand=both)
            if not self.rules.suits:
                return words.phrase("both {hand}", hand=both)
            return words.phrase("both {hand}; suits never break ties", hand=both)
        assert self.ranks is not None
        w, l = self.ranks
        name = category_name(winner.name, winner.label, words)
        note = self._note(words)
        if self.kind == "top":
            if self.loser.key[0] == self.rules.wheel_top:  # the straight in which the ace plays low
                low = "-".join(rank_letter(r, words) for r in self.loser.order)
                note = words.phrase(" (the ace plays low in {cards})", cards=low)
            return words.phrase(
                "both {category}; the top card decides, {winner:letter} beats {loser:letter}{note}",
                category=name,
                winner=rank_name(w, words),
                loser=rank_name(l, words),
                note=note,
            )
        groups = self.winner.groups
        step = self._key_step()
        shared = [rank_name(r, words, plural=True) for r, n in groups[:step] if n > 1]
        if shared:
            both = words.phrase("both {category} of {ranks}", category=name, ranks=_Ranks(shared, words))
        else:
            both = words.phrase("both {category}", category=name)
        if self.kind == "card":
            return words.phrase(
                "{both}; the {ordinal} card decides, {winner:letter} beats {loser:letter}{note}",
                both=both,
                ordinal=_Ordinal(self.position, words),
                winner=rank_name(w, words),
                loser=rank_name(l, words),
                note=note,
            )
        if self.rung:
            nouns = _HIGHER_GROUP_NOUNS if self.rung == 1 else _LOWER_GROUP_NOUNS
            noun = words.pgettext(*nouns[self.size])
        else:
            noun = words.pgettext(*_GROUP_NOUNS[self.size])
        return words.phrase(
            "{both}; the {group} decides, {winner} beat {loser}{note}",
            both=both,
            group=noun,
            winner=rank_name(w, words, plural=True),
            loser=rank_name(l, words, plural=True),
            note=note,
        )

    def _key_step(self) -> int:
        return next(i for i, (a, b) in enumerate(zip(self.winner.key, self.loser.key)) if a != b)

    def _note(self, words: Language) -> str:
        """After a lowball step: lower is better, and that the ace is low
        where it decides and is low only; else nothing."""
        if not self.rules.low:
            return ""
        assert self.ranks is not None
        if self.rules.ace_low and Rank.ACE in self.ranks:
            return words.gettext(" (lower is better; the ace is low)")
        return words.gettext(" (lower is better)")

    def __str__(self) -> str:
        return self.text()


@lru_cache(maxsize=1 << 12)  # bounded: a step is two classes, said once per language
def _step_text(step: Step, words: Language) -> str:
    return step._text(words)


@dataclass(frozen=True, slots=True)
class _Ordinal:
    """A card's place as one field: ``{ordinal}`` the word (``third``),
    ``{ordinal:n}`` the number (``3``), for a language that counts."""

    position: int
    lang: Language

    def __format__(self, spec: str) -> str:
        if spec == "n":
            return str(self.position + 1)
        return self.lang.pgettext(*_ORDINALS[self.position])


@dataclass(frozen=True, slots=True)
class _Ranks:
    """Plural ranks as one field: ``Aces`` or ``Aces and Kings``, each said
    in the case the field's spec names."""

    ranks: Sequence[object]
    lang: Language

    def __format__(self, spec: str) -> str:
        return spoken_list([format(r, spec) for r in self.ranks], self.lang)


def step(
    winner: HandClass, loser: HandClass, *, rules: RuleSet, naturals: tuple[bool, bool] = (True, True)
) -> Step:
    """Why the stronger of two classes beats (or draws with) the other
    (passed the weaker first, it still explains the stronger one's win)."""
    if loser.strength > winner.strength:
        winner, loser = loser, winner
        naturals = (naturals[1], naturals[0])
    if winner.category != loser.category:
        return Step(winner, loser, rules, naturals)
    if winner.key == loser.key:
        return Step(winner, loser, rules, naturals, "wild_draw" if naturals[0] != naturals[1] else "draw")
    if winner.category.straight:
        return Step(winner, loser, rules, naturals, "top", 0, (winner.key[0], loser.key[0]))
    groups = winner.groups
    at = next(i for i, (w, l) in enumerate(zip(winner.key, loser.key)) if w != l)
    ranks = (winner.key[at], loser.key[at])
    size = groups[at][1]
    if size == 1:
        position = sum(n for _, n in groups[:at])
        return Step(winner, loser, rules, naturals, "card", position, ranks)
    rung = (1 if at == 0 else 2) if sum(1 for _, n in groups if n == size) > 1 else 0
    return Step(winner, loser, rules, naturals, "group", at, ranks, size, rung)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A showdown's reason: how many ``hands``, the ``winners`` (0-based;
    several on a split or a draw), the ``runner_up`` hands (empty when all
    tie), ``tie``, why the winners draw with each other (None for one
    winner), and ``step``, why the winners beat the runner-up (None when
    every hand ties)."""

    hands: int
    winners: tuple[int, ...]
    runner_up: tuple[int, ...] = ()
    tie: Step | None = None
    step: Step | None = None

    def text(self, lang: Language | str | None = None, names: Sequence[str] | None = None) -> str:
        """The reason as a sentence in ``lang`` (default English), the hands
        called ``names`` (by 0-based position) if given, else by number:
        ``Hand 2 wins: Flush beats Straight``; ``Ann and Cy split: both
        Flush, ...``."""
        words = language(lang)
        if self.hands == 1:
            if names:
                return words.phrase("{hands} wins: the only hand", hands=_Hands(self.winners, names, words))
            return words.gettext("Hand 1 wins: the only hand")
        winners = _Hands(self.winners, names, words)
        if len(self.winners) > 1:
            assert self.tie is not None
            why = self.tie.text(words)
            if len(self.winners) < self.hands:
                text = words.phrase("{hands} split: {why}", hands=winners, why=why)
            elif len(self.winners) == 2:
                text = words.phrase("Draw: {why}", why=why)
            else:
                text = words.phrase_n(
                    "Draw between both hands: {why}", "Draw between all {n} hands: {why}", self.hands, why=why
                )
            if self.step is None:
                return text
            return words.phrase("{head}; {why}", head=text, why=self._margin(words, names))
        return words.phrase("{hands} wins: {why}", hands=winners, why=self._margin(words, names))

    def reason(self, lang: Language | str | None = None, names: Sequence[str] | None = None) -> str:
        """Why the winners win or draw, without saying who: what :meth:`text`
        says after its head (``Flush beats Straight``; ``both Flush, ...;
        Flush beats Straight (next best: Cy)``), for a sentence of its own
        such as a game's score.

        >>> from fivecard import showdown
        >>> showdown(['AS AD KH 7C 2D', 'AH AC QS JD 9H']).verdict.reason()
        'both One Pair of Aces; the third card decides, K beats Q'
        """
        words = language(lang)
        if self.hands == 1:
            return words.gettext("the only hand")
        if len(self.winners) > 1:
            assert self.tie is not None
            why = self.tie.text(words)
            if self.step is None:
                return why
            return words.phrase("{head}; {why}", head=why, why=self._margin(words, names))
        return self._margin(words, names)

    def _margin(self, words: Language, names: Sequence[str] | None) -> str:
        assert self.step is not None
        why = self.step.text(words)
        if self.hands > 2:
            return words.phrase("{why} (next best: {hands:lower})", why=why, hands=_Hands(self.runner_up, names, words))
        return why

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class _Hands:
    """Hands as one field: ``{hands}`` is ``Hand 2``, ``Hands 1 and 3``;
    ``{hands:lower}`` the same inside a sentence (``hand 2``); or their
    names, either way."""

    positions: tuple[int, ...]
    names: Sequence[str] | None
    lang: Language

    def __format__(self, spec: str) -> str:
        if self.names:
            return spoken_list([self.names[i] for i in self.positions], self.lang)
        numbers = spoken_list([i + 1 for i in self.positions], self.lang)
        number = 1 if len(self.positions) == 1 else 2  # grammatical number, not a count
        if spec == "lower":
            return self.lang.phrase_n("hand {numbers}", "hands {numbers}", number, numbers=numbers)
        return self.lang.phrase_n("Hand {numbers}", "Hands {numbers}", number, numbers=numbers)


def verdict(
    classes: Sequence[HandClass],
    order: Sequence[Sequence[int]],
    *,
    rules: RuleSet,
    naturals: Sequence[bool] | None = None,
) -> Verdict:
    """The verdict of a showdown from the hands' classes (0-based ``order``,
    best first, ties grouped) and whether each hand is natural."""
    natural = list(naturals) if naturals is not None else [True] * len(classes)

    def why(a: int, b: int) -> Step:
        return step(classes[a], classes[b], rules=rules, naturals=(natural[a], natural[b]))

    winners = tuple(order[0])
    tie = why(winners[0], winners[1]) if len(winners) > 1 else None
    if len(order) > 1:
        runner_up = tuple(order[1])
        return Verdict(len(classes), winners, runner_up, tie, why(winners[0], runner_up[0]))
    return Verdict(len(classes), winners, (), tie, None)
