"""What one Locke seat believes about the others, from its own view only.

Why a module of its own: every decision of the heuristic bot (net/games/locke/heuristic.py)
asks the same questions - who is on my side, who is my enemy, what does a declaration
give me - and all of them must rest on what the seat may see: the public state (faces,
deaths, the public log, ``seen_by``), and from its :class:`~engine.core.hidden.Knowledge`
only its own cards and the character cards the public record says it has seen. The
gate is :func:`allowed_character`: a card of another seat is read from the knowledge
only when the public state shows this seat saw it (``seen_by``), or it is face up or
opened to everyone. The scramble test (tests/net/test_locke_heuristic.py) fills the
knowledge with false cards for everything else and checks the choices stay the same.

Beliefs are integer scores (no floats in anything that replays): ``evil[i]`` grows with
evidence that seat ``i`` plays for Evil, and shrinks with evidence for Good. The
evidence (docs/rules/locke.md "The heuristic bot"): an Evil face (the base players,
KMC 7.1.9), a destroyed key base (a claim of being Good now, KMC 9.3.1), a conversion,
who declared a combat against whom.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from engine.core.hidden import Knowledge
from engine.locke.components import Character, ComponentSet
from engine.locke.stats import current

#: Scores at or beyond these count as a firm belief.
EVIL_SURE, GOOD_SURE = 4, -4
#: A known card's score: beyond any evidence.
KNOWN = 100

SIDES = ("good", "evil", "special")


def allowed_character(state: Any, seat: int, knowledge: Knowledge, other: int,
                      open_cards: Mapping[int, str] | None = None) -> str | None:
    """``other``'s character card when the public record says ``seat`` may know it, else None
    (``open_cards``: ``dict(state.open_cards)`` when the caller has made it already)."""
    p = state.seats[other]
    opened = (open_cards if open_cards is not None else dict(state.open_cards)).get(p.character)
    if opened is not None:
        return str(opened)
    if other == seat or seat in p.seen_by or p.exposed:
        card = knowledge.card(p.character)
        return card
    return None


def side_of(character: Character, converted: bool) -> str:
    """KMC 6.3.2: an E/G character is Evil unless converted by a Locke."""
    if character.attribute == "evil-good":
        return "good" if converted else "evil"
    return character.attribute


@dataclasses.dataclass
class Beliefs:
    """One seat's picture of the table (rebuilt for every decision; cheap)."""

    seat: int
    me: Character | None
    my_side: str
    known: list[str | None]  # character ids this seat may know
    evil: list[int]  # evidence score per seat (see the module docstring)
    level: int  # my current ESP level
    durability: int  # my current durability left
    declined: tuple[int, ...] = ()  # seats that have declined this seat's party
    futile: tuple[int, ...] = ()  # per seat: combats this seat declared on it that killed nobody

    def side(self, other: int, components: ComponentSet, state: Any) -> str | None:
        """``other``'s side when known, else None."""
        card = self.known[other]
        if card is None:
            return None
        return side_of(components.character(card), state.seats[other].converted)

    def enemy_score(self, other: int) -> int:
        """How much ``other`` is against this seat (positive: an enemy), from its side and the scores."""
        if other == self.seat:
            return -KNOWN
        score = self.evil[other]
        if self.my_side == "good":
            return score
        if self.my_side == "evil":
            return -score
        return 0

    def enemy(self, other: int) -> bool:
        return self.enemy_score(other) >= EVIL_SURE

    def friend(self, other: int) -> bool:
        return self.enemy_score(other) <= GOOD_SURE


def build(components: ComponentSet, state: Any, seat: int, knowledge: Knowledge,
          digest: LogDigest | None = None) -> Beliefs:
    """The beliefs of ``seat`` now (see the module docstring for the evidence); ``digest``
    is the log read so far (:class:`LogDigest`, kept by the caller between decisions)."""
    n = state.n
    open_cards = dict(state.open_cards)
    known = [allowed_character(state, seat, knowledge, i, open_cards) for i in range(n)]
    my_id = known[seat]
    me = components.character(my_id) if my_id is not None else None
    p = state.seats[seat]
    my_side = side_of(me, p.converted) if me is not None else "special"
    evil = [0] * n
    for i, q in enumerate(state.seats):
        card = known[i]
        if card is not None:
            side = side_of(components.character(card), q.converted)
            evil[i] = KNOWN if side == "evil" else -KNOWN if side == "good" else 0
            continue
        if q.converted:
            evil[i] = -KNOWN
            continue
        face = components.silhouette(q.silhouette).attribute if q.silhouette else ""
        evil[i] = 3 if q.base_player or face == "evil" else -1 if face == "good" else 0
    log = (digest or LogDigest()).update(state.events)
    _read_log(log, seat, known, evil, my_side)
    level = current(me, p.mods, p.proofs, "level") if me is not None else 0
    durability = (current(me, p.mods, p.proofs, "durability") - p.damage) if me is not None else 0
    declined = tuple(who for who, leader in log.declined if leader == seat)
    futile = tuple(sum(1 for a, t in log.futile if a == seat and t == i) for i in range(n))
    return Beliefs(seat, me, my_side, known, evil, level, durability, declined, futile)


@dataclasses.dataclass
class LogDigest:
    """The few log entries beliefs read, gathered once: key-base destroyers and declared
    combats (attacker, target), in log order. Extended as the log grows; rebuilt when the
    log is not the one read so far (another game, a test's scrambled copy)."""

    read: int = 0
    last: Any = None
    destroyers: list[int] = dataclasses.field(default_factory=list)
    combats: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    declined: list[tuple[int, int]] = dataclasses.field(default_factory=list)  # (who declined, whose party)
    futile: list[tuple[int, int]] = dataclasses.field(default_factory=list)  # declared combats nobody died in

    def update(self, events: Any) -> LogDigest:
        """This digest brought up to ``events`` (a fresh one when ``events`` does not extend it)."""
        digest = self
        if self.read and (len(events) < self.read or events[self.read - 1] is not self.last):
            digest = LogDigest()
        for event in events[digest.read:]:
            kind = event[0]
            if kind == "key-base-destroyed":
                digest.destroyers.append(int(event[1]))
            elif kind in ("party-declined", "cb-party-declined") and len(event) >= 3:
                digest.declined.append((int(event[1]), int(event[2])))
            elif kind == "combat" and event[1] == "declared":
                sides = event[3]
                if sides and len(sides) >= 2 and sides[0] and sides[1]:
                    digest.combats.append((int(sides[0][0]), int(sides[1][0])))
                    if not event[4]:  # nobody died in it
                        digest.futile.append((int(sides[0][0]), int(sides[1][0])))
        digest.read = len(events)
        digest.last = events[-1] if events else None
        return digest


def _read_log(digest: LogDigest, seat: int, known: list[str | None], evil: list[int], my_side: str) -> None:
    """Evidence from the public log: key bases destroyed, combats declared."""
    for who in digest.destroyers:  # KMC 9.3.1: destroying a key base is a claim of being Good now
        if known[who] is None:
            evil[who] = -KNOWN
    for attacker, target in digest.combats:
        if known[attacker] is not None:
            continue
        if target == seat and my_side in ("good", "evil"):
            evil[attacker] += 3 if my_side == "good" else -3
        elif evil[target] >= EVIL_SURE or evil[target] <= GOOD_SURE:
            # attacking a Good-looking seat is Evil's business, and the other way round
            evil[attacker] += 2 if evil[target] < 0 else -2
