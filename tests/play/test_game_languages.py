"""The game against the dealer in Japanese and Russian: whole seeded games
under several rule sets, every sentence and name a player reads (the
events' texts, the round's explanations, chips and pot sentences, hands'
names and descriptions, cards' labels, the trainer's verdict, the
history, the session's figures, the hint's reason) said in the language,
with no English word left; a settled round kept in English (as the web
app keeps it) reads the same in any language as one said fresh; English
stays what it was."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from fivecard.play.game import Game, SeatResult, pot_explanation, seat_name
from fivecard.play.paytables import JACKS_OR_BETTER, PAYTABLES, pay_line_name
from fivecard.play.view import (
    event_json,
    game_view,
    hint_json,
    history_entry,
    pot_text,
    said_event,
    seat_chips_text,
    session_json,
)
from fivecard.core.rules import get_rules

RULES = ["standard", "ace-king", "semi", "joker", "short-deck", "deuces-wild", "ace-to-five"]
LANGS = ["ja", "ru"]
#: The fields people read (every other is data: codes, ids, numbers).
SAID = {"text", "chips_text", "pot_text", "explanation", "pot_explanation", "label", "description", "name", "reason", "dealer_had"}
#: Moves round by round: keep all five, fold, keep the first two.
MOVES = ["keep", "fold", "two"]


def said_strings(data: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Every (field, text) a person reads in ``data``, walked whole."""
    if isinstance(data, dict):
        card = "code" in data and "symbol" in data  # a card: its text is how cards are written (JK, 10♥)
        for k, v in data.items():
            if not (card and k == "text"):
                yield from said_strings(v, k)
    elif isinstance(data, list):
        for v in data:
            yield from said_strings(v, key)
    elif isinstance(data, str) and key in SAID:
        yield key, data


def english(text: str) -> list[str]:
    """Words in Latin letters (two or more; single letters are card ranks)."""
    return re.findall(r"[A-Za-z]{2,}", text)


def play(rules: str, seed: int) -> tuple[Game, list[list[Any]]]:
    """A game of three rounds with the trainer on; each round's events."""
    game = Game(rules=rules, seed=seed, trainer=True)
    rounds = []
    for move in MOVES:
        events: list[Any] = [game.start_round()]
        while game.turn is not None:
            if game.turn != 0:
                events.append(game.computer_acts())
            elif move == "fold":
                events.append(game.fold(0))
            else:
                events.append(game.exchange(0, [0, 1, 2, 3, 4] if move == "keep" else [0, 1]))
        while game.can_reveal():
            events.append(game.reveal_dealer_card())
        events.append(game.settle())
        rounds.append(events)
    return game, rounds


@pytest.fixture(scope="module", params=RULES)
def played(request: pytest.FixtureRequest) -> tuple[Game, list[list[Any]]]:
    return play(request.param, 11)


@pytest.mark.parametrize("code", LANGS)
def test_every_sentence_of_a_whole_game_is_said_in_the_language(played: tuple[Game, list[list[Any]]], code: str) -> None:
    game, rounds = played
    for events in rounds:
        kept = [event_json(game, e) for e in events]  # as the web app keeps them: English
        said = [event_json(game, e, code) for e in events]
        # a round kept in English reads as one said fresh in the language
        assert [said_event(k, game, code) for k in kept] == said
        for event in said:
            for key, text in said_strings(event):
                assert english(text) == [], (game.rules.name, code, key, text)
        # the English kept is English
        assert any(english(k["text"]) for k in kept)
    settled = [event_json(game, rounds[i][-1]) for i in range(len(rounds))]
    history = [history_entry(s, game=game, lang=code) for s in settled]
    for entry in history:
        for text in (entry["hand"], entry["dealer"]):
            assert text is None or english(text) == [], (game.rules.name, code, text)
    session = session_json(settled, 1000, lang=code)
    view = game_view(game, events=settled[-1:], history=history, session=session, lang=code)
    for key, text in said_strings(view):
        assert english(text) == [], (game.rules.name, code, key, text)
    assert [s["name"] for s in view["seats"]] == [seat_name(n, code) for n in game.names]


def test_english_is_what_it_was(played: tuple[Game, list[list[Any]]]) -> None:
    game, rounds = played
    for events in rounds:
        for e in events:
            kept = event_json(game, e)
            assert event_json(game, e, "en") == kept
            assert said_event(kept, game, "en") == kept
            assert said_event(kept, game, None) is not kept  # a copy


@pytest.mark.parametrize("code", LANGS)
def test_the_hint_says_its_reason_and_labels_in_the_language(code: str) -> None:
    game = Game(seed=5)
    game.start_round()
    hint = hint_json(game.hint(0), lang=code)
    assert hint["choices"] and hint["reason"]
    said = [hint["reason"]] + [c["likeliest"]["label"] for c in hint["choices"]]
    said += [card["label"] for c in hint["choices"] for card in c["keep_cards"]]
    for text in said:
        assert english(text) == [], text
    assert hint_json(game.hint(0)) == hint_json(game.hint(0), lang="en")


# --- sentences written out ---------------------------------------------------------------


def test_a_fold_in_words_in_each_language() -> None:
    fold = SeatResult(0, None, "fold", -10, 0, "You folded")
    assert seat_chips_text("You", fold) == "You folded: −10 house bet, −10 ante, −20 net"
    assert seat_chips_text("You", fold, "ja") == "あなたはフォールドしました: ハウスベット −10、アンティ −10、差し引き −20"
    assert seat_chips_text("You", fold, "ru") == "Вы сбросили карты: ставка дилеру −10, анте −10, итого −20"
    other = SeatResult(1, None, "fold", -10, 0, "Computer 1 folded")
    assert seat_chips_text("Computer 1", other, "ru") == "Компьютер 1 сбросил карты: ставка дилеру −10, анте −10, итого −20"


