"""Invite codes: round trips, typo detection, and key checks."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from transport_helpers import identity

from net.transport.errors import InviteError
from net.transport.invite import ALPHABET, Invite, parse_invite
from net.transport.keys import fingerprint_from_bytes

addresses = st.one_of(
    st.ip_addresses(v=4).map(str), st.ip_addresses(v=6).map(str)
).flatmap(lambda ip: st.tuples(st.just(ip), st.integers(1, 65535)))
invites = st.builds(
    Invite,
    table=st.binary(min_size=8, max_size=8),
    fingerprint=st.binary(min_size=10, max_size=10).map(fingerprint_from_bytes),
    addresses=st.lists(addresses, min_size=1, max_size=8).map(tuple),
)


@settings(max_examples=60)
@given(invites)
def test_round_trip(invite: Invite) -> None:
    code = invite.encode()
    assert code.startswith("FT1-")
    parsed = parse_invite(code)
    assert parsed.table == invite.table and parsed.fingerprint == invite.fingerprint
    assert [(ipaddress.ip_address(h), p) for h, p in parsed.addresses] == [
        (ipaddress.ip_address(h), p) for h, p in invite.addresses
    ]


@settings(max_examples=60)
@given(invites, st.data())
def test_any_single_character_typo_is_caught(invite: Invite, data: st.DataObject) -> None:
    code = invite.encode()
    body_positions = [i for i, c in enumerate(code) if i >= 4 and c != "-"]
    pos = data.draw(st.sampled_from(body_positions))
    new = data.draw(st.sampled_from([c for c in ALPHABET if c != code[pos]]))
    typo = code[:pos] + new + code[pos + 1 :]
    with pytest.raises(InviteError):
        parse_invite(typo)


def test_one_ipv4_invite_is_compact_and_forgiving() -> None:
    host = identity(1)
    invite = Invite(b"\x01" * 8, host.fingerprint, (("192.168.1.20", 41777),))
    code = invite.encode()
    assert len(code) <= 64
    assert invite.matches_key(host.public_key)
    assert not invite.matches_key(identity(2).public_key)
    # people copy codes with spaces, lower case, O for 0 and l for 1
    sloppy = " " + code.lower().replace("0", "o").replace("1", "l").replace("-", " - ") + "\n"
    assert parse_invite(sloppy) == invite


def test_messages_say_what_to_do() -> None:
    code = Invite(b"\x01" * 8, identity(1).fingerprint, (("10.0.0.1", 5000),)).encode()
    with pytest.raises(InviteError, match="not a Fairtable invite"):
        parse_invite("hello")
    with pytest.raises(InviteError, match="character 'U'"):
        parse_invite(code[:10] + "U" + code[11:])
    with pytest.raises(InviteError, match="copy"):
        parse_invite(code[:-1])
    with pytest.raises(InviteError, match="copy"):
        parse_invite(code + "A")
    first = code.index("-") + 1
    with pytest.raises(InviteError, match="checksum"):
        swapped = code[first + 1] + code[first]
        if swapped == code[first : first + 2]:
            pytest.skip("adjacent characters are equal")
        parse_invite(code[:first] + swapped + code[first + 2 :])


def test_invalid_invites_are_refused_at_construction() -> None:
    fp = identity(1).fingerprint
    with pytest.raises(InviteError):
        Invite(b"short", fp, (("10.0.0.1", 1),))
    with pytest.raises(InviteError):
        Invite(b"\x00" * 8, fp, (("example.com", 1),))
    with pytest.raises(InviteError):
        Invite(b"\x00" * 8, fp, ())
