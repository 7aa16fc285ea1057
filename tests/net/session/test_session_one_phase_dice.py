"""One-phase dice at a networked table (net.dice_vrf through net.session.dice_rounds).

Every seat sends one ``roll`` message per roll. Shown here: a 3-seat Tiny
game rolls in one phase (no commit or reveal); a forged, replayed (from
another step, game or seat), wrongly keyed, oversized, out-of-turn or
repeated roll message is refused by every honest peer, naming its seat, and
the seat's genuine message still counts; a seat that withholds its part is
named by the deadline and the game ends as its forfeit, which the verifier
shows as a signed claim.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from harness import NONCE, identities, tiny_table
from test_session_forfeits import G, T, Net, kind_of, make

from engine.core.encoding import decode
from engine.core.pending import Chance, DiceRolled
from engine.tiny.game import RULES_ID, card_set_hash
from net import dice_vrf as v
from net.envelope import DICE_COMMIT_REVEAL, Envelope, Genesis, sign_envelope
from net.games import table_for
from net.bots.random_bot import RandomBot
from net.poker import group as g
from net.session import Rejected, Session
from net.session.dice_rounds import DICE_SECRET
from net.verifier import verify


def test_a_tiny_table_rolls_in_one_phase() -> None:
    table, _ = tiny_table(3, shuffle_seed=4)
    table.start()
    table.run()
    a = table.sessions[0]
    assert all(s.finished and s.halted is None for s in table.sessions)
    envs = a.envelopes()
    rolls = [e for e in envs if e.kind == "roll"]
    assert sorted(e.seat for e in rolls) == [0, 1, 2] and len({e.seen.step for e in rolls}) == 1
    step = rolls[0].seen.step
    assert not [e for e in envs if e.kind in ("commit", "reveal") and e.seen.step == step]
    applied = a.applied[step]
    assert isinstance(applied, DiceRolled) and applied.purpose == "tiny.roll"
    # the faces are the ones the three dice keys and the context fix, nothing else
    ctx = v.RollContext(a.gid, step, "tiny.roll", (6, 6), (0, 1, 2))
    outs = [v.check_part(ctx, e.seat, a.dice_keys[e.seat], e.body) for e in sorted(rolls, key=lambda e: e.seat)]
    assert applied.faces == v.faces_from_seed(v.vrf_seed(ctx, outs), (6, 6))
    assert verify(a.transcript()).ok


# --- hostile roll messages ---------------------------------------------------------------


def _held_table() -> tuple[Net, list[Session], list[Any], list[bytes]]:
    """Three seats; seat 2's roll message is held back (the test decides what the others get)."""
    sessions = make(3)
    net = Net(sessions)
    held: list[bytes] = []
    net.drop = lambda seat, kind: seat == 2 and kind == "roll"
    original = net.post

    def post(sender: int, out: list[Any]) -> None:
        for o in out:
            if kind_of(o.data) == (2, "roll"):
                held.append(o.data)
        original(sender, out)

    net.post = post  # type: ignore[method-assign]
    net.start()
    net.run()
    return net, sessions, identities(3, tag="forfeit"), held


def _resigned(identity: Any, data: bytes, change: Callable[[dict[str, Any]], None]) -> bytes:
    """The same envelope (seq, prev, seen) with its body changed, signed again by its seat."""
    env = Envelope.from_data(decode(data))
    body = dict(env.body)
    change(body)
    return sign_envelope(identity, game=env.game, seat=env.seat, seq=env.seq, prev=env.prev, kind=env.kind,
                         body=body, seen=env.seen.__canonical__()).to_bytes()


def _other_part(s: Session, step: int, *, game: bytes | None = None, seat: int = 2, secret: int | None = None,
                purpose: str = "tiny.roll") -> dict[str, bytes]:
    ctx = v.RollContext(game or s.gid, step, purpose, (6, 6), (0, 1, 2))
    return v.roll_part(ctx, seat, secret if secret is not None else int(s._saved_secret(DICE_SECRET)))


HOSTILE = ["forged output", "another step", "another game", "another seat's part", "another key", "oversized"]