def test_a_pot_carried_in_words_in_each_language() -> None:
    names = ("You", "Computer 1", "Computer 2")
    assert pot_explanation(30, None, [], names, {}, "ru") == "Все сбросили карты: банк 30 переходит в следующий раунд"
    assert pot_explanation(30, None, [], names, {}, "ja") == "全員がフォールドしました: ポット30は次のラウンドに持ち越されます"
    event = {"pot": 60, "carried_in": 30, "pot_winners": [], "results": []}
    assert pot_text(event, names) == "Everyone folded: the pot of 60, 30 of it carried in carries to the next round"
    assert pot_text(event, names, lang="ru") == "Все сбросили карты: банк 60, из них 30 перенесено переходит в следующий раунд"


def _first_round(seed: int) -> tuple[Game, Any]:
    """Seed 3's first round, all five kept: the dealer's Two Pair beats your pair."""
    game = Game(seed=seed)
    game.start_round()
    game.exchange(0, [0, 1, 2, 3, 4])
    while game.can_computer_act():
        game.computer_acts()
    while game.can_reveal():
        game.reveal_dealer_card()
    return game, game.settle()


def test_a_round_against_the_dealer_reads_as_written() -> None:
    game, settled = _first_round(3)
    ru, ja = event_json(game, settled, "ru"), event_json(game, settled, "ja")
    assert ru["results"][0]["explanation"] == "Дилер обыграл вас: Две пары старше, чем Пара"
    assert ru["chips_text"] == "Вы проиграли дилеру: ставка дилеру −10, банк +30, анте −10, итого +10; вы забрали банк 30"
    assert ja["results"][0]["explanation"] == "ディーラーがあなたに勝ちました: ツーペアがワンペアに勝ちます"
    assert ja["pot_text"] == "あなたがポット30を獲得しました"
    assert event_json(game, settled)["results"][0]["explanation"].startswith("The dealer beats you: ")


def test_a_round_kept_by_an_earlier_version_keeps_its_english() -> None:
    """Rounds kept before the chips were data (no ``ante``) are said as
    they were kept: their English sentence, never a half-said one."""
    game = Game(seed=3)
    old = {"type": "round_settled", "round": 1, "results": [{"seat": 0, "outcome": "win", "chips": 10}], "text": "You beat the dealer"}
    assert said_event(old, game, "ja") == old


def test_the_seats_default_names_are_said_and_chosen_ones_kept() -> None:
    assert [seat_name(n, "ja") for n in ("You", "Computer 1", "Computer 2")] == ["あなた", "コンピューター1", "コンピューター2"]
    assert [seat_name(n, "ru") for n in ("You", "Computer 1", "Computer 2")] == ["Вы", "Компьютер 1", "Компьютер 2"]
    assert seat_name("Ann", "ja") == "Ann" and seat_name("You", "ru", inside=True) == "вы"


def test_every_pay_line_of_the_catalogue_has_its_name_in_each_language() -> None:
    for table in PAYTABLES.values():
        rules = get_rules(table.rules or "standard")
        for entry in table.entries:
            for code in LANGS:
                line = table.entry_label(entry.key, rules, lang=code)
                assert english(line) == [] and line != table.entry_label(entry.key, rules), (table.name, entry.key, code)
    assert pay_line_name("Four Deuces", "five_of_a_kind", "ja") == "デュース4枚"
    assert JACKS_OR_BETTER.entry_label("nothing", get_rules("standard"), pay=True, lang="ja") == "役なし(配当0)"
    assert pay_line_name("My line", "flush", "ru") == "My line"


def _grouped_in_english(text: str) -> list[str]:
    """Figures grouped with a comma (``1,000``: in Russian, one and no thousandths)."""
    return re.findall(r"\d,\d{3}\b", text)


def test_russian_sentences_group_thousands_as_russian_does(played: tuple[Game, list[list[Any]]]) -> None:
    game, rounds = played
    settled = [event_json(game, rounds[i][-1]) for i in range(len(rounds))]
    history = [history_entry(s, game=game, lang="ru") for s in settled]
    session = session_json(settled, 1000, lang="ru")
    view = game_view(game, events=settled[-1:], history=history, session=session, lang="ru")
    texts = [t for events in rounds for e in events for _, t in said_strings(event_json(game, e, "ru"))]
    texts += [t for _, t in said_strings(view)]
    texts += [seat_chips_text(game.names[r.seat], r, "ru") for events in rounds for r in events[-1].results]
    assert any("1 000" in t for t in texts)  # the chips a game starts with
    assert [t for t in texts if _grouped_in_english(t)] == []
    assert _grouped_in_english(session_json(settled, 1000)["text"])  # English as it was


def test_the_machine_s_russian_lines_group_thousands_as_russian_does() -> None:
    from fivecard.play.machine import Machine, broke_line, drawn_lines, machine_view, title
    from fivecard.core.report import Painter

    machine = Machine("jacks-or-better", seed=2, credits=12_345, coins=5)
    texts = [title(machine, "ru")]
    for _ in range(3):
        machine.deal()
        drawn = machine.draw([0, 1])
        texts += drawn_lines(drawn, Painter(color=False, lang="ru"), "ru")
    texts += [machine.log().text("ru"), broke_line(machine, "ru")]
    texts += [t for _, t in said_strings(machine_view(machine, lang="ru"))]
    assert any("12 3" in t for t in texts)
    assert [t for t in texts if _grouped_in_english(t)] == []
    assert "12,345 credits" in title(Machine("jacks-or-better", seed=2, credits=12_345, coins=5))  # English as it was
