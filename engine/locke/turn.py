"""Turns (KMC 8, 9), planet and base cards, prison, the phase change (KMC 7.2-7.3).

The planet phase starts (:class:`PlanetStart`) with the base players' dealt
information (seed 000 3.2.2); then turns follow the turn order (:class:`NextTurn`).
A turn is the six phases of KMC fig. 9.1 as queued steps: the declaration
(engine/locke/declare.py ``DeclarationPhase``), the check phase (ESP-proof removal,
engine/locke/fate.py), the movement decision (:class:`Move`), the instruction phase
(:class:`Instruct`), the combat and destruction phases (declare.py ``CombatPhase``,
``DestructionPhase``), then :class:`EndTurn`. A seat's state picks which phases it gets
(KMC 8): resting seats count down, arrested seats take the prison check, partners may
only stay or leave. Evil faces take no planet-phase turn (KMC 7.2.1).

Planet cards: on arrival at a face-down card the ambush placements are opened
for that cell first (each proves "here" or "not here"), then the card is
dealt to the arriving player alone; it keeps it face down (a claim that it is
an ability card) or shows it and obeys it (:func:`obey_planet`; the trap chart
is engine/locke/traps.py's). Base cards are turned face up by non-base
players and obeyed by engine/locke/base_cards.py; combats go to
engine/locke/combat/.

Every step is a typed class next to its code (engine/locke/steps.py says what a step
carries): a decision lists its honest legal actions in ``legal`` and answers each action
type in its own method; the movement decision's free options (abilities, kept planet
cards) are answered by engine/locke/abilities.py and engine/locke/planet_cards.py. A
roll of the seat's own dice (teleport, base entry, prison check) is an :class:`OwnRoll`,
which its roller may re-roll with a residential district (seed 000 3.2.4).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import (
    EMPTY,
    CardsDealt,
    CardsRevealed,
    CellsOpened,
    Chance,
    DiceRolled,
    HiddenOp,
    Pending,
    Placement,
    PlacementDisclosed,
)
from engine.locke import abilities, base_cards, board, charts, fate, kit, planet_cards, traps
from engine.locke import claims as ck
from engine.locke.claims import good_now
from engine.locke.actions import (
    Appear,
    Destroy,
    EnterBase,
    Escape,
    Fly,
    Follow,
    Identify,
    InfoCheck,
    Join,
    Keep,
    Land,
    Leave,
    Nop,
    Propose,
    Recover,
    Release,
    Surrender,
    Teleport,
    UseAbility,
    UseCard,
    Walk,
)
from engine.locke.combat.flow import begin
from engine.locke.combat.obstacles import obstacles_from
from engine.locke.components import Character
from engine.locke.declare import CombatPhase, DeclarationPhase, DestructionPhase, esp_levels, stat_now
from engine.locke.ending import end_game
from engine.locke.setup import (
    CharacterShown,
    Placing,
    Shuffle,
    ambush_owner,
    check_information_shown,
    cheat,
    fresh_zone,
    open_information,
    own_character,
)
from engine.locke.state import (
    NO_SEAT,
    OFF_BOARD,
    Cell,
    Combat,
    LockeState,
    advance,
    alive_seats,
    cell_of,
    claimed,
    lead,
    log,
    move_party,
    party_candidates,
    party_of,
    with_cell,
    with_seat,
    with_zone,
    zone_of,
)
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, Waiting, answers

BASE_CELLS: tuple[str, ...] = tuple(c.key for c in board.BASE_CELLS)
OUTER: tuple[str, ...] = tuple(c.key for c in board.OUTER_CELLS)
ENTRY: tuple[str, ...] = tuple(c.key for c in board.PRINTED_SPACEPORTS)
KEY_BASES = ("command-room", "laboratory", "computer-room", "energy-room")
KEY_ZONE = "keybases"
#: After this many turns the game is judged as it stands (our termination guard, ruling N47).
GUARD_CYCLES = 150
#: Bound on chained random teleports within one instruction phase (our addition).
MAX_CHAIN = 8
#: Base cards that do nothing on arrival.
QUIET_BASES = ("corridor", "white-hole", *KEY_BASES)


# --- helpers -------------------------------------------------------------------------


def flag(s: LockeState, *flags: str) -> LockeState:
    return s._replace(turn_flags=s.turn_flags + flags)


def spaceport_cards(s: LockeState) -> tuple[board.PlanetCell, ...]:
    found = []
    for key, c in s.cells:
        if c.face_up == "spaceport":
            cell = board.cell_from_key(key)
            if isinstance(cell, board.PlanetCell):  # spaceports are planet cells (KMC 9.2.1)
                found.append(cell)
    return tuple(found)


def is_spaceport(s: LockeState, key: str) -> bool:
    return key in ENTRY or cell_of(s, key).face_up == "spaceport"


def walk_targets(s: LockeState, key: str) -> tuple[str, ...]:
    return tuple(c.key for c in board.walk_neighbours(board.cell_from_key(key)))


def flight_targets(s: LockeState, key: str) -> tuple[str, ...]:
    if s.phase != "planet" or not is_spaceport(s, key):
        return ()
    return tuple(c.key for c in board.flight_destinations(board.cell_from_key(key), spaceport_cards(s)))


def can_recover(g: Rules, s: LockeState, seat: int) -> bool:
    """KMC 9.3.1: lost durability heals by one, except on the base cells that forbid it."""
    p = s.seats[seat]
    if p.damage <= 0:
        return False
    card = cell_of(s, p.place).face_up if s.phase == "base" else ""
    if card and card not in KEY_BASES and card != "destroyed":
        flags = g.components.base(card).flags
        if "no-recovery" in flags or "no-normal-recovery" in flags:
            return False
        if "no-recovery-if-exit-open" in flags and any(c.face_up == "white-hole" for _, c in s.cells):
            return False
    return True


def info_of_party(s: LockeState, seat: int) -> int:
    return sum(s.seats[i].info for i in party_of(s, lead(s, seat)))


# --- the turn loop (KMC 7.2.1, 7.3.2, 9.1) --------------------------------------------



# --- the planet phase starts (KMC 7.2.1; seed 000 3.2.2) ----------------------------------


@dataclasses.dataclass(frozen=True)
class PlanetStart(Automatic):
    """KMC 7.2.1: the planet phase; first every base player shows three or more
    dealt information cards, or claims it holds fewer (seed 000 3.2.2)."""

    KIND: ClassVar[str] = "planet_start"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        checks = tuple(DealtInformationCheck(i) for i, p in enumerate(s.seats) if p.base_player)
        return advance(s._replace(phase="planet"), *checks, NextTurn())


@dataclasses.dataclass(frozen=True)
class DealtInformationCheck(SeatDecision):
    """Seed 000 3.2.2: three or more dealt information cards are shown at once and end
    the planet phase; showing none is a claim of holding fewer than three."""

    KIND: ClassVar[str] = "info_check"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        if knowledge is not None:
            info = tuple(h for h in s.seats[self.seat].kept
                         if (card := knowledge.card(h)) and g.components.planet(card).effect.type == "information")
            if len(info) >= 3:
                return [InfoCheck(self.seat, info)]
        return [InfoCheck(self.seat, ())]

    @answers(InfoCheck)
    def checked(self, g: Rules, s: LockeState, action: InfoCheck) -> LockeState:
        p = s.seats[self.seat]
        if not action.handles:
            claim = ck.make(self.seat, s.step_no, ck.INFO_BELOW_3, p.kept, None, "locke.s000.3.2.2")
            return advance(s._replace(**claimed(s, claim)))
        check_information_shown(p.kept, action.handles, 3, "show three or more of your own dealt planet cards, or none")
        return advance(s, DealtInformationReveal(self.seat, action.handles))


@dataclasses.dataclass(frozen=True)
class DealtInformationReveal(Waiting):
    """Seed 000 3.2.2: the shown ``handles`` turn face up; they end the planet phase."""

    KIND: ClassVar[str] = "reveal_info"
    seat: int
    handles: tuple[int, ...]

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", f"kept:{self.seat}", self.handles)

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        s = open_information(g, s, self.seat, action)
        s = log(s, "information-shown", self.seat, len(action.handles))
        return s._replace(queue=(PhaseChange(PhaseTrigger.INFORMATION, self.seat),))


# --- the turn loop (KMC 7.2.1, 7.3.2, 9.1) --------------------------------------------


def takes_turn(s: LockeState, seat: int) -> bool:
    p = s.seats[seat]
    if s.phase == "planet" and p.base_player:
        return False
    if not p.alive:  # KMC 8: a dead seat's turn is only for a clone (engine/locke/planet_cards.py)
        return planet_cards.takes_dead_turn(s, seat)
    return True


@dataclasses.dataclass(frozen=True)
class NextTurn(Automatic):
    """KMC 7.2.1, 7.3.2: the next seat in turn order that takes a turn; the planet phase
    ends when no searcher is left (KMC 7.2.2), the game when nobody is (KMC 6.4)."""

    KIND: ClassVar[str] = "next_turn"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if s.turn >= GUARD_CYCLES * s.n:
            return end_game(s, "guard")
        if not s.order:
            raise IllegalAction("no turn order yet", rule="locke.7.1.10")
        if s.phase == "planet" and not any(p.alive and not p.base_player for p in s.seats):
            # KMC 7.2.2: every searcher is dead (a clone held is used in the base phase)
            return advance(s, PhaseChange(PhaseTrigger.NO_SEARCHERS))
        start = 0 if s.current == NO_SEAT else s.order.index(s.current) + 1
        for k in range(s.n):
            seat = s.order[(start + k) % s.n]
            if takes_turn(s, seat):
                # a dead seat's clone turn does not count towards the guard (ruling N103)
                s = s._replace(current=seat, turn=s.turn + int(s.seats[seat].alive), turn_flags=())
                return advance(s, TurnStart(seat))
        if s.phase == "planet":  # KMC 7.2.2: every non-base character is dead
            return advance(s, PhaseChange(PhaseTrigger.NO_SEARCHERS))
        return end_game(s, "all-dead")


@dataclasses.dataclass(frozen=True)
class TurnStart(Automatic):
    """KMC 8, fig. 9.1: the phases ``seat``'s state gives it this turn."""

    KIND: ClassVar[str] = "turn"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        seat = self.seat
        p = s.seats[seat]
        end = EndTurn(seat)
        check = fate.CheckPhase(seat)  # engine/locke/fate.py: ESP-proof removal (KMC 9.1 check phase)
        if not p.alive:
            return planet_cards.dead_turn(g, s, seat)
        if p.status == "resting":
            return advance(s, fate.RestraintTurn(seat), end)  # engine/locke/fate.py (KMC 8)
        if p.status == "arrested":
            return advance(s, DeclarationPhase(seat), check, ReleaseChoice(seat), end)
        if p.status == "partner":
            return advance(s, DeclarationPhase(seat), check, Move(seat), end)
        if s.phase == "base" and p.base_player and p.place == OFF_BOARD:
            # KMC 7.3.1.3: freed, enters at random
            return advance(s, DeclarationPhase(seat), check, BaseDrop(seat), end)
        return advance(s, DeclarationPhase(seat), check, Move(seat), Instruct(seat),
                       CombatPhase(seat), DestructionPhase(seat), end)


