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
from typing import Any

from ..core.cards import Card, Suit
from ..core.lang import ENGLISH, Language, language
from ..core.words import card_name, card_text, rank_letter
from ..core.evaluate import Evaluation, evaluate
from ..core.report import Painter, evaluation_json
from ..core.rules import RuleSet
from .advise import Advice
from .game import (
    ANTE,
    BET,
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



def card_json(card: Card, lang: Language | str | None = None) -> dict[str, Any]:
    """A card for a page, the one form every answer gives a card in:
    ``{"code", "text", "rank", "suit", "symbol", "label", "red"}`` (``rank``
    as a face shows it, ``"10"``; ``symbol``, the suit's sign; a joker has
    neither rank nor suit, a rank-only card no suit). In ``lang`` (default
    English): ``label``, the card in words for screen readers
    (:func:`~fivecard.core.words.card_name`), and ``text`` and ``rank`` as
    the language writes them (Russian ``К♠``); ``code`` and the rest are the
    same in every language.

    >>> card_json(Card.parse("Th"))
    {'code': 'Th', 'text': '10♥', 'rank': '10', 'suit': 'h', 'symbol': '♥', 'label': 'Ten of hearts', 'red': True}
    >>> card_json(Card.parse("Ks"), "ru")
    {'code': 'Ks', 'text': 'К♠', 'rank': 'К', 'suit': 's', 'symbol': '♠', 'label': 'король пик', 'red': False}
    """
    words = language(lang)
    if card.is_joker:
        return {
            "code": card.code_str, "text": str(card), "rank": None, "suit": None, "symbol": None,
            "label": "Joker" if words is ENGLISH else card_name(card, words), "red": False,
        }  # fmt: skip
    assert card.rank is not None
    suit = card.suit
    if words is ENGLISH:
        label = card.rank.word if suit is None else f"{card.rank.word} of {suit.name.lower()}"
        text, rank = str(card), card.rank.short
    else:
        label, text, rank = card_name(card, words), card_text(card, words), rank_letter(card.rank, words)
    return {
        "code": card.code_str,
        "text": text,
        "rank": rank,
        "suit": None if suit is None else suit.value,
        "symbol": None if suit is None else suit.symbol,
        "label": label,
        "red": suit is not None and suit.value in "hd",
    }


def cards_json(cards: Sequence[Card], lang: Language | str | None = None) -> list[dict[str, Any]]:
    """Cards as card objects (:func:`card_json`), labelled in ``lang``."""
    return [card_json(c, lang) for c in cards]


def deck_json(rules: RuleSet, lang: Language | str | None = None) -> dict[str, Any]:
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


def _chips(n: int) -> str:
    return f"{n:,} chip{'' if n == 1 else 's'}"


def event_json(game: Game, event: Event) -> dict[str, Any]:
    """One event as the player sees it, with ``type``, ``round`` (the
    round it belongs to) and ``text``, a sentence about it. A computer
    player's discarded and drawn cards stay hidden (their number is shown),
    as at a real table. Your exchange carries the trainer's ``verdict`` when
    the trainer is on (:meth:`ExchangeVerdict.to_json
    <fivecard.play.game.ExchangeVerdict.to_json>`)."""
    data = _event_json(game, event)
    data.setdefault("round", game.rounds)
    return Game.public_event(data)


def _event_json(game: Game, event: Event) -> dict[str, Any]:
    names = game.names
    if isinstance(event, RoundStarted):
        dealt = ", ".join(names[s] for s in event.seats)
        carried = f" ({_chips(event.carried)} carried over)" if event.carried else ""
        return {
            "type": "round_started",
            "round": event.round,
            "seats": list(event.seats),
            "pot": event.pot,
            "carried": event.carried,
            "stacks": list(event.stacks),
            "text": f"Round {event.round}: {dealt} ante {ANTE} and bet {BET}; the pot is {event.pot}{carried}",
        }
    if isinstance(event, Folded):
        verb = "fold" if event.seat == 0 else "folds"
        # (a computer's reason, the advisor's, would name the cards it kept)
        return {"type": "folded", "seat": event.seat, "text": f"{names[event.seat]} {verb}"}
    if isinstance(event, Exchanged):
        mine = event.seat == 0
        count = len(event.drawn)
        if count == 0:
            what = "keep all five" if mine else "keeps all five"
        else:
            what = f"{'exchange' if mine else 'exchanges'} {count} card{'s' if count != 1 else ''}"
        data: dict[str, Any] = {
            "type": "exchanged",
            "seat": event.seat,
            "count": count,
            "text": f"{names[event.seat]} {what}",
        }
        if mine:
            data.update(kept=cards_json(event.kept), discarded=cards_json(event.discarded), drawn=cards_json(event.drawn))
            if event.verdict is not None:  # the trainer's (ExchangeVerdict.to_json)
                data["verdict"] = event.verdict.to_json()
        return data
    if isinstance(event, DealerCard):
        return {
            "type": "dealer_card",
            "card": card_json(event.card),
            "position": event.position,
            "text": f"The dealer's card {event.position}: {_label(event.card)}",
        }
    if isinstance(event, RoundSettled):
        return _settled_json(game, event)
    return {
        "type": "round_voided",
        "round": event.round,
        "returned": list(event.returned),
        "pot": event.pot,
        "stacks": list(event.stacks),
        "text": f"Round {event.round} is void: every chip of it goes back",
    }


def _label(card: Card) -> str:
    return "a joker" if card.is_joker else card_json(card)["label"]


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
                "chips_text": seat_chips_text(names[result.seat], result),
                "hand": None if result.evaluation is None else evaluation_json(result.evaluation),
                # the hand in showdown order; a folded hand is shown to its owner only
                "cards": _seat_cards(result),
                "explanation": result.explanation,
            }
        )
    mine = next((r for r in event.results if r.seat == 0), None)
    if mine is None:
        headline = event.pot_explanation
    elif mine.against_dealer == "fold":
        headline = f"You folded. {_capital(event.pot_explanation)}"
    else:
        headline = f"{_capital(mine.explanation)}. {_capital(event.pot_explanation)}"
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
        "pot_text": pot_text(event, names),
        "chips_text": _round_chips_text(event, names),
        "stacks": list(event.stacks),
        "text": headline,
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

