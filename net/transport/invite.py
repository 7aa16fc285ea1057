"""Invite codes: how a joiner finds a table and knows it is the right one.

An invite code carries the table nonce, the host's key fingerprint (see
:mod:`net.transport.keys`) and one to eight addresses (IPv4 or IPv6 with a
port). It is printed as ``FT1-`` followed by Crockford base32 in groups of
five, e.g. ``FT1-05D3Q-...``. Decoding is forgiving where people slip (case,
spaces, ``O`` for ``0``, ``I``/``L`` for ``1``) and strict everywhere else: a
4-byte checksum catches any other typo, with a message that says so.

Binary layout (before base32; all integers big-endian)::

    version  1 byte   (1, or 2 when the code names the game)
    table    8 bytes  table nonce
    finger  10 bytes  host key fingerprint (raw bytes of net.identity's string)
    count    1 byte   number of addresses, 1..8
    count x  family 1 byte (4 or 6), address 4 or 16 bytes, port 2 bytes
    game     (version 2 only) 1 byte length 1..16, then the game's registry name in ASCII
    check    4 bytes  digest("fairtable/invite/v1", all bytes above)[:4]

The game lets a joiner pick the host's game by itself (``tools.peer join
CODE``, the lobby's *Join*) instead of asking for one the host does not play.
"""

from __future__ import annotations

import dataclasses
import ipaddress

from engine.core.hashing import digest
from net.transport.errors import InviteError
from net.transport.keys import (
    FINGERPRINT_SIZE,
    fingerprint_from_bytes,
    fingerprint_to_bytes,
)
from net.transport.messages import TABLE_SIZE, Address

PREFIX = "FT1"
FORMAT_VERSION = 1
#: The format of a code that names its game (every host's, since the game travels in the code).
GAME_VERSION = 2
MAX_GAME = 16
CHECK_DOMAIN = "fairtable/invite/v1"
CHECK_SIZE = 4
MAX_ADDRESSES = 8
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_VALUES = {c: i for i, c in enumerate(ALPHABET)}
_VALUES.update({"O": 0, "I": 1, "L": 1})
_GROUP = 5


@dataclasses.dataclass(frozen=True)
class Invite:
    """A parsed invite: table nonce, host key fingerprint, host addresses, and the game's
    registry name ("" in a code that does not say: an older one)."""

    table: bytes
    fingerprint: str
    addresses: tuple[Address, ...]
    game: str = ""

    def __post_init__(self) -> None:
        if len(self.table) != TABLE_SIZE:
            raise InviteError(f"table nonce must be {TABLE_SIZE} bytes")
        try:
            fingerprint_to_bytes(self.fingerprint)
        except ValueError:
            raise InviteError(f"{self.fingerprint!r} is not a key fingerprint") from None
        if not 1 <= len(self.addresses) <= MAX_ADDRESSES:
            raise InviteError(f"an invite carries 1 to {MAX_ADDRESSES} addresses")
        for host, port in self.addresses:
            try:
                ipaddress.ip_address(host)
            except ValueError:
                raise InviteError(f"{host!r} is not an IPv4 or IPv6 address") from None
            if not 0 < port < 65536:
                raise InviteError(f"port {port} is outside 1-65535")
        if self.game and not (len(self.game) <= MAX_GAME and self.game.isascii() and self.game.isprintable()):
            raise InviteError(f"{self.game!r} cannot be a game's name in an invite (1-{MAX_GAME} ASCII characters)")

    def encode(self) -> str:
        """The copy-pasteable text form."""
        return encode_invite(self)


def _to_bytes(invite: Invite) -> bytes:
    out = bytearray([GAME_VERSION if invite.game else FORMAT_VERSION])
    out += invite.table + fingerprint_to_bytes(invite.fingerprint) + bytes([len(invite.addresses)])
    for host, port in invite.addresses:
        ip = ipaddress.ip_address(host)
        out.append(ip.version)
        out += ip.packed + port.to_bytes(2, "big")
    if invite.game:
        out += bytes([len(invite.game)]) + invite.game.encode("ascii")
    out += digest(CHECK_DOMAIN, bytes(out))[:CHECK_SIZE]
    return bytes(out)