@dataclasses.dataclass(frozen=True)
class EndTurn(Automatic):
    """KMC 6.4, 7.2.2: the game or the planet phase may end with this turn; else the next."""

    KIND: ClassVar[str] = "end_turn"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        living = alive_seats(s)
        if not living:
            return end_game(s, "all-dead")
        if len(living) == 1 and living[0] == self.seat:  # KMC 6.4: the last one alive finished its turn
            return end_game(s, "last-alive", living[0])
        if s.phase == "planet" and all(c.handle is None for _, c in s.cells):
            return advance(s, PhaseChange(PhaseTrigger.ALL_OPEN))  # KMC 7.2.2
        return advance(s, NextTurn())


# --- movement phase (KMC 9.2.1, 9.3.1) ------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Move(SeatDecision):
    """KMC 9.2.1, 9.3.1: the movement decision. Walk, teleport, fly, recover, stay, form or
    leave a party, enter the base, destroy a key base; and, as free options after which
    the same decision comes back, an ability (engine/locke/abilities.py) or a kept planet
    card (engine/locke/planet_cards.py)."""

    KIND: ClassVar[str] = "move"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        seat = self.seat
        p = s.seats[seat]
        if p.status == "partner":
            return [Nop(seat), Leave(seat)]
        if p.place == OFF_BOARD:
            if s.phase == "planet":
                return [Walk(seat, cell) for cell in ENTRY]
            return [Nop(seat)] + [EnterBase(seat, level) for level in esp_levels(s, seat, me, 0)
                                  if not p.proofs or level == 0]
        out: list[Action] = [Nop(seat)]
        out += [Walk(seat, cell) for cell in walk_targets(s, p.place)]
        out += [Teleport(seat, level) for level in esp_levels(s, seat, me, 1)]
        out += [Fly(seat, cell) for cell in flight_targets(s, p.place)]
        if can_recover(g, s, seat):
            out.append(Recover(seat))
        candidates = party_candidates(s, seat)
        out += [Propose(seat, (i,)) for i in candidates]
        if len(candidates) > 1:
            faces = [s.seats[i].silhouette for i in candidates]
            if len(set(faces)) == len(faces):
                out.append(Propose(seat, candidates))
        if len(party_of(s, seat)) > 1:
            out.append(Leave(seat))
        if p.proofs:  # seed 002 prison 12+: ESP level 0 while a proof is in
            out = [a for a in out if not isinstance(a, Teleport)]
        here = cell_of(s, p.place).face_up
        if s.phase == "base" and here in KEY_BASES and (me is None or good_now(me.attribute, p.converted)):
            out.append(Destroy(seat))
        return (out + planet_cards.move_uses(g, s, seat, me, knowledge)
                + list(abilities.move_options(g, s, seat, me, knowledge)))

    @answers(Walk)
    def walk(self, g: Rules, s: LockeState, action: Walk) -> LockeState:
        seat = self.seat
        p = s.seats[seat]
        if p.status == "partner":
            raise IllegalAction("a partner moves with its leader; stay (nop) or leave the party", rule="locke.8")
        if p.place == OFF_BOARD:
            cells = ENTRY if s.phase == "planet" else ()
            if action.to not in cells:
                raise IllegalAction(f"enter the board on a left-hand spaceport: one of {list(cells)}",
                                    rule="locke.9.2.1")
            s = s._replace(seats=with_seat(s, seat, p._replace(place=action.to)))
            return advance(flag(s, "moved"))
        if action.to not in walk_targets(s, p.place):
            raise IllegalAction(f"{action.to} is not next to {p.place}; walk to one of "
                                f"{list(walk_targets(s, p.place))}",
                                rule="locke.9.2.1" if s.phase == "planet" else "locke.9.3.1")
        return advance(flag(move_party(s, seat, action.to), "moved"))

    @answers(Teleport)
    def teleport(self, g: Rules, s: LockeState, action: Teleport) -> LockeState:
        p = s.seats[self.seat]
        if p.place == OFF_BOARD or p.status != "normal":
            raise IllegalAction("only a player on the board in a normal state can teleport", rule="locke.9.2.1")
        if not 1 <= action.level <= 6:
            raise IllegalAction("declare a teleport level from 1 to your ESP level (at most 6)", rule="locke.9.2.1")
        if p.proofs:
            raise IllegalAction("an ESP proof holds your ESP level at 0: you cannot teleport",
                                rule="locke.s002.prison")
        claim = fate.stat_claim(s, self.seat, "level", "le", action.level, "locke.9.2.1")
        return advance(s._replace(**claimed(s, claim)), TeleportRoll(self.seat, action.level))

    @answers(Fly)
    def fly(self, g: Rules, s: LockeState, action: Fly) -> LockeState:
        p = s.seats[self.seat]
        targets = flight_targets(s, p.place) if p.status == "normal" else ()
        if action.to not in targets:
            raise IllegalAction(f"fly from a spaceport to another spaceport: one of {list(targets)}",
                                rule="locke.9.2.1")
        return advance(flag(move_party(s, self.seat, action.to), "moved"))

    @answers(Recover)
    def recover(self, g: Rules, s: LockeState, action: Recover) -> LockeState:
        p = s.seats[self.seat]
        if p.status != "normal" or not can_recover(g, s, self.seat):
            raise IllegalAction("you can recover only lost durability, and not on this cell", rule="locke.9.3.1")
        return advance(flag(s._replace(seats=with_seat(s, self.seat, p._replace(damage=p.damage - 1))),
                            "recovered"))

    @answers(Nop)
    def stay(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(flag(s, "nop"))

    @answers(Propose)
    def propose(self, g: Rules, s: LockeState, action: Propose) -> LockeState:
        p = s.seats[self.seat]
        candidates = party_candidates(s, self.seat)
        faces = [s.seats[i].silhouette for i in action.partners]
        if (p.status != "normal" or p.place == OFF_BOARD or not action.partners
                or len(set(action.partners)) != len(action.partners)
                or any(i not in candidates for i in action.partners) or len(set(faces)) != len(faces)):
            raise IllegalAction("invite players in a normal state on your cell, none with your party's silhouette "
                                f"nor sharing one; you may invite {list(candidates)}", rule="locke.9.2.1")
        joins = tuple(JoinInvitation(i, self.seat) for i in sorted(action.partners))
        return advance(flag(log(s, "party-proposed", self.seat, list(action.partners)), "party"), *joins)

    @answers(Leave)
    def leave(self, g: Rules, s: LockeState, action: Leave) -> LockeState:
        p = s.seats[self.seat]
        if p.status == "partner":  # leaves, then obeys the cell (KMC 8, 9.3.1)
            s = s._replace(seats=with_seat(s, self.seat, p._replace(leader=NO_SEAT, status="normal")))
            return advance(log(s, "party-left", self.seat), Instruct(self.seat))
        partners = party_of(s, self.seat)[1:]
        if not partners:
            raise IllegalAction("you are in no party to leave", rule="locke.9.2.1")
        seats = list(s.seats)
        for i in partners:
            seats[i] = seats[i]._replace(leader=NO_SEAT, status="normal")
        return advance(flag(log(s._replace(seats=tuple(seats)), "party-dissolved", self.seat), "party"))

    @answers(Destroy)
    def destroy(self, g: Rules, s: LockeState, action: Destroy) -> LockeState:
        """KMC 9.3.1: a character that is Good now destroys the key base it stands on (a claim)."""
        p = s.seats[self.seat]
        here = cell_of(s, p.place)
        if s.phase != "base" or p.status != "normal" or here.face_up not in KEY_BASES:
            raise IllegalAction("stand on a face-up key base in the base phase to destroy it", rule="locke.9.3.1")
        claim = ck.make(self.seat, s.step_no, ck.GOOD_NOW, (p.character,), p.converted, "locke.9.3.1")
        s = s._replace(cells=with_cell(s, p.place, Cell(face_up="destroyed")), **claimed(s, claim),
                       key_bases_destroyed=s.key_bases_destroyed + 1)
        s = flag(log(s, "key-base-destroyed", self.seat, here.face_up, p.place), "destroyed")
        if s.key_bases_destroyed >= len(KEY_BASES):
            present = tuple(i for i, q in enumerate(s.seats) if q.alive and q.place == p.place)
            return end_game(s._replace(last_combat=s.last_combat), "key-bases", self.seat, present)
        return advance(s)

    @answers(EnterBase)
    def enter_base(self, g: Rules, s: LockeState, action: EnterBase) -> LockeState:
        p = s.seats[self.seat]
        if s.phase != "base" or p.place != OFF_BOARD or not 0 <= action.level <= (0 if p.proofs else 6):
            raise IllegalAction("off the board in the base phase, declare an ESP level 0..6 to try to enter",
                                rule="locke.9.3.1")
        claim = fate.stat_claim(s, self.seat, "level", "le", action.level, "locke.9.3.1")
        return advance(s._replace(**claimed(s, claim)), BaseEntryRoll(self.seat, action.level))

    @answers(UseAbility)
    def use_ability(self, g: Rules, s: LockeState, action: UseAbility) -> LockeState:
        return abilities.on_move_ability(g, s, self.seat, action)

    @answers(UseCard)
    def use_card(self, g: Rules, s: LockeState, action: UseCard) -> LockeState:
        return planet_cards.on_move_use(g, s, self.seat, action)


@dataclasses.dataclass(frozen=True)
class OwnRoll(Waiting):
    """A roll of ``seat``'s own dice, which it may re-roll first with a kept residential
    district (seed 000 3.2.4, ruling N62; engine/locke/registry.py wraps the answer)."""

    REROLL: ClassVar[bool] = True
    seat: int

    def roller(self, s: LockeState) -> int:
        return self.seat


@dataclasses.dataclass(frozen=True)
class TeleportRoll(OwnRoll):
    """KMC 9.2.1: a die at or below the declared ``level`` teleports that far."""

    KIND: ClassVar[str] = "tele_roll"
    level: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.teleport", (6,))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        face = action.faces[0]
        if face > self.level:
            return advance(flag(log(s, "teleport-failed", self.seat, self.level, face), "move_failed"))
        return advance(s, TeleportLanding(self.seat, face, self.level))


@dataclasses.dataclass(frozen=True)
class TeleportLanding(SeatDecision):
    """KMC 9.2.1: where a teleport of ``distance`` (declared at ``level``) ends; the partners
    decide whether they follow."""

    KIND: ClassVar[str] = "land"
    distance: int
    level: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Land(self.seat, cell) for cell in board.teleport_targets(s.seats[self.seat].place, self.distance)]

    @answers(Land)
    def landed(self, g: Rules, s: LockeState, action: Land) -> LockeState:
        p = s.seats[self.seat]
        targets = board.teleport_targets(p.place, self.distance)
        if action.to not in targets:
            raise IllegalAction(f"a teleport of {self.distance} from {p.place} ends on one of {list(targets)}",
                                rule="locke.9.2.1" if s.phase == "planet" else "locke.9.3.1")
        origin = p.place
        partners = party_of(s, self.seat)[1:]
        s = s._replace(seats=with_seat(s, self.seat, p._replace(place=action.to)))
        follow = tuple(FollowTeleport(i, self.level, action.to) for i in partners)
        seats = list(s.seats)
        for i in partners:
            seats[i] = seats[i]._replace(place=origin)
        return advance(flag(s._replace(seats=tuple(seats)), "moved"), *follow)


