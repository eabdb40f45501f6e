"""Bankroll figures: the chance of ruin, of a royal before ruin, the
smallest bankroll for a risk and the variance, checked against every
sequence of hands (exact fractions), against the hitting-time theorem
(a closed form for a walk that loses at most one bet a hand) and the
classical gambler's ruin, and every bad input refused with a
FivecardError that quotes it."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from math import comb

import pytest

from fivecard.core.errors import FivecardError
from fivecard.play.risk import (
    MAX_HANDS,
    MAX_PAYS,
    BankrollRisk,
    Outcome,
    bankroll_for_risk,
    bankroll_risk,
    expected_pay,
    royal_before_ruin,
    ruin_chance,
    variance,
)

F = Fraction
FAIR = [(0, F(1, 2)), (2, F(1, 2))]
UNFAIR = [(0, F(3, 5)), (2, F(2, 5))]
#: A small game of four outcomes: a loss, a push, a pay of 3 and a "royal" of 6.
SMALL = [(0, F(1, 2)), (1, F(1, 4)), (3, F(3, 16)), (6, F(1, 16))]
SMALL_ROYAL = 3
#: Jacks or Better 9/6 under perfect play (published, rounded to 8 decimals):
#: for sanity values only, not as a proof of exactness.
JACKS_OR_BETTER = [
    (800, 0.00002476), (50, 0.00010931), (25, 0.00236255), (9, 0.01151221), (6, 0.01101451),
    (4, 0.01122937), (3, 0.07444870), (2, 0.12927890), (1, 0.21458503), (0, 0.54543467),
]  # fmt: skip


def brute(outcomes: list[tuple[int, Fraction]], bets: int, hands: int, royal: int | None = None) -> Fraction:
    """Over every history of play (every sequence of outcomes, each cut
    where play stops): the chance of ruin (a bankroll of 0 bets) within
    ``hands`` hands, or with ``royal`` the chance of that outcome before
    ruin."""
    if bets == 0:
        return F(1) if royal is None else F(0)
    if hands == 0:
        return F(0)
    total = F(0)
    for index, (pay, p) in enumerate(outcomes):
        if index == royal:
            total += p
        elif p:
            total += p * brute(outcomes, bets - 1 + pay, hands - 1, royal)
    return total


def hitting_time(outcomes: list[tuple[int, Fraction]], bets: int, hands: int) -> Fraction:
    """The chance of ruin within ``hands`` from ``bets`` by the hitting-time
    theorem: a walk that loses at most one a step first reaches ``-b`` at
    step ``t`` with chance ``b / t * P(S_t = -b)``."""
    step = {pay - 1: p for pay, p in outcomes}
    walk = {0: F(1)}  # the distribution of the net after t hands
    total = F(0)
    for t in range(1, hands + 1):
        after: dict[int, Fraction] = {}
        for net, p in walk.items():
            for move, q in step.items():
                after[net + move] = after.get(net + move, F(0)) + p * q
        walk = after
        total += F(bets, t) * walk.get(-bets, F(0))
    return total


def coin_ruin(win: Fraction, bets: int, hands: int) -> Fraction:
    """The gambler's ruin at even money within ``hands`` (the ballot theorem's closed form)."""
    lose = 1 - win
    return sum(
        (F(bets, t) * comb(t, (t - bets) // 2) * win ** ((t - bets) // 2) * lose ** ((t + bets) // 2)
         for t in range(bets, hands + 1, 2)),
        F(0),
    )  # fmt: skip


def close(value: float, exact: Fraction) -> bool:
    return math.isclose(value, float(exact), rel_tol=1e-12, abs_tol=1e-15)


# ---------------------------------------------------------------- ruin


@pytest.mark.parametrize("coin", [FAIR, UNFAIR], ids=["fair", "unfair"])
def test_ruin_of_a_coin_game_is_every_path_and_the_closed_form(coin: list[tuple[int, Fraction]]) -> None:
    win = coin[1][1]
    for hands in range(1, 41):
        for bets in range(0, hands + 2):
            exact = F(1) if bets == 0 else coin_ruin(win, bets, hands)
            if hands <= 10:
                assert brute(coin, bets, hands) == exact
            assert close(ruin_chance(coin, bets, hands, bet=1), exact), (hands, bets)
            assert close(ruin_chance(coin, bets * 5, hands), exact)  # bets of 5 coins


def test_ruin_of_a_favourable_coin_nears_the_classical_gambler_ruin() -> None:
    """Winning with chance 3/5 at even money, a bankroll of b bets is ever
    ruined with chance (2/3)**b: long play comes within a hair of it."""
    coin = [(0, F(2, 5)), (2, F(3, 5))]
    for bets in (1, 3, 7):
        assert math.isclose(ruin_chance(coin, bets, 3_000, bet=1), (2 / 3) ** bets, rel_tol=1e-9)


def test_ruin_of_a_small_game_is_every_path() -> None:
    for hands in range(1, 6):
        for bets in range(0, hands + 2):
            exact = brute(SMALL, bets, hands)
            assert close(ruin_chance(SMALL, bets * 5, hands), exact), (hands, bets)


@pytest.mark.slow
def test_ruin_of_a_small_game_is_every_path_of_eight_hands() -> None:
    for bets in range(0, 10):
        assert close(ruin_chance(SMALL, bets, 8, bet=1), brute(SMALL, bets, 8))


@pytest.mark.slow
def test_ruin_over_many_hands_is_the_hitting_time_theorem() -> None:
    hands = 30
    table = {bets: hitting_time(SMALL, bets, hands) for bets in range(1, hands + 1)}
    for bets, exact in table.items():
        assert close(ruin_chance(SMALL, bets, hands, bet=1), exact), bets
    # float probabilities, the same game
    floats = [(pay, float(p)) for pay, p in SMALL]
    assert close(ruin_chance(floats, 12, hands, bet=1), table[12])


def test_coins_left_over_a_whole_bet_do_not_count() -> None:
    for coins in range(0, 40):
        assert ruin_chance(SMALL, coins, 6) == ruin_chance(SMALL, coins // 5 * 5, 6)
    assert ruin_chance(SMALL, 4, 6) == 1.0  # less than one bet: ruined before a hand
    assert ruin_chance(SMALL, 35, 6) == 0.0  # more than one bet a hand: never ruined


def test_float_probabilities_rounded_as_published_are_scaled_to_sum_to_one() -> None:
    rounded = [(0, 0.5 + 4e-9), (2, 0.5 + 4e-9)]
    for bets in range(1, 8):
        assert close(ruin_chance(rounded, bets, 12, bet=1), coin_ruin(F(1, 2), bets, 12))
    assert close(float(variance(rounded)), F(1))


@pytest.mark.slow
def test_ruin_falls_with_the_bankroll_and_rises_with_the_hands() -> None:
    hands = 300
    by_bankroll = [ruin_chance(JACKS_OR_BETTER, 5 * bets, hands) for bets in range(0, hands + 2)]
    assert by_bankroll[0] == 1.0 and by_bankroll[-1] == 0.0
    assert all(a > b for a, b in zip(by_bankroll[:-1], by_bankroll[1:]))
    by_hands = [ruin_chance(JACKS_OR_BETTER, 200, count) for count in range(1, 400, 20)]
    assert by_hands[0] == 0.0 < by_hands[-1]
    assert all(a <= b for a, b in zip(by_hands[:-1], by_hands[1:]))
    assert all(a < b for a, b in zip(by_hands[2:-1], by_hands[3:]))  # once 40 losses are possible


def test_jacks_or_better_figures_are_sane() -> None:
    """Losing some half a percent a hand with a variance near 19.5, most of
    it the royal's: 200 bets last 1,000 hands but about once in 1,000 (the
    rest of the game's spread, some 1.9 bets a hand, puts the loss 3.3
    deviations away); 10 bets seldom last 500."""
    assert math.isclose(float(variance(JACKS_OR_BETTER)), 19.51, abs_tol=0.01)
    assert math.isclose(float(expected_pay(JACKS_OR_BETTER)), 0.99544, abs_tol=1e-5)
    assert 0.0005 < ruin_chance(JACKS_OR_BETTER, 1_000, 1_000) < 0.002
    assert ruin_chance(JACKS_OR_BETTER, 50, 500) > 0.8
    royal = royal_before_ruin(JACKS_OR_BETTER, 20_000, 5_000, royal={0})
    assert 0.1 < royal < 1 - (1 - 0.00002476) ** 5_000 + 1e-9


# ---------------------------------------------------------------- a royal before ruin


def test_royal_before_ruin_is_every_path() -> None:
    for hands in range(1, 6):
        for bets in range(0, hands + 3):
            exact = brute(SMALL, bets, hands, royal=SMALL_ROYAL)
            assert close(royal_before_ruin(SMALL, bets * 5, hands, royal={SMALL_ROYAL}), exact), (hands, bets)
    # two outcomes named the royal: either counts
    merged = brute([(0, F(1, 2)), (1, F(1, 4)), (6, F(1, 4))], 2, 5, royal=2)
    assert close(royal_before_ruin(SMALL, 10, 5, royal={2, 3}), merged)


def test_a_royal_with_no_ruin_possible_is_one_minus_none_in_every_hand() -> None:
    for hands in (1, 5, 40):
        never = 1 - (1 - SMALL[SMALL_ROYAL][1]) ** hands
        assert close(royal_before_ruin(SMALL, 5 * (hands + 1), hands, royal=[SMALL_ROYAL]), never)
        assert close(royal_before_ruin(SMALL, 5 * (hands + 9), hands, royal=[SMALL_ROYAL]), never)
    assert royal_before_ruin(SMALL, 0, 5, royal={SMALL_ROYAL}) == 0.0
    assert royal_before_ruin(SMALL, 50, 5, royal=()) == 0.0


@pytest.mark.slow
def test_royal_before_ruin_is_every_path_of_eight_hands() -> None:
    for bets in range(0, 10):
        exact = brute(SMALL, bets, 8, royal=SMALL_ROYAL)
        assert close(royal_before_ruin(SMALL, bets, 8, bet=1, royal={SMALL_ROYAL}), exact)


# ---------------------------------------------------------------- the bankroll for a risk


@pytest.mark.parametrize("game", [SMALL, UNFAIR, JACKS_OR_BETTER], ids=["small", "unfair", "jacks"])
def test_bankroll_for_a_risk_is_the_smallest(game: list[Outcome]) -> None:
    hands, bet = 120, 5
    risks = (0.0, 1e-9, 0.01, 0.05, 0.25, 0.5, 0.9, 1.0)
    found = bankroll_for_risk(game, risks, hands=hands, bet=bet)
    for risk, coins in zip(risks, found):
        assert coins % bet == 0
        assert ruin_chance(game, coins, hands, bet) <= risk
        if coins:
            assert ruin_chance(game, coins - bet, hands, bet) > risk
    assert found[-1] == 0 and found[0] == (hands + 1) * bet  # every game here can lose every hand


def test_bankroll_for_a_risk_grows_with_the_hands() -> None:
    smaller = bankroll_for_risk(JACKS_OR_BETTER, hands=500)
    larger = bankroll_for_risk(JACKS_OR_BETTER, hands=2_000)
    assert all(a <= b for a, b in zip(smaller, larger))
    assert smaller[0] > smaller[1] > smaller[2]  # the default risks 1%, 5%, 50%


# ---------------------------------------------------------------- variance


def test_variance_is_exact_for_fractions_and_close_for_floats() -> None:
    assert variance(FAIR) == 1
    assert variance(SMALL) == sum((p * pay * pay for pay, p in SMALL), F(0)) - expected_pay(SMALL) ** 2
    assert isinstance(variance(SMALL), Fraction) and isinstance(expected_pay(SMALL), Fraction)
    floats = [(pay, float(p)) for pay, p in SMALL]
    assert math.isclose(float(variance(floats)), float(variance(SMALL)), rel_tol=1e-12)
    assert variance([(3, F(1))]) == 0


# ---------------------------------------------------------------- the report


def test_the_report_holds_every_figure_and_says_them() -> None:
    report = bankroll_risk(JACKS_OR_BETTER, 4_003, 1_000, royal={0})
    assert isinstance(report, BankrollRisk)
    assert report.ruin == ruin_chance(JACKS_OR_BETTER, 4_003, 1_000)
    assert report.royal == royal_before_ruin(JACKS_OR_BETTER, 4_003, 1_000, royal={0})
    assert tuple(coins for _, coins in report.bankrolls) == bankroll_for_risk(JACKS_OR_BETTER, hands=1_000)
    data = report.to_json()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {"bet", "bankroll", "hands", "ruin", "royal_before_ruin", "bankrolls", "return", "variance"}
    text = report.text()
    assert "risk of ruin within 1,000 hands from 4,003 coins (800 bets of 5, 3 coins over): " in text
    assert "chance of a royal before ruin within 1,000 hands" in text
    assert text.startswith("bankroll, betting 5 coins a hand:\n")
    for risk, coins in report.bankrolls:
        assert f"at most {risk:.4%} within 1,000 hands: {coins:,} coins ({coins // 5:,} bets)" in text
    bare = bankroll_risk(SMALL, 0, 3, risks=())
    assert bare.royal is None and bare.ruin == 1.0 and bare.bankrolls == ()
    assert "royal" not in bare.text() and bare.text().count("\n") == 2
    unnamed = bankroll_risk(SMALL, None, 3, royal={0})
    assert unnamed.ruin is None and unnamed.royal is None and unnamed.bankroll_coins is None
    assert "risk of ruin within" not in unnamed.text() and "bankroll for a risk" in unnamed.text()


def test_the_report_says_tiny_chances_in_figures() -> None:
    report = bankroll_risk(JACKS_OR_BETTER, 4_000, 1_000, risks=())
    assert report.ruin is not None and 0 < report.ruin < 1e-100
    assert "e-" in report.text()


# ---------------------------------------------------------------- bad input


BAD_CALLS = [
    ("the bankroll must be a whole number of at least 0, got -5", lambda: ruin_chance(SMALL, -5, 10)),
    ("the bankroll must be a whole number of at least 0, got 2.5", lambda: ruin_chance(SMALL, 2.5, 10)),  # type: ignore[arg-type]
    ("the bankroll must be a whole number of at least 0, got True", lambda: ruin_chance(SMALL, True, 10)),
    ("hands must be a whole number of at least 1, got 0", lambda: ruin_chance(SMALL, 5, 0)),
    ("hands must be a whole number of at least 1, got '10'", lambda: royal_before_ruin(SMALL, 5, "10", royal={3})),  # type: ignore[arg-type]
    (f"hands must be at most {MAX_HANDS:,} (the work grows as its square), got {MAX_HANDS + 1:,}",
     lambda: bankroll_for_risk(SMALL, hands=MAX_HANDS + 1)),
    ("the bet must be a whole number of at least 1, got 0", lambda: bankroll_for_risk(SMALL, hands=5, bet=0)),
    ("the pay of outcome 2 must be a whole number of coins per coin bet, 0 or more, got -1",
     lambda: ruin_chance([(0, 0.5), (-1, 0.5)], 5, 5)),
    ("the pay of outcome 1 must be a whole number of coins per coin bet, 0 or more, got 1.5",
     lambda: ruin_chance([(1.5, 0.5), (0, 0.5)], 5, 5)),  # type: ignore[list-item]
    ("the pay of outcome 1 must be a whole number of coins per coin bet, 0 or more, got '2'",
     lambda: variance([("2", 0.5), (0, 0.5)])),  # type: ignore[list-item]
    ("the probability of outcome 2 must be from 0 to 1, got 1.5", lambda: variance([(0, 0.5), (2, 1.5)])),
    ("the probability of outcome 1 must be from 0 to 1, got -0.5", lambda: variance([(0, -0.5), (2, 1.5)])),
    ("the probability of outcome 1 must be from 0 to 1, got nan", lambda: variance([(0, math.nan), (2, 1.0)])),
    ("the probability of outcome 1 must be a number, got '1/2'", lambda: variance([(0, "1/2"), (2, 0.5)])),  # type: ignore[list-item]
    ("the probabilities of a distribution must sum to 1, got 1.01", lambda: ruin_chance([(0, 0.5), (2, 0.51)], 5, 5)),
    ("the probabilities of a distribution must sum to 1, got 1/1000000",
     lambda: ruin_chance([(0, F(1, 1_000_000))], 5, 5)),
    ("the probabilities of a distribution must sum to 1, got 999999/1000000",
     lambda: variance([(0, F(1, 2)), (2, F(1, 2) - F(1, 1_000_000))])),
    ("a distribution needs at least one outcome, got none", lambda: variance([])),
    ("a distribution is a list of (pay, probability), got 'nothing'", lambda: variance("nothing")),  # type: ignore[arg-type]
    ("outcome 1 must be a pair (pay, probability), got (0, 0.5, 2)", lambda: variance([(0, 0.5, 2)])),  # type: ignore[list-item]
    (f"a distribution may have at most {MAX_PAYS} different pays, got {MAX_PAYS + 1}",
     lambda: variance([(pay, F(1, MAX_PAYS + 1)) for pay in range(MAX_PAYS + 1)])),
    ("the royal's outcomes are indices from 0 to 3 into the distribution, got 4",
     lambda: royal_before_ruin(SMALL, 5, 5, royal={4})),
    ("the royal's outcomes are indices from 0 to 3 into the distribution, got 'royal_flush'",
     lambda: bankroll_risk(SMALL, 5, 5, royal={"royal_flush"})),  # type: ignore[arg-type]
    ("the royal must be a set of outcome indices, got 'royal'", lambda: royal_before_ruin(SMALL, 5, 5, royal="royal")),  # type: ignore[arg-type]
    ("a risk must be a chance from 0 to 1, got 5", lambda: bankroll_for_risk(SMALL, (0.5, 5), hands=5)),
    ("a risk must be a chance from 0 to 1, got -0.01", lambda: bankroll_risk(SMALL, 5, 5, risks=(-0.01,))),
    ("risks must be a list of chances, got '5%'", lambda: bankroll_for_risk(SMALL, "5%", hands=5)),  # type: ignore[arg-type]
]  # fmt: skip


@pytest.mark.parametrize("message, call", BAD_CALLS, ids=[m for m, _ in BAD_CALLS])
def test_every_bad_input_is_a_fivecard_error_that_quotes_it(message: str, call: object) -> None:
    assert callable(call)
    with pytest.raises(FivecardError) as caught:
        call()
    assert str(caught.value) == message
