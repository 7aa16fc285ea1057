"""engine.core.game.Outcome: one winner or a draw (Rider), or per-seat results with KMC grades."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import GRADES, Outcome, SeatResult, decode, encode


def test_single_winner_and_draw_encode_exactly_as_before() -> None:
    # Saved Rider transcripts sign {"winner", "reason"}: the bytes must not change.
    assert encode(Outcome(1, "win: three Lv.1 cards in Lost (rider.9)")) == (
        b"ds6:reasons39:win: three Lv.1 cards in Lost (rider.9)s6:winneri1ee")
    assert encode(Outcome(None, "draw")) == b"ds6:reasons4:draws6:winnerNe"
    assert Outcome(1, "x").winners == (1,) and not Outcome(1, "x").is_draw
    assert Outcome(None, "draw").winners == () and Outcome(None, "draw").is_draw


@pytest.mark.parametrize(("won", "alive", "grade"), [(True, True, "A"), (True, False, "B"), (False, True, "C"),
                                                     (False, False, "D")])
def test_grades_follow_kmc_6(won: bool, alive: bool, grade: str) -> None:
    # KMC 6 (victory grades): A alive winner, B dead winner, C alive loser, D dead loser.
    assert SeatResult.graded(3, won=won, alive=alive, reason="r").grade == grade


def test_judged_outcome_with_several_winners() -> None:
    out = Outcome.judged("locke.end.key_bases", [
        SeatResult.graded(2, won=True, alive=False, reason="good"),
        SeatResult.graded(0, won=True, alive=True, reason="good"),
        SeatResult.graded(1, won=False, alive=True, reason="evil"),
    ])
    assert out.winner is None and out.winners == (0, 2) and not out.is_draw
    assert [r.seat for r in out.seats] == [0, 1, 2]  # put in seat order
    assert out.result(2) == SeatResult(2, True, "good", "B") and out.result(5) is None
    data = decode(encode(out))
    assert data["seats"][1] == {"seat": 1, "won": False, "reason": "evil", "grade": "C"}
    assert Outcome.from_data(data) == out


def test_judged_outcome_with_one_winner_names_it_and_nobody_winning_is_not_a_draw() -> None:
    one = Outcome.judged("r", [SeatResult(0, False, "x"), SeatResult(1, True, "y")])
    assert one.winner == 1 and one.winners == (1,)
    none = Outcome.judged("r", [SeatResult(0, False, "x"), SeatResult(1, False, "y")])
    assert none.winner is None and none.winners == () and not none.is_draw


@pytest.mark.parametrize("make", [
    lambda: SeatResult(0, True, "r", "C"),            # a losing grade for a winner
    lambda: SeatResult(0, False, "r", "A"),           # a winning grade for a loser
    lambda: SeatResult(0, True, "r", "E"),            # no such grade
    lambda: SeatResult(-1, True, "r"),                # no such seat
    lambda: SeatResult(True, True, "r"),              # type: ignore[arg-type]  # a bool is not a seat
    lambda: Outcome(None, "r", (SeatResult(0, True, "a"),)),                       # winner not named
    lambda: Outcome(1, "r", (SeatResult(0, True, "a"), SeatResult(1, True, "b"))),  # two winners, one named
    lambda: Outcome(None, "r", (SeatResult(1, False, "a"), SeatResult(0, False, "b"))),  # not in seat order
    lambda: Outcome(None, "r", (SeatResult(0, False, "a"), SeatResult(0, False, "b"))),  # a seat twice
])
def test_inconsistent_results_are_refused(make: object) -> None:
    with pytest.raises(ValueError):
        make()  # type: ignore[operator]


@pytest.mark.parametrize("data", [
    None, {"winner": 1}, {"winner": 1, "reason": "r", "extra": 1}, {"winner": "1", "reason": "r"},
    {"winner": True, "reason": "r"}, {"winner": 1, "reason": 5}, {"winner": None, "reason": "r", "seats": ()},
    {"winner": None, "reason": "r", "seats": ({"seat": 0, "won": True},)},
    {"winner": None, "reason": "r", "seats": ({"seat": 0, "won": "yes", "reason": "a", "grade": None},)},
])
def test_from_data_refuses_malformed_outcomes(data: object) -> None:
    with pytest.raises(ValueError):
        Outcome.from_data(data)


results = st.lists(st.tuples(st.booleans(), st.one_of(st.none(), st.booleans()), st.text(max_size=8)),
                   max_size=10)


@given(results, st.text(max_size=20))
def test_outcome_round_trips_through_canonical_bytes(rows: list[tuple[bool, bool | None, str]], reason: str) -> None:
    seats = [SeatResult(i, won, why) if alive is None else SeatResult.graded(i, won=won, alive=alive, reason=why)
             for i, (won, alive, why) in enumerate(rows)]
    out = Outcome.judged(reason, seats)
    back = Outcome.from_data(decode(encode(out)))
    assert back == out and encode(back) == encode(out)
    assert back.winners == tuple(i for i, (won, _, _) in enumerate(rows) if won)
    assert all(r.grade in (None, *GRADES) for r in back.seats)


@given(st.one_of(st.none(), st.integers(0, 9)), st.text(max_size=20))
def test_single_winner_outcome_round_trips(winner: int | None, reason: str) -> None:
    out = Outcome(winner, reason)
    assert Outcome.from_data(decode(encode(out))) == out
    assert set(decode(encode(out))) == {"winner", "reason"}
