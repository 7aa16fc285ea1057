"""Online play through magic-wormhole with Dilation: the decisions, no I/O.

A host behind any NAT reaches a friend through a *wormhole*: both sides meet
on a mailbox server under a short code (``7-crossover-clockwork``), agree on
a key by PAKE, and Dilation then gives them one encrypted, reconnecting byte
pipe, direct when one side can reach the other, else through a transit relay.
Our link protocol (docs/protocol.md §4-§8) runs unchanged inside one Dilation
subchannel named :data:`SUBPROTOCOL`. The reactor side is
:mod:`net.transport.wormhole_glue`; this module holds what it decides with:

* :class:`WormholeSettings`: mailbox and relay addresses (the public
  magic-wormhole servers by default) and our app id;
* the *offer* the host sends over the PAKE-encrypted mailbox channel (table
  nonce and host key), so the joiner pins the host key it learnt from a code
  only the two of them know;
* the *binding* both sides mix into the handshake transcript
  (``derive_key(BINDING_PURPOSE)``), so the host key is pinned to this
  pairing: a link handshake cannot be spliced from another wormhole;
* :func:`resume_code`: the code two peers meet on again after a crash, derived
  from a secret of their first pairing, both keys, the table and a time
  window, with nobody typing;
* code checks and the words for every failure a player can meet.
"""

from __future__ import annotations

import dataclasses
import os
import re

from engine.core.encoding import decode, encode
from engine.core.errors import EncodingError
from engine.core.hashing import digest
from net.transport.errors import TransportError
from net.transport.invite import MAX_GAME
from net.transport.messages import KEY_SIZE, TABLE_SIZE

#: Our application id on the mailbox server: codes of other programs never meet ours.
APP_ID = "fairtable.games/online-table/v1"
#: The public magic-wormhole servers (run by the magic-wormhole project).
DEFAULT_MAILBOX = "ws://relay.magic-wormhole.io:4000/v1"
DEFAULT_RELAY = "tcp:transit.magic-wormhole.io:4001"
#: Name of the Dilation subchannel that carries one Fairtable link.
SUBPROTOCOL = "fairtable-link/1"
BINDING_PURPOSE = "fairtable/link-binding/v1"
RESUME_PURPOSE = "fairtable/resume-secret/v1"
RESUME_DOMAIN = "fairtable/resume-code/v1"
OFFER_TYPE = "fairtable-offer"
#: 2: the offer names the host's game, so a joiner plays it without being told (issue 29).
OFFER_VERSION = 2
BINDING_SIZE = 32
RESUME_SECRET_SIZE = 32
#: Seconds a resume code stays the same; a rendezvous not met in its window
#: is closed and reopened on the next window's code (a crashed side's stale
#: claim can only spoil one window).
RESUME_WINDOW = 120.0
#: Resume nameplates are 6-digit numbers: servers hand out 1-999 to people,
#: so ours never take one of theirs.
RESUME_NAMEPLATE_BASE = 100_000
RESUME_NAMEPLATE_SPAN = 900_000

_CODE = re.compile(r"^[0-9]+(-[a-z0-9]+)+$")
#: Words after the number in a code the wormhole allocates for an invite (its default length).
INVITE_WORDS = 2
#: A code with one word after the number is a resume code (:func:`resume_code`): its word is a
#: 128-bit hex password, never a typed word cut short.
RESUME_PASSWORD_CHARS = 32


class WormholeProblem(TransportError):
    """A failure of online play, worded for players; ``code`` is stable."""

    code = "wormhole"
    fatal = True


class MailboxUnreachable(WormholeProblem):
    code = "mailbox-unreachable"


class CodeCrowded(WormholeProblem):
    code = "code-crowded"


class WrongCode(WormholeProblem):
    code = "wrong-code"


class CodeExpired(WormholeProblem):
    code = "code-expired"


class BadCode(WormholeProblem):
    code = "bad-code"


class RelayBlocked(WormholeProblem):
    code = "relay-blocked"


class PeerIncompatible(WormholeProblem):
    code = "incompatible"


