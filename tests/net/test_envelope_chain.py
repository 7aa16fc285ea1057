"""Signed envelopes: game id, per-seat chains, and every tamper we can think of."""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import pytest

from engine.core.encoding import decode, encode
from net.envelope import (
    CLAIMS_AT_AUDIT,
    CLAIMS_AT_STEP,
    DICE_COMMIT_REVEAL,
    DICE_VRF,
    ZERO32,
    Envelope,
    EnvelopeChain,
    EnvelopeWriter,
    EquivocationProof,
    Genesis,
    SeatLog,
    Seen,
    game_id,
    sign_envelope,
    verify_equivocation_proof,
)
from net.errors import (
    BadPublicKey,
    BadSignature,
    BrokenChain,
    Equivocation,
    InvalidProof,
    MalformedMessage,
    Replay,
    SequenceGap,
    UnknownSeat,
    WrongGame,
)
from net.identity import Identity

SEEN0 = Seen(0, bytes(32))


def identities(n: int) -> list[Identity]:
    return [Identity.from_seed(bytes([seat + 1]) * 32) for seat in range(n)]


def genesis(ids: list[Identity], nonce: bytes = b"n" * 16, **changes: Any) -> Genesis:
    base = Genesis(rules_id="rider", rules_version="1", card_set_hash=b"c" * 32,
                   seat_keys=tuple(i.public_key for i in ids), options={"turn_limit": 300},
                   nonces=tuple(nonce + bytes([seat]) for seat in range(len(ids))))
    return dataclasses.replace(base, **changes)


def table(n: int) -> tuple[list[Identity], Genesis, bytes, list[EnvelopeWriter]]:
    ids = identities(n)
    g = genesis(ids)
    gid = game_id(g)
    return ids, g, gid, [EnvelopeWriter(ident, gid, seat) for seat, ident in enumerate(ids)]


# --- game id -------------------------------------------------------------------


def test_game_id_literal_vector() -> None:
    """A record of commit-reveal dice (made before issue 26) keeps its game id: no 'dice' field (and
    no 'claims' field: claims judged at the audit, before issue 31)."""
    ids = identities(2)
    gid = game_id(genesis(ids, dice=DICE_COMMIT_REVEAL, claims=CLAIMS_AT_AUDIT))
    assert gid.hex() == "175f9aa8f0fd9a7e426e6e6171611c0d6e8cb8e66e6f36cb4c4746c781ffb40c"
    # the same by hand: SHA-256 of the canonical [domain, record]
    record = {"card_set_hash": b"c" * 32, "nonces": [b"n" * 16 + b"\x00", b"n" * 16 + b"\x01"],
              "options": {"turn_limit": 300}, "rules_id": "rider", "rules_version": "1",
              "seat_keys": [i.public_key for i in ids]}
    assert hashlib.sha256(encode(["fairtable/game-id/v2", record])).digest() == gid
    # a new record names its one-phase dice, its shuffle rule and its claims proven at their step, all
    # inside the game id
    assert genesis(ids).dice == DICE_VRF and genesis(ids).claims == CLAIMS_AT_STEP
    new = hashlib.sha256(encode(["fairtable/game-id/v2", {**record, "dice": "vrf-dleq/v1",
                                                           "shuffles": "drawers-beacon/v1",
                                                           "claims": "or-dleq/v1"}])).digest()
    assert game_id(genesis(ids)) == new != gid
    assert Genesis.from_data(genesis(ids).to_data()) == genesis(ids)
    assert Genesis.from_data(record).dice == DICE_COMMIT_REVEAL
    assert Genesis.from_data(record).claims == CLAIMS_AT_AUDIT
    # a record of issue 26 (one-phase dice) made before issue 31 keeps its id and judges claims at the audit
    dice_only = {**record, "dice": "vrf-dleq/v1"}
    assert Genesis.from_data(dice_only).claims == CLAIMS_AT_AUDIT
    assert game_id(Genesis.from_data(dice_only)) == hashlib.sha256(encode(["fairtable/game-id/v2", dice_only])).digest()


@pytest.mark.parametrize("dice, words", [
    ("vrf-dleq/v9", "does not know"), (["vrf-dleq/v1"], "does not know"), (DICE_COMMIT_REVEAL, "never had one")])
