"""A seat that leaves a running game of three or more seats: the others play on without it.

A resignation (net/session/resign.py) ends the game for everyone; at a
table of five to ten that is too much for one player going home. A seat
that *leaves* signs one ``leave`` message and is gone (docs/security.md,
"A seat that leaves"; docs/rules/locke-rulings.md N270):

- it publishes its per-game card secret ``x`` (every peer checks ``x*G``
  against the key it announced) and the openings of every cell of its
  placements not yet opened;
- from then on every peer computes its decryption shares itself (no proof
  is needed: the key is public and checked once), shuffles skip it, rolls
  are made by the other seats' contributions alone, and its placement cells
  open from the published openings;
- its character stays in the game, played by a *stand-in*: every peer
  derives the same choice from public data alone (the stand-in's agent from
  the table plan, seeded with the game id and the step; its knowledge is the
  seat's own cards, all decryptable by everyone now), and applies it as the
  seat's input. Its sealed choices are made the same way, after the other
  seats' commitments, by the same public rule;
- it signs nothing more: it is excused from the audit and the final record.

What this gives away and what it keeps is the point of the design: with
``x`` public, every card the leaver drew privately becomes readable by all
(every other seat's share of it is already on record), so its own secrets
are opened; a card held by another seat still needs its holder's share, a
deck card every remaining seat's share, and a share sealed to the leaver
still needs its box key, which it does not publish. So the leaver's going
opens only what was its own.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.actions import Action
from engine.core.encoding import encode
from engine.core.hashing import digest
from engine.core.hidden import Knowledge
from engine.core.inputs import SealedPick
from engine.core.pending import Chance, Decision, SealedChoice
from net.envelope import DICE_VRF, Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.poker import group as g
from net.poker.errors import BadCardMessage
from net.poker.protocol import RevealRound
from net.session.dice_rounds import DICE_SECRET
from net.session.events import Left

if TYPE_CHECKING:
    from net.session.core import Session

#: How the end of a game that leaves left to one playing seat begins its reason (end_for_too_few;
#: net/session/play.py knows such a final record by it).
TOO_FEW = "seats left the game until only one seat still played"

__all__ = ["body", "excuse_reveal", "on_leave", "public_knowledge", "stand_in_choice"]

STAND_IN_DOMAIN = "fairtable/stand-in/v1"


def body(s: Session, cells: list[list[Any]]) -> dict[str, Any]:
    """Our ``leave`` message: the step, our card secret and ``cells``, the openings of our
    never-opened cells (net.session.placement.audit_cells)."""
    if s._secrets is None:
        raise ValueError("this seat has no card secrets yet (the game has not started); resign instead")
    message: dict[str, Any] = {"step": s.step, "key": g.sb(s._secrets.x), "cells": cells}
    if s.genesis.dice == DICE_VRF:  # our dice secret too: our part of every later roll is then anyone's to compute
        secret = s._saved_secret(DICE_SECRET)
        if secret is None:
            raise ValueError("this seat has no dice key yet (the game has not started); resign instead")
        message["dice"] = g.sb(int(secret))
    return message


def on_leave(s: Session, env: Envelope) -> None:
    """A seat's ``leave``: check it, record the seat as gone, and let the current round go on without it."""
    seat, data = env.seat, env.body
    fields = {"step", "key", "cells"} | ({"dice"} if s.genesis.dice == DICE_VRF else set())
    if not isinstance(data, Mapping) or set(data) != fields:
        raise MalformedMessage(f"a leave message is a map of {sorted(fields)} (the step, the card secret, "
                               "the openings of its cells and, with one-phase dice, its dice secret)", seat=seat)
    if data["step"] != env.seen.step:
        raise MalformedMessage(f"its leave names step {data['step']!r}, but it was signed at step {env.seen.step}",
                               seat=seat)
    if s.phase != "play" or s.book is None:
        raise UnexpectedMessage("left outside play (before the game began or after it ended): it may resign "
                                "instead", seat=seat)
    if seat in s.left:
        raise UnexpectedMessage("sent a second leave message", seat=seat)
    playing = len(s.seats) - len(s.left)
    if len(s.seats) <= 2 or playing < 2:
        raise UnexpectedMessage("left a table of two: with one seat left the game cannot go on; resign instead",
                                seat=seat)
    x = g.decode_scalar(data["key"], seat=seat, what="published card secret")
    if g.base_mul(x) != s.book.keys.keys[seat]:
        raise BadCardMessage("published a card secret that is not the key it announced", seat=seat)
    d = None
    if "dice" in fields:
        d = g.decode_scalar(data["dice"], seat=seat, what="published dice secret")
        if g.base_mul(d) != s.dice_keys.get(seat):
            raise BadCardMessage("published a dice secret that is not the dice key it announced", seat=seat)
    current = s.current_round
    refused = current.refuse_leave(seat) if current is not None else None
    if refused is not None:
        raise UnexpectedMessage(refused, seat=seat)
    cells = s.placements.open_owed(seat, data["cells"])  # every check before any change
    for handle, opening in cells.items():
        s.placements.openings[handle] = opening
        s.placements.contents[handle] = str(opening.value)
    s.left[seat] = x
    s.left_at[seat] = env.seen.step
    if d is not None:
        s.left_dice[seat] = d
    s.gone.add(seat)
    event = Left(seat, s.names[seat], env.seen.step)
    s._event(event)
    if seat == s.seat and s.halted is None:  # our own leave, read back from our journal after a restart
        s.halted = event  # we sign nothing more (Session.leave halts the same way when it sends it)
    if playing == 2:  # one seat would play on alone: the game ends here (end_for_too_few)
        end_for_too_few(s)
        return
    if current is not None:
        current.excuse(s, seat)


