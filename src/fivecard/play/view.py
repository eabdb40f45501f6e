"""What a player may see of a :class:`~fivecard.play.game.Game`, as JSON data:
the table (your cards, the computer players' cards face down until the
showdown, the dealer's cards turned up so far, the pot, every stack, what
you may do now) and the game's events, each with a sentence to show or
read aloud. The web app sends these; the game engine never sees them. The
game in a terminal (``fivecard play``) says the events in lines of text of
its own (:func:`event_lines`, :func:`standings`).

What the player may know is decided here: :func:`game_view` shows your
cards only (the computer players' stay face down until the showdown's
event shows them, the dealer's until turned up, the deck and the game's
seed never), and every event sent is :meth:`Game.public_event`'s form of
it, the fields :data:`~fivecard.play.game.GAME_EVENT_FIELDS` names for its type (a computer's
exchange says how many cards, never which). Events kept by an earlier
version (whose computer events carried the advisor's reason, which named
the cards kept) are shown through it too. (:meth:`~fivecard.play.table_game.TableGame.public_event`
is that rule for every table game's events.)

Cards are objects (``card_json``): the code (``"Ah"``), how people write it
(``"A♥"``), rank and suit, a label for screen readers (``"Ace of hearts"``)
and whether it prints red. Seats and positions are 0-based, as in the
engine; event sentences name seats by their names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from ..core.cards import Card, Suit
from ..core.evaluate import Evaluation, describe, evaluate
from ..core.hand import Hand
from ..core.lang import ENGLISH, NP_, Language, LangLike, language
from ..core.report import Painter, evaluation_json, number_text
from ..core.rules import RuleSet
from ..core.showdown import explain, settle
from ..core.words import card_name, card_text, category_name, rank_letter, spoken_list
from .advise import Advice
from .game import (
    ANTE,
    BET,
    against_dealer_text,
    pot_explanation,
    seat_name,
    verdict_text,
    DealerCard,
    Exchanged,
    Folded,
    Game,
    RoundSettled,
    RoundStarted,
    RoundVoided,
    SeatResult,
    keep_positions,
)

__all__ = [
    "a_hand",
    "card_json",
    "cards_json",
    "chips_figures",
    "deck_json",
    "showdown_cards_json",
    "event_json",
    "event_lines",
    "game_view",
    "hint_json",
    "history_entry",
    "pot_text",
    "seat_chips_text",
    "Session",
    "session_json",
    "signed",
    "standings",
    "title",
]

Event = RoundStarted | Folded | Exchanged | DealerCard | RoundSettled | RoundVoided



def card_json(card: Card, lang: LangLike = None) -> dict[str, Any]:
    """A card for a page, the one form every answer gives a card in:
    ``{"code", "text", "rank", "suit", "symbol", "label", "red"}`` (``rank``
    as a face shows it, ``"10"``; ``symbol``, the suit's sign; a joker has
    neither rank nor suit, a rank-only card no suit). What people read is
    in ``lang``: ``text`` and ``rank`` as the language writes the card
    (:func:`~fivecard.core.words.card_text`: Russian К♦), ``label``, the
    card for screen readers (:func:`~fivecard.core.words.card_name`);
    ``code`` is the card's code in every language.

    >>> card_json(Card.parse("Th"))
    {'code': 'Th', 'text': '10♥', 'rank': '10', 'suit': 'h', 'symbol': '♥', 'label': 'Ten of hearts', 'red': True}
    >>> {k: v for k, v in card_json(Card.parse("Kd"), "ru").items() if k in ("code", "text", "rank", "label")}
    {'code': 'Kd', 'text': 'К♦', 'rank': 'К', 'label': 'король бубен'}
    """
    words = language(lang)
    if card.is_joker:
        return {
            "code": card.code_str, "text": str(card), "rank": None, "suit": None, "symbol": None,
            "label": card_name(card, words), "red": False,
        }  # fmt: skip
    assert card.rank is not None
    suit = card.suit
    return {
        "code": card.code_str,
        "text": card_text(card, words),
        "rank": rank_letter(card.rank, words),
        "suit": None if suit is None else suit.value,
        "symbol": None if suit is None else suit.symbol,
        "label": card_name(card, words),
        "red": suit is not None and suit.value in "hd",
    }


def cards_json(cards: Sequence[Card], lang: LangLike = None) -> list[dict[str, Any]]:
    """Cards as card objects (:func:`card_json`)."""
    return [card_json(c, lang) for c in cards]


def deck_json(rules: RuleSet, lang: LangLike = None) -> dict[str, Any]:
    """A rule set's deck as a page's card grid shows it: ``ranks`` (high
    first, as faces show them), ``suits`` (their codes; none when suits play
    no part), ``jokers``, ``cards``, the card objects to pick from: each
    suit's ranks high first (each rank once, rank-only, when suits play no
    part), then a joker if the rules have any; and ``copies``, how many of
    each of them one deck holds (a hand may hold no more). Labels in ``lang``."""
    ranks = sorted(rules.ranks, reverse=True)
    suits: list[Suit | None] = list(Suit) if rules.suits else [None]
    cards = [Card(rank, suit) for suit in suits for rank in ranks]
    if rules.jokers:
        cards.append(Card(None, None))
    limits = rules.deck().limits
    return {
        "ranks": [rank.short for rank in ranks],
        "suits": [suit.value for suit in Suit] if rules.suits else [],
        "jokers": rules.jokers,
        "cards": cards_json(cards, lang),
        "copies": [limits[card.index] for card in cards],
    }


def _chips(n: int, lang: Language = ENGLISH) -> str:
    return lang.phrase_n("{count} chip", "{count} chips", n, "play", count=number_text(n, lang))


def event_json(game: Game, event: Event, lang: LangLike = None) -> dict[str, Any]:
    """One event as the player sees it, with ``type``, ``round`` (the
    round it belongs to) and ``text``, a sentence about it, said in
    ``lang`` (default English; the web app keeps events in English and says
    them again in the language of whoever views them: :func:`said_event`).
    A computer player's discarded and drawn cards stay hidden (their number
    is shown), as at a real table. Your exchange carries the trainer's
    ``verdict`` when the trainer is on (:meth:`ExchangeVerdict.to_json
    <fivecard.play.game.ExchangeVerdict.to_json>`)."""
    data = _event_json(game, event)
    data.setdefault("round", game.rounds)
    return said_event(Game.public_event(data), game, lang, fresh=True)


def _event_json(game: Game, event: Event) -> dict[str, Any]:
    """An event's data (its sentences are said by :func:`_say`)."""
    if isinstance(event, RoundStarted):
        return {
            "type": "round_started",
            "round": event.round,
            "seats": list(event.seats),
            "pot": event.pot,
            "carried": event.carried,
            "stacks": list(event.stacks),
            "text": "",
        }
    if isinstance(event, Folded):
        # (a computer's reason, the advisor's, would name the cards it kept)
        return {"type": "folded", "seat": event.seat, "text": ""}
    if isinstance(event, Exchanged):
        data: dict[str, Any] = {"type": "exchanged", "seat": event.seat, "count": len(event.drawn), "text": ""}
        if event.seat == 0:
            data.update(kept=cards_json(event.kept), discarded=cards_json(event.discarded), drawn=cards_json(event.drawn))
            if event.verdict is not None:  # the trainer's (ExchangeVerdict.to_json)
                data["verdict"] = event.verdict.to_json()
        return data
    if isinstance(event, DealerCard):
        return {"type": "dealer_card", "card": card_json(event.card), "position": event.position, "text": ""}
    if isinstance(event, RoundSettled):
        return _settled_json(game, event)
    return {
        "type": "round_voided",
        "round": event.round,
        "returned": list(event.returned),
        "pot": event.pot,
        "stacks": list(event.stacks),
        "text": "",
    }


