"""The hold advisor: which cards to keep before the one exchange of draw
poker, by exact enumeration.

For each of the 32 ways to keep some of the five cards, every completion of
the hand from the unseen cards is evaluated (all C(n, k) of them: 2,598,960
hands over the 32 choices from 47 unseen cards), with the batch path. Against
the dealer, the dealer's hand is modelled as a random five of the same unseen
cards (the cards the player has not seen), counted once per advice as hands
per strength, so each completed hand is scored by a lookup. With a pay table,
each choice's expected return per coin is computed instead.

A pay table is a built-in one by name (:func:`builtin_paytable`, which
takes built-in names only and opens nothing) or one written as JSON text
(:func:`parse_paytable`, checked in full; a file of it is read by
:func:`fivecard.files.paytable_file.load_paytable`).
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..vector import batch
from ..core.cards import Card, Rank, format_cards
from ..core.errors import FivecardError, HandError, quote
from ..core.evaluate import HandLike, as_hand
from ..core.hand import Hand
from ..core.rules import RULE_SETS, RuleSet, get_rules
from ..core.lookup import tables_for
from ..core.report import Painter

__all__ = [
    "PayTable",
    "PayTableError",
    "PAYTABLES",
    "CATEGORY_NAMES",
    "Choice",
    "Advice",
    "advise",
    "builtin_paytable",
    "parse_paytable",
    "unseen_cards",
]

#: The most a category may pay per coin (a progressive royal pays some 4,000).
MAX_PAY: Final = 1_000_000


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
    """A value as JSON spells it (``NaN``, ``true``, ``"800"``), shortened."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 60 else f"{text[:30]}...{text[-30:]} ({len(text):,} characters)"


def _checked_pays(pays: object) -> dict[str, float]:
    if not isinstance(pays, Mapping):
        raise PayTableError(
            f'"pays" must be an object of category: payout per coin, got {_json_text(pays)}'
        )
    checked = {}
    for category, pay in pays.items():
        if category not in PAY_NAMES:
            raise PayTableError(
                f"unknown category {_json_text(category)} in \"pays\"; "
                f"the categories are {', '.join(CATEGORY_NAMES)} (also natural_ or wild_ "
                "before one, and four_wild, under wild cards)"
            )
        number: float | None = None
        if isinstance(pay, (int, float)) and not isinstance(pay, bool):
            try:
                number = float(pay)
            except OverflowError:  # an int beyond any float
                number = None
        if number is None or not math.isfinite(number) or not 0 <= number <= MAX_PAY:
            raise PayTableError(
                f'"pays" of "{category}" must be a number from 0 to {MAX_PAY:,}, got {_json_text(pay)}'
            )
        checked[category] = number + 0.0  # no -0.0
    return checked


