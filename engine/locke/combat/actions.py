"""What a seat says in a combat (KMC 10, 5). Played cards are declarations.

A card is played by naming its handle and what it is (``card``, the real card
id; ``acts_as`` only for the wildcard, KMC 5.5): the engine logs a claim that
the handle holds that card, and one that the character's own ESP level and
power cover the part of the card's level not stretched by mind checks
(KMC 10.5.1-2). A networked table judges the claims when the cards open; a
trusted LocalTable refuses a false one at once.
"""

from __future__ import annotations

import dataclasses

from engine.core.actions import Action

#: Uses of a card: one's own normal action, or an answer inside another's action.
USES = ("attack", "sync", "hench", "escape", "defend", "block", "flee", "illusion", "telepathy")


@dataclasses.dataclass(frozen=True)
class Play(Action):
    """Play the combat card under ``handle`` for ``use`` (see :data:`USES`).

    ``target`` is a fighter index (attack, telepathy; -1 otherwise).
    ``stretch`` mind checks fill that many levels (KMC 10.5.1), each against
    the declared ``mind``. ``level`` is the ESP level declared for the contact
    telepathy's level check (KMC 5.4).
    """

    KIND = "locke.cb.play"
    use: str
    handle: int
    card: str
    acts_as: str
    target: int
    stretch: int
    mind: int
    level: int
    field: bool = False  # pay with the declared ESP field instead of one's own power (KMC 2.3.2)
    planet: int = -1  # contact telepathy with a kept industrial district: the check at level 6 (seed 000 3.2.4)


@dataclasses.dataclass(frozen=True)
class Durability(Action):
    """KMC 10.7.4: the hit character declares its current durability (a claim)."""

    KIND = "locke.cb.durability"
    value: int


@dataclasses.dataclass(frozen=True)
class Sleep(Action):
    """KMC 5.3.2, table 5.4: fall asleep under an illusion, or stay awake (a claim
    that level + mind reaches the illusion's total)."""

    KIND = "locke.cb.sleep"
    sleep: bool


@dataclasses.dataclass(frozen=True)
class GoOn(Action):
    """KMC 10.3.4: declare that you want the combat to go on (True) or not."""

    KIND = "locke.cb.go_on"
    go_on: bool


@dataclasses.dataclass(frozen=True)
class Equip(Action):
    """KMC 10.3.2 / 2.3: before the first initiative, declare the henchmen you bring and
    the suit and ESP field you use (items of your character card; each one a claim)."""

    KIND = "locke.cb.equip"
    henchmen: int
    suit: str  # "" or energy-suit, powered-suit, hell-diver-suit, or "suit": a suit of kind unsaid (N225)
    field: bool
    jammer: int = -1  # the fighter your ESP jammer goes on (-1: none)
    nike: int = 0  # the value you declare for Nike's check each round (0: no Nike)
    #: kept planet cards used as items (handles) and the planet card each is used as (aligned):
    #: henchman, esp-jammer, esp-field, energy-suit, powered-suit, "suit" (a suit card of kind unsaid,
    #: N225), nike (seed 000 3.1.1-3.1.2)
    cards: tuple[int, ...] = ()
    kinds: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class UseItem(Action):
    """KMC 2.3.1: use an item of your character card (a claim that you have it): a special
    attack at ``target`` on your turn (ship, beam-cannon, geoid-bomb), an escape
    (lafnor-mirror, subspace-field) or a defence (psycho-pod) against an attack."""

    KIND = "locke.cb.item"
    item: str
    target: int
    card: int = -1  # the kept planet card that is the item (-1: the character card's item)
    as_card: str = ""  # the planet card it is used as (a wildcard stands for one, seed 000 3.1.5)
    cards: tuple[int, ...] = ()  # the slum: the three combat cards of the hand to swap


@dataclasses.dataclass(frozen=True)
class Absorb(Action):
    """KMC 2.3.2 P-suit: the suit absorbs the attack (a claim that its level reaches the
    attack's) or is broken by it (a claim that it does not) and the body takes the hit."""

    KIND = "locke.cb.absorb"
    absorb: bool


@dataclasses.dataclass(frozen=True)
class SuitKind(Action):
    """KMC 2.3.2, seed 000 3.1.2 (ruling N225): a suit declared without its kind is reached by an
    attack for the first time; its wearer says which kind it is (energy-suit, powered-suit or
    hell-diver-suit): a claim about the character card, or about the kept planet card it is."""

    KIND = "locke.cb.suit_kind"
    suit: str


@dataclasses.dataclass(frozen=True)
class ShipEffect(Action):
    """KMC 10.4.2 notes 1-2 (ruling N226): a special attack announced as "a ship" has rolled its
    2d6; its user says what it does (``effect``, one of ``claims.SHIP_EFFECTS``): a claim that a
    special of its character card does that at this total (a ship, E-Strohheim's beam cannon or
    Dr. Wong's geoid bomb)."""

    KIND = "locke.cb.ship_effect"
    effect: str


@dataclasses.dataclass(frozen=True)
class Trim(Action):
    """KMC 11.4 (ruling N228): a true self took away henchmen of the old card, so the hand holds
    more cards than it may; the seat puts back these ``handles`` of its hand, face down."""

    KIND = "locke.cb.trim"
    handles: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class JamVeto(Action):
    """KMC 10.10: the jammer's owner says the card just played cannot be used (True: a claim
    that the jammer's hidden level reaches the card's; the play is taken back) or lets it be."""

    KIND = "locke.cb.jam_veto"
    veto: bool


@dataclasses.dataclass(frozen=True)
class Disintegrate(Action):
    """KMC 2.2.2, 10.7.1: when a combat card attacks you or your party, make the attacker take
    a level check (True: a claim that your character has disintegration) or let it be.
    Everyone on the target's side who could hold the ability is asked (ruling N180)."""

    KIND = "locke.cb.disintegrate"
    use: bool


@dataclasses.dataclass(frozen=True)
class Broken(Action):
    """KMC 10.7.3: an attack above your jammer's or field's hidden level got past the escape
    phase: it is broken (True: a claim that its level is below the attack's) or holds."""

    KIND = "locke.cb.broken"
    broken: bool


@dataclasses.dataclass(frozen=True)
class EBuster(Action):
    """Seed 002 trap 11 against an E-buster: ``what`` "spare" says your ESP level is at most
    ``level`` (2; a claim) so it never targets you; "persuade" declares your level (3 or more;
    a claim) for the persuasion's level check; "" lets the question pass."""

    KIND = "locke.cb.ebuster"
    what: str
    level: int


@dataclasses.dataclass(frozen=True)
class Order(Action):
    """The controller's order for the seat it controls (engine/locke/control.py, N211):
    "free", "pass" or "attack:<fighter>" for its combat turn; "free" or "take" for its
    escape and defence."""

    KIND = "locke.order"
    order: str


ACTIONS: tuple[type[Action], ...] = (Play, Durability, Sleep, GoOn, Equip, UseItem, Absorb, JamVeto, Order,
                                     Disintegrate, Broken, EBuster, SuitKind, ShipEffect, Trim)