def said_event(data: Mapping[str, Any], game: Game, lang: LangLike = None, *, fresh: bool = False) -> dict[str, Any]:
    """An event's JSON (:func:`event_json`, as a store keeps it) with its
    sentences said in ``lang``: ``text``, and a settled round's
    explanations, ``chips_text`` and ``pot_text``, its hands' names and
    descriptions, the cards' labels and the trainer's verdict. The data is
    what is said: a game kept in English reads in any language. English
    gives a kept event back as it was kept (the sentences of earlier
    versions included); an event kept by an earlier version without the
    data a sentence needs keeps that sentence as it was kept.
    ``fresh``: the event was just made (its sentences are all said)."""
    words = language(lang)
    said = dict(data)
    if words is ENGLISH and not fresh:
        return said
    try:
        _say(said, game, words)
    except (KeyError, TypeError, ValueError, IndexError):  # kept by an earlier version: as it was kept
        return dict(data)
    return said


def _say(data: dict[str, Any], game: Game, lang: Language) -> None:
    names = game.names
    kind = data["type"]
    if kind == "round_started":
        carried = data["carried"]
        data["text"] = lang.phrase(
            "Round {round}: {seats} ante {ante} and bet {bet}; the pot is {pot}{carried}",
            "play",
            round=data["round"],
            seats=lang.pgettext("list", ", ").join(seat_name(names[s], lang) for s in data["seats"]),
            ante=ANTE,
            bet=BET,
            pot=data["pot"],
            carried=lang.phrase(" ({chips} carried over)", "play", chips=_chips(carried, lang)) if carried else "",
        )
    elif kind == "folded":
        seat = data["seat"]
        if seat == 0:
            data["text"] = lang.phrase("{name} fold", "play", name=seat_name(names[seat], lang))
        else:
            data["text"] = lang.phrase("{name} folds", "play", name=seat_name(names[seat], lang))
    elif kind == "exchanged":
        seat, count = data["seat"], data["count"]
        name = seat_name(names[seat], lang)
        if count == 0:
            if seat == 0:
                data["text"] = lang.phrase("{name} keep all five", "play", name=name)
            else:
                data["text"] = lang.phrase("{name} keeps all five", "play", name=name)
        elif seat == 0:
            data["text"] = lang.phrase_n("{name} exchange {n} card", "{name} exchange {n} cards", count, "play", name=name)
        else:
            data["text"] = lang.phrase_n("{name} exchanges {n} card", "{name} exchanges {n} cards", count, "play", name=name)
        if lang is not ENGLISH:
            for key in ("kept", "discarded", "drawn"):
                if key in data:
                    data[key] = _relabelled(data[key], lang)
            if "verdict" in data:
                data["verdict"] = {**data["verdict"], "text": verdict_text(data["verdict"], lang)}
    elif kind == "dealer_card":
        card = Card.parse(data["card"]["code"])
        data["card"] = card_json(card, lang)
        data["text"] = lang.phrase(
            "The dealer's card {position}: {card}",
            "play",
            position=data["position"],
            card=lang.phrase("a joker", "play") if card.is_joker else card_name(card, lang),
        )
    elif kind == "round_settled":
        _say_settled(data, game, lang)
    elif kind == "round_voided":
        data["text"] = lang.phrase("Round {round} is void: every chip of it goes back", "play", round=data["round"])