@dataclass(frozen=True, slots=True)
class PayTable:
    """A video-poker pay table: what each category pays per coin bet (the
    coin included, as video poker machines quote it); ``min_pair`` is the
    lowest pair that pays (``J`` for Jacks or Better).

    Named as a :class:`~fivecard.core.rules.RuleSet` is: ``name`` is its id
    (``jacks-or-better``, the key of :data:`PAYTABLES`; a file's name for a
    table read from one), ``title`` the label people read
    (``Jacks or Better 9/6``; a JSON table's ``"name"``), the name itself
    when not given.

    Checked when made: ``name`` and ``title`` one line of text, ``pays``
    category machine names (:data:`CATEGORY_NAMES`) to numbers from 0 to
    :data:`MAX_PAY`, ``min_pair`` a rank or ``None``; else a
    :class:`PayTableError`.
    """

    name: str
    pays: dict[str, float]
    min_pair: Rank | None = None
    #: The rule set it plays under (a name), if it names one.
    rules: str | None = None
    #: The label people read; the name itself if empty.
    title: str = ""

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", self.name)
        for text in (self.name, self.title):
            if not isinstance(text, str) or not text.strip() or not text.isprintable() or len(text) > _NAME_LIMIT:
                raise PayTableError(
                    f'"name" must be one line of text (at most {_NAME_LIMIT} characters), '
                    f"got {_json_text(text)}"
                )
        object.__setattr__(self, "pays", _checked_pays(self.pays))
        if self.min_pair is not None and not isinstance(self.min_pair, Rank):
            raise PayTableError(f'"min_pair" must be a rank, got {_json_text(self.min_pair)}')
        if self.rules is not None:
            if not isinstance(self.rules, str):
                raise PayTableError(f'"rules" must be a rule set\'s name, got {_json_text(self.rules)}')
            try:
                object.__setattr__(self, "rules", get_rules(self.rules).name)
            except FivecardError as exc:
                raise PayTableError(f'"rules": {exc}') from None

    def check_rules(self, rules: RuleSet) -> None:
        """Raise :class:`PayTableError` when the table names another rule
        set than ``rules``, or pays natural and wild hands apart under rules
        without wild cards."""
        if self.rules is not None and self.rules != rules.name:
            raise PayTableError(
                f"{self.title} plays under the {self.rules} rules, not {rules.name}", option=("rules", self.rules)
            )
        special = [k for k in self.pays if k not in CATEGORY_NAMES]
        if special and not rules.wild_indices:
            raise PayTableError(
                f"{self.title} pays {special[0]}, which needs wild cards; the {rules.name} rules have none"
            )

    def hand_pays(
        self, rules: RuleSet, indices: npt.NDArray[np.int32], strengths: npt.NDArray[np.integer[Any]]
    ) -> npt.NDArray[np.float64]:
        """What each hand (rows of five card indices, with their strengths)
        pays: its class's pay, or under wild cards its natural or wild
        version's, or four wild cards' pay."""
        pays: npt.NDArray[np.float64] = self.payout(rules)[strengths]
        if not rules.wild_indices or all(k in CATEGORY_NAMES for k in self.pays):
            return pays  # every hand paid by its class
        names, entry = self.hand_entries(rules, indices, strengths)
        special = np.array([np.nan if n in CATEGORY_NAMES else self.pays.get(n, np.nan) for n in names])
        chosen = special[entry]
        result: npt.NDArray[np.float64] = np.where(np.isnan(chosen), pays, chosen)
        return result

    def hand_entries(
        self, rules: RuleSet, indices: npt.NDArray[np.int32], strengths: npt.NDArray[np.integer[Any]]
    ) -> tuple[tuple[str, ...], npt.NDArray[np.int64]]:
        """Which entry of the table each hand is paid by: its category's, or
        under wild cards ``natural_...``, ``wild_...`` or ``four_wild`` where
        the table has them. Returns the names and, per hand, an index into
        them (whether that entry pays this hand, as ``min_pair`` decides, is
        :meth:`hand_pays`'s)."""
        ladder = [c.name for c in rules.ladder]
        size = len(ladder)
        names = (*ladder, *(f"natural_{c}" for c in ladder), *(f"wild_{c}" for c in ladder), "four_wild")
        entry = batch.category_table(rules)[strengths].astype(np.int64)
        if not rules.wild_indices or all(k in CATEGORY_NAMES for k in self.pays):
            return names, entry
        wild = np.isin(indices, list(rules.wild_indices)).sum(axis=1)
        category = entry.copy()
        for index, name in enumerate(ladder):
            if f"natural_{name}" in self.pays:
                entry[(category == index) & (wild == 0)] = size + index
            if f"wild_{name}" in self.pays:
                entry[(category == index) & (wild > 0)] = 2 * size + index
        if "four_wild" in self.pays:
            entry[wild == 4] = 3 * size
        return names, entry

    def payout(self, rules: RuleSet) -> npt.NDArray[np.float64]:
        """The payout of each strength under ``rules``."""
        tables = tables_for(rules)
        out = np.zeros(tables.size + 1)
        for strength in range(1, tables.size + 1):
            hand_class = tables.hand_class(strength)
            name = hand_class.category.name
            pay = self.pays.get(name, 0.0)
            if name == "one_pair" and self.min_pair is not None and hand_class.key[0] < self.min_pair:
                pay = 0.0
            out[strength] = pay
        return out


