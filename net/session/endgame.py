"""The end of the game: phases ``audit`` and ``final``.

:class:`Audit`: after the last step every seat opens its secret deck list
and the hand cards the hand audit needs; the checks themselves are pure
functions in :mod:`net.session.audit`. It owns the openings received so far
and, once all are in, judges the game.

:class:`Final`: the final record (outcome, step, state hash, verdict) must
be byte-identical on every peer; the game is done when every seat that did
not forfeit has signed it. It owns the signed records received so far. An
early end (a forfeit, a resignation) skips the audit and comes here
unaudited.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.claims import false_claims
from engine.core.encoding import encode
from net.envelope import Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.session.audit import (
    Checkpoint,
    find_problems,
    hand_problems,
    make_hand_opening,
    open_deck_list,
    open_hand,
    owed_hand_cards,
)
from net.session.audit import verdict as audit_verdict
from net.session.cards import CardBook
from net.session.claim_audit import claimed_hand_cards
from net.session.late import LateParts
from net.session.leave import public_knowledge
from net.session.placement import audit_cells, placement_findings
from net.session.phases import Done, Phase, Wait, refuse_after_end, refuse_second_hello

if TYPE_CHECKING:
    from net.session.core import Session

#: The kinds of a step's parts (net/session/messages.py KINDS): what a seat may still have in flight
#: when a resignation ends the game (Final.late_part).
STEP_PARTS = frozenset({"action", "commit", "reveal", "roll", "shuffle", "shares", "open", "place", "cells",
                        "disclose"})
#: Kinds the final phase takes from a seat that got past the resignation's step before it saw it:
#: its final record, its own resignation (one more seat excused), and claims about the final record.
AHEAD = frozenset({"final", "resign", "forfeit", "abandon"})
#: One audit finding: (seat at fault, step of the decision or None for the end state, problem).
Finding = tuple[int, "int | None", str]


class Audit:
    """Phase ``audit``: every seat's deck-list and hand openings, then the judgement."""

    name = "audit"

    def __init__(self, s: Session, book: CardBook, checkpoints: list[Checkpoint]) -> None:
        self.s = s
        self.book = book
        self.checkpoints = checkpoints
        #: Seat -> its opened deck list (None for a seat without one), as the openings arrive.
        self.decks: dict[int, tuple[str, ...] | None] = {}
        #: Salted point -> card id, from the opened deck lists.
        self.points: dict[bytes, str] = {}
        self._owed: dict[int, tuple[int, ...]] | None = None

    def take(self, env: Envelope) -> None:
        refuse_second_hello(env)
        if env.kind == "audit":
            self._on_audit(env)
            return
        if env.kind == "final":
            raise Wait  # every opening first
        raise refuse_after_end(env)

    def owe(self) -> bool:
        """Send our deck-list and hand openings once."""
        s = self.s
        if (s.step, "audit") in s._sent or s.seat in s.left:
            return False
        assert s.seat is not None
        deck = tuple(list(e) for e in s._my_list.opening()) if s._my_list is not None else None
        hands = make_hand_opening(self.book, s.step, self.owed_hands().get(s.seat, ()))
        body: dict[str, Any] = {"deck": deck, "hands": hands}
        if s.placements.placed:  # a table with hidden placements: our never-opened cells too
            body["cells"] = audit_cells(s)
        s._send("audit", body)
        return True

    def waiting_for(self) -> tuple[int, ...]:
        return tuple(seat for seat in self.s.seats if seat not in self.decks and seat not in self.s.left)

    def describe(self) -> str:
        return "open its deck list and hand cards"

    def _open_for_the_left(self) -> None:
        """Seats that left open nothing: their held cards are read with their published keys."""
        s = self.s
        for seat in s.left:
            if seat in self.decks:
                continue
            known = public_knowledge(s, seat)
            for h in self.owed_hands().get(seat, ()):
                card = known.card(h)
                if card is not None:
                    s.opened_hands[h] = card
            self.decks[seat] = None

    def successor(self) -> Phase | None:
        """Every opening is in: judge the game; the final record carries the verdict."""
        s = self.s
        if self.waiting_for():
            return None
        self._open_for_the_left()
        findings = self.findings()
        outcome = s.game.outcome(s.state)
        return Final(s, outcome.__canonical__() if outcome is not None else {"winner": None, "reason": "ended"},
                     audit_verdict([(seat, p) for seat, _, p in findings]), findings)

    # --- the openings and the judgement

    def owed_hands(self) -> dict[int, tuple[int, ...]]:
        """Holder -> hand cards it must open at the audit (same on every peer): the cards the
        hand audit needs, and every privately held card a claim is about whose content the
        public record does not tell (so every claim is judged, net.session.claim_audit)."""
        if self._owed is None:
            owed = owed_hand_cards(self.checkpoints, self.book.identified, self.book)
            extra = claimed_hand_cards(self.s.caps.claims(self.s.state), self.book,
                                       self.s.caps.open_cards(self.s.state))
            merged = {seat: set(hs) for seat, hs in owed.items()}
            for seat, hs in extra.items():
                merged.setdefault(seat, set()).update(hs)
            self._owed = {seat: tuple(sorted(hs)) for seat, hs in sorted(merged.items())}
        return self._owed

    def _on_audit(self, env: Envelope) -> None:
        """A seat's openings: check them and keep them."""
        s = self.s
        seat = env.seat
        body = env.body
        keys = {"deck", "hands", "cells"} if s.placements.placed else {"deck", "hands"}
        if not isinstance(body, Mapping) or set(body) != keys:
            raise MalformedMessage("an audit message is {'deck': opening or null, 'hands': [[handle, card, "
                                   "share], ...]" + (", 'cells': [[placement, [[cell, opening], ...]], ...]"
                                                     if "cells" in keys else "") + "}", seat=seat)
        if seat in self.decks:
            raise UnexpectedMessage("sent a second audit message", seat=seat)
        cards: tuple[str, ...] | None = None
        opened: dict[bytes, str] = {}
        if seat in s.plan.secret_zones:
            cards, opened = open_deck_list(s.gid, seat, self.book.deck_points[seat], body["deck"])
        elif body["deck"] is not None:
            raise MalformedMessage("this seat has no secret deck list to open", seat=seat)
        hand = open_hand(self.book, s.step, seat, self.owed_hands().get(seat, ()), body["hands"], opened)
        cells = s.placements.open_owed(seat, body["cells"]) if "cells" in keys else {}
        for h, opening in cells.items():
            s.placements.openings[h] = opening
            s.placements.contents[h] = str(opening.value)
        self.points.update(opened)
        self.decks[seat] = cards
        s.opened_hands.update(hand)

    def findings(self) -> list[Finding]:
        """Every problem the openings show, earliest step first."""
        s = self.s
        found: list[Finding] = [
            (seat, None, p) for seat, p in find_problems(s.plan, s.state, s.seats, self.decks, self.resolve)]
        if s.plan.hand_audit is not None:
            known = {**self.book.identified, **s.opened_hands}
            found.extend(hand_problems(s.plan.hand_audit, s.states, self.checkpoints, known, self.resolve))
        found.extend(self.claim_findings())
        found.extend(placement_findings(s.placements))
        found.sort(key=lambda f: s.step if f[1] is None else f[1])
        return found

    def claim_findings(self) -> list[Finding]:
        """False claims of a game that makes them (engine.core.claims), judged by the one shared function.

        Every privately held card a claim is about is an owed opening (:meth:`owed_hands`), and
        every hidden placement cell is opened at the audit, so a claim stays unjudged only when
        it is about a card no seat holds (a face-down deck card that was never dealt).
        """
        s = self.s
        claiming = s.caps.claiming
        if claiming is None:
            return []
        known = {**self.book.identified, **s.opened_hands, **s.placements.contents}
        found = false_claims(claiming.claims(s.state), lambda h: known.get(h) or self.resolve(h),
                             claiming.claim_holds)
        return [(f.seat, f.step, str(f)) for f in found]

    def resolve(self, handle: int) -> str | None:
        """The card behind a handle, as far as the game and the openings tell."""
        book = self.book
        if handle in self.s.placements.contents:
            return self.s.placements.contents[handle]
        if handle not in book.cipher:
            return self.s.caps.open_cards(self.s.state).get(handle)
        point = book.trivial_point(handle)
        if point is None:
            return None
        return book.identify(point) or self.points.get(point)


