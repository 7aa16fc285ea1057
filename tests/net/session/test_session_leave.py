"""A seat that leaves a running game (net/session/leave.py): the others play on and finish.

The leaver is stopped exactly where the table waits for its part (a shuffle,
decryption shares for a deal, a dice commitment, a sealed choice, a placement
or a cell to open), then signs ``leave``: every other peer goes on without
it, the game ends with the same final state everywhere and its record
verifies. Hostile leaves (a wrong key, a second leave, a leave from the last
two seats, a false step) are refused naming the seat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from harness import tiny_table
from treasure_table import treasure_table

from engine.core.encoding import encode
from engine.core.pending import Chance, HiddenOp, Placement, SealedChoice
from net.envelope import sign_envelope
from net.poker import group as g
from net.session.dice_rounds import DICE_SECRET
from net.session import Rejected, Session
from net.session import pump as pump_module
from net.session.events import Left
from net.verifier import verify

Moment = Callable[[Session], bool]


def _stop_at(monkeypatch: pytest.MonkeyPatch, leaver: Session, moment: Moment) -> None:
    """``leaver`` sends nothing once ``moment`` holds for it (the player walked away there)."""
    real = pump_module.emit_due
    stops = getattr(real, "stops", {})

    def emit_due(s: Session) -> bool:
        stop = emit_due.stops.get(id(s))  # type: ignore[attr-defined]
        if stop is not None and stop(s):
            return False
        return real(s)

    emit_due.stops = {**stops, id(leaver): moment}  # type: ignore[attr-defined]
    monkeypatch.setattr(pump_module, "emit_due", emit_due)


def _leave_at(table: Any, seat: int, moment: Moment, monkeypatch: pytest.MonkeyPatch) -> Session:
    leaver = table.sessions[seat]
    _stop_at(monkeypatch, leaver, moment)
    table.start()
    table.run()
    assert moment(leaver) and not leaver.finished, (leaver.phase, leaver.pending)
    others = [s for s in table.sessions if s is not leaver]
    assert any(seat in s.waiting_for() for s in others)  # the table waits for the leaver's part
    table.post(seat, leaver.leave())
    table.down.add(seat)
    table.run()
    return leaver


def _check_finished(table: Any, leaver: Session) -> None:
    others = [s for s in table.sessions if s is not leaver]
    for s in others:
        assert s.finished and s.verdict == "ok", (s.seat, s.phase, s.halted, s.waiting_for(), s.events[-3:])
        assert not [e for e in s.events if isinstance(e, Rejected)]
        assert any(isinstance(e, Left) and e.seat == leaver.seat for e in s.events)
        assert s.left.keys() == {leaver.seat}
        assert not [e for e in s.envelopes() if e.seat == leaver.seat and e.kind in ("audit", "final")]
    assert len({s.hashes[-1] for s in others}) == 1
    assert len({encode(s.transcript()) for s in others}) == 1
    first = others[0]
    if first.genesis.rules_id == "tiny/1":
        assert verify(first.transcript()).ok, str(verify(first.transcript()))
    else:  # a test game outside the registry: an observer replays the record
        watcher = Session(first.genesis, first.game, first.states[0], plan=first.plan)
        for env in first.envelopes():
            watcher.receive(env.to_bytes())
        watcher.close_record()
        assert watcher.finished and watcher.hashes[-1] == first.hashes[-1] and watcher.verdict == "ok"


MOMENTS: dict[str, Moment] = {
    "shuffle": lambda s: isinstance(s.pending, HiddenOp) and s.pending.op == "shuffle",
    "deal": lambda s: isinstance(s.pending, HiddenOp) and s.pending.op == "deal" and s.pending.to_seat != s.seat,
    "sealed choice": lambda s: isinstance(s.pending, SealedChoice),
    "roll": lambda s: isinstance(s.pending, Chance),
}


@pytest.mark.parametrize("moment", sorted(MOMENTS))
def test_a_seat_that_leaves_at_a_joint_round_is_played_on_and_the_others_finish(
        monkeypatch: pytest.MonkeyPatch, moment: str) -> None:
    table, _ = tiny_table(4, seed=5)
    leaver = _leave_at(table, 3, MOMENTS[moment], monkeypatch)
    _check_finished(table, leaver)


@pytest.mark.parametrize("op", ["place", "open"])
def test_a_placer_that_leaves_at_its_placement_is_played_on_and_the_others_finish(
        monkeypatch: pytest.MonkeyPatch, op: str) -> None:
    table, _, _ = treasure_table(1)
    leaver = _leave_at(table, 0, lambda s: isinstance(s.pending, Placement) and s.pending.op == op, monkeypatch)
    _check_finished(table, leaver)
    s = table.sessions[1]
    assert all(h in s.placements.contents for h in s.placements.placed[0].handles)  # its map is public now


def _forge(s: Session, identity: Any, body: Any) -> bytes:
    w = s._writer
    assert w is not None
    return sign_envelope(identity, game=s.gid, seat=w.seat, seq=w.next_seq, prev=w.head, kind="leave", body=body,
                         seen=(s.step, s.hashes[s.step])).to_bytes()


def test_a_false_or_second_leave_is_refused_naming_its_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness import identities

    table, _ = tiny_table(4, seed=5)
    ids = identities(4, tag="tiny")
    _stop_at(monkeypatch, table.sessions[0], lambda s: isinstance(s.pending, Chance))  # the game stays in play
    _stop_at(monkeypatch, table.sessions[2], lambda s: isinstance(s.pending, Chance))
    table.start()
    table.run()
    leaver, other = table.sessions[2], table.sessions[1]
    assert leaver.phase == "play" and leaver._secrets is not None and isinstance(other.pending, Chance)
    good_key = g.sb(leaver._secrets.x)
    dice = int(leaver._saved_secret(DICE_SECRET))  # one-phase dice: the leave publishes the dice secret too
    good = {"step": leaver.step, "key": good_key, "cells": (), "dice": g.sb(dice)}
    bad = [
        {**good, "key": g.sb(leaver._secrets.x + 1)},  # not its announced key
        {**good, "step": leaver.step + 1},  # another step than it signed at
        {"step": leaver.step, "key": good_key, "dice": g.sb(dice)},  # a field missing
        {"step": leaver.step, "key": good_key, "cells": ()},  # no dice secret at a one-phase table
        {**good, "dice": g.sb((dice + 1) % g.L)},  # not the secret behind its dice key
        {**good, "extra": b"x" * 70_000},  # oversized
        {**good, "cells": ((0, ()),)},  # cells of a placement it never made
    ]
    for body in bad:
        before = len([e for e in other.events if isinstance(e, Rejected)])
        other.receive(_forge(leaver, ids[2], body), sender="peer-2", via=2)
        refused = [e for e in other.events if isinstance(e, Rejected)]
        assert len(refused) == before + 1 and refused[-1].seat == 2 and refused[-1].kind == "leave", body
    assert other.left == {}
    table.post(2, leaver.leave())
    table.down.add(2)
    table.run()
    assert other.left.keys() == {2}
    second = _forge(leaver, ids[2], good)
    other.receive(second, sender="peer-2", via=2)
    refused = [e for e in other.events if isinstance(e, Rejected)]
    assert refused[-1].seat == 2 and "second leave" in refused[-1].error


def test_the_last_two_seats_cannot_leave(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness import identities

    table, _ = tiny_table(2, seed=2)
    _stop_at(monkeypatch, table.sessions[1], lambda s: isinstance(s.pending, Chance))
    table.start()
    table.run()
    a, b = table.sessions
    assert a.phase == "play" and b._secrets is not None
    with pytest.raises(ValueError, match="resign instead"):
        a.leave()
    body = {"step": b.step, "key": g.sb(b._secrets.x), "cells": (), "dice": g.sb(int(b._saved_secret(DICE_SECRET)))}
    a.receive(_forge(b, identities(2, tag="tiny")[1], body), sender="peer-1", via=1)
    refused = [e for e in a.events if isinstance(e, Rejected)]
    assert refused[-1].seat == 1 and "resign instead" in refused[-1].error and a.left == {}


def test_a_seat_that_left_and_restarts_from_its_journal_stays_out(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Any) -> None:
    import random

    from harness import NONCE, Table_, identities

    from engine.tiny.game import RULES_ID, card_set_hash
    from net.bots.random_bot import RandomBot
    from net.games import table_for
    from net.journal import Journal

    ids = identities(4, tag="tiny")
    genesis = type(tiny_table(4)[1])(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids), {},
                                     (NONCE,) * 4)
    start = table_for(genesis)

    def session(seat: int) -> Session:
        return Session(genesis, start.game, start.state, plan=start.plan, identity=ids[seat], seat=seat,
                       agent=RandomBot(random.Random(50 + seat)), journal=Journal(tmp_path / f"seat{seat}"))

    table = Table_([session(s) for s in range(4)])
    leaver = _leave_at(table, 3, MOMENTS["roll"], monkeypatch)
    assert leaver.journal is not None
    leaver.journal.close()
    back = session(3)  # the same player starts its program again
    sent = back.start()
    assert back.left.keys() == {3}
    table.sessions[3] = back
    table.down.discard(3)
    table.post(3, sent)
    table.run()
    _check_finished(table, back)
    assert not [e for e in table.sessions[0].envelopes() if e.seat == 3 and e.kind in ("audit", "final")]


def _committed(s: Session) -> bool:
    return isinstance(s.pending, SealedChoice) and (s.step, "commit") in s._sent


def test_a_seat_that_committed_leaves_the_honest_way_by_revealing_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Session.leave`` sends every part it owes (its reveal) before the ``leave``: both are accepted."""
    table, _ = tiny_table(4, seed=5)
    leaver = table.sessions[2]
    _stop_at(monkeypatch, leaver, _committed)
    table.start()
    table.run()
    assert _committed(leaver) and table.sessions[1].waiting_for() == (2,)
    monkeypatch.undo()  # the player is back (its client sends again) and leaves
    table.post(2, leaver.leave())
    table.down.add(2)
    table.run()
    _check_finished(table, leaver)


