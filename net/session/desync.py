"""Desync detection output: the report and the ``desync`` message.

A peer whose ``seen`` state hash differs from ours at a step we both
passed has a different game: the session stops (it never heals itself) and
keeps enough evidence (section hashes, the input of that step, every
envelope) for a human or tools.verify to find which side went wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.hashing import digest
from net.envelope import Envelope
from net.session.events import Desync

if TYPE_CHECKING:
    from net.session.core import Session

SECTION_DOMAIN = "fairtable/state-section/v1"


def section_hashes(public: Any) -> dict[str, bytes]:
    """Hash of each top-level section of a public state (for desync reports)."""
    if isinstance(public, Mapping):
        return {str(k): digest(SECTION_DOMAIN, (str(k), v)) for k, v in public.items()}
    return {"": digest(SECTION_DOMAIN, ("", public))}


def remember_sections(s: Session, env: Envelope) -> None:
    """Keep a peer's section hashes from its desync message for our own report."""
    body = env.body
    if not isinstance(body, Mapping) or set(body) != {"step", "sections", "hash"}:
        return
    s._their_sections[str(env.seat)] = body["sections"]


def desync(s: Session, env: Envelope) -> None:
    """``env`` saw another state at a step we passed: report, tell the table, halt."""
    first = env.seen.step
    report: dict[str, Any] = {
        "game": s.gid, "seat": s.seat, "peer": env.seat, "step": first,
        "ours": s.hashes[first], "theirs": env.seen.state_hash,
        "our_sections": section_hashes(s.game.public(s.states[first])),
        "their_sections": s._their_sections,
        "input": s.applied[first - 1].to_data() if first > 0 else None,
        "offending": env.to_data(),
        "logs": [e.to_data() for e in s.envelopes()],
    }
    s.desync_report = report
    if s._writer is not None:
        body = {"step": first, "hash": s.hashes[first], "sections": report["our_sections"]}
        s._send("desync", body)
    s._halt(Desync(env.seat, first, report))
