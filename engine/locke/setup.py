"""Set-up (KMC 7.1) as steps: characters, shadow roll, silhouettes, planet cards,
ambushes, turn order and the base players' planet cards.

Every deck starts face down in data order with its handles public
(``open_cards``); a shuffle gives fresh handles nobody can read. Characters
are drawn as KMC 7.1.2-5 says, with hidden-card operations only: each
attribute group is shuffled and its top cards join the pool, the leftover
Good, Evil and Special cards are shuffled for the random (X) draw, the pool is
shuffled and one card is dealt to each seat. The shadow roll is a private
die: a six-card "die" deck per seat, shuffled, its top card dealt to the seat
(rulings N18, N41). Silhouettes are a sealed choice; the die rule is a claim judged
when the die opens at the end.

Each step is a typed class next to its code (engine/locke/steps.py says what a step
carries): the automatic ones (``PickPool``, ``ShadowRoll``, ``FacesCheck``, ...) run by
themselves, the waiting ones answer their hidden-card operation, dice, sealed choice or
placement. :class:`Shuffle` and :class:`Placing` serve every phase.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.errors import CheatDetected, IllegalAction
from engine.core.hidden import Knowledge
from engine.core.actions import Action
from engine.core.pending import (
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CardsShuffled,
    Chance,
    DiceRolled,
    HiddenOp,
    Pending,
    Placement,
    PlacementDisclosed,
    PlacementMade,
    SealedChoice,
    SealedChoicesRevealed,
)
from engine.locke import board, setup_tables
from engine.locke import claims as ck
from engine.locke.actions import Switch
from engine.locke.components import Character
from engine.locke.state import Cell, LockeState, Seat, advance, claimed, log, with_seat, with_zone, zone_of
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, Waiting, answers

#: Planet-card cells in board order (36, KMC 7.1.1) and their keys.
PLANET_CELLS: tuple[str, ...] = tuple(c.key for c in board.PLANET_CARD_CELLS)
AMBUSH_CARDS = ("ambush-a", "ambush-b")
GROUPS = ("L", "G", "E", "S")


def initial_state(g: Rules, players: int, then: LockeStep) -> LockeState:
    """Seats, the character groups face down (handles public), and the set-up queue, ending
    with ``then``: what comes after set-up (the planet phase, engine/locke/turn.py)."""
    comp = setup_tables.composition(players)  # IllegalAction outside 5..10 (locke.7.1)
    pools = setup_tables.character_pools(g.components)
    zones: list[tuple[str, tuple[int, ...]]] = []
    opened: list[tuple[int, str]] = []
    handle = 0
    for name, ids in zip(GROUPS, (pools.locke, pools.good, pools.evil, pools.special)):
        handles = tuple(range(handle, handle + len(ids)))
        handle += len(ids)
        zones.append((f"chars:{name}", handles))
        opened.extend(zip(handles, ids))
    queue: tuple[LockeStep, ...] = tuple(Shuffle(f"chars:{name}") for name in GROUPS) + (
        PickPool(players), Shuffle("chars:X"), PickRandom(comp.random), Shuffle("chars:pool"),
    ) + tuple(DealCharacter(seat) for seat in range(players)) + (ShadowRoll(), then)
    return LockeState(
        n=players, queue=queue, seats=tuple(Seat() for _ in range(players)), zones=tuple(sorted(zones)),
        open_cards=tuple(opened), next_handle=handle, taken=tuple(() for _ in range(players)),
    )


# --- hidden-card steps shared by every phase ------------------------------------------


@dataclasses.dataclass(frozen=True)
class Shuffle(Waiting):
    """Any zone shuffle: the zone gets fresh handles and loses its public identities."""

    KIND: ClassVar[str] = "shuffle"
    zone: str

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("shuffle", self.zone, zone_of(s, self.zone))

    @answers(CardsShuffled)
    def shuffled(self, g: Rules, s: LockeState, action: CardsShuffled) -> LockeState:
        old = set(zone_of(s, self.zone))
        start = s.next_handle
        fresh = tuple(range(start, start + len(old)))
        return advance(s._replace(
            zones=with_zone(s, self.zone, fresh), next_handle=start + len(fresh), shuffled=(self.zone, fresh),
            open_cards=tuple(o for o in s.open_cards if o[0] not in old),
        ))


@dataclasses.dataclass(frozen=True)
class Placing(Waiting):
    """A hidden placement (engine.core): the placer commits one fresh handle per candidate
    cell; what lies where stays hidden until a cell is opened."""

    def pending(self, g: Rules, s: LockeState) -> Placement:
        raise NotImplementedError(f"{type(self).__name__} does not say what it places")

    @answers(PlacementMade)
    def placed(self, g: Rules, s: LockeState, action: PlacementMade) -> LockeState:
        pending = self.pending(g, s)
        start = s.next_handle
        handles = tuple(range(start, start + len(pending.cells)))
        record = (pending.zone, pending.seat, pending.cells, handles)
        return advance(s._replace(placements=s.placements + (record,), next_handle=start + len(handles)))


def own_character(s: LockeState, seat: int) -> Pending:
    """``seat`` turns its own character card face up for everyone (an ability's user, an
    override, an expose-self card, the King editorial room)."""
    return HiddenOp("reveal", "characters", (s.seats[seat].character,))


@dataclasses.dataclass(frozen=True)
class CharacterShown(Waiting):
    """``target``'s character card is shown to ``seat`` alone, and ``seat`` has seen it (KMC
    11.1.2): the one way a card is shown to one player, for the identify-other card
    (engine/locke/turn.py ShowCharacter) and contact telepathy (engine/locke/combat/path.py
    TelepathyShow), which differ only in their wire name."""

    seat: int
    target: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("show_to", "characters", (s.seats[self.target].character,), to_seat=self.seat)

    @answers(CardsShownTo)
    def shown(self, g: Rules, s: LockeState, action: CardsShownTo) -> LockeState:
        target = s.seats[self.target]
        if self.seat not in target.seen_by:
            target = target._replace(seen_by=tuple(sorted(target.seen_by + (self.seat,))))
        return advance(log(s._replace(seats=with_seat(s, self.target, target)), "identified", self.seat, self.target))


def fresh_zone(s: LockeState, name: str, cards: tuple[str, ...]) -> LockeState:
    """A new face-down zone of ``cards`` in this order, handles public until shuffled."""
    start = s.next_handle
    handles = tuple(range(start, start + len(cards)))
    return s._replace(
        zones=with_zone(s, name, handles), next_handle=start + len(handles),
        open_cards=s.open_cards + tuple(zip(handles, cards)),
    )


# --- characters (KMC 7.1.2-5) -----------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PickPool(Automatic):
    """KMC 7.1.2-4: the top cards of each shuffled attribute group make the pool for
    ``players`` seats; the leftover Good, Evil and Special cards wait for the random draw."""

    KIND: ClassVar[str] = "pick_pool"
    players: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        comp = setup_tables.composition(self.players)
        pool: tuple[int, ...] = ()
        leftover: tuple[int, ...] = ()
        for name, count in zip(GROUPS, (comp.locke, comp.good, comp.evil, comp.special)):
            handles = zone_of(s, f"chars:{name}")
            pool += handles[:count]
            if name != "L":
                leftover += handles[count:]
        unused = zone_of(s, "chars:L")[comp.locke:]
        zones = s._replace(zones=with_zone(s, "chars:pool", pool))
        zones = zones._replace(zones=with_zone(zones, "chars:X", leftover))
        zones = zones._replace(zones=with_zone(zones, "chars:unused", unused))
        for name in GROUPS:
            zones = zones._replace(zones=with_zone(zones, f"chars:{name}", ()))
        return advance(zones)


@dataclasses.dataclass(frozen=True)
class PickRandom(Automatic):
    """KMC 7.1.5: ``count`` random (X) characters from the shuffled leftovers join the pool;
    the rest are unused."""

    KIND: ClassVar[str] = "pick_x"
    count: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        rest = zone_of(s, "chars:X")
        s = s._replace(zones=with_zone(s, "chars:pool", zone_of(s, "chars:pool") + rest[: self.count]))
        s = s._replace(zones=with_zone(s, "chars:unused", zone_of(s, "chars:unused") + rest[self.count:]))
        return advance(s._replace(zones=with_zone(s, "chars:X", ())))


@dataclasses.dataclass(frozen=True)
class DealCharacter(Waiting):
    """KMC 7.1.5: the top card of the shuffled pool is dealt to ``seat``."""

    KIND: ClassVar[str] = "deal_char"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("deal", "chars:pool", zone_of(s, "chars:pool")[:1], to_seat=self.seat)

    @answers(CardsDealt)
    def dealt(self, g: Rules, s: LockeState, action: CardsDealt) -> LockeState:
        pool = zone_of(s, "chars:pool")
        seat = s.seats[self.seat]._replace(character=pool[0])
        return advance(s._replace(seats=with_seat(s, self.seat, seat), zones=with_zone(s, "chars:pool", pool[1:])))


# --- shadow roll and silhouettes (KMC 7.1.7-8, table 7.2) ------------------------------


@dataclasses.dataclass(frozen=True)
class ShadowRoll(Automatic):
    """Every seat gets a fresh private die (rulings N18, N41), then all pick a silhouette."""

    KIND: ClassVar[str] = "shadow"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        steps: list[LockeStep] = []
        for seat in range(s.n):
            s = fresh_zone(s, f"die:{seat}", ck.DIE_CARDS)
            steps += [Shuffle(f"die:{seat}"), DealDie(seat)]
        seats = tuple(p._replace(silhouette="") for p in s.seats)
        s = s._replace(seats=seats, picking=tuple(range(s.n)), taken=tuple(() for _ in range(s.n)))
        return advance(s, *steps, SilhouettePicks(), FacesCheck())


@dataclasses.dataclass(frozen=True)
class DealDie(Waiting):
    """The top card of ``seat``'s shuffled die deck is its private shadow roll (N18, N41)."""

    KIND: ClassVar[str] = "deal_die"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("deal", f"die:{self.seat}", zone_of(s, f"die:{self.seat}")[:1], to_seat=self.seat)

    @answers(CardsDealt)
    def dealt(self, g: Rules, s: LockeState, action: CardsDealt) -> LockeState:
        zone = zone_of(s, f"die:{self.seat}")
        seat = s.seats[self.seat]._replace(die=zone[0])
        return advance(s._replace(seats=with_seat(s, self.seat, seat),
                                  zones=with_zone(s, f"die:{self.seat}", zone[1:])))


