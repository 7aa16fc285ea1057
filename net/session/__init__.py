"""Networked sessions: signed envelopes in, engine inputs and envelopes out (sans-I/O).

Start here: :class:`~net.session.core.Session` (one peer's driver),
:class:`~net.session.plan.TablePlan` (what a game must tell the session),
the game registry :mod:`net.games` (rules id -> game, initial state, plan) and the
events in :mod:`net.session.events`. docs/protocol.md describes the messages.
"""

from net.session.core import KINDS, Outgoing, Session, section_hashes
from net.session.events import (
    Abandonable,
    Applied,
    ChatLine,
    Cheat,
    Event,
    Finished,
    Flooding,
    Left,
    Misconduct,
    Notice,
    PhaseChanged,
    Rejected,
    Resigned,
    Stalling,
)
from net.session.plan import TablePlan, default_claims

__all__ = [
           "KINDS",
           "Abandonable",
           "Applied",
           "ChatLine",
           "Cheat",
           "Event",
           "Finished",
           "Flooding",
           "Left",
           "Misconduct",
           "Notice",
           "Outgoing",
           "PhaseChanged",
           "Rejected",
           "Resigned",
           "Session",
           "Stalling",
           "TablePlan",
           "default_claims",
           "section_hashes",
]
