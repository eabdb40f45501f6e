"""The video-poker machine and its trainer: every hold of a deal valued
exactly as the solver and the advisor value it, the credits and the pays
of each bet, the trainer's verdicts and the session log as the fold of
the hands, a machine saved and restored at any moment going on exactly."""

from __future__ import annotations

import json
import random
import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivecard.core.cards import parse_cards
from fivecard.play.advise import advise
from fivecard.play.machine import (
    BIGGEST,
    CREDITS,
    LOG_COLUMNS,
    HandRecord,
    Machine,
    SessionLog,
    Tally,
    judge,
    records_of,
)
from fivecard.play.paytables import builtin_paytable
from fivecard.play.strategy import hold_values, solve_paytable
from fivecard.play.table_game import MAX_ROUNDS, GameError
from fivecard.vector.classes import HOLDS

GAMES = ("jacks-or-better", "deuces-wild", "joker-poker-kings-20-7-5")


def _positions(mask: int) -> list[int]:
    return [i for i in range(5) if mask >> i & 1]


# -- every hold of a deal, valued ------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_hold_is_valued_as_the_advisor_values_it(game: str) -> None:
    table = builtin_paytable(game)
    values = hold_values(table)
    deck = list(values.rules.deck())
    rng = random.Random(game)
    for _ in range(4):
        cards = rng.sample(deck, 5)
        dealt = values.of(cards)
        advice = advise(cards, rules=values.rules, paytable=table)
        for choice in advice.choices:
            mask = sum(1 << cards.index(c) for c in choice.keep)
            assert choice.ev == pytest.approx(float(dealt.values[mask]), abs=1e-12)
        assert advice.recommended.ev == pytest.approx(float(dealt.best_value), abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["jacks-or-better", "deuces-wild"])
def test_one_deal_is_valued_as_the_solver_values_its_class(game: str) -> None:
    """Whatever order the cards come in, each deal's 32 values are its
    class's, and the best hold is the solver's best value."""
    table = builtin_paytable(game)
    solution = solve_paytable(table, values=True)
    assert solution.values is not None
    values = hold_values(table)
    deck = list(solution.rules.deck())
    rng = np.random.default_rng(5)
    for row in rng.choice(len(solution.classes), 400, replace=False).tolist():
        cards = [deck[i] for i in solution.classes.first[row].tolist()]
        order = rng.permutation(5).tolist()
        shuffled = [cards[i] for i in order]
        dealt = values.of(shuffled)
        for mask in range(32):
            mine = sum(1 << order.index(i) for i in HOLDS[mask])  # the same cards, as dealt here
            assert float(dealt.values[mine]) == solution.values[row, mask]
        assert float(dealt.best_value) == solution.best_value[row]


def test_fewer_coins_pay_the_royal_below_the_most() -> None:
    table = builtin_paytable("jacks-or-better")
    royal = parse_cards("AS KS QS JS TS")
    values = hold_values(table)
    assert values.of(royal, 5).values[31] == 800
    assert values.of(royal, 1).values[31] == 250
    assert values.of(royal, 4).best == 31


def test_a_deal_that_is_no_deal_is_refused() -> None:
    values = hold_values(builtin_paytable("jacks-or-better"))
    with pytest.raises(ValueError, match="five different cards"):
        values.of(parse_cards("AS AS KS QS JS"))
    with pytest.raises(ValueError, match="five different cards"):
        values.of(parse_cards("AS KS QS JS"))


# -- the trainer's verdict -------------------------------------------------------------------


def test_a_verdict_prices_a_mistake_exactly() -> None:
    table = builtin_paytable("jacks-or-better")
    values = hold_values(table)
    cards = parse_cards("KS KH 7D 4C 2S")
    dealt = values.of(cards)
    best = judge(dealt, [0, 1], values.rules, table)
    assert best.is_best and best.cost == 0 and best.held == (0, 1)
    assert best.text().startswith("Best hold: High pair (J or better) (K♠ K♥)")
    mistake = judge(dealt, [0], values.rules, table)
    assert not mistake.is_best
    assert mistake.cost == (dealt.values[0b11] - dealt.values[0b1]) * 5
    assert mistake.cost_percent == (dealt.values[0b11] - dealt.values[0b1]) * 100
    assert mistake.best == (0, 1)
    assert f"Cost: {float(mistake.cost):.4f} coins" in mistake.text()
    data = mistake.to_json()
    assert data["best"] == [1, 2] and data["held"] == [1]
    assert Fraction(data["cost_exact"]) == mistake.cost


