"""engine.core.hidden.Knowledge: known cards plus private notes, canonical and deterministic."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import EncodingError, Knowledge, Note, decode, encode


def test_notes_record_what_a_seat_was_shown_in_order() -> None:
    k = Knowledge(3).learn([(7, "locke_1")])
    told = k.noted(12, "shown:character:1", ((7, "locke_1"),)).noted(20, "disclosed:keybases", [["b2", "kb1"]])
    assert k.notes == ()  # immutable: the original is unchanged
    assert [n.step for n in told.notes] == [12, 20]
    assert told.notes_on("disclosed:keybases") == (Note(20, "disclosed:keybases", (("b2", "kb1"),)),)  # normalised
    assert told.card(7) == "locke_1" and told.learn([(8, "x")]).notes == told.notes  # learning keeps the notes


@pytest.mark.parametrize(("step", "topic", "data", "error"), [
    (1, "t", 0.5, EncodingError), (1, "t", {1: "x"}, EncodingError), (1, "t", {"a", "b"}, EncodingError),
    (-1, "t", 1, ValueError), (True, "t", 1, ValueError), (1, "", 1, ValueError),
])
def test_a_note_must_be_canonical_data(step: int, topic: str, data: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        Knowledge(0).noted(step, topic, data)


def test_encoding_does_not_depend_on_the_order_cards_were_learned() -> None:
    a = Knowledge(1).learn([(5, "x"), (2, "y")])
    b = Knowledge(1).learn([(2, "y")]).learn([(5, "x")])
    assert encode(a) == encode(b) and a == b


@pytest.mark.parametrize("data", [
    None, {"seat": 0, "cards": ()}, {"seat": "0", "cards": (), "notes": ()},
    {"seat": 0, "cards": ((1, "x"), (1, "y")), "notes": ()},  # a handle twice
    {"seat": 0, "cards": ((True, "x"),), "notes": ()}, {"seat": 0, "cards": ((1, 2),), "notes": ()},
    {"seat": 0, "cards": (), "notes": ({"step": 1, "topic": "t"},)},
    {"seat": 0, "cards": (), "notes": ({"step": 1, "topic": "", "data": 1},)},
])
def test_from_data_refuses_malformed_knowledge(data: object) -> None:
    with pytest.raises(ValueError):
        Knowledge.from_data(data)


canonical = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5), st.binary(max_size=5)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=8,
)


@given(st.integers(0, 9), st.dictionaries(st.integers(0, 10**6), st.text(max_size=6), max_size=8),
       st.lists(st.tuples(st.integers(0, 500), st.text(min_size=1, max_size=8), canonical), max_size=5))
def test_knowledge_round_trips_through_canonical_bytes(seat: int, cards: dict[int, str],
                                                       notes: list[tuple[int, str, object]]) -> None:
    k = Knowledge(seat).learn(cards.items())
    for step, topic, data in notes:
        k = k.noted(step, topic, data)
    raw = encode(k)
    back = Knowledge.from_data(decode(raw))
    assert back == k and encode(back) == raw
    assert dict(back.cards) == cards and len(back.notes) == len(notes)