def taken_copies(s: LockeState, excluding: tuple[int, ...] = ()) -> dict[str, int]:
    taken: dict[str, int] = {}
    for i, p in enumerate(s.seats):
        if p.silhouette and i not in excluding:
            taken[p.silhouette] = taken.get(p.silhouette, 0) + 1
    return taken


def free_silhouettes(g: Rules, s: LockeState, excluding: tuple[int, ...] = ()) -> tuple[str, ...]:
    """Silhouette ids with a copy left, in data order (seats in ``excluding`` hold none)."""
    taken = taken_copies(s, excluding)
    return tuple(sil.id for sil in g.components.silhouettes if taken.get(sil.id, 0) < sil.count)


@dataclasses.dataclass(frozen=True)
class SilhouettePicks(Waiting):
    """Every seat in ``LockeState.picking`` picks a free silhouette at once (a sealed choice,
    KMC 7.1.7); the die rule is a claim judged when the die opens."""

    KIND: ClassVar[str] = "silhouettes"

    def pending(self, g: Rules, s: LockeState) -> Pending:
        options = free_silhouettes(g, s, s.picking)
        return SealedChoice(s.picking, "locke.silhouette", tuple(options for _ in s.picking))

    @answers(SealedChoicesRevealed)
    def revealed(self, g: Rules, s: LockeState, action: SealedChoicesRevealed) -> LockeState:
        """Everyone shows the picked face; over-picked faces go to the earliest seats
        and the later ones pick again (rulings N18, N41)."""
        before = taken_copies(s, s.picking)
        snapshot = tuple(sorted(before.items()))
        seats = list(s.seats)
        taken = list(s.taken)
        counts = dict(before)
        again: list[int] = []
        for seat, choice in sorted(zip(s.picking, action.choices)):
            taken[seat] = snapshot
            if counts.get(choice, 0) < g.components.silhouette(choice).count:
                counts[choice] = counts.get(choice, 0) + 1
                seats[seat] = seats[seat]._replace(silhouette=choice)
            else:
                again.append(seat)
        s = s._replace(seats=tuple(seats), taken=tuple(taken), picking=tuple(again))
        if again:
            return advance(s, SilhouettePicks())
        return advance(s)