@pytest.mark.parametrize("case", HOSTILE)
def test_a_hostile_roll_message_is_refused_naming_the_seat_and_the_genuine_one_still_counts(case: str) -> None:
    net, sessions, ids, held = _held_table()
    a, b, c = sessions
    [genuine] = held
    step = Envelope.from_data(decode(genuine)).seen.step
    assert isinstance(a.pending, Chance) and a.waiting_for() == (2,) == b.waiting_for()

    def change(body: dict[str, Any]) -> None:
        if case == "forged output":
            body["out"] = g.base_mul(99)
        elif case == "another step":
            body.update(_other_part(c, step + 1))
        elif case == "another game":
            body.update(_other_part(c, step, game=b"\x07" * 32))
        elif case == "another seat's part":
            body.update(_other_part(c, step, seat=1, secret=int(b._saved_secret(DICE_SECRET))))
        elif case == "another key":
            body.update(_other_part(c, step, secret=12345))
        elif case == "oversized":
            body["pad"] = b"x" * 5000

    bad = _resigned(ids[2], genuine, change)
    for s in (a, b):
        net.post(s.seat or 0, s.receive(bad, sender="peer-2"))
        [refused] = [e for e in s.events if isinstance(e, Rejected)]
        assert refused.seat == 2 and refused.kind == "roll"
        expected = "larger than any honest one" if case == "oversized" else "BadDiceProof"
        assert expected in refused.reason + refused.error, refused
        assert s.waiting_for() == (2,) and s.step == step  # nothing lost, nothing applied
    for s in (a, b):
        net.post(s.seat or 0, s.receive(genuine, sender="peer-2"))
    net.run()
    for s in (a, b):
        assert s.step > step and isinstance(s.applied[step], DiceRolled)
    assert a.applied[step] == c.applied[step]


def test_a_roll_message_out_of_turn_or_repeated_is_refused_naming_the_seat() -> None:
    net, sessions, ids, held = _held_table()
    a, b, c = sessions
    [genuine] = held
    roll_step = Envelope.from_data(decode(genuine)).seen.step
    for s in (a, b):
        net.post(s.seat or 0, s.receive(genuine, sender="peer-2"))
    net.drop = lambda seat, kind: False
    for s in sessions:
        s.agent = None  # stop at the first decision after the roll
    net.run()
    assert a.step > roll_step and a.step == c.step
    w = c._writer
    assert w is not None
    extra = sign_envelope(ids[2], game=c.gid, seat=2, seq=w.next_seq, prev=w.head, kind="roll",
                          body=_other_part(c, roll_step), seen=(c.step, c.hashes[c.step], c.inputs[c.step]))
    net.post(0, a.receive(extra.to_bytes(), sender="peer-2"))
    [refused] = [e for e in a.events if isinstance(e, Rejected)]
    assert refused.seat == 2 and refused.kind == "roll"
    assert "while the table waits for" in refused.error or "out of turn" in refused.error, refused


def test_a_seat_that_withholds_its_roll_is_named_and_forfeits() -> None:
    sessions = make(3)
    net = Net(sessions)
    net.drop = lambda seat, kind: seat == 2 and kind == "roll"
    net.start()
    net.run()
    a, b, _ = sessions
    step = a.step
    assert isinstance(a.pending, Chance) and a.waiting_for() == (2,)
    assert "send its part of the roll" in a.waiting_what()
    net.tick(T + G + 1, seats=[0, 1])
    assert a.claimable() == (2,)
    net.post(0, a.claim_forfeit(2))
    net.post(1, b.claim_forfeit(2))
    net.run(to={0, 1})
    net.tick(T + 2 * G + 2, seats=[0, 1])
    net.run(to={0, 1})
    assert a.forfeited == 2 and a.finished, (a.phase, a.waiting_for(), [str(e) for e in a.events][-5:])
    verdict = verify(a.transcript())
    assert verdict.ok and verdict.end == "forfeit claim" and verdict.forfeit is not None
    assert verdict.forfeit["staller"] == 2 and verdict.forfeit["step"] == step
    assert "part of the roll" in verdict.forfeit["owed"]


def test_a_hello_without_a_dice_key_in_a_one_phase_game_is_refused_naming_the_seat() -> None:
    ids = identities(2, tag="hello")
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids), {}, (NONCE,) * 2)
    table = table_for(genesis)
    a, b = (Session(genesis, table.game, table.state, plan=table.plan, identity=ids[s], seat=s,
                    agent=RandomBot(random.Random(s))) for s in (0, 1))
    [hello] = [o for o in b.start() if Envelope.from_data(decode(o.data)).kind == "hello"]
    env = Envelope.from_data(decode(hello.data))
    for change, words in ((lambda body: body.pop("dice"), "'dice': dice key message"),
                          (lambda body: body.update(dice=v.announce_key(a.gid, 0, 5)), "BadDiceProof")):
        body = dict(env.body)
        change(body)
        bad = sign_envelope(ids[1], game=env.game, seat=1, seq=0, prev=env.prev, kind="hello", body=body,
                            seen=env.seen.__canonical__())
        a.start()
        a.receive(bad.to_bytes(), sender="peer-1")
        refused = [e for e in a.events if isinstance(e, Rejected)][-1]
        assert refused.seat == 1 and refused.kind == "hello"
        assert words in refused.error + refused.reason, refused
        assert a.phase == "hello"
    a.receive(hello.data, sender="peer-1")  # the genuine one still counts
    assert a.phase == "play" and set(a.dice_keys) == {0, 1}