def test_a_seat_cannot_leave_after_seeing_the_others_reveal_a_sealed_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leaving after every seat committed but before revealing would let the leaver see the others'
    choices and then pick between its own (reveal) and the stand-in's (leave): refused, naming it."""
    from harness import identities

    table, _ = tiny_table(4, seed=5)
    ids = identities(4, tag="tiny")
    committed = _committed
    _stop_at(monkeypatch, table.sessions[2], committed)
    table.start()
    table.run()
    leaver, other = table.sessions[2], table.sessions[1]
    assert committed(leaver) and other.waiting_for() == (2,)  # everyone else revealed; only its reveal is missing
    assert leaver._secrets is not None
    body = {"step": leaver.step, "key": g.sb(leaver._secrets.x), "cells": (),
            "dice": g.sb(int(leaver._saved_secret(DICE_SECRET)))}
    other.receive(_forge(leaver, ids[2], body), sender="peer-2", via=2)
    refused = [e for e in other.events if isinstance(e, Rejected)]
    assert refused and refused[-1].seat == 2 and "reveal first" in refused[-1].error
    assert other.left == {} and other.waiting_for() == (2,)  # nothing changed: it still owes its reveal


def _seat_3_leaves_at_a_roll(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[Any], Session, Session]:
    """A table of four where seat 3 signs its leave at a roll and goes down (its leave posted, not yet
    delivered): the table, the identities, seat 3's session and seat 1's."""
    from harness import identities

    table, _ = tiny_table(4, seed=5)
    ids = identities(4, tag="tiny")
    leaver = table.sessions[3]
    _stop_at(monkeypatch, leaver, MOMENTS["roll"])
    table.start()
    table.run()
    table.post(3, leaver.leave())
    table.down.add(3)
    return table, ids, leaver, table.sessions[1]