def face_attribute(g: Rules, silhouette: str) -> str:
    attribute: str = g.components.silhouette(silhouette).attribute
    return attribute


@dataclasses.dataclass(frozen=True)
class FacesCheck(Automatic):
    """KMC 7.1.8: at least one Good and one Evil face, else roll again; too many
    Evil faces switch (ruling N19); then every pick becomes a shadow claim."""

    KIND: ClassVar[str] = "faces"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        attributes = [face_attribute(g, p.silhouette) for p in s.seats]
        if setup_tables.needs_shadow_reroll(attributes):
            return advance(log(s, "shadow-reroll", "locke.7.1.8"), ShadowRoll())
        made = tuple(
            ck.make(seat, s.step_no, ck.SHADOW, (p.die, p.character),
                    [p.silhouette, [list(t) for t in s.taken[seat]]], "locke.7.1.7")
            for seat, p in enumerate(s.seats)
        )
        s = s._replace(**claimed(s, *made))
        switch = tuple(SwitchFace(seat) for seat in setup_tables.evil_faces_to_switch(attributes))
        return advance(s, *switch, FacesDone())


@dataclasses.dataclass(frozen=True)
class SwitchFace(SeatDecision):
    """Ruling N19: an Evil face beyond the table's share switches to a free non-Evil one."""

    KIND: ClassVar[str] = "switch"

    def options(self, g: Rules, s: LockeState) -> tuple[str, ...]:
        return tuple(sid for sid in free_silhouettes(g, s, (self.seat,)) if face_attribute(g, sid) != "evil")

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Switch(self.seat, sid) for sid in self.options(g, s)]

    @answers(Switch)
    def switched(self, g: Rules, s: LockeState, action: Switch) -> LockeState:
        options = list(self.options(g, s))
        if action.silhouette not in options:
            raise IllegalAction(f"{action.silhouette!r} is not a free non-Evil silhouette; choose one of {options}",
                                rule="locke.7.1.8")
        seat = s.seats[self.seat]._replace(silhouette=action.silhouette)
        return advance(log(s._replace(seats=with_seat(s, self.seat, seat)), "switched", self.seat, action.silhouette))


