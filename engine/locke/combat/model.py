"""The combat's public data: fighters, the attack in flight, the combat itself.

Everything here is an immutable named tuple of ints, text, bools and tuples,
so it goes into the state hash as it is (state.public_data encodes
``Combat.detail``). Hidden things stay hidden: a seat fighter's hand is a
tuple of *handles* (the cards are known only to its seat), its level,
durability and mind are never stored (they are declared, as claims, when a
rule needs them), and its ESP power is kept as a public *ledger* of power
spent in this combat (KMC 10.5.2: the true power left is the card's power
minus the ledger).

Obstacles (KMC 10.12: police, espers, random characters, machines ...) are
public: their numbers come from the charts, their combat cards are dealt
face up (ruling N140).
"""

from __future__ import annotations

from typing import NamedTuple

#: Fighter states: in the fight, asleep (illusion, KMC 5.3.2), gone by an escape, dead.
IN, ASLEEP, ESCAPED, DEAD = "in", "asleep", "escaped", "dead"

#: Obstacle party (all obstacles fight together on side 1).
OBSTACLE_PARTY = 1

#: Cards in a hand at the start of every round (KMC 5: seven, one more per henchman).
HAND_SIZE = 7

#: Etiquette guard (KMC 11.6, ruling 26): a combat ends after this many rounds.
MAX_ROUNDS = 30

#: ``Fight.ended`` when the police's weapon check turned the combat into a trap (seed 002, N224).
TRAPPED = "trap"

#: ``Fighter.suit`` (and a declared ``Equip.suit`` or ``Equip.kinds`` entry) of a suit worn without
#: its kind said (KMC 2.3.2, seed 000 3.1.2; ruling N225): the wearer states the kind, a claim, the
#: first time an attack reaches the suit.
SUIT = "suit"
#: The character cards' suits (KMC 2.3.2); the first two are also planet cards (seed 000 3.1.2).
SUITS = ("energy-suit", "powered-suit", "hell-diver-suit")
CARD_SUITS = SUITS[:2]

#: ``Combat.cause`` of seed 002 trap 15, the 300's synchronised attack (engine/locke/combat/volley.py):
#: no combat in the rules' sense (the end leaves ``last_combat`` as it was).
VOLLEY = "trap:sync-attack-of-300"

#: The deck zone, and the spent pile of the cards the base phase turned (engine/locke/base_cards.py).
DECK = "combat:deck"
DISCARD = "combat:discard"


class Obstacle(NamedTuple):
    """A non-player combatant, as the chart gives it (engine/locke/combat/obstacles.py).

    The first four fields are the stand-in's tuple (id, level, firepower,
    durability), so callers may still pass plain 4-tuples.
    """

    id: str
    level: int
    firepower: int
    durability: int
    weapon: str = ""  # weapon-firepower column rolled at every use ("" = fixed firepower)
    traits: tuple[str, ...] = ()
    jammer: int = 0  # ESP jammer level it puts on a player (0: none)
    cards: bool = False  # fights with combat cards (dealt face up, ruling N140)
    power: int = -1  # ESP power for cards (-1: infinite)
    mind: int = 0
    character: str = ""  # a random character's card id
    squad: int = 1  # members of a squad (police, hell divers, cybers, golems)
    hits: int = 1  # simultaneous attacks per member (cybers: 2)
    barrier: int = 0  # an ESP barrier it raises once per round (super E-buster)
    weapon_level: int = 0  # level of its weapon attack (0: its ESP level)
    items: tuple[tuple[str, int], ...] = ()  # a random character's card items, (id, number) (randoms.py)


