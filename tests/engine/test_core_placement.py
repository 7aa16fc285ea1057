"""engine.core.pending.Placement: the hidden-placement request and its three driver answers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import (
    DRIVER_ANSWERS,
    EMPTY,
    SYSTEM,
    ActionCodec,
    CellsOpened,
    IllegalAction,
    NotYourTurn,
    Placement,
    PlacementDisclosed,
    PlacementMade,
    WrongInputKind,
    check_answer_matches,
    decode,
    encode,
)
from engine.core.pending import CardsRevealed, Decision

CELLS = ("a1", "a2", "a3", "b1")
PLACE = Placement("place", "keybases", 2, CELLS, ("kb1", "kb2"))
OPEN = Placement("open", "keybases", 2, ("a2",), handles=(11,))
TELL = Placement("disclose", "keybases", 2, CELLS, handles=(10, 11, 12, 13), to_seats=(1, 4))
CODEC = ActionCodec(DRIVER_ANSWERS)


def test_each_request_accepts_its_own_answer() -> None:
    check_answer_matches(PLACE, PlacementMade(SYSTEM, "keybases"))
    check_answer_matches(OPEN, CellsOpened(SYSTEM, "keybases", (11,), ("kb1",)))
    check_answer_matches(OPEN, CellsOpened(SYSTEM, "keybases", (11,), (EMPTY,)))  # "nothing here" is an answer
    check_answer_matches(TELL, PlacementDisclosed(SYSTEM, "keybases", (10, 11, 12, 13), (1, 4)))


@pytest.mark.parametrize(("pending", "answer", "error"), [
    (PLACE, PlacementMade(0, "keybases"), WrongInputKind),                       # a seat cannot answer it
    (PLACE, PlacementMade(SYSTEM, "ambush:A"), WrongInputKind),                  # another placement
    (PLACE, CellsOpened(SYSTEM, "keybases", (), ()), WrongInputKind),            # the wrong answer kind
    (OPEN, PlacementMade(SYSTEM, "keybases"), WrongInputKind),
    (OPEN, CellsOpened(SYSTEM, "keybases", (12,), ("kb1",)), IllegalAction),     # another cell
    (OPEN, CellsOpened(SYSTEM, "keybases", (11,), ()), IllegalAction),           # no content
    (OPEN, CellsOpened(SYSTEM, "keybases", (11,), ("kb1", "kb2")), IllegalAction),
    (OPEN, CardsRevealed(SYSTEM, "keybases", (11,), ("kb1",)), WrongInputKind),  # a card reveal is not an opening
    (TELL, PlacementDisclosed(SYSTEM, "keybases", (10, 11, 12, 13), (1,)), IllegalAction),  # other seats
    (TELL, PlacementDisclosed(SYSTEM, "keybases", (10, 11), (1, 4)), IllegalAction),        # other cells
    (TELL, PlacementMade(SYSTEM, "keybases"), WrongInputKind),
])
def test_mismatched_answers_are_refused(pending: Placement, answer: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        check_answer_matches(pending, answer)  # type: ignore[arg-type]


def test_a_decision_is_not_answered_by_a_placement() -> None:
    with pytest.raises(WrongInputKind):
        check_answer_matches(Decision(0, "p"), PlacementMade(SYSTEM, "keybases"))
    with pytest.raises(NotYourTurn):
        check_answer_matches(Decision(0, "p"), PlacementMade(1, "keybases"))


@pytest.mark.parametrize("make", [
    lambda: Placement("place", "z", 0, ("a", "a"), ("x",)),               # a cell twice
    lambda: Placement("place", "z", 0, ("a",), ("x", "y")),               # more things than cells
    lambda: Placement("place", "z", 0, ("a", "b"), (EMPTY,)),             # "nothing" is not a thing
    lambda: Placement("place", "z", 0, ("a",), ("x",), handles=(1,)),     # no handles before placing
    lambda: Placement("open", "z", 0, ("a", "b"), handles=(1,)),          # one handle per cell
    lambda: Placement("open", "z", 0, ("a",), ("x",), handles=(1,)),      # an opening names no things
    lambda: Placement("open", "z", 0, ("a",), handles=(1,), to_seats=(2,)),
    lambda: Placement("disclose", "z", 0, ("a",), handles=(1,)),          # disclosed to nobody
])
def test_malformed_requests_are_refused(make: object) -> None:
    with pytest.raises(ValueError):
        make()  # type: ignore[operator]


def test_the_request_shows_what_is_placed_but_never_where() -> None:
    data = decode(encode(PLACE))
    assert data["cells"] == CELLS and data["things"] == ("kb1", "kb2") and data["pending"] == "placement"


handles = st.lists(st.integers(0, 10**6), max_size=6).map(tuple)
texts = st.text(max_size=6)


@given(texts, handles, st.lists(texts, max_size=6).map(tuple), st.lists(st.integers(0, 9), max_size=4).map(tuple))
def test_placement_answers_round_trip_through_the_codec(zone: str, hs: tuple[int, ...], contents: tuple[str, ...],
                                                        seats: tuple[int, ...]) -> None:
    for answer in (PlacementMade(SYSTEM, zone), CellsOpened(SYSTEM, zone, hs, contents),
                   PlacementDisclosed(SYSTEM, zone, hs, seats)):
        assert CODEC.decode(decode(encode(answer))) == answer


@pytest.mark.parametrize("data", [
    {"kind": "cells_opened", "seat": -1, "zone": "z", "handles": (1,), "contents": (None,)},
    {"kind": "cells_opened", "seat": -1, "zone": "z", "handles": ("1",), "contents": ("x",)},
    {"kind": "placement_disclosed", "seat": -1, "zone": "z", "handles": (1,)},
    {"kind": "placement_made", "seat": -1, "zone": 3},
])
def test_codec_refuses_malformed_placement_answers(data: object) -> None:
    from engine.core import MalformedAction

    with pytest.raises(MalformedAction):
        CODEC.decode(data)
