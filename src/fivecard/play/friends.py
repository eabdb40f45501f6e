"""A table for friends: the host's rounds of a chat room (Semi-Poker) and a
game show's high hand for points, as a state machine the web app drives.

* A host opens the table: a rule set, the points for a round's high hand
  (25, as the game show pays), how a tie scores (``none``: nobody, as the
  game show rules; ``split``: the points shared, odd points to the earliest
  seat) and optionally a number of rounds.
* Players take seats by name (at most :data:`MAX_SEATS`: one deck deals them
  all); the host may remove a seat. A table gives at most :data:`MAX_JOINS`
  seats in its life (a seat taken again after its removal is a new one).
* The host may let each seat exchange up to ``draw`` cards once (a draw,
  as in five-card draw; 0: no draw, at most :data:`~fivecard.core.hand.HAND_SIZE`):
  after dealing, each seat keeps some of its cards and is dealt the rest
  from the round's deck, once (keeping all five is its draw too). Each
  seat then needs five cards and up to ``draw`` more, so a table with a
  draw seats fewer (:attr:`FriendsTable.max_seats`). How many cards a seat
  exchanged is told to every browser, the cards only at the showdown.
* The host starts round N. Each round deals from its own shuffled deck, from
  a seed recorded with the round (:func:`~fivecard.play.table_game.round_seed`), so any round can be
  dealt again and checked. Each seated player deals themselves the next five
  cards (and, at a table with a draw, draws once). When every seated
  player has dealt (and drawn), or the host closes the round,
  the dealt hands are settled as one showdown and the points awarded. A
  browser is dealt one hand a round, whatever seats it takes or leaves: a
  seat removed after it dealt, and taken again, deals no second hand.
* The table ends after its number of rounds (at most :data:`MAX_ROUNDS`,
  and after so many when none was set), or when the host ends it.
* Chat is kept as its latest :data:`KEPT_CHAT` lines
  (:attr:`FriendsTable.KEPT_EVENTS`: a store drops older ones).

What a browser may know is decided here, in two places:

* :meth:`FriendsTable.view` is the table as one browser sees it, by its
  role: the host, a seated player (its own hand only), or a browser that
  only watches (with or without a cookie: the same view). While a round is
  open no view carries its seed, an undealt card or another seat's hand.
* :func:`public_event` is an event as every browser sees it: only the
  fields :data:`EVENT_FIELDS` names for its type (a closed round's hands
  with their cards as card objects too, ``sorted_cards``). The round's seed, and so
  its whole deck, is in ``round_closed`` alone, when every hand is shown;
  ``round_started`` and ``dealt`` say that something happened, never what
  was dealt. Events kept by an earlier version (whose ``round_started``
  carried the seed) are served through it too, so they are safe as well.

A table whose host chose its seed (``seed=``, for reproducible rounds) can
be dealt in advance by the host, and by anyone who finds the seed from a
closed round's (a chosen seed is seldom hard to guess): every view says so
(``seeded``), and so does the table's first event. A seed the server draws
(63 random bits) gives nothing away: a closed round's seed is a hash of it.

Names are the engine's too (:func:`seat_name`): normalized (NFKC, spaces
trimmed and collapsed), refused when they hold control, format, bidi or
invisible characters or symbols drawn as letters (``🅷``), hold letters of a
script not in common use (Lisu, Cherokee, Coptic, ...: names are written in
the scripts Unicode recommends for identifiers), mix scripts within a word
(Latin and Cyrillic, as in a Cyrillic ``А`` in ``Аnn``; Japanese kanji and
kana are one family), are a word the pages use for a role (``Host``,
``You``, ...) or could read as another's line or result (a colon or a
semicolon in them, ``wins`` last), and unique at a table by :func:`name_key` (case-folded, and
the Cyrillic, Greek and Armenian letters, Latin small capitals and the other
letters that pass for Latin ones read as those), so that no seat can pass
for another. Chat lines keep their text but lose
control and format characters (bidi overrides and isolates, zero-width
characters): a line cannot reorder or hide what others see
(:func:`chat_line`).

Every action returns event records (plain JSON data); hands dealt in an open
round appear in no event: only the dealer of a hand sees it, until the round
is closed. The whole table is plain JSON data (:meth:`FriendsTable.to_state`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..core.cards import Card
from ..core.errors import FivecardError
from ..core.evaluate import describe, evaluate
from ..core.hand import HAND_SIZE, Hand
from ..core.lang import ENGLISH, Language, LangLike, language
from ..core.lookup import tables_for
from ..core.reason import Verdict
from ..core.report import evaluation_json
from ..core.rules import RuleSet, get_rules
from ..core.showdown import outcome, settle
from ..core.words import category_name, rules_title, spoken_list
from .game import split_pot
from .table_game import MAX_ROUNDS, GameError, RoleRequired, Shoe, TableGame, check_positions, round_deck
from .view import cards_json

__all__ = [
    "FriendsTable",
    "TIES",
    "MAX_SEATS",
    "MAX_JOINS",
    "MAX_ROUNDS",
    "KEPT_CHAT",
    "ROLE_NAMES",
    "EVENT_FIELDS",
    "chat_line",
    "event_text",
    "name_key",
    "public_event",
    "seat_name",
]

#: How a tie for the high hand scores.
TIES: Final = ("none", "split")
#: Seats at a table: one deck of 52 deals ten hands (54 under joker; fewer
#: in a short deck, see :attr:`FriendsTable.max_seats`).
MAX_SEATS: Final = 10
MAX_NAME: Final = 40
MAX_CHAT: Final = 500
#: The most seats a table gives in its life, a seat taken again after its
#: removal counted again (a table's state and every view list them all).
MAX_JOINS: Final = 100
#: The chat lines a table keeps, its latest (under 1 MiB however they are
#: written: a line is at most :data:`MAX_CHAT` characters).
KEPT_CHAT: Final = 400

#: The words the pages use for roles, refused as names (read by
#: :func:`name_key`, letters and digits only): the host's chat name, the
#: badge of your own seat, the dealer game's seats and its house, and
#: "nobody" of the results ("nobody scores").
ROLE_NAMES: Final = frozenset({"host", "you", "dealer", "house", "nobody", "computer"})
_ROLE_PATTERN: Final = re.compile(r"(?:computer|player|seat|hand)s?\d+")
#: What the outputs put around a name, refused in one, so that no name reads
#: as another's line or result: the colon that ends a name (``Ann: A♠ K♠
#: ...``, ``Ann wins: ...``), the semicolon between two players' counts
#: (``Ann: 2 wins, 0 splits; Bob: ...``), and the characters drawn as them;
#: and the words a result puts after a name as a name's last word (``Bob
#: wins`` would make ``Bob wins wins: ...`` of its win; ``Ann and Bob
#: split``, ``— splits``). Only those: ``Ne Win`` and ``Ji Won`` are names.
_AFTER_A_NAME: Final = frozenset(":\u2236\ua789\u02f8\u02d0\ufe13\ufe55\uff1a;\u204f\ufe14\ufe54\uff1b")
_RESULT_WORDS: Final = frozenset({"wins", "split", "splits"})

#: What each event may carry, by its type (``at``: when it was kept). The
#: round's seed is only in ``round_closed``. A ``round_closed``'s
#: ``standings`` are the seats seated when it closed (what a round keeps
#: follows the seats in it, never every seat the table gave); the
#: ``table_ended``'s, and every view's, are every seat the table gave.
EVENT_FIELDS: Final[dict[str, frozenset[str]]] = {
    "table_opened": frozenset({"text", "seeded", "at"}),
    "seat_joined": frozenset({"seat", "name", "text", "at"}),
    "seat_removed": frozenset({"seat", "name", "text", "at"}),
    "round_started": frozenset({"round", "text", "at"}),
    "dealt": frozenset({"round", "seat", "name", "text", "at"}),
    "drew": frozenset({"round", "seat", "name", "count", "text", "at"}),
    "round_closed": frozenset(
        {"round", "seed", "hands", "winners", "explanation", "awarded", "standings", "text", "at"}
    ),
    "chat": frozenset({"seat", "name", "text", "at"}),
    "table_ended": frozenset({"standings", "text", "at"}),
}

# Characters no name may hold: invisible ones that are not control or format
# characters by their category (Hangul fillers, the combining grapheme
# joiner, Khmer inherent vowels, Mongolian variation selectors, the blank
# braille pattern).
_INVISIBLE: Final = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800")
# Categories no name may hold: controls, format characters (bidi controls,
# zero-width spaces and joiners, soft hyphens, tags), line and paragraph
# separators, private use, surrogates, unassigned.
_REFUSED: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
# Variation selectors only choose how a character is drawn (an emoji's
# style): dropped from names.
_VARIATION: Final = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")

#: The letters NFKC leaves as they are that pass for Latin ones (the common
#: confusables of Unicode's security mechanisms, UTS #39): Cyrillic, Greek
#: and Armenian letters, and Latin letters drawn as other Latin ones (every
#: Latin letter UTS #39 reads as one Latin letter: ``ᴑ``, a sideways ``o``;
#: ``ʋ``, read as ``u``; ``ɣ`` as ``y``), by the Latin letter a name's key
#: reads them as. Keys are case-folded first, so
#: each is the small letter, read as the Latin letter its capital passes for
#: (``н``: ``Н`` is ``H``; ``η``: ``Η`` is ``H``; ``տ``: ``Տ`` is ``S``) or,
#: with no capital that does, its small form (``һ``, ``ԁ``, ``հ``). No two
#: letters of the Russian, the Greek or the Armenian alphabet share a Latin
#: letter, so names in them stay apart (of two Armenian letters that pass for
#: one, ``ո`` and ``ռ`` for ``n``, ``զ`` and ``գ`` for ``q``, the first is
#: read so). Accented letters follow their letter (``ё`` is read as ``ë``);
#: full-width and mathematical letters, and modifier letters (``ᴴ``, ``ᵒ``),
#: are Latin already (NFKC); the small capitals are :data:`_SMALL_CAPITALS`.
_LOOK_ALIKES: Final = {
    "a": "\u0430\u03b1\u0251",  # Cyrillic а, Greek α, Latin alpha ɑ
    "b": "\u0432\u03b2\u0185\ua7b5",  # в (В), β (Β), Latin tone six ƅ (Ƅ), Latin beta ꞵ (Ꞵ)
    "c": "\u0441\u03f2",  # с, lunate sigma ϲ
    "d": "\u0501",  # Komi ԁ
    "e": "\u0435\u03b5\uab32",  # е, ε (Ε), Latin blackletter ꬲ
    "f": "\u0584\u1e9d\ua799\uab35",  # Armenian ք, Latin long s with high stroke ẝ, f with stroke ꞙ, lenis ꬵ
    "g": "\u0581\u0261\u018d\u1d83",  # Armenian ց, Latin script ɡ, turned delta ƍ, g with palatal hook ᶃ
    "h": "\u043d\u04bb\u03b7\u0570",  # н (Н), shha һ, η (Η), Armenian հ
    "i": "\u0456\u03b9\u0131\u0269",  # Ukrainian і, ι, Latin dotless ı, Latin iota ɩ
    "j": "\u0458\u03f3\u0237\u029d",  # Serbian je ј, Greek yot ϳ, Latin dotless ȷ, j with crossed-tail ʝ (Ʝ)
    "k": "\u043a\u03ba",  # к (К), κ (Κ)
    "l": "\u04cf\u01c0",  # palochka ӏ (Ӏ), Latin dental click ǀ
    "m": "\u043c\u03bc",  # м (М), μ (Μ)
    "n": "\u03bd\u0578",  # ν (Ν), Armenian ո
    "o": "\u043e\u03bf\u0585\u1d11\uab3d",  # о, ο, Armenian օ (Օ), Latin sideways ᴑ, blackletter ꬽ
    "p": "\u0440\u03c1",  # р, ρ
    "q": "\u051b\u0566",  # Kurdish ԛ, Armenian զ
    "r": "\u1d26\uab47\uab48",  # Greek small capital gamma ᴦ, Latin r without handle ꭇ, double r ꭈ
    "s": "\u0455\u057f\u01bd",  # dze ѕ, Armenian տ (Տ), Latin tone five ƽ
    "t": "\u0442\u03c4",  # т (Т), τ (Τ)
    "u": "\u057d\u028b\ua79f\uab4e\uab52",  # Armenian ս (Ս), Latin v with hook ʋ, Volapük ue ꞟ, ꭎ, ꭒ
    "w": "\u051d\u0561\u026f",  # Kurdish ԝ, Armenian ա, Latin turned m ɯ
    "x": "\u0445\u03c7\uab53",  # х, χ (Χ), Latin chi ꭓ (Ꭓ)
    "y": "\u0443\u04af\u03c5\u0263\u1d8c\u1eff\uab5a",  # у, straight u ү, υ (Υ), Latin gamma ɣ, ᶌ, ỿ, ꭚ
    "z": "\u03b6",  # ζ (Ζ)
}
#: Latin small capitals (``ʜᴏꜱᴛ``), each read as its letter (there is none for x).
_SMALL_CAPITALS: Final = dict(
    zip(
        "\u1d00\u0299\u1d04\u1d05\u1d07\ua730\u0262\u029c\u026a\u1d0a\u1d0b\u029f\u1d0d"  # ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍ
        "\u0274\u1d0f\u1d18\ua7af\u0280\ua731\u1d1b\u1d1c\u1d20\u1d21\u028f\u1d22",  # ɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ
        "abcdefghijklmnopqrstuvwyz",
        strict=True,
    )
)
#: Regional indicators: two draw a flag (an emoji, which a name may hold),
#: one alone, or two that name no country, a boxed letter; read as letters.
_REGIONAL_INDICATORS: Final = {chr(0x1F1E6 + i): chr(ord("a") + i) for i in range(26)}
_SKELETON: Final = str.maketrans(
    {alike: latin for latin, alikes in _LOOK_ALIKES.items() for alike in alikes} | _SMALL_CAPITALS | _REGIONAL_INDICATORS
)
#: Symbols and marks drawn as a Latin letter, which NFKC leaves as they are
#: (it reads circled, parenthesized and squared letters as letters): by
#: their Unicode names, the negative circled and squared letters of the
#: enclosed alphanumerics (``🅷🅾🆂🆃``, even those that are emoji, ``🅰️``), and the
#: combining letters written above another. A name may not hold them.
_DRAWN_AS_LATIN: Final = re.compile(r"\bLATIN (?:(?:CAPITAL|SMALL) )?LETTER (?:SMALL CAPITAL )?[A-Z]\b")

#: The scripts a name's letters are written in: those in common use today,
#: which Unicode recommends for identifiers (UAX #31, Table 4). Letters of
#: the others, of limited use or historic (Lisu, Cherokee, Coptic, runes,
#: ...), are refused: many pass for Latin ones, and no look-alike table
#: here reads them. Letters of no one script (modifier letters) are kept.
_COMMON_SCRIPTS: Final = frozenset({
    "Arabic", "Armenian", "Bengali", "Bopomofo", "Cyrillic", "Devanagari", "Ethiopic", "Georgian", "Greek",
    "Gujarati", "Gurmukhi", "Han", "Hangul", "Hebrew", "Hiragana", "Kannada", "Katakana", "Khmer", "Lao",
    "Latin", "Malayalam", "Myanmar", "Oriya", "Sinhala", "Tamil", "Telugu", "Thaana", "Thai", "Tibetan",
})  # fmt: skip
#: Where a letter's Unicode name says what it is, after its script's name
#: (``OLD ITALIC LETTER A``, ``YI SYLLABLE IT``; ``CANADIAN SYLLABICS E``).
_SCRIPT_NAME_END: Final = re.compile(
    r" (?:(?:CAPITAL |SMALL )?LETTER|SYLLABLE|CHARACTER|IDEOGRAPH|HIEROGLYPH|SIGN|VOWEL|DIGIT)\b|(?<=SYLLABICS) "
)

#: Scripts one word may mix, as names are written in Japanese (kanji,
#: hiragana, katakana), Korean (hangul, hanja) and Chinese (hanzi, bopomofo).
_SCRIPT_FAMILIES: Final = (
    frozenset({"Han", "Hiragana", "Katakana"}),
    frozenset({"Han", "Hangul"}),
    frozenset({"Han", "Bopomofo"}),
)
#: A letter's or a digit's script is the first word of its Unicode name
#: (``CYRILLIC SMALL LETTER A``, ``BENGALI DIGIT ZERO``), but for these
#: words: another script's letters or digits, or those of no one script
#: (modifier letters, the prolonged sound mark of both kana, Vedic signs,
#: the digits 0-9).
_SCRIPT_WORDS: Final[dict[str, str | None]] = {
    "CJK": "Han",
    "IDEOGRAPHIC": "Han",
    "HENTAIGANA": "Hiragana",
    "TURNED": "Latin",
    "ROMAN": "Latin",
    "MODIFIER": None,
    "KATAKANA-HIRAGANA": None,
    "MASU": None,
    "VERTICAL": None,
    "CARON": None,
    "VEDIC": None,
    "COMBINING": None,
    "DIGIT": None,  # 0-9
    "ARABIC-INDIC": "Arabic",
    "EXTENDED": "Arabic",  # EXTENDED ARABIC-INDIC DIGIT (Persian, Urdu)
}


def seat_name(text: str) -> str:
    """A name as a table shows it: NFKC-normalized, variation selectors
    dropped, spaces trimmed and runs of spaces made one. A name is a
    :class:`GameError` saying why when it holds a control, format (bidi
    controls, zero-width characters), separator or invisible character, or
    a symbol drawn as a Latin letter (:data:`_DRAWN_AS_LATIN`: ``🅷``); when
    it is empty or longer than :data:`MAX_NAME`; when it holds a letter of a
    script not in common use (:data:`_COMMON_SCRIPTS`: Lisu, Cherokee,
    Coptic, ...); when it is a word the pages use for a role
    (:data:`ROLE_NAMES`, read as :func:`name_key` reads it: ``Ноst`` with a
    Cyrillic ``Н`` and ``о`` is ``Host``, and so is ``ʜᴏꜱᴛ`` in small
    capitals); when it holds a colon or a semicolon, or ends in ``wins``,
    ``split`` or ``splits`` (:data:`_AFTER_A_NAME`: it would read as
    another's line or result); or when it mixes scripts within a word (``Аnn`` with a
    Cyrillic ``А``, ``B০b`` with a Bengali zero; the digits 0-9,
    punctuation and modifier letters belong to no script, and Japanese
    kanji, hiragana and katakana, Korean hangul and hanja, Chinese hanzi and
    bopomofo may share a word).

    >>> seat_name("  Ａnn   Lee ")
    'Ann Lee'
    >>> seat_name("Ann\\u202e")
    Traceback (most recent call last):
    ...
    fivecard.play.table_game.GameError: a name cannot hold U+202E (RIGHT-TO-LEFT OVERRIDE): a control or format character, which could make one name pass for another; got 'Ann\\u202e'
    >>> seat_name("host")
    Traceback (most recent call last):
    ...
    fivecard.play.table_game.GameError: 'host' is a word the table uses for a role: choose another name
    >>> seat_name("\u0410nn")
    Traceback (most recent call last):
    ...
    fivecard.play.table_game.GameError: 'Аnn' mixes Cyrillic and Latin letters in one word ('Аnn'), as names made to pass for others do: write each word in one script
    >>> seat_name("\ua4e7\ua4f3\ua4e2\ua4d4")
    Traceback (most recent call last):
    ...
    fivecard.play.table_game.GameError: 'ꓧꓳꓢꓔ' is written in Lisu (U+A4E7, LISU LETTER XA), a script not in common use, whose letters may pass for others: write a name in a script in common use
    >>> seat_name("Анна Каренина"), seat_name("山田 たろう"), seat_name("Ann Ли"), seat_name("Ann 🇺🇸")
    ('Анна Каренина', '山田 たろう', 'Ann Ли', 'Ann 🇺🇸')
    """
    raw = str(text)
    shown = _VARIATION.sub("", unicodedata.normalize("NFKC", raw))
    for char in shown:
        category = unicodedata.category(char)
        drawn = not category.startswith("L") and _DRAWN_AS_LATIN.search(unicodedata.name(char, ""))
        if category in _REFUSED or char in _INVISIBLE or drawn:
            what = (
                "an invisible character" if char in _INVISIBLE
                else "a control or format character" if category in _REFUSED
                else f"a {'mark' if category.startswith('M') else 'symbol'} drawn as a letter"
            )  # fmt: skip
            raise GameError(
                f"a name cannot hold U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')}): "
                f"{what}, which could make one name pass for another; got {raw!r}"
            )
    shown = " ".join(shown.split())
    if not shown:
        raise GameError("a seat needs a name")
    if len(shown) > MAX_NAME:
        raise GameError(f"a name is at most {MAX_NAME} characters, got {len(shown)}")
    for char in shown:  # letters and digits
        script = _script(char)
        if script is not None and script not in _COMMON_SCRIPTS:
            raise GameError(
                f"{shown!r} is written in {_script_name(char)} (U+{ord(char):04X}, {unicodedata.name(char, 'unnamed')}), "
                "a script not in common use, whose letters may pass for others: write a name in a script in common use"
            )
    bare = "".join(c for c in name_key(shown) if c.isalnum())
    if bare in ROLE_NAMES or _ROLE_PATTERN.fullmatch(bare):
        raise GameError(f"{shown!r} is a word the table uses for a role: choose another name")
    colon = next((c for c in shown if c in _AFTER_A_NAME), None)
    if colon is not None:
        raise GameError(
            f"{shown!r} holds {colon!r}, which the outputs put after a name (Ann: A♠ K♠ ..., Ann wins: ..., "
            "Ann: 2 wins; Bob: ...), so that the name could pass for another line: choose another name"
        )
    words = re.findall(r"[^\W_]+", name_key(shown))
    if len(words) > 1 and words[-1] in _RESULT_WORDS:
        raise GameError(
            f"{shown!r} ends in {words[-1]!r}, a word a result puts after a name (Ann wins: ...), so that the "
            "name could pass for another's result: choose another name"
        )
    for word in shown.split(" "):
        scripts = sorted({s for s in map(_script, word) if s is not None})
        if len(scripts) > 1 and not any(family.issuperset(scripts) for family in _SCRIPT_FAMILIES):
            raise GameError(
                f"{shown!r} mixes {' and '.join(scripts)} letters in one word ({word!r}), as names "
                "made to pass for others do: write each word in one script"
            )
    return shown


def _script(char: str) -> str | None:
    """The script of a letter or a digit (``Latin``, ``Cyrillic``, ``Han``,
    ``Bengali`` for ``০``, ...); None for a character of no one script: a
    digit 0-9, punctuation, a mark, a symbol, a modifier letter."""
    category = unicodedata.category(char)
    if not (category.startswith("L") or category == "Nd"):
        return None
    word = unicodedata.name(char, "unnamed").split(" ", 1)[0]
    if word in _SCRIPT_WORDS:
        return _SCRIPT_WORDS[word]
    return word.title()


def _script_name(char: str) -> str:
    """The name of a letter's script as its Unicode name gives it, in full
    (``Old Italic``, where :func:`_script` says ``Old``)."""
    name = unicodedata.name(char, "")
    end = _SCRIPT_NAME_END.search(name)
    return (name[: end.start()] if end else name.split(" ", 1)[0]).title() or "a script Unicode names no letter of"


def name_key(name: str) -> str:
    """What two names are compared by, their skeleton: NFKC-normalized and
    case-folded (so ``Ann``, ``ANN`` and ``ＡＮＮ`` are one name), the
    letters that pass for Latin ones read as those (:data:`_LOOK_ALIKES`:
    ``ΑΝΝ`` in Greek capitals is ``Ann`` too; :data:`_SMALL_CAPITALS`;
    regional indicators, which draw a flag by two or a boxed letter alone),
    a symbol drawn as a digit read as it (``❶`` is ``1``), variation
    selectors left out and spaces collapsed.

    >>> name_key("ＡＮＮ"), name_key("\u0391\u039d\u039d"), name_key("\u041d\u041e\u0405\u0422")
    ('ann', 'ann', 'host')
    >>> name_key("\u029c\u1d0f\ua731\u1d1b"), name_key("\u0570\u057d\u0581\u0585"), name_key("Player \u2777")
    ('host', 'hugo', 'player 2')
    >>> name_key("Алёна"), name_key("やまだ")
    ('aлëha', 'やまだ')
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", str(name)).casefold())
    read = unicodedata.normalize("NFC", unicodedata.normalize("NFD", folded).translate(_SKELETON))
    read = "".join(map(_as_digit, read))
    return " ".join(_VARIATION.sub("", read).split())