def test_a_genesis_with_an_unknown_or_spelled_out_legacy_dice_protocol_is_refused(dice: Any, words: str) -> None:
    data = {**genesis(identities(2)).to_data(), "dice": dice}
    with pytest.raises(MalformedMessage, match=words):
        Genesis.from_data(data)


@pytest.mark.parametrize("claims, words", [
    ("or-dleq/v9", "does not know"), (["or-dleq/v1"], "does not know"), (CLAIMS_AT_AUDIT, "never had one")])
def test_a_genesis_with_an_unknown_or_spelled_out_legacy_claim_protocol_is_refused(claims: Any, words: str) -> None:
    data = {**genesis(identities(2)).to_data(), "claims": claims}
    with pytest.raises(MalformedMessage, match=words):
        Genesis.from_data(data)


@pytest.mark.parametrize("change", [
    {"rules_id": "locke"}, {"rules_version": "2"}, {"card_set_hash": b"d" * 32},
    {"options": {"turn_limit": 301}}, {"nonces": (b"n" * 16 + b"\x00", b"m" * 17)},
    {"nonces": (b"m" * 17, b"n" * 16 + b"\x01")},
])
def test_game_id_binds_every_genesis_field(change: dict[str, Any]) -> None:
    ids = identities(2)
    assert game_id(genesis(ids, **change)) != game_id(genesis(ids))


def test_game_id_binds_seat_order() -> None:
    ids = identities(3)
    swapped = [ids[1], ids[0], ids[2]]
    assert game_id(genesis(swapped)) != game_id(genesis(ids))


def test_game_id_accepts_the_record_as_data() -> None:
    g = genesis(identities(3))
    assert game_id(decode(encode(g.to_data()))) == game_id(g)


def test_genesis_refuses_one_key_in_two_seats() -> None:
    ids = identities(2)
    with pytest.raises(MalformedMessage, match="two seats"):
        genesis([ids[0], ids[0]])


def test_genesis_refuses_small_order_key() -> None:
    with pytest.raises(BadPublicKey) as err:
        Genesis("rider", "1", b"c" * 32, (identities(1)[0].public_key, bytes(32)), {}, (b"n" * 16,) * 2)
    assert err.value.seat == 1


@pytest.mark.parametrize("change", [
    {"nonces": (b"n" * 16, b"short")}, {"nonces": (b"n" * 16,)}, {"nonces": (b"n" * 16,) * 3},
    {"nonces": (b"n" * 16, b"n" * 65)}, {"nonces": b"n" * 32}, {"card_set_hash": b"x"}, {"rules_id": ""},
])
def test_genesis_refuses_malformed_fields(change: dict[str, Any]) -> None:
    with pytest.raises(MalformedMessage):
        genesis(identities(2), **change)


# --- completeness ----------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 6, 10])
def test_every_seat_chain_is_accepted_interleaved(seats: int) -> None:
    _, g, _gid, writers = table(seats)
    chain = EnvelopeChain.from_genesis(g)
    for step in range(3):
        for writer in reversed(writers):
            env = writer.write("move", {"step": step, "seat": writer.seat}, (step, bytes([step]) * 32))
            # through the wire format, as a peer would get it
            chain.accept(Envelope.from_bytes(env.to_bytes()))
    for seat, log in enumerate(chain.logs):
        assert log.next_seq == 3
        assert log.head == writers[seat].head
        assert [e.body["step"] for e in log.envelopes] == [0, 1, 2]


# --- tampering -------------------------------------------------------------------------


def test_altered_body_is_rejected_as_forged() -> None:
    _, g, _, writers = table(2)
    chain = EnvelopeChain.from_genesis(g)
    env = writers[1].write("move", {"card": 7}, SEEN0)
    forged = dataclasses.replace(env, body={"card": 8})
    with pytest.raises(BadSignature) as err:
        chain.accept(forged)
    assert err.value.seat == 1
    assert chain.logs[1].next_seq == 0
    chain.accept(env)


@pytest.mark.parametrize("field, value", [
    ("kind", "pass"), ("seen", Seen(1, bytes(32))), ("seq", 5), ("seat", 0),
])
def test_any_altered_signed_field_is_rejected(field: str, value: Any) -> None:
    _, g, _, writers = table(2)
    chain = EnvelopeChain.from_genesis(g)
    env = writers[1].write("move", {"card": 7}, SEEN0)
    with pytest.raises(BadSignature):
        chain.accept(dataclasses.replace(env, **{field: value}))


