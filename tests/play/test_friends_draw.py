"""A friends' table's draw (:mod:`fivecard.play.friends`): each seat may
exchange up to the table's number of cards once a round, from the round's
deck, after dealing; every role's attempt at every moment is allowed or
refused as the table says; the round waits for every draw; the cards drawn
are the round's deck in order, seen by the seat alone until the showdown;
a table with a draw seats what one deck deals with every draw; a saved
table restores its draws."""

from __future__ import annotations

import itertools
import json

import pytest

from fivecard.core.hand import HAND_SIZE
from fivecard.core.rules import RULE_SETS
from fivecard.play.friends import MAX_SEATS, FriendsTable, public_event
from fivecard.play.table_game import GameError, RoleRequired, round_deck
from fivecard.play.view import cards_json


def table(draw: int = 2, names: tuple[str, ...] = ("Ann", "Bob"), **settings: object) -> FriendsTable:
    made = FriendsTable(rules="standard", seed=11, host="host", draw=draw, **settings)  # type: ignore[arg-type]
    for name in names:
        made.join(name.lower(), name)
    return made


def test_a_draw_is_0_to_5_cards() -> None:
    for draw in range(HAND_SIZE + 1):
        assert FriendsTable(host="h", draw=draw).view("h")["draw"] == draw
    for bad in (-1, 6, True, 2.0, "2"):
        with pytest.raises(GameError, match="a draw exchanges 0 to 5 cards"):
            FriendsTable(host="h", draw=bad)  # type: ignore[arg-type]


