"""Errors said in the user's language: every error of typing cards, hands,
showdowns and rule-set names in English (as before), Japanese and Russian,
with the place it happened ("hand 2: ", "the board: ") said too."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import cast

import pytest

from fivecard import FivecardError, Hand, evaluate, showdown
from fivecard.core import cards
from fivecard.core.cards import parse_card, parse_card_at, parse_cards
from fivecard.core.errors import HandError, Listed, Phrase, in_context, phrase
from fivecard.core.hand import as_hand
from fivecard.core.lang import language
from fivecard.core.rules import get_rules, wild_on, wild_rules
from fivecard.core.showdown import check_decks
from fivecard.core.words import error_text

CARD_ERRORS = [
    pytest.param(
        lambda: parse_card("As Kd"),
        "expected one card, got 2 in 'As Kd'",
        "カードは 1 枚のはずですが、'As Kd' には 2 枚あります",
        "ожидалась одна карта, а в 'As Kd' их 2",
        id='one_card',
    ),
    pytest.param(
        lambda: parse_card_at("  ", 2),
        "card 2 ('  ') holds no card; a list of cards takes one card per item",
        "項目 2（'  '）にカードがありません。カードのリストでは 1 項目に 1 枚ずつ書いてください",
        "элемент 2 ('  ') не содержит ни одной карты; в списке карт должно быть по одной карте на элемент",
        id='no_card',
    ),
    pytest.param(
        lambda: parse_card_at("AS KD 7C", 2),
        "card 2 ('AS KD 7C') holds 3 cards; a list of cards takes one card per item",
        "項目 2（'AS KD 7C'）に 3 枚のカードがあります。カードのリストでは 1 項目に 1 枚ずつ書いてください",
        "элемент 2 ('AS KD 7C') содержит 3 карты; в списке карт должно быть по одной карте на элемент",
        id='cards_in_item',
    ),
    pytest.param(
        lambda: parse_cards("As\nKd"),
        'line break inside a list of cards (write one hand per line)',
        'カードのリストの途中に改行があります（1 行に 1 ハンドずつ書いてください）',
        'перенос строки внутри списка карт (пишите по одной руке в строке)',
        id='line_break',
    ),
    pytest.param(
        lambda: parse_cards("As-Kd"),
        "cards are separated by spaces or commas, not '-': card 2 ('-K') of 'As-Kd'",
        "カードはスペースかカンマで区切ってください。'-' では区切れません：'As-Kd' のカード 2（'-K'）",
        "карты разделяются пробелами или запятыми, а не '-' (в карте 2 ('-K') из 'As-Kd')",
        id='separator',
    ),
    pytest.param(
        lambda: parse_cards("AsKd7x"),
        "cards written together must each be a rank and a suit, a joker or a Unicode card: card 3 ('7x') of 'AsKd7x'",
        "続けて書くカードは、それぞれランクとスート、ジョーカー、または Unicode のカードにしてください：'AsKd7x' のカード 3（'7x'）",
        "каждая из карт, записанных слитно, должна быть рангом с мастью, джокером или картой Unicode (в карте 3 ('7x') из 'AsKd7x')",
        id='together',
    ),
    pytest.param(
        lambda: parse_cards("\U0001f0ac"),
        "a knight (U+1F0AC) is in no poker deck: card 1 ('🂬')",
        "ナイト（U+1F0AC）はポーカーのデッキにはありません：カード 1（'🂬'）",
        "рыцаря (U+1F0AC) нет ни в одной покерной колоде (в карте 1 ('🂬'))",
        id='knight',
    ),
    pytest.param(
        lambda: parse_cards("\U0001f0a1\U0001f0ac"),
        "a knight (U+1F0AC) is in no poker deck: card 2 ('🂬') of '🂡🂬'",
        "ナイト（U+1F0AC）はポーカーのデッキにはありません：'🂡🂬' のカード 2（'🂬'）",
        "рыцаря (U+1F0AC) нет ни в одной покерной колоде (в карте 2 ('🂬') из '🂡🂬')",
        id='knight_together',
    ),
    pytest.param(
        lambda: parse_cards("A\udcff"),
        "unexpected character U+DCFF (a lone surrogate, not a character) in card 1 ('A\\udcff')",
        "カード 1（'A\\udcff'）に予期しない文字 U+DCFF（対になっていないサロゲートで、文字ではありません）があります",
        "неожиданный символ U+DCFF (одиночный суррогат, а не символ) в карте 1 ('A\\udcff')",
        id='surrogate',
    ),
    pytest.param(
        lambda: parse_cards("A\x07"),
        "unexpected character U+0007 (control character) in card 1 ('A\\x07')",
        "カード 1（'A\\x07'）に予期しない文字 U+0007（制御文字）があります",
        "неожиданный символ U+0007 (управляющий символ) в карте 1 ('A\\x07')",
        id='control',
    ),
    pytest.param(
        lambda: parse_cards("A\u00a0\u200b"),
        "unexpected character U+200B (ZERO WIDTH SPACE) in card 2 ('\\u200b')",
        "カード 2（'\\u200b'）に予期しない文字 U+200B（ZERO WIDTH SPACE）があります",
        "неожиданный символ U+200B (ZERO WIDTH SPACE) в карте 2 ('\\u200b')",
        id='character',
    ),
    pytest.param(
        lambda: parse_cards("As ч"),
        "suit without a rank in card 2 ('ч')",
        "カード 2（'ч'）にはスートだけでランクがありません",
        "масть без ранга в карте 2 ('ч')",
        id='lone_suit',
    ),
    pytest.param(
        lambda: parse_cards("1S"),
        "unknown rank '1' in card 1 ('1S')",
        "カード 1（'1S'）のランク '1' がわかりません",
        "неизвестный ранг '1' в карте 1 ('1S')",
        id='rank',
    ),
    pytest.param(
        lambda: parse_cards("Тx"),
        "unknown suit 'x' in card 1 ('Тx')",
        "カード 1（'Тx'）のスート 'x' がわかりません",
        "неизвестная масть 'x' в карте 1 ('Тx')",
        id='suit',
    ),
    pytest.param(
        lambda: parse_cards("zz"),
        "unknown card 'zz' (card 1): expected a rank (2-10 or T, J, Q, K, A) followed by a suit (C, D, H, S or ♣ ♦ ♥ ♠), a rank alone, or a joker (JK)",
        "'zz'（カード 1）はカードとして読めません。ランク（2-10 または T, J, Q, K, A）に続けてスート（C, D, H, S または ♣ ♦ ♥ ♠）、ランクだけ、またはジョーカー（JK）を書いてください",
        "неизвестная карта 'zz' (карта 1): ожидается ранг (2-10 или T, J, Q, K, A; по-русски В, Д, К, Т) и за ним масть (C, D, H, S или ♣ ♦ ♥ ♠; по-русски п, т, б, ч), ранг без масти или джокер (JK)",
        id='card',
    ),
    pytest.param(
        lambda: parse_cards("Т пики"),
        "the suit 'пики' in card 2 ('пики') is written as one letter or symbol: п or ♠",
        "カード 2（'пики'）のスート 'пики' は 1 文字か記号で書いてください：п または ♠",
        "масть 'пики' в карте 2 ('пики') пишется одной буквой или значком: п или ♠",
        id='suit_word',
    ),
    pytest.param(
        lambda: parse_cards("король"),
        "the rank 'король' in card 1 ('король') is written as one letter: К or K",
        "カード 1（'король'）のランク 'король' は 1 文字で書いてください：К または K",
        "ранг 'король' в карте 1 ('король') пишется одной буквой: К или K",
        id='rank_word',
    ),
    pytest.param(
        lambda: parse_cards("А♠"),
        "the Cyrillic letter А in card 1 ('А♠') only looks like the Latin A: type it in Latin letters, or write the card in Russian letters (ranks В, Д, К, Т; suits п, т, б, ч)",
        "カード 1（'А♠'）のキリル文字 А は、ラテン文字の A に似た別の文字です。ラテン文字で入力するか、ロシア語の文字（ランク В, Д, К, Т、スート п, т, б, ч）でカードを書いてください",
        "кириллическая буква А в карте 1 ('А♠') лишь похожа на латинскую A: наберите её латиницей или запишите карту русскими буквами (ранги В, Д, К, Т; масти п, т, б, ч)",
        id='lookalike',
    ),
    pytest.param(
        lambda: parse_cards("Ас"),
        "the Cyrillic letters А, с in card 1 ('Ас') only look like the Latin A, c: type them in Latin letters, or write the card in Russian letters (ranks В, Д, К, Т; suits п, т, б, ч)",
        "カード 1（'Ас'）のキリル文字 А, с は、ラテン文字の A, c に似た別の文字です。ラテン文字で入力するか、ロシア語の文字（ランク В, Д, К, Т、スート п, т, б, ч）でカードを書いてください",
        "кириллические буквы А, с в карте 1 ('Ас') лишь похожи на латинские A, c: наберите их латиницей или запишите карту русскими буквами (ранги В, Д, К, Т; масти п, т, б, ч)",
        id='lookalikes',
    ),
    pytest.param(
        lambda: parse_cards("Tп"),
        "card 1 ('Tп') has a Latin T (ten) before a Russian suit letter: write 10 for the ten, or the Cyrillic Т (туз) for the ace",
        "カード 1（'Tп'）では、ラテン文字の T（10）の後にロシア語のスートの文字があります。10 は「10」、エースはキリル文字の「Т」（туз）と書いてください",
        "в карте 1 ('Tп') латинская T (десятка) стоит перед русской буквой масти: десятку пишите как 10, а туза — кириллической буквой Т",
        id='latin_t',
    ),
    pytest.param(
        lambda: parse_cards("Bп"),
        "card 1 ('Bп') has a Latin B, which is no rank, before a Russian suit letter: write J or the Cyrillic В (валет) for the jack",
        "カード 1（'Bп'）では、ランクではないラテン文字の B の後にロシア語のスートの文字があります。ジャックは「J」かキリル文字の「В」（валет）と書いてください",
        "в карте 1 ('Bп') латинская B, которая не обозначает ранг, стоит перед русской буквой масти: валета пишите как J или кириллической буквой В",
        id='latin_b',
    ),
]

HAND_ERRORS = [
    pytest.param(
        lambda: Hand.parse("AS KS KD 7C"),
        "expected 5 cards, got 4 in 'AS KS KD 7C'",
        "カードは 5 枚のはずですが、4 枚あります（'AS KS KD 7C'）",
        "ожидалось 5 карт, получено 4 в 'AS KS KD 7C'",
        id='count',
    ),
    pytest.param(
        lambda: Hand.parse("AS KS KD 7C 2S 3S"),
        "expected 5 cards, got 6 (six or seven cards play their best five when asked) in 'AS KS KD 7C 2S 3S'",
        "カードは 5 枚のはずですが、6 枚あります（6 枚や 7 枚のカードは、指定すれば最も強い 5 枚で勝負します）（'AS KS KD 7C 2S 3S'）",
        "ожидалось 5 карт, получено 6 (из шести или семи карт играют лучшие пять, если об этом попросить) в 'AS KS KD 7C 2S 3S'",
        id='count_best_five',
    ),
    pytest.param(
        lambda: evaluate("AS KS KD 7C", best_five=True),
        "expected 5 to 7 cards (the best five play), got 4 in 'AS KS KD 7C'",
        "カードは 5〜7 枚のはずですが（最も強い 5 枚で勝負します）、4 枚あります（'AS KS KD 7C'）",
        "ожидалось от 5 до 7 карт (играют лучшие пять), получено 4 в 'AS KS KD 7C'",
        id='count_range',
    ),
    pytest.param(
        lambda: Hand.parse(" ".join(["AS"] * 1200)),
        "expected 5 cards, got 1,200 in 'AS AS AS AS AS AS AS AS AS AS ... AS AS AS AS AS AS AS AS AS AS' (3,599 characters)",
        "カードは 5 枚のはずですが、1,200 枚あります（'AS AS AS AS AS AS AS AS AS AS ... AS AS AS AS AS AS AS AS AS AS'（3,599文字））",
        "ожидалось 5 карт, получено 1200 в 'AS AS AS AS AS AS AS AS AS AS ... AS AS AS AS AS AS AS AS AS AS' (3 599 символов)",
        id='count_many',
    ),
    pytest.param(
        lambda: Hand.parse(""),
        "no cards (an empty hand) in ''",
        "カードがありません（空のハンド）（''）",
        "нет карт (пустая рука) в ''",
        id='empty',
    ),
    pytest.param(
        lambda: Hand.parse("AS KS AS 7C 2D"),
        "duplicate card A♠ (cards 1 and 3) in 'AS KS AS 7C 2D'",
        "カード A♠ が重複しています（カード 1 と 3）（'AS KS AS 7C 2D'）",
        "карта Т♠ повторяется (карты 1 и 3) в 'AS KS AS 7C 2D'",
        id='duplicate',
    ),
    pytest.param(
        lambda: Hand.parse("AS KS QD 7C JK"),
        "card 5 is a joker, which the standard rules do not use (jokers are wild under the joker rules) in 'AS KS QD 7C JK'",
        "カード 5 はジョーカーですが、standard のルールではジョーカーを使いません（joker のルールではジョーカーがワイルドになります）（'AS KS QD 7C JK'）",
        "карта 5 — джокер, а правила standard не используют джокеров (джокеры дикие в правилах joker) в 'AS KS QD 7C JK'",
        id='joker_not_used',
    ),
    pytest.param(
        lambda: Hand.parse("AS KS QD 7C 9"),
        "card 5 ('9') has no suit; rank-only cards are played under the semi rules in 'AS KS QD 7C 9'",
        "カード 5（'9'）にはスートがありません。ランクだけのカードは semi のルールで使います（'AS KS QD 7C 9'）",
        "у карты 5 ('9') нет масти; карты без масти играют по правилам semi в 'AS KS QD 7C 9'",
        id='no_suit',
    ),
    pytest.param(
        lambda: Hand.parse("AS KS QD 7C 2D", rules="short-deck"),
        "card 5 (2♦) is not in the short-deck deck, which holds 6 to A in 'AS KS QD 7C 2D'",
        "カード 5（2♦）は short-deck のデッキにありません。このデッキのランクは 6〜A です（'AS KS QD 7C 2D'）",
        "карты 5 (2♦) нет в колоде правил short-deck, в ней только ранги от 6 до Т в 'AS KS QD 7C 2D'",
        id='not_in_deck',
    ),
    pytest.param(
        lambda: Hand.parse("AS KS QD JK JK", rules="one-joker"),
        "card 5 is joker number 2; the one-joker rules allow at most 1 per hand in 'AS KS QD JK JK'",
        "カード 5 は 2 枚目のジョーカーです。one-joker のルールでは、ジョーカーは 1 ハンドに 1 枚までです（'AS KS QD JK JK'）",
        "карта 5 — уже джокер номер 2; правила one-joker разрешают не больше 1 на руку в 'AS KS QD JK JK'",
        id='joker_number',
    ),
    pytest.param(
        lambda: as_hand(itertools.repeat("AS")),
        'more than 1000 cards given for one hand',
        '1 つのハンドに 1000 枚を超えるカードが渡されました',
        'для одной руки дано больше 1000 карт',
        id='items',
    ),
    pytest.param(
        lambda: showdown(["AS KS QD 7C 2D", "AS 1S"]),
        "hand 2: unknown rank '1' in card 2 ('1S') of 'AS 1S'",
        "ハンド 2: カード 2（'1S'）のランク '1' がわかりません（'AS 1S' の中）",
        "рука 2: неизвестный ранг '1' в карте 2 ('1S') из 'AS 1S'",
        id='in_hand',
    ),
    pytest.param(
        lambda: evaluate("AS KS", board="QD 7C 2X", best_five=True),
        "the board: unknown suit 'X' in card 3 ('2X') of 'QD 7C 2X'",
        "ボード: カード 3（'2X'）のスート 'X' がわかりません（'QD 7C 2X' の中）",
        "общие карты: неизвестная масть 'X' в карте 3 ('2X') из 'QD 7C 2X'",
        id='board',
    ),
    pytest.param(
        lambda: evaluate("AS KS", board="QD 7C 2D KS", best_five=True),
        "duplicate card K♠ (cards 2 and 6) in 'AS KS' with the board 'QD 7C 2D KS'",
        "カード K♠ が重複しています（カード 2 と 6）（'AS KS'、ボード 'QD 7C 2D KS'）",
        "карта К♠ повторяется (карты 2 и 6) в 'AS KS' с общими картами 'QD 7C 2D KS'",
        id='with_board',
    ),
    pytest.param(
        lambda: showdown(["AS KS QD 7C 2D", "AS KH QC 7D 2C"]),
        'card A♠ is in hands 1 and 2; hands of one showdown come from one deck, which holds one of it, unless you say they come from more decks',
        'カード A♠ がハンド 1と2 にあります。1 回のショーダウンのハンドは 1 デッキから配られ、このカードは 1 枚しかありません（もっと多くのデッキから配ると指定した場合を除きます）',
        'карта Т♠ есть в руках 1 и 2; руки одного вскрытия сдаются из 1 колоды, а в ней таких карт: 1, если не указать, что колод больше',
        id='two_hands',
    ),
    pytest.param(
        lambda: check_decks(["AS KS QD 7C 2D", "AS KH QC 7D 2C", "AS AS 3C 4D 5C"], decks=2, rules="joker"),
        "hand 3: duplicate card A♠ (cards 1 and 2) in 'AS AS 3C 4D 5C'",
        "ハンド 3: カード A♠ が重複しています（カード 1 と 2）（'AS AS 3C 4D 5C'）",
        "рука 3: карта Т♠ повторяется (карты 1 и 2) в 'AS AS 3C 4D 5C'",
        id='two_decks',
    ),
    pytest.param(
        lambda: check_decks(["AS KS QD JK 2D", "AH KH QC JK 2C", "AD KD JK 4D 5C"], rules="joker"),
        '3 jokers in hands 1, 2 and 3, but one deck of the joker rules holds only 2, unless you say they come from more decks',
        'ハンド 1、2と3 にジョーカーが 3 枚ありますが、joker のルールの 1 デッキには 2 枚しかありません（もっと多くのデッキから配ると指定した場合を除きます）',
        'джокеров в руках 1, 2 и 3: 3, а в 1 колоде правил joker их только 2, если не указать, что колод больше',
        id='jokers',
    ),
    pytest.param(
        lambda: showdown([]),
        'a showdown needs at least one hand, got none',
        'ショーダウンには少なくとも 1 つのハンドが必要ですが、1 つもありません',
        'для вскрытия нужна хотя бы одна рука, а не дано ни одной',
        id='no_hands',
    ),
    pytest.param(
        lambda: check_decks(["AS KS QD 7C 2D"], decks=0),
        'the number of decks must be at least 1, got 0',
        'デッキの数は 1 以上にしてください（0 が指定されました）',
        'колод должно быть не меньше одной, получено 0',
        id='decks',
    ),
    pytest.param(
        lambda: showdown([Hand.parse("AS KS QD 7C 2D"), Hand.parse("AH KH QC 7D 2C", rules="ace-king")]),
        'hand 1 is under the standard rules and hand 2 under the ace-king rules; all hands of a showdown must be under one rule set (pass rules= to play them all under one)',
        'ハンド 1 は standard のルール、ハンド 2 は ace-king のルールです。ショーダウンのハンドはすべて 1 つのルールセットでなければなりません（rules= を渡すと、すべてを 1 つのルールで比べます）',
        'рука 1 играет по правилам standard, а рука 2 — по правилам ace-king; все руки вскрытия должны играть по одному набору правил (передайте rules=, чтобы сыграть их все по одним правилам)',
        id='mixed_rules',
    ),
    pytest.param(
        lambda: get_rules("texas"),
        "unknown rule set 'texas'; choose one of: standard, ace-king, semi, joker, one-joker, short-deck, deuces-wild, one-eyed-jacks, ace-to-five, deuce-to-seven",
        "ルールセット 'texas' はありません。次から選んでください：standard, ace-king, semi, joker, one-joker, short-deck, deuces-wild, one-eyed-jacks, ace-to-five, deuce-to-seven",
        "неизвестный набор правил 'texas'; выберите один из: standard, ace-king, semi, joker, one-joker, short-deck, deuces-wild, one-eyed-jacks, ace-to-five, deuce-to-seven",
        id='rules',
    ),
    pytest.param(
        lambda: wild_rules("JK"),
        "wild cards must be cards of the 52-card deck or ranks, not a joker: 'JK'",
        "ワイルドカードは 52 枚のデッキのカードかランクにしてください。ジョーカーは指定できません：'JK'",
        "дикими картами могут быть карты колоды из 52 карт или ранги, но не джокер: 'JK'",
        id='wild_joker',
    ),
    pytest.param(
        lambda: wild_rules(""),
        "no wild cards named: ''",
        "ワイルドカードが指定されていません：''",
        "не названо ни одной дикой карты: ''",
        id='no_wild',
    ),
    pytest.param(
        lambda: wild_on("joker", "2"),
        'wild cards are named on top of the standard rules, not joker',
        'ワイルドカードは standard のルールに加えるもので、joker には加えられません',
        'дикие карты добавляются к правилам standard, а не joker',
        id='wild_on',
    ),]


def raised(make: Callable[[], object]) -> FivecardError:
    with pytest.raises(FivecardError) as caught:
        make()
    return caught.value


@pytest.mark.parametrize(("make", "en", "ja", "ru"), CARD_ERRORS + HAND_ERRORS)
def test_an_error_is_said_in_english_japanese_and_russian(
    make: Callable[[], object], en: str, ja: str, ru: str
) -> None:
    error = raised(make)
    assert str(error) == en
    assert error_text(error) == error_text(error, "en") == en
    assert error_text(error, "ja") == ja
    assert error_text(error, language("ru_RU.UTF-8")) == ru


def phrases(value: object) -> Iterator[Phrase]:
    """A phrase and every phrase in its fields."""
    if isinstance(value, Phrase):
        yield value
        for field in value.fields.values():
            yield from phrases(field)
    elif isinstance(value, Listed):
        for item in value.items:
            yield from phrases(item)


def templates_of(path: Path) -> set[str]:
    """The English templates a module's phrase() and phrase_n() calls make."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("phrase", "phrase_n"):
            first = node.args[0]
            assert isinstance(first, ast.Constant) and isinstance(first.value, str)
            found.add(first.value)
    return found