@dataclasses.dataclass(frozen=True)
class FacesDone(Automatic):
    """Base players are the Evil faces; lay the planet cards (KMC 7.1.1, 7.1.9-11)."""

    KIND: ClassVar[str] = "faces_done"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        seats = tuple(p._replace(base_player=face_attribute(g, p.silhouette) == "evil") for p in s.seats)
        s = s._replace(seats=seats)
        cards = tuple(cid for cid in g.components.deck("planets") if cid not in AMBUSH_CARDS)
        s = fresh_zone(s, "planet:stock", cards)
        base = [i for i, p in enumerate(seats) if p.base_player]
        ambushes: list[LockeStep] = []
        # KMC 7.1.9, rulings N40 and N251: both ambushes are laid in one placement, so one cell never
        # holds two; with several base players the first lays them (the side agrees together, N12)
        # and the second learns where its ambush B lies (ambush_owner: A is the first's, B the second's)
        ambushes.append(AmbushPlacement(base[0], AMBUSH_CARDS))
        if len(base) > 1:
            ambushes.append(AmbushDisclosure(base[0], (base[1],)))
        rollers = tuple(i for i, p in enumerate(seats) if not p.base_player)
        k = setup_tables.base_player_planet_cards(s.n - len(base))
        deals = tuple(DealPlanets(seat, k) for seat in base)
        return advance(s, Shuffle("planet:stock"), LayPlanets(), *ambushes, OrderRoll(rollers), *deals)


@dataclasses.dataclass(frozen=True)
class LayPlanets(Automatic):
    """KMC 7.1.1: one face-down planet card on each of the 36 planet-card cells."""

    KIND: ClassVar[str] = "lay_planets"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        stock = zone_of(s, "planet:stock")
        cells = tuple((key, Cell(handle=h)) for key, h in zip(PLANET_CELLS, stock))
        return advance(s._replace(cells=cells, zones=with_zone(s, "planet:stock", stock[len(PLANET_CELLS):])))


# --- ambushes (KMC 7.1.9; ruling N40) ------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class AmbushPlacement(Placing):
    """KMC 7.1.9: base player ``seat`` hides its ambush ``cards`` under planet-card cells."""

    KIND: ClassVar[str] = "ambush"
    seat: int
    cards: tuple[str, ...]

    def pending(self, g: Rules, s: LockeState) -> Placement:
        return Placement("place", f"ambush:{self.seat}", self.seat, PLANET_CELLS, self.cards)