def test_envelope_re_signed_by_another_seat_is_rejected() -> None:
    ids, g, gid, _ = table(3)
    chain = EnvelopeChain.from_genesis(g)
    # seat 2 signs a message claiming to come from seat 0
    fake = sign_envelope(ids[2], game=gid, seat=0, seq=0, prev=ZERO32, kind="concede", body={}, seen=SEEN0)
    with pytest.raises(BadSignature) as err:
        chain.accept(fake)
    assert err.value.seat == 0
    assert "signed by someone else" in str(err.value)


def test_replay_from_another_game_is_rejected() -> None:
    ids, g, gid, _ = table(2)
    other = game_id(genesis(ids, nonce=b"o" * 16))
    env = EnvelopeWriter(ids[0], other, 0).write("move", {"card": 1}, SEEN0)
    with pytest.raises(WrongGame) as err:
        EnvelopeChain.from_genesis(g).accept(env)
    assert err.value.seat == 0
    with pytest.raises(WrongGame):
        SeatLog(gid, 0, ids[0].public_key).accept(env)


def test_replay_of_an_accepted_envelope_is_rejected_and_harmless() -> None:
    _, g, _, writers = table(2)
    chain = EnvelopeChain.from_genesis(g)
    first = writers[0].write("move", 1, SEEN0)
    chain.accept(first)
    chain.accept(writers[0].write("move", 2, SEEN0))
    with pytest.raises(Replay) as err:
        chain.accept(first)
    assert err.value.seat == 0
    assert chain.logs[0].next_seq == 2


def test_gap_is_reported_with_the_missing_numbers_then_filled() -> None:
    _, g, _, writers = table(2)
    chain = EnvelopeChain.from_genesis(g)
    envs = [writers[1].write("move", i, SEEN0) for i in range(4)]
    chain.accept(envs[0])
    with pytest.raises(SequenceGap) as err:
        chain.accept(envs[3])
    assert err.value.missing == (1, 2)
    assert err.value.seat == 1
    for env in envs[1:]:
        chain.accept(env)
    assert chain.logs[1].next_seq == 4


def test_broken_prev_chain_is_rejected() -> None:
    ids, g, gid, writers = table(2)
    chain = EnvelopeChain.from_genesis(g)
    chain.accept(writers[0].write("move", 1, SEEN0))
    bad = sign_envelope(ids[0], game=gid, seat=0, seq=1, prev=b"\x01" * 32, kind="move", body=2, seen=SEEN0)
    with pytest.raises(BrokenChain) as err:
        chain.accept(bad)
    assert err.value.seat == 0


def test_first_envelope_must_start_the_chain() -> None:
    ids, _, gid, _ = table(1)
    with pytest.raises(MalformedMessage):
        sign_envelope(ids[0], game=gid, seat=0, seq=0, prev=b"\x01" * 32, kind="m", body=0, seen=SEEN0)


def test_unknown_seat_is_rejected() -> None:
    ids, g, gid, _ = table(2)
    env = EnvelopeWriter(ids[0], gid, 5).write("move", 0, SEEN0)
    with pytest.raises(UnknownSeat):
        EnvelopeChain.from_genesis(g).accept(env)
    with pytest.raises(UnknownSeat):
        SeatLog(gid, 0, ids[0].public_key).accept(env)


# --- equivocation --------------------------------------------------------------------


def _equivocate() -> tuple[list[Identity], bytes, Equivocation]:
    ids, g, gid, writers = table(3)
    chain = EnvelopeChain.from_genesis(g)
    chain.accept(writers[2].write("move", "a", SEEN0))
    fork = EnvelopeWriter(ids[2], gid, 2, next_seq=1, head=writers[2].head)
    chain.accept(writers[2].write("roll", {"value": 1}, SEEN0))
    with pytest.raises(Equivocation) as err:
        chain.accept(fork.write("roll", {"value": 6}, SEEN0))
    return ids, gid, err.value


def test_equivocation_yields_a_transferable_proof() -> None:
    ids, gid, err = _equivocate()
    assert err.seat == 2
    assert err.proof.seq == 1
    # a third party receives the proof as bytes and re-checks it from scratch
    wire = encode(err.proof.to_data())
    proof = verify_equivocation_proof(decode(wire), ids[2].public_key, game=gid)
    assert proof.seat == 2
    assert {e.body["value"] for e in err.envelopes} == {1, 6}