def test_every_error_of_the_card_parser_is_made_and_said_in_each_language() -> None:
    """The cases above make every error template of the card parser, and
    each is said from its language's catalog, not in English."""
    errors = [raised(cast(Callable[[], object], case.values[0])) for case in CARD_ERRORS]
    made = {p.template for e in errors for p in phrases(e.said)}
    assert made >= templates_of(Path(cards.__file__))
    for code in ("ja", "ru"):
        lang = language(code)
        for error in errors:
            assert error_text(error, lang) != str(error)
            for said in phrases(error.said):
                if said.plural is None:
                    assert lang.gettext(said.template) != said.template, (code, said.template)
                else:
                    english = said.template if said.n == 1 else said.plural
                    assert lang.ngettext(said.template, said.plural, said.n) != english, (code, said.template)


def test_cards_in_a_message_are_written_as_the_language_writes_them() -> None:
    error = raised(lambda: Hand.parse("KS AH KS 7C 2D"))
    assert error_text(error, "ru") == "карта К♠ повторяется (карты 1 и 3) в 'KS AH KS 7C 2D'"
    assert error_text(error, "ja") == "カード K♠ が重複しています（カード 1 と 3）（'KS AH KS 7C 2D'）"


def test_a_place_given_as_plain_text_leaves_the_message_in_english() -> None:
    """Words put around a message as plain text are English only: the
    whole message stays English rather than mix two languages."""
    error = raised(lambda: parse_cards("1S"))
    plain = in_context(error, "row 3: ")
    assert str(plain) == "row 3: unknown rank '1' in card 1 ('1S')"
    assert plain.said is None
    assert error_text(plain, "ja") == error_text(plain, "ru") == str(plain)
    said = in_context(error, phrase("hand {number}: ", number=3))
    assert error_text(said, "ru") == "рука 3: неизвестный ранг '1' в карте 1 ('1S')"
    assert type(said) is type(error) and said.option == error.option