def _relabelled(cards: list[dict[str, Any]], lang: Language) -> list[dict[str, Any]]:
    """Card objects said in ``lang``: their text, rank and label (a wild card's ``as`` too)."""
    said = []
    for card in cards:
        card = {**card, **card_json(Card.parse(card["code"]), lang)}
        if "as" in card:
            card["as"] = _relabelled([card["as"]], lang)[0]
        said.append(card)
    return said


def _hand_said(data: dict[str, Any] | None, evaluation: Evaluation, lang: Language) -> dict[str, Any] | None:
    """A hand's JSON object with its name and description in ``lang``."""
    if data is None:
        return None
    return {
        **data,
        "name": category_name(evaluation.category_id, evaluation.label, lang),
        "description": describe(evaluation.hand_class, lang),
    }


def _say_settled(data: dict[str, Any], game: Game, lang: Language) -> None:
    """A settled round's sentences in ``lang``: its explanations are said
    again from its hands when ``lang`` is not English."""
    names = game.names
    results = [dict(r) for r in data["results"]]
    data["results"] = results
    if lang is not ENGLISH:
        rules = game.rules

        def evaluated(hand: Mapping[str, Any]) -> Evaluation:
            return evaluate(Hand(tuple(Card.parse(c) for c in hand["cards"]), rules))

        dealer = evaluated(data["dealer"])
        data["dealer"] = _hand_said(data["dealer"], dealer, lang)
        data["dealer_cards"] = _relabelled(data["dealer_cards"], lang)
        live: list[int] = []
        evaluations: list[Evaluation] = []
        for r in results:
            if r["cards"] is not None:
                r["cards"] = _relabelled(r["cards"], lang)
            r["name"] = seat_name(names[r["seat"]], lang)
            if r["hand"] is None:
                r["explanation"] = against_dealer_text(names, r["seat"], "fold", "", lang)
                continue
            mine = evaluated(r["hand"])
            r["hand"] = _hand_said(r["hand"], mine, lang)
            better, worse = (dealer, mine) if r["outcome"] == "lose" else (mine, dealer)
            r["explanation"] = against_dealer_text(names, r["seat"], r["outcome"], explain(better, worse, lang=lang), lang)
            live.append(r["seat"])
            evaluations.append(mine)
        shares = {r["seat"]: r["pot"] for r in results}
        showdown = settle(evaluations, lang) if data["pot_winners"] else None
        data["pot_explanation"] = pot_explanation(data["pot"], showdown, live, names, shares, lang)
    for r in results:
        r["chips_text"] = seat_chips_text(names[r["seat"]], r, lang)
    yours = next((r for r in results if r["seat"] == 0), None)
    if yours is None:
        headline = data["pot_explanation"]
    elif yours["outcome"] == "fold":
        headline = lang.phrase("You folded. {pot}", "play", pot=_capital(data["pot_explanation"]))
    else:
        headline = lang.phrase("{result}. {pot}", "play", result=_capital(yours["explanation"]), pot=_capital(data["pot_explanation"]))
    data["pot_text"] = pot_text(data, names, lang=lang)
    data["chips_text"] = _round_chips_text(data, names, lang)
    data["text"] = headline