def end_for_too_few(s: Session) -> None:
    """The leave just taken left one seat playing: end the game, unaudited, with no single winner.

    Two seats of a table of three can leave in the same instant, each before it read the other's
    leave (its player is gone either way). Refusing the one a peer reads second stalled the last
    seat, and which one that was depended on the order of arrival. So such a leave is taken like
    any other and ends the game, and where it ends follows from the set of leaves alone: at the
    latest step any leave was signed at (every peer reads the same leaves before the end, in
    whatever order; the steps before it were played the same, since no seat could pass a step
    that waited for a leaver without its leave). A part another seat signed from that step on
    arrives as a late part, as after a resignation (net.session.late; no horizon is known here).
    Ending gives the leaver nothing it could not get by resigning."""
    step = max(s.left_at.values())
    s.ended_by_leaves = step
    outcome = {"winner": None,
               "reason": f"{TOO_FEW} (the last leave was signed at step {step}): the game ended early with no "
                         "single winner"}
    s._end_early(outcome, "not audited: too few seats still play", resigned_at=step, horizon=None)


def excuse_reveal(s: Session, rnd: RevealRound) -> None:
    """Complete a reveal round's shares for every seat that left (computed from its published key)."""
    for seat, x in s.left.items():
        if seat not in rnd.waiting_for():
            continue
        for i, cipher in enumerate(rnd.cards):
            rnd._shares[i][seat] = g.mul(x, cipher[0])
        rnd._received.add(seat)


def public_knowledge(s: Session, seat: int) -> Knowledge:
    """What every peer knows of a seat that left: every card it held (its key is public), its placements."""
    assert s.book is not None
    x = s.left[seat]
    book = s.book
    cards: list[tuple[int, str]] = []
    for handle, held in book.held.items():
        if held.holder != seat:
            continue
        c1, c2 = held.cipher
        shares = [p for _, p in held.shares] + [g.mul(x, c1)]
        point = g.sub(c2, g.total(shares))
        card = book.public_points.get(point) or book.opened.get(point)
        if card is not None:
            cards.append((handle, card))
    for index, placed in enumerate(s.placements.placed):
        if placed.placer == seat:
            cards.extend((h, s.placements.contents[h]) for h in placed.handles if h in s.placements.contents)
    cards.extend((h, c) for h, c in book.identified.items())
    return Knowledge(seat).learn(cards)


def _agent(s: Session, seat: int, what: str) -> Any:
    rng = random.Random(digest(STAND_IN_DOMAIN, (s.gid, s.step, seat, what)).hex())
    return s.plan.stand_in(rng)


def stand_in_choice(s: Session, seat: int, options: list[Any]) -> Any:
    """The stand-in's pick among ``options`` for a seat that left (the same on every peer)."""
    if not options:
        raise RuntimeError(f"seat {seat} left and the rules offer it nothing to choose at step {s.step}")
    return _agent(s, seat, "choose").choose(s.game, s.state, seat, public_knowledge(s, seat), options)


def stand_in_action(s: Session, pending: Decision) -> Action:
    """The input for a seat that left, at its decision: the stand-in's choice among its legal actions."""
    knowledge = public_knowledge(s, pending.seat)
    legal = list(s.game.legal_actions(s.state, pending.seat, knowledge))
    chosen = stand_in_choice(s, pending.seat, legal)
    if not isinstance(chosen, Action):
        raise RuntimeError(f"the stand-in of seat {pending.seat} chose {chosen!r}, not an action")
    return chosen


def apply_stand_in(s: Session, pending: Decision) -> None:
    """Apply the stand-in's action for a seat that left; the cards it plays are public already."""
    assert s.book is not None
    action = stand_in_action(s, pending)
    known = public_knowledge(s, pending.seat)
    proven = [(h, card) for h, card in s.plan.claims(action) if h in s.book.held]
    for handle, card in proven:
        if known.card(handle) != card:
            raise RuntimeError(f"the stand-in of seat {pending.seat} named card {handle} as {card!r}")
    s._apply(action)
    for handle, card in proven:
        s.book.held.pop(handle, None)
        s.book.identified[handle] = card


def sealed_value(s: Session, pending: SealedChoice, seat: int) -> Any:
    """The stand-in's sealed choice for a seat that left (made public only with the others' reveals)."""
    honest = s.caps.honest_options(s.state, seat, public_knowledge(s, seat), pending.options_for(seat))
    picks = [SealedPick(seat, pending.purpose, o) for o in honest]
    chosen = stand_in_choice(s, seat, list(picks))
    return chosen.choice if isinstance(chosen, SealedPick) else encode(chosen)


def active(s: Session, seats: tuple[int, ...]) -> tuple[int, ...]:
    """``seats`` without the ones that left."""
    return tuple(seat for seat in seats if seat not in s.left)


def takes_part(pending: Any) -> bool:
    """Whether a pending input is a joint round the seats that left are dropped from."""
    return isinstance(pending, (Chance, SealedChoice))