@dataclasses.dataclass(frozen=True)
class WormholeSettings:
    """Where peers meet. ``direct`` lets Dilation try direct TCP connections
    (listening on this machine) before the relay; off, everything goes through
    the relay (tests, or a host that wants to reveal no address)."""

    mailbox: str = DEFAULT_MAILBOX
    relay: str = DEFAULT_RELAY
    app_id: str = APP_ID
    direct: bool = True
    resume_window: float = RESUME_WINDOW

    @classmethod
    def from_env(cls, mailbox: str | None = None, relay: str | None = None,
                 direct: bool | None = None) -> WormholeSettings:
        """Explicit values, else ``FAIRTABLE_MAILBOX`` / ``FAIRTABLE_RELAY`` /
        ``FAIRTABLE_WORMHOLE_DIRECT=0``, else the public servers."""
        env_direct = os.environ.get("FAIRTABLE_WORMHOLE_DIRECT", "1") not in ("0", "no", "false")
        window = float(os.environ.get("FAIRTABLE_RESUME_WINDOW", RESUME_WINDOW))
        return cls(mailbox=mailbox or os.environ.get("FAIRTABLE_MAILBOX") or DEFAULT_MAILBOX,
                   relay=relay or os.environ.get("FAIRTABLE_RELAY") or DEFAULT_RELAY,
                   direct=env_direct if direct is None else direct, resume_window=window)


def looks_like_wormhole_code(text: str) -> bool:
    """True when ``text`` has the shape of a wormhole code rather than a LAN
    invite (``FT1-...``); used to pick how to join."""
    t = text.strip()
    return bool(t) and t[0].isdigit() and not t.upper().startswith("FT1")


def parse_code(text: str) -> str:
    """The canonical form of a typed wormhole code (trimmed, lower case,
    spaces read as ``-``), or :class:`BadCode` saying what is wrong."""
    code = re.sub(r"[\s\-]+", "-", text.strip().lower()).strip("-")
    if not code:
        raise BadCode("the code is empty: type the code your friend sent you, like 7-crossover-clockwork")
    if not code[0].isdigit():
        raise BadCode(f"the code {text.strip()!r} must start with the number the host's code starts with, "
                      "like 7-crossover-clockwork; check that you copied all of it")
    if not _CODE.match(code):
        bad = next((c for c in code if not (c.isalnum() or c == "-")), None)
        what = f"it contains {bad!r}" if bad else "it has no words after the number"
        raise BadCode(f"the code {text.strip()!r} is not a wormhole code ({what}); it looks like "
                      "7-crossover-clockwork: a number, then words separated by '-'")
    words = code.split("-")[1:]
    if len(words) < INVITE_WORDS and len(words[0]) < RESUME_PASSWORD_CHARS:
        raise BadCode(f"the code {text.strip()!r} is incomplete: a code has {INVITE_WORDS} words after the "
                      "number, like 7-crossover-clockwork; check that you copied all of it")
    return code


# ------------------------------------------------------------------ the offer


@dataclasses.dataclass(frozen=True)
class Offer:
    """What the host tells a joiner over the PAKE channel: the table, its key and the game
    it plays (its registry name), so the joiner need not be told which game the code is for."""

    table: bytes
    host_key: bytes
    game: str

    def encode(self) -> bytes:
        return encode({"t": OFFER_TYPE, "v": OFFER_VERSION, "table": self.table, "key": self.host_key,
                       "game": self.game})


def parse_offer(data: bytes) -> Offer:
    """Strictly parse an offer; :class:`PeerIncompatible` if it is not one."""
    try:
        value = decode(data)
    except EncodingError as exc:
        raise PeerIncompatible(f"the other side sent something that is not a Fairtable table offer ({exc}); "
                               "it may be another program using the same code") from None
    if (not isinstance(value, dict) or not {"t", "v"} <= set(value)
            or value["t"] != OFFER_TYPE or not isinstance(value["v"], int)):
        raise PeerIncompatible("the other side sent something that is not a Fairtable table offer; it may be "
                               "another program using the same code")
    if value["v"] != OFFER_VERSION:
        raise PeerIncompatible(f"the host's Fairtable speaks online-offer version {value['v']}, this one "
                               f"{OFFER_VERSION}; both players should run the same release")
    if set(value) != {"t", "v", "table", "key", "game"}:
        raise PeerIncompatible("the host's table offer has other fields than a Fairtable offer")
    table, key, game = value["table"], value["key"], value["game"]
    if not (isinstance(table, bytes) and len(table) == TABLE_SIZE and isinstance(key, bytes)
            and len(key) == KEY_SIZE):
        raise PeerIncompatible("the host's table offer has a malformed table nonce or key")
    if not (isinstance(game, str) and 0 < len(game) <= MAX_GAME and game.isascii() and game.isprintable()):
        raise PeerIncompatible("the host's table offer does not name its game as a short name")
    return Offer(table, key, game)


# ------------------------------------------------------------------ resume codes