def _settled_json(game: Game, event: RoundSettled) -> dict[str, Any]:
    names = game.names
    results = []
    for result in event.results:
        results.append(
            {
                "seat": result.seat,
                "name": names[result.seat],
                "outcome": result.against_dealer,
                "ante": result.ante,
                "house": result.house,
                "pot": result.pot,
                "chips": result.net,  # what the round did to the seat's stack: house + pot - ante
                "chips_text": "",
                "hand": None if result.evaluation is None else evaluation_json(result.evaluation),
                # the hand in showdown order; a folded hand is shown to its owner only
                "cards": _seat_cards(result),
                "explanation": result.explanation,
            }
        )
    return {
        "type": "round_settled",
        "round": event.round,
        "dealer": evaluation_json(event.dealer),
        "dealer_cards": showdown_cards_json(event.dealer),
        "results": results,
        "pot": event.pot,
        "pot_winners": list(event.pot_winners),
        "pot_explanation": event.pot_explanation,
        "carried": event.carried,
        "carried_in": event.carried_in,
        "pot_text": "",
        "chips_text": "",
        "stacks": list(event.stacks),
        "text": "",
    }


def _seat_cards(result: SeatResult) -> list[dict[str, Any]] | None:
    if result.evaluation is not None:
        return showdown_cards_json(result.evaluation)
    if result.folded is not None and result.seat == 0:  # yours, face up to you; a computer's stays hidden
        return cards_json(result.folded.cards)
    return None


def showdown_cards_json(evaluation: Evaluation) -> list[dict[str, Any]]:
    """A hand's cards as a showdown lays them out: in showdown order (the
    groups first, then the kickers: :attr:`Evaluation.showdown
    <fivecard.core.evaluate.Evaluation.showdown>`), each wild card (a joker,
    a wild deuce) with ``as``, the card object of the card it became.

    >>> from fivecard import evaluate
    >>> [(c["text"], c.get("as", {}).get("text")) for c in showdown_cards_json(evaluate("JK 5S 6S 7S 9S", rules="joker"))]
    [('9♠', None), ('JK', '8♠'), ('7♠', None), ('6♠', None), ('5♠', None)]
    """
    rules = evaluation.rules
    became = list(evaluation.jokers)  # the cards the wild cards became, any order
    shown = []
    for card, rank in zip(evaluation.showdown, evaluation.hand_class.order):
        data = card_json(card)
        if rules.is_wild(card):  # it stands where the card it became goes: that card's rank
            made = next((c for c in became if c.rank == rank), None)
            if made is not None:
                became.remove(made)
                data["as"] = card_json(made)
        shown.append(data)
    return shown


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- the chips of a round and of a game ------------------------------------------------

#: The sentence of a seat's chips by its result against the dealer, for the
#: player and for the others (a context each: a language may say the
#: player's verb otherwise).
_AGAINST: Final = {
    (True, "win"): NP_("chips, you", "{name} beat the dealer: {figures}"),
    (True, "lose"): NP_("chips, you", "{name} lost to the dealer: {figures}"),
    (True, "draw"): NP_("chips, you", "{name} drew with the dealer: {figures}"),
    (True, "fold"): NP_("chips, you", "{name} folded: {figures}"),
    (False, "win"): NP_("chips, seat", "{name} beat the dealer: {figures}"),
    (False, "lose"): NP_("chips, seat", "{name} lost to the dealer: {figures}"),
    (False, "draw"): NP_("chips, seat", "{name} drew with the dealer: {figures}"),
    (False, "fold"): NP_("chips, seat", "{name} folded: {figures}"),
}


def _against(lang: Language, outcome: str, you: bool, name: str, figures: str) -> str:
    """What a seat did against the dealer, as the sentences of its chips
    say it (any outcome but win, lose and draw is a fold)."""
    context, template = _AGAINST[you, outcome if outcome in ("win", "lose", "draw") else "fold"]
    return lang.phrase_p(context, template, "play", name=name, figures=figures)


def signed(n: int, lang: LangLike = None) -> str:
    """Chips with their sign as people write them: ``+10``, ``−1,020``
    (a minus sign), ``0``; thousands grouped as ``lang`` writes them
    (:func:`~fivecard.core.report.number_text`: Russian ``−1 020``).

    >>> signed(10), signed(-1020), signed(0), signed(-1020, 'ru')
    ('+10', '−1,020', '0', '−1 020')
    """
    if n > 0:
        return f"+{number_text(n, lang)}"
    if n < 0:
        return f"−{number_text(-n, lang)}"
    return "0"