def test_errors_made_from_text_or_of_other_kinds_are_said_in_english() -> None:
    assert error_text(HandError("a message made as text"), "ja") == "a message made as text"
    assert error_text(TypeError("not a hand"), "ru") == "not a hand"
    typed = in_context(TypeError("not a hand"), phrase("hand {number}: ", number=1))
    assert error_text(typed, "ru") == "hand 1: not a hand"


def test_listing_many_hands_says_how_many_more() -> None:
    hands = ["AS KS QD JK 2D"] + [f"{r}H {r}C {r}D JK KD" for r in "23456789TJQ"]
    error = raised(lambda: check_decks(hands, rules="joker"))
    assert str(error).startswith("12 jokers in hands 1, 2, 3, 4, 5, 6, 7, 8, 9 and 3 more, but one deck")
    assert error_text(error, "ru").startswith("джокеров в руках 1, 2, 3, 4, 5, 6, 7, 8, 9 и ещё 3: 12, а в 1 колоде")
    assert error_text(error, "ja").startswith("ハンド 1、2、3、4、5、6、7、8、9 ほか 3 件 にジョーカーが 12 枚")


@pytest.mark.parametrize(("make", "en", "ja", "ru"), HAND_ERRORS[:3] + HAND_ERRORS[-12:])
def test_an_error_said_in_another_process_is_the_same(make: Callable[[], object], en: str, ja: str, ru: str) -> None:
    """Errors cross processes (the parallel file readers) pickled: the
    copy says the same in each language."""
    import pickle

    again = pickle.loads(pickle.dumps(raised(make)))
    assert (str(again), error_text(again, "ja"), error_text(again, "ru")) == (en, ja, ru)
