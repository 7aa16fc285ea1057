"""The characters' abilities outside combat (KMC 2.2): conversion, shape change and the
author's privilege. (Release is part of the prison, engine/locke/turn.py; disintegration
acts inside a combat.)

KMC lets these be used "at any time". Like the kept planet cards, they are offered as
free options inside the seat's own movement decision (ruling N168; the decision is
engine/locke/turn.py's ``Move`` step, which calls :func:`on_move_ability`): asking
everyone at every moment would be endless, and an extra prompt only to the holders would
tell the table who holds one. After using one the same decision comes back.

- **Conversion** (Locke and Liza, KMC 2.2.1): the user turns its character card face up
  (a reveal: naming the ability with another card is caught as a cheat), names a player on
  its cell it has not tried since either of them last changed character or came back to
  life, and takes a level check. A pass converts an E/G character to Good until it next
  comes back to life; the target's card stays hidden and says nothing, so the engine keeps
  a public "converted" mark that only the final judging reads (KMC 6.3). The reveal is the
  typed step :class:`ConversionReveal` (engine/locke/steps.py says what a step carries).
- **Shape change** (KMC 2.2.5): the user takes a free silhouette of the same alignment
  (Good, Evil, Special) as the one it shows; a claim that its character has the ability.
- **Author's privilege** (Yuki Hijiri, KMC 2.2.3): the same change made to another player
  on the user's cell, unless that player has shown it can shape-change; a claim too.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import CardsRevealed, Pending
from engine.locke import claims as ck
from engine.locke import fate, kit, stats
from engine.locke.actions import UseAbility
from engine.locke.components import Character
from engine.locke.setup import cheat, free_silhouettes, own_character
from engine.locke.state import OFF_BOARD, LockeState, advance, claimed, log, with_seat
from engine.locke.steps import LockeStep, Rules, Then, Waiting, answers

RULE = "locke.2.2"
CONVERSION, SHAPE_CHANGE, PRIVILEGE = "conversion-check", "shape-change", "authors-privilege"
ABILITIES = (CONVERSION, SHAPE_CHANGE, PRIVILEGE)


def _faces(g: Rules, s: LockeState, seat: int) -> list[str]:
    """Free silhouettes of the alignment ``seat`` shows (KMC 2.2.3, 2.2.5), in data order."""
    shown = s.seats[seat].silhouette
    side = g.components.silhouette(shown).attribute
    free = frozenset(free_silhouettes(g, s))  # membership only
    return [sil.id for sil in g.components.silhouettes if sil.id in free and sil.id != shown and sil.attribute == side]


def _here(s: LockeState, seat: int) -> list[int]:
    """The other living players on ``seat``'s cell (on the board)."""
    place = s.seats[seat].place
    return [i for i, q in enumerate(s.seats) if i != seat and q.alive and q.place == place and place != OFF_BOARD]


def _convertible(s: LockeState, seat: int) -> list[int]:
    return [i for i in _here(s, seat) if i not in s.seats[seat].converts]


def _privilege_targets(s: LockeState, seat: int) -> list[int]:
    return [i for i in _here(s, seat) if not s.seats[i].shifter]


def move_options(g: Rules, s: LockeState, seat: int, me: Character | None, k: Knowledge | None) -> list[UseAbility]:
    """The abilities ``seat`` may use now, from its own knowledge (honest), or every option
    the public record allows (``me`` unknown)."""
    p = s.seats[seat]
    if p.status != "normal" or p.place == OFF_BOARD:
        return []
    def has(ability: str) -> bool:  # Hijiri's whim may have taken the card's abilities (engine/locke/kit.py)
        return kit.has_ability(me, p.mods, ability)

    out: list[UseAbility] = []
    if has(CONVERSION):
        top = fate.most(g, s, seat, "level") if me is None else stats.current(me, p.mods, p.proofs, "level")
        out += [UseAbility(seat, CONVERSION, t, "", level) for t in _convertible(s, seat) for level in range(0, top + 1)]
    if has(SHAPE_CHANGE):
        out += [UseAbility(seat, SHAPE_CHANGE, seat, face) for face in _faces(g, s, seat)]
    if has(PRIVILEGE):
        out += [UseAbility(seat, PRIVILEGE, t, face) for t in _privilege_targets(s, seat) for face in _faces(g, s, t)]
    return out