def _figures(result: SeatResult | Mapping[str, Any]) -> tuple[int, int, int, int, str, int]:
    """A seat's result's house bet, pot share, ante and net, its outcome
    and its seat, from a :class:`SeatResult` or its JSON."""
    if isinstance(result, SeatResult):
        return result.house, result.pot, result.ante, result.net, result.against_dealer, result.seat
    ante = int(result["ante"])
    return int(result["house"]), int(result["pot"]), ante, int(result["chips"]), str(result["outcome"]), int(result["seat"])


def seat_chips_text(name: str, result: SeatResult | Mapping[str, Any], lang: LangLike = None) -> str:
    """What a round did to one seat's chips, in a sentence whose figures add
    up: the house bet's result, the pot's share (when it took one), the
    ante, and the net, the change of its stack (``result``: a
    :class:`SeatResult`, or its JSON in a settled round's event). ``name``
    is said in ``lang`` (:func:`~fivecard.play.game.seat_name`).

    >>> from fivecard.play.game import SeatResult
    >>> seat_chips_text("You", SeatResult(0, None, "fold", -10, 0, "You folded"))
    'You folded: −10 house bet, −10 ante, −20 net'
    >>> seat_chips_text("You", SeatResult(0, None, "fold", -10, 0, "You folded"), "ja")
    'あなたはフォールドしました: ハウスベット −10、アンティ −10、差し引き −20'
    """
    words = language(lang)
    *_, outcome, seat = _figures(result)
    return _against(words, outcome, seat == 0, seat_name(name, words), chips_figures(result, words))


def chips_figures(result: SeatResult | Mapping[str, Any], lang: LangLike = None) -> str:
    """A seat's chips in a round, the figures of :func:`seat_chips_text`.

    >>> from fivecard.play.game import SeatResult
    >>> chips_figures(SeatResult(2, None, "lose", -10, 30, "…"))
    '−10 house bet, +30 pot, −10 ante, +10 net'
    """
    words = language(lang)
    house, pot, ante, net, _, _ = _figures(result)
    terms = [words.phrase("{chips} house bet", "play", chips=signed(house, words))]
    if pot:
        terms.append(words.phrase("{chips} pot", "play", chips=signed(pot, words)))
    terms += [words.phrase("{chips} ante", "play", chips=signed(-ante, words)), words.phrase("{chips} net", "play", chips=signed(net, words))]
    return words.pgettext("figures", ", ", "play").join(terms)


def _named(name: str, first: bool, lang: Language = ENGLISH) -> str:
    """A seat's name in a sentence: the player, "You", is "you" inside one."""
    return seat_name(name, lang, inside=not first)


def pot_text(
    event: RoundSettled | Mapping[str, Any], names: Sequence[str], *, first: bool = True, lang: LangLike = None
) -> str:
    """Who took a settled round's pot, in a sentence: its size (and the
    chips of it carried from earlier rounds), each share of a split, or
    that it carries to the next round. ``event``: the round, or its event
    JSON. ``first``: the sentence starts with it (else "You" is "you")."""
    words = language(lang)
    if isinstance(event, RoundSettled):
        total, carried_in, winners = event.pot, event.carried_in, list(event.pot_winners)
        shares = {r.seat: r.pot for r in event.results}
    else:
        total, carried_in, winners = int(event["pot"]), int(event.get("carried_in", 0)), list(event["pot_winners"])
        shares = {int(r["seat"]): int(r["pot"]) for r in event["results"]}
    if carried_in:
        pot = words.phrase("the pot of {pot}, {carried} of it carried in", "play", pot=number_text(total, words), carried=number_text(carried_in, words))
    else:
        pot = words.phrase("the pot of {pot}", "play", pot=number_text(total, words))
    if not winners:
        if first:
            return words.phrase("Everyone folded: {pot} carries to the next round", "play", pot=pot)
        return words.phrase("everyone folded: {pot} carries to the next round", "play", pot=pot)
    who = [_named(names[s], first and i == 0, words) for i, s in enumerate(winners)]
    if len(who) == 1:
        if winners[0] == 0:
            return words.phrase_p("you", "{name} took {pot}", "play", name=who[0], pot=pot)
        return words.phrase_p("seat", "{name} took {pot}", "play", name=who[0], pot=pot)
    each = words.pgettext("list", ", ").join(
        words.phrase("{name} {chips}", "play", name=_named(names[s], False, words), chips=number_text(shares[s], words)) for s in winners
    )
    return words.phrase("{names} split {pot} ({shares})", "play", names=spoken_list(who, words), pot=pot, shares=each)


