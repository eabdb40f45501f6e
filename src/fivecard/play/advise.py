"""The hold advisor: which cards to keep before the one exchange of draw
poker, by exact enumeration.

For each of the 32 ways to keep some of the five cards, every completion of
the hand from the unseen cards is evaluated (all C(n, k) of them: 2,598,960
hands over the 32 choices from 47 unseen cards), with the batch path. Against
the dealer, the dealer's hand is modelled as a random five of the same unseen
cards (the cards the player has not seen), counted once per advice as hands
per strength, so each completed hand is scored by a lookup. With a pay table,
each choice's expected return per coin is computed instead.

A pay table (:class:`~fivecard.play.paytables.PayTable`) is a built-in one
by name or one written as JSON text: :mod:`fivecard.play.paytables`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ..vector import batch
from ..core.cards import Card, format_cards
from ..core.lang import ENGLISH, LangLike, language
from ..core.words import card_text, category_name
from ..core.errors import FivecardError, HandError, quote
from ..core.evaluate import HandLike, as_hand
from ..core.hand import Hand
from ..core.rules import RuleSet
from ..core.report import Painter, display_width, number_text, padded_text
from .paytables import PayTable, PayTableError
from .percent import percent

__all__ = [
    "Choice",
    "Advice",
    "advise",
    "unseen_cards",
]


@dataclass(frozen=True, slots=True)
class Choice:
    """One way to play the hand: the cards kept and discarded, and what
    follows: the chances to beat, draw with and lose to the dealer, or the
    expected return under a pay table, and the chance of each final
    category; under a pay table also ``final``, the chance of each final
    hand as the table tells them apart (the entry that pays it, or
    ``"nothing"``: :meth:`~fivecard.play.paytables.PayTable.final_entries`),
    where it has one."""

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    win: float
    draw: float
    lose: float
    categories: dict[str, float]
    ev: float | None = None
    final: dict[str, float] = field(default_factory=dict)

    @property
    def score(self) -> float:
        """What the choices are ranked by: the expected return with a pay
        table, else the house bet's expectation, win minus lose."""
        return self.ev if self.ev is not None else self.win - self.lose