def test_a_hold_worth_as_much_as_the_best_is_no_mistake() -> None:
    """Two equal pairs' holds of a deal alike: either is a best hold."""
    table = builtin_paytable("jacks-or-better")
    values = hold_values(table)
    dealt = values.of(parse_cards("2S 3S 4S 5S 7S"))  # a pat flush: keep all
    assert dealt.best == 31
    verdict = judge(dealt, range(5), values.rules, table)
    assert verdict.is_best
    assert not verdict.warns(0)


def test_warnings_are_only_for_mistakes_above_the_threshold() -> None:
    table = builtin_paytable("jacks-or-better")
    values = hold_values(table)
    dealt = values.of(parse_cards("KS KH 7D 4C 2S"))
    mistake = judge(dealt, [0], values.rules, table)
    assert mistake.warns(0)
    assert not mistake.warns(mistake.cost_percent)
    assert mistake.warns(mistake.cost_percent - Fraction(1, 100))


# -- the machine ------------------------------------------------------------------------------


def _play(machine: Machine, hands: int, rng: random.Random) -> list[dict[str, object]]:
    """Deal and draw, sometimes the best hold, sometimes another; the events."""
    events: list[dict[str, object]] = []
    for _ in range(hands):
        events.append(machine.deal().to_json())
        best = machine.deal_values().best
        keep = _positions(best) if rng.random() < 0.6 else sorted(rng.sample(range(5), rng.randint(0, 5)))
        events.append(machine.draw(keep).to_json())
    return events


@pytest.mark.parametrize("game", GAMES)
def test_the_log_is_the_fold_of_the_hands_the_machine_kept(game: str) -> None:
    machine = Machine(game, seed=3)
    events = _play(machine, 60, random.Random(4))
    log = SessionLog.of(machine.paytable.title, records_of(events))
    assert log.tally == machine.tally
    assert log.biggest == machine.biggest == machine.log().biggest
    assert machine.tally.hands == 60
    assert machine.credits == CREDITS - machine.tally.bet + machine.tally.paid
    records = records_of(events)
    assert machine.tally.cost == sum((r.cost for r in records), Fraction(0))
    assert machine.tally.mistakes == sum(r.mistake for r in records)
    assert len(log.rows()) == 60 and all(len(row) == len(LOG_COLUMNS) for row in log.rows())
    costs = [r.cost for r in log.biggest]
    assert costs == sorted(costs, reverse=True) and len(log.biggest) <= BIGGEST
    assert log.return_perfect == machine.tally.perfect / machine.tally.bet


def test_a_hand_is_paid_its_line_times_the_coins_bet() -> None:
    machine = Machine("jacks-or-better", seed=1, coins=3)
    for _ in range(40):
        dealt = machine.deal()
        drawn = machine.draw(_positions(machine.deal_values().best))
        record = drawn.record
        assert record.cards == dealt.cards and record.coins == 3
        table = machine.paytable
        pays = dict(zip([e.key for e in table.entries] + ["nothing"], table.line_pays(3)))
        assert record.paid == int(pays[record.line]) * 3
        assert drawn.verdict.is_best and record.cost == 0
        assert record.final[: len(record.held)] == tuple(record.cards[p] for p in record.held)


def test_the_same_seed_deals_the_same_hands_and_another_does_not() -> None:
    one, two, other = Machine("deuces-wild", seed=9), Machine("deuces-wild", seed=9), Machine("deuces-wild", seed=10)
    assert [one.deal().cards, one.void()] and two.deal().cards == one.deal().cards
    assert other.deal().cards != two.current.cards  # type: ignore[union-attr]


def test_voiding_gives_the_bet_back_and_deals_the_same_hand_again() -> None:
    machine = Machine("jacks-or-better", seed=2)
    cards = machine.deal().cards
    assert machine.credits == CREDITS - 5
    machine.void()
    assert machine.credits == CREDITS and machine.phase == "idle"
    assert machine.deal().cards == cards


def test_a_voided_hand_is_dealt_again_at_its_bet() -> None:
    """Voiding shows a hand's cards for nothing: were the bet free to change
    before it is dealt again, a player would bet the most on the good
    deals only. The bet stays until the hand is drawn (a practice hand
    meanwhile changes nothing), then changes as before."""
    machine = Machine("jacks-or-better", seed=2, coins=1)
    cards = machine.deal().cards
    machine.void()
    assert not machine.can_bet()
    with pytest.raises(GameError, match="hand 1 was voided: it is dealt again at its bet of 1 coin"):
        machine.bet(5)
    machine.bet(1)  # the same bet: nothing changes
    restored = Machine.from_state(json.loads(json.dumps(machine.to_state())))
    with pytest.raises(GameError, match="voided"):
        restored.bet(5)
    again = restored.deal()
    assert (again.cards, again.coins, restored.credits) == (cards, 1, CREDITS - 1)
    restored.draw([])
    restored.replay(1)
    restored.void()  # a practice hand's void holds no bet
    assert restored.can_bet()
    restored.bet(5)
    assert restored.deal().coins == 5