def test_a_seat_that_left_cannot_resign_or_claim_afterwards(monkeypatch: pytest.MonkeyPatch) -> None:
    """A leaver that later signs a resignation would end the game for everyone (no winner):
    its leave was its last word, so any later message of it is refused, naming it."""
    table, ids, leaver, other = _seat_3_leaves_at_a_roll(monkeypatch)
    while 3 not in other.left:
        assert table.queue
        table.run(limit=1)
    w = leaver._writer
    assert w is not None
    env = sign_envelope(ids[3], game=leaver.gid, seat=3, seq=w.next_seq, prev=w.head, kind="resign",
                        body={"step": leaver.step}, seen=(leaver.step, leaver.hashes[leaver.step]))
    other.receive(env.to_bytes(), sender="peer-3", via=3)
    refused = [e for e in other.events if isinstance(e, Rejected) and e.kind == "resign"]
    assert refused and refused[-1].seat == 3 and "after it left" in refused[-1].error
    assert other.resigned is None and other.phase == "play"
    table.run()
    assert all(s.finished and s.verdict == "ok" for s in table.sessions if s is not leaver)


def _replays_alike(last: Session) -> None:
    """An observer reading ``last``'s record with either leave last ends with its very final record."""
    mine = [e.body for e in last.envelopes() if e.kind == "final"]
    assert mine
    for late in (1, 2):
        watcher = Session(last.genesis, last.game, last.states[0], plan=last.plan)
        record = last.envelopes()
        for env in [e for e in record if not (e.seat == late and e.kind == "leave")] + \
                [e for e in record if e.seat == late and e.kind == "leave"]:
            watcher.receive(env.to_bytes())
        assert watcher.finished and watcher.outcome == last.outcome and watcher.verdict == last.verdict
        assert [e.body for e in watcher.envelopes() if e.kind == "final"] == mine


