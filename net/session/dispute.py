"""Disputes about sealed shares: only the recipient can tell a share is bad.

A card shown to one seat travels sealed to that seat's box key, so no other
peer can check it. When it does not open or verify, the recipient publishes
its box key with the offending envelope; every peer then judges the share
(net.poker.judge_show) and halts naming the cheat: the sender, or the
recipient if its complaint was false.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
)

from net.envelope import Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.poker.errors import CardProtocolError
from net.poker.protocol import judge_show
from net.session.events import Cheat
from net.session.placement import BadDisclosure, judge_disclosure

if TYPE_CHECKING:
    from net.session.core import Session


def is_bad_share_for_us(s: Session, env: Envelope, exc: Exception) -> bool:
    """A sealed share (or a sealed placement disclosure) to us that does not open or
    verify: only we can tell."""
    if isinstance(exc, BadDisclosure):
        return env.kind == "disclose" and exc.seat == env.seat and env.seen.step == s.step \
            and s._secrets is not None
    show = s.book.shows.get(env.seen.step) if s.book is not None else None
    return (env.kind == "shares" and show is not None and show[1] == s.seat and env.seen.step == s.step
            and isinstance(exc, CardProtocolError) and exc.seat == env.seat and s._secrets is not None)


def dispute(s: Session, env: Envelope, exc: Exception) -> None:
    """Publish our sealed-share key so everyone can judge the share (net.poker.judge_show)."""
    assert s._secrets is not None
    secret = s._secrets.box.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    s._send("dispute", {"against": env.to_data(), "secret": secret})
    what = "placement disclosure" if env.kind == "disclose" else "share"
    s._halt(Cheat(env.seat, env.seen.step, f"its sealed {what} to seat {s.seat} is bad "
                                           f"({getattr(exc, 'detail', exc)}); the dispute is published"))


def on_dispute(s: Session, env: Envelope) -> None:
    """Judge a published dispute and halt naming whoever cheated."""
    body = env.body
    if not isinstance(body, Mapping) or set(body) != {"against", "secret"}:
        raise MalformedMessage("a dispute is {'against': envelope, 'secret': 32 bytes}", seat=env.seat)
    against = Envelope.from_data(body["against"])
    if against.game != s.gid or against.seat not in s.seats:
        raise UnexpectedMessage("disputed a message of another game or seat", seat=env.seat)
    against.verify(s.genesis.seat_keys[against.seat])
    k = against.seen.step
    if against.kind == "disclose":
        told = s.placements.disclosures.get(k)
        placer = s.placements.placed[told[0]].placer if told is not None else None
        if told is None or env.seat not in told[1] or env.seat == placer or against.seat != placer:
            raise UnexpectedMessage(f"disputed a message that is not the placer's disclosure to it (step {k})",
                                    seat=env.seat)
        fault = judge_disclosure(s, against, env.seat, body["secret"])
        verdict = ("its sealed placement disclosure was bad" if fault != env.seat
                   else f"it complained falsely about seat {against.seat}'s placement disclosure")
        s._halt(Cheat(fault, k, f"{verdict} (dispute judged with the recipient's published key)"))
        return
    show = s.book.shows.get(k) if s.book is not None else None
    if show is None or show[1] != env.seat or against.kind != "shares":
        raise UnexpectedMessage(f"disputed a message that is not a sealed share to it (step {k})",
                                seat=env.seat)
    held, recipient = show
    parts = against.body.get("parts") if isinstance(against.body, Mapping) else None
    message = parts[0][1] if isinstance(parts, tuple) and len(parts) == 1 and isinstance(parts[0], tuple) \
        and len(parts[0]) == 2 else None
    if message is None or against.seat != held[0].holder:
        fault = against.seat if message is None else env.seat
    else:
        assert s.book is not None
        fault = judge_show(s.book.keys, k, held, recipient, body["secret"],
                           dict(message) if isinstance(message, Mapping) else message)
    verdict = ("its sealed share was bad" if fault != env.seat
               else f"it complained falsely about seat {against.seat}'s sealed share")
    s._halt(Cheat(fault, k, f"{verdict} (dispute judged with the recipient's published key)"))
