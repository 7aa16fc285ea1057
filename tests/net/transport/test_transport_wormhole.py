"""Online play decisions without sockets (net.transport.wormhole) and the
pairing binding in the handshake transcript (docs/networking.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from transport_helpers import handshake, identity, link_pair, run_handshake

from engine.core.encoding import encode
from net.transport.errors import BadSignature
from net.transport.handshake import transcript
from net.transport.link import Problem
from net.transport.wormhole import (
    RESUME_NAMEPLATE_BASE,
    RESUME_NAMEPLATE_SPAN,
    BadCode,
    CodeCrowded,
    CodeExpired,
    MailboxUnreachable,
    Offer,
    PeerIncompatible,
    WormholeProblem,
    WormholeSettings,
    WrongCode,
    explain_failure,
    expired,
    link_kind,
    looks_like_wormhole_code,
    parse_code,
    parse_offer,
    relay_blocked,
    resume_code,
    resume_epoch,
)

HOST, JOINER, TABLE = b"\x01" * 32, b"\x02" * 32, b"T" * 8
SECRET = b"\x07" * 32


# ------------------------------------------------------------------ codes


@pytest.mark.parametrize(("typed", "code"), [
    ("7-crossover-clockwork", "7-crossover-clockwork"),
    ("  7-Crossover-CLOCKWORK \n", "7-crossover-clockwork"),
    ("7 crossover clockwork", "7-crossover-clockwork"),
    ("123456-" + "00ff" * 8, "123456-" + "00ff" * 8),  # a resume code: one 128-bit hex password
])
def test_typed_codes_are_read_in_their_canonical_form(typed: str, code: str) -> None:
    assert parse_code(typed) == code


@pytest.mark.parametrize(("typed", "words"), [
    ("", "empty"),
    ("crossover-clockwork", "must start with the number"),
    ("7", "no words after the number"),
    ("7-cross_over", "contains '_'"),
    ("7-crossover", "incomplete"),  # seen in a playtest: it went to the mailbox and failed there
    ("7 crossover", "incomplete"),
])
def test_malformed_codes_say_what_is_wrong(typed: str, words: str) -> None:
    with pytest.raises(BadCode, match=words):
        parse_code(typed)


def test_wormhole_codes_and_lan_invites_are_told_apart() -> None:
    assert looks_like_wormhole_code("7-crossover-clockwork")
    assert not looks_like_wormhole_code("FT1-044V2-FSZMY")
    assert not looks_like_wormhole_code("ft1-044v2")
    assert not looks_like_wormhole_code("")


# ------------------------------------------------------------------ resume codes


def test_resume_code_is_numeric_nameplate_and_128_bit_hex_password() -> None:
    code = resume_code(SECRET, HOST, JOINER, TABLE, 42)
    nameplate, password = code.split("-")
    assert RESUME_NAMEPLATE_BASE <= int(nameplate) < RESUME_NAMEPLATE_BASE + RESUME_NAMEPLATE_SPAN
    assert len(password) == 32 and int(password, 16) >= 0
    assert parse_code(code) == code  # the wormhole library accepts it as a code
    assert resume_code(SECRET, HOST, JOINER, TABLE, 42) == code  # both sides compute the same


@pytest.mark.parametrize("change", ["secret", "host", "joiner", "table", "epoch"])
def test_resume_code_depends_on_every_input(change: str) -> None:
    args = {"secret": SECRET, "host_key": HOST, "joiner_key": JOINER, "table": TABLE, "epoch": 1}
    other = dict(args)
    if change == "secret":
        other["secret"] = b"\x08" * 32
    elif change == "host":
        other["host_key"] = JOINER
        other["joiner_key"] = HOST  # swapping the roles changes it too
    elif change == "joiner":
        other["joiner_key"] = b"\x03" * 32
    elif change == "table":
        other["table"] = b"U" * 8
    else:
        other["epoch"] = 2
    assert resume_code(**args) != resume_code(**other)  # type: ignore[arg-type]


def test_resume_code_refuses_a_short_secret() -> None:
    with pytest.raises(ValueError):
        resume_code(b"short", HOST, JOINER, TABLE, 1)


@given(st.floats(min_value=0, max_value=4e9, allow_nan=False))
def test_resume_epochs_change_only_at_window_boundaries(now: float) -> None:
    epoch = resume_epoch(now, 120.0)
    assert epoch * 120.0 <= now < (epoch + 1) * 120.0


# ------------------------------------------------------------------ the offer


def test_offer_round_trips() -> None:
    offer = Offer(TABLE, HOST, "locke")
    assert parse_offer(offer.encode()) == offer


def _offer(**fields: object) -> bytes:
    return encode({"t": "fairtable-offer", "v": 2, "table": TABLE, "key": HOST, "game": "tiny", **fields})


@pytest.mark.parametrize("data", [
    b"not canonical",
    encode({"t": "something-else", "v": 2, "table": TABLE, "key": HOST, "game": "tiny"}),
    encode({"t": "fairtable-offer", "v": 2, "table": TABLE, "game": "tiny"}),
    encode({"t": "fairtable-offer", "v": 2, "table": TABLE, "key": HOST}),  # no game named
    _offer(extra=1),
    _offer(table=b"short"),
    _offer(key=b"\x01" * 31),
    _offer(game=""),
    _offer(game="x" * 33),
    _offer(game="t\u00efny"),
    _offer(game="tiny\n"),
    _offer(game=7),
    encode(["fairtable-offer"]),
])
def test_anything_but_an_offer_is_refused(data: bytes) -> None:
    with pytest.raises(PeerIncompatible):
        parse_offer(data)


def test_an_offer_of_another_version_says_to_update() -> None:
    with pytest.raises(PeerIncompatible, match="same release"):
        parse_offer(encode({"t": "fairtable-offer", "v": 1, "table": TABLE, "key": HOST}))  # before games


# ------------------------------------------------------------------ link kind and words


def test_link_kind_from_dilation_status() -> None:
    assert link_kind(True, "->relay:tcp:127.0.0.1:4001", True) == "relayed"
    assert link_kind(True, "->tcp:192.0.2.7:50123", True) == "direct"
    assert link_kind(True, "<-tcp:192.0.2.7:50123", True) == "direct"
    assert link_kind(False, "", True) == "reconnecting"
    assert link_kind(False, "", False) == "connecting"


@pytest.mark.parametrize(("kind", "exc", "cls", "words"), [
    ("ServerConnectionError", OSError("refused"), MailboxUnreachable, "cannot reach the wormhole mailbox"),
    ("WrongPasswordError", None, WrongCode, "mistyped"),
    ("ServerError", RuntimeError("crowded"), CodeCrowded, "one code per friend"),
    ("LonelyError", None, CodeExpired, "fresh code"),
    ("KeyFormatError", None, BadCode, "not a wormhole code"),
    ("OldPeerCannotDilateError", None, PeerIncompatible, "same Fairtable release"),
    ("SomethingNew", RuntimeError("boom"), WormholeProblem, "boom"),
])
def test_library_failures_are_worded_for_players(kind: str, exc: BaseException | None, cls: type,
                                                  words: str) -> None:
    problem = explain_failure(kind, exc, mailbox="ws://mb/v1", relay="tcp:r:1", code="7-a-b")
    assert type(problem) is cls and words in str(problem)
    assert problem.fatal


def test_timeouts_are_worded_for_players() -> None:
    assert "7-a-b within 30 s" in str(expired("7-a-b", 30)) and "fresh code" in str(expired("7-a-b", 30))
    blocked = relay_blocked("tcp:relay.example:4001", 30)
    assert isinstance(blocked, WormholeProblem) and "firewall" in str(blocked) and "--relay" in str(blocked)


def test_settings_default_to_the_public_servers_and_read_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FAIRTABLE_MAILBOX", "FAIRTABLE_RELAY", "FAIRTABLE_WORMHOLE_DIRECT"):
        monkeypatch.delenv(name, raising=False)
    public = WormholeSettings.from_env()
    assert public.mailbox == "ws://relay.magic-wormhole.io:4000/v1" and public.direct
    assert public.relay == "tcp:transit.magic-wormhole.io:4001"
    monkeypatch.setenv("FAIRTABLE_MAILBOX", "ws://127.0.0.1:1/v1")
    monkeypatch.setenv("FAIRTABLE_WORMHOLE_DIRECT", "0")
    mine = WormholeSettings.from_env(relay="tcp:127.0.0.1:2")
    assert (mine.mailbox, mine.relay, mine.direct) == ("ws://127.0.0.1:1/v1", "tcp:127.0.0.1:2", False)


# ------------------------------------------------------------------ binding in the handshake


def test_same_binding_on_both_sides_links() -> None:
    a, b = link_pair(handshake(identity(1), "dialer", binding=b"B" * 32),
                     handshake(identity(2), "listener", binding=b"B" * 32))
    run_handshake(a, b)
    assert a.established and b.established


@pytest.mark.parametrize("other", [b"C" * 32, None])
def test_a_handshake_from_another_pairing_is_refused(other: bytes | None) -> None:
    """A link whose two ends hold different wormhole bindings (a handshake
    relayed from another pairing) fails on the signature, on both sides."""
    a, b = link_pair(handshake(identity(1), "dialer", binding=b"B" * 32),
                     handshake(identity(2), "listener", binding=other))
    to_b, to_a = a.start(), b.start()
    sb = b.data_received(to_b)
    sa = a.data_received(to_a)
    after_a = a.data_received(sb.write)
    after_b = b.data_received(sa.write)
    problems = [e for e in after_a.events + after_b.events if isinstance(e, Problem)]
    assert problems and all(isinstance(p.error, BadSignature) for p in problems)
    assert not a.established and not b.established


def test_binding_changes_the_transcript_and_none_keeps_the_plain_one() -> None:
    ha, hb = handshake(identity(1), "dialer"), handshake(identity(2), "listener")
    plain = transcript(ha.hello, hb.hello, "dialer")
    assert transcript(ha.hello, hb.hello, "dialer", None) == plain
    assert transcript(ha.hello, hb.hello, "dialer", b"B" * 32) != plain
    assert transcript(ha.hello, hb.hello, "dialer", b"B" * 32) != transcript(ha.hello, hb.hello, "dialer",
                                                                           b"C" * 32)