ACTIONS = st.lists(
    st.tuples(st.sampled_from(["deal", "draw", "void", "bet", "cash_in", "replay", "restore"]), st.integers(0, 31)),
    max_size=60,
)


@given(actions=ACTIONS, start=st.integers(0, 30))
@settings(max_examples=80, deadline=None)
def test_the_books_balance_whatever_is_done(actions: list[tuple[str, int]], start: int) -> None:
    """Any actions in any order, refused ones too, and the machine saved and
    restored between them: the credits are always the start, plus what was
    cashed in, less what was bet, plus what was paid (a hand in play's bet
    is out; a practice hand's is never), and never below nothing."""
    machine = Machine("jacks-or-better", seed=start, credits=start * 3, coins=1 + start % 5)
    for action, number in actions:
        try:
            if action == "deal":
                machine.deal()
            elif action == "draw":
                machine.draw(_positions(number))
            elif action == "void":
                machine.void()
            elif action == "bet":
                machine.bet(1 + number % 5)
            elif action == "cash_in":
                machine.cash_in(1 + number)
            elif action == "replay":
                machine.replay(1 + number % 4)
            else:
                machine = Machine.from_state(json.loads(json.dumps(machine.to_state())))
        except GameError:
            pass
        hand = machine.current
        out = hand.coins if hand is not None and not hand.practice else 0
        tally = machine.tally
        assert machine.credits == start * 3 + machine.cashed_in - tally.bet + tally.paid - out >= 0
        assert tally.hands == machine.hands and machine.log().tally == tally


def test_a_replayed_hand_moves_no_credit_and_is_not_logged() -> None:
    machine = Machine("jacks-or-better", seed=2)
    _play(machine, 5, random.Random(1))
    credits, tally = machine.credits, machine.tally
    first = machine.replay(2)
    assert first.practice and machine.credits == credits
    drawn = machine.draw([])
    assert drawn.record.practice and drawn.record.number == 2
    assert machine.credits == credits and machine.tally == tally
    with pytest.raises(GameError, match="hands 1 to 5"):
        machine.replay(6)


def test_actions_out_of_turn_are_refused_with_the_reason() -> None:
    machine = Machine("jacks-or-better", seed=2, credits=7)
    with pytest.raises(GameError, match="deal first"):
        machine.draw([])
    machine.deal()
    with pytest.raises(GameError, match="hold and draw first"):
        machine.deal()
    with pytest.raises(GameError, match="between hands"):
        machine.bet(1)
    with pytest.raises(GameError, match="given twice"):
        machine.draw([0, 0])
    with pytest.raises(GameError, match="no card 6"):
        machine.draw([5])
    machine.draw([])
    if machine.credits < 5:
        with pytest.raises(GameError, match="bet less or cash in"):
            machine.deal()
    machine.cash_in()
    assert machine.can_deal()


@pytest.mark.parametrize(
    "settings",
    [{"coins": 6}, {"coins": 0}, {"credits": -1}, {"threshold": 101}, {"threshold": -1}, {"trainer": "yes"}],
)
def test_bad_settings_are_refused(settings: dict[str, object]) -> None:
    with pytest.raises(GameError):
        Machine("jacks-or-better", **settings)  # type: ignore[arg-type]


def test_a_machine_plays_at_most_so_many_hands() -> None:
    machine = Machine("jacks-or-better", seed=1)
    machine.hands = MAX_ROUNDS
    with pytest.raises(GameError, match="at most"):
        machine.deal()


def test_a_low_rule_set_has_no_machine() -> None:
    with pytest.raises(GameError, match="low"):
        Machine("jacks-or-better", rules="ace-to-five")


# -- saved and restored ------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_machine_restored_at_any_moment_goes_on_exactly(game: str) -> None:
    original = Machine(game, seed=8, show_best=True, threshold=0.5)
    rng = random.Random(2)
    for step in range(30):
        restored = Machine.from_state(json.loads(json.dumps(original.to_state())))
        assert restored.to_state() == original.to_state()
        if original.phase == "idle":
            assert restored.deal() == original.deal()
        else:
            keep = sorted(rng.sample(range(5), rng.randint(0, 5)))
            assert restored.draw(keep).record == original.draw(keep).record
        if step == 21:  # (idle: a practice hand is restored mid-hand too)
            original.replay(3)


def test_an_unseeded_machine_keeps_its_seed_to_itself_in_what_it_says() -> None:
    machine = Machine("jacks-or-better")
    dealt = machine.deal().to_json()
    drawn = machine.draw([]).to_json()
    text = json.dumps([dealt, drawn])
    assert str(machine.seed) not in text
    assert "deck" not in text


