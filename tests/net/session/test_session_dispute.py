"""Showing a held card to one seat travels encrypted, so only the recipient
can tell a bad share. It then publishes its sealed-share key in a signed
dispute and every peer (and tools.verify) judges who cheated."""

from __future__ import annotations

from typing import Any

from harness import identities, tiny_table

from engine.core.encoding import decode
from net.envelope import Envelope, sign_envelope
from net.session import Cheat, Outgoing
from net.verifier import verify


def _is_show_share(data: Any) -> bool:
    if data.get("kind") != "shares" or not isinstance(data.get("body"), dict):
        return False
    parts = data["body"].get("parts")
    return bool(parts) and isinstance(parts[0][1], dict) and set(parts[0][1]) == {"to", "eph", "box"}


def test_bad_sealed_share_is_disputed_and_the_holder_is_convicted() -> None:
    ids = identities(3, tag="tiny")
    table, _ = tiny_table(3)

    def tamper(seat: int, out: Outgoing) -> Outgoing:
        data = decode(out.data)
        if seat != 0 or not isinstance(data, dict) or not _is_show_share(data):
            return out
        env = Envelope.from_data(data)
        part = dict(data["body"]["parts"][0][1])
        box = bytearray(part["box"])
        box[0] ^= 1
        part["box"] = bytes(box)
        body = {"parts": [[0, part]]}
        forged = sign_envelope(ids[0], game=env.game, seat=0, seq=env.seq, prev=env.prev, kind=env.kind,
                               body=body, seen=env.seen)
        return Outgoing(forged.to_bytes(), out.to)

    table.tap = tamper
    table.start()
    table.run()
    for s in table.sessions:
        assert isinstance(s.halted, Cheat) and s.halted.seat == 0, (s.seat, s.halted)
    verdict = verify(table.sessions[2].transcript())
    assert not verdict.ok and verdict.seat == 0 and verdict.reason == "cheat"
    assert verdict.step == table.sessions[1].halted.step  # type: ignore[union-attr]


def test_false_dispute_convicts_the_complainer() -> None:
    ids = identities(3, tag="tiny")
    table, _ = tiny_table(3)
    table.start()
    table.run()
    _, b, c = table.sessions
    assert c.finished
    show = next(e for e in c.envelopes() if e.seat == 0 and _is_show_share(decode(e.to_bytes())))
    assert b._secrets is not None and b._writer is not None
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        NoEncryption,
        PrivateFormat,
    )

    secret = b._secrets.box.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    w = b._writer
    dispute = sign_envelope(ids[1], game=b.gid, seat=1, seq=w.next_seq, prev=w.head, kind="dispute",
                            body={"against": show.to_data(), "secret": secret}, seen=(b.step, b.hashes[-1]))
    c.receive(dispute.to_bytes(), sender="peer-1")
    assert isinstance(c.halted, Cheat) and c.halted.seat == 1 and "falsely" in c.halted.error
