"""Bad input is rejected with a specific reason naming the sender; the session
keeps running and nothing already accepted is lost. Also: chat stays out of
the state, deadlines name the staller, and the others may end the game as its
forfeit with signed claims."""

from __future__ import annotations

import random
from typing import Any

import pytest
from harness import NONCE, Table_, identities
from engine.tiny.game import RULES_ID, card_set_hash, Play
from net.games import table_for

from engine.core.encoding import decode, encode
from engine.core.pending import Decision
from net.bots.random_bot import RandomBot
from net.envelope import Envelope, Genesis, sign_envelope
from net.seam import InputRefused
from net.session import Finished, Rejected, Session, Stalling
from net.verifier import verify


def _two_humans(**options: Any) -> tuple[Table_, Genesis, list[Any]]:
    """Two seats of the tiny game with random bots (tests take them away as needed)."""
    ids = identities(2, tag="bad")
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids),
                      {"names": ["Ann", "Bo"], **options}, (NONCE,) * len(ids))
    table = table_for(genesis)
    sessions = []
    for seat in (0, 1):
        s = Session(genesis, table.game, table.state, plan=table.plan, identity=ids[seat], seat=seat,
                    agent=RandomBot(random.Random(seat)))
        sessions.append(s)
    return Table_(sessions), genesis, ids


def _forge(s: Session, identity: Any, *, kind: str, body: Any, game: bytes | None = None,
           seen: tuple[int, bytes] | None = None) -> bytes:
    """An envelope from ``s``'s own seat that ``s`` did not send (next seq, valid chain)."""
    w = s._writer
    assert w is not None
    env = sign_envelope(identity, game=game or s.gid, seat=w.seat, seq=w.next_seq, prev=w.head, kind=kind,
                        body=body, seen=seen or (s.step, s.hashes[s.step]))
    return env.to_bytes()


def _rejections(s: Session) -> list[Rejected]:
    return [e for e in s.events if isinstance(e, Rejected)]


