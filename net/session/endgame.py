"""Audit flow: open deck lists and owed hand cards, judge, sign the final record.

After the last step every seat opens its secret deck list and the hand cards
the hand audit needs; the checks themselves are pure functions in
:mod:`net.session.audit`. The final record (outcome, step, state hash,
verdict) must be byte-identical on every peer; the game is done when every
seat that did not forfeit has signed it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.claims import false_claims
from engine.core.encoding import encode
from net.envelope import Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.session.audit import (
    find_problems,
    hand_problems,
    make_hand_opening,
    open_deck_list,
    open_hand,
    owed_hand_cards,
)
from net.session.audit import verdict as audit_verdict
from net.session.events import Finished

if TYPE_CHECKING:
    from net.session.core import Session


def owed_hands(s: Session) -> dict[int, tuple[int, ...]]:
    """Holder -> hand cards it must open at the audit (same on every peer)."""
    if s._owed is None:
        assert s.book is not None
        s._owed = owed_hand_cards(s._checkpoints, s._identified, s.book)
    return s._owed


def emit_audit(s: Session) -> bool:
    """Send our deck-list and hand openings once."""
    if (s.step, "audit") in s._sent:
        return False
    assert s.seat is not None and s.book is not None
    deck = tuple(list(e) for e in s._my_list.opening()) if s._my_list is not None else None
    hands = make_hand_opening(s.book, s.step, owed_hands(s).get(s.seat, ()))
    s._send("audit", {"deck": deck, "hands": hands})
    return True


def on_audit(s: Session, env: Envelope) -> None:
    """A seat's openings: check them; when all are in, judge the game."""
    seat = env.seat
    body = env.body
    if not isinstance(body, Mapping) or set(body) != {"deck", "hands"}:
        raise MalformedMessage("an audit message is {'deck': opening or null, 'hands': [[handle, card, "
                               "share], ...]}", seat=seat)
    if seat in s._audits:
        raise UnexpectedMessage("sent a second audit message", seat=seat)
    cards: tuple[str, ...] | None = None
    opened: dict[bytes, str] = {}
    if seat in s.plan.secret_zones:
        cards, opened = open_deck_list(s.gid, seat, s._deck_points[seat], body["deck"])
    elif body["deck"] is not None:
        raise MalformedMessage("this seat has no secret deck list to open", seat=seat)
    assert s.book is not None
    hand = open_hand(s.book, s.step, seat, owed_hands(s).get(seat, ()), body["hands"], opened)
    s._audit_points.update(opened)
    s._audits[seat] = cards
    s.opened_hands.update(hand)
    if len(s._audits) == len(s.seats):
        finish_audit(s)


def finish_audit(s: Session) -> None:
    """Every opening is in: list the problems (earliest step first), set the verdict."""
    findings: list[tuple[int, int | None, str]] = [
        (seat, None, p) for seat, p in find_problems(s.plan, s.state, s.seats, s._audits,
                                                     lambda h: resolve(s, h))]
    if s.plan.hand_audit is not None:
        known = {**s._identified, **s.opened_hands}
        findings.extend(hand_problems(s.plan.hand_audit, s.states, s._checkpoints, known,
                                      lambda h: resolve(s, h)))
    findings.extend(claim_findings(s))
    findings.sort(key=lambda f: s.step if f[1] is None else f[1])
    s.audit_findings = findings
    s.audit_problems = [(seat, p) for seat, _, p in findings]
    s.verdict = audit_verdict(s.audit_problems)
    outcome = s.game.outcome(s.state)
    s.outcome = outcome.__canonical__() if outcome is not None else {"winner": None, "reason": "ended"}
    s.phase = "final"
    s._since = s._now  # the final record has its own deadline


def claim_findings(s: Session) -> list[tuple[int, int | None, str]]:
    """False claims of a game that makes them (engine.core.claims), judged by the one shared function.

    Claims about cards still unknown at the end are not judged here: a game's
    table plan must make them owed openings (networked Locke, issue 11 WP5).
    """
    claims_of = getattr(s.game, "claims", None)
    if claims_of is None:
        return []
    known = {**s._identified, **s.opened_hands}
    found = false_claims(claims_of(s.state), lambda h: known.get(h) or resolve(s, h),
                         s.game.claim_holds)  # type: ignore[attr-defined]
    return [(f.seat, f.step, str(f)) for f in found]


def resolve(s: Session, handle: int) -> str | None:
    """The card behind a handle, as far as the game and the openings tell."""
    assert s.book is not None
    if handle not in s.book.cipher:
        return s._open_cards_of(s.state).get(handle)
    point = s.book.trivial_point(handle)
    if point is None:
        return None
    return s.book.identify(point) or s._audit_points.get(point)


def final_record(s: Session) -> dict[str, Any]:
    """What every seat signs at the end; it must match ours byte for byte."""
    return {"outcome": s.outcome, "step": s.step, "state": s.hashes[-1], "audit": s.verdict}


def final_seats(s: Session) -> tuple[int, ...]:
    """Seats that must sign the final record (a forfeited seat does not)."""
    return tuple(seat for seat in s.seats if seat != s.forfeited)


def emit_final(s: Session) -> bool:
    """Sign the final record once (not when we forfeited)."""
    if (s.step, "final") in s._sent or s.seat == s.forfeited:
        return False
    s._send("final", final_record(s))
    return True


def on_final(s: Session, env: Envelope) -> None:
    """A seat's final record; the game is done when every signer agrees."""
    if env.seat == s.forfeited:
        raise UnexpectedMessage("signed a final record, but it forfeited this game (its record is not "
                                "ours: did it claim a forfeit the table voided?)", seat=env.seat)
    if env.seat in s._finals:
        raise UnexpectedMessage("sent a second final record", seat=env.seat)
    mine = final_record(s)
    if not isinstance(env.body, Mapping) or encode(env.body) != encode(mine):
        raise UnexpectedMessage(f"signed a final record that differs from ours ({env.body!r:.200} vs "
                                f"{mine!r:.200})", seat=env.seat)
    s._finals[env.seat] = env.body
    check_done(s)


def check_done(s: Session) -> None:
    """The game is done once every seat that must sign the final record did."""
    if s.phase == "final" and all(seat in s._finals for seat in final_seats(s)):
        s.phase = "done"
        assert s.outcome is not None and s.verdict is not None
        s.events.append(Finished(s.outcome, s.verdict))