def test_a_table_with_a_draw_seats_what_one_deck_deals_with_every_draw() -> None:
    for rules, draw in itertools.product(RULE_SETS.values(), range(HAND_SIZE + 1)):
        made = FriendsTable(rules=rules, host="h", draw=draw)
        cards = len(rules.deck())
        assert made.max_seats == min(MAX_SEATS, cards // (HAND_SIZE + draw))
        for n in range(made.max_seats):
            made.join(f"o{n}", f"Ann {chr(ord('a') + n)}")
        with pytest.raises(GameError, match="the table is full"):
            made.join("late", "Zed")
        # every seat deals and draws its most: the deck holds them all
        made.start_round("h")
        for n in range(made.max_seats):
            made.deal(f"o{n}")
            if draw:
                made.draw(f"o{n}", list(range(HAND_SIZE - draw)))
        assert made.round is not None and not made.round.open


def test_who_may_draw_what_and_when() -> None:
    made = table(draw=2)
    for who in ("host", "stranger", ""):  # the host (no seat), a browser that watches, one with no cookie
        with pytest.raises(RoleRequired, match="take a seat to draw"):
            made.draw(who, [0, 1, 2])
    with pytest.raises(GameError, match="no round is open"):
        made.draw("ann", [0, 1, 2])
    made.start_round("host")
    with pytest.raises(GameError, match="deal your hand in round 1 first"):
        made.draw("ann", [0, 1, 2])
    made.deal("ann")
    for keep, why in (
        ([0, 1], "at most 2 cards: keep 3 or more"),
        ([], "at most 2 cards"),
        ([0, 5, 1], "there is no card 6"),
        ([0, 0, 1], "given twice"),
    ):
        with pytest.raises(GameError, match=why):
            made.draw("ann", keep)
    cards, events = made.draw("ann", [0, 2, 4])
    assert [e["type"] for e in events] == ["drew"] and events[0]["count"] == 2
    with pytest.raises(GameError, match="drawn in round 1 already"):
        made.draw("ann", [0, 1, 2, 3, 4])
    assert not made.can_draw("ann", [0, 1, 2, 3, 4])
    with pytest.raises(GameError, match="this table has no draw"):
        nodraw = table(draw=0)
        nodraw.start_round("host")
        nodraw.deal("ann")
        nodraw.draw("ann", [0, 1, 2, 3, 4])


def test_a_draw_deals_from_the_rounds_deck_in_order_and_keeps_the_kept_cards_in_place() -> None:
    made = table(draw=3)
    made.start_round("host")
    assert made.round is not None
    deck = round_deck(made.rules, made.round.seed)
    ann, _ = made.deal("ann")
    bob, _ = made.deal("bob")
    assert ann == deck[:5] and bob == deck[5:10]
    drawn, _ = made.draw("bob", [1, 3])  # out: positions 0, 2, 4
    assert drawn == [deck[10], bob[1], deck[11], bob[3], deck[12]]
    drawn_ann, events = made.draw("ann", [0, 1, 2, 3, 4])  # stands pat: its draw too
    assert drawn_ann == ann and events[0]["text"] == "Ann keeps all five cards"
    closed = events[-1]
    assert closed["type"] == "round_closed"
    hands = {h["seat"]: h for h in closed["hands"]}
    assert hands[2]["cards"] == [c.code_str for c in drawn] and hands[2]["drew"] == 3 and hands[1]["drew"] == 0


def test_the_round_waits_for_every_draw_and_the_host_may_close_it() -> None:
    made = table(draw=1, names=("Ann", "Bob", "Cy"))
    made.start_round("host")
    for who in ("ann", "bob", "cy"):
        made.deal(who)
    assert made.round is not None and made.round.open  # dealt, not drawn
    made.draw("ann", [0, 1, 2, 3])
    made.draw("bob", [0, 1, 2, 3, 4])
    assert made.round.open
    made.remove("host", 3)  # the one who has not drawn is removed: the round is done
    assert not made.round.open
    made.start_round("host")
    made.deal("ann")
    events = made.close("host")  # closed before anyone drew: the hands as dealt
    assert events[0]["type"] == "round_closed" and [h["drew"] for h in events[0]["hands"]] == [0]


def test_what_each_role_sees_of_a_draw() -> None:
    made = table(draw=2)
    made.start_round("host")
    made.deal("ann")
    made.deal("bob")
    before = made.view("ann")["round"]["your_hand"]
    cards, events = made.draw("ann", [0, 1, 2])
    mine = made.view("ann")["round"]
    assert mine["drawn"] == [1] and mine["your_draw"] == [4, 5]
    assert mine["your_hand"][:3] == before[:3] and mine["your_hand"][3:] != before[3:]
    new = {card["label"] for card in cards_json(cards[3:])}  # the cards drawn: no other browser's view names them
    for who in ("bob", "host", "stranger", ""):
        seen = made.view(who)
        assert seen["round"]["drawn"] == [1] and seen["round"]["your_draw"] is None
        assert not any(label in json.dumps(seen) for label in new)
        assert (seen["round"]["your_hand"] is None) == (who != "bob")
    shown = public_event(events[0])
    assert shown == {"type": "drew", "round": 1, "seat": 1, "name": "Ann", "count": 2, "text": "Ann exchanges 2 cards"}


def test_a_saved_table_keeps_its_draw_and_its_draws() -> None:
    made = table(draw=2)
    made.start_round("host")
    made.deal("ann")
    made.draw("ann", [0, 1, 4])
    made.deal("bob")
    again = FriendsTable.from_state(json.loads(json.dumps(made.to_state())))
    assert again.view("ann") == made.view("ann") and again.draw_limit == 2
    with pytest.raises(GameError, match="drawn in round 1 already"):
        again.draw("ann", [0, 1, 2])
    _, events = again.draw("bob", [0, 1, 2, 3])
    assert events[-1]["type"] == "round_closed"
    old = made.to_state()
    del old["draw"], old["round"]["drawn"]  # a table kept before the draw: none
    assert FriendsTable.from_state(old).draw_limit == 0


def test_a_removal_is_announced_as_the_hosts() -> None:
    made = table(draw=0)
    (event,) = made.remove("host", 2)
    assert event["text"] == "The host removed Bob from the table" and "leaves" not in event["text"]
