"""What a Locke seat aims at: the cells it heads for, whom it wants dead, whom it rides with.

Why a module of its own: the heuristic bot (net/games/locke/heuristic.py) answers each prompt
by one rule of thumb, and several of them ask the same questions about the seat's goals -
where to go (moves), whom to declare a combat on (fights), whom to invite (parties). The
answers depend on the seat's side and its own victory condition (KMC 6.3.2, table 2.1;
docs/rules/locke.md "The heuristic bot") and are gathered here, one :class:`Aims` per
decision, from the seat's beliefs (net/games/locke/beliefs.py) only.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.core.hidden import Knowledge
from engine.locke.components import ComponentSet
from engine.locke.stats import current
from net.games.locke import moves
from net.games.locke.beliefs import GOOD_SURE, Beliefs

#: Key bases (KMC 9.3.1).
KEY_BASES = ("command-room", "laboratory", "computer-room", "energy-room")
#: Declare a combat on (and hunt) a seat whose enemy score reaches this, by own side:
#: Good needs an Evil face or more, Evil strikes at anything that looks Good.
ATTACK_AT = {"good": 3, "evil": 1, "special": 1}
#: Turns per seat after which a stalled game is "late" (see :func:`attack_at`).
LATE_FIGHT = 45
#: Fruitless combats declared on one seat before this seat stops hunting it (see :func:`futile`).
FUTILE = 2
#: Fit to fight: at least this durability left, and this ESP level or an item.
FIT_DURABILITY = 3
FIT_LEVEL = 4


@dataclasses.dataclass(frozen=True)
class Aims:
    """One decision's aims: the components, the seat's own knowledge, whether the game runs late."""

    components: ComponentSet
    knowledge: Knowledge
    late: bool

    def goals(self, components: ComponentSet, state: Any, knowledge: Knowledge, b: Beliefs) -> list[str]:
        """The cells this seat heads for now (see net/games/locke/moves.py)."""
        me = state.seats[b.seat]
        hunting = self.prey(state, b)
        if b.me is not None and b.me.victory.kind == "survive-in-party-with" and me.leader < 0 \
                and not any(q.leader == b.seat for q in state.seats):
            company = [q.place for i, q in enumerate(state.seats)
                       if q.alive and q.place and q.status == "normal" and self.wants_party(state, b, i)]
            if company:
                return company
        if state.phase == "base":
            if b.me is not None and b.me.has_ability("authors-privilege"):
                king = moves.face_up(state, ("king-editorial-room",))
                if king and "king" not in me.tried:
                    return king
            if b.my_side == "evil":
                guard = my_key_bases(state, knowledge)
                return hunting or guard or moves.face_down_cells(state)
            if b.my_side == "good" or (b.me is not None and b.me.victory.kind == "present-at-finale"):
                keys = moves.face_up(state, KEY_BASES)
                nova = moves.face_up(state, ("nova",)) if "nova" not in me.tried and b.my_side == "good" else []
                if keys or nova:
                    return keys + nova
            if me.base_player:  # KMC 9.3.2: a base player turns no base card; it hunts or keeps company
                company = [q.place for i, q in enumerate(state.seats) if i != b.seat and q.alive and q.place]
                return hunting or company
            return hunting + moves.face_down_cells(state) if hunting else moves.face_down_cells(state)
        cards = moves.face_down_cells(state)
        if hunting and (b.my_side == "evil" or not cards):
            return hunting
        # the search comes first (KMC 7.2): only a prey next to this seat is worth the detour
        near = [c for c in hunting if me.place and moves.distance(me.place, c) <= 1]
        return cards + near

    def prey(self, state: Any, b: Beliefs) -> list[str]:
        """Cells of believed enemies worth a fight (only when this seat is fit)."""
        if not self.fit(b):
            return []
        threshold = attack_at(state, b)
        return [q.place for i, q in enumerate(state.seats)
                if i != b.seat and q.alive and q.place and self.target_score(state, b, i) >= threshold
                and not futile(state, b, i)]

    def target_score(self, state: Any, b: Beliefs, other: int) -> int:
        """How much this seat wants ``other`` dead (its side's enemies; a Special's own prey)."""
        if b.my_side != "special" or b.me is None:
            return b.enemy_score(other)
        rule = b.me.victory
        card = b.known[other]
        if rule.kind == "present-at-finale":  # N24: be in the last combat; any fight will do
            return 2 if b.seat not in state.last_combat else -5
        if rule.kind in ("dead-share-of-others", "dead-share-of-all"):
            return 2  # every death helps Elmi and Dr. Wong
        if rule.kind in ("lose-if-any-alive", "kill-personally"):
            targets = rule.params.get("targets", ())
            names = targets if isinstance(targets, tuple) else ()
            if card is not None:
                return 5 if any(isinstance(t, str) and t in self._counts(state, card) for t in names) else -5
            return 1
        if rule.kind == "no-other-alive-at-level":
            level = rule.params.get("level", 5)
            if card is None:
                return 1
            q = state.seats[other]
            high = current(self.components.character(card), q.mods, q.proofs, "level")
            return 5 if isinstance(level, int) and high >= level else -5
        return -5

    def _counts(self, state: Any, card: str) -> tuple[str, ...]:
        return self.components.character(card).counts_as 

    def wants_party(self, state: Any, b: Beliefs, other: int) -> bool:
        """Whom this seat rides with: friends; Jessica any single man by the look of him (KMC table 2.1)."""
        if other == b.seat or other in b.declined:
            return False  # once turned down, it does not ask again
        if state.phase == "planet" and state.seats[other].base_player:
            return False  # base players take no planet-phase turns (KMC 7.2)
        if b.me is not None and b.me.victory.kind == "survive-in-party-with":
            card = b.known[other]
            if card is not None:
                c = self.components.character(card)
                return c.sex == b.me.victory.params.get("sex") and c.marital == b.me.victory.params.get("marital")
            face = state.seats[other].silhouette
            return bool(face) and self.components.silhouette(face).sex == b.me.victory.params.get("sex")
        return b.friend(other)

    def fit(self, b: Beliefs) -> bool:
        """Strong enough to start a fight: durability to spare and a level or an item to fight with
        (Yuki Hijiri, with neither, fights only to be present at the end, N24)."""
        if b.me is not None and b.me.victory.kind == "present-at-finale":
            return b.durability >= FIT_DURABILITY
        if self.late:
            return b.durability >= 1
        return b.durability >= FIT_DURABILITY and (b.level >= FIT_LEVEL or bool(b.me and b.me.items))


def attack_at(state: Any, b: Beliefs) -> int:
    """The enemy score at which this seat declares a combat or hunts (:data:`ATTACK_AT`); late in
    a game (:data:`LATE_FIGHT` turns per seat) anyone not believed a friend, and twice as late anyone
    not firmly a friend, so that a stalled table ends."""
    per_seat = state.turn // max(1, state.n)
    if per_seat >= 2 * LATE_FIGHT:
        return GOOD_SURE + 1  # very late: anyone not a firm friend
    if per_seat >= LATE_FIGHT:
        return min(0, ATTACK_AT.get(b.my_side, 1))
    return ATTACK_AT.get(b.my_side, 1)


def futile(state: Any, b: Beliefs, other: int) -> bool:
    """This seat has declared :data:`FUTILE` combats on ``other`` that killed nobody: let it be for
    now (a fight it cannot win only lengthens the game); the count is forgiven late in the game."""
    per_seat: int = state.turn // max(1, state.n)
    return b.futile[other] >= FUTILE * (1 + per_seat // LATE_FIGHT)


def my_key_bases(state: Any, knowledge: Knowledge) -> list[str]:
    """Key-base cells this seat placed or was shown, still standing (its own notes)."""
    cells: list[str] = []
    for note in knowledge.notes:
        if note.topic in ("placed:keybases", "disclosed:keybases"):
            for pair in note.data:
                cell, thing = str(pair[0]), str(pair[1])
                if thing in KEY_BASES and cell not in cells:
                    cells.append(cell)
    standing = {key: cell for key, cell in state.cells}
    return [c for c in cells if c in standing and standing[c].face_up not in ("corridor",)
            and (standing[c].handle is not None or standing[c].face_up in KEY_BASES)]