#: What a seat did against the dealer, as the sentences of its chips say it.
_AGAINST: dict[str, str] = {
    "win": "beat the dealer",
    "lose": "lost to the dealer",
    "draw": "drew with the dealer",
    "fold": "folded",
}


def signed(n: int) -> str:
    """Chips with their sign as people write them: ``+10``, ``−1,020``
    (a minus sign), ``0``.

    >>> signed(10), signed(-1020), signed(0)
    ('+10', '−1,020', '0')
    """
    if n > 0:
        return f"+{n:,}"
    if n < 0:
        return f"−{-n:,}"
    return "0"


def _named(name: str, first: bool) -> str:
    """A seat's name in a sentence: the player, "You", is "you" inside one."""
    return name if first or name != "You" else "you"


def seat_chips_text(name: str, result: SeatResult) -> str:
    """What a round did to one seat's chips, in a sentence whose figures add
    up: the house bet's result, the pot's share (when it took one), the
    ante, and the net, the change of its stack.

    >>> from fivecard.play.game import SeatResult
    >>> seat_chips_text("You", SeatResult(0, None, "fold", -10, 0, "You folded"))
    'You folded: −10 house bet, −10 ante, −20 net'
    """
    return f"{name} {_AGAINST[result.against_dealer]}: {chips_figures(result)}"


def chips_figures(result: SeatResult) -> str:
    """A seat's chips in a round, the figures of :func:`seat_chips_text`.

    >>> from fivecard.play.game import SeatResult
    >>> chips_figures(SeatResult(2, None, "lose", -10, 30, "…"))
    '−10 house bet, +30 pot, −10 ante, +10 net'
    """
    terms = [f"{signed(result.house)} house bet"]
    if result.pot:
        terms.append(f"{signed(result.pot)} pot")
    terms += [f"{signed(-result.ante)} ante", f"{signed(result.net)} net"]
    return ", ".join(terms)