@dataclass(frozen=True, slots=True)
class Advice:
    """Every choice, best first; the first is recommended."""

    hand: Hand
    choices: tuple[Choice, ...]
    completions: int
    dealer_hands: int
    paytable: PayTable | None = None
    unseen: tuple[Card, ...] = field(default=(), repr=False)

    @property
    def recommended(self) -> Choice:
        return self.choices[0]

    def likeliest(self, choice: Choice) -> tuple[str, str, float]:
        """The most likely final hand of ``choice``, as every report of the
        advice says it (the text, ``to_json``, the web app's): its machine
        name, its label and its chance. Under a pay table a final hand is
        what the table pays for it, so a pair of tens kept under Jacks or
        Better is most likely ``Nothing (pays 0)``, not a pair; against the
        dealer it is the final category."""
        if self.paytable is not None and choice.final:
            name = max(choice.final, key=lambda k: choice.final[k])
            return name, self.paytable.entry_label(name, self.hand.rules, pay=True), choice.final[name]
        name = max(choice.categories, key=lambda k: choice.categories[k])
        labels = {c.name: c.label for c in self.hand.rules.ladder}
        return name, labels[name], choice.categories[name]

    def likeliest_label(self, choice: Choice, lang: LangLike = None) -> str:
        """The label of :meth:`likeliest` in ``lang`` (default English)."""
        name, label, _ = self.likeliest(choice)
        words = language(lang)
        if words is ENGLISH:
            return label
        if self.paytable is not None and choice.final:
            return self.paytable.entry_label(name, self.hand.rules, pay=True, lang=words)
        return category_name(name, label, words)

    @property
    def reason(self) -> str:
        """One line: why the recommended choice."""
        return self.reason_text()

    def reason_text(self, lang: LangLike = None) -> str:
        """:attr:`reason` in ``lang`` (default English)."""
        words = language(lang)

        def cards(keep: tuple[Card, ...]) -> str:
            return " ".join(card_text(c, words) for c in keep)

        best = self.choices[0]
        if len(best.keep) == 5:
            action = words.phrase("Keep all five", "play")
        elif not best.keep:
            action = words.phrase("Exchange all five", "play")
        else:
            action = words.phrase_n(
                "Keep {cards}, exchange {n}", "Keep {cards}, exchange {n}", len(best.discard), "play", cards=cards(best.keep)
            )
        if self.paytable is not None:
            why = words.phrase(
                "returns {ev} per coin under {table}", "play", ev=f"{best.ev:.4f}", table=self.paytable.title
            )
        else:
            why = words.phrase(
                "beats the dealer {win} of the time (draws {draw})", "play", win=percent(best.win), draw=percent(best.draw)
            )
        runner = ""
        if len(self.choices) > 1:
            second = self.choices[1]
            value = f"{second.ev:.4f}" if second.ev is not None else percent(second.win)
            others = cards(second.keep) if second.keep else words.phrase("nothing", "play")
            runner = words.phrase("; next best: keep {cards} ({value})", "play", cards=others, value=value)
        return words.phrase_n(
            "{action}: {why}, the best of {n} choices{runner}",
            "{action}: {why}, the best of {n} choices{runner}",
            len(self.choices),
            "play",
            action=action,
            why=why,
            runner=runner,
        )

    def to_json(self, lang: LangLike = None) -> dict[str, Any]:
        """The advice as ``fivecard advise --json`` prints it (keys in the
        manual): the hand, rules, pay table, what was enumerated, every
        choice best first (with, under a pay table, its ``final`` hands, and
        its ``likeliest``: :meth:`likeliest`) and why the first is
        recommended (its label and the reason said in ``lang``)."""
        rows = []
        for choice in self.choices:
            row: dict[str, Any] = {
                "keep": [c.code_str for c in choice.keep],
                "discard": [c.code_str for c in choice.discard],
            }
            if choice.ev is not None:
                row["ev"] = choice.ev
            else:
                row.update(win=choice.win, draw=choice.draw, lose=choice.lose)
            row["categories"] = choice.categories
            if choice.final:
                row["final"] = choice.final
            name, label, chance = self.likeliest(choice)
            row["likeliest"] = {"name": name, "label": self.likeliest_label(choice, lang), "chance": chance}
            rows.append(row)
        return {
            "hand": [c.code_str for c in self.hand.cards],
            "rules": self.hand.rules.name,
            "paytable": None if self.paytable is None else self.paytable.title,
            "completions": self.completions,
            "dealer_hands": self.dealer_hands,
            "choices": rows,
            "recommended": 0,
            "reason": self.reason_text(lang),
        }

    def text(self, painter: Painter, *, top: int | None = 10, lang: LangLike = None) -> str:
        """The advice as ``fivecard advise`` prints it: the hand, a line per
        choice (the first ``top``; None: all 32), the recommended one marked
        ``*`` with its chances or return and the most likely final category,
        then why and what was enumerated; in ``lang`` (default English)."""
        words = language(lang)
        table = self.paytable
        rules = self.hand.rules
        if table:
            against = words.phrase("expected return per coin under {game}", "play", game=table.title)
            likeliest = words.gettext("final hand and its pay (most likely)", "play")
        else:
            against = words.phrase(
                "against the dealer: a random five of the {count} cards you have not seen", "play",
                count=len(self.unseen),
            )  # fmt: skip
            likeliest = words.gettext("category of the final hand (most likely)", "play")
        if table:
            heads = words.gettext("return", "play")
        else:
            win = words.pgettext("chances", "win", "play")
            draw = words.pgettext("chances", "draw", "play")
            lose = words.pgettext("chances", "lose", "play")
            heads = f"{padded_text(win, -5)} {padded_text(draw, -6)} {padded_text(lose, -6)}"
        cards = painter.cards(self.hand.cards).rstrip()
        keep_head = words.gettext("keep", "play")
        lines = [
            words.phrase("Hand: {cards} ({rules}); {against}.", "play", cards=cards, rules=rules.name, against=against),
            f"    {padded_text(keep_head, 20)} {heads}   {likeliest}",
        ]
        for i, choice in enumerate(self.choices[:top]):
            # Painter.cards pads every card to three columns: 4 per card, less one.
            keep = painter.cards(choice.keep) if choice.keep else words.gettext("(nothing)", "play")
            pad = " " * (20 - (4 * len(choice.keep) - 1 if choice.keep else display_width(keep)))
            if choice.ev is not None:
                numbers = f"{choice.ev:7.4f}"
            else:
                numbers = " ".join(percent(p).rjust(6) for p in (choice.win, choice.draw, choice.lose))
            _, likely, chance = self.likeliest(choice)
            if not words.english:
                likely = self.likeliest_label(choice, words)
            mark = " *" if i == 0 else "  "
            lines.append(f"{mark}  {keep}{pad} {numbers}   {likely} {percent(chance)}")
        lines.append(words.phrase("Recommended (*): {reason}.", "play", reason=self.reason_text(words)))
        if self.dealer_hands:
            lines.append(words.phrase(
                "(exact: {draws} draws and {dealer} dealer hands enumerated)", "play",
                draws=number_text(self.completions, words), dealer=number_text(self.dealer_hands, words),
            ))  # fmt: skip
        else:
            lines.append(words.phrase(
                "(exact: {draws} draws enumerated)", "play", draws=number_text(self.completions, words)
            ))  # fmt: skip
        return "\n".join(lines) + "\n"