def _two_leave_at_once(monkeypatch: pytest.MonkeyPatch, order: tuple[int, int]) -> Session:
    """A table of three: seats 1 and 2 leave at one moment (neither read the other's leave); seat 0
    reads them in ``order``. Returns seat 0's session."""
    table, _ = tiny_table(3, seed=5)
    for seat in (1, 2):
        _stop_at(monkeypatch, table.sessions[seat], MOMENTS["roll"])
    table.start()
    table.run()
    outs = {seat: table.sessions[seat].leave() for seat in (1, 2)}  # both signed before either was read
    table.down.update((1, 2))
    for seat in order:
        table.post(seat, outs[seat])
    table.run()
    return table.sessions[0]


@pytest.mark.parametrize("order", [(1, 2), (2, 1)])
def test_two_seats_leaving_at_once_at_a_table_of_three_end_the_game_the_same_in_either_order(
        monkeypatch: pytest.MonkeyPatch, order: tuple[int, int]) -> None:
    """Review gap: at a table of three, two seats leave in the same instant. The one read second left
    only one seat playing, so it was refused, though its player had gone: the last seat waited for it
    until a forfeit. Now the leave that leaves one seat playing is taken as well and ends the game
    (no single winner) at the latest step a leave was signed at, whichever was read first."""
    last = _two_leave_at_once(monkeypatch, order)
    assert last.finished, (last.phase, last.waiting_for(), last.events[-3:])
    assert last.left.keys() == {1, 2} and last.gone == {1, 2}
    assert not [e for e in last.events if isinstance(e, Rejected)]
    assert last.outcome is not None and last.outcome["winner"] is None and "one seat" in last.outcome["reason"]
    verdict = verify(last.transcript())
    assert verdict.ok and verdict.end is not None and verdict.end.startswith("seats leaving"), str(verdict)
    from net.replay import load_replay

    replay = load_replay(last.transcript())  # the replay viewer: every position up to the end, no failure
    assert replay.verdict.ok and replay.failing_position() is None and replay.steps >= 1
    _replays_alike(last)


def _leaves_at_two_steps(order: tuple[int, int]) -> tuple[Session, int, int]:
    """Seat 1 leaves while seat 0 decides (it owes nothing then) and its leave is slow to arrive; the
    table plays on until it needs seat 1, where seat 2 leaves too. Seat 0 reads the two leaves in
    ``order``. Returns seat 0's session and the steps the leaves were signed at."""
    from engine.core.pending import Decision

    table, _ = tiny_table(3, seed=5)
    table.start()
    one = table.sessions[1]
    while not (isinstance(one.pending, Decision) and one.pending.seat == 0 and one.step >= 3):
        assert table.queue
        table.run(limit=1)
    slow = one.leave()
    table.down.add(1)
    table.run()
    two = table.sessions[2]
    assert two.waiting_for() == (1,) and two.step > one.step  # the table needs seat 1 at a later step
    outs = {1: slow, 2: two.leave()}
    table.down.add(2)
    for seat in order:
        table.post(seat, outs[seat])
    table.run()
    return table.sessions[0], one.step, two.step