@dataclasses.dataclass(frozen=True)
class FollowTeleport(SeatDecision):
    """KMC 9.2.1: a partner goes along to ``to`` (claiming a level at least the declared
    ``level``) or stays behind, out of the party."""

    KIND: ClassVar[str] = "follow"
    level: int
    to: str

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        out: list[Action] = [Follow(self.seat, False)]
        if me is None or stat_now(s, self.seat, me, "level") >= self.level:
            out.append(Follow(self.seat, True))
        return out

    @answers(Follow)
    def answered(self, g: Rules, s: LockeState, action: Follow) -> LockeState:
        p = s.seats[self.seat]
        if action.follow:
            claim = fate.stat_claim(s, self.seat, "level", "le", self.level, "locke.9.2.1")
            p = p._replace(place=self.to)
            return advance(s._replace(seats=with_seat(s, self.seat, p), **claimed(s, claim)))
        return advance(s._replace(seats=with_seat(s, self.seat, p._replace(leader=NO_SEAT, status="normal"))))


def _yes_no(cls: type[Join] | type[Appear] | type[Surrender], seat: int) -> list[Action]:
    return [cls(seat, True), cls(seat, False)]


@dataclasses.dataclass(frozen=True)
class JoinInvitation(SeatDecision):
    """KMC 9.2.1: ``seat`` accepts or declines ``inviter``'s party."""

    KIND: ClassVar[str] = "join"
    inviter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return _yes_no(Join, self.seat)

    @answers(Join)
    def answered(self, g: Rules, s: LockeState, action: Join) -> LockeState:
        if not action.accept:
            return advance(log(s, "party-declined", self.seat, self.inviter))
        p = s.seats[self.seat]._replace(leader=self.inviter, status="partner")
        s = log(s._replace(seats=with_seat(s, self.seat, p)), "party-joined", self.seat, self.inviter)
        # seed 000 3.2.2 (l.104), KMC 7.2.2: a party whose members hold three information cards
        # between them ends the planet phase the moment it forms, not at the next card drawn
        return advance(s, *((InformationTrigger(self.seat),) if s.phase == "planet" else ()))