class Final:
    """Phase ``final``: every seat that did not forfeit signs the same final record."""

    name = "final"

    def __init__(self, s: Session, outcome: dict[str, Any], verdict: str, findings: list[Finding] | None = None, *,
                 resigned_at: int | None = None, horizon: int | None = None) -> None:
        self.s = s
        self.outcome = outcome
        self.verdict = verdict
        #: A resignation's step (net.session.resign): the game ends there on every peer, and parts
        #: signed from there on that arrive now are late, not refused. None: the end is at our step.
        self.resigned_at = resigned_at
        #: The late parts taken after the resignation, within their bound (``horizon``: the last
        #: step any seat could reach, when known; see net.session.late).
        self.late = LateParts(resigned_at, horizon) if resigned_at is not None else None
        #: The step the final record names (its state hash is ours at that step).
        self.step = s.step if resigned_at is None else min(resigned_at, s.step)
        #: What the audit found (empty for an unaudited end).
        self.findings: list[Finding] = list(findings or [])
        #: Seat -> its signed final record, as they arrive.
        self.finals: dict[int, Mapping[str, Any]] = {}

    def take(self, env: Envelope) -> None:
        if self.late_part(env):
            assert self.late is not None
            # signed before its seat saw the resignation: kept in its chain, without effect, within bounds
            self.late.admit(env, signed_final=env.seat in self.finals)
            return
        refuse_second_hello(env)
        if env.kind != "final":
            raise refuse_after_end(env)
        s = self.s
        if env.seat in s.gone:
            raise UnexpectedMessage("signed a final record, but it resigned or forfeited this game (its record "
                                    "is not ours: did it claim a forfeit the table voided?)", seat=env.seat)
        if env.seat in self.finals:
            raise UnexpectedMessage("sent a second final record", seat=env.seat)
        mine = self.record()
        if not isinstance(env.body, Mapping) or encode(env.body) != encode(mine):
            raise UnexpectedMessage(f"signed a final record that differs from ours ({env.body!r:.200} vs "
                                    f"{mine!r:.200})", seat=env.seat)
        self.finals[env.seat] = env.body

    def owe(self) -> bool:
        """Sign the final record once (not when we forfeited)."""
        s = self.s
        if (s.step, "final") in s._sent or s.seat in s.gone:
            return False
        s._send("final", self.record())
        return True

    def waiting_for(self) -> tuple[int, ...]:
        return tuple(seat for seat in self.signers() if seat not in self.finals)

    def describe(self) -> str:
        return "sign the final record"

    def successor(self) -> Phase | None:
        """Done once every seat that must sign the final record did."""
        return Done() if all(seat in self.finals for seat in self.signers()) else None

    def late_part(self, env: Envelope) -> bool:
        """A step part (an input, a commitment, a reveal, a shuffle, shares, an opening; or a seat's
        opening message, the first of its chain, when the game ended before every one was in) signed
        at or after the step a resignation ended the game at, by a seat that had not seen it yet."""
        part = env.kind in STEP_PARTS or (env.kind == "hello" and env.seq == 0)
        return self.resigned_at is not None and part and env.seen.step >= self.resigned_at \
            and env.seat != self.s.resigned

    def takes_ahead(self, env: Envelope) -> bool:
        """An envelope signed at a later step than ours that this phase still takes: after a
        resignation, a late part or the final record of a seat that had completed the
        resignation's step before it saw it (the record names the resignation's step, so it
        is compared with ours byte for byte all the same)."""
        return self.resigned_at is not None and (env.kind in AHEAD or self.late_part(env))

    def record(self) -> dict[str, Any]:
        """What every seat signs at the end; it must match ours byte for byte."""
        s = self.s
        return {"outcome": self.outcome, "step": self.step, "state": s.hashes[self.step], "audit": self.verdict}

    def signers(self) -> tuple[int, ...]:
        """Seats that must sign the final record: every seat not excused (resigned, forfeited,
        or silent when the waiting seats abandoned the game) signs it."""
        return tuple(seat for seat in self.s.seats if seat not in self.s.gone)