JACKS_OR_BETTER: Final = PayTable(
    "jacks-or-better",
    {
        "royal_flush": 800,
        "straight_flush": 50,
        "four_of_a_kind": 25,
        "full_house": 9,
        "flush": 6,
        "straight": 4,
        "three_of_a_kind": 3,
        "two_pair": 2,
        "one_pair": 1,
    },
    min_pair=Rank.JACK,
    title="Jacks or Better 9/6",
)

DEUCES_WILD_FULL_PAY: Final = PayTable(
    "deuces-wild",
    {
        "natural_royal_flush": 800,
        "four_wild": 200,
        "wild_royal_flush": 25,
        "five_of_a_kind": 15,
        "straight_flush": 9,
        "four_of_a_kind": 5,
        "full_house": 3,
        "flush": 2,
        "straight": 2,
        "three_of_a_kind": 1,
    },
    rules="deuces-wild",
    title="Deuces Wild (full pay)",
)

#: Built-in pay tables by name (their id).
PAYTABLES: Final[dict[str, PayTable]] = {t.name: t for t in (JACKS_OR_BETTER, DEUCES_WILD_FULL_PAY)}


_DEPTH_LIMIT: Final = 20  # a pay table nests 2 deep
_KEYS: Final = ("name", "pays", "min_pair", "rules")
_RANKS: Final = "2-10, J, Q, K, A"
# A JSON string (possessive: linear even when unterminated) or a bracket.
_STRING_OR_BRACKET: Final = re.compile(r'"(?:[^"\\]|\\.)*+"?|[\[\]{}]', re.DOTALL)


def builtin_paytable(name: str) -> PayTable:
    """A built-in pay table (:data:`PAYTABLES`) by its name, in any case: the
    names only, never a file (nothing is opened, whatever the text is). Any
    other text is a :class:`PayTableError` that lists the names.

    >>> builtin_paytable("Jacks-or-Better").title
    'Jacks or Better 9/6'
    >>> builtin_paytable("/etc/passwd")
    Traceback (most recent call last):
    ...
    fivecard.play.advise.PayTableError: unknown pay table '/etc/passwd': the pay tables are jacks-or-better, deuces-wild
    """
    found = PAYTABLES.get(name.strip().lower())
    if found is None:
        raise PayTableError(f"unknown pay table {quote(name)}: the pay tables are {', '.join(PAYTABLES)}")
    return found


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


def _paytable_of(data: Any, default_name: str) -> PayTable:
    if not isinstance(data, dict):
        raise PayTableError(
            f"the top level must be an object {{\"pays\": ...}}, got {_json_text(data)}"
        )
    for key in data:
        if key not in _KEYS:
            close = difflib.get_close_matches(key, _KEYS, n=1)
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            raise PayTableError(
                f"unknown key {_json_text(key)}{hint}; the keys are "
                + ", ".join(f'"{k}"' for k in _KEYS)
            )
    if "pays" not in data:
        raise PayTableError('no "pays": the object needs "pays": {category: payout per coin}')
    title = data.get("name", default_name)
    if not isinstance(title, str):
        raise PayTableError(f'"name" must be a string, got {_json_text(title)}')
    rank = None
    if data.get("min_pair") is not None:
        rank = _rank_of(data["min_pair"])
    return PayTable(default_name, data["pays"], rank, data.get("rules"), title=title)


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


