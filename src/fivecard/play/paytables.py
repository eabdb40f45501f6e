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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ..core.cards import Card, Rank
from ..core.errors import FivecardError, quote
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
        import numpy as np  # loaded when a batch is paid, not with the table

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
        import numpy as np

        from ..vector import batch

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

    def final_entries(
        self,
        rules: RuleSet,
        indices: npt.NDArray[np.int32],
        strengths: npt.NDArray[np.integer[Any]],
        pays: npt.NDArray[np.float64] | None = None,
    ) -> tuple[tuple[str, ...], npt.NDArray[np.int64]]:
        """What each final hand is, as the table tells hands apart: the
        entry that pays it (:meth:`hand_entries`), or ``"nothing"`` (the
        last name) for a hand that pays 0, such as a pair of tens under
        Jacks or Better. Returns the names and, per hand, an index into
        them; ``pays``: the hands' :meth:`hand_pays`, if known."""
        import numpy as np

        names, entry = self.hand_entries(rules, indices, strengths)
        paid = self.hand_pays(rules, indices, strengths) if pays is None else pays
        found: npt.NDArray[np.int64] = np.where(paid > 0, entry, len(names))
        return (*names, "nothing"), found

    def entry_label(self, name: str, rules: RuleSet, *, pay: bool = False) -> str:
        """An entry's name (:meth:`final_entries`) as people read it, and
        with ``pay`` what it pays per coin: the one wording of every report
        of final hands under a pay table.

        >>> from fivecard.core.rules import get_rules
        >>> JACKS_OR_BETTER.entry_label("one_pair", get_rules("standard"), pay=True)
        'One Pair (pays 1)'
        >>> DEUCES_WILD_FULL_PAY.entry_label("natural_royal_flush", get_rules("deuces-wild"))
        'Royal Flush (natural)'
        >>> JACKS_OR_BETTER.entry_label("nothing", get_rules("standard"), pay=True)
        'Nothing (pays 0)'
        """
        if name == "nothing":
            return "Nothing (pays 0)"
        labels = {c.name: c.label for c in rules.ladder}
        kind, _, base = name.partition("_")
        if name == "four_wild":
            label, notes = "Four wild cards", []
        elif kind in ("natural", "wild") and base in labels:
            label, notes = labels[base], [kind]
        else:
            label, notes = labels.get(name, name), []
        if pay:
            notes.append(f"pays {self.pays.get(name, 0.0):g}")
        return f"{label} ({', '.join(notes)})" if notes else label

    def payout(self, rules: RuleSet) -> npt.NDArray[np.float64]:
        """The payout of each strength under ``rules``."""
        import numpy as np

        from ..core.lookup import tables_for

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
    fivecard.play.paytables.PayTableError: unknown pay table '/etc/passwd': the pay tables are jacks-or-better, deuces-wild
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
