"""engine.core.claims: one judgement of declarations about hidden data for every driver."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import (
    CheatDetected,
    Claim,
    EncodingError,
    FalseClaim,
    decode,
    encode,
    false_claims,
    judge_claim,
    unjudged_claims,
)

HIDDEN = {10: "ability:ship", 11: "info:map", 12: "ability:mirror"}


def holds(claim: Claim, contents: tuple[str, ...]) -> bool:
    """Toy checks: 'keeps' = every card is of the kind; 'holds' = some card is."""
    kinds = [c.split(":")[0] for c in contents]
    if claim.what == "keeps":
        return all(k == claim.value for k in kinds)
    return claim.value in kinds


def test_a_claim_is_judged_only_once_its_data_is_known() -> None:
    claim = Claim(2, 40, "keeps", (10, 13), "ability", rule="locke.S000.3.1")
    assert judge_claim(claim, HIDDEN.get, holds) is None
    assert unjudged_claims([claim], HIDDEN.get) == (claim,)
    assert judge_claim(claim, {**HIDDEN, 13: "ability:x"}.get, holds) is True
    assert judge_claim(claim, {**HIDDEN, 13: "info:x"}.get, holds) is False


def test_false_claims_name_seat_step_and_rule_earliest_first() -> None:
    claims = [
        Claim(1, 30, "holds", (10, 12), "info", rule="locke.7.2.2"),   # false: two ability cards
        Claim(0, 12, "keeps", (11,), "ability", rule="locke.S000.3.1"),  # false: an information card
        Claim(3, 5, "holds", (10, 11), "info"),                          # true
        Claim(4, 1, "keeps", (99,), "ability"),                          # not yet known
    ]
    found = false_claims(claims, HIDDEN.get, holds)
    assert [(f.seat, f.step) for f in found] == [(0, 12), (1, 30)]
    first = found[0]
    assert isinstance(first, CheatDetected) and first.claim is claims[1] and first.rule == "locke.S000.3.1"
    assert "seat 0" in str(first) and "step 12" in str(first) and "keeps = 'ability'" in str(first)


def test_a_claim_must_carry_canonical_data() -> None:
    with pytest.raises(EncodingError):
        Claim(0, 1, "durability", (1,), 2.5)
    with pytest.raises(ValueError):
        Claim(0, 1, "", (1,))


@pytest.mark.parametrize("data", [
    None, {"seat": 0}, {"seat": 0, "step": 1, "what": "w", "about": (1,), "value": None},
    {"seat": 0, "step": 1, "what": "w", "about": ("1",), "value": None, "rule": ""},
    {"seat": True, "step": 1, "what": "w", "about": (), "value": None, "rule": ""},
    {"seat": 0, "step": 1, "what": 5, "about": (), "value": None, "rule": ""},
    {"seat": 0, "step": 1, "what": "w", "about": 3, "value": None, "rule": ""},
])
def test_from_data_refuses_malformed_claims(data: object) -> None:
    with pytest.raises(ValueError):
        Claim.from_data(data)


@given(st.integers(0, 9), st.integers(0, 10**6), st.text(min_size=1, max_size=10),
       st.lists(st.integers(0, 10**6), max_size=5).map(tuple),
       st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=3).map(tuple)),
       st.text(max_size=10))
def test_claims_round_trip_through_canonical_bytes(seat: int, step: int, what: str, about: tuple[int, ...],
                                                   value: object, rule: str) -> None:
    claim = Claim(seat, step, what, about, value, rule)
    assert Claim.from_data(decode(encode(claim))) == claim


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 100), st.sampled_from(["keeps", "holds"]),
                          st.lists(st.sampled_from([10, 11, 12, 50]), min_size=1, max_size=3),
                          st.sampled_from(["ability", "info"])), max_size=8))
def test_false_claims_is_exactly_the_judged_false_ones(rows: list[tuple[int, int, str, list[int], str]]) -> None:
    claims = [Claim(s, t, w, tuple(a), v) for s, t, w, a, v in rows]
    found = false_claims(claims, HIDDEN.get, holds)
    assert sorted(id(f.claim) for f in found) == sorted(
        id(c) for c in claims if judge_claim(c, HIDDEN.get, holds) is False)
    assert [f.step for f in found] == sorted(f.step for f in found)
    assert all(isinstance(f, FalseClaim) and f.seat == f.claim.seat for f in found)