def _as_digit(char: str) -> str:
    """A symbol drawn as a digit that NFKC leaves as it is (``❶``, ``➋``) as
    that digit; any other character as it is."""
    digit = unicodedata.digit(char, None) if unicodedata.category(char) == "No" else None
    return char if digit is None else str(digit)


def chat_line(text: str) -> str:
    """A chat line as the table shows it: control and format characters
    (bidi overrides and isolates, zero-width characters: anything that could
    reorder or hide what others read) dropped, other spaces made one, the
    line trimmed; empty or longer than :data:`MAX_CHAT` is a
    :class:`GameError`."""
    kept = "".join(" " if c.isspace() else c if c.isprintable() else "" for c in str(text))
    line = " ".join(kept.split())
    if not line:
        raise GameError("an empty chat line")
    if len(line) > MAX_CHAT:
        raise GameError(f"a chat line is at most {MAX_CHAT} characters, got {len(line)}")
    return line


@dataclass
class Seat:
    id: int
    name: str
    owner: str  # the hash of its browser's secret
    active: bool = True
    points: int = 0


@dataclass
class Round:
    number: int
    seed: int
    dealt: dict[int, list[Card]] = field(default_factory=dict)  # seat id -> its five cards, in dealing order
    next_card: int = 0
    open: bool = True
    dealt_to: set[str] = field(default_factory=set)  # the owners (browsers) shown a hand of this round
    drawn: dict[int, list[int]] = field(default_factory=dict)  # seat id -> the positions (0-4) it exchanged