def test_two_leaves_signed_at_different_steps_end_the_game_at_the_later_one_in_either_order() -> None:
    first, early, late = _leaves_at_two_steps((1, 2))
    second, _, _ = _leaves_at_two_steps((2, 1))
    for s in (first, second):
        assert s.finished and s.ended_by_leaves == late and s.left.keys() == {1, 2}, (s.phase, s.events[-3:])
        assert not [e for e in s.events if isinstance(e, Rejected)]
    assert early < late
    for s in (first, second):
        assert verify(s.transcript()).ok
        _replays_alike(s)


def test_a_seat_that_committed_and_leaves_before_every_seat_committed_is_read_alike_in_either_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile review: seat 2 commits to a sealed choice, then leaves while seat 3 has not committed
    yet. A peer that read seat 3's commitment before the leave refused it (every seat committed, its
    reveal missing); one that read the leave first dropped the commitment: two histories. Now the
    leaver reveals before its leave (held until every seat committed), and a leave after an
    unrevealed commitment is refused in any phase: every reader takes the same reveal and leave."""
    table, _ = tiny_table(4, seed=5)
    _stop_at(monkeypatch, table.sessions[3], lambda s: isinstance(s.pending, SealedChoice))
    table.start()
    table.run()
    leaver = table.sessions[2]
    assert _committed(leaver) and table.sessions[0].waiting_for() == (3,)
    table.post(2, leaver.leave())
    table.down.add(2)
    sent = [e for e in leaver.envelopes() if e.seat == 2][-2:]
    assert [e.kind for e in sent] == ["reveal", "leave"]
    monkeypatch.undo()  # seat 3 commits now
    table.run()
    _check_finished(table, leaver)
    first = table.sessions[0]
    mine = [e.body for e in first.envelopes() if e.kind == "final"]
    watcher = Session(first.genesis, first.game, first.states[0], plan=first.plan)
    record = first.envelopes()
    late = [e for e in record if e.seat == 2 and e.kind in ("reveal", "leave") and e.seen.step == sent[0].seen.step]
    for env in [e for e in record if e not in late] + late:  # the reveal and leave after seat 3's commitment
        watcher.receive(env.to_bytes())
    watcher.close_record()
    assert watcher.finished and [e.body for e in watcher.envelopes() if e.kind == "final"] == mine
    assert not [e for e in watcher.events if isinstance(e, Rejected)]


def test_a_leave_after_an_unrevealed_commitment_is_refused_in_any_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile: seat 2 commits, then signs a leave without its reveal while seat 3 has not committed:
    refused naming seat 2 (whether the reader has seat 3's commitment yet or not)."""
    from harness import identities

    table, _ = tiny_table(4, seed=5)
    _stop_at(monkeypatch, table.sessions[3], lambda s: isinstance(s.pending, SealedChoice))
    table.start()
    table.run()
    leaver, other = table.sessions[2], table.sessions[1]
    assert _committed(leaver) and other.waiting_for() == (3,)
    assert leaver._secrets is not None
    body = {"step": leaver.step, "key": g.sb(leaver._secrets.x), "cells": (),
            "dice": g.sb(int(leaver._saved_secret(DICE_SECRET)))}
    other.receive(_forge(leaver, identities(4, tag="tiny")[2], body), sender="peer-2", via=2)
    refused = [e for e in other.events if isinstance(e, Rejected)]
    assert refused and refused[-1].seat == 2 and "reveal first" in refused[-1].error
    assert other.left == {}