def test_every_kind_of_bad_input_is_rejected_naming_the_sender_and_play_goes_on(
        caplog: pytest.LogCaptureFixture) -> None:
    table, _, ids = _two_humans()
    a, b = table.sessions
    for s in table.sessions:  # every choice is made by hand below
        s.agent = None
    table.start()
    table.run()
    assert a.phase == "play"
    while not isinstance(a.pending, Decision):
        for s in table.sessions:
            if s.legal(s.seat or 0):
                table.post(s.seat or 0, s.submit(s.seat or 0, s.legal(s.seat or 0)[0]))
        table.run()
    assert isinstance(a.pending, Decision) and a.pending.seat == 0
    step = a.step
    accepted = len(a.envelopes())
    hand0 = a.state.hands[0]

    bad: list[tuple[bytes, str]] = []
    signed = Envelope.from_data(decode(_forge(b, ids[1], kind="chat", body={"text": "hi"})))
    flipped = bytearray(signed.signature)
    flipped[0] ^= 1
    data = signed.to_data()
    data["sig"] = bytes(flipped)
    bad.append((encode(data), "BadSignature"))
    bad.append((_forge(b, ids[1], kind="chat", body={"text": "hi"}, game=bytes(32)), "WrongGame"))
    bad.append((_forge(b, ids[1], kind="teleport", body={}), "UnexpectedMessage"))
    bad.append((b"\x00garbage", "MalformedMessage"))
    out_of_turn = Play(1, b.state.hands[1][0], b.knowledge.card(b.state.hands[1][0]) or "")
    bad.append((_forge(b, ids[1], kind="action", body={"action": out_of_turn.to_data(), "cards": []}),
                "UnexpectedMessage"))
    bad.append((_forge(b, ids[1], kind="commit", body={"commit": bytes(32)}), "UnexpectedMessage"))
    bad.append((_forge(b, ids[1], kind="chat", body={"text": ""}), "MalformedMessage"))
    for payload, reason in bad:
        a.receive(payload, sender="mallory")
        got = _rejections(a)[-1]
        assert got.reason == reason, str(got)
        assert got.sender == "mallory"
        assert "mallory" in str(got) and "game goes on" in str(got)
    assert all(r.seat in (1, None) for r in _rejections(a))
    logged = [r.getMessage() for r in caplog.records if r.name == "fairtable.session"]
    assert sum("mallory" in m for m in logged) >= len(bad)
    # the garbage has no seat, and a forgery blames the link it came from, not the seat it imitates
    assert [r.reason for r in _rejections(a) if r.seat is None] == ["BadSignature", "MalformedMessage"]
    assert a.step == step and len(a.envelopes()) == accepted and a.state.hands[0] == hand0

    # seat 0 plays; now it is seat 1's turn: illegal actions and bad proofs from seat 1
    table.post(0, a.submit(0, a.legal(0)[0]))
    table.run()
    assert isinstance(a.pending, Decision) and a.pending.seat == 1
    h = b.state.hands[1][0]
    card = b.knowledge.card(h)
    assert card is not None
    from net.session.cards import make_claims

    assert b.book is not None
    proof = make_claims(b.book, b.step, [(h, card)], {})
    wrong_card = "c00" if card != "c00" else "c01"
    cases = [
        ({"action": Play(1, h, wrong_card).to_data(), "cards": proof}, "DeckListMismatch"),   # bad proof
        ({"action": Play(1, 999, card).to_data(), "cards": []}, "BadCardMessage"),            # no proof
        ({"action": Play(1, a.state.hands[0][0], card).to_data(),                             # not its card
          "cards": [[a.state.hands[0][0], proof[0][1], None]]}, "OutOfTurn"),
        ({"action": {"kind": "dice_rolled", "seat": 1, "purpose": "x", "faces": [1]}, "cards": []},
         "UnexpectedMessage"),                                                                  # wrong kind
        ({"action": {"kind": "test.fly", "seat": 1}, "cards": []}, "MalformedAction"),        # unknown action
        ({"action": Play(0, h, card).to_data(), "cards": proof}, "UnexpectedMessage"),         # in seat 0's name
    ]
    for body, reason in cases:
        a.receive(_forge(b, ids[1], kind="action", body=body), sender="peer-1")
        got = _rejections(a)[-1]
        assert (got.reason, got.seat, got.sender) == (reason, 1, "peer-1"), str(got)
    # an engine-illegal action that passes its proofs: a driver answer in a seat's name
    a.receive(_forge(b, ids[1], kind="action", body={"action": {"kind": "cards_shuffled", "seat": 1,
                                                                  "zone": "deck"}, "cards": []}))
    assert _rejections(a)[-1].reason in ("WrongInputKind", "UnexpectedMessage")

    # the real seat 1 plays on: nothing was lost, the game finishes
    table.post(1, b.submit(1, b.legal(1)[0]))
    table.run()
    for s in table.sessions:
        s.agent = RandomBot(random.Random(5))
    for s in table.sessions:
        table.post(s.seat or 0, s.tick(0.0))
        table.post(s.seat or 0, s.start())
    table.run()
    assert a.finished and b.finished and a.hashes[-1] == b.hashes[-1]
    assert verify(a.transcript()).ok


def test_chat_is_signed_kept_out_of_the_state_and_in_the_transcript() -> None:
    table, _, _ = _two_humans()
    a, b = table.sessions
    table.start()
    table.post(0, a.chat("good luck"))
    table.run()
    assert ("good luck" in [t for _, t in b.chat_log]) and b.chat_log[0] == (0, "good luck")
    assert a.finished and b.finished
    assert "chat" not in encode(a.game.public(a.state)).decode("latin-1")
    assert verify(a.transcript()).ok


def test_deadline_names_the_staller_and_others_end_the_game_as_its_forfeit() -> None:
    table, _, _ = _two_humans(timeout_s=30)
    a, b = table.sessions
    b.agent = None  # seat 1 never decides
    table.start()
    table.run()
    assert a.waiting_for() == (1,)  # seat 1 never commits its sealed guess
    asks = a.tick(10.0)  # no deadline yet; only a request for anything we missed
    assert [set(decode(o.data)) for o in asks] == [{"catch_up"}]
    assert not [e for e in a.events if isinstance(e, Stalling)]
    a.tick(31.0)
    stall = [e for e in a.events if isinstance(e, Stalling)]
    assert len(stall) == 1 and stall[0].seats == (1,) and stall[0].names == ("Bo",)
    assert "Bo (seat 1)" in str(stall[0]) and "forfeit" in str(stall[0])
    a.tick(45.0)  # still the same step: the staller is named once, not on every tick
    assert len([e for e in a.events if isinstance(e, Stalling)]) == 1
    table.post(0, a.claim_forfeit(1))
    table.run()
    assert not a.finished and a.forfeited is None  # the grace period: an answer in flight would still void it
    table.post(0, a.tick(45.0 + a.grace))
    table.run()
    assert a.finished and a.forfeited == 1
    assert a.outcome is not None and a.outcome["winner"] == 0 and "forfeit" in a.outcome["reason"]
    assert isinstance(a.events[-1], Finished)
    assert b.forfeited is None  # its own deadline has not passed on its clock: it does not concede yet
    table.post(1, b.tick(31.0))
    table.run()
    assert b.forfeited == 1 and b.finished  # the staller's own session agrees on the record
    assert verify(a.transcript()).ok