def _round_chips_text(event: RoundSettled | Mapping[str, Any], names: Sequence[str], lang: Language = ENGLISH) -> str:
    """The round for the player (seat 0) in a sentence: its chips
    (:func:`seat_chips_text`), then who took the pot (:func:`pot_text`)."""
    results = event.results if isinstance(event, RoundSettled) else event["results"]
    mine = next((r for r in results if _figures(r)[5] == 0), None)
    if mine is None:
        return pot_text(event, names, lang=lang)
    return lang.phrase(
        "{chips}; {pot}", "play", chips=seat_chips_text(names[0], mine, lang), pot=pot_text(event, names, first=False, lang=lang)
    )


class Session:
    """A game's figures for one seat (the player's by default), from the
    event JSON of its settled rounds (``round_settled``, oldest first),
    taken one at a time (:meth:`add`): the rounds, the results against the
    dealer, the pots won and the chips the seat took from them, and its
    stack after each round. Events kept by earlier versions (without the
    ``ante`` and the sentences) are read too: a round's net is its
    ``chips``.

    >>> Session().to_json(1000)["text"]
    'No round settled yet; chips 1,000.'
    """

    def __init__(self, seat: int = 0) -> None:
        self.seat = seat
        self.start: int | None = None  # the stack before the first round
        self.stacks: list[int] = []  # after each round
        self.outcomes = {"win": 0, "lose": 0, "draw": 0, "fold": 0}
        self.pots = 0
        self.pot_chips = 0

    def add(self, settled: Mapping[str, Any]) -> None:
        """One more settled round (its event JSON)."""
        stack = int(settled["stacks"][self.seat])
        mine = next((r for r in settled["results"] if r["seat"] == self.seat), None)
        if self.start is None:
            self.start = stack - (int(mine["chips"]) if mine is not None else 0)
        self.stacks.append(stack)
        if mine is not None:
            self.outcomes[str(mine["outcome"])] += 1
            if self.seat in settled["pot_winners"]:
                self.pots += 1
                self.pot_chips += int(mine["pot"])

    def to_json(self, opening: int, lang: LangLike = None) -> dict[str, Any]:
        """The figures as JSON data: ``rounds``; ``against_dealer``, the
        rounds won, lost, drawn and folded (``win``, ``lose``, ``draw``,
        ``fold``); ``pots`` won (alone or split) and ``pot_chips`` taken
        from them; ``chips``, the stack before the first round then after
        each one; ``net``, the last less the first; ``text``, in a sentence
        (in ``lang``, default English).
        ``opening``: the stack before the first round, when none is
        settled yet."""
        start = opening if self.start is None else self.start
        chips = [start, *self.stacks]
        rounds = len(self.stacks)
        net = chips[-1] - start
        words = language(lang)
        if rounds:
            o = self.outcomes

            text = words.phrase(
                "{rounds} against the dealer: {wins}, {losses}, {draws}, {folds}; {pots} won; chips {start} → {end} ({net}).",
                "play",
                rounds=words.phrase_n("{count} round", "{count} rounds", rounds, "play", count=number_text(rounds, words)),
                wins=words.phrase_n("{count} win", "{count} wins", o["win"], "play", count=number_text(o["win"], words)),
                losses=words.phrase_n("{count} loss", "{count} losses", o["lose"], "play", count=number_text(o["lose"], words)),
                draws=words.phrase_n("{count} draw", "{count} draws", o["draw"], "play", count=number_text(o["draw"], words)),
                folds=words.phrase_n("{count} fold", "{count} folds", o["fold"], "play", count=number_text(o["fold"], words)),
                pots=words.phrase_n("{count} pot", "{count} pots", self.pots, "play", count=number_text(self.pots, words)),
                start=number_text(start, words),
                end=number_text(chips[-1], words),
                net=signed(net, words),
            )
        else:
            text = words.phrase("No round settled yet; chips {start}.", "play", start=number_text(start, words))
        return {
            "rounds": rounds,
            "against_dealer": dict(self.outcomes),
            "pots": self.pots,
            "pot_chips": self.pot_chips,
            "chips": chips,
            "net": net,
            "text": text,
        }


def session_json(
    settled: Iterable[Mapping[str, Any]], opening: int, *, seat: int = 0, lang: LangLike = None
) -> dict[str, Any]:
    """A game's figures for a seat from the event JSON of its settled
    rounds, oldest first (:class:`Session`); ``opening``: its stack before
    the first round, when none is settled yet
    (:attr:`Game.stacks_before <fivecard.play.game.Game.stacks_before>`)."""
    session = Session(seat)
    for event in settled:
        session.add(event)
    return session.to_json(opening, lang)


#: Hands named by a count of cards, or by no combination at all, take no
#: article ("the dealer had Two Pair", "High Card"); the others take one.
_NO_ARTICLE = re.compile(r"^(One|Two|Three|Four|Five) |^(High Card|No Pair)$")