def test_damaged_state_is_refused_whole() -> None:
    state = Machine("jacks-or-better", seed=1).to_state()
    for key in ("paytable", "tally", "hands", "coins"):
        broken = {k: v for k, v in state.items() if k != key}
        with pytest.raises(GameError):
            Machine.from_state(broken)
    with pytest.raises(GameError):
        Machine.from_state({**state, "hand": {"number": 5, "coins": 5, "practice": False}})


def _hostile_states() -> dict[str, dict[str, object]]:
    """A machine's state mid-hand after two hands, each changed one way it
    never is."""
    machine = Machine("jacks-or-better", seed=5)
    for _ in range(2):
        machine.deal()
        machine.draw([])
    machine.deal()
    state = json.loads(json.dumps(machine.to_state()))
    assert state["biggest"]

    def changed(path: str, value: object) -> dict[str, object]:
        copy = json.loads(json.dumps(state))
        *outer, last = path.split(".")
        place = copy
        for key in outer:
            place = place[key]
        place[last] = value
        return dict(copy)

    record = state["biggest"][0]
    cases: dict[str, dict[str, object]] = {}
    fields: dict[str, list[object]] = {
        "hands": [-1, 10**30, "2", 2.5, float("inf"), float("nan"), True, None, MAX_ROUNDS + 1],
        "credits": [-5, 10**40, "985", 1e300, float("inf")],
        "cashed_in": [-1, "x", 10**30, 1.5],
        "seed": ["5", 1.5, None],
        "seeded": ["no", 1, None],
        "trainer": ["yes", 0],
        "show_best": ["no"],
        "voided": ["no", 1],
        "coins": [0, "5", 6],
        "threshold": ["1/0", "10**1000", "1e400", "1e999999999", "nan", "1" * 100_000, "-1/1", "101/1", 5, None],
        "tally.hands": [-4, "2", 2.5, 3],
        "tally.bet": [-10, "10"],
        "tally.mistakes": [-1, 99],
        "tally.cost": ["1/0", "1e99999999", "9" * 100_000, "x", 0.5, "-1/1"],
        "tally.expected": ["1/0", "1e999999999"],
        "hand": ["x", [1], 7],
        "hand.number": [0, 99, "3", 2.5],
        "hand.coins": [0, 6, "5"],
        "hand.practice": ["false", 0],
        "biggest": [{"a": 1}, None, "abc", [record] * 1_000_000, [record] * (BIGGEST + 1), [7]],
        "paytable": ["nope", "/etc/passwd", 5],
        "rules": ["ace-to-five", "zzz", None],
    }
    for path, values in fields.items():
        for value in values:
            cases[f"{path}={str(value)[:20]!r}"] = changed(path, value)
    record_fields: dict[str, list[object]] = {
        "number": [0, MAX_ROUNDS + 1, "1", 99],
        "coins": [0, "5", 10**30],
        "paid": [-1, "0"],
        "perfect_paid": [-1],
        "value": ["1/0", "1e999999999"],
        "best_value": ["1/0"],
        "held": [[0], [6], ["1"], "12"],
        "cards": [["Xx"], "AsKs", []],
        "practice": ["false"],
    }
    for path, values in record_fields.items():
        for value in values:
            cases[f"biggest.{path}={str(value)[:20]!r}"] = changed("biggest", [{**record, path: value}])
    cases["no tally.hands"] = changed("tally", {k: v for k, v in state["tally"].items() if k != "hands"})
    return cases


HOSTILE = _hostile_states()


@pytest.mark.parametrize("state", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_state_is_a_game_error_at_once(state: dict[str, object]) -> None:
    """Whatever a saved state holds (numbers out of range or of the wrong
    type, fractions that divide by zero or would take hours to read, a
    million mistakes), restoring it is a :class:`GameError`, at once:
    never another exception, a hang, or a machine that is not one."""
    started = time.process_time()  # (processor time: a busy machine's waits are not the code's)
    with pytest.raises(GameError, match="a saved machine that cannot be restored: "):
        Machine.from_state(state)
    assert time.process_time() - started < 0.5


def test_a_table_not_in_the_catalogue_plays_but_is_not_kept() -> None:
    from fivecard.play.paytables import parse_paytable

    mine = parse_paytable('{"pays": {"royal_flush": 800, "one_pair": 1}, "min_pair": "J"}', name="mine")
    machine = Machine(mine, seed=1)
    machine.deal()
    assert machine.draw([]).record.number == 1
    with pytest.raises(GameError, match="only a catalogue game"):
        machine.to_state()


def test_a_record_reads_back_as_written() -> None:
    machine = Machine("deuces-wild", seed=4)
    machine.deal()
    record = machine.draw([0, 1]).record
    assert HandRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert Tally.from_state(json.loads(json.dumps(machine.tally.to_state()))) == machine.tally
