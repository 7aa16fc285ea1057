"""Handshake and link: mutual authentication and frame-level rejection (issue 4 items 3, 5)."""

from __future__ import annotations

import logging

import pytest
from transport_helpers import GAME, TABLE, handshake, identity, link_pair, run_handshake

from engine.core.encoding import encode
from net.transport.errors import (
    FrameTooLarge,
    HandshakeError,
    MalformedFrame,
    UnknownMessageType,
    WrongGame,
)
from net.transport.framing import encode_frame
from net.transport.handshake import (
    HOST_KEY_MISMATCH,
    Handshake,
    PeerRejected,
    transcript,
)
from net.transport.link import Established, Link, Problem, Received
from net.transport.messages import (
    LOBBY,
    Auth,
    Hello,
    Ping,
    Reject,
    Relay,
    encode_message,
    parse_message,
)


def frames(data: bytes) -> list[object]:
    out = []
    while data:
        n = int.from_bytes(data[:4], "big")
        out.append(parse_message(data[4 : 4 + n]))
        data = data[4 + n :]
    return out


def established_pair() -> tuple[Link, Link]:
    a, b = link_pair(handshake(identity(1), "dialer"), handshake(identity(2), "listener"))
    run_handshake(a, b)
    assert a.established and b.established
    return a, b


def test_mutual_authentication_succeeds_and_agrees_on_version() -> None:
    a, b = link_pair(
        handshake(identity(1), "dialer", versions=(1, 2), expect_fingerprint=identity(2).fingerprint),
        handshake(identity(2), "listener", versions=(1,)),
    )
    run_handshake(a, b)
    assert a.peer_key == identity(2).public_key and b.peer_key == identity(1).public_key
    assert a.handshake.version == b.handshake.version == 1


def test_lobby_joiner_is_accepted_by_a_table_with_a_game() -> None:
    a, b = link_pair(handshake(identity(1), "dialer", game=LOBBY), handshake(identity(2), "listener"))
    run_handshake(a, b)
    assert a.established and b.established


def failing_handshake(a: Handshake, b: Handshake) -> tuple[Link, Link, list[object], list[object]]:
    """Run a handshake expected to fail; return both links and their events."""
    la, lb = link_pair(a, b)
    to_b, to_a = la.start(), lb.start()
    events_a: list[object] = []
    events_b: list[object] = []
    for _ in range(6):
        sb = lb.data_received(to_b) if to_b else None
        sa = la.data_received(to_a) if to_a else None
        events_b += sb.events if sb else []
        events_a += sa.events if sa else []
        to_a, to_b = (sb.write if sb else b""), (sa.write if sa else b"")
    return la, lb, events_a, events_b


def test_version_mismatch_says_which_versions_and_what_to_do() -> None:
    la, lb, ea, eb = failing_handshake(
        handshake(identity(1), "dialer", versions=(2,)), handshake(identity(2), "listener"))
    assert not la.established and not lb.established and la.closed and lb.closed
    problem = next(e for e in eb if isinstance(e, Problem))
    assert problem.error.code == "version"
    assert "version(s) 2" in str(problem.error) and "speaks 1" in str(problem.error)
    # the side with the older version is told to update itself ...
    assert "update this copy" in str(problem.error)
    # ... and the newer side that the other player should update
    newer = next(e for e in ea if isinstance(e, Problem))
    assert "the other player should update" in str(newer.error)


def test_fingerprint_mismatch_is_reported_with_the_invite_message() -> None:
    impostor = identity(3)
    la, lb, ea, _ = failing_handshake(
        handshake(identity(1), "dialer", expect_fingerprint=identity(2).fingerprint),
        handshake(impostor, "listener"))
    problem = next(e for e in ea if isinstance(e, Problem))
    assert problem.error.code == "key-mismatch"
    assert HOST_KEY_MISMATCH.split(":")[0] in str(problem.error)
    assert "you may be connecting to a different table" in str(problem.error)
    assert not la.established and not lb.established


def test_other_table_and_other_game_are_refused() -> None:
    _, _, _, eb = failing_handshake(
        handshake(identity(1), "dialer", table=b"X" * 8), handshake(identity(2), "listener"))
    assert next(e for e in eb if isinstance(e, Problem)).error.code == "wrong-game"
    _, _, _, eb = failing_handshake(
        handshake(identity(1), "dialer", game=b"\xff" * 32), handshake(identity(2), "listener"))
    err = next(e for e in eb if isinstance(e, Problem)).error
    assert err.code == "wrong-game" and "plays game" in str(err)


def test_bad_signature_is_refused() -> None:
    honest = handshake(identity(1), "dialer")
    lb = Link(handshake(identity(2), "listener"), "127.0.0.1:9")
    lb.start()
    lb.data_received(encode_frame(encode_message(honest.start()[0])))
    forged = Auth(identity(3).sign(b"anything"))  # signed by someone else's key
    step = lb.data_received(encode_frame(encode_message(forged)))
    assert step.close and not lb.established
    (problem,) = [e for e in step.events if isinstance(e, Problem)]
    assert problem.error.code == "bad-signature"
    assert [m.T for m in frames(step.write)] == ["reject"]  # type: ignore[attr-defined]