@dataclasses.dataclass(frozen=True)
class BaseEntryRoll(OwnRoll):
    """KMC 9.3.1: 2d6 at or below declared ``level`` + information cards + earlier tries."""

    KIND: ClassVar[str] = "enter_roll"
    level: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.enter_base", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        p = s.seats[self.seat]
        total = sum(action.faces)
        if total <= self.level + p.info + p.entry_tries:
            return advance(log(s, "entered", self.seat, total), BaseEntryPlace(self.seat))
        p = p._replace(entry_tries=p.entry_tries + 1)
        return advance(flag(log(s._replace(seats=with_seat(s, self.seat, p)), "entry-failed", self.seat, total),
                            "move_failed"))


def _outer(seat: int) -> list[Action]:
    return [Walk(seat, cell) for cell in OUTER]


@dataclasses.dataclass(frozen=True)
class BaseEntryPlace(SeatDecision):
    """KMC 9.3.1: a seat that got in enters the base on an outer cell."""

    KIND: ClassVar[str] = "enter_place"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return _outer(self.seat)

    @answers(Walk)
    def entered(self, g: Rules, s: LockeState, action: Walk) -> LockeState:
        if action.to not in OUTER:
            raise IllegalAction("enter the base on an outer cell", rule="locke.9.3.1")
        return advance(flag(move_party(s, self.seat, action.to), "moved"))


@dataclasses.dataclass(frozen=True)
class BaseDrop(Automatic):
    """KMC 7.3.1.3: a base player enters the base on a random cell."""

    KIND: ClassVar[str] = "base_drop"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        return advance(s, DropRoll(self.seat))


@dataclasses.dataclass(frozen=True)
class DropRoll(Waiting):
    """KMC 7.3.1.3: two dice pick the base player's cell (row, column)."""

    KIND: ClassVar[str] = "drop_roll"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.random_cell", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        cell = board.random_base_cell(action.faces[0], action.faces[1]).key
        return advance(log(move_party(s, self.seat, cell), "base-player-entered", self.seat, cell))


# --- instruction phase (KMC 9.2.2, 9.3.2; seed 000 3) -----------------------------------


@dataclasses.dataclass(frozen=True)
class Instruct(Automatic):
    """KMC 9.2.2, 9.3.2: ``seat`` obeys the card of the cell it stands on (``chain``: random
    teleports already chained in this instruction phase)."""

    KIND: ClassVar[str] = "instruct"
    seat: int
    chain: int = 0

    def run(self, g: Rules, s: LockeState) -> LockeState:
        seat = self.seat
        p = s.seats[seat]
        if not p.alive or p.place == OFF_BOARD or p.status != "normal":
            return advance(s)
        here = cell_of(s, p.place)
        if s.phase == "planet":
            if here.handle is not None:
                opens = tuple(
                    AmbushTry(seat, placement[0], p.place) for placement in s.placements
                    if placement[0].startswith("ambush:") and p.place in placement[2]
                    and placement[3][placement[2].index(p.place)] not in dict(s.open_cards)
                )
                return advance(s, *opens, DrawCell(seat, p.place))
            return obey_planet(g, s, seat, here.face_up)
        if here.handle is not None and not p.base_player:  # KMC 9.3.2: only non-base players turn base cards
            return advance(s, KeyOpen(seat), BaseTurn(seat, self.chain))
        if here.handle is not None:
            return advance(s)
        return obey_base(g, s, seat, here.face_up, self.chain)


def _placement(s: LockeState, zone: str) -> tuple[Any, ...]:
    for placement in s.placements:
        if placement[0] == zone:
            return tuple(placement)
    raise IllegalAction(f"no placement {zone!r}", rule="locke.7.1.9")


def _here(s: LockeState, seat: int, cell: str) -> bool:
    """Is ``seat`` still standing on ``cell`` able to obey it (not killed or moved meanwhile)?"""
    p = s.seats[seat]
    return p.alive and p.place == cell and p.status == "normal"