class FriendsTable(TableGame):
    """One friends' table (a :class:`~fivecard.play.table_game.TableGame`):
    settings, seats, the round in play and the points. Each action has
    ``verify_…`` (a :class:`~fivecard.play.table_game.GameError` saying why
    not; :class:`~fivecard.play.table_game.RoleRequired` when only the host,
    or a seated player, may), ``can_…`` and the action, which returns its
    event records. ``owner`` is the browser asking (its secret's hash)."""

    KIND = "table"  # (in the round seeds' hash: kept as the first tables had it)
    NOUN = "friends' table"
    EVENT_FIELDS = EVENT_FIELDS
    KEPT_EVENTS = {"chat": KEPT_CHAT}

    @classmethod
    def public_event(cls, event: Mapping[str, Any], lang: LangLike = None) -> dict[str, Any]:
        """An event as every browser at the table may see it
        (:data:`EVENT_FIELDS`), each closed round's hand with its sorted
        cards as card objects too (``sorted_cards``: however it was kept),
        its sentences said in ``lang`` (:func:`event_text`; English: as
        kept)."""
        shown = super().public_event(event)
        if shown["type"] == "round_closed":
            shown["hands"] = [
                {**hand, "sorted_cards": cards_json([Card.parse(code) for code in hand["sorted"]])}
                for hand in shown.get("hands", [])
            ]
        words = language(lang)
        if words.english:
            return shown
        if shown["type"] == "round_closed":
            _say_round(shown, words)
        else:
            said = event_text(event, words)
            if said is not None:
                shown["text"] = said
        return shown

    def __init__(
        self,
        *,
        rules: str | RuleSet = "standard",
        points: int = 25,
        tie: str = "none",
        rounds: int | None = None,
        seed: int | None = None,
        host: str,
        draw: int = 0,
    ) -> None:
        ruleset = get_rules(rules)  # its error names the rule sets
        if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= 1_000_000:
            raise GameError(f"points for the high hand are a whole number from 0 to 1,000,000, got {points!r}")
        if tie not in TIES:
            raise GameError(f"a tie scores {' or '.join(repr(t) for t in TIES)}, got {tie!r}")
        if rounds is not None and (isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS):
            raise GameError(f"rounds are a number from 1 to {MAX_ROUNDS:,}, got {rounds!r}")
        if isinstance(draw, bool) or not isinstance(draw, int) or not 0 <= draw <= HAND_SIZE:
            raise GameError(f"a draw exchanges 0 to {HAND_SIZE} cards, got {draw!r}")
        self.rules = ruleset
        #: The most cards a seat may exchange in a round's draw (0: no draw).
        self.draw_limit = draw
        self.points = points
        self.tie = tie
        self.rounds_limit = rounds
        #: ``seeded``: the host chose the seed, so every round's deck can be known in advance.
        self.shoe = Shoe(ruleset, self.KIND, seed)
        self.host = host
        self.seats: list[Seat] = []
        self.round: Round | None = None
        self.played = 0  # rounds closed
        self.ended = False

    # -- who is who ------------------------------------------------------------

    def seat_of(self, owner: str) -> Seat | None:
        """The active seat of a browser (its secret's hash), if it has one."""
        return next((s for s in self.seats if s.owner == owner and s.active), None)

    def owners(self) -> set[str]:
        """Every browser that holds something here: the host and each seat's
        (removed seats too)."""
        return {self.host, *(s.owner for s in self.seats)} - {""}

    def move_owner(self, old: str, new: str) -> None:
        """What the browser ``old`` holds here (the host's part, its seats)
        becomes ``new``'s: the web app gives a browser a fresh secret when
        it gains something, and what its old one held goes with it."""
        if not old:
            return
        if self.host == old:
            self.host = new
        for seat in self.seats:
            if seat.owner == old:
                seat.owner = new
        if self.round is not None and old in self.round.dealt_to:
            self.round.dealt_to = (self.round.dealt_to - {old}) | {new}

    def _verify_host(self, owner: str) -> None:
        if owner != self.host:
            raise RoleRequired("only the table's host can do that")

    def _verify_open(self) -> None:
        if self.ended:
            raise GameError("the table has ended")

    @property
    def max_seats(self) -> int:
        """The seats one deck of the table's rule set deals, each its five
        cards and the most a draw may give it (:data:`MAX_SEATS`; 7 with the
        36 cards of ``short-deck``; 6 of 52 cards with a draw of 3)."""
        return min(MAX_SEATS, len(self.rules.deck()) // (HAND_SIZE + self.draw_limit))

    @property
    def most_rounds(self) -> int:
        """The rounds the table ends after: its number of rounds, or :data:`MAX_ROUNDS`."""
        return self.rounds_limit if self.rounds_limit is not None else MAX_ROUNDS

    def _active(self) -> list[Seat]:
        return [s for s in self.seats if s.active]

    def opened(self) -> list[dict[str, Any]]:
        """The table's first event: its settings in a sentence (and, when the
        host chose the seed, that the host can know every hand)."""
        settings = {
            "rules": self.rules.name, "points": self.points, "tie": self.tie, "rounds": self.rounds_limit,
            "draw": self.draw_limit,
        }  # fmt: skip
        return [_said({"type": "table_opened", "seeded": self.seeded, "settings": settings})]

    # -- seats -----------------------------------------------------------------

    def verify_join(self, owner: str, name: str) -> None:
        """A browser seated already may ask again (it keeps its seat)."""
        self._verify_open()
        if self.seat_of(owner) is not None:
            return
        shown = seat_name(name)
        key = name_key(shown)
        if any(name_key(s.name) == key for s in self._active()):
            raise GameError(f"the name {shown!r} is taken at this table")
        seats = self.max_seats
        if len(self._active()) >= seats:
            raise GameError(f"the table is full ({seats} seats: one deck deals them all)")
        if len(self.seats) >= MAX_JOINS:
            raise GameError(
                f"this table has given {len(self.seats)} seats, the most a table may (a seat taken again "
                "after its removal counts again): open a new table"
            )

    def can_join(self, owner: str, name: str) -> bool:
        return self.can(lambda: self.verify_join(owner, name))

    def join(self, owner: str, name: str) -> tuple[Seat, list[dict[str, Any]]]:
        """A seat for a browser by name; a browser seated already keeps its
        seat (and name)."""
        self.verify_join(owner, name)
        mine = self.seat_of(owner)
        if mine is not None:
            return mine, []
        seat = Seat(len(self.seats) + 1, seat_name(name), owner)
        self.seats.append(seat)
        return seat, [_said({"type": "seat_joined", "seat": seat.id, "name": seat.name})]

    def _active_seat(self, seat_id: int) -> Seat | None:
        return next((s for s in self.seats if s.id == seat_id and s.active), None)

    def verify_remove(self, owner: str, seat_id: int) -> None:
        self._verify_host(owner)
        self._verify_open()
        if self._active_seat(seat_id) is None:
            raise GameError(f"no seat {seat_id} at this table")

    def can_remove(self, owner: str, seat_id: int) -> bool:
        return self.can(lambda: self.verify_remove(owner, seat_id))

    def remove(self, owner: str, seat_id: int) -> list[dict[str, Any]]:
        """The host removes a seat (its points stay in the log)."""
        self.verify_remove(owner, seat_id)
        seat = self._active_seat(seat_id)
        assert seat is not None
        seat.active = False
        events: list[dict[str, Any]] = [
            _said({"type": "seat_removed", "seat": seat.id, "name": seat.name})
        ]
        current = self.round
        if current is not None and current.open:
            current.dealt.pop(seat.id, None)
            current.drawn.pop(seat.id, None)
            events += self._close_if_all_dealt()
        return events

    # -- rounds ----------------------------------------------------------------

    def verify_start(self, owner: str) -> None:
        self._verify_host(owner)
        self._verify_open()
        if self.round is not None and self.round.open:
            raise GameError(f"round {self.round.number} is still open")
        if self.played >= self.most_rounds:
            raise GameError(f"the table has played {self.played:,} rounds, the most it may: open a new table")
        if not self._active():
            raise GameError("nobody is seated yet: share the table's link")

    def can_start(self, owner: str) -> bool:
        return self.can(lambda: self.verify_start(owner))

    def start_round(self, owner: str) -> list[dict[str, Any]]:
        self.verify_start(owner)
        number = self.played + 1
        self.round = Round(number, self.shoe.round_seed(number))
        settings = {"seated": len(self._active()), "draw": self.draw_limit}
        # (the round's seed is in its round_closed event only: it gives the whole deck)
        return [_said({"type": "round_started", "round": number, "settings": settings})]

    def verify_deal(self, owner: str) -> None:
        self._verify_open()
        seat = self.seat_of(owner)
        if seat is None:
            raise RoleRequired("take a seat to deal")
        current = self.round
        if current is None or not current.open:
            raise GameError("no round is open: the host starts the next one")
        if seat.id in current.dealt:
            raise GameError(f"you have dealt in round {current.number} already")
        if owner in current.dealt_to:
            raise GameError(
                f"this browser was dealt a hand in round {current.number} already (a seat taken again deals "
                "no second hand): one hand a round for each browser"
            )
        if current.next_card + HAND_SIZE > len(self.rules.deck()):
            raise GameError(f"round {current.number}'s deck has too few cards left; the host closes the round")

    def can_deal(self, owner: str) -> bool:
        return self.can(lambda: self.verify_deal(owner))

    def deal(self, owner: str) -> tuple[list[Card], list[dict[str, Any]]]:
        """Deal the browser's seat its five cards in the open round."""
        self.verify_deal(owner)
        seat, current = self.seat_of(owner), self.round
        assert seat is not None and current is not None
        deck = round_deck(self.rules, current.seed)
        cards = deck[current.next_card : current.next_card + HAND_SIZE]
        current.next_card += HAND_SIZE
        current.dealt[seat.id] = cards
        current.dealt_to.add(owner)
        events: list[dict[str, Any]] = [
            _said({"type": "dealt", "round": current.number, "seat": seat.id, "name": seat.name})
        ]
        return cards, events + self._close_if_all_dealt()

    def verify_draw(self, owner: str, keep: Sequence[int]) -> None:
        """``keep``: the positions (0-4) of the cards kept; the others are
        exchanged, at most :attr:`draw_limit` of them."""
        self._verify_open()
        seat = self.seat_of(owner)
        if seat is None:
            raise RoleRequired("take a seat to draw")
        if not self.draw_limit:
            raise GameError("this table has no draw: the hands dealt are the hands shown")
        current = self.round
        if current is None or not current.open:
            raise GameError("no round is open: the host starts the next one")
        if seat.id not in current.dealt:
            raise GameError(f"deal your hand in round {current.number} first")
        if seat.id in current.drawn:
            raise GameError(f"you have drawn in round {current.number} already (one draw a round)")
        check_positions(keep)
        count = HAND_SIZE - len(keep)
        if count > self.draw_limit:
            raise GameError(
                f"this table's draw exchanges at most {_cards(self.draw_limit)}: keep {HAND_SIZE - self.draw_limit} "
                f"or more (you asked to exchange {count})"
            )
        if current.next_card + count > len(self.rules.deck()):
            raise GameError(f"round {current.number}'s deck has too few cards left; the host closes the round")

    def can_draw(self, owner: str, keep: Sequence[int]) -> bool:
        return self.can(lambda: self.verify_draw(owner, keep))

    def draw(self, owner: str, keep: Sequence[int]) -> tuple[list[Card], list[dict[str, Any]]]:
        """The browser's seat keeps the cards at positions ``keep`` (0-4)
        and is dealt the others' places from the round's deck, in place (its
        hand as it now is); every browser is told how many, not which."""
        self.verify_draw(owner, keep)
        seat, current = self.seat_of(owner), self.round
        assert seat is not None and current is not None
        deck = round_deck(self.rules, current.seed)
        cards = list(current.dealt[seat.id])
        out = [p for p in range(HAND_SIZE) if p not in keep]
        for p in out:
            cards[p] = deck[current.next_card]
            current.next_card += 1
        current.dealt[seat.id] = cards
        current.drawn[seat.id] = out
        count = len(out)
        events: list[dict[str, Any]] = [
            _said({"type": "drew", "round": current.number, "seat": seat.id, "name": seat.name, "count": count})
        ]
        return cards, events + self._close_if_all_dealt()

    def verify_close(self, owner: str) -> None:
        self._verify_host(owner)
        self._verify_open()
        if self.round is None or not self.round.open:
            raise GameError("no round is open")

    def can_close(self, owner: str) -> bool:
        return self.can(lambda: self.verify_close(owner))

    def close(self, owner: str) -> list[dict[str, Any]]:
        """The host closes the open round: the hands dealt are settled."""
        self.verify_close(owner)
        return self._settle()

    def verify_end(self, owner: str) -> None:
        self._verify_host(owner)
        self._verify_open()

    def can_end(self, owner: str) -> bool:
        return self.can(lambda: self.verify_end(owner))

    def end(self, owner: str) -> list[dict[str, Any]]:
        """The host ends the table (an open round is settled first)."""
        self.verify_end(owner)
        events = self._settle() if self.round is not None and self.round.open else []
        return events + self._end()

    def _end(self) -> list[dict[str, Any]]:
        self.ended = True
        return [_said({"type": "table_ended", "standings": self.standings()})]

    def _close_if_all_dealt(self) -> list[dict[str, Any]]:
        current = self.round
        if current is None or not current.open:
            return []
        # (a seat whose browser was dealt a hand of this round already deals no other: it waits for none;
        # at a table with a draw, a seat that dealt is waited for until it has drawn)
        def done(s: Seat) -> bool:
            if s.id in current.dealt:
                return not self.draw_limit or s.id in current.drawn
            return s.owner in current.dealt_to

        if current.dealt and all(done(s) for s in self._active()):
            return self._settle()
        return []

    def _settle(self) -> list[dict[str, Any]]:
        current = self.round
        assert current is not None and current.open
        current.open = False
        self.played += 1
        names = {s.id: s.name for s in self.seats}
        dealt = list(current.dealt.items())
        event: dict[str, Any] = {"type": "round_closed", "round": current.number, "seed": current.seed}
        verdict: Verdict | None = None
        if not dealt:
            event.update(hands=[], winners=[], awarded={})
        else:
            evaluations = [evaluate(Hand(tuple(cards), self.rules)) for _, cards in dealt]
            result = settle(evaluations)
            verdict = result.verdict
            winners = [dealt[i][0] for i in result.winners]
            awarded: dict[int, int] = {}
            if len(winners) == 1:
                awarded = {winners[0]: self.points}
            elif self.tie == "split":
                awarded = split_pot(self.points, winners)
            for seat in self.seats:
                seat.points += awarded.get(seat.id, 0)
            hands = [
                {"seat": seat_id, "player": names[seat_id], **evaluation_json(e)}
                | ({"drew": len(current.drawn.get(seat_id, ()))} if self.draw_limit else {})
                for (seat_id, _), e in zip(dealt, evaluations)
            ]
            event.update(hands=hands, winners=winners, awarded={str(k): v for k, v in awarded.items()})
        event["standings"] = self.standings(seated=True)  # (every seat's: in the view and at the table's end)
        events = [_said(event, verdict)]
        if self.played >= self.most_rounds:
            events += self._end()
        return events

    def verify_chat(self, owner: str, text: str) -> None:
        if self.seat_of(owner) is None and owner != self.host:
            raise RoleRequired("take a seat to chat")
        chat_line(text)

    def can_chat(self, owner: str, text: str) -> bool:
        return self.can(lambda: self.verify_chat(owner, text))

    def chat(self, owner: str, text: str) -> list[dict[str, Any]]:
        """A chat line from a seated player or the host (spectators read)."""
        self.verify_chat(owner, text)
        seat = self.seat_of(owner)
        name = seat.name if seat is not None else "Host"
        return [{"type": "chat", "seat": None if seat is None else seat.id, "name": name, "text": chat_line(text)}]

    def standings(self, seated: bool = False) -> list[dict[str, Any]]:
        """Every seat the table has given (removed ones too; ``seated``: the
        seated ones only), most points first (then by seat)."""
        order = sorted(self._active() if seated else self.seats, key=lambda s: (-s.points, s.id))
        return [{"seat": s.id, "name": s.name, "points": s.points, "active": s.active} for s in order]

    # -- what a browser sees -------------------------------------------------------

    def view(self, owner: str) -> dict[str, Any]:
        """The table as one browser sees it, by its role: the host (``host``),
        a seated player (``you``: its seat; ``your_hand``: its own cards in the
        round, and no one else's), or a browser that only watches (``""``:
        one without a cookie). Every seat, the round (which seats have dealt
        and which have drawn; its seed only once it is closed; ``your_draw``:
        the positions, 1-5, this browser's draw exchanged), the standings,
        ``draw`` (the most cards a draw exchanges; 0: no draw),
        ``max_seats``, and ``seeded``: the host chose the seed (and so can
        know every hand)."""
        mine = self.seat_of(owner)
        current = self.round
        round_view = None
        if current is not None:
            hand = current.dealt.get(mine.id) if mine is not None else None
            exchanged = current.drawn.get(mine.id) if mine is not None else None
            round_view = {
                "number": current.number,
                "open": current.open,
                "seed": None if current.open else current.seed,
                "dealt": sorted(current.dealt),
                "drawn": sorted(current.drawn),
                "your_hand": None if hand is None else cards_json(hand),
                "your_draw": None if exchanged is None else [p + 1 for p in exchanged],
            }
        return {
            "rules": self.rules.name,
            "points": self.points,
            "tie": self.tie,
            "rounds": self.rounds_limit,
            "draw": self.draw_limit,
            "max_seats": self.max_seats,
            "played": self.played,
            "ended": self.ended,
            "seeded": self.seeded,
            "host": bool(owner) and owner == self.host,
            "you": None if mine is None else mine.id,
            "seats": [
                {"seat": s.id, "name": s.name, "points": s.points, "active": s.active} for s in self.seats
            ],
            "round": round_view,
            "standings": self.standings(),
        }

    # -- saving and restoring ----------------------------------------------------------

    def _state(self) -> dict[str, Any]:
        current = self.round
        return {
            "rules": self.rules.name,
            "points": self.points,
            "tie": self.tie,
            "rounds": self.rounds_limit,
            "draw": self.draw_limit,
            "seed": self.seed,
            "seeded": self.seeded,
            "host": self.host,
            "played": self.played,
            "ended": self.ended,
            "seats": [
                {"id": s.id, "name": s.name, "owner": s.owner, "active": s.active, "points": s.points}
                for s in self.seats
            ],
            "round": None
            if current is None
            else {
                "number": current.number,
                "seed": current.seed,
                "dealt": {str(k): [c.code_str for c in v] for k, v in current.dealt.items()},
                "next_card": current.next_card,
                "open": current.open,
                "dealt_to": sorted(current.dealt_to),
                "drawn": {str(k): v for k, v in current.drawn.items()},
            },
        }

    @classmethod
    def _restore(cls, state: Mapping[str, Any]) -> FriendsTable:
        table = cls(
            rules=str(state["rules"]),
            points=int(state["points"]),
            tie=str(state["tie"]),
            rounds=None if state["rounds"] is None else int(state["rounds"]),
            seed=int(state["seed"]),
            host=str(state["host"]),
            draw=int(state.get("draw", 0)),  # (not kept before: no draw)
        )
        table.shoe.seeded = bool(state.get("seeded", False))  # (not kept before: unknown, taken as not)
        table.played = int(state["played"])
        table.ended = bool(state["ended"])
        table.seats = [
            Seat(int(s["id"]), str(s["name"]), str(s["owner"]), bool(s["active"]), int(s["points"]))
            for s in state["seats"]
        ]
        saved = state["round"]
        if saved is not None:
            dealt = {int(k): [Card.parse(c) for c in v] for k, v in saved["dealt"].items()}
            owners = {s.id: s.owner for s in table.seats}
            table.round = Round(
                int(saved["number"]),
                int(saved["seed"]),
                dealt,
                int(saved["next_card"]),
                bool(saved["open"]),
                # (not kept before: the owners of the seats holding a hand)
                {str(o) for o in saved["dealt_to"]} if "dealt_to" in saved else {owners[k] for k in dealt if k in owners},
                {int(k): [int(p) for p in v] for k, v in saved.get("drawn", {}).items()},
            )
        return table


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


# -- what the table says -------------------------------------------------------------
#
# An event is kept as data (who, which round, the hands with their strengths,
# the winners and the points awarded, a table's settings) with its sentence
# in English as said when it happened (``text``, and a closed round's
# ``explanation``); every other language says it from the data when a
# browser reads it (:meth:`FriendsTable.public_event`), the names as typed.


def _said(event: dict[str, Any], verdict: Verdict | None = None) -> dict[str, Any]:
    """An event made now, with its sentences in English (as kept); a
    closed round's from its showdown's ``verdict``."""
    if event["type"] == "round_closed":
        said = _round_said(event, ENGLISH, verdict)
        assert said is not None
        event["explanation"], event["text"] = said
    else:
        text = event_text(event, ENGLISH)
        assert text is not None
        event["text"] = text
    return event


def _count_cards(count: int, words: Language) -> str:
    return words.phrase_n("{n} card", "{n} cards", count, "play")


def event_text(event: Mapping[str, Any], lang: LangLike = None) -> str | None:
    """An event's sentence (its ``text``) said in ``lang`` from its data;
    None for a chat line (the text is the person's) and for an event that
    holds too little to say it again (a table's opening or a round's start
    kept by an earlier version: said as kept, in English).

    >>> event_text({"type": "drew", "round": 1, "seat": 2, "name": "Аня", "count": 2}, "ru")
    'Аня меняет 2 карты'
    """
    words = language(lang)
    kind = event.get("type")
    try:
        if kind == "round_closed":
            said = _round_said(event, words)
            return None if said is None else said[1]
        if kind == "table_opened":
            return _opened_text(event["settings"], bool(event.get("seeded")), words)
        if kind == "round_started":
            number, seated, draw = int(event["round"]), int(event["settings"]["seated"]), int(event["settings"]["draw"])
            if draw:
                return words.phrase_n(
                    "Round {round}: {n} seated; deal your hand, then draw up to {cards}",
                    "Round {round}: {n} seated; deal your hand, then draw up to {cards}",
                    seated, "play", round=number, cards=_count_cards(draw, words),
                )  # fmt: skip
            return words.phrase_n(
                "Round {round}: {n} seated; deal your hand", "Round {round}: {n} seated; deal your hand",
                seated, "play", round=number,
            )  # fmt: skip
        if kind == "seat_joined":
            return words.phrase("{name} sits down", "play", name=str(event["name"]))
        if kind == "seat_removed":
            return words.phrase("The host removed {name} from the table", "play", name=str(event["name"]))
        if kind == "dealt":
            return words.phrase("{name} has dealt", "play", name=str(event["name"]))
        if kind == "drew":
            count = int(event["count"])
            if not count:
                return words.phrase("{name} keeps all five cards", "play", name=str(event["name"]))
            return words.phrase_n(
                "{name} exchanges {n} card", "{name} exchanges {n} cards", count, "play", name=str(event["name"])
            )
        if kind == "table_ended":
            return words.gettext("The table has ended", "play")
    except (KeyError, TypeError, ValueError):  # (kept by an earlier version without the data)
        return None
    return None


def _opened_text(settings: Mapping[str, Any], seeded: bool, words: Language) -> str:
    """The table's settings in a sentence."""
    name, points, rounds, draw = str(settings["rules"]), int(settings["points"]), settings["rounds"], int(settings["draw"])
    rules = name if words.english else _rules_title(name, words)
    if settings["tie"] == "none":
        text = words.phrase_n(
            "A {rules} table: the high hand wins {n} points; a tie scores nothing",
            "A {rules} table: the high hand wins {n} points; a tie scores nothing",
            points, "play", rules=rules,
        )  # fmt: skip
    else:
        text = words.phrase_n(
            "A {rules} table: the high hand wins {n} points; a tie scores a share",
            "A {rules} table: the high hand wins {n} points; a tie scores a share",
            points, "play", rules=rules,
        )  # fmt: skip
    if rounds:
        text = words.phrase_n("{text}, {n} rounds", "{text}, {n} rounds", int(rounds), "play", text=text)
    if draw:
        text = words.phrase(
            "{text}; each player may exchange up to {cards} once", "play", text=text, cards=_count_cards(draw, words)
        )
    if seeded:
        text = words.phrase(
            "{text}; the host chose the shuffle seed, so every hand can be known in advance", "play", text=text
        )
    return text


def _rules_title(name: str, words: Language) -> str:
    """A built-in rule set's title in a language; any other name as it is."""
    try:
        return rules_title(name, get_rules(name, custom=False).title or name, words)
    except FivecardError:
        return name


def _round_said(
    event: Mapping[str, Any], words: Language, verdict: Verdict | None = None
) -> tuple[str, str] | None:
    """A closed round's explanation and sentence in a language, from its
    showdown's ``verdict``, or its hands' (their strengths, under the rule
    set they name: a showdown's outcome, cached),
    the points ``awarded`` and the seats seated when it closed (those that
    did not deal); None for data that cannot be read so."""
    number = int(event["round"])
    hands = event.get("hands") or []
    if not hands:
        return words.gettext("nobody dealt", "play"), words.phrase("Round {round}: nobody dealt", "play", round=number)
    try:
        if verdict is None:
            strengths = tuple(int(h["strength"]) for h in hands)
            naturals = tuple(bool(h.get("natural", True)) for h in hands)
            verdict = outcome(strengths, naturals, get_rules(str(hands[0]["rules"]), custom=False)).verdict
        names = [str(h["player"]) for h in hands]
        dealt = {int(h["seat"]) for h in hands}
        points = sum(int(v) for v in (event.get("awarded") or {}).values())
        seated = sorted((s for s in event.get("standings") or () if s.get("active", True)), key=lambda s: int(s["seat"]))
        idle = [str(s["name"]) for s in seated if int(s["seat"]) not in dealt]
    except (FivecardError, KeyError, TypeError, ValueError, IndexError):
        return None
    who = spoken_list([names[i] for i in verdict.winners], words)
    why = verdict.reason(words, names)
    if len(verdict.winners) == 1:
        score = words.phrase_n(
            "{who} wins {n} points: {why}", "{who} wins {n} points: {why}", points, "play", who=who, why=why
        )
    elif event.get("awarded"):
        score = words.phrase_n(
            "{who} tie and split {n} points: {why}", "{who} tie and split {n} points: {why}", points, "play",
            who=who, why=why,
        )  # fmt: skip
    else:
        score = words.phrase("{who} tie, so nobody scores: {why}", "play", who=who, why=why)
    if idle:  # a round the host closes before every seat dealt says who did not
        score = words.phrase_n(
            "{score}; {idle} did not deal", "{score}; {idle} did not deal", len(idle), "play",
            score=score, idle=spoken_list(idle, words),
        )  # fmt: skip
    return verdict.text(words, names), words.phrase("Round {round}: {score}", "play", round=number, score=score)


def _say_round(shown: dict[str, Any], words: Language) -> None:
    """A closed round as a browser is shown it, in a language other than
    English: its sentence, its explanation, and each hand's category and description
    (the JSON keys and the category's id as they are)."""
    said = _round_said(shown, words)
    if said is None:
        return
    shown["explanation"], shown["text"] = said
    hands = shown.get("hands") or []
    if hands:
        tables = tables_for(get_rules(str(hands[0]["rules"]), custom=False))
        for hand in hands:
            hand["name"] = category_name(str(hand["category"]), str(hand["name"]), words)
            hand["description"] = describe(tables.hand_class(int(hand["strength"])), words)


#: An event as every browser at a friends' table may see it: its ``type``
#: and only the fields :data:`EVENT_FIELDS` names for that type (none for a
#: type it does not know). Everything a browser is sent of a table's events
#: passes through here, kept events of earlier versions included.
public_event = FriendsTable.public_event
