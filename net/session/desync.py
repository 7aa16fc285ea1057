"""A signed state hash that differs from ours: the report and the ``desync`` message.

A peer whose ``seen`` state hash differs from ours at a step we both
passed signed a state the signed record contradicts: the session stops (it
never heals itself), convicts that seat with the record as proof
(:mod:`net.session.conviction`, which also lets the table look for an
equivocation that would explain it), and keeps a report (section hashes,
the input of that step, every envelope) for a human to see what differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.hashing import digest
from net.envelope import Envelope
from net.errors import MalformedMessage
from net.session import conviction

if TYPE_CHECKING:
    from net.session.core import Session

SECTION_DOMAIN = "fairtable/state-section/v1"


def section_hashes(public: Any) -> dict[str, bytes]:
    """Hash of each top-level section of a public state (for desync reports)."""
    if isinstance(public, Mapping):
        return {str(k): digest(SECTION_DOMAIN, (str(k), v)) for k, v in public.items()}
    return {"": digest(SECTION_DOMAIN, ("", public))}


def check_message(env: Envelope) -> None:
    """A ``desync`` message is {'step': int, 'hash': 32 bytes, 'sections': {name: 32 bytes}}."""
    body = env.body
    ok = isinstance(body, Mapping) and set(body) == {"step", "sections", "hash"} \
        and isinstance(body["step"], int) and isinstance(body["hash"], bytes) and len(body["hash"]) == 32 \
        and isinstance(body["sections"], Mapping) \
        and all(isinstance(k, str) and isinstance(v, bytes) for k, v in body["sections"].items())
    if not ok:
        raise MalformedMessage("a desync message is {'step': step, 'hash': 32 bytes, 'sections': {name: hash}}",
                               seat=env.seat)


def remember_sections(s: Session, env: Envelope) -> None:
    """Keep a peer's section hashes from its desync message for our own report."""
    body = env.body
    if not isinstance(body, Mapping) or set(body) != {"step", "sections", "hash"}:
        return
    s.peer_sections[str(env.seat)] = body["sections"]


def desync(s: Session, env: Envelope) -> None:
    """``env`` saw another state at a step we passed: report, tell the table, convict."""
    first = env.seen.step
    report: dict[str, Any] = {
        "game": s.gid, "seat": s.seat, "peer": env.seat, "step": first,
        "ours": s.hashes[first], "theirs": env.seen.state_hash,
        "our_sections": section_hashes(s.game.public(s.states[first])),
        "their_sections": s.peer_sections,
        "input": s.applied[first - 1].to_data() if first > 0 else None,
        "offending": env.to_data(),
        "logs": [e.to_data() for e in s.envelopes()],
    }
    s.desync_report = report
    if s._writer is not None:
        body = {"step": first, "hash": s.hashes[first], "sections": report["our_sections"]}
        s._send("desync", body)
    conviction.false_hash(s, env)
