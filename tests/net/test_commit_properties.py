"""Property tests: a commitment opens only in its own context, for its own value."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.encoding import encode
from net.commit import Commitment, Opening, verify_opening
from net.errors import CommitmentMismatch

leaves = st.none() | st.booleans() | st.integers(-(2**64), 2**64) | st.text(max_size=8) | st.binary(max_size=8)
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=3).map(tuple), max_leaves=6)
games = st.binary(min_size=32, max_size=32)
small = st.integers(0, 50)


@settings(max_examples=50)
@given(game=games, step=small, seat=small, value=values, other=values,
       other_step=small, other_seat=small)
def test_commitment_opens_only_in_its_own_context(game: bytes, step: int, seat: int, value: Any,
                                                   other: Any, other_step: int, other_seat: int) -> None:
    commitment, opening = Commitment.create(game, step, seat, value)
    verify_opening(commitment, game, step, seat, opening)
    if encode(other) != encode(value):
        with pytest.raises(CommitmentMismatch) as err:
            verify_opening(commitment, game, step, seat, Opening(other, opening.salt))
        assert err.value.seat == seat
    if (other_step, other_seat) != (step, seat):
        with pytest.raises(CommitmentMismatch) as err:
            verify_opening(commitment, game, other_step, other_seat, opening)
        assert err.value.seat == other_seat
