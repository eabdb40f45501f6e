"""Every example the source traditions give, settled in English, Japanese and
Russian: ModelOff 2012, Joker Poker (the game show's two-joker poker),
Semi-Poker (the chat room's ranks-only poker), the Russian Ace-King ladder
(combination seniority) and the Japanese tie-break text.

Each sentence below is written by hand, as a player of that language reads
it (the words of the Japanese tie-break text: ワンペア, ツーペア, ホイール,
エースハイ...; of the Russian ladder: Туз-король, Старшая карта, стрит до
туза), never made by the code under test. A showdown, ``Outcome.explain``,
``explain(a, b)`` and ``describe`` must say exactly these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from helpers import SEMI_POKER_BEATS, ranked

from fivecard import Hand, describe, evaluate, explain, showdown

LANGS = ("en", "ja", "ru")


@dataclass(frozen=True)
class Example:
    """One comparison a tradition makes: its hands, under its rules, the
    hands that win (0-based) and the explanation in each language."""

    hands: Sequence[str | Hand]
    rules: str
    winners: tuple[int, ...]
    en: str
    ja: str
    ru: str
    decks: int = 1

    def said(self, lang: str) -> str:
        return {"en": self.en, "ja": self.ja, "ru": self.ru}[lang]


def ranks(winner: str, loser: str) -> list[Hand]:
    """Two hands written by ranks alone (as the Japanese text and the Russian
    ladder write them), with suits that make neither a flush."""
    return [ranked(winner.replace("-", " ")), ranked(loser.replace("-", " "), offset=1)]


MODELOFF = {
    "royal flush beats flush": Example(
        ["A♦ K♦ Q♦ J♦ 10♦", "Q♣ 10♣ 7♣ 6♣ 4♣"], "standard", (0,),
        "Hand 1 wins: Royal Flush beats Flush",
        "ハンド1の勝ち：ロイヤルフラッシュがフラッシュに勝ちます",
        "Побеждает рука 1: Роял-флеш старше, чем Флеш",
    ),
    "two flushes": Example(
        ["Q♣ 10♣ 7♣ 6♣ 4♣", "Q♦ 10♦ 7♦ 5♦ 4♦"], "standard", (0,),
        "Hand 1 wins: both Flush; the fourth card decides, 6 beats 5",
        "ハンド1の勝ち：どちらもフラッシュ。4枚目で決まり、6が5に勝ちます",
        "Побеждает рука 1: у обеих Флеш; решает четвёртая карта, 6 бьёт 5",
    ),
    "two pair dead heat": Example(
        ["10♦ 10♥ 4♥ 4♣ 3♠", "10♠ 10♣ 4♠ 4♦ 3♥"], "standard", (0, 1),
        "Draw: both Two Pair, Tens and Fours, Three kicker; suits never break ties",
        "引き分け：どちらもツーペア（10と4、キッカー3）。スートで同点は決まりません",
        "Ничья: у обеих Две пары, десятки и четвёрки, кикер тройка; масть ничью не решает",
    ),
    "two royal flushes draw": Example(
        ["A♦ K♦ Q♦ J♦ 10♦", "A♠ K♠ Q♠ J♠ 10♠"], "standard", (0, 1),
        "Draw: both Royal Flush; suits never break ties",
        "引き分け：どちらもロイヤルフラッシュ。スートで同点は決まりません",
        "Ничья: у обеих Роял-флеш; масть ничью не решает",
    ),
    "four of a kind": Example(
        ["9♣ 9♠ 9♦ 9♥ J♥", "7♠ 7♥ 7♦ 7♣ A♠"], "standard", (0,),
        "Hand 1 wins: both Four of a Kind; the four of a kind decides, Nines beat Sevens",
        "ハンド1の勝ち：どちらもフォーカード。フォーカードで決まり、9が7に勝ちます",
        "Побеждает рука 1: у обеих Каре; решает каре, девятки бьют семёрки",
    ),
    "full house": Example(
        ["7♠ 7♥ 7♦ 4♠ 4♣", "6♠ 6♥ 6♦ A♠ A♣"], "standard", (0,),
        "Hand 1 wins: both Full House; the three of a kind decides, Sevens beat Sixes",
        "ハンド1の勝ち：どちらもフルハウス。スリーカードで決まり、7が6に勝ちます",
        "Побеждает рука 1: у обеих Фулл-хаус; решает тройка, семёрки бьют шестёрки",
    ),
    "three of a kind": Example(
        ["Q♠ Q♥ Q♦ 7♠ 4♣", "J♠ J♣ J ♦ A♦ K♣"], "standard", (0,),  # 'J ♦' as typeset in the case
        "Hand 1 wins: both Three of a Kind; the three of a kind decides, Queens beat Jacks",
        "ハンド1の勝ち：どちらもスリーカード。スリーカードで決まり、クイーンがジャックに勝ちます",
        "Побеждает рука 1: у обеих Тройка; решает тройка, дамы бьют валетов",
    ),
    "two pair, the higher pair": Example(
        ["10♠ 10♣ 8♦ 8♠ 4♥", "8♥ 8♣ 4♠ 4♣ 10♥"], "standard", (0,),
        "Hand 1 wins: both Two Pair; the higher pair decides, Tens beat Eights",
        "ハンド1の勝ち：どちらもツーペア。高いほうのペアで決まり、10が8に勝ちます",
        "Побеждает рука 1: у обеих Две пары; решает старшая пара, десятки бьют восьмёрки",
    ),
    "two pair, the lower pair": Example(
        # The case's own example shares 4♠ between the hands: two decks.
        ["10♠ 10♣ 8♥ 8♣ 4♠", "10♦ 10♥ 4♠ 4♥ Q♥"], "standard", (0,),
        "Hand 1 wins: both Two Pair of Tens; the lower pair decides, Eights beat Fours",
        "ハンド1の勝ち：どちらも10のツーペア。低いほうのペアで決まり、8が4に勝ちます",
        "Побеждает рука 1: у обеих Две пары десяток; решает младшая пара, восьмёрки бьют четвёрки",
        decks=2,
    ),
}

JAPANESE_TEXT = {
    "high card, the third card": Example(
        ranks("A-J-9-5-3", "A-J-8-7-6"), "standard", (0,),
        "Hand 1 wins: both High Card; the third card decides, 9 beats 8",
        "ハンド1の勝ち：どちらもハイカード。3枚目で決まり、9が8に勝ちます",
        "Побеждает рука 1: у обеих Старшая карта; решает третья карта, 9 бьёт 8",
        decks=2,
    ),
    "flush, the third card": Example(
        ["A♠ J♠ 9♠ 5♠ 3♠", "A♥ J♥ 8♥ 7♥ 6♥"], "standard", (0,),
        "Hand 1 wins: both Flush; the third card decides, 9 beats 8",
        "ハンド1の勝ち：どちらもフラッシュ。3枚目で決まり、9が8に勝ちます",
        "Побеждает рука 1: у обеих Флеш; решает третья карта, 9 бьёт 8",
    ),
    "one pair, the third card": Example(
        ranks("A-A-K-7-2", "A-A-Q-J-10"), "standard", (0,),
        "Hand 1 wins: both One Pair of Aces; the third card decides, K beats Q",
        "ハンド1の勝ち：どちらもエースのワンペア。3枚目で決まり、KがQに勝ちます",
        "Побеждает рука 1: у обеих Пара тузов; решает третья карта, К бьёт Д",
        decks=2,
    ),
    "two pair, K 4 A against Q J K": Example(
        ranks("K-K-4-4-A", "Q-Q-J-J-K"), "standard", (0,),
        "Hand 1 wins: both Two Pair; the higher pair decides, Kings beat Queens",
        "ハンド1の勝ち：どちらもツーペア。高いほうのペアで決まり、キングがクイーンに勝ちます",
        "Побеждает рука 1: у обеих Две пары; решает старшая пара, короли бьют дам",
        decks=2,
    ),
    "full house, the three of a kind": Example(
        ranks("3-3-3-A-A", "2-2-2-K-K"), "standard", (0,),
        "Hand 1 wins: both Full House; the three of a kind decides, Threes beat Twos",
        "ハンド1の勝ち：どちらもフルハウス。スリーカードで決まり、3が2に勝ちます",
        "Побеждает рука 1: у обеих Фулл-хаус; решает тройка, тройки бьют двойки",
        decks=2,
    ),
    "the wheel loses to 2-6": Example(
        ranks("2-3-4-5-6", "A-2-3-4-5"), "standard", (0,),
        "Hand 1 wins: both Straight; the top card decides, 6 beats 5 (the ace plays low in 5-4-3-2-A)",
        "ハンド1の勝ち：どちらもストレート。一番上のカードで決まり、6が5に勝ちます（5-4-3-2-Aではエースは低く扱われます）",
        "Побеждает рука 1: у обеих Стрит; решает старшая карта, 6 бьёт 5 (в 5-4-3-2-Т туз играет как младшая карта)",
        decks=2,
    ),
    "the ace high in 10-A": Example(
        ranks("A-K-Q-J-10", "K-Q-J-10-9"), "standard", (0,),
        "Hand 1 wins: both Straight; the top card decides, A beats K",
        "ハンド1の勝ち：どちらもストレート。一番上のカードで決まり、AがKに勝ちます",
        "Побеждает рука 1: у обеих Стрит; решает старшая карта, Т бьёт К",
        decks=2,
    ),
    "the pot is split": Example(
        ["A♠ A♥ K♣ Q♦ J♠", "A♣ A♦ K♥ Q♠ J♦"], "standard", (0, 1),
        "Draw: both One Pair, Aces, K-Q-J kickers; suits never break ties",
        "引き分け：どちらもワンペア（エース、キッカーK-Q-J）。スートで同点は決まりません",
        "Ничья: у обеих Пара, тузы, кикеры К-Д-В; масть ничью не решает",
    ),
    "spades and hearts flushes are one hand": Example(
        ["A♠ J♠ 9♠ 5♠ 3♠", "A♥ J♥ 9♥ 5♥ 3♥"], "standard", (0, 1),
        "Draw: both Flush, A-J-9-5-3; suits never break ties",
        "引き分け：どちらもフラッシュ（A-J-9-5-3）。スートで同点は決まりません",
        "Ничья: у обеих Флеш, Т-В-9-5-3; масть ничью не решает",
    ),
}

JOKER_POKER = {
    "high card tie": Example(
        ["AS KH QD 10C 9S", "AH KD QC 10S 9H"], "joker", (0, 1),
        "Draw: both High Card, A-K-Q-10-9; suits never break ties",
        "引き分け：どちらもハイカード（A-K-Q-10-9）。スートで同点は決まりません",
        "Ничья: у обеих Старшая карта, Т-К-Д-10-9; масть ничью не решает",
    ),
    "a pair of Kings beats a pair of 9s": Example(
        ["KS KH 7D 4C 2S", "9S 9H 8D 5C 3S"], "joker", (0,),
        "Hand 1 wins: both One Pair; the pair decides, Kings beat Nines",
        "ハンド1の勝ち：どちらもワンペア。ペアで決まり、キングが9に勝ちます",
        "Побеждает рука 1: у обеих Пара; решает пара, короли бьют девятки",
    ),
    "one pair tie": Example(
        ["KS KH AD JC 10S", "KD KC AH JS 10H"], "joker", (0, 1),
        "Draw: both One Pair, Kings, A-J-10 kickers; suits never break ties",
        "引き分け：どちらもワンペア（キング、キッカーA-J-10）。スートで同点は決まりません",
        "Ничья: у обеих Пара, короли, кикеры Т-В-10; масть ничью не решает",
    ),
    "two pair, the fifth card": Example(
        ["AS AH JD JC 10S", "AD AC JS JH QH"], "joker", (1,),
        "Hand 2 wins: both Two Pair of Aces and Jacks; the fifth card decides, Q beats 10",
        "ハンド2の勝ち：どちらもエースとジャックのツーペア。5枚目で決まり、Qが10に勝ちます",
        "Побеждает рука 2: у обеих Две пары тузов и валетов; решает пятая карта, Д бьёт 10",
    ),
    "three aces tie": Example(
        ["AS AH AD QC 9S", "AC JK JK QH 9D"], "joker", (0, 1),
        "Draw: both Three of a Kind, Aces, Q-9 kickers; a natural hand and a wild hand of equal value draw",
        "引き分け：どちらもスリーカード（エース、キッカーQ-9）。同じ強さのナチュラルとワイルドのハンドは引き分けです",
        "Ничья: у обеих Тройка, тузы, кикеры Д-9; натуральная рука и рука с дикой картой равной силы играют вничью",
    ),
    "ace to 10 beats king to 9": Example(
        ["AS KH QD JC 10S", "KD QC JS 10H 9H"], "joker", (0,),
        "Hand 1 wins: both Straight; the top card decides, A beats K",
        "ハンド1の勝ち：どちらもストレート。一番上のカードで決まり、AがKに勝ちます",
        "Побеждает рука 1: у обеих Стрит; решает старшая карта, Т бьёт К",
    ),
    "two ace to 10 straights tie": Example(
        ["AS KH QD JC 10S", "AH KD QC JS 10H"], "joker", (0, 1),
        "Draw: both Straight, Ace high; suits never break ties",
        "引き分け：どちらもストレート（エースハイ）。スートで同点は決まりません",
        "Ничья: у обеих Стрит, до туза; масть ничью не решает",
    ),
    "spades against diamonds flushes tie": Example(
        ["AS JS 9S 5S 3S", "AD JD 9D 5D 3D"], "joker", (0, 1),
        "Draw: both Flush, A-J-9-5-3; suits never break ties",
        "引き分け：どちらもフラッシュ（A-J-9-5-3）。スートで同点は決まりません",
        "Ничья: у обеих Флеш, Т-В-9-5-3; масть ничью не решает",
    ),
    "AAA99 loses to AAAQQ": Example(
        ["AS AH JK 9S 9H", "AD AC JK QS QH"], "joker", (1,),
        "Hand 2 wins: both Full House of Aces; the pair decides, Queens beat Nines",
        "ハンド2の勝ち：どちらもエースのフルハウス。ペアで決まり、クイーンが9に勝ちます",
        "Побеждает рука 2: у обеих Фулл-хаус тузов; решает пара, дамы бьют девятки",
    ),
    "four queens beat four tens": Example(
        ["QS QH QD QC 2S", "10S 10H 10D 10C 3S"], "joker", (0,),
        "Hand 1 wins: both Four of a Kind; the four of a kind decides, Queens beat Tens",
        "ハンド1の勝ち：どちらもフォーカード。フォーカードで決まり、クイーンが10に勝ちます",
        "Побеждает рука 1: у обеих Каре; решает каре, дамы бьют десятки",
    ),
    "straight flushes in spades and diamonds tie": Example(
        ["KS QS JS 10S 9S", "KD QD JD 10D 9D"], "joker", (0, 1),
        "Draw: both Straight Flush, King high; suits never break ties",
        "引き分け：どちらもストレートフラッシュ（キングハイ）。スートで同点は決まりません",
        "Ничья: у обеих Стрит-флеш, до короля; масть ничью не решает",
    ),
    "royal flushes tie": Example(
        ["AS KS QS JS 10S", "AD KD QD JD 10D"], "joker", (0, 1),
        "Draw: both Royal Flush; suits never break ties",
        "引き分け：どちらもロイヤルフラッシュ。スートで同点は決まりません",
        "Ничья: у обеих Роял-флеш; масть ничью не решает",
    ),
    "a royal flush beats a straight flush": Example(
        ["AS KS QS JS 10S", "KD QD JD 10D 9D"], "joker", (0,),
        "Hand 1 wins: Royal Flush beats Straight Flush",
        "ハンド1の勝ち：ロイヤルフラッシュがストレートフラッシュに勝ちます",
        "Побеждает рука 1: Роял-флеш старше, чем Стрит-флеш",
    ),
    "five of a kind beats a royal flush": Example(
        ["JK 7H 7D 7S 7C", "AS KS QS JS 10S"], "joker", (0,),
        "Hand 1 wins: Five of a Kind beats Royal Flush",
        "ハンド1の勝ち：ファイブカードがロイヤルフラッシュに勝ちます",
        "Побеждает рука 1: Покер старше, чем Роял-флеш",
    ),
    "a natural and a wild royal flush": Example(
        ["AS KS QS JS 10S", "AH KH QH JK 10H"], "joker", (0, 1),
        "Draw: both Royal Flush; a natural hand and a wild hand of equal value draw",
        "引き分け：どちらもロイヤルフラッシュ。同じ強さのナチュラルとワイルドのハンドは引き分けです",
        "Ничья: у обеих Роял-флеш; натуральная рука и рука с дикой картой равной силы играют вничью",
    ),
}

# Semi-Poker's "beats" table, under its own rules (ranks only: no suits, so
# no word about suits), each with its reason: (en, ja, ru).
SEMI_POKER_SAID = [
    ("both Four of a Kind; the four of a kind decides, Queens beat Sevens",
     "どちらもフォーカード。フォーカードで決まり、クイーンが7に勝ちます",
     "у обеих Каре; решает каре, дамы бьют семёрки"),
    ("both Four of a Kind of Queens; the fifth card decides, 9 beats 5",
     "どちらもクイーンのフォーカード。5枚目で決まり、9が5に勝ちます",
     "у обеих Каре дам; решает пятая карта, 9 бьёт 5"),
    ("both Full House; the three of a kind decides, Sevens beat Threes",
     "どちらもフルハウス。スリーカードで決まり、7が3に勝ちます",
     "у обеих Фулл-хаус; решает тройка, семёрки бьют тройки"),
    ("both Full House; the three of a kind decides, Sevens beat Threes",
     "どちらもフルハウス。スリーカードで決まり、7が3に勝ちます",
     "у обеих Фулл-хаус; решает тройка, семёрки бьют тройки"),
    ("both Straight; the top card decides, J beats 6",
     "どちらもストレート。一番上のカードで決まり、Jが6に勝ちます",
     "у обеих Стрит; решает старшая карта, В бьёт 6"),
    ("both Three of a Kind; the three of a kind decides, Aces beat Twos",
     "どちらもスリーカード。スリーカードで決まり、エースが2に勝ちます",
     "у обеих Тройка; решает тройка, тузы бьют двойки"),
    ("both Three of a Kind of Aces; the fourth card decides, Q beats J",
     "どちらもエースのスリーカード。4枚目で決まり、QがJに勝ちます",
     "у обеих Тройка тузов; решает четвёртая карта, Д бьёт В"),
    ("both Three of a Kind of Aces; the fifth card decides, 5 beats 4",
     "どちらもエースのスリーカード。5枚目で決まり、5が4に勝ちます",
     "у обеих Тройка тузов; решает пятая карта, 5 бьёт 4"),
    ("both Two Pair; the higher pair decides, Tens beat Sixes",
     "どちらもツーペア。高いほうのペアで決まり、10が6に勝ちます",
     "у обеих Две пары; решает старшая пара, десятки бьют шестёрки"),
    ("both Two Pair; the higher pair decides, Tens beat Fives",
     "どちらもツーペア。高いほうのペアで決まり、10が5に勝ちます",
     "у обеих Две пары; решает старшая пара, десятки бьют пятёрки"),
    ("both Two Pair of Tens and Threes; the fifth card decides, 9 beats 4",
     "どちらも10と3のツーペア。5枚目で決まり、9が4に勝ちます",
     "у обеих Две пары десяток и троек; решает пятая карта, 9 бьёт 4"),
    ("both One Pair; the pair decides, Kings beat Queens",
     "どちらもワンペア。ペアで決まり、キングがクイーンに勝ちます",
     "у обеих Пара; решает пара, короли бьют дам"),
    ("both One Pair of Kings; the third card decides, 9 beats 7",
     "どちらもキングのワンペア。3枚目で決まり、9が7に勝ちます",
     "у обеих Пара королей; решает третья карта, 9 бьёт 7"),
    ("both One Pair of Kings; the fourth card decides, 7 beats 5",
     "どちらもキングのワンペア。4枚目で決まり、7が5に勝ちます",
     "у обеих Пара королей; решает четвёртая карта, 7 бьёт 5"),
    ("both One Pair of Kings; the fifth card decides, 4 beats 3",
     "どちらもキングのワンペア。5枚目で決まり、4が3に勝ちます",
     "у обеих Пара королей; решает пятая карта, 4 бьёт 3"),
    ("both High Card; the first card decides, 9 beats 7",
     "どちらもハイカード。1枚目で決まり、9が7に勝ちます",
     "у обеих Старшая карта; решает первая карта, 9 бьёт 7"),
    ("both High Card; the second card decides, 8 beats 5",
     "どちらもハイカード。2枚目で決まり、8が5に勝ちます",
     "у обеих Старшая карта; решает вторая карта, 8 бьёт 5"),
    ("both High Card; the third card decides, 5 beats 4",
     "どちらもハイカード。3枚目で決まり、5が4に勝ちます",
     "у обеих Старшая карта; решает третья карта, 5 бьёт 4"),
    ("both High Card; the fourth card decides, 4 beats 3",
     "どちらもハイカード。4枚目で決まり、4が3に勝ちます",
     "у обеих Старшая карта; решает четвёртая карта, 4 бьёт 3"),
    ("both High Card; the fifth card decides, 3 beats 2",
     "どちらもハイカード。5枚目で決まり、3が2に勝ちます",
     "у обеих Старшая карта; решает пятая карта, 3 бьёт 2"),
]
assert len(SEMI_POKER_SAID) == len(SEMI_POKER_BEATS)

SEMI_POKER = {
    f"{better} beats {worse}": Example(
        [better, worse], "semi", (0,),
        f"Hand 1 wins: {en}", f"ハンド1の勝ち：{ja}", f"Побеждает рука 1: {ru}",
    )
    for (better, worse), (en, ja, ru) in zip(SEMI_POKER_BEATS, SEMI_POKER_SAID)
}

RUSSIAN_LADDER = {
    "ace-king, the jack beats the ten": Example(
        ranks("A-K-J-3-2", "A-K-10-9-8"), "ace-king", (0,),
        "Hand 1 wins: both Ace-King; the third card decides, J beats 10",
        "ハンド1の勝ち：どちらもエース・キング。3枚目で決まり、Jが10に勝ちます",
        "Побеждает рука 1: у обеих Туз-король; решает третья карта, В бьёт 10",
        decks=2,
    ),
    "the paired cards are compared": Example(
        ranks("5-5-4-3-2", "4-4-A-K-Q"), "ace-king", (0,),
        "Hand 1 wins: both One Pair; the pair decides, Fives beat Fours",
        "ハンド1の勝ち：どちらもワンペア。ペアで決まり、5が4に勝ちます",
        "Побеждает рука 1: у обеих Пара; решает пара, пятёрки бьют четвёрки",
        decks=2,
    ),
    "the queen beats the jack": Example(
        ranks("5-5-Q-3-2", "5-5-J-10-9"), "ace-king", (0,),
        "Hand 1 wins: both One Pair of Fives; the third card decides, Q beats J",
        "ハンド1の勝ち：どちらも5のワンペア。3枚目で決まり、QがJに勝ちます",
        "Побеждает рука 1: у обеих Пара пятёрок; решает третья карта, Д бьёт В",
        decks=2,
    ),
    "the higher pair": Example(
        ranks("A-A-2-2-3", "K-K-Q-Q-A"), "ace-king", (0,),
        "Hand 1 wins: both Two Pair; the higher pair decides, Aces beat Kings",
        "ハンド1の勝ち：どちらもツーペア。高いほうのペアで決まり、エースがキングに勝ちます",
        "Побеждает рука 1: у обеих Две пары; решает старшая пара, тузы бьют королей",
        decks=2,
    ),
    "the oldest and the youngest straight": Example(
        ranks("A-K-Q-J-10", "5-4-3-2-A"), "ace-king", (0,),
        "Hand 1 wins: both Straight; the top card decides, A beats 5 (the ace plays low in 5-4-3-2-A)",
        "ハンド1の勝ち：どちらもストレート。一番上のカードで決まり、Aが5に勝ちます（5-4-3-2-Aではエースは低く扱われます）",
        "Побеждает рука 1: у обеих Стрит; решает старшая карта, Т бьёт 5 (в 5-4-3-2-Т туз играет как младшая карта)",
        decks=2,
    ),
    "the three counts before the pair": Example(
        ranks("3-3-3-2-2", "2-2-2-A-A"), "ace-king", (0,),
        "Hand 1 wins: both Full House; the three of a kind decides, Threes beat Twos",
        "ハンド1の勝ち：どちらもフルハウス。スリーカードで決まり、3が2に勝ちます",
        "Побеждает рука 1: у обеих Фулл-хаус; решает тройка, тройки бьют двойки",
        decks=2,
    ),
    "a pair beats ace-king": Example(
        ranks("2-2-7-5-3", "A-K-Q-J-9"), "ace-king", (0,),
        "Hand 1 wins: One Pair beats Ace-King",
        "ハンド1の勝ち：ワンペアがエース・キングに勝ちます",
        "Побеждает рука 1: Пара старше, чем Туз-король",
        decks=2,
    ),
    "ace-king beats an empty hand": Example(
        ranks("A-K-4-3-2", "A-Q-J-10-8"), "ace-king", (0,),
        "Hand 1 wins: Ace-King beats High Card",
        "ハンド1の勝ち：エース・キングがハイカードに勝ちます",
        "Побеждает рука 1: Туз-король старше, чем Старшая карта",
        decks=2,
    ),
    "a heart and a club royal flush are equal": Example(
        ["AH KH QH JH 10H", "AC KC QC JC 10C"], "ace-king", (0, 1),
        "Draw: both Royal Flush; suits never break ties",
        "引き分け：どちらもロイヤルフラッシュ。スートで同点は決まりません",
        "Ничья: у обеих Роял-флеш; масть ничью не решает",
    ),
}

TRADITIONS = {
    "ModelOff 2012": MODELOFF,
    "the Japanese tie-break text": JAPANESE_TEXT,
    "Joker Poker": JOKER_POKER,
    "Semi-Poker": SEMI_POKER,
    "the Russian Ace-King ladder": RUSSIAN_LADDER,
}
EXAMPLES = [
    pytest.param(example, id=f"{tradition}: {name}")
    for tradition, examples in TRADITIONS.items()
    for name, example in examples.items()
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_is_settled_and_said_in_every_language(example: Example, lang: str) -> None:
    result = showdown(example.hands, rules=example.rules, decks=example.decks, lang=lang)
    assert result.winners == example.winners
    assert result.explanation == example.said(lang)
    assert showdown(example.hands, rules=example.rules, decks=example.decks).explain(lang) == example.said(lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("example", EXAMPLES)
def test_explain_says_the_reason_whichever_hand_comes_first(example: Example, lang: str) -> None:
    """``explain(a, b)`` is the reason alone: the sentence after its head
    ("Hand 1 wins: ", "ハンド1の勝ち：", "Ничья: ")."""
    reason = example.said(lang).split(":" if lang != "ja" else "：", 1)[1].lstrip()
    a, b = example.hands
    assert explain(a, b, rules=example.rules, lang=lang) == reason
    assert explain(b, a, rules=example.rules, lang=lang) == reason


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_verdict_is_the_same_data_in_every_language(example: Example) -> None:
    """Only the sentence changes with the language; the verdict (what
    decided, where, which ranks) is data."""
    verdicts = {
        showdown(example.hands, rules=example.rules, decks=example.decks, lang=lang).verdict for lang in LANGS
    }
    assert len(verdicts) == 1


@pytest.mark.parametrize(
    ("lang", "names", "said"),
    [
        ("en", ["Player 1", "Player 2"], "Player 1 wins: Royal Flush beats Flush"),
        ("ja", ["プレイヤー1", "プレイヤー2"], "プレイヤー1の勝ち：ロイヤルフラッシュがフラッシュに勝ちます"),
        ("ru", ["Игрок 1", "Игрок 2"], "Побеждает Игрок 1: Роял-флеш старше, чем Флеш"),
    ],
)
def test_the_players_are_called_by_name(lang: str, names: list[str], said: str) -> None:
    """ModelOff's Player 1 and Player 2, by name in each language."""
    result = showdown(MODELOFF["royal flush beats flush"].hands)
    assert result.explain(lang, names=names) == said


