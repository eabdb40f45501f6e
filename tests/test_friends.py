"""The friends' table engine (:mod:`fivecard.play.friends`) on its own:
what an event and a view may carry."""

from __future__ import annotations

from fivecard.play.friends import EVENT_FIELDS, FriendsTable, public_event


# --- events and views ------------------------------------------------------------------------


def test_events_carry_only_their_types_fields() -> None:
    old = {"type": "round_started", "round": 2, "seed": 12345, "text": "Round 2", "at": 1.5}
    assert public_event(old) == {"type": "round_started", "round": 2, "text": "Round 2", "at": 1.5}
    assert public_event({"type": "something new", "secret": 1}) == {"type": "something new"}
    assert "seed" in EVENT_FIELDS["round_closed"]
    assert all("seed" not in fields for kind, fields in EVENT_FIELDS.items() if kind != "round_closed")


def test_a_round_shows_its_seed_when_it_closes_and_never_before() -> None:
    table = FriendsTable(host="host", seed=11)
    table.join("a", "Ann")
    table.join("b", "Bob")
    started = table.start_round("host")
    assert "seed" not in started[0]
    for owner in ("host", "a", "b", ""):
        assert table.view(owner)["round"]["seed"] is None
    table.deal("a")
    assert table.view("b")["round"]["your_hand"] is None and table.view("")["round"]["your_hand"] is None
    closed = table.deal("b")[1][-1]
    assert closed["type"] == "round_closed" and closed["seed"] == table.round.seed  # type: ignore[union-attr]
    assert table.view("")["round"]["seed"] == closed["seed"]


def test_a_seed_the_host_chose_is_said_to_everyone() -> None:
    chosen = FriendsTable(host="host", seed=11)
    drawn = FriendsTable(host="host")
    assert chosen.view("")["seeded"] and not drawn.view("")["seeded"]
    assert "the host chose the shuffle seed" in chosen.opened()[0]["text"]
    assert "seed" not in drawn.opened()[0]["text"]
    again = FriendsTable.from_state(chosen.to_state())
    assert again.seeded