def test_at_a_table_of_old_dice_a_seat_committed_to_a_roll_waits_for_the_roll_before_it_leaves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With commit-reveal dice (records made before one-phase dice) a committed part of a roll cannot
    be shown before every seat committed (the last to commit could pick the roll), nor dropped (see
    above): our own leave waits with a reason, and once the roll is made the seat leaves."""
    from net.envelope import DICE_COMMIT_REVEAL

    table, _ = tiny_table(4, seed=5, dice=DICE_COMMIT_REVEAL)
    _stop_at(monkeypatch, table.sessions[3], lambda s: isinstance(s.pending, Chance))
    table.start()
    table.run()
    leaver = table.sessions[2]
    assert isinstance(leaver.pending, Chance) and (leaver.step, "commit") in leaver._sent
    assert leaver.leave_blocked() is not None and "roll" in str(leaver.leave_blocked())
    before = len(leaver.envelopes())
    with pytest.raises(ValueError, match="leave once the roll is made"):
        leaver.leave()
    assert len(leaver.envelopes()) == before and leaver.halted is None  # nothing signed
    monkeypatch.undo()  # seat 3 commits: the reveals follow
    table.post(3, table.sessions[3].tick(0.0))
    while leaver.leave_blocked() is not None:
        assert table.queue
        table.run(limit=1)
    table.post(2, leaver.leave())
    table.down.add(2)
    table.run()
    _check_finished(table, leaver)


@pytest.mark.parametrize("kind", ["chat", "action", "leave"])
def test_anything_a_seat_signs_after_its_leave_is_refused_naming_it(monkeypatch: pytest.MonkeyPatch,
                                                                    kind: str) -> None:
    """Hostile: a leaver that keeps sending (a chat line, a move, another leave) after its leave:
    each is refused naming it (chat too: the record holds nothing it signed after it left), counted
    as its refusals, and the others finish."""
    table, ids, leaver, other = _seat_3_leaves_at_a_roll(monkeypatch)
    table.run()
    w = leaver._writer
    assert w is not None and 3 in other.left
    bodies: dict[str, Any] = {"chat": {"text": "still here"}, "action": {"action": [], "claims": []},
                              "leave": {"step": leaver.step, "key": b"", "cells": ()}}
    env = sign_envelope(ids[3], game=leaver.gid, seat=3, seq=w.next_seq, prev=w.head, kind=kind,
                        body=bodies[kind], seen=(leaver.step, leaver.hashes[leaver.step]))
    before = other.refused.get(3, 0)
    other.receive(env.to_bytes(), sender="peer-3", via=3)
    refused = [e for e in other.events if isinstance(e, Rejected) and e.kind == kind]
    assert refused and refused[-1].seat == 3 and "after it left" in refused[-1].error
    assert other.refused.get(3, 0) == before + 1
    assert not [line for seat, line in other.chat_log if seat == 3]
    assert all(s.finished and s.verdict == "ok" for s in table.sessions if s is not leaver)


def test_forged_and_replayed_leaves_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile: a leave in seat 2's name signed with seat 1's key, seat 1's leave publishing seat 2's
    card secret, seat 2's genuine leave of another game, and a replay of an accepted leave. None
    makes a seat leave; each refusal names the seat it is pinned on (the signer, when the key is
    its own) and the game finishes for the others."""
    from harness import identities

    table, _ = tiny_table(4, seed=5)
    ids = identities(4, tag="tiny")
    _stop_at(monkeypatch, table.sessions[0], lambda s: isinstance(s.pending, Chance))
    table.start()
    table.run()
    victim, forger, other = table.sessions[2], table.sessions[1], table.sessions[3]
    assert victim._secrets is not None and forger._secrets is not None
    dice = g.sb(int(victim._saved_secret(DICE_SECRET)))
    good = {"step": victim.step, "key": g.sb(victim._secrets.x), "cells": (), "dice": dice}
    rejected = len([e for e in other.events if isinstance(e, Rejected)])
    other.receive(_forge(victim, ids[1], good), sender="peer-1", via=1)  # seat 2's name, seat 1's key
    stolen = {"step": forger.step, "key": g.sb(victim._secrets.x), "cells": (),
              "dice": g.sb(int(forger._saved_secret(DICE_SECRET)))}
    other.receive(_forge(forger, ids[1], stolen), sender="peer-1", via=1)
    refused = [e for e in other.events if isinstance(e, Rejected)][rejected:]
    assert refused and refused[-1].seat == 1 and "not the key it announced" in refused[-1].error
    w = victim._writer
    assert w is not None
    elsewhere = sign_envelope(ids[2], game=b"\x07" * 32, seat=2, seq=w.next_seq, prev=w.head, kind="leave",
                              body=good, seen=(victim.step, victim.hashes[victim.step]))
    other.receive(elsewhere.to_bytes(), sender="peer-2", via=2)
    refused = [e for e in other.events if isinstance(e, Rejected)][rejected:]
    assert [e.reason for e in refused] == ["BadSignature", "BadCardMessage", "WrongGame"], refused
    assert refused[0].seat is None and "seat 2 is not blamed" in refused[0].error  # the link is named
    assert refused[2].seat == 2 and "another game" in refused[2].error
    assert other.left == {} and other.phase == "play"
    table.post(2, victim.leave())
    table.down.add(2)
    table.run()
    assert other.left.keys() == {2}
    accepted = next(e for e in other.envelopes() if e.seat == 2 and e.kind == "leave")
    count = len(other.envelopes())
    other.receive(accepted.to_bytes(), sender="peer-1", via=1)  # a replay is the same envelope: dropped
    assert len(other.envelopes()) == count and other.left.keys() == {2}
    monkeypatch.undo()
    table.post(0, table.sessions[0].tick(0.0))
    table.run()
    assert all(s.finished and s.verdict == "ok" for s in table.sessions if s is not victim)