def _b32encode(data: bytes) -> str:
    bits = int.from_bytes(data, "big") << ((-len(data) * 8) % 5)
    count = (len(data) * 8 + 4) // 5
    return "".join(ALPHABET[(bits >> (5 * (count - 1 - i))) & 31] for i in range(count))


def encode_invite(invite: Invite) -> str:
    """``FT1-XXXXX-XXXXX-...`` text of ``invite``."""
    body = _b32encode(_to_bytes(invite))
    groups = [body[i : i + _GROUP] for i in range(0, len(body), _GROUP)]
    return "-".join([PREFIX, *groups])


def parse_invite(text: str) -> Invite:
    """Parse an invite code; raise :class:`InviteError` saying what is wrong."""
    cleaned = "".join(text.split()).upper()
    if cleaned[:2] == "FT" and cleaned[2:3] in ("I", "L"):
        cleaned = PREFIX + cleaned[3:]  # the same 1/I/L forgiveness as the body
    if not cleaned.startswith(PREFIX):
        raise InviteError(
            f"this is not a Fairtable invite code (it should start with {PREFIX}-); "
            "ask the host to copy the whole code again"
        )
    chars = cleaned[len(PREFIX):].replace("-", "")
    value = 0
    for i, ch in enumerate(chars):
        if ch not in _VALUES:
            raise InviteError(
                f"character {ch!r} (position {i + 1} after {PREFIX}-) is not used in invite "
                "codes; check that character against the host's code"
            )
        value = (value << 5) | _VALUES[ch]
    nbytes = len(chars) * 5 // 8
    spare = len(chars) * 5 - nbytes * 8
    if spare >= 5 or value & ((1 << spare) - 1):
        raise InviteError(
            "the invite code has missing or extra characters (or a typo in the last one); "
            "copy the whole code again"
        )
    raw = (value >> spare).to_bytes(nbytes, "big")
    minimum = 1 + TABLE_SIZE + FINGERPRINT_SIZE + 1 + CHECK_SIZE
    if len(raw) < minimum:
        raise InviteError("the invite code is too short: part of it is missing; copy it again")
    payload, check = raw[:-CHECK_SIZE], raw[-CHECK_SIZE:]
    if digest(CHECK_DOMAIN, payload)[:CHECK_SIZE] != check:
        raise InviteError(
            "the invite code has a typo (its checksum does not match); "
            "copy it again from the host, or check it character by character"
        )
    if payload[0] not in (FORMAT_VERSION, GAME_VERSION):
        raise InviteError(
            f"this invite code uses format {payload[0]}, but this Fairtable reads formats "
            f"{FORMAT_VERSION} and {GAME_VERSION}; update Fairtable to the host's version"
        )
    pos = 1
    table = payload[pos : pos + TABLE_SIZE]
    pos += TABLE_SIZE
    fingerprint = fingerprint_from_bytes(payload[pos : pos + FINGERPRINT_SIZE])
    pos += FINGERPRINT_SIZE
    count = payload[pos]
    pos += 1
    addresses: list[Address] = []
    for _ in range(count):
        if pos >= len(payload):
            raise InviteError("the invite code's address list is cut short")
        family = payload[pos]
        size = {4: 4, 6: 16}.get(family)
        if size is None or pos + 1 + size + 2 > len(payload):
            raise InviteError("the invite code holds an address it cannot read")
        ip = ipaddress.ip_address(payload[pos + 1 : pos + 1 + size])
        port = int.from_bytes(payload[pos + 1 + size : pos + 3 + size], "big")
        addresses.append((str(ip), port))
        pos += 3 + size
    game = ""
    if payload[0] == GAME_VERSION:
        size = payload[pos] if pos < len(payload) else 0
        raw_game = payload[pos + 1 : pos + 1 + size]
        if not 1 <= size <= MAX_GAME or len(raw_game) != size or not raw_game.isascii():
            raise InviteError("the invite code's game name cannot be read; copy the code again")
        game = raw_game.decode("ascii")
        pos += 1 + size
    if pos != len(payload):
        raise InviteError("the invite code has unexpected trailing data")
    return Invite(table, fingerprint, tuple(addresses), game)