def test_a_roll_message_in_a_game_of_commit_reveal_dice_is_refused_naming_the_seat() -> None:
    """A record without genesis ``dice`` (before issue 26) rolls by commit and reveal; a seat
    that sends a one-phase ``roll`` there instead of its commitment is refused by name."""
    ids = identities(3, tag="legacy")
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids), {}, (NONCE,) * 3,
                      dice=DICE_COMMIT_REVEAL)
    table = table_for(genesis)
    sessions = [Session(genesis, table.game, table.state, plan=table.plan, identity=ids[s], seat=s,
                        agent=RandomBot(random.Random(20 + s))) for s in range(3)]
    net = Net(sessions)
    held: list[bytes] = []
    original = net.post

    def post(sender: int, out: list[Any]) -> None:
        for o in out:
            if kind_of(o.data) == (2, "commit") and isinstance(sessions[2].pending, Chance):
                held.append(o.data)
        original(sender, [o for o in out if o.data not in held])

    net.post = post  # type: ignore[method-assign]
    net.start()
    net.run()
    a = sessions[0]
    [commit] = held
    assert isinstance(a.pending, Chance) and a.waiting_for() == (2,)
    bad = Envelope.from_data(decode(commit))  # the same seq, prev and seen: a roll in its place
    forged = sign_envelope(ids[2], game=bad.game, seat=2, seq=bad.seq, prev=bad.prev, kind="roll",
                           body=_other_part(sessions[2], a.step, secret=12345), seen=bad.seen.__canonical__())
    a.receive(forged.to_bytes(), sender="peer-2")
    [refused] = [e for e in a.events if isinstance(e, Rejected)]
    assert refused.seat == 2 and refused.kind == "roll" and "commit-reveal round" in refused.error
    for s in sessions[:2]:  # its genuine commitment still counts
        net.post(s.seat or 0, s.receive(commit, sender="peer-2"))
    net.run()
    assert all(s.finished for s in sessions) and len({s.hashes[-1] for s in sessions}) == 1


@pytest.mark.parametrize("kind, body", [("commit", {"commit": bytes(32)}),
                                        ("reveal", {"reveal": {"value": bytes(32), "salt": bytes(32)}})])
def test_a_commit_reveal_message_in_place_of_a_roll_is_refused_naming_the_seat(kind: str, body: Any) -> None:
    """One-phase dice take only ``roll`` parts: a seat that sends a commit-reveal message at a
    roll (as an old client would) is refused by every peer, and its genuine part still counts."""
    net, sessions, ids, held = _held_table()
    a, b, c = sessions
    [genuine] = held
    env = Envelope.from_data(decode(genuine))
    bad = sign_envelope(ids[2], game=env.game, seat=2, seq=env.seq, prev=env.prev, kind=kind, body=body,
                        seen=env.seen.__canonical__())
    for s in (a, b):
        s.receive(bad.to_bytes(), sender="peer-2")
        [refused] = [e for e in s.events if isinstance(e, Rejected)]
        assert refused.seat == 2 and refused.kind == kind and refused.step == env.seen.step
        assert "one 'roll' message per seat" in refused.error, refused
        assert s.waiting_for() == (2,)
    for s in (a, b):
        net.post(s.seat or 0, s.receive(genuine, sender="peer-2"))
    net.run()
    assert a.step > env.seen.step and a.applied[env.seen.step] == c.applied[env.seen.step]


def test_a_roll_sent_before_every_dice_key_is_in_waits_and_is_judged_with_the_keys() -> None:
    """A seat's ``roll`` that reaches a peer still in the opening (another seat's hello, with its
    dice key, not in yet) is held, not judged without the keys and not lost; once play starts it
    is judged like any other part, here refused naming its seat (no roll is pending at step 0)."""
    sessions = make(3)
    a, b, c = sessions
    ids = identities(3, tag="forfeit")
    hello_b = [o.data for o in b.start() if kind_of(o.data) == (1, "hello")]
    hello_c = [o.data for o in c.start() if kind_of(o.data) == (2, "hello")]
    a.start()
    for data in hello_b:
        a.receive(data, sender="peer-1")
    writer = b._writer
    assert writer is not None
    early = sign_envelope(ids[1], game=b.gid, seat=1, seq=writer.next_seq, prev=writer.head, kind="roll",
                          body=_other_part(b, 0, seat=1), seen=(0, b.hashes[0], b.inputs[0]))
    a.receive(early.to_bytes(), sender="peer-1")
    assert a.phase == "hello" and not [e for e in a.events if isinstance(e, Rejected)]
    assert a.waiting_for() == (2,) and a.waiting_what() == "send its card key, dice key and deck points"
    assert [e.digest() for e in a.buffered(1)] == [early.digest()]
    assert not isinstance(a.game.pending(a.state), Chance)
    for data in hello_c:
        a.receive(data, sender="peer-2")
    assert a.phase == "play" and set(a.dice_keys) == {0, 1, 2}
    [refused] = [e for e in a.events if isinstance(e, Rejected)]
    assert refused.seat == 1 and refused.kind == "roll" and refused.step == 0, refused
    assert a.buffered(1) == []