@pytest.mark.parametrize("when", ["opening", "play"])
def test_hostile_bodies_of_every_kind_never_crash_the_session(when: str) -> None:
    """Odd shapes for every message kind are refused (or held while they belong
    to a later phase, then refused); the table still finishes."""
    from net.session import KINDS, Flooding, pump

    table, _, ids = _two_humans()
    a, b = table.sessions
    agent = b.agent
    table.start()
    if when == "opening":
        table.run(limit=3)
    else:
        b.agent = None  # the table stops at seat 1's first decision
        table.run()
        assert a.phase == "play" and a.waiting_for() == (1,)
    weird: list[Any] = [None, 7, "x", b"", (), (1, 2), {"parts": ((0, None),)}, {"parts": "x"},
                        {"openings": ((1, 2, 3),)}, {"commit": 5}, {"reveal": {"value": 1, "salt": 3}},
                        {"action": {"kind": "tiny.play", "seat": 1, "handle": "h", "card": 3}, "cards": ()},
                        {"card": {}, "deck": ()}, {"deck": ((1, 2),)}, {"staller": "x", "step": -1},
                        {"deck": (1,), "proof": None}]
    before = len(_rejections(a))
    for kind in KINDS:
        for body in weird:
            a.receive(_forge(b, ids[1], kind=kind, body=body), sender="fuzz")
    b.agent = agent
    pump.pump(b)  # seat 1 makes its move
    table.post(1, b._flush())
    table.run()
    refused = _rejections(a)[before:]  # listed one by one until the seat counts as flooding
    assert all(r.seat == 1 for r in refused) and len(refused) <= 32
    assert a.refused[1] >= 32 and [e for e in a.events if isinstance(e, Flooding) and e.seat == 1]
    assert a.conviction is None  # refused versions of one seq are no fork of the history
    assert a.finished and b.finished and a.hashes[-1] == b.hashes[-1]


def test_act_refuses_an_illegal_action_before_signing_it() -> None:
    table, _, _ = _two_humans()
    a, b = table.sessions
    for s in (a, b):
        s.agent = None
    table.start()
    table.run()
    while not isinstance(a.pending, Decision):
        for s in (a, b):
            if s.legal(s.seat or 0):
                table.post(s.seat or 0, s.submit(s.seat or 0, s.legal(s.seat or 0)[0]))
        table.run()
    sent = a._writer.next_seq if a._writer else -1
    with pytest.raises(InputRefused, match="not allowed now") as refused:
        a.submit(0, Play(0, 12345, "c00"))
    assert refused.value.seat == 0
    with pytest.raises(InputRefused, match="not allowed now"):
        b.submit(1, Play(1, 12345, "c00"))
    with pytest.raises(InputRefused, match="plays seat 2, not seat 1"):
        b.submit(0, Play(0, 12345, "c00"))  # a session gives only its own seat's inputs
    assert a._writer is not None and a._writer.next_seq == sent


def test_a_final_record_that_differs_from_ours_is_refused_and_the_game_does_not_end() -> None:
    """Every seat must sign the same final record; a differing one never counts."""
    table, _, ids = _two_humans()
    a, b = table.sessions
    table.start()
    forged = None
    while table.queue and forged is None:
        for i, (seat, out) in enumerate(table.queue):
            env = Envelope.from_data(decode(out.data))
            if seat == 1 and env.kind == "final":
                body = {**env.body, "audit": "passed (signed by seat 1 alone)"}
                forged = sign_envelope(ids[1], game=env.game, seat=1, seq=env.seq, prev=env.prev, kind="final",
                                       body=body, seen=(env.seen.step, env.seen.state_hash))
                table.queue[i] = (seat, out._replace(data=forged.to_bytes()))
                break
        else:
            table.run(limit=1)
    assert forged is not None, "seat 1 must have signed its final record"
    table.run()
    refused = [r for r in _rejections(a) if r.kind == "final"]
    assert refused and refused[0].seat == 1 and "differs from ours" in refused[0].error
    assert not a.finished and a.waiting_for() == (1,)
    assert b.finished  # seat 1 itself saw seat 0's true record


