"""Card messages survive canonical encoding, and any altered byte is blamed on its sender."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from poker_helpers import GAME, make_table, run_reveal

from engine.core.encoding import decode, encode
from net.poker import group as g
from net.poker.cards import card_point
from net.poker.errors import CardProtocolError
from net.poker.protocol import KeyRound, RevealRound, ShuffleRound

SECRETS, KEYS = make_table(3)
POINTS = [card_point(GAME, f"m{i}") for i in range(4)]


def _messages(size: int) -> dict[str, tuple[int, Any, Any]]:
    """One message of each kind: name -> (sender, message, a fresh receiver)."""
    shuffler = ShuffleRound.fresh(KEYS, 20, POINTS[:size])
    shuffle_msg = shuffler.make(0)
    deck = shuffler.deck
    draw = RevealRound.draw(KEYS, 21, deck, list(range(size)), drawer=0)
    share_msg = draw.make(SECRETS[1])
    rounds = {s.seat: RevealRound.draw(KEYS, 21, deck, list(range(size)), drawer=0) for s in SECRETS}
    run_reveal(rounds, SECRETS)
    held = rounds[0].held()
    sealed_msg = RevealRound.show(KEYS, 22, held, to=2).make(SECRETS[0])
    key_msg = KeyRound.announce(GAME, 1, SECRETS[2])
    return {
        "key": (2, key_msg, lambda m: KeyRound(GAME, 1, range(3)).receive(2, m)),
        "shuffle": (0, shuffle_msg, lambda m: ShuffleRound.fresh(KEYS, 20, POINTS[:size]).receive(0, m)),
        "share": (1, share_msg,
                  lambda m: RevealRound.draw(KEYS, 21, deck, list(range(size)), drawer=0).receive(1, m)),
        "sealed": (0, sealed_msg,
                   lambda m: RevealRound.show(KEYS, 22, held, to=2).receive(0, m, SECRETS[2])),
    }


MESSAGES = {size: _messages(size) for size in (1, 3)}


@settings(max_examples=30)
@given(size=st.sampled_from((1, 3)), kind=st.sampled_from(("key", "shuffle", "share", "sealed")))
def test_messages_round_trip_and_verify(size: int, kind: str) -> None:
    _, message, receive = MESSAGES[size][kind]
    raw = encode(message)
    again = decode(raw)
    assert encode(again) == raw
    receive(again)


def _flip(raw: bytes, position: int, bit: int) -> bytes:
    return raw[:position] + bytes([raw[position] ^ (1 << bit)]) + raw[position + 1:]


@settings(max_examples=60)
@given(size=st.sampled_from((1, 3)), kind=st.sampled_from(("key", "shuffle", "share", "sealed")),
       where=st.floats(min_value=0, max_value=1, exclude_max=True), bit=st.integers(0, 7))
def test_any_flipped_bit_is_rejected_and_attributed(size: int, kind: str, where: float, bit: int) -> None:
    sender, message, receive = MESSAGES[size][kind]
    raw = encode(message)
    tampered = _flip(raw, int(where * len(raw)), bit)
    try:
        value = decode(tampered)
    except ValueError:
        return  # not even canonical data: the envelope layer rejects it
    try:
        receive(value)
    except CardProtocolError as exc:
        assert exc.seat == sender
    else:  # only possible if the flip hit nothing that matters, which no field allows
        raise AssertionError(f"a tampered {kind} message was accepted")


def test_point_encodings_in_messages_are_bytes() -> None:
    _, message, _ = MESSAGES[1]["share"]
    assert all(g.is_valid_point(s["share"]) for s in message["shares"])
