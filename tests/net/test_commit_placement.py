"""net.commit placements: per-cell commitments, opening one cell, and every tampering refused."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import EMPTY, decode, encode
from net.commit import (
    PLACEMENT,
    Opening,
    PlacementCommitments,
    check_placement,
    commit_placement,
    commitment_of,
    open_cell,
)
from net.errors import CommitmentMismatch, IllegalChoice, MalformedMessage, UnexpectedMessage

GAME = bytes(range(32))
OTHER_GAME = bytes(32)
CELLS = ("B:1:1", "B:1:2", "B:2:1", "B:2:2", "B:3:3")
LAYOUT = {"B:1:2": "kb1", "B:2:2": "kb2"}
THINGS = ("kb1", "kb2")


def placed(step: int = 7, seat: int = 3, zone: str = "keybases") -> tuple[PlacementCommitments, dict[str, Opening]]:
    return commit_placement(GAME, step, seat, zone, CELLS, LAYOUT)


def test_opening_one_cell_proves_something_or_nothing() -> None:
    public, openings = placed()
    assert open_cell(public, "B:1:2", openings["B:1:2"]) == "kb1"
    assert open_cell(public, "B:1:1", openings["B:1:1"]) == EMPTY
    assert open_cell(public, "B:2:2", openings["B:2:2"].to_data()) == "kb2"  # as received on the wire
    assert check_placement(public, openings, THINGS) == {c: LAYOUT.get(c, EMPTY) for c in CELLS}


def test_commitments_reveal_nothing_and_are_fresh() -> None:
    public, _ = placed()
    again, _ = placed()
    assert len(set(public.commitments)) == len(CELLS)  # empty cells look like any other
    assert not set(public.commitments) & set(again.commitments)  # fresh salts


def test_the_public_half_round_trips_through_canonical_bytes() -> None:
    public, _ = placed()
    assert PlacementCommitments.from_data(GAME, 7, 3, decode(encode(public.to_data()))) == public


@pytest.mark.parametrize("tamper", ["content", "salt", "other cell", "other placement"])
def test_a_tampered_opening_is_refused_naming_the_placer(tamper: str) -> None:
    public, openings = placed()
    good = openings["B:1:1"]
    bad = {
        "content": Opening("kb1", good.salt),  # claims a key base where there is none
        "salt": Opening(good.value, bytes(32)),
        "other cell": openings["B:1:2"],       # another cell's valid opening
        "other placement": commit_placement(GAME, 7, 3, "ambush:A", CELLS, {})[1]["B:1:1"],
    }[tamper]
    with pytest.raises(CommitmentMismatch) as caught:
        open_cell(public, "B:1:1", bad)
    assert caught.value.seat == 3


@pytest.mark.parametrize("field", ["game", "step", "seat", "zone", "commitments"])
def test_openings_are_bound_to_game_step_seat_zone_and_cell(field: str) -> None:
    public, openings = placed()
    moved = {
        "game": dataclasses.replace(public, game=OTHER_GAME),
        "step": dataclasses.replace(public, step=8),       # replayed in a later step
        "seat": dataclasses.replace(public, seat=4),       # copied by another seat
        "zone": dataclasses.replace(public, zone="ambush:A"),
        "commitments": dataclasses.replace(public, commitments=public.commitments[1::-1] + public.commitments[2:]),
    }[field]
    with pytest.raises(CommitmentMismatch):
        open_cell(moved, "B:1:2", openings["B:1:2"])


def test_a_cell_that_is_no_candidate_is_refused() -> None:
    public, openings = placed()
    with pytest.raises(UnexpectedMessage, match="not a candidate"):
        open_cell(public, "B:6:6", openings["B:1:1"])


@pytest.mark.parametrize("opening", [
    {"value": EMPTY},                          # no salt
    {"value": EMPTY, "salt": b"short"},
    {"value": EMPTY, "salt": bytes(32), "x": 1},
    "not an opening",
])
def test_malformed_openings_are_refused(opening: object) -> None:
    public, _ = placed()
    with pytest.raises(MalformedMessage) as caught:
        open_cell(public, "B:1:1", opening)  # type: ignore[arg-type]
    assert caught.value.seat == 3


@pytest.mark.parametrize("value", [5, None, ("kb1",), b"kb1"])
def test_a_placer_that_committed_to_garbage_is_caught(value: object) -> None:
    """A cheating placer builds its own commitment to a content that is not text."""
    public, openings = placed()
    index = CELLS.index("B:1:1")
    opening = Opening(value, bytes(range(32)))
    commitment = commitment_of(GAME, 7, 3, ("keybases", "B:1:1", value), opening.salt, purpose=PLACEMENT)
    forged = dataclasses.replace(public, commitments=public.commitments[:index] + (commitment,)
                                 + public.commitments[index + 1:])
    with pytest.raises(IllegalChoice) as caught:
        open_cell(forged, "B:1:1", opening)
    assert caught.value.seat == 3


@pytest.mark.parametrize("layout", [{"B:1:2": "kb1"}, {"B:1:2": "kb1", "B:2:2": "kb1"},
                                    {"B:1:2": "kb1", "B:2:2": "kb2", "B:3:3": "kb3"}])
def test_the_audit_catches_a_placement_of_the_wrong_things(layout: dict[str, str]) -> None:
    public, openings = commit_placement(GAME, 7, 3, "keybases", CELLS, layout)
    with pytest.raises(IllegalChoice, match="rules had it place"):
        check_placement(public, openings, THINGS)


def test_the_audit_needs_every_cell_opened_and_no_other() -> None:
    public, openings = placed()
    with pytest.raises(UnexpectedMessage, match="missing"):
        check_placement(public, {c: o for c, o in openings.items() if c != "B:3:3"}, THINGS)
    with pytest.raises(UnexpectedMessage, match="not candidates"):
        check_placement(public, {**openings, "B:9:9": openings["B:1:1"]}, THINGS)


@pytest.mark.parametrize("data", [
    None, {"zone": "keybases", "cells": CELLS},
    {"zone": "keybases", "cells": CELLS, "commitments": (bytes(32),)},             # too few
    {"zone": "keybases", "cells": CELLS[:2], "commitments": (bytes(32), b"x")},     # not 32 bytes
    {"zone": "keybases", "cells": ("a", "a"), "commitments": (bytes(32), bytes(32))},
    {"zone": "", "cells": ("a",), "commitments": (bytes(32),)},
    {"zone": "keybases", "cells": (), "commitments": ()},
    {"zone": "keybases", "cells": "ab", "commitments": (bytes(32),)},
])
def test_malformed_placement_messages_are_refused(data: object) -> None:
    with pytest.raises(MalformedMessage) as caught:
        PlacementCommitments.from_data(GAME, 7, 3, data)
    assert caught.value.seat == 3


def test_the_placer_cannot_place_outside_its_cells_or_place_nothing() -> None:
    with pytest.raises(ValueError):
        commit_placement(GAME, 7, 3, "keybases", CELLS, {"B:9:9": "kb1"})
    with pytest.raises(ValueError):
        commit_placement(GAME, 7, 3, "keybases", CELLS, {"B:1:1": EMPTY})


@given(st.lists(st.text(min_size=1, max_size=4), min_size=1, max_size=8, unique=True), st.data())
def test_every_cell_opens_to_what_was_placed_and_to_nothing_else(cells: list[str], data: st.DataObject) -> None:
    chosen = data.draw(st.lists(st.sampled_from(cells), unique=True, max_size=len(cells)))
    layout = {c: f"t{i}" for i, c in enumerate(chosen)}
    public, openings = commit_placement(GAME, 1, 0, "z", cells, layout)
    assert check_placement(public, openings, tuple(layout.values())) == {c: layout.get(c, EMPTY) for c in cells}
    for cell in cells:
        for other in cells:
            if other != cell:
                with pytest.raises(CommitmentMismatch):
                    open_cell(public, cell, openings[other])