@dataclasses.dataclass(frozen=True)
class AmbushTry(Automatic):
    """Seed 000 3.2.3: ambush placement ``zone`` is opened at ``cell`` if ``seat`` still
    stands there."""

    KIND: ClassVar[str] = "ambush_try"
    seat: int
    zone: str
    cell: str

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not _here(s, self.seat, self.cell):
            return advance(s)
        return advance(s, AmbushOpen(self.seat, self.zone, self.cell))


@dataclasses.dataclass(frozen=True)
class AmbushOpen(Waiting):
    """Seed 000 3.2.3: an ambush under this cell replaces its planet card; the placer may come out."""

    KIND: ClassVar[str] = "ambush_open"
    seat: int
    zone: str
    cell: str

    def pending(self, g: Rules, s: LockeState) -> Pending:
        _, placer, cells, handles = _placement(s, self.zone)[:4]
        return Placement("open", self.zone, placer, (self.cell,), handles=(handles[cells.index(self.cell)],))

    @answers(CellsOpened)
    def opened(self, g: Rules, s: LockeState, action: CellsOpened) -> LockeState:
        content = action.contents[0]
        s = s._replace(open_cards=s.open_cards + ((action.handles[0], content),))
        if content == EMPTY:
            return advance(s)
        placer = ambush_owner(s, _placement(s, self.zone)[1], content)
        here = cell_of(s, self.cell)
        stock = zone_of(s, "planet:stock") + ((here.handle,) if here.handle is not None else ())
        s = s._replace(cells=with_cell(s, self.cell, Cell(face_up=content)), zones=with_zone(s, "planet:stock", stock))
        s = log(s, "ambush", placer, self.cell, content)
        opened = all_open(s)  # KMC 7.2.2: the card under it was the last face down
        if opened is not None:
            return opened
        if not s.seats[placer].alive:
            return advance(s._replace(cells=with_cell(s, self.cell, Cell())))
        return advance(s, AmbushAppear(placer, self.seat, self.cell))


@dataclasses.dataclass(frozen=True)
class AmbushAppear(SeatDecision):
    """Seed 000 3.2.3: the ambush's placer comes out against ``victim`` at ``cell`` (a
    combat with henchmen) or stays hidden; the opened ambush is removed either way."""

    KIND: ClassVar[str] = "appear"
    victim: int
    cell: str

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return _yes_no(Appear, self.seat)

    @answers(Appear)
    def answered(self, g: Rules, s: LockeState, action: Appear) -> LockeState:
        s = s._replace(cells=with_cell(s, self.cell, Cell()))  # the opened ambush is removed
        if not action.appear:
            return advance(log(s, "ambush-stayed-hidden", self.seat))
        return advance(flag(s, "no_combat"), HenchmenRoll(self.seat, self.victim, self.cell))


@dataclasses.dataclass(frozen=True)
class HenchmenRoll(Waiting):
    """Seed 000 3.2.3: 3-4 brings one henchman, 5-6 two, for this combat only."""

    KIND: ClassVar[str] = "hench_roll"
    seat: int  # the placer
    victim: int
    cell: str

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.henchmen", (6,))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        placer = self.seat
        by_face = g.components.planet("ambush-a").effect.params["henchmen_by_face"]
        if not isinstance(by_face, tuple):
            raise TypeError(f"ambush parameter henchmen_by_face is {by_face!r}, not a list of numbers")
        henchmen = by_face[action.faces[0] - 1]
        p = s.seats[placer]._replace(place=self.cell, status="normal", leader=NO_SEAT)
        s = s._replace(seats=with_seat(s, placer, p))  # ruling N44: on the board from now on
        sides = ((placer,), party_of(s, lead(s, self.victim)))
        return begin(advance(s), Combat("ambush", self.cell, sides, henchmen=int(henchmen)))


@dataclasses.dataclass(frozen=True)
class DrawCell(Automatic):
    """KMC 9.2.2: ``seat``, still on ``cell``, draws its face-down card (after the ambushes)."""

    KIND: ClassVar[str] = "draw_cell"
    seat: int
    cell: str

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not _here(s, self.seat, self.cell):
            return advance(s)
        here = cell_of(s, self.cell)
        if here.handle is None:
            if here.face_up in ("ambush-a", "ambush-b"):
                return advance(s)
            return obey_planet(g, s, self.seat, here.face_up)
        return advance(s, DrawCard(self.seat, here.handle), KeepChoice(self.seat, here.handle))


@dataclasses.dataclass(frozen=True)
class DrawCard(Waiting):
    """The planet card ``handle`` of the seat's cell is dealt to it alone."""

    KIND: ClassVar[str] = "draw"
    seat: int
    handle: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("deal", f"cell:{s.seats[self.seat].place}", (self.handle,), to_seat=self.seat)

    @answers(CardsDealt)
    def dealt(self, g: Rules, s: LockeState, action: CardsDealt) -> LockeState:
        return advance(s)


@dataclasses.dataclass(frozen=True)
class KeepChoice(SeatDecision):
    """KMC 9.2.2: an ability card is kept face down (a claim); anything else is shown."""

    KIND: ClassVar[str] = "keep"
    handle: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        card = knowledge.card(self.handle) if knowledge is not None else None
        if card is None:
            return [Keep(self.seat, True), Keep(self.seat, False)]
        return [Keep(self.seat, g.components.planet(card).kind == "ability")]

    @answers(Keep)
    def chosen(self, g: Rules, s: LockeState, action: Keep) -> LockeState:
        p = s.seats[self.seat]
        if action.keep:
            claim = ck.make(self.seat, s.step_no, ck.KEEPS_ABILITY, (self.handle,), None, "locke.9.2.2")
            p = p._replace(kept=p.kept + (self.handle,))
            s = s._replace(seats=with_seat(s, self.seat, p), cells=with_cell(s, p.place, Cell()),
                           **claimed(s, claim))
            s = log(s, "card-kept", self.seat, p.place)
            return all_open(s) or advance(s)
        return advance(s, ShowCard(self.seat, self.handle))