def _dialer_with_peer_hello(peer_nonce: bytes = b"\x07" * 32) -> tuple[Handshake, Link, Hello]:
    """A dialer that has received identity 2's hello and sent its own auth."""
    dialer = handshake(identity(1), "dialer")
    link = Link(dialer, "127.0.0.1:9")
    link.start()
    peer_hello = Hello((1,), identity(2).public_key, TABLE, GAME, peer_nonce)
    link.data_received(encode_frame(encode_message(peer_hello)))
    return dialer, link, peer_hello


def test_signature_is_bound_to_role_so_reflection_fails() -> None:
    """The peer's own key signing the transcript under our role (the dialer's
    auth reflected back, re-signed) must not pass: the role is signed."""
    dialer, link, peer_hello = _dialer_with_peer_hello()
    wrong_role = Auth(identity(2).sign(transcript(dialer.hello, peer_hello, "dialer")))
    step = link.data_received(encode_frame(encode_message(wrong_role)))
    assert step.close and not link.established
    (problem,) = [e for e in step.events if isinstance(e, Problem)]
    assert problem.error.code == "bad-signature"
    # control: the same key over the right role is accepted
    dialer, link, peer_hello = _dialer_with_peer_hello()
    right = Auth(identity(2).sign(transcript(dialer.hello, peer_hello, "listener")))
    link.data_received(encode_frame(encode_message(right)))
    assert link.established


def test_signature_from_another_connection_is_refused() -> None:
    """A valid auth recorded on one connection (other nonces) cannot be replayed."""
    dialer, _link, peer_hello = _dialer_with_peer_hello(b"\x07" * 32)
    recorded = Auth(identity(2).sign(transcript(dialer.hello, peer_hello, "listener")))
    _dialer2, link2, _ = _dialer_with_peer_hello(b"\x07" * 32)  # our fresh nonce differs
    step = link2.data_received(encode_frame(encode_message(recorded)))
    assert step.close and not link2.established


def test_connection_to_ourselves_is_refused() -> None:
    _, _, _, eb = failing_handshake(handshake(identity(1), "dialer"), handshake(identity(1), "listener"))
    err = next(e for e in eb if isinstance(e, Problem)).error
    assert "leads back to ourselves" in str(err) and "check the address" in str(err)


def test_handshake_starts_once() -> None:
    h = handshake(identity(1), "dialer")
    assert [m.T for m in h.start()] == ["hello"]
    with pytest.raises(HandshakeError, match="already started"):
        h.start()


def test_second_hello_during_the_handshake_is_fatal() -> None:
    dialer, link, peer_hello = _dialer_with_peer_hello()
    step = link.data_received(encode_frame(encode_message(peer_hello)))
    assert step.close and not link.established and dialer.state.value == "failed"
    (problem,) = [e for e in step.events if isinstance(e, Problem)]
    assert "unexpected 'hello'" in str(problem.error)


def test_peer_reject_during_handshake_is_reported_and_not_answered() -> None:
    lb = Link(handshake(identity(2), "listener"), "127.0.0.1:9")
    lb.start()
    step = lb.data_received(encode_frame(encode_message(Reject("version", "too old, update"))))
    assert step.close and step.write == b""  # no reject in answer to a reject
    (problem,) = [e for e in step.events if isinstance(e, Problem)]
    assert isinstance(problem.error, PeerRejected) and "too old, update" in str(problem.error)


def test_hello_or_auth_after_the_handshake_is_skipped_and_link_survives() -> None:
    a, b = established_pair()
    step = b.data_received(a.encode(a.handshake.hello) + a.encode(Auth(b"s" * 64))
                           + a.encode(Ping(5)))
    assert not step.close and not b.closed
    problems = [e for e in step.events if isinstance(e, Problem)]
    assert [str(p.error) for p in problems] == [
        "unexpected 'hello' after the handshake", "unexpected 'auth' after the handshake"]
    assert [e.message for e in step.events if isinstance(e, Received)] == [Ping(5)]


def test_reject_after_the_handshake_closes_the_link() -> None:
    a, b = established_pair()
    step = b.data_received(a.encode(Reject("leaving", "bye")) + a.encode(Ping(1)))
    assert step.close and b.closed
    assert [e.message for e in step.events if isinstance(e, Received)] == [Reject("leaving", "bye")]


def test_message_before_handshake_is_fatal() -> None:
    lb = Link(handshake(identity(2), "listener"), "127.0.0.1:9")
    lb.start()
    step = lb.data_received(encode_frame(encode_message(Ping(1))))
    assert step.close and not lb.established