@dataclass(frozen=True, slots=True)
class Choice:
    """One way to play the hand: the cards kept and discarded, and what
    follows: the chances to beat, draw with and lose to the dealer, or the
    expected return under a pay table, and the chance of each final
    category."""

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    win: float
    draw: float
    lose: float
    categories: dict[str, float]
    ev: float | None = None

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

    @property
    def reason(self) -> str:
        """One line: why the recommended choice."""
        best = self.choices[0]
        kept = format_cards(best.keep) if best.keep else "nothing"
        if len(best.keep) == 5:
            action = "Keep all five"
        elif not best.keep:
            action = "Exchange all five"
        else:
            action = f"Keep {kept}, exchange {len(best.discard)}"
        if self.paytable is not None:
            why = f"returns {best.ev:.4f} per coin under {self.paytable.title}"
        else:
            why = f"beats the dealer {best.win:.1%} of the time (draws {best.draw:.1%})"
        runner = ""
        if len(self.choices) > 1:
            second = self.choices[1]
            value = f"{second.ev:.4f}" if second.ev is not None else f"{second.win:.1%}"
            others = format_cards(second.keep) if second.keep else "nothing"
            runner = f"; next best: keep {others} ({value})"
        return f"{action}: {why}, the best of {len(self.choices)} choices{runner}"

    def to_json(self) -> dict[str, Any]:
        """The advice as ``fivecard advise --json`` prints it (keys in the
        README): the hand, rules, pay table, what was enumerated, every
        choice best first and why the first is recommended."""
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
            rows.append(row)
        return {
            "hand": [c.code_str for c in self.hand.cards],
            "rules": self.hand.rules.name,
            "paytable": None if self.paytable is None else self.paytable.title,
            "completions": self.completions,
            "dealer_hands": self.dealer_hands,
            "choices": rows,
            "recommended": 0,
            "reason": self.reason,
        }

    def text(self, painter: Painter, *, top: int | None = 10) -> str:
        """The advice as ``fivecard advise`` prints it: the hand, a line per
        choice (the first ``top``; None: all 32), the recommended one marked
        ``*`` with its chances or return and the most likely final category,
        then why and what was enumerated."""
        table = self.paytable
        rules = self.hand.rules
        against = (
            f"expected return per coin under {table.title}"
            if table
            else f"against the dealer: a random five of the {len(self.unseen)} cards you have not seen"
        )
        likeliest = "category of the final hand (most likely)"
        lines = [
            f"Hand: {painter.cards(self.hand.cards).rstrip()} ({rules.name}); {against}.",
            f"    {'keep':<20} " + ("return " if table else "  win   draw   lose ") + f"  {likeliest}",
        ]
        ladder = {c.name: c.label for c in rules.ladder}
        for i, choice in enumerate(self.choices[:top]):
            # Painter.cards pads every card to three columns: 4 per card, less one.
            keep = painter.cards(choice.keep) if choice.keep else "(nothing)"
            pad = " " * (20 - (4 * len(choice.keep) - 1 if choice.keep else len(keep)))
            if choice.ev is not None:
                numbers = f"{choice.ev:7.4f}"
            else:
                numbers = f"{choice.win:6.1%} {choice.draw:6.1%} {choice.lose:6.1%}"
            likely = max(choice.categories, key=lambda k: choice.categories[k])
            mark = " *" if i == 0 else "  "
            lines.append(f"{mark}  {keep}{pad} {numbers}   {ladder[likely]} {choice.categories[likely]:.1%}")
        dealer = f" and {self.dealer_hands:,} dealer hands" if self.dealer_hands else ""
        lines += [f"Recommended (*): {self.reason}.", f"(exact: {self.completions:,} draws{dealer} enumerated)"]
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
    :class:`PayTableError`, and the advice is against the dealer.
    """
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
            ev = float(paytable.hand_pays(ruleset, indices, found).mean())
            choices.append(Choice(kept, dropped, 0.0, 0.0, 0.0, categories, ev))
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