def on_move_ability(g: Rules, s: LockeState, seat: int, action: UseAbility) -> LockeState:
    """A free option of ``seat``'s movement decision (engine/locke/turn.py Move): the move is
    still to come afterwards."""
    if s.seats[seat].status != "normal":
        raise IllegalAction("only a player in a normal state can use an ability now", rule=RULE)
    if kit.lost(s.seats[seat].mods):  # seed 002 event 11 (N275): the whim took every printed ability
        raise IllegalAction("Hijiri's whim took your card's abilities", rule="locke.s002.event.11")
    if action.ability == CONVERSION:
        if action.target not in _convertible(s, seat):
            raise IllegalAction("name a player on your cell you have not tried to convert yet", rule="locke.2.2.1")
        if action.level not in fate.check_range(g, s, seat, "level"):
            raise IllegalAction("declare a level from 0 to yours for the conversion check", rule="locke.2.2.1")
        reveal = ConversionReveal(seat, action.target, action.level)
        return s._replace(queue=(reveal,) + s.queue)  # the movement decision stays at the head
    if action.ability not in (SHAPE_CHANGE, PRIVILEGE):
        raise IllegalAction(f"use one of the abilities {', '.join(ABILITIES)}", rule=RULE)
    allowed = [seat] if action.ability == SHAPE_CHANGE else _privilege_targets(s, seat)
    if action.target not in allowed or action.choice not in _faces(g, s, action.target):
        rule = "locke.2.2.5" if action.ability == SHAPE_CHANGE else "locke.2.2.3"
        raise IllegalAction("pick a free silhouette of the same alignment"
                            + ("" if action.ability == SHAPE_CHANGE else " for a player on your cell who has "
                               "not shown they can shape-change"), rule=rule)
    claim = ck.make(seat, s.step_no, ck.HAS_ABILITY, (s.seats[seat].character,), action.ability, RULE)
    s = s._replace(**claimed(s, claim))
    old = s.seats[action.target].silhouette
    if action.ability == SHAPE_CHANGE:  # KMC 2.2.1 note: a shape change clears the tries on it
        s = fate.forget(s, seat, own=False)
    target = s.seats[action.target]
    target = target._replace(silhouette=action.choice, shifter=target.shifter or action.ability == SHAPE_CHANGE)
    s = s._replace(seats=with_seat(s, action.target, target))
    return log(s, "ability", seat, action.ability, action.target, old, action.choice)  # the decision stays


def revealed_user(g: Rules, s: LockeState, seat: int, action: CardsRevealed, ability: str, rule: str) -> LockeState:
    """An ability's user has shown its card (KMC 2.2): a card without ``ability`` is a cheat
    named on ``seat``; otherwise the seat is exposed and the card is public from now on."""
    card = action.cards[0]
    if not g.components.character(card).has_ability(ability):
        raise cheat(seat, f"tried {ability} as {card}, who has no such ability", rule)
    s = s._replace(seats=with_seat(s, seat, s.seats[seat]._replace(exposed=True)),
                   open_cards=s.open_cards + ((action.handles[0], card),))
    return s


@dataclasses.dataclass(frozen=True)
class ConversionReveal(Waiting):
    """KMC 2.2.1 step 1: the converter turns its own character card face up for everyone,
    then takes the level check it declared (``level``) to convert ``target``."""

    KIND: ClassVar[str] = "ability_reveal"
    seat: int
    target: int
    level: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return own_character(s, self.seat)

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        """Only Locke and Liza convert; the try on the target is used whatever the check says."""
        s = revealed_user(g, s, self.seat, action, CONVERSION, "locke.2.2.1")
        p = s.seats[self.seat]
        s = s._replace(seats=with_seat(s, self.seat, p._replace(converts=p.converts + (self.target,))))
        s = log(s, "ability", self.seat, CONVERSION, self.target)
        claim = fate.stat_claim(s, self.seat, "level", "le", self.level, "locke.2.2.1")
        s, check = fate.declared_check(s._replace(**claimed(s, claim)), self.seat, stat=fate.CheckStat.LEVEL,
                                       value=self.level, then=AfterConversion(self.target))
        return s._replace(queue=(check,) + s.queue[1:])


@dataclasses.dataclass(frozen=True)
class AfterConversion(Then):
    """KMC 2.2.1: a pass marks the ``target`` converted; it is Good from now if it is E/G."""

    KIND: ClassVar[str] = "abilities.conversion"
    target: int

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        target = self.target
        if success and s.seats[target].alive:
            s = s._replace(seats=with_seat(s, target, s.seats[target]._replace(converted=True)))
            s = log(s, "conversion", seat, target)
        return advance(s)


#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = (ConversionReveal,)