def test_equivocation_proof_does_not_verify_against_another_seat() -> None:
    ids, _, err = _equivocate()
    with pytest.raises(InvalidProof):
        verify_equivocation_proof(err.proof, ids[0].public_key)


def test_equivocation_proof_for_another_game_is_refused() -> None:
    ids, _, err = _equivocate()
    with pytest.raises(InvalidProof, match="another game"):
        verify_equivocation_proof(err.proof, ids[2].public_key, game=b"\x09" * 32)


def test_fake_equivocation_proofs_are_refused() -> None:
    ids, gid, err = _equivocate()
    honest = err.proof.first
    key = ids[2].public_key
    # the same envelope twice
    with pytest.raises(InvalidProof, match="same content"):
        verify_equivocation_proof(EquivocationProof(honest, honest), key)
    # a second envelope with a forged signature (body changed by the accuser)
    forged = dataclasses.replace(honest, body={"value": 4})
    with pytest.raises(InvalidProof, match="not signed"):
        verify_equivocation_proof(EquivocationProof(honest, forged), key)
    # two honest envelopes with different sequence numbers
    later = EnvelopeWriter(ids[2], gid, 2, next_seq=2, head=honest.digest()).write("x", 0, SEEN0)
    with pytest.raises(InvalidProof, match="do not conflict"):
        verify_equivocation_proof(EquivocationProof(honest, later), key)
    # junk data
    with pytest.raises(InvalidProof):
        verify_equivocation_proof({"first": honest.to_data()}, key)


# --- strict parsing -------------------------------------------------------------


def _good_data() -> dict[str, Any]:
    _, _, _, writers = table(1)
    return writers[0].write("move", {"a": [1, b"x"]}, SEEN0).to_data()


@pytest.mark.parametrize("field, value", [
    ("game", b"x" * 31), ("seat", -1), ("seat", True), ("seq", "0"), ("seq", 2**62),
    ("prev", None), ("kind", ""), ("kind", "k" * 65), ("kind", 3), ("seen", (0,)),
    ("seen", (-1, bytes(32))), ("seen", (0, bytes(31))), ("sig", bytes(63)),
])
def test_from_data_rejects_malformed_fields(field: str, value: Any) -> None:
    data = _good_data()
    data[field] = value
    with pytest.raises(MalformedMessage):
        Envelope.from_data(data)


def test_from_data_rejects_missing_and_extra_fields() -> None:
    data = _good_data()
    del data["seen"]
    with pytest.raises(MalformedMessage, match="missing"):
        Envelope.from_data(data)
    data = _good_data()
    data["extra"] = 1
    with pytest.raises(MalformedMessage, match="unexpected"):
        Envelope.from_data(data)
    with pytest.raises(MalformedMessage):
        Envelope.from_data([1, 2])


def test_from_bytes_rejects_non_canonical_bytes() -> None:
    raw = encode(_good_data())
    Envelope.from_bytes(raw)
    with pytest.raises(MalformedMessage):
        Envelope.from_bytes(raw + b"N")
    with pytest.raises(MalformedMessage):
        Envelope.from_bytes(raw[:-1])


def test_one_player_in_two_games_is_not_equivocating() -> None:
    """The same key at the same seat and seq in two games (a player at two
    tables) signs two different envelopes honestly: that must not frame it."""
    ids = identities(2)
    first = EnvelopeWriter(ids[1], game_id(genesis(ids)), 1).write("move", "a", SEEN0)
    second = EnvelopeWriter(ids[1], game_id(genesis(ids, nonce=b"m" * 16)), 1).write("move", "b", SEEN0)
    with pytest.raises(InvalidProof, match="do not conflict"):
        verify_equivocation_proof(EquivocationProof(first, second), ids[1].public_key)


def test_envelope_signatures_cover_the_domain_tag() -> None:
    """A signature over the bare fields (a signature made for some other
    purpose over the same data) is not an envelope signature."""
    ids, _, gid, writers = table(1)
    env = writers[0].write("move", {"a": 1}, SEEN0)
    assert env.signed_bytes() == encode(("fairtable/envelope/v1", env.content()))
    bare = dataclasses.replace(env, signature=ids[0].sign(encode(env.content())))
    with pytest.raises(BadSignature):
        bare.verify(ids[0].public_key, game=gid)


# --- audit additions -------------------------------------------------------------