def test_a_second_audit_message_from_one_seat_is_refused() -> None:
    """Each seat opens its secrets once; a second opening must not replace the first."""
    from harness import tiny_table

    table, _ = tiny_table(3)
    a = table.sessions[0]
    table.start()
    while table.queue:
        seat, out = table.queue[0]
        env = Envelope.from_data(decode(out.data))
        if seat != 0 and env.kind == "audit" and a.phase == "audit" and len(a.waiting_for()) == 2:
            break
        table.run(limit=1)
    else:
        raise AssertionError("seat 0 must wait for two audit messages at some point")
    again = sign_envelope(identities(3, tag="tiny")[env.seat], game=env.game, seat=env.seat, seq=env.seq + 1,
                          prev=env.digest(), kind="audit", body=env.body,
                          seen=(env.seen.step, env.seen.state_hash))
    a.receive(out.data)
    a.receive(again.to_bytes())
    refused = _rejections(a)
    assert refused and refused[-1].seat == env.seat and "second audit" in refused[-1].error
    assert a.phase == "audit" and len(a.waiting_for()) == 1


def test_a_forfeit_needs_the_claim_of_every_other_seat() -> None:
    """One impatient seat cannot end a three-seat game: all others must sign."""
    from harness import tiny_table

    table, _ = tiny_table(3)
    a, b, c = table.sessions
    b.agent = None  # seat 1 never acts
    table.start()
    table.run()
    assert a.waiting_for() == (1,) and c.waiting_for() == (1,)
    for s in table.sessions:
        table.post(s.seat or 0, s.tick(s.timeout + 1))
    table.run()
    table.post(0, a.claim_forfeit(1))
    table.run()
    for s in (a, c):
        table.post(s.seat or 0, s.tick(s.timeout + 1 + s.grace))
    table.run()
    assert a.forfeited is None and c.forfeited is None and a.phase == "play"
    table.post(2, c.claim_forfeit(1))
    table.run()
    assert a.forfeited is None  # seat 2's claim is fresh: its grace period runs first
    for s in table.sessions:
        table.post(s.seat or 0, s.tick(s.timeout + 2 + 2 * s.grace))
    table.run()
    assert a.forfeited == 1 and c.forfeited == 1 and b.forfeited == 1 and a.finished and c.finished
    assert a.outcome is not None and a.outcome["winner"] is None  # two seats remain: no single winner


def test_a_forfeit_claim_against_a_seat_whose_answer_is_on_record_is_void_and_named() -> None:
    """Seat 0 committed its sealed guess long ago; seat 1's claim against it changes
    nothing (it stays in seat 1's chain, so every peer keeps the same record) and
    is named as seat 1's misconduct."""
    from net.session import Misconduct

    table, _, ids = _two_humans()
    a, b = table.sessions
    b.agent = None  # the table waits for seat 1, not for seat 0
    table.start()
    table.run()
    assert a.waiting_for() == (1,)
    a.tick(a.grace + 1)  # seat 0's commit has been on record for longer than the grace period
    a.receive(_forge(b, ids[1], kind="forfeit", body={"staller": 0, "step": a.step, "part": "play"}),
              sender="peer-1")
    assert not _rejections(a) and a._logs[1][-1].kind == "forfeit"
    [named] = [e for e in a.events if isinstance(e, Misconduct)]
    assert named.seat == 1 and "on record" in named.what
    a.tick(2 * a.timeout)
    assert a.forfeited is None and a.phase == "play"


def test_two_different_envelopes_with_one_seq_are_kept_as_equivocation_proof() -> None:
    table, _, ids = _two_humans()
    a = table.sessions[0]
    table.start()
    table.run()
    assert a.finished
    first = a._logs[1][1]
    other = sign_envelope(ids[1], game=first.game, seat=1, seq=first.seq, prev=first.prev, kind="chat",
                          body={"text": "not what I said"}, seen=(first.seen.step, first.seen.state_hash))
    a.receive(other.to_bytes(), sender="peer-1")
    got = _rejections(a)[-1]
    assert (got.seat, got.reason) == (1, "Equivocation")
    assert len(a.equivocations) == 1
    proof = a.equivocations[0]
    assert (proof.first.digest(), proof.second.digest()) == (first.digest(), other.digest())
    assert a._logs[1][1] is first  # the accepted envelope stays
