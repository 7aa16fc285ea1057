"""Claims proven at the step they are made (issue 31): which proofs an action owes, making and checking them.

A game that makes claims (engine/core/claims.py) logs them when an input is
applied. On a table whose genesis names :data:`~net.envelope.CLAIMS_AT_STEP`,
the seat that decides applies its own action locally first (``apply`` is
pure), and for every new claim *of its own seat* whose cards it holds
privately and that the table plan can state card by card
(:attr:`net.session.plan.TablePlan.claim_per_card`), it proves with each card's
ElGamal pair that the card is one of the cards that make the claim true
(:func:`net.poker.claim_proofs.prove_claim`), and sends the proofs with the
action (``claims`` in the action message, one part per (claim, card)). The
candidate cards are those the handle may hold (:class:`Lineage`, narrowed
by every earlier proof about it) for which the game's own ``claim_holds``
accepts the claim; a claim that every card left satisfies needs no proof,
and one whose cards add up to more than 64 candidates waits.

Every peer derives the same list of owed proofs from the public record alone
(the claim log, who holds which card, the public card points, the start
cards), never from the message; a missing or failed proof is a conviction of
the seat at that step (:func:`check`). Every other claim (about several
cards that cannot be split, about other seats' cards, made in automatic
steps or by a seat deciding for another) waits for the end-of-game audit,
which still judges every claim (net/session/claim_audit.py). Which claims
were proven at their step is kept in ``Session.claims_proven``;
docs/security-cards.md, "Claims proven at their step", has the argument.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from engine.core.capabilities import Capabilities
from engine.core.claims import Claim
from engine.core.encoding import encode
from engine.core.errors import EngineError
from engine.core.pending import HiddenOp
from net.poker import group as g
from net.poker.claim_proofs import MAX_CANDIDATES, prove_claim, verify_claim
from net.poker.errors import BadCardProof, CardProtocolError
from net.poker.proofs import Context
from net.session.cards import CardBook

if TYPE_CHECKING:
    from net.session.core import Session

#: Domain of the statement a claim proof binds beside the context (claim, log position, card).
STATEMENT_DOMAIN = "fairtable/session/claim-statement/v1"
PROVEN = "proven now"
WAITS = "checked at the end"


@dataclasses.dataclass(frozen=True)
class Statement:
    """One card of one claim to prove: ``handle`` holds one of ``cards`` (ids, in the table's order)."""

    index: int  # the claim's position in the game's claim log
    claim: Claim
    handle: int
    cards: tuple[str, ...]

    def encoded(self) -> bytes:
        """What the proof binds beside game, step and seat: the claim, its log position and the card."""
        return encode([STATEMENT_DOMAIN, self.claim, self.index, self.handle])


def new_claims(caps: Capabilities, before: Any, after: Any) -> list[tuple[int, Claim]]:
    """The claims ``after`` adds to the log of ``before``, with their log positions (a game only appends)."""
    old, new = caps.claims(before), caps.claims(after)
    if len(new) < len(old):
        return []
    return [(len(old) + i, claim) for i, claim in enumerate(new[len(old):])]


class Lineage:
    """Which cards each hidden handle may hold, read from the public record alone.

    A handle whose card was public at the start, or was revealed, may hold
    that card only. A shuffle of a zone makes new handles (engine/core/pending.py
    ``CardsShuffled``), each of which may hold any card its zone's handles
    could hold before. Deals, shows and moves keep a handle's card. So a
    handle's cards are a superset of the truth on every peer alike, and the
    cards that make a claim true of it are those of them the game's own
    ``claim_holds`` accepts.
    """

    def __init__(self) -> None:
        self.scanned = 0
        self.cards: dict[int, frozenset[str]] = {}
        #: Handle -> the cards proofs so far left it (each proof: its card is one of the candidates).
        self.proven: dict[int, frozenset[str]] = {}

    def of(self, s: Session, handle: int) -> frozenset[str] | None:
        """The cards ``handle`` may hold (None: not known from the record)."""
        if self.scanned == 0:
            self.cards.update((h, frozenset((c,))) for h, c in s.plan.public_cards(s.states[0]).items())
        game = s.game
        while self.scanned < s.step:
            k = self.scanned
            pending = game.pending(s.states[k])
            if isinstance(pending, HiddenOp) and pending.op == "shuffle":
                opened = s.caps.open_cards(s.states[k])  # a revealed card: exactly that card
                before = [frozenset((opened[h],)) if h in opened else self.cards.get(h) for h in pending.handles]
                union = frozenset().union(*[c for c in before if c is not None]) if None not in before else None
                for h in game.zone(s.states[k + 1], pending.zone):
                    if union is None:
                        self.cards.pop(h, None)
                    else:
                        self.cards[h] = union
            self.scanned = k + 1
        return self.cards.get(handle)

    def narrowed(self, s: Session, handle: int) -> frozenset[str] | None:
        """The cards ``handle`` may hold, narrowed by every claim about it proven so far: a proof
        showed its card is among that claim's candidates, so every later claim about it is proven
        over what is left (a smaller proof), and needs no proof when every card left makes it true.
        What is left is public, derived from the record alone, so this tells nobody anything new."""
        cards = self.of(s, handle)
        known = self.proven.get(handle)
        return cards if cards is None or known is None else cards & known

    def proved(self, handle: int, cards: Sequence[str]) -> None:
        """A proof at this step showed ``handle`` holds one of ``cards``."""
        known = self.proven.get(handle)
        self.proven[handle] = frozenset(cards) if known is None else known & frozenset(cards)


_LINEAGES: WeakKeyDictionary[Any, Lineage] = WeakKeyDictionary()


def lineage(s: Session) -> Lineage:
    """The session's :class:`Lineage` (made on first use, scanned on as the game goes)."""
    found = _LINEAGES.get(s)
    if found is None:
        found = _LINEAGES[s] = Lineage()
    return found


@dataclasses.dataclass(frozen=True)
class Owed:
    """What the claims of one input need: proofs (``statements``), and the claims whose cards are all
    public already, judged at once from the record (``judged``: claim log position, claim, holds)."""

    statements: tuple[Statement, ...] = ()
    judged: tuple[tuple[int, Claim, bool], ...] = ()


def owed(s: Session, seat: int, before: Any, after: Any) -> Owed:
    """Every (claim, card) proof ``seat`` owes for the claims its input made, in log then card order,
    and the claims the record judges at once."""
    book = s.book
    if book is None:
        return Owed()
    opened = s.caps.open_cards(before)
    statements: list[Statement] = []
    judged: list[tuple[int, Claim, bool]] = []
    for index, claim in new_claims(s.caps, before, after):
        if claim.seat != seat or not claim.about or len(set(claim.about)) != len(claim.about):
            continue  # another seat's claim, made by a seat deciding for it: the audit judges it
        public = [public_card(book, opened, h) for h in claim.about]
        if None not in public:
            verdict = _judge(s.game, claim, tuple(c for c in public if c is not None))
            if verdict is not None:
                judged.append((index, claim, verdict))
            continue
        parts = _statements(s, book, seat, index, claim, public)
        if isinstance(parts, bool) or parts == []:
            judged.append((index, claim, parts == []))  # shown false by a public card; or implied already
        elif parts is not None:
            statements.extend(parts)
    return Owed(tuple(statements), tuple(judged))


def public_card(book: CardBook, opened: Mapping[int, str], handle: int) -> str | None:
    """The card behind ``handle`` when every peer knows it from the record alone (else None)."""
    card = opened.get(handle) or book.identified.get(handle)
    if card is not None or handle not in book.cipher:
        return card
    point = book.trivial_point(handle)
    return None if point is None else book.public_points.get(point) or book.opened.get(point)


def _judge(game: Any, claim: Claim, contents: tuple[str, ...]) -> bool | None:
    """The game's judgement of a claim whose cards are all public (None: it cannot read them now)."""
    try:
        return bool(game.claim_holds(claim, contents))
    except (EngineError, KeyError, ValueError, TypeError, IndexError):
        return None


def _statements(s: Session, book: CardBook, seat: int, index: int, claim: Claim,
                public: Sequence[str | None]) -> list[Statement] | bool | None:
    """The proofs one claim about some hidden cards needs; None when it waits for the audit (module
    docstring); False when a public card it is about already shows it false."""
    if not s.plan.claim_per_card(claim):
        return None
    parts = []
    for handle, card in zip(claim.about, public):
        if card is not None:
            if not _holds(s.game, claim, card):
                return False
            continue
        held = book.held.get(handle)
        if held is None or held.holder != seat:
            return None
        may_hold = lineage(s).narrowed(s, handle)
        if may_hold is None:
            return None
        cards = tuple(c for c in sorted(may_hold) if _holds(s.game, claim, c))
        if len(cards) == len(may_hold):
            continue  # every card it may hold makes the claim true: proven already (Lineage.narrowed)
        parts.append(Statement(index, claim, handle, cards))
    if sum(len(p.cards) for p in parts) > MAX_CANDIDATES:
        return None  # the audit is cheaper: one claim's proofs stay within about 35 ms to make and to check
    return parts


def _holds(game: Any, claim: Claim, card: str) -> bool:
    """The game's own judgement of the claim with ``card`` alone (a card it cannot read: no)."""
    try:
        return bool(game.claim_holds(claim, (card,)))
    except (EngineError, KeyError, ValueError, TypeError, IndexError):
        return False


def _points(book: CardBook, cards: Sequence[str]) -> list[bytes] | None:
    """The public card points of ``cards`` (None when one is not a public card of this table)."""
    by_card = {card: point for point, card in book.public_points.items()}
    points = [by_card.get(card) for card in cards]
    return None if any(p is None for p in points) else [p for p in points if p is not None]


def _under_key(book: CardBook, handle: int) -> tuple[bytes, bytes]:
    """(c1, C'): the card's first component and the card under its holder's key alone."""
    held = book.held[handle]
    c1, c2 = held.cipher
    under = c2
    for _, share in held.shares:
        under = g.sub(under, share)
    return c1, under


def make(s: Session, statements: Sequence[Statement]) -> list[list[Any]]:
    """Our proof parts, ``[claim index, handle, proof or None]`` each: None where our own card does
    not make our claim true (the action is a lie; every peer convicts us for it)."""
    book, me = s.book, s._secrets
    assert book is not None and me is not None
    parts: list[list[Any]] = []
    for st in statements:
        ctx = Context(book.game, s.step, st.claim.seat)
        points = _points(book, st.cards)
        card = book.known_point.get(st.handle)
        proof: dict[str, list[bytes]] | None = None
        if points and card is not None and card in points:
            c1, under = _under_key(book, st.handle)
            proof = prove_claim(ctx, st.encoded(), points, me.x, c1, under, card)
        parts.append([st.index, st.handle, proof])
    return parts


class ClaimProofFailed(BadCardProof):
    """A claim made at this step is not proven as the table requires: the seat is convicted."""

    def __init__(self, message: str, *, seat: int) -> None:
        super().__init__(message, seat=seat, proof="claim")


def check(s: Session, seat: int, owes: Owed, raw: Any, *, mine: bool = False) -> None:
    """Raise :class:`ClaimProofFailed` naming ``seat`` unless every claim the record judges holds and
    ``raw`` proves every statement.

    ``mine``: our own message, whose proofs we made: only its shape and the lies it admits
    (a part without a proof) are checked."""
    book = s.book
    assert book is not None
    for _, claim, holds in owes.judged:
        if not holds:
            raise ClaimProofFailed(f"its claim {claim.describe()!r} is false: the record shows the cards "
                                   f"{list(claim.about)} it is about", seat=seat)
    statements = owes.statements
    if not isinstance(raw, (list, tuple)) or len(raw) != len(statements):
        raise ClaimProofFailed(f"its action must carry exactly {len(statements)} claim proof(s) "
                               f"(one per card of each claim it makes about its own cards)", seat=seat)
    for st, part in zip(statements, raw):
        what = f"its claim {st.claim.describe()!r} about card {st.handle}"
        if not isinstance(part, (list, tuple)) or len(part) != 3 or part[0] != st.index or part[1] != st.handle:
            raise ClaimProofFailed(f"{what}: a claim proof part is [claim index {st.index}, handle {st.handle}, "
                                   "proof]", seat=seat)
        if part[2] is None:
            raise ClaimProofFailed(f"{what} comes without a proof: its own card does not make it true", seat=seat)
        if not st.cards:
            raise ClaimProofFailed(f"{what} cannot be true of any card", seat=seat)
        if mine:
            continue
        points = _points(book, st.cards)
        if points is None:
            raise ClaimProofFailed(f"{what} names cards outside this table's public cards", seat=seat)
        c1, under = _under_key(book, st.handle)
        ctx = Context(book.game, s.step, seat)
        try:
            verify_claim(ctx, st.encoded(), points, book.keys.keys[seat], c1, under, part[2])
        except (CardProtocolError, ValueError, TypeError) as exc:
            detail = getattr(exc, "detail", None) or str(exc)
            raise ClaimProofFailed(f"{what}: {detail}", seat=seat) from None


def record(s: Session, owes: Owed) -> None:
    """The claims checked at the current step (before it is applied): proven, or judged from the record."""
    for st in owes.statements:
        s.claims_proven[st.index] = s.step
        lineage(s).proved(st.handle, st.cards)
    for index, _, holds in owes.judged:
        if holds:
            s.claims_proven[index] = s.step


def status(s: Session, index: int) -> str:
    """:data:`PROVEN` or :data:`WAITS` for the claim at ``index`` of the claim log (client and log)."""
    return PROVEN if index in s.claims_proven else WAITS


def counts(s: Session) -> dict[str, int]:
    """How many claims were proven at their step and how many wait for (or waited for) the audit."""
    total = len(s.caps.claims(s.state))
    proven = sum(1 for i in s.claims_proven if i < total)
    return {"claims": total, "proven_at_step": proven, "waited_for_audit": total - proven}


def report(s: Session) -> dict[str, Any]:
    """:func:`counts` and, per claim proven at its step, [claim log position, step] (tools.verify --json)."""
    total = counts(s)
    return {**total, "proven": [[i, k] for i, k in sorted(s.claims_proven.items()) if i < total["claims"]]}