# The hands of the Russian ladder (its eleven combinations and the hands it
# compares), described under the ace-king rules: (en, ja, ru).
RUSSIAN_LADDER_HANDS = {
    "AH KH QH JH 10H": ("Royal Flush", "ロイヤルフラッシュ", "Роял-флеш"),
    "QD JD 10D 9D 8D": ("Straight Flush, Queen high", "ストレートフラッシュ（クイーンハイ）", "Стрит-флеш, до дамы"),
    "JS JH JD JC 4S": ("Four of a Kind, Jacks, Four kicker", "フォーカード（ジャック、キッカー4）",
                       "Каре, валеты, кикер четвёрка"),
    "6S 6H 6D KC KS": ("Full House, Sixes over Kings", "フルハウス（6とキング）", "Фулл-хаус, шестёрки и короли"),
    "9S 8H 7D 6C 5S": ("Straight, Nine high", "ストレート（9ハイ）", "Стрит, до девятки"),
    "5S 4H 3D 2C AS": ("Straight, Five high", "ストレート（5ハイ）", "Стрит, до пятёрки"),
    "9S 9H 9D QC 4S": ("Three of a Kind, Nines, Q-4 kickers", "スリーカード（9、キッカーQ-4）",
                       "Тройка, девятки, кикеры Д-4"),
    "AS AH 5D 5C 10S": ("Two Pair, Aces and Fives, Ten kicker", "ツーペア（エースと5、キッカー10）",
                        "Две пары, тузы и пятёрки, кикер десятка"),
    "8S 8H KD 4C 2S": ("One Pair, Eights, K-4-2 kickers", "ワンペア（8、キッカーK-4-2）",
                       "Пара, восьмёрки, кикеры К-4-2"),
    "AS KH 8D 7C 3S": ("Ace-King, A-K-8-7-3", "エース・キング（A-K-8-7-3）", "Туз-король, Т-К-8-7-3"),
    "4S 3H 2D AC KS": ("Ace-King, A-K-4-3-2", "エース・キング（A-K-4-3-2）", "Туз-король, Т-К-4-3-2"),
    "3S 2H AD KC QS": ("Ace-King, A-K-Q-3-2", "エース・キング（A-K-Q-3-2）", "Туз-король, Т-К-Д-3-2"),
    "JS 10H 7D 5C 2S": ("High Card, J-10-7-5-2", "ハイカード（J-10-7-5-2）", "Старшая карта, В-10-7-5-2"),
    "A K J 3 2": ("Ace-King, A-K-J-3-2", "エース・キング（A-K-J-3-2）", "Туз-король, Т-К-В-3-2"),
    "A K 10 9 8": ("Ace-King, A-K-10-9-8", "エース・キング（A-K-10-9-8）", "Туз-король, Т-К-10-9-8"),
    "5 5 4 3 2": ("One Pair, Fives, 4-3-2 kickers", "ワンペア（5、キッカー4-3-2）", "Пара, пятёрки, кикеры 4-3-2"),
    "4 4 A K Q": ("One Pair, Fours, A-K-Q kickers", "ワンペア（4、キッカーA-K-Q）", "Пара, четвёрки, кикеры Т-К-Д"),
    "5 5 Q 3 2": ("One Pair, Fives, Q-3-2 kickers", "ワンペア（5、キッカーQ-3-2）", "Пара, пятёрки, кикеры Д-3-2"),
    "5 5 J 10 9": ("One Pair, Fives, J-10-9 kickers", "ワンペア（5、キッカーJ-10-9）",
                   "Пара, пятёрки, кикеры В-10-9"),
    "A A 2 2 3": ("Two Pair, Aces and Twos, Three kicker", "ツーペア（エースと2、キッカー3）",
                  "Две пары, тузы и двойки, кикер тройка"),
    "K K Q Q A": ("Two Pair, Kings and Queens, Ace kicker", "ツーペア（キングとクイーン、キッカーA）",
                  "Две пары, короли и дамы, кикер туз"),
    "3 3 3 2 2": ("Full House, Threes over Twos", "フルハウス（3と2）", "Фулл-хаус, тройки и двойки"),
    "2 2 2 A A": ("Full House, Twos over Aces", "フルハウス（2とエース）", "Фулл-хаус, двойки и тузы"),
}