@dataclasses.dataclass(frozen=True)
class AmbushDisclosure(Waiting):
    """Ruling N251: the second base player (``to``) learns where the ambushes lie, its ambush B
    among them (its own to come out of, seed 000 3.2.3)."""

    KIND: ClassVar[str] = "ambush_disclose"
    seat: int  # the placer
    to: tuple[int, ...]

    def pending(self, g: Rules, s: LockeState) -> Pending:
        zone = f"ambush:{self.seat}"
        for placement in s.placements:
            if placement[0] == zone:
                return Placement("disclose", zone, self.seat, placement[2], handles=placement[3], to_seats=self.to)
        raise ValueError(f"no placement {zone!r} to disclose")

    @answers(PlacementDisclosed)
    def disclosed(self, g: Rules, s: LockeState, action: PlacementDisclosed) -> LockeState:
        return advance(s)


def ambush_owner(s: LockeState, placer: int, card: str) -> int:
    """Whose ambush ``card`` is (ruling N40, N251): a lone base player's both; with several, A is
    the first base player's (its placer) and B the second's, in seat order."""
    base = [i for i, p in enumerate(s.seats) if p.base_player]
    if card == AMBUSH_CARDS[1] and len(base) > 1 and base[0] == placer:
        return base[1]
    return placer


# --- turn order (KMC 7.1.10; ruling N21) -----------------------------------------------------


@dataclasses.dataclass(frozen=True)
class OrderRoll(Waiting):
    """KMC 7.1.10: the non-base players roll for the first turn; the tied highest roll
    again (ruling N21)."""

    KIND: ClassVar[str] = "order_roll"
    rollers: tuple[int, ...]

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.turn_order", tuple(6 for _ in self.rollers))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        rolls = dict(zip(self.rollers, action.faces))
        roll = setup_tables.roll_for_first(rolls)
        if roll.first is None:
            tied = roll.reroll
            return advance(log(s, "order-tie", list(tied)), OrderRoll(tuple(tied)))
        return advance(s._replace(order=setup_tables.turn_order(roll.first, s.n)))


# --- the base players' planet cards (KMC 7.1.11, table 7.3) ----------------------------------


@dataclasses.dataclass(frozen=True)
class DealPlanets(Waiting):
    """KMC 7.1.11, table 7.3: base player ``seat`` is dealt ``count`` planet cards face down."""

    KIND: ClassVar[str] = "deal_planets"
    seat: int
    count: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("deal", "planet:stock", zone_of(s, "planet:stock")[: self.count], to_seat=self.seat)

    @answers(CardsDealt)
    def dealt(self, g: Rules, s: LockeState, action: CardsDealt) -> LockeState:
        stock = zone_of(s, "planet:stock")
        seat = s.seats[self.seat]
        seat = seat._replace(kept=seat.kept + stock[: self.count])
        return advance(s._replace(seats=with_seat(s, self.seat, seat),
                                  zones=with_zone(s, "planet:stock", stock[self.count:])))


def check_information_shown(kept: tuple[int, ...], handles: tuple[int, ...], need: int, words: str) -> None:
    """Seed 000 3.2.2: showing information cards means at least ``need`` distinct kept cards
    (or none, which is a claim); ``words`` says what to show."""
    if len(handles) < need or len(set(handles)) != len(handles) or any(h not in kept for h in handles):
        raise IllegalAction(words, rule="locke.s000.3.2.2")


def open_information(g: Rules, s: LockeState, seat: int, action: CardsRevealed) -> LockeState:
    """Seed 000 3.2.2: kept cards shown as information go face up and count towards
    the seat's information; a shown card that is not one is a cheat."""
    if any(g.components.planet(c).effect.type != "information" for c in action.cards):
        raise cheat(seat, f"showed {list(action.cards)} as information cards", "locke.s000.3.2.2")
    p = s.seats[seat]
    shown = set(action.handles)
    p = p._replace(kept=tuple(h for h in p.kept if h not in shown), info=p.info + len(shown))
    return s._replace(seats=with_seat(s, seat, p), open_cards=s.open_cards + tuple(zip(action.handles, action.cards)))


def cheat(seat: int, message: str, rule: str) -> CheatDetected:
    return CheatDetected(message, seat=seat, rule=rule)


#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = (
    Shuffle, PickPool, PickRandom, DealCharacter, ShadowRoll, DealDie, SilhouettePicks, FacesCheck, SwitchFace,
    FacesDone, LayPlanets, AmbushPlacement, AmbushDisclosure, OrderRoll, DealPlanets,
)