def unseen_cards(hand: Hand) -> tuple[Card, ...]:
    """The cards of the rule set's deck (:class:`~fivecard.core.rules.Deck`)
    that the player has not seen: the deck less one card per card held
    (under ``semi``, whose deck hides suits, one card of each rank held per
    copy). A ``semi`` hand holding more of a rank than the deck has (five of
    a kind, typed) is a :class:`~fivecard.core.errors.HandError`."""
    rules = hand.rules
    deck = rules.deck()
    held = Counter(hand.cards)
    for card, copies in held.items():
        if card.rank is not None and card.suit is None and copies > deck.limits[card.index]:
            raise HandError(
                f"the hand {quote(format_cards(hand.cards))} holds {copies} cards of rank "
                f"{card.rank.short}, more than the {deck.limits[card.index]} of the {len(deck)}-card "
                f"deck a {rules.name} deal uses, so which cards are unseen is not defined"
            )
    left: list[Card] = []
    for card in deck:
        if held[card]:
            held[card] -= 1
        else:
            left.append(card)
    return tuple(left)


@cache
def _combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    return batch.combinations(n, k)


def advise(
    hand: HandLike,
    *,
    rules: str | RuleSet | None = None,
    paytable: PayTable | None = None,
    unseen: Sequence[Card] | None = None,
) -> Advice:
    """Advise which cards to keep, by exact enumeration of every draw.

    ``unseen``: the cards a draw and the dealer come from (default: the
    rule set's deck less the hand; tests pass a small deck). A pay table pays
    high hands (video poker): under lowball rules it is a
    :class:`PayTableError`, and the advice is against the dealer. A pay
    table that names its rule set implies it: a hand given as text or cards
    without ``rules`` is played under it (:meth:`PayTable.rules_to_play`).
    """
    if paytable is not None and rules is None and not isinstance(hand, Hand):
        rules = paytable.rules_to_play()
    played = as_hand(hand, rules)
    ruleset = played.rules
    if paytable is not None and ruleset.low:
        raise PayTableError(
            f"a pay table pays high hands (video poker), but the {ruleset.name} rules rank "
            f"low hands: advise under them without a pay table (against the dealer)"
        )
    pool = tuple(unseen) if unseen is not None else unseen_cards(played)
    if len(pool) < 5:
        raise FivecardError(f"need at least 5 unseen cards to draw from, got {len(pool)}")
    if paytable is not None:
        paytable.check_rules(ruleset)
    pool_indices = np.array([c.index for c in pool], dtype=np.int32)
    category_of = batch.category_table(ruleset)
    ladder = ruleset.ladder
    # Dealer hands per strength: every five of the unseen cards.
    dealer = batch.hand_counts(pool_indices, rules=ruleset) if paytable is None else None
    if dealer is not None:
        dealer_total = int(dealer.sum())
        below = np.concatenate(([0], np.cumsum(dealer)[:-1])) / dealer_total
        equal = dealer / dealer_total
    choices = []
    completions = 0
    for mask in range(32):
        kept = tuple(c for i, c in enumerate(played.cards) if mask >> i & 1)
        dropped = tuple(c for i, c in enumerate(played.cards) if not mask >> i & 1)
        draws = _combinations(len(pool), 5 - len(kept))
        indices = np.empty((len(draws), 5), dtype=np.int32)
        indices[:, : len(kept)] = [c.index for c in kept]
        indices[:, len(kept) :] = pool_indices[draws]
        found = batch.strengths_of_indices(indices, rules=ruleset)
        completions += len(found)
        counts = np.bincount(category_of[found], minlength=len(ladder)) / len(found)
        categories = {c.name: float(counts[i]) for i, c in enumerate(ladder)}
        if paytable is not None:
            names, final = paytable.final_entries(ruleset, indices, found)
            pays = paytable.line_pays()[final]
            shares = np.bincount(final, minlength=len(names)) / len(found)
            finals = {name: float(share) for name, share in zip(names, shares) if share > 0}
            choices.append(Choice(kept, dropped, 0.0, 0.0, 0.0, categories, float(pays.mean()), finals))
        else:
            win = float(below[found].mean())
            draw = float(equal[found].mean())
            choices.append(Choice(kept, dropped, win, draw, max(0.0, 1.0 - win - draw), categories))
    choices.sort(key=lambda c: (-c.score, -c.win, len(c.discard)))
    return Advice(
        played,
        tuple(choices),
        completions,
        0 if dealer is None else int(dealer.sum()),
        paytable,
        pool,
    )