def test_malformed_payload_after_handshake_is_skipped_and_link_survives(caplog: pytest.LogCaptureFixture) -> None:
    a, b = established_pair()
    good = Relay(GAME, identity(1).public_key, b"first")
    later = Relay(GAME, identity(1).public_key, b"later")
    data = (a.encode(good) + encode_frame(b"\x00garbage") + encode_frame(encode({"t": "warp"}))
            + a.encode(later))
    with caplog.at_level(logging.WARNING, logger="fairtable.transport"):
        step = b.data_received(data)
    assert not step.close and not b.closed
    assert [e.message for e in step.events if isinstance(e, Received)] == [good, later]
    errors = [e.error for e in step.events if isinstance(e, Problem)]
    assert [type(e) for e in errors] == [MalformedFrame, UnknownMessageType]
    # the log names the sender by address and key fingerprint
    assert "127.0.0.1:1002" in caplog.text and identity(1).fingerprint in caplog.text
    assert b.rejected_frames == 2


def test_sender_description_uses_the_session_seat_hook() -> None:
    _a, b = established_pair()
    b.describe_key = lambda key: "seat 0"
    assert "seat 0" in b.sender and identity(1).fingerprint in b.sender


def test_message_for_another_game_is_rejected_but_link_survives() -> None:
    a, b = established_pair()
    step = b.data_received(a.encode(Relay(b"\x01" * 32, identity(1).public_key, b"x"))
                           + a.encode(Relay(LOBBY, identity(1).public_key, b"lobby chat")))
    assert not step.close
    (problem,) = [e for e in step.events if isinstance(e, Problem)]
    assert isinstance(problem.error, WrongGame) and "another" not in problem.error.code
    assert "this table plays game" in str(problem.error)
    assert [e.message.data for e in step.events if isinstance(e, Received)] == [b"lobby chat"]  # type: ignore[union-attr]


def test_oversized_frame_drops_link_after_delivering_earlier_frames() -> None:
    a, b = established_pair()
    first = Relay(GAME, identity(1).public_key, b"accepted")
    data = a.encode(first) + (b.max_length + 1).to_bytes(4, "big") + b"junk"
    step = b.data_received(data)
    assert [e.message for e in step.events if isinstance(e, Received)] == [first]
    (problem,) = [e for e in step.events if isinstance(e, Problem)]
    assert isinstance(problem.error, FrameTooLarge)
    assert step.close and b.closed
    assert [m.code for m in frames(step.write)] == ["frame-too-large"]  # type: ignore[attr-defined]
    assert b.data_received(a.encode(first)).events == []  # closed: nothing more is read


def test_established_event_carries_peer_hello() -> None:
    a, b = link_pair(handshake(identity(1), "dialer", name="Aki"), handshake(identity(2), "listener"))
    to_b, to_a = a.start(), b.start()
    sb = b.data_received(to_b)  # b: a's hello -> b's auth
    assert sb.events == []
    sa = a.data_received(to_a + sb.write)  # a: b's hello and auth -> a's auth, a is up
    assert [type(e) for e in sa.events] == [Established]
    sb2 = b.data_received(sa.write)
    (est,) = sb2.events
    assert isinstance(est, Established) and est.peer.name == "Aki" and est.version == 1


def test_endless_bad_frames_eventually_close_the_link() -> None:
    from net.transport.link import MAX_REJECTED

    a, b = established_pair()
    bad = encode_frame(b"\x00")
    step = b.data_received(bad * (MAX_REJECTED - 1))
    assert not step.close and not b.closed
    step = b.data_received(bad + a.encode(Relay(GAME, identity(1).public_key, b"late")))
    assert step.close and b.closed
    assert not [e for e in step.events if isinstance(e, Received)]
    assert [m.code for m in frames(step.write)] == ["too-many-bad-frames"]  # type: ignore[attr-defined]


def test_documented_handshake_vector() -> None:
    """docs/protocol.md section 4 quotes these values for independent implementations."""
    dialer, listener = identity(1), identity(2)
    hd = Hello((1,), dialer.public_key, b"T" * 8, bytes(range(32)), b"\x01" * 32,
               (("127.0.0.1", 4001),), "dialer")
    hl = Hello((1,), listener.public_key, b"T" * 8, LOBBY, b"\x02" * 32, (), "")
    assert dialer.public_key.hex() == (
        "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c")
    assert transcript(hd, hl, "dialer").hex() == (
        "c8bff344f56a079bae61d399942be8f7255d6c98ebacf88f8b35143a353f1b63")
    assert transcript(hd, hl, "listener").hex() == (
        "8d3b136d07a9531b66a74e7702e08d4a80d9ce069089ff515444b19604555975")
    # and the link accepts exactly these hellos with these signatures
    link = Link(Handshake(dialer, "dialer", table=b"T" * 8, game=bytes(range(32)),
                          listen=(("127.0.0.1", 4001),), name="dialer", nonce=b"\x01" * 32),
                "vector")
    link.start()
    step = link.data_received(encode_frame(encode_message(hl)) + encode_frame(encode_message(
        Auth(listener.sign(transcript(hd, hl, "listener"))))))
    assert link.established
    (auth,) = frames(step.write)
    assert auth == Auth(bytes.fromhex(
        "4fc484ace31539ce0c63a9cdbefb776819ad3369de892032d51e94dad18b1acb"
        "baeaa17f3d09b2846c5dc876473685f2ec7ead78d4773b7f730ff4057c3dca03"))