class Fighter(NamedTuple):
    """One combatant: a seat (``seat`` >= 0) or an obstacle (``seat`` == -1)."""

    seat: int
    party: int  # nobody attacks its own party (KMC 10.6)
    hand: tuple[int, ...] = ()  # card handles (face down for seats, face up for obstacles)
    spent: int = 0  # ESP power spent in this combat (seats: the public ledger)
    state: str = IN
    acted: bool = False  # used its normal action this round (or synced, KMC 10.8.1)
    done: bool = False  # its attack turn of this round is over
    henchmen: int = 0
    jammed_by: tuple[int, ...] = ()  # obstacles whose ESP jammer went on it this round (KMC 10.10, N156)
    ob: Obstacle | None = None
    members: tuple[int, ...] = ()  # obstacles: durability left of each member
    barrier_used: bool = False
    faces: tuple[str, ...] = ()  # obstacles: the face-up cards of ``hand`` (aligned)
    suit: str = ""  # the suit declared and still whole (KMC 2.3.2; SUIT: its kind not yet said, N225)
    suit_left: int = 0  # its durability left (E-suit 5, H-suit 8; the P-suit has none)
    field: bool = False  # an ESP field declared and still whole
    fainted: bool = False  # knocked out: no turn and no answers until it wakes, still a target (N162)
    specials: tuple[str, ...] = ()  # special attacks used this round (KMC 10.4.2)
    jam_owner: int = -1  # the seat whose ESP jammer (of hidden level) is on this fighter (KMC 10.10)
    jam_known: int = 0  # the highest level that jammer is known to reach (it stopped such a card, or held)
    jam_through: int = 0  # the lowest level known to be above that jammer (a card of it got through; 0: none)
    jam_card: int = -1  # that jammer's kept planet card, face down until it breaks (-1: the character's)
    nike_left: int = 0  # Nike's durability left (0: no Nike declared, or broken)
    nike_check: int = 0  # the value declared for the Nike check (a claim)
    nike_on: bool = False  # the Nike check passed this round
    spared: bool = False  # said its level is 2 or less: E-busters never pick it (seed 002 trap 11)
    extra: int = 0  # more cards in hand until the combat ends (transformation chart 7, seed 002)
    thought: int = 0  # a dead seat's residual thought: its firepower (KMC 10.2.1; no cards, no durability)
    # --- items from kept planet cards (seed 000 3.1; engine/locke/combat/items.py, rulings N200-N209) ---
    # A P-suit, field or jammer card stays face down until it breaks (seed 000 3.1.2): its level is
    # hidden as the character's is, and each answer that rests on it is a claim about the card.
    suit_card: int = -1  # the kept planet card that is the suit (-1: the character card's suit)
    field_card: int = -1  # the kept planet card that is the ESP field (-1: the character's)
    field_known: int = 0  # the highest level the field is known to reach (a card paid through it, or held)
    nike_card: int = -1  # the kept planet card that is Nike
    ball: int = 0  # level of the energy absorb ball this fighter put up (0: none)
    ball_card: int = -1
    wake: int = 0  # a knocked-out fighter wakes as this round begins (0: not in this combat)
    ball_out: bool = False  # knocked out by an absorb ball: its jammer and field stop until it wakes (s000 3.1.3)
    ctl_by: int = -1  # the seat whose ESP controller (planet card) dictates this fighter's actions
    ctl_card: int = -1
    # --- a true self inside the combat (KMC 11.4, ruling N228) ---
    own_henchmen: int = 0  # of ``henchmen``, those the character card brought (the rest are kept cards)
    reequip: bool = False  # a new character card: it declares its own items before the next initiative


class Strike(NamedTuple):
    """The attack (or escape teleport) in flight through the steps of KMC fig. 10.2."""

    attacker: int  # fighter index
    target: int  # fighter index
    card: str  # the card it counts as ("" for a weapon or special attack)
    level: int  # attack level, raised by one per sync (KMC 10.8)
    firepower: int
    syncers: tuple[int, ...] = ()  # fighter indexes that synced
    sync_power: tuple[int, ...] = ()  # firepower each syncer added (aligned)
    light_sword: bool = False
    machine: bool = False  # from a non-human: illusion cannot answer it (KMC 10.7.2)
    hits: int = 1  # simultaneous damage checks (seed 002 note 2)
    escape_tried: bool = False
    # an escape teleport being blocked (KMC 10.9): who escapes, its level, block total
    escaper: int = -1
    escape_level: int = 0
    block_base: int = 0
    blockers: tuple[int, ...] = ()
    block_refunds: tuple[tuple[int, int, int], ...] = ()  # (fighter, handle, power) to give back
    declared: int = 0  # durability the target declared (seats)
    reflected: bool = False  # thrown back by an E-suit (KMC 2.3.2): no second reflection
    direct: bool = False  # a residual thought's attack: no escape, defence or suit, the body takes it (KMC 10.7)
    field: bool = False  # the attack card was played through an ESP field (KMC 2.2.2: no level is lost)
    disint_tried: bool = False  # a disintegration was tried on this attack (KMC 10.7.1: one phase, one try)
    mirror: int = 0  # a planet-card Lafnor mirror answered it at this level (escape and defence at once)
    hench_level: int = 0  # levels henchmen's syncs added to the attack (KMC 10.8: each one bounded by the base)
    hench_escape: int = 0  # levels henchmen's syncs added to the escape teleport


class Fight(NamedTuple):
    """The combat's running detail (``state.combat.detail``)."""

    round: int = 0
    fighters: tuple[Fighter, ...] = ()
    order: tuple[int, ...] = ()  # fighter indexes in this round's initiative order
    rolls: tuple[tuple[int, ...], ...] = ()  # initiative rolls per fighter (ties roll again)
    strike: Strike | None = None
    attacked: bool = False  # an attack happened this round (KMC 10.3.5)
    wants: tuple[int, ...] = ()  # seats that declared to go on this round
    used: tuple[int, ...] = ()  # handles played since the deck was shuffled
    escapers: tuple[int, ...] = ()  # seats that escaped, in order (KMC 10.11)
    dead: tuple[int, ...] = ()
    ended: str = ""  # why the combat ends ("" while it goes on)
    before: "Fight | None" = None  # the fight before a play a seat's jammer may still stop (KMC 10.10)
    arrivals: tuple[tuple[int, int], ...] = ()  # (seat, round): actually-there seats still on their way (N166)
    newcomers: tuple[int, ...] = ()  # seats that joined and obey the cell's card when the combat ends (N192)
    forest: tuple[tuple[int, int], ...] = ()  # (fighter, card level): resonance-forest self-damage still due (N187)
    stay: bool = False  # an escape avoids the attack but nobody moves away (seed 002 trap 15, volley.py)
    stopped: tuple[int, ...] = ()  # prisoners who stopped a prison-chart combat: their escape failed (seed 002, D10)