def a_hand(name: str, lang: LangLike = None) -> str:
    """A hand's name as a sentence says it after "had": "a Flush", "a Full
    House", "an Ace-King", but "Two Pair", "Three of a Kind", "High Card"
    (Japanese and Russian have no articles: the name itself)."""
    if language(lang) is not ENGLISH or _NO_ARTICLE.search(name):
        return name
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def history_entry(
    settled: Mapping[str, Any],
    stacks_before: Sequence[int] | None = None,
    *,
    game: Game | None = None,
    lang: LangLike = None,
) -> dict[str, Any]:
    """A line of the round history from a settled round's event JSON: the
    round, your result against the dealer, the dealer's hand (its name, and
    as a sentence says it: :func:`a_hand`), the pot's
    winners and your stack after it. With the ``game`` it was played in,
    its names and sentences are said in ``lang`` (:func:`said_event`)."""
    words = language(lang)
    if game is not None and words is not ENGLISH:
        settled = said_event(settled, game, words)
    mine = next((r for r in settled["results"] if r["seat"] == 0), None)
    return {
        "round": settled["round"],
        "outcome": None if mine is None else mine["outcome"],
        "hand": None if mine is None or mine["hand"] is None else mine["hand"]["name"],
        "dealer": settled["dealer"]["name"],
        "dealer_had": a_hand(settled["dealer"]["name"], words),
        "pot": settled["pot"],
        "pot_winners": settled["pot_winners"],
        "stack": settled["stacks"][0],
        "text": settled["text"],
    }


def game_view(
    game: Game,
    *,
    events: Sequence[dict[str, Any]] = (),
    history: Sequence[dict[str, Any]] = (),
    session: dict[str, Any] | None = None,
    lang: LangLike = None,
) -> dict[str, Any]:
    """The table as the player (seat 0) sees it now, its sentences and
    names said in ``lang`` (default English; the events as :func:`said_event`
    says them). ``events``: the event
    JSON of the round in play, or of the last round once it is settled
    (shown as :meth:`Game.public_event` shows them, however they were kept);
    ``history``: :func:`history_entry` lines, oldest first. ``trainer``:
    whether your exchanges are judged (the game's setting). ``session``:
    the game's figures for the player (:func:`session_json` of every
    settled round), when given."""
    words = language(lang)
    current = game.current
    phase = game.phase
    seats = []
    for seat, name in enumerate(game.names):
        hand = game.hand(seat)
        seats.append(
            {
                "seat": seat,
                "name": seat_name(name, words),
                "computer": game.is_computer(seat),
                "stack": game.stacks[seat],
                "dealt": hand is not None,
                "folded": game.folded(seat),
                # a computer's cards stay face down until the showdown's event shows them
                "cards": cards_json(hand.cards, words) if hand is not None and seat == 0 else None,
                "can_play": game.can_play(seat),
            }
        )
    turn = game.turn
    mine = turn == 0
    return {
        "rules": game.rules.name,
        "phase": phase,
        "round": game.rounds if current is not None else None,
        "rounds": game.rounds,
        "played": game.played,
        "turn": turn,
        "ante": ANTE,
        "bet": BET,
        "pot": game.pot,
        "seats": seats,
        "dealer": cards_json(game.dealer_cards, words),
        "can": {
            "start": game.can_start(),
            "exchange": mine,
            "keep": mine,
            "fold": mine,
            "hint": mine,
            "reveal": game.can_reveal(),
            "settle": game.can_settle(),
        },
        "game_over": phase == "idle" and not game.can_start(),
        "events": [said_event(Game.public_event(e), game, words) for e in events],
        "history": list(history),
        **({} if session is None else {"session": session}),
        "trainer": game.trainer,
    }


def hint_json(advice: Advice, *, top: int = 5, lang: LangLike = None) -> dict[str, Any]:
    """The advisor's view of your hand for the Hint button: ``advise
    --json``'s object with only the ``top`` best choices, and each choice's
    cards as card objects too (``keep_cards``) and its kept positions; its
    sentences and labels in ``lang``."""
    data = advice.to_json(lang)
    data["choices"] = data["choices"][:top]
    for row, choice in zip(data["choices"], advice.choices):
        row["keep_cards"] = cards_json(choice.keep, lang)
        row["positions"] = keep_positions(advice.hand.cards, choice.keep)
    return data


# --- the game in a terminal ----------------------------------------------------------------


def _stacks(game: Game, lang: Language = ENGLISH) -> str:
    return lang.pgettext("list", ", ").join(
        lang.phrase("{name} {chips}", "play", name=seat_name(game.names[s], lang), chips=number_text(c, lang)) for s, c in enumerate(game.stacks)
    )