def pot_text(event: RoundSettled, names: Sequence[str], *, first: bool = True) -> str:
    """Who took a settled round's pot, in a sentence: its size (and the
    chips of it carried from earlier rounds), each share of a split, or
    that it carries to the next round. ``first``: the sentence starts with
    it (else "You" is "you")."""
    pot = f"the pot of {event.pot:,}"
    if event.carried_in:
        pot += f", {event.carried_in:,} of it carried in"
    if not event.pot_winners:
        return f"{'Everyone' if first else 'everyone'} folded: {pot} carries to the next round"
    shares = {r.seat: r.pot for r in event.results}
    who = [_named(names[s], first and i == 0) for i, s in enumerate(event.pot_winners)]
    if len(who) == 1:
        return f"{who[0]} took {pot}"
    together = ", ".join(who[:-1]) + f" and {who[-1]}"
    each = ", ".join(f"{_named(names[s], False)} {shares[s]:,}" for s in event.pot_winners)
    return f"{together} split {pot} ({each})"


def _round_chips_text(event: RoundSettled, names: Sequence[str]) -> str:
    """The round for the player (seat 0) in a sentence: its chips
    (:func:`seat_chips_text`), then who took the pot (:func:`pot_text`)."""
    mine = next((r for r in event.results if r.seat == 0), None)
    if mine is None:
        return pot_text(event, names)
    return f"{seat_chips_text(names[0], mine)}; {pot_text(event, names, first=False)}"


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

    def to_json(self, opening: int) -> dict[str, Any]:
        """The figures as JSON data: ``rounds``; ``against_dealer``, the
        rounds won, lost, drawn and folded (``win``, ``lose``, ``draw``,
        ``fold``); ``pots`` won (alone or split) and ``pot_chips`` taken
        from them; ``chips``, the stack before the first round then after
        each one; ``net``, the last less the first; ``text``, in a sentence.
        ``opening``: the stack before the first round, when none is
        settled yet."""
        start = opening if self.start is None else self.start
        chips = [start, *self.stacks]
        rounds = len(self.stacks)
        net = chips[-1] - start
        if rounds:
            o = self.outcomes
            text = (
                f"{_count(rounds, 'round')} against the dealer: {_count(o['win'], 'win')}, "
                f"{_count(o['lose'], 'loss', 'losses')}, {_count(o['draw'], 'draw')}, "
                f"{_count(o['fold'], 'fold')}; {_count(self.pots, 'pot')} won; "
                f"chips {start:,} → {chips[-1]:,} ({signed(net)})."
            )
        else:
            text = f"No round settled yet; chips {start:,}."
        return {
            "rounds": rounds,
            "against_dealer": dict(self.outcomes),
            "pots": self.pots,
            "pot_chips": self.pot_chips,
            "chips": chips,
            "net": net,
            "text": text,
        }


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def session_json(settled: Iterable[Mapping[str, Any]], opening: int, *, seat: int = 0) -> dict[str, Any]:
    """A game's figures for a seat from the event JSON of its settled
    rounds, oldest first (:class:`Session`); ``opening``: its stack before
    the first round, when none is settled yet
    (:attr:`Game.stacks_before <fivecard.play.game.Game.stacks_before>`)."""
    session = Session(seat)
    for event in settled:
        session.add(event)
    return session.to_json(opening)


#: Hands named by a count of cards, or by no combination at all, take no
#: article ("the dealer had Two Pair", "High Card"); the others take one.
_NO_ARTICLE = re.compile(r"^(One|Two|Three|Four|Five) |^(High Card|No Pair)$")