@dataclasses.dataclass(frozen=True)
class ShowCard(Waiting):
    """KMC 9.2.2: the drawn card is shown to everyone and obeyed (an ability card shown
    instead of kept is a cheat)."""

    KIND: ClassVar[str] = "show_card"
    seat: int
    handle: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", f"cell:{s.seats[self.seat].place}", (self.handle,))

    @answers(CardsRevealed)
    def shown(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        card = action.cards[0]
        planet = g.components.planet(card)
        if planet.kind == "ability":
            raise cheat(self.seat, f"showed the ability card {card} instead of keeping it", "locke.9.2.2")
        p = s.seats[self.seat]
        s = s._replace(open_cards=s.open_cards + ((self.handle, card),))
        s = log(s, "card-shown", self.seat, p.place, card)
        kind = planet.effect.type
        if kind == "information":  # seed 000 3.2.2: kept face up by the drawer
            s = s._replace(cells=with_cell(s, p.place, Cell()),
                           seats=with_seat(s, self.seat, p._replace(info=p.info + 1)))
            return advance(s, *planet_cards.evil_info_steps(s, self.seat), InformationTrigger(self.seat))
        if planet.lifetime == "returned":  # seed 000 3.2.3: shown, obeyed, returned to the stock
            s = s._replace(cells=with_cell(s, p.place, Cell()),
                           zones=with_zone(s, "planet:stock", zone_of(s, "planet:stock") + (self.handle,)))
        else:
            s = s._replace(cells=with_cell(s, p.place, Cell(face_up=card)))
        return all_open(s) or obey_planet(g, s, self.seat, card)


def all_open(s: LockeState) -> LockeState | None:
    """KMC 7.2.2: the planet phase ends the moment the last face-down planet card is open (kept,
    shown or taken away), before anything else of the turn (KMC 7.2.3-7.3: the base phase is set
    up at once, so no combat of the old board is fought after it). None while a card is still
    face down, or outside the planet phase."""
    if s.phase != "planet" or any(c.handle is not None for _, c in s.cells):
        return None
    return advance(s._replace(queue=(s.queue[0],)), PhaseChange(PhaseTrigger.ALL_OPEN))


def obey_planet(g: Rules, s: LockeState, seat: int, card: str) -> LockeState:
    """Carry out a face-up planet card for ``seat`` (seed 000 3.2)."""
    if not card:
        return advance(s)
    kind = g.components.planet(card).effect.type
    p = s.seats[seat]
    if kind == "spaceport":
        return advance(s)
    if kind == "arrest":  # seed 000 3.2.1: in prison on this cell
        s = fate.arrest(s, seat)
        return advance(flag(log(s, "arrested", seat, p.place), "no_combat"))
    if kind == "chart" and g.components.planet(card).effect.params["chart"] == "random-combat":
        # seed 000 line 98: checked afresh each time, unless it turned into a trap that still holds someone
        s = flag(s, "no_combat")
        return traps.caught_again(s, seat, p.place) or advance(s, RandomCombatRoll(seat, RandomCause.CARD))
    if kind == "chart" and g.components.planet(card).effect.params["chart"] == "trap":
        return traps.enter_trap(g, flag(s, "no_combat"), seat, p.place)  # seed 000 3.2.1, seed 002 trap chart
    if kind == "reveal-self":
        return advance(s, Expose(seat))
    if kind == "peek-identity":
        if any(i != seat for i in alive_seats(s)):
            return advance(s, IdentifyChoice(seat))
        return advance(s)
    # information and ambush cards act before this (seed 000 3.2.2, 3.2.3); nothing else is an instruction
    raise ValueError(f"planet card {card!r}: no instruction of type {kind!r}")


@dataclasses.dataclass(frozen=True)
class IdentifyChoice(SeatDecision):
    """Seed 000 3.2.3 (identify another): ``seat`` names another living player to look at."""

    KIND: ClassVar[str] = "identify"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Identify(self.seat, i) for i, p in enumerate(s.seats) if i != self.seat and p.alive]

    @answers(Identify)
    def named(self, g: Rules, s: LockeState, action: Identify) -> LockeState:
        if action.target == self.seat or not 0 <= action.target < s.n or not s.seats[action.target].alive:
            raise IllegalAction("name another living player", rule="locke.s000.3.2.3")
        return advance(s, ShowCharacter(self.seat, action.target))


@dataclasses.dataclass(frozen=True)
class ShowCharacter(CharacterShown):
    """Seed 000 3.2.3 (identify another): ``target``'s card is shown to ``seat`` alone."""

    KIND: ClassVar[str] = "show_char"


@dataclasses.dataclass(frozen=True)
class Expose(Waiting):
    """Seed 000 3.2.3: the card is face up; from now on this seat cannot refuse declarations."""

    KIND: ClassVar[str] = "expose"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return own_character(s, self.seat)

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        p = s.seats[self.seat]._replace(exposed=True)
        s = s._replace(seats=with_seat(s, self.seat, p),
                       open_cards=s.open_cards + ((action.handles[0], action.cards[0]),))
        return advance(log(s, "exposed", self.seat, action.cards[0]))


@dataclasses.dataclass(frozen=True)
class InformationTrigger(Automatic):
    """KMC 7.2.2 / seed 000 3.2.2: three information cards with one player or one party."""

    KIND: ClassVar[str] = "info_trigger"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if info_of_party(s, self.seat) >= 3:
            return advance(s._replace(queue=(s.queue[0],)), PhaseChange(PhaseTrigger.INFORMATION, lead(s, self.seat)))
        return all_open(s) or advance(s)  # an information card may be the last one face down


# --- random combats (combat card, prison, barracks) ---------------------------------------


class RandomCause(enum.StrEnum):
    """What rolled on the random-combat chart: a combat planet card (seed 000 3.2.1), the
    prison chart (seed 002), the barracks (KMC 4), the forest trap (seed 002 trap chart)."""

    CARD = "card"
    PRISON = "prison"
    BARRACKS = "barracks"
    FOREST = "forest"


@dataclasses.dataclass(frozen=True)
class RandomCombatRoll(Waiting):
    """The random-combat chart (2d6) for ``seat``'s party."""

    KIND: ClassVar[str] = "rc_roll"
    seat: int
    cause: RandomCause

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.chart.random-combat", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("random-combat", action.faces)
        s = log(s, "random-combat", self.seat, outcome.entry)
        # rows 9-12 chain to the police weapon check: the combat rolls it as it starts (N153)
        count = sum(o.random_characters for o in outcome.opponents)
        steps: list[LockeStep] = []
        if self.cause == RandomCause.CARD and s.phase == "planet" and any(
                o.id in ("police", "esper") for o in outcome.opponents):
            steps.append(SurrenderChoice(self.seat))  # ruling N11
        if count:
            steps.append(RevealRandomCharacters(self.seat, count))
        steps.append(RandomCombatStart(self.seat, self.cause, action.faces))
        return advance(s, *steps)


@dataclasses.dataclass(frozen=True)
class SurrenderChoice(SeatDecision):
    """Ruling N11: facing the police or an esper from a combat card, the seat may give
    itself up (arrested, no combat)."""

    KIND: ClassVar[str] = "surrender"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return _yes_no(Surrender, self.seat)

    @answers(Surrender)
    def answered(self, g: Rules, s: LockeState, action: Surrender) -> LockeState:
        if not action.surrender:
            return advance(s)
        s = fate.arrest(s, self.seat)
        s = log(s, "surrendered", self.seat)
        queue = tuple(q for q in s.queue[1:] if not isinstance(q, (RevealRandomCharacters, RandomCombatStart)))
        return s._replace(queue=queue)


@dataclasses.dataclass(frozen=True)
class RevealRandomCharacters(Waiting):
    """Random characters (T17) are shown, fight, and go back under the unused pile face up."""

    KIND: ClassVar[str] = "reveal_unused"
    seat: int
    count: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", "chars:unused", zone_of(s, "chars:unused")[: self.count])

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        unused = zone_of(s, "chars:unused")
        s = s._replace(zones=with_zone(s, "chars:unused", unused[self.count:] + unused[: self.count]),
                       open_cards=s.open_cards + tuple(zip(action.handles, action.cards)))
        return advance(s)