# The hands of the Japanese tie-break text, described under the standard rules.
JAPANESE_TEXT_HANDS = {
    "K K 4 4 A": ("Two Pair, Kings and Fours, Ace kicker", "ツーペア（キングと4、キッカーA）",
                  "Две пары, короли и четвёрки, кикер туз"),
    "Q Q J J K": ("Two Pair, Queens and Jacks, King kicker", "ツーペア（クイーンとジャック、キッカーK）",
                  "Две пары, дамы и валеты, кикер король"),
    "A J 9 5 3": ("High Card, A-J-9-5-3", "ハイカード（A-J-9-5-3）", "Старшая карта, Т-В-9-5-3"),
    "A J 8 7 6": ("High Card, A-J-8-7-6", "ハイカード（A-J-8-7-6）", "Старшая карта, Т-В-8-7-6"),
    "A A K 7 2": ("One Pair, Aces, K-7-2 kickers", "ワンペア（エース、キッカーK-7-2）", "Пара, тузы, кикеры К-7-2"),
    "A A Q J 10": ("One Pair, Aces, Q-J-10 kickers", "ワンペア（エース、キッカーQ-J-10）",
                   "Пара, тузы, кикеры Д-В-10"),
    "3 3 3 A A": ("Full House, Threes over Aces", "フルハウス（3とエース）", "Фулл-хаус, тройки и тузы"),
    "2 2 2 K K": ("Full House, Twos over Kings", "フルハウス（2とキング）", "Фулл-хаус, двойки и короли"),
    "10 J Q K A": ("Straight, Ace high", "ストレート（エースハイ）", "Стрит, до туза"),
    "A 2 3 4 5": ("Straight, Five high", "ストレート（5ハイ）", "Стрит, до пятёрки"),
    "2 3 4 5 6": ("Straight, Six high", "ストレート（6ハイ）", "Стрит, до шестёрки"),
    "Q K A 2 3": ("High Card, A-K-Q-3-2", "ハイカード（A-K-Q-3-2）", "Старшая карта, Т-К-Д-3-2"),
    "A♠ A♥ K♣ Q♦ J♠": ("One Pair, Aces, K-Q-J kickers", "ワンペア（エース、キッカーK-Q-J）",
                       "Пара, тузы, кикеры К-Д-В"),
    "A♠ J♠ 9♠ 5♠ 3♠": ("Flush, A-J-9-5-3", "フラッシュ（A-J-9-5-3）", "Флеш, Т-В-9-5-3"),
    "7 5 4 3 2": ("High Card, 7-5-4-3-2", "ハイカード（7-5-4-3-2）", "Старшая карта, 7-5-4-3-2"),
    "A♠ K♠ Q♠ J♠ 10♠": ("Royal Flush", "ロイヤルフラッシュ", "Роял-флеш"),
}


