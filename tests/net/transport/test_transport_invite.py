"""Invite codes: round trips, typo detection, and key checks."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from transport_helpers import identity

from engine.core.hashing import digest
from net.transport.errors import InviteError
from net.transport.invite import (
    ALPHABET,
    CHECK_DOMAIN,
    PREFIX,
    Invite,
    _b32encode,
    parse_invite,
)
from net.transport.keys import fingerprint_from_bytes, key_matches

addresses = st.one_of(
    st.ip_addresses(v=4).map(str), st.ip_addresses(v=6).map(str)
).flatmap(lambda ip: st.tuples(st.just(ip), st.integers(1, 65535)))
invites = st.builds(
    Invite,
    table=st.binary(min_size=8, max_size=8),
    fingerprint=st.binary(min_size=10, max_size=10).map(fingerprint_from_bytes),
    addresses=st.lists(addresses, min_size=1, max_size=8).map(tuple),
    game=st.sampled_from(["", "rider", "tiny", "locke", "a" * 16]),
)


@settings(max_examples=60)
@given(invites)
def test_round_trip(invite: Invite) -> None:
    code = invite.encode()
    assert code.startswith("FT1-")
    parsed = parse_invite(code)
    assert parsed.table == invite.table and parsed.fingerprint == invite.fingerprint and parsed.game == invite.game
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
    assert key_matches(host.public_key, invite.fingerprint)
    assert not key_matches(identity(2).public_key, invite.fingerprint)
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


# --- audit additions: codes with a valid checksum but bad contents -----------


def crafted(payload: bytes) -> str:
    """An invite text for arbitrary payload bytes, with a correct checksum."""
    return PREFIX + "-" + _b32encode(payload + digest(CHECK_DOMAIN, payload)[:4])


HEADER = b"\x01" + b"\x01" * 8 + bytes(10)  # version 1, table, fingerprint
ADDR4 = b"\x04" + bytes([127, 0, 0, 1]) + (4000).to_bytes(2, "big")


def test_crafting_helper_makes_codes_the_parser_accepts() -> None:
    invite = parse_invite(crafted(HEADER + b"\x01" + ADDR4))
    assert invite.addresses == (("127.0.0.1", 4000),) and invite.table == b"\x01" * 8 and invite.game == ""
    named = parse_invite(crafted(b"\x02" + HEADER[1:] + b"\x01" + ADDR4 + b"\x04tiny"))  # the host's game comes along
    assert named.game == "tiny" and named.addresses == invite.addresses


@pytest.mark.parametrize(
    "payload, fragment",
    [
        (b"\x03" + HEADER[1:] + b"\x01" + ADDR4, "format 3.*update Fairtable"),
        (b"\x02" + HEADER[1:] + b"\x01" + ADDR4, "game name cannot be read"),  # format 2 names a game
        (b"\x02" + HEADER[1:] + b"\x01" + ADDR4 + b"\x00", "game name cannot be read"),
        (b"\x02" + HEADER[1:] + b"\x01" + ADDR4 + b"\x05tiny", "game name cannot be read"),  # cut short
        (b"\x02" + HEADER[1:] + b"\x01" + ADDR4 + b"\x11" + b"a" * 17, "game name cannot be read"),
        (b"\x02" + HEADER[1:] + b"\x01" + ADDR4 + b"\x04tiny!", "trailing data"),
        (HEADER + b"\x01" + ADDR4 + b"\x00", "trailing data"),
        (HEADER + b"\x02" + ADDR4, "cut short"),
        (HEADER + b"\x01" + b"\x05" + ADDR4[1:], "cannot read"),
        (HEADER + b"\x01" + b"\x06" + ADDR4[1:], "cannot read"),  # says v6, holds 4 bytes
        (HEADER + b"\x01" + ADDR4[:-1], "cannot read"),
        (HEADER + b"\x00", "1 to 8 addresses"),
        (HEADER + b"\x09" + ADDR4 * 9, "1 to 8 addresses"),
        (HEADER + b"\x01" + ADDR4[:-2] + b"\x00\x00", "port 0"),
    ],
)
def test_checksummed_but_invalid_contents_are_named(payload: bytes, fragment: str) -> None:
    with pytest.raises(InviteError, match=fragment):
        parse_invite(crafted(payload))


def test_construction_checks_port_and_address_count() -> None:
    fp = identity(1).fingerprint
    for port in (0, 65536):
        with pytest.raises(InviteError, match="outside 1-65535"):
            Invite(b"\x00" * 8, fp, (("127.0.0.1", port),))
    with pytest.raises(InviteError, match="1 to 8"):
        Invite(b"\x00" * 8, fp, tuple(("127.0.0.1", p) for p in range(1, 10)))
    with pytest.raises(InviteError, match="not a key fingerprint"):
        Invite(b"\x00" * 8, "ABCD", (("127.0.0.1", 1),))
    assert len(Invite(b"\x00" * 8, fp, tuple(("::1", p) for p in range(1, 9))).addresses) == 8


def test_capital_i_reads_as_one_and_prefix_typos_are_forgiven() -> None:
    invite = Invite(b"\x01" * 8, identity(1).fingerprint, (("127.0.0.1", 41777),))
    code = invite.encode()
    assert "1" in code[4:]
    assert parse_invite(code[:4] + code[4:].replace("1", "I")) == invite
    assert parse_invite("FTl" + code[3:]) == invite


def test_nonzero_padding_bits_in_the_last_character_are_a_typo() -> None:
    payload = HEADER + b"\x01" + ADDR4
    text = crafted(payload)
    assert (len(payload) + 4) * 8 % 5 != 0, "this layout must leave padding bits"
    last = ALPHABET.index(text[-1])
    bumped = text[:-1] + ALPHABET[last ^ 1]  # flip the lowest (padding) bit only
    with pytest.raises(InviteError, match="missing or extra characters"):
        parse_invite(bumped)