@dataclasses.dataclass(frozen=True)
class RandomCombatStart(Automatic):
    """The chart's opponents (chart row ``faces``) fight ``seat``'s party."""

    KIND: ClassVar[str] = "rc_start"
    seat: int
    cause: RandomCause
    faces: tuple[int, ...]

    def run(self, g: Rules, s: LockeState) -> LockeState:
        outcome = charts.resolve("random-combat", self.faces)
        unused = zone_of(s, "chars:unused")
        count = sum(o.random_characters for o in outcome.opponents)
        opened = dict(s.open_cards)
        randoms = tuple(opened[h] for h in unused[len(unused) - count:]) if count else ()
        obstacles = obstacles_from(g, outcome.opponents, randoms)
        here = s.seats[self.seat].place
        sides = (party_of(s, lead(s, self.seat)), ())
        return begin(advance(s), Combat("random-combat:" + self.cause.value, here, sides, obstacles=obstacles))


# --- prison (seed 000 3.2.1, seed 002 prison chart) ----------------------------------------


@dataclasses.dataclass(frozen=True)
class ReleaseChoice(SeatDecision):
    """Seed 000 3.2.1: an arrested character with the release ability may walk out (a
    claim); else the prison chart."""

    KIND: ClassVar[str] = "release"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        out: list[Action] = [Release(self.seat, False)]
        if kit.has_ability(me, s.seats[self.seat].mods, "release"):
            out.append(Release(self.seat, True))
        return out

    @answers(Release)
    def chosen(self, g: Rules, s: LockeState, action: Release) -> LockeState:
        """Hijiri's whim (N275, engine/locke/kit.py): a character whose printed abilities are gone
        may release only by a rolled release, which the ledger shows, so it claims nothing."""
        p = s.seats[self.seat]
        if not action.use:
            return advance(s, PrisonRoll(self.seat))
        if not kit.has_ability(None, p.mods, "release"):
            raise IllegalAction("Hijiri's whim took your card's abilities and gave you no release",
                                rule="locke.s002.event.11")
        claims: dict[str, Any] = {}
        if not kit.granted(p.mods, "release"):
            claims = claimed(s, ck.make(self.seat, s.step_no, ck.RELEASE, (p.character,), None, "locke.s000.3.2.1"))
        s = s._replace(seats=with_seat(s, self.seat, p._replace(status="normal", prison_failures=0)), **claims)
        return advance(log(s, "released", self.seat))


def freed(s: LockeState, seat: int, how: str) -> LockeState:
    p = s.seats[seat]._replace(status="normal", prison_failures=0)
    s = log(s._replace(seats=with_seat(s, seat, p)), "escaped", seat, how)
    if s.phase == "base" and p.base_player and p.place == OFF_BOARD:
        return advance(s, BaseDrop(seat))  # KMC 7.3.1.3: enters at random that turn
    return advance(s)


@dataclasses.dataclass(frozen=True)
class PrisonRoll(OwnRoll):
    """The prison chart (seed 002), modified by earlier failures."""

    KIND: ClassVar[str] = "prison_roll"

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.chart.prison", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        p = s.seats[self.seat]
        outcome = charts.resolve("prison", action.faces, charts.prison_modifier(p.prison_failures))
        s = log(s, "chart-entry", "prison", outcome.entry, self.seat, p.prison_failures)
        effects = {e.id: e for e in outcome.effects}
        if outcome.entry == "escape-into-trap":  # seed 002 prison 11: out, but into a trap
            s = freed(s, self.seat, outcome.entry)
            return s._replace(queue=traps.trap_steps(self.seat, p.place) + s.queue)
        if "escape" in effects:
            return freed(s, self.seat, outcome.entry)
        if "may-escape" in effects:
            level = int(dict(effects["may-escape"].params)["min_esp_level"])
            return advance(s, PrisonEscape(self.seat, level))
        if "prison-combat" in effects:
            return advance(s, RandomCombatRoll(self.seat, RandomCause.PRISON))
        if "esp-proof" in effects:  # seed 002 prison 12+ (engine/locke/fate.py)
            s = fate.add_esp_proof(g, s, self.seat)
        return advance(fate.prison_failed(s, self.seat, outcome.entry))


@dataclasses.dataclass(frozen=True)
class PrisonEscape(SeatDecision):
    """Seed 002 prison chart: a seat whose level is at least ``level`` may escape (a claim)."""

    KIND: ClassVar[str] = "escape"
    level: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        out: list[Action] = [Escape(self.seat, False)]
        if me is None or stat_now(s, self.seat, me, "level") >= self.level:
            out.append(Escape(self.seat, True))
        return out

    @answers(Escape)
    def chosen(self, g: Rules, s: LockeState, action: Escape) -> LockeState:
        if not action.escape:
            return advance(fate.prison_failed(s, self.seat, "stayed"))
        claim = fate.stat_claim(s, self.seat, "level", "le", self.level, "locke.s002.prison")
        return freed(s._replace(**claimed(s, claim)), self.seat, f"level-{self.level}")


# --- the phase change (KMC 7.2.2-7.3.1) ------------------------------------------------------


class PhaseTrigger(enum.StrEnum):
    """What ends the planet phase (KMC 7.2.2): no searcher left, every planet card open, or
    three information cards with one player or party."""

    NO_SEARCHERS = "no-searchers"
    ALL_OPEN = "all-open"
    INFORMATION = "information"


@dataclasses.dataclass(frozen=True)
class PhaseChange(Automatic):
    """Gather the planet cards, lay the base, hide the key bases, enter (KMC 7.2.3, 7.3.1);
    ``holder`` (information only) is the party leader holding the three cards."""

    KIND: ClassVar[str] = "phase_change"
    trigger: PhaseTrigger
    holder: int = NO_SEAT

    def run(self, g: Rules, s: LockeState) -> LockeState:
        holder = self.holder if self.trigger == PhaseTrigger.INFORMATION else NO_SEAT
        keep_party = party_of(s, holder) if holder != NO_SEAT else ()
        seats = []
        for i, p in enumerate(s.seats):
            in_party = i in keep_party
            seats.append(p._replace(place=OFF_BOARD, leader=p.leader if in_party else NO_SEAT,
                                    status="normal" if p.status == "partner" and not in_party else p.status))
        s = s._replace(seats=tuple(seats), cells=(), phase="base", combat=None, turn_flags=())
        s = log(s, "phase-change", self.trigger.value, holder)
        identity = planet_cards.phase_end_identity(s)  # seed 000 3.2.3: the Evil faces' hidden identity cards act now
        cards = tuple(cid for cid in g.components.deck("bases") if cid not in KEY_BASES)
        s = fresh_zone(s, "base:stock", cards)
        base = [i for i, p in enumerate(s.seats) if p.base_player]
        placer = base[0]  # ruling N42: the first base player places all four (alive or not)
        others = tuple(i for i in base if i != placer)
        steps: list[LockeStep] = [*identity, Shuffle("base:stock"), LayBase(), KeyPlacement(placer)]
        if others:
            steps.append(KeyDisclosure(placer, others))
        if holder != NO_SEAT:
            steps.append(FindersEntry(holder))
        steps += [BaseDrop(i) for i in base if s.seats[i].alive and s.seats[i].status == "normal"]
        if holder != NO_SEAT:
            steps.append(Instruct(holder))
        steps.append(NextTurn())
        return s._replace(queue=tuple(steps))