def test_the_stand_in_knows_the_same_on_every_peer_and_only_what_the_leaver_held(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in of seat 3 decides from public data alone: every seat still playing and an observer
    of the record derive the same knowledge for it (its own cards, read with its published key, and
    what is public), none of it a card another seat holds privately, so its choices are equal on
    every peer and in tools.verify."""
    from net.session.leave import public_knowledge, stand_in_choice

    table, _ = tiny_table(4, seed=5)
    leaver = table.sessions[3]
    _stop_at(monkeypatch, leaver, MOMENTS["roll"])
    table.start()
    table.run()
    table.post(3, leaver.leave())
    table.down.add(3)
    table.run()  # to the end: every reader then holds the whole record
    first = table.sessions[0]
    watcher = Session(first.genesis, first.game, first.states[0], plan=first.plan)
    for env in first.envelopes():
        watcher.receive(env.to_bytes())
    readers = [*table.sessions[:3], watcher]
    assert len({s.step for s in readers}) == 1, [s.step for s in readers]
    views = [dict(public_knowledge(s, 3).cards) for s in readers]
    assert views[0] and all(v == views[0] for v in views), views
    assert first.book is not None
    others_private = {h for h, held in first.book.held.items() if held.holder != 3} - set(first.book.identified)
    assert others_private and not others_private & set(views[0])
    mine = dict(leaver.knowledge.cards)
    assert all(mine.get(h, card) == card for h, card in views[0].items())  # what it knew itself, no other card
    options = list(range(7))
    assert len({stand_in_choice(s, 3, options) for s in readers}) == 1


def test_with_two_of_three_seats_playing_a_final_record_of_a_past_step_is_refused_unless_it_claims_the_too_few_end(
) -> None:
    """Review gap: at a table of three where one seat left, the other two play on. A final record of
    a past step waits only when it claims the end two more leaves would make (net/session/play.py
    ``_too_few``); any other (here a normal end) is refused at once, naming its signer, and the
    game goes on to its end."""
    from engine.core.pending import Decision
    from harness import identities

    table, _ = tiny_table(3, seed=5)
    ids = identities(3, tag="tiny")
    table.start()
    one, zero = table.sessions[1], table.sessions[0]
    while not (isinstance(one.pending, Decision) and one.step >= 3):
        assert table.queue
        table.run(limit=1)
    table.post(2, table.sessions[2].leave())
    table.down.add(2)
    w = one._writer
    assert w is not None
    while 2 not in zero.left or zero.step < 5 or zero._logs[1].next_seq != w.next_seq:  # seat 0 read all of 1's
        assert table.queue
        table.run(limit=1)
    past = zero.step - 2
    body = {"outcome": {"reason": "the game ended", "winner": 1}, "step": past, "state": zero.hashes[past],
            "audit": "ok"}
    forged = sign_envelope(ids[1], game=one.gid, seat=1, seq=w.next_seq, prev=w.head, kind="final",
                           body=body, seen=(past, zero.hashes[past]))
    zero.receive(forged.to_bytes(), sender="peer-1", via=1)
    refused = [e for e in zero.events if isinstance(e, Rejected) and e.kind == "final"]
    assert refused and refused[-1].seat == 1 and "went on from there" in refused[-1].error
    assert zero.phase == "play" and not zero.finished
    table.run()
    assert zero.finished and zero.verdict == "ok" and one.finished