def resume_epoch(now: float, window: float = RESUME_WINDOW) -> int:
    """Which resume window ``now`` (Unix seconds) falls in."""
    return int(now // window)


def resume_code(secret: bytes, host_key: bytes, joiner_key: bytes, table: bytes, epoch: int) -> str:
    """The wormhole code host and joiner meet on after a crash, in window ``epoch``.

    ``secret`` comes from their first pairing (``derive_key(RESUME_PURPOSE)``,
    kept in both peer directories), so nobody else can compute it even knowing
    both keys and the table; a numeric nameplate outside the range servers
    hand out, and a 128-bit hex password.
    """
    if len(secret) != RESUME_SECRET_SIZE:
        raise ValueError("resume secret must be 32 bytes")
    d = digest(RESUME_DOMAIN, {"secret": secret, "host": host_key, "joiner": joiner_key, "table": table,
                               "epoch": epoch})
    nameplate = RESUME_NAMEPLATE_BASE + int.from_bytes(d[:4], "big") % RESUME_NAMEPLATE_SPAN
    return f"{nameplate}-{d[4:20].hex()}"


# ------------------------------------------------------------------ link kind


def link_kind(connected: bool, description: str, ever_connected: bool) -> str:
    """How a Dilation pipe reaches the peer, for players: ``direct`` or
    ``relayed`` (from the connection's description, ``->relay:...`` for the
    transit relay), else ``reconnecting`` after a first connection, else
    ``connecting``."""
    if connected:
        return "relayed" if "relay:" in description else "direct"
    return "reconnecting" if ever_connected else "connecting"


# ------------------------------------------------------------------ words for failures


def explain_failure(kind: str, exc: BaseException | None, *, mailbox: str, relay: str,
                    code: str | None = None) -> WormholeProblem:
    """A wormhole library failure (its class name ``kind``), as a player-facing problem."""
    detail = f" ({exc})" if exc is not None and str(exc) else ""
    shown = f" {code}" if code else ""
    if kind in ("ServerConnectionError", "ConnectionRefusedError", "DNSLookupError", "ConnectError"):
        return MailboxUnreachable(
            f"cannot reach the wormhole mailbox server at {mailbox}{detail}: check this computer's internet "
            "connection, or point Fairtable at another mailbox server (--mailbox or FAIRTABLE_MAILBOX; "
            "see docs/networking.md)")
    if kind == "WrongPasswordError":
        return WrongCode(
            f"the code{shown} does not match the host's: a word is probably mistyped. Check it letter by "
            "letter with your friend, or ask for a fresh code (a failed try uses the code up)")
    if kind == "KeyFormatError":
        return BadCode(f"the code{shown} is not a wormhole code{detail}; it looks like 7-crossover-clockwork")
    if kind in ("CrowdedError", "ServerError") and "crowded" in str(exc or "").lower():
        return CodeCrowded(
            f"the code{shown} is already in use by two other players: someone else used it first or it was "
            "shared with several friends. Ask the host for a code of your own (one code per friend)")
    if kind == "LonelyError":
        return CodeExpired(
            f"nobody answered on the code{shown}: it may have expired or been used by someone else. Ask "
            "the host for a fresh code")
    if kind in ("OldPeerCannotDilateError", "PeerIncompatible"):
        return PeerIncompatible(f"the other side cannot play Fairtable online{detail}; both players should "
                                "run the same Fairtable release")
    return WormholeProblem(f"the wormhole failed{detail}; try again with a fresh code")


def expired(code: str, seconds: float) -> CodeExpired:
    """Nobody reached the host on ``code`` within ``seconds``."""
    return CodeExpired(
        f"nobody answered on the code {code} within {seconds:.0f} s: it has expired, was already used by "
        "someone else, or the host has stopped. Ask the host for a fresh code")


def relay_blocked(relay: str, seconds: float) -> RelayBlocked:
    """Paired, but no Dilation connection came up within ``seconds``."""
    return RelayBlocked(
        f"the code matched, but no connection to the other player came up within {seconds:.0f} s: a "
        f"firewall may block the transit relay at {relay} (and a direct connection). Try another network, "
        "or point both players at a relay you can reach (--relay or FAIRTABLE_RELAY; docs/networking.md)")


__all__ = [
    "APP_ID", "DEFAULT_MAILBOX", "DEFAULT_RELAY", "SUBPROTOCOL", "BadCode", "CodeCrowded", "CodeExpired",
    "MailboxUnreachable", "Offer", "PeerIncompatible", "RelayBlocked", "WormholeProblem",
    "WormholeSettings", "WrongCode", "explain_failure", "expired", "link_kind", "looks_like_wormhole_code",
    "parse_code", "parse_offer", "relay_blocked", "resume_code", "resume_epoch",
]
