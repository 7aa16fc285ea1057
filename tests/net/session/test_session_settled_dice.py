"""A roll in which nothing is random (no dice, one-sided dice) needs no round.

The Locke engine asks for such rolls (initiative with no fighter left to
roll; a random pick among one target). Before this was handled,
``net.dice.check_dice`` refused them and a networked table crashed there.
Every peer now applies the same faces at once, and a seat that sends
anything for such a step is refused by name.
"""

from __future__ import annotations

import random

import pytest

from engine.core.actions import SYSTEM
from engine.core.pending import Chance, DiceRolled
from engine.tiny.game import RULES_ID, card_set_hash
from net.bots.random_bot import RandomBot
from net.dice import check_dice, settled_faces
from net import dice_vrf as v
from net.envelope import Genesis, sign_envelope
from net.errors import UnexpectedMessage
from net.session import Rejected, Session
from net.session.dice_rounds import settled_round
from net.session.loopback import Loopback
from net.session.plan import TablePlan
from tests.net.session.harness import NONCE, identities
from tests.net.session.settled_dice_game import SettledDiceGame, SettledState


def test_settled_faces_for_no_dice_and_one_sided_dice() -> None:
    assert settled_faces(()) == ()
    assert settled_faces((1,)) == (1,)
    assert settled_faces((1, 1, 1)) == (1, 1, 1)
    assert settled_faces((1, 6)) is None
    assert settled_faces((6, 6)) is None
    assert check_dice(()) == ()
    assert check_dice((1, 6)) == (1, 6)
    for bad in ((0,), (-1,), (True,), (2**32 + 1,), (1,) * 101):
        with pytest.raises(ValueError):
            settled_faces(bad)


def test_settled_round_is_done_at_once_and_refuses_any_message() -> None:
    rnd = settled_round(Chance("locke.combat.initiative", ()))
    assert rnd is not None and rnd.done and rnd.waiting_for() == ()
    assert rnd.answer == DiceRolled(SYSTEM, "locke.combat.initiative", ())
    assert settled_round(Chance("locke.combat.pick", (6,))) is None


def settled_table(seats: int, *, shuffle_seed: int | None = None) -> tuple[Loopback, Genesis]:
    ids = identities(seats, tag="settled")
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids), {}, (NONCE,) * seats)
    game = SettledDiceGame()
    sessions = [Session(genesis, game, game.initial_state(seats), plan=TablePlan(public_cards=game.open_cards),
                        identity=ids[s], seat=s, agent=RandomBot(random.Random(40 + s))) for s in range(seats)]
    return Loopback(sessions, shuffle_seed), genesis


@pytest.mark.parametrize("seats, shuffle_seed", [(2, None), (3, 5)])
def test_a_table_plays_through_rolls_in_which_nothing_is_random(seats: int, shuffle_seed: int | None) -> None:
    table, genesis = settled_table(seats, shuffle_seed=shuffle_seed)
    table.start()
    table.run()
    finals = [s.state for s in table.sessions]
    assert all(s.finished and s.halted is None for s in table.sessions)
    for state in finals:
        assert isinstance(state, SettledState)
        assert state.extra == (("none", ()), ("ones", (1, 1)), ("mixed", (1, state.extra[2][1][1])))
        assert 1 <= state.extra[2][1][1] <= 6
    assert len({repr(state) for state in finals}) == 1
    # no seat sent anything at the steps of the settled rolls (a message's seen.step is the step it works on)
    applied = table.sessions[0].applied
    settled = {k for k, a in enumerate(applied) if isinstance(a, DiceRolled) and a.purpose in ("test.none", "test.ones")}
    mixed = {k for k, a in enumerate(applied) if isinstance(a, DiceRolled) and a.purpose == "test.mixed"}
    assert len(settled) == 2 and len(mixed) == 1
    steps = [e.seen.step for e in table.sessions[0].envelopes()]
    assert not settled & set(steps) and mixed & set(steps)
    # an observer replaying the record reaches the same state
    game = SettledDiceGame()
    observer = Session(genesis, game, game.initial_state(seats), plan=TablePlan(public_cards=game.open_cards))
    for env in table.sessions[0].envelopes():
        observer.receive(env.to_bytes())
    assert observer.finished and repr(observer.state) == repr(finals[0])


def test_a_message_for_a_settled_roll_is_refused_naming_the_seat() -> None:
    rnd = settled_round(Chance("test.none", ()))
    assert rnd is not None
    table, _ = settled_table(2)
    session = table.sessions[0]

    class Env:  # only the fields Settled.take reads
        seat, kind = 1, "commit"

    with pytest.raises(UnexpectedMessage) as err:
        rnd.take(session, Env())  # type: ignore[arg-type]
    assert err.value.seat == 1 and "nothing is random" in str(err.value)


@pytest.mark.parametrize("kind", ["roll", "commit"])
def test_a_signed_message_for_a_settled_step_is_refused_through_the_session_naming_the_seat(kind: str) -> None:
    """Through the session, not the round alone: a settled step is applied at once, so a
    seat's message signed for it arrives when the step is past. It is refused naming the
    seat and saying why nothing belongs there; the game goes on unchanged."""
    table, _ = settled_table(2)
    table.start()
    a, b = table.sessions
    for _ in range(100_000):
        table.run(limit=1)
        if "test.none" in [act.purpose for act in a.applied if isinstance(act, DiceRolled)]:
            break
    step = next(k for k, act in enumerate(a.applied) if isinstance(act, DiceRolled) and act.purpose == "test.none")
    writer = b._writer
    assert writer is not None and a.step > step
    body = ({"commit": bytes(32)} if kind == "commit"
            else v.roll_part(v.RollContext(a.gid, step, "test.none", (6,), (0, 1)), 1, 5))
    env = sign_envelope(identities(2, tag="settled")[1], game=a.gid, seat=1, seq=writer.next_seq,
                        prev=writer.head, kind=kind, body=body, seen=(step, a.hashes[step], a.inputs[step]))
    before = (a.step, a.hashes[-1])
    a.receive(env.to_bytes(), sender="peer-1")
    [refused] = [e for e in a.events if isinstance(e, Rejected)]
    assert refused.seat == 1 and refused.kind == kind and refused.step == step
    assert "nothing is random" in refused.error and "test.none" in refused.error, refused
    assert (a.step, a.hashes[-1]) == before