def title(game: Game, lang: LangLike = None) -> str:
    """The game's first line in a terminal: its rules, seed and stacks (in ``lang``)."""
    words = language(lang)
    return words.phrase(
        "Five-card draw against the dealer ({rules} rules, seed {seed}). Stacks {stacks}.",
        "play",
        rules=game.rules.name,
        seed=game.seed,
        stacks=_stacks(game, words),
    )


def standings(game: Game, lang: LangLike = None) -> str:
    """The game's last line in a terminal: the rounds played, the stacks
    and any pot carried, unclaimed (in ``lang``)."""
    words = language(lang)
    carried = words.phrase("; {chips} carried in the pot, unclaimed", "play", chips=number_text(game.pot, words)) if game.pot else ""
    return words.phrase_n(
        "After {n} round: {stacks}{carried}.",
        "After {n} rounds: {stacks}{carried}.",
        game.played,
        "play",
        stacks=_stacks(game, words),
        carried=carried,
    )


def event_lines(game: Game, event: Event, painter: Painter, lang: LangLike = None) -> list[str]:
    """An event as the game in a terminal says it, in lines (seat 0 is
    "you"; your exchange is followed by the trainer's verdict when the
    trainer is on); a dealer's card is shown as it is turned up, not here.
    Said in ``lang`` (default English)."""
    words = language(lang)
    name = [seat_name(n, words) for n in game.names]
    if isinstance(event, RoundStarted):
        carried = words.phrase(" ({chips} carried)", "play", chips=event.carried) if event.carried else ""
        return [
            "\n"
            + words.phrase(
                "Round {round}: antes {ante} and house bets {bet} are in; pot {pot}{carried}.",
                "play",
                round=event.round,
                ante=ANTE,
                bet=BET,
                pot=event.pot,
                carried=carried,
            )
        ]
    if isinstance(event, Folded):
        if event.seat == 0:
            return [words.phrase("You fold: your ante and your house bet are lost.", "play")]
        return [words.phrase("{name} folds.", "play", name=name[event.seat])]
    if isinstance(event, Exchanged):
        count = len(event.discarded)
        if event.seat != 0:
            if count == 0:
                return [words.phrase("{name} keeps all five cards.", "play", name=name[event.seat])]
            return [words.phrase("{name} keeps {kept} and draws {drawn}.", "play", name=name[event.seat], kept=5 - count, drawn=count)]
        verdict = [] if event.verdict is None else [words.phrase("Trainer: {verdict}", "play", verdict=event.verdict.text(words))]
        if count == 0:
            return [words.phrase("You keep all five cards.", "play"), *verdict]
        drawn = " ".join(painter.card(c) for c in event.drawn)
        hand = evaluate(event.hand)
        return [
            words.phrase(
                "You draw {drawn}: {cards}   ({hand})",
                "play",
                drawn=drawn,
                cards=painter.cards(event.hand.cards).rstrip(),
                hand=hand.description if words is ENGLISH else describe(hand.hand_class, words),
            ),
            *verdict,
        ]
    if isinstance(event, RoundSettled):
        said = None if words is ENGLISH else event_json(game, event, words)
        dealer = event.dealer.description if said is None else said["dealer"]["description"]
        lines = [words.phrase("Dealer has {hand}.", "play", hand=dealer)]
        for i, result in enumerate(event.results):
            if result.evaluation is None:
                lines.append("  " + words.phrase("{sentence}.", "play", sentence=seat_chips_text(game.names[result.seat], result, words)))
                continue
            cards = painter.cards(result.evaluation.showdown).rstrip()
            if said is None:
                described, why = result.evaluation.description, result.explanation
            else:
                described, why = said["results"][i]["hand"]["description"], said["results"][i]["explanation"]
            lines.append(f"  {name[result.seat]}: {cards}  {described}")
            lines.append("    " + words.phrase("{sentence}.", "play", sentence=why))
            lines.append("    " + words.phrase("Chips: {figures}.", "play", figures=chips_figures(result, words)))
        pot = event.pot_explanation if said is None else said["pot_explanation"]
        return [
            *lines,
            painter.bold(words.phrase("Pot: {sentence}.", "play", sentence=pot)),
            words.phrase("Stacks: {stacks}.", "play", stacks=_stacks(game, words)),
        ]
    if isinstance(event, RoundVoided):
        back = words.pgettext("list", ", ").join(
            words.phrase("{name} {chips}", "play", name=name[s], chips=number_text(c, words)) for s, c in enumerate(event.returned) if c
        )
        return [words.phrase("Round {round} is void: every chip of it goes back ({returned}).", "play", round=event.round, returned=back)]
    return []