def a_hand(name: str) -> str:
    """A hand's name as a sentence says it after "had": "a Flush", "a Full
    House", "an Ace-King", but "Two Pair", "Three of a Kind", "High Card"."""
    if _NO_ARTICLE.search(name):
        return name
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def history_entry(settled: dict[str, Any], stacks_before: Sequence[int] | None = None) -> dict[str, Any]:
    """A line of the round history from a settled round's event JSON: the
    round, your result against the dealer, the dealer's hand (its name, and
    as a sentence says it: :func:`a_hand`), the pot's
    winners and your stack after it."""
    mine = next((r for r in settled["results"] if r["seat"] == 0), None)
    return {
        "round": settled["round"],
        "outcome": None if mine is None else mine["outcome"],
        "hand": None if mine is None or mine["hand"] is None else mine["hand"]["name"],
        "dealer": settled["dealer"]["name"],
        "dealer_had": a_hand(settled["dealer"]["name"]),
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
) -> dict[str, Any]:
    """The table as the player (seat 0) sees it now. ``events``: the event
    JSON of the round in play, or of the last round once it is settled
    (shown as :meth:`Game.public_event` shows them, however they were kept);
    ``history``: :func:`history_entry` lines, oldest first. ``trainer``:
    whether your exchanges are judged (the game's setting). ``session``:
    the game's figures for the player (:func:`session_json` of every
    settled round), when given."""
    current = game.current
    phase = game.phase
    seats = []
    for seat, name in enumerate(game.names):
        hand = game.hand(seat)
        seats.append(
            {
                "seat": seat,
                "name": name,
                "computer": game.is_computer(seat),
                "stack": game.stacks[seat],
                "dealt": hand is not None,
                "folded": game.folded(seat),
                # a computer's cards stay face down until the showdown's event shows them
                "cards": cards_json(hand.cards) if hand is not None and seat == 0 else None,
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
        "dealer": cards_json(game.dealer_cards),
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
        "events": [Game.public_event(e) for e in events],
        "history": list(history),
        **({} if session is None else {"session": session}),
        "trainer": game.trainer,
    }


def hint_json(advice: Advice, *, top: int = 5) -> dict[str, Any]:
    """The advisor's view of your hand for the Hint button: ``advise
    --json``'s object with only the ``top`` best choices, and each choice's
    cards as card objects too (``keep_cards``) and its kept positions."""
    data = advice.to_json()
    data["choices"] = data["choices"][:top]
    for row, choice in zip(data["choices"], advice.choices):
        row["keep_cards"] = cards_json(choice.keep)
        row["positions"] = keep_positions(advice.hand.cards, choice.keep)
    return data


# --- the game in a terminal ----------------------------------------------------------------


def _stacks(game: Game) -> str:
    return ", ".join(f"{game.names[s]} {c:,}" for s, c in enumerate(game.stacks))


def title(game: Game) -> str:
    """The game's first line in a terminal: its rules, seed and stacks."""
    return f"Five-card draw against the dealer ({game.rules.name} rules, seed {game.seed}). Stacks {_stacks(game)}."


def standings(game: Game) -> str:
    """The game's last line in a terminal: the rounds played, the stacks
    and any pot carried, unclaimed."""
    carried = f"; {game.pot:,} carried in the pot, unclaimed" if game.pot else ""
    return f"After {game.played} round{'s' if game.played != 1 else ''}: {_stacks(game)}{carried}."


def event_lines(game: Game, event: Event, painter: Painter) -> list[str]:
    """An event as the game in a terminal says it, in lines (seat 0 is
    "you"; your exchange is followed by the trainer's verdict when the
    trainer is on); a dealer's card is shown as it is turned up, not here."""
    name = game.names
    if isinstance(event, RoundStarted):
        carried = f" ({event.carried} carried)" if event.carried else ""
        return [f"\nRound {event.round}: antes {ANTE} and house bets {BET} are in; pot {event.pot}{carried}."]
    if isinstance(event, Folded):
        return ["You fold: your ante and your house bet are lost." if event.seat == 0 else f"{name[event.seat]} folds."]
    if isinstance(event, Exchanged):
        count = len(event.discarded)
        if event.seat != 0:
            return [f"{name[event.seat]} keeps all five cards." if count == 0 else f"{name[event.seat]} keeps {5 - count} and draws {count}."]
        verdict = [] if event.verdict is None else [f"Trainer: {event.verdict.text()}"]
        if count == 0:
            return ["You keep all five cards.", *verdict]
        drawn = " ".join(painter.card(c) for c in event.drawn)
        return [
            f"You draw {drawn}: {painter.cards(event.hand.cards).rstrip()}   ({evaluate(event.hand).description})",
            *verdict,
        ]
    if isinstance(event, RoundSettled):
        lines = [f"Dealer has {event.dealer.description}."]
        for result in event.results:
            if result.evaluation is None:
                lines.append(f"  {seat_chips_text(name[result.seat], result)}.")
                continue
            cards = painter.cards(result.evaluation.showdown).rstrip()
            lines.append(f"  {name[result.seat]}: {cards}  {result.evaluation.description}")
            lines.append(f"    {result.explanation}.")
            lines.append(f"    Chips: {chips_figures(result)}.")
        return [*lines, painter.bold(f"Pot: {event.pot_explanation}."), f"Stacks: {_stacks(game)}."]
    if isinstance(event, RoundVoided):
        back = ", ".join(f"{name[s]} {c:,}" for s, c in enumerate(event.returned) if c)
        return [f"Round {event.round} is void: every chip of it goes back ({back})."]
    return []
