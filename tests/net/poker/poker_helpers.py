"""Shared helpers for the card-protocol tests: a table of seats with verified keys."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core.encoding import decode, encode
from engine.core.hashing import digest
from net.poker.protocol import (
    CardKeys,
    KeyRound,
    RevealRound,
    SeatSecrets,
    ShuffleRound,
)
from net.poker.shuffle import Deck

GAME = digest("fairtable/test-game/v1", "poker tests")
KEY_STEP = 1


def make_table(n: int, game: bytes = GAME) -> tuple[list[SeatSecrets], CardKeys]:
    """``n`` seats run a real key round (every proof verified)."""
    seats = [SeatSecrets.generate(s) for s in range(n)]
    round_ = KeyRound(game, KEY_STEP, range(n))
    for me in seats:
        round_.receive(me.seat, KeyRound.announce(game, KEY_STEP, me))
    return seats, round_.result()


def shuffle_all(keys: CardKeys, step: int, points: Sequence[bytes]) -> Deck:
    """Every seat shuffles in turn; each message is verified by a separate round
    object (as another peer would)."""
    mine = ShuffleRound.fresh(keys, step, points)
    theirs = ShuffleRound.fresh(keys, step, points)
    while not mine.done:
        seat = mine.waiting_for()
        assert seat is not None
        theirs.receive(seat, wire(mine.make(seat)))
    assert theirs.result() == mine.result()
    return theirs.result()


def wire(message: object) -> object:
    """What a peer receives: the message after canonical encoding and decoding."""
    return decode(encode(message))


def run_reveal(rounds: Mapping[int, RevealRound], secrets: Sequence[SeatSecrets]) -> None:
    """Every seat owes its part: it makes its message from its own round
    object, and every other seat's round object receives it over the 'wire'."""
    pending = True
    while pending:
        pending = False
        for me in secrets:
            if me.seat in rounds[me.seat].waiting_for():
                msg = wire(rounds[me.seat].make(me))
                for other in secrets:
                    if other.seat != me.seat:
                        rounds[other.seat].receive(me.seat, msg, other)
                pending = True
