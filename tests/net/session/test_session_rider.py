"""A full Rider game between two bot seats over in-memory fake transports, with
every protocol: card keys, secret deck lists, verifiable shuffles, private
draws, sealed choices, card proofs on every play, public flips and the
end-of-game audit (rider.0: face-down cards must be Lv.1)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from harness import identities, rider_decks, rider_genesis, rider_table

from engine.core.actions import Action
from engine.core.encoding import encode
from engine.core.hidden import Knowledge
from engine.rider.actions import SetUp
from engine.core.inputs import SealedPick
from net.bots.greedy import GreedyBot
from net.games.rider.evaluation import rider_score
from net.session import Cheat, Finished, Rejected, Session
from net.games import table_for
from net.verifier import verify


def _finished(sessions: Sequence[Session]) -> None:
    for s in sessions:
        assert s.finished, (s.phase, s.step, s.waiting_for(), [str(e) for e in s.events])
        assert not [e for e in s.events if isinstance(e, Rejected)]
        assert isinstance(s.events[-1], Finished)
    assert len({s.hashes[-1] for s in sessions}) == 1
    assert len({encode(s.transcript()) for s in sessions}) == 1


def test_full_rider_game_in_order_delivery() -> None:
    table, _, _ = rider_table(seed=7)
    table.start()
    table.run()
    a, b = table.sessions
    _finished(table.sessions)
    assert a.verdict == "ok" and a.outcome is not None and "rider" in a.outcome["reason"]
    assert a.step > 20
    # hidden hands stay hidden: neither seat knows the other's hand cards
    for me, other in ((a, b), (b, a)):
        assert me.seat is not None and other.seat is not None
        theirs = me.state.players[other.seat].hand
        assert not any(me.knowledge.knows(h) for h in theirs)
        assert all(other.knowledge.knows(h) or h in dict(other.state.open_cards) for h in theirs)
    assert verify(a.transcript()).ok


@pytest.mark.parametrize("shuffle_seed", [1, 2])
def test_full_rider_game_shuffled_delivery(shuffle_seed: int) -> None:
    table, _, _ = rider_table(seed=shuffle_seed + 10, shuffle_seed=shuffle_seed)
    table.start()
    table.run()
    _finished(table.sessions)
    assert verify(table.sessions[1].transcript()).ok


class FaceDownCheat:
    """Seat 0 hides a card that is not Lv.1 face down in column A and flips A."""

    def __init__(self) -> None:
        self.bot = GreedyBot(random.Random(1), rider_score)

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge, legal: Sequence[Action]) -> Action:
        if legal and isinstance(legal[0], SetUp):
            deck = state.players[seat].deck
            bad = next(h for h in deck if not game.table[knowledge.card(h)].lv1)
            good = [h for h in deck if game.table[knowledge.card(h)].lv1][:2]
            return SetUp(seat, (bad, *good))
        if legal and isinstance(legal[0], SealedPick) and legal[0].purpose == "rider.battle_mark":
            return next(p for p in legal if isinstance(p, SealedPick) and p.choice == "A")
        return self.bot.choose(game, state, seat, knowledge, legal)


def test_face_down_card_that_is_not_lv1_is_caught_and_attributed() -> None:
    """rider.0: the opening of a flipped face-down card proves it was not a Lv.1."""
    table, genesis, setup = rider_table(seed=3)
    s0 = table.sessions[0]
    cheat = Session(genesis, setup.game, setup.state, plan=setup.plan, identity=identities(2)[0], seat=0,
                    deck=rider_decks()[0], agent=FaceDownCheat())
    table.sessions[0] = cheat
    del s0
    table.start()
    table.run()
    honest = table.sessions[1]
    assert isinstance(honest.halted, Cheat) and honest.halted.seat == 0
    assert "Lv.1" in honest.halted.error
    assert not honest.finished


def test_session_refuses_an_identity_that_does_not_hold_the_seat() -> None:
    ids = identities(2)
    decks = rider_decks()
    genesis = rider_genesis(ids, decks)
    setup = table_for(genesis)
    with pytest.raises(ValueError, match="does not hold seat 1"):
        Session(genesis, setup.game, setup.state, plan=setup.plan, identity=ids[0], seat=1, deck=decks[1])


def test_small_decks_force_discard_reshuffles_through_the_protocols() -> None:
    """Ten-card decks run out at once: the discard pile (public cards) is
    re-encrypted and shuffled by both seats, drawn again and played with
    proofs (rider.2). Such games run to the turn limit, so this one is cut
    after a few reshuffles: both seats agree on every step so far, and the
    transcript verifies every step it holds, only lacking the end."""
    from net.bots.random_bot import RandomBot
    from net.session.loopback import Loopback

    ids = identities(2)
    full = rider_decks()
    game = table_for(rider_genesis(ids, full)).game
    decks = [tuple([c for c in d if game.table[c].lv1][:4] + [c for c in d if not game.table[c].lv1][:6])
             for d in full]
    genesis = rider_genesis(ids, decks)
    setup = table_for(genesis)
    sessions = [Session(genesis, setup.game, setup.state, plan=setup.plan, identity=ids[s], seat=s,
                        deck=decks[s], agent=RandomBot(random.Random(s))) for s in (0, 1)]
    net = Loopback(sessions)
    net.start()
    a, b = sessions

    def shuffles() -> int:
        return sum(type(x).__name__ == "CardsShuffled" for x in a.applied)

    while shuffles() < 6:
        net.run(limit=10)
    common = min(a.step, b.step)
    assert a.hashes[:common + 1] == b.hashes[:common + 1] and common > 20
    played = [x for x in a.applied[20:] if getattr(x, "card", None)]
    assert played  # cards drawn from a reshuffled pile were played with proofs
    verdict = verify(a.transcript())
    assert verdict.reason == "incomplete", str(verdict)