# ModelOff 2012's Table 3, a hand of each category (and the ace low in a
# low straight), under the standard rules.
MODELOFF_HANDS = {
    "A♦ K♦ Q♦ J♦ 10♦": ("Royal Flush", "ロイヤルフラッシュ", "Роял-флеш"),
    "Q♣ J♣ 10♣ 9♣ 8♣": ("Straight Flush, Queen high", "ストレートフラッシュ（クイーンハイ）", "Стрит-флеш, до дамы"),
    "9♣ 9♠ 9♦ 9♥ J♥": ("Four of a Kind, Nines, Jack kicker", "フォーカード（9、キッカーJ）",
                        "Каре, девятки, кикер валет"),
    "3♣ 3♠ 3♦ 6♣ 6♥": ("Full House, Threes over Sixes", "フルハウス（3と6）", "Фулл-хаус, тройки и шестёрки"),
    "Q♣ 10♣ 7♣ 6♣ 4♣": ("Flush, Q-10-7-6-4", "フラッシュ（Q-10-7-6-4）", "Флеш, Д-10-7-6-4"),
    "Q♣ J♠ 10♠ 9♥ 8♥": ("Straight, Queen high", "ストレート（クイーンハイ）", "Стрит, до дамы"),
    "2♦ 2♠ 2♣ K♠ 6♥": ("Three of a Kind, Twos, K-6 kickers", "スリーカード（2、キッカーK-6）",
                        "Тройка, двойки, кикеры К-6"),
    "J♥ J♣ 4♣ 4♠ 9♥": ("Two Pair, Jacks and Fours, Nine kicker", "ツーペア（ジャックと4、キッカー9）",
                        "Две пары, валеты и четвёрки, кикер девятка"),
    "4♥ 4♠ K♠ 10♦ 5♠": ("One Pair, Fours, K-10-5 kickers", "ワンペア（4、キッカーK-10-5）",
                         "Пара, четвёрки, кикеры К-10-5"),
    "K♥ J♥ 8♣ 7♦ 4♠": ("High Card, K-J-8-7-4", "ハイカード（K-J-8-7-4）", "Старшая карта, К-В-8-7-4"),
    "A♥ 2♥ 3♠ 4♥ 5♣": ("Straight, Five high", "ストレート（5ハイ）", "Стрит, до пятёрки"),
}