@dataclasses.dataclass(frozen=True)
class LayBase(Automatic):
    """KMC 7.3.1: one face-down base card on each base cell."""

    KIND: ClassVar[str] = "lay_base"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        stock = zone_of(s, "base:stock")
        cells = tuple((key, Cell(handle=h)) for key, h in zip(BASE_CELLS, stock))
        return advance(s._replace(cells=cells, zones=with_zone(s, "base:stock", stock[len(BASE_CELLS):])))


@dataclasses.dataclass(frozen=True)
class KeyPlacement(Placing):
    """KMC 7.3.1, ruling N42: the first base player hides the four key bases under base cells."""

    KIND: ClassVar[str] = "key_place"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Placement:
        return Placement("place", KEY_ZONE, self.seat, BASE_CELLS, KEY_BASES)


@dataclasses.dataclass(frozen=True)
class KeyDisclosure(Waiting):
    """Ruling N42: the other base players (``to``) learn where the key bases lie."""

    KIND: ClassVar[str] = "key_disclose"
    seat: int  # the placer
    to: tuple[int, ...]

    def pending(self, g: Rules, s: LockeState) -> Pending:
        zone, placer, cells, handles = _placement(s, KEY_ZONE)[:4]
        return Placement("disclose", zone, placer, cells, handles=handles, to_seats=self.to)

    @answers(PlacementDisclosed)
    def disclosed(self, g: Rules, s: LockeState, action: PlacementDisclosed) -> LockeState:
        return advance(s)


@dataclasses.dataclass(frozen=True)
class FindersEntry(SeatDecision):
    """KMC 7.3.1: the party that found the third information card starts on an outer cell."""

    KIND: ClassVar[str] = "info_entry"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return _outer(self.seat)

    @answers(Walk)
    def entered(self, g: Rules, s: LockeState, action: Walk) -> LockeState:
        if action.to not in OUTER:
            raise IllegalAction("the finders of the base start on an outer cell", rule="locke.7.3.1")
        return advance(log(move_party(s, self.seat, action.to), "finders-entered", self.seat, action.to))


@dataclasses.dataclass(frozen=True)
class KeyOpen(Waiting):
    """KMC 9.3.2: the key-base placement is opened at the seat's cell: a key base found there
    replaces the base card."""

    KIND: ClassVar[str] = "key_open"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        zone, placer, cells, handles = _placement(s, KEY_ZONE)[:4]
        place = s.seats[self.seat].place
        return Placement("open", zone, placer, (place,), handles=(handles[cells.index(place)],))

    @answers(CellsOpened)
    def opened(self, g: Rules, s: LockeState, action: CellsOpened) -> LockeState:
        content = action.contents[0]
        s = s._replace(open_cards=s.open_cards + ((action.handles[0], content),))
        if content == EMPTY:
            return advance(s)
        place = s.seats[self.seat].place
        here = cell_of(s, place)
        stock = zone_of(s, "base:stock") + ((here.handle,) if here.handle is not None else ())
        s = s._replace(cells=with_cell(s, place, Cell(face_up=content)), zones=with_zone(s, "base:stock", stock))
        return advance(log(s, "key-base-found", self.seat, place, content))


@dataclasses.dataclass(frozen=True)
class BaseTurn(Automatic):
    """KMC 9.3.2: a base card still face down is turned up, then obeyed."""

    KIND: ClassVar[str] = "base_turn"
    seat: int
    chain: int = 0

    def run(self, g: Rules, s: LockeState) -> LockeState:
        place = s.seats[self.seat].place
        here = cell_of(s, place)
        if here.handle is not None:
            return advance(s, BaseReveal(self.seat, here.handle, self.chain))
        return obey_base(g, s, self.seat, here.face_up, self.chain)


@dataclasses.dataclass(frozen=True)
class BaseReveal(Waiting):
    """KMC 9.3.2: the base card ``handle`` of the seat's cell turns face up (a key base
    outside the key-base placement is a cheat), then the seat obeys it."""

    KIND: ClassVar[str] = "base_reveal"
    seat: int
    handle: int
    chain: int = 0

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", f"cell:{s.seats[self.seat].place}", (self.handle,))

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        card = action.cards[0]
        if card in KEY_BASES:
            raise cheat(-1, f"base card {card} is a key base outside the key-base placement", "locke.7.3.1")
        place = s.seats[self.seat].place
        s = s._replace(cells=with_cell(s, place, Cell(face_up=card)),
                       open_cards=s.open_cards + ((action.handles[0], card),))
        return obey_base(g, log(s, "base-card", self.seat, place, card), self.seat, card, self.chain)


def obey_base(g: Rules, s: LockeState, seat: int, card: str, chain: int = 0) -> LockeState:
    """Carry out a face-up base card for ``seat`` (KMC 4): the flow's own cards here, every
    other kind in engine/locke/base_cards.py."""
    if not card or card == "destroyed":
        return advance(s)
    s = log(s, "base-obeyed", card, seat)
    if card in QUIET_BASES:
        return advance(s)
    kind = g.components.base(card).effect.type
    if kind == "random-teleport" and chain < MAX_CHAIN:
        return advance(s, RandomTeleportRoll(seat, chain + 1))
    if kind == "chart" and g.components.base(card).effect.params["chart"] == "random-combat":
        return advance(flag(s, "no_combat"), RandomCombatRoll(seat, RandomCause.BARRACKS))
    if kind in ("nova", "author-victory-attempt"):
        return advance(s)  # their checks come in the destruction phase
    return base_cards.obey(g, s, seat, card)


@dataclasses.dataclass(frozen=True)
class RandomTeleportRoll(Waiting):
    """KMC 4 random teleport: two dice pick the cell (row, column); then obey it (``chain``:
    random teleports chained so far, at most ``MAX_CHAIN``)."""

    KIND: ClassVar[str] = "rtele_roll"
    seat: int
    chain: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.random_cell", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        cell = board.random_base_cell(action.faces[0], action.faces[1]).key
        s = log(move_party(s, lead(s, self.seat), cell), "random-teleport", self.seat, cell)
        return advance(s, Instruct(self.seat, self.chain))


#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = (
    PlanetStart, DealtInformationCheck, DealtInformationReveal, NextTurn, TurnStart, EndTurn,
    Move, TeleportRoll, TeleportLanding, FollowTeleport, JoinInvitation, BaseEntryRoll, BaseEntryPlace, BaseDrop,
    DropRoll, Instruct, AmbushTry, AmbushOpen, AmbushAppear, HenchmenRoll, DrawCell, DrawCard, KeepChoice, ShowCard,
    IdentifyChoice, ShowCharacter, Expose, InformationTrigger, RandomCombatRoll, SurrenderChoice,
    RevealRandomCharacters, RandomCombatStart, ReleaseChoice, PrisonRoll, PrisonEscape, PhaseChange, LayBase,
    KeyPlacement, KeyDisclosure, FindersEntry, KeyOpen, BaseTurn, BaseReveal, RandomTeleportRoll,
)