def test_envelope_digest_is_over_the_signed_content_only() -> None:
    """The next ``prev`` must not depend on signature bytes: pinned by hand."""
    _, _, _, writers = table(1)
    env = writers[0].write("move", {"a": 1}, SEEN0)
    expected = hashlib.sha256(encode(["fairtable/envelope-digest/v1", env.content()])).digest()
    assert env.digest() == expected
    assert dataclasses.replace(env, signature=bytes(64)).digest() == expected


def test_verify_with_a_game_refuses_an_envelope_of_another_game() -> None:
    ids, _, gid, writers = table(2)
    env = writers[0].write("move", 1, SEEN0)
    env.verify(ids[0].public_key, game=gid)
    with pytest.raises(WrongGame) as err:
        env.verify(ids[0].public_key, game=b"\x09" * 32)
    assert err.value.seat == 0


def test_genesis_from_data_is_strict_about_shapes() -> None:
    ids = identities(2)
    data = genesis(ids).to_data()
    with pytest.raises(MalformedMessage, match="must be a list"):
        Genesis.from_data({**data, "seat_keys": ids[0].public_key})
    with pytest.raises(MalformedMessage, match="options"):
        Genesis.from_data({**data, "options": [1, 2]})
    with pytest.raises(MalformedMessage, match="exactly the fields"):
        Genesis.from_data({**data, "extra": 1})
    with pytest.raises(MalformedMessage, match="non-empty"):
        Genesis.from_data({**data, "seat_keys": []})
    assert Genesis.from_data(data) == genesis(ids)


# --- the rules one by one (the session and the offline verifier use them so) ----------


def test_the_rules_one_by_one_repeat_fork_link_and_resume() -> None:
    ids, _, gid, writers = table(1)
    log = SeatLog(gid, 0, ids[0].public_key)
    first = writers[0].write("move", "a", SEEN0)
    second = writers[0].write("move", "b", SEEN0)
    third = writers[0].write("move", "c", SEEN0)
    assert not log.known(first)
    log.verify(first)
    log.check_link(second)  # not the next one yet: it cannot be judged, so nothing is raised
    log.append(first)
    assert log.known(first) and log[0] is first and log[-1] is first and len(log) == 1
    fork = EnvelopeWriter(ids[0], gid, 0).write("move", "other", SEEN0)
    with pytest.raises(Equivocation) as err:
        log.known(fork)
    assert err.value.proof.first is first and err.value.proof.second == fork
    with pytest.raises(SequenceGap):
        log.append(third)
    stray = EnvelopeWriter(ids[0], gid, 0, next_seq=1, head=b"x" * 32).write("move", "b", SEEN0)
    with pytest.raises(BrokenChain, match="does not chain onto envelope #0"):
        log.check_link(stray)
    with pytest.raises(BrokenChain):
        log.append(stray)
    assert log.next_seq == 1 and log.head == first.digest()  # refused envelopes changed nothing
    # a log that resumes after a missing envelope (the offline verifier after a gap)
    resumed = SeatLog(gid, 0, ids[0].public_key, start=2, head=third.prev)
    resumed.append(third)
    assert resumed.next_seq == 3 and resumed[2] is third and resumed.since(0) == [third]
    with pytest.raises(IndexError):
        resumed[1]


def test_the_session_refuses_a_broken_chain_with_the_seat_log_rule() -> None:
    """One implementation: the session's refusal is SeatLog's, word for word."""
    from net.session import Rejected
    from tests.net.session.harness import identities as tiny_ids
    from tests.net.session.harness import tiny_table

    fresh = tiny_table(2)[0].sessions[0]
    seat1 = tiny_ids(2, tag="tiny")[1]
    first_env = EnvelopeWriter(seat1, fresh.gid, 1).write("chat", {"text": "1"}, (0, fresh.hashes[0]))
    fresh.receive(first_env.to_bytes())
    broken = EnvelopeWriter(seat1, fresh.gid, 1, next_seq=1, head=b"z" * 32).write(
        "chat", {"text": "2"}, (0, fresh.hashes[0]))
    fresh.receive(broken.to_bytes())
    refused = [e for e in fresh.events if isinstance(e, Rejected) and e.reason == "BrokenChain"]
    assert len(refused) == 1 and refused[0].seat == 1
    assert "does not chain onto envelope #0 (its prev hash differs)" in refused[0].error