# Semi-Poker's hand of each category, under its own rules (ranks only).
SEMI_POKER_HANDS_SAID = {
    "9, 9, 9, 9, 3": ("Four of a Kind, Nines, Three kicker", "フォーカード（9、キッカー3）",
                      "Каре, девятки, кикер тройка"),
    "4, Q, 4, 4, Q": ("Full House, Fours over Queens", "フルハウス（4とクイーン）", "Фулл-хаус, четвёрки и дамы"),
    "2, 3, 4, 5, 6": ("Straight, Six high", "ストレート（6ハイ）", "Стрит, до шестёрки"),
    "Q, A, 5, A, A": ("Three of a Kind, Aces, Q-5 kickers", "スリーカード（エース、キッカーQ-5）",
                      "Тройка, тузы, кикеры Д-5"),
    "9, 10, 3, 3, 10": ("Two Pair, Tens and Threes, Nine kicker", "ツーペア（10と3、キッカー9）",
                        "Две пары, десятки и тройки, кикер девятка"),
    "K, 4, 7, K, 9": ("One Pair, Kings, 9-7-4 kickers", "ワンペア（キング、キッカー9-7-4）",
                      "Пара, короли, кикеры 9-7-4"),
    "2, 3, 9, 8, 4": ("High Card, 9-8-4-3-2", "ハイカード（9-8-4-3-2）", "Старшая карта, 9-8-4-3-2"),
}

RANKS = {*"23456789JQKA", "10"}


def hand_of(text: str) -> str | Hand:
    """A hand written by ranks alone (``K K 4 4 A``) gets suits that make
    no flush; one written by cards is those cards."""
    return ranked(text) if set(text.split()) <= RANKS else text


HANDS = {
    "the Russian Ace-King ladder": ("ace-king", RUSSIAN_LADDER_HANDS),
    "the Japanese tie-break text": ("standard", JAPANESE_TEXT_HANDS),
    "ModelOff 2012": ("standard", MODELOFF_HANDS),
    "Semi-Poker": ("semi", SEMI_POKER_HANDS_SAID),
}


@pytest.mark.parametrize(("rules", "text", "said"), [
    pytest.param(rules, text, said, id=f"{tradition}: {text}")
    for tradition, (rules, hands) in HANDS.items()
    for text, said in hands.items()
])
def test_every_hand_of_the_traditions_is_described_in_every_language(
    rules: str, text: str, said: tuple[str, str, str]
) -> None:
    hand_class = evaluate(hand_of(text), rules=rules).hand_class
    for lang, sentence in zip(LANGS, said):
        assert describe(hand_class, lang) == sentence, lang
    assert describe(hand_class) == said[0]
