"""Every dice chart of seed 002 (the chart collection), as data.

Seed 002 wins over KMC chapter 12 (RULINGS.md, Locke precedence 1). The rows
here follow the seed; the descriptions are ours. Besides the thirteen named
charts the seed states several smaller rolls inside chart entries (the
genocide bombs, the golem count, the dark knights' breakdown roll, ...); they
are charts here too, so that every roll goes through one resolver.

Data only: :mod:`engine.locke.charts` reads it. Numbers are integers; every
entry has a stable English id (listed in docs/rules/locke-charts.md).
"""

from __future__ import annotations

import dataclasses

from engine.locke.outcomes import (
    NO_CONTEXT,
    Attack,
    Context,
    Duration,
    Effect,
    Opponent,
)

# --- shapes ------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Chain:
    """The roll an entry leads to: ``chart`` with ``modifier`` and context."""

    chart: str
    modifier: int = 0
    context: Context = NO_CONTEXT


@dataclasses.dataclass(frozen=True)
class Entry:
    """One row (or several rows sharing one result) of a chart."""

    rows: tuple[int, ...]
    id: str
    opponents: tuple[Opponent, ...] = ()
    attacks: tuple[Attack, ...] = ()
    effects: tuple[Effect, ...] = ()
    value: int | None = None
    chain: Chain | None = None


@dataclasses.dataclass(frozen=True)
class Chart:
    """A chart: ``dice`` to roll, rows ``low``..``high``, its entries.

    A modified total below ``low`` is read as ``low`` and one above ``high``
    as ``high`` (the seed's "12 and over" / "16 and over" rows and the damage
    table clamp, applied to every chart; docs ruling R3). ``modifiable`` is
    False for the transformation check, whose roll no effect may shift.
    ``summed`` is False for rolls whose dice are read one by one.
    ``section`` is the seed 002 section the chart comes from.
    """

    id: str
    dice: tuple[int, ...]
    low: int
    high: int
    entries: tuple[Entry, ...]
    section: str
    modifiable: bool = True
    summed: bool = True


def _r(lo: int, hi: int) -> tuple[int, ...]:
    return tuple(range(lo, hi + 1))


D6 = (6,)
TWO_D6 = (6, 6)

# --- weapons and attacks -----------------------------------------------------

INTRINSIC = "intrinsic"
#: Opponent trait: the illusion combat card cannot put it to sleep (docs T19).
NO_HALLUCINATION = "ignores-hallucination"


def _checked(weapon: str, level: int, *tags: str, target: str = "one") -> Attack:
    """A weapon whose firepower is rolled on the firepower chart every use."""
    return Attack(weapon, level, None, target=target, tags=tags, firepower_chart=weapon)


RAYGUN_I = _checked("raygun", 1, INTRINSIC)
BLASTER_I = _checked("blaster", 2, INTRINSIC)
BAZOOKA_I = _checked("bazooka", 3, INTRINSIC)
BEAM_CANNON_I = _checked("beam-cannon", 4, INTRINSIC)
G_BOMB_ALL = Attack("g-bomb", 5, 30, target="all-in-combat", tags=(INTRINSIC,), timing="first-round-start")
D_BOMB_ALL = Attack("d-bomb", 6, 50, target="all-in-combat", tags=(INTRINSIC,), timing="first-round-start")
BUSTER_CANNON = Attack("buster-cannon", 6, 60, tags=("EM",))

#: Weapon-firepower chart (1d6): firepower by weapon column and face 1..6.
FIREPOWER: dict[str, tuple[int, ...]] = {
    "raygun": (0, 1, 2, 2, 3, 4),
    "blaster": (3, 4, 5, 5, 6, 7),
    "bazooka": (6, 7, 8, 9, 10, 11),
    "beam-cannon": (10, 12, 14, 16, 18, 20),
}

# --- random combat -----------------------------------------------------------

#: Traits shared by police squads (seed: random-combat notes).
POLICE_TRAITS = ("one-attack-hits-all", "combined-fire", "jammer-lost-on-death")


def _police(count: int, weapon: Attack | None, jammer: int | None = None) -> Opponent:
    return Opponent(
        "police",
        count=count,
        durability=1,
        weapon=weapon,
        weapon_chart=None if weapon else "weapon-check",
        esp_jammer=jammer,
        traits=POLICE_TRAITS,
    )


def _esper(level: int, durability: int) -> Opponent:
    return Opponent("esper", esp_level=level, esp_power_infinite=True, durability=durability, mind=None)


_TO_WEAPON_CHECK = Chain("weapon-check")

RANDOM_COMBAT = Chart(
    "random-combat",
    TWO_D6,
    0,
    12,
    (
        Entry((0,), "two-unused-characters", opponents=(Opponent("unused-character", count=2, random_characters=2),)),
        Entry((1, 2), "one-unused-character", opponents=(Opponent("unused-character", count=1, random_characters=1),)),
        Entry((3,), "esper-level-3-durability-3", opponents=(_esper(3, 3),)),
        Entry((4,), "esper-level-3-durability-2", opponents=(_esper(3, 2),)),
        Entry((5,), "esper-level-2-durability-2", opponents=(_esper(2, 2),)),
        Entry((6,), "police-raygun", opponents=(_police(3, RAYGUN_I),)),
        Entry((7,), "police-blaster", opponents=(_police(3, BLASTER_I),)),
        Entry((8,), "police-bazooka", opponents=(_police(3, BAZOOKA_I),)),
        Entry((9,), "police-jammer-1", opponents=(_police(3, None, 1),), chain=_TO_WEAPON_CHECK),
        Entry((10,), "police-jammer-2", opponents=(_police(3, None, 2),), chain=_TO_WEAPON_CHECK),
        Entry((11,), "police-jammer-3", opponents=(_police(4, None, 3),), chain=_TO_WEAPON_CHECK),
        Entry((12,), "police-jammer-4", opponents=(_police(5, None, 4),), chain=_TO_WEAPON_CHECK),
    ),
    "random-combat",
)

#: Rows of the random-combat chart whose opponent is an esper (forest re-roll).
ESPER_ROWS = (3, 4, 5)

# --- weapon check ------------------------------------------------------------

_POLICE_VANISH = Effect("police-vanish")
_ARM = Effect("arm-police")

WEAPON_CHECK = Chart(
    "weapon-check",
    TWO_D6,
    2,
    12,
    (
        Entry((2,), "g-bomb", attacks=(G_BOMB_ALL,), effects=(_POLICE_VANISH, Effect("combat-even-if-alone"))),
        Entry((3,), "trap", effects=(_POLICE_VANISH, Effect("no-combat")), chain=Chain("trap")),
        Entry((4, 5), "raygun", attacks=(RAYGUN_I,), effects=(_ARM,)),
        Entry((6, 7, 8), "blaster", attacks=(BLASTER_I,), effects=(_ARM,)),
        Entry((9, 10), "bazooka", attacks=(BAZOOKA_I,), effects=(_ARM,)),
        Entry(
            (11,),
            "armored-car",
            # Machine: no transformation check (KMC 11.4); immune to the illusion card (KMC 5.3.2, N13).
            opponents=(Opponent("armored-car", durability=8, weapon=BEAM_CANNON_I, traits=("machine", NO_HALLUCINATION)),),
            effects=(_POLICE_VANISH,),
        ),
        Entry((12,), "d-bomb", attacks=(D_BOMB_ALL,), effects=(_POLICE_VANISH, Effect("combat-even-if-alone"))),
    ),
    "weapon-check",
)

# --- weapon firepower (entries are generated per column by the resolver) -----

WEAPON_FIREPOWER = Chart(
    "weapon-firepower",
    D6,
    1,
    6,
    tuple(Entry((face,), f"face-{face}") for face in range(1, 7)),
    "weapon-firepower",
)

# --- prison ------------------------------------------------------------------

#: Natural dice sums up to this escape whatever the modifier (seed: prison).
PRISON_NATURAL_ESCAPE_MAX = 5

PRISON = Chart(
    "prison",
    TWO_D6,
    2,
    12,
    (
        Entry(_r(2, 5), "escape", effects=(Effect("escape"),)),
        Entry((6,), "escape-if-level-4", effects=(Effect("may-escape", params=(("min_esp_level", 4),)),)),
        Entry((7,), "escape-if-level-5", effects=(Effect("may-escape", params=(("min_esp_level", 5),)),)),
        Entry((8,), "escape-if-level-6", effects=(Effect("may-escape", params=(("min_esp_level", 6),)),)),
        Entry(
            (9, 10),
            "prison-combat",
            effects=(
                Effect(
                    "prison-combat",
                    on_success="escape",
                    on_fail="escape-failed",
                    tags=("escape-if-all-opponents-die", "may-quit-each-round-start"),
                ),
            ),
            chain=Chain("random-combat"),
        ),
        Entry((11,), "escape-into-trap", effects=(Effect("escape"),), chain=Chain("trap")),
        Entry(
            (12,),
            "esp-proof",
            effects=(
                Effect("escape-failed"),
                Effect(
                    "esp-proof",
                    duration=Duration(until="removed-or-death"),
                    params=(("esp_level", 0), ("esp_power", 0), ("proofs", 1)),
                    tags=("removal-roll-each-check-phase",),
                ),
            ),
        ),
    ),
    "prison",
)

# --- ship support ------------------------------------------------------------

_BEAM = _checked("beam-cannon", 4)

SHIP_SUPPORT = Chart(
    "ship-support",
    TWO_D6,
    2,
    12,
    (
        Entry((2,), "d-bomb", attacks=(Attack("d-bomb", 6, 50),)),
        Entry((3,), "g-bomb", attacks=(Attack("g-bomb", 5, 30),)),
        Entry(_r(4, 6), "beam-cannon", attacks=(_BEAM,), chain=Chain("weapon-firepower", context=Context(weapon="beam-cannon"))),
        Entry(_r(7, 11), "no-support"),
        Entry(
            (12,),
            "misfire",
            attacks=(_checked("beam-cannon", 4, target="self"),),
            chain=Chain("weapon-firepower", context=Context(weapon="beam-cannon")),
        ),
    ),
    "ship-support",
)

# --- actually there / alive / residual thought / joined ----------------------


def _join(round_no: int) -> Effect:
    return Effect("join-combat", params=(("round", round_no),))


ACTUALLY_THERE = Chart(
    "actually-there",
    TWO_D6,
    2,
    12,
    (
        Entry(_r(2, 4), "there-now", effects=(_join(1),), value=1),
        Entry((5,), "arrives-round-2", effects=(_join(2),), value=2),
        Entry((6,), "arrives-round-3", effects=(_join(3),), value=3),
        Entry((7,), "arrives-round-4", effects=(_join(4),), value=4),
        Entry(_r(8, 11), "not-there"),
        Entry((12,), "not-there-deal-cards", effects=(Effect("deal-cards"),)),
    ),
    "actually-there",
)

ACTUALLY_ALIVE = Chart(
    "actually-alive",
    TWO_D6,
    2,
    12,
    (
        Entry((2, 12), "alive", effects=(Effect("revive", params=(("place", "combat-site"),)),)),
        Entry(_r(3, 5), "residual-thought", effects=(Effect("residual-thought"),), chain=Chain("residual-thought")),
        Entry(_r(6, 11), "still-dead"),
    ),
    "actually-alive",
)


def _thought(firepower: int) -> Entry:
    return Entry(
        (),
        f"firepower-{firepower}",
        attacks=(Attack("residual-thought", None, firepower),),
        value=firepower,
    )


RESIDUAL_THOUGHT = Chart(
    "residual-thought",
    TWO_D6,
    2,
    12,
    tuple(dataclasses.replace(_thought(fp), rows=(row,)) for row, fp in ((2, 100), (3, 50), (4, 30), (5, 20), (6, 10)))
    + (Entry(_r(7, 12), "no-firepower", value=0),),
    "residual-thought",
)

ACTUALLY_JOINED = Chart(
    "actually-joined",
    TWO_D6,
    2,
    12,
    (
        Entry(
            (2, 12),
            "joined",
            effects=(Effect("join-game", params=(("place", "combat-site"), ("random_character", 1), ("random_silhouette", 1))),),
        ),
        Entry(_r(3, 11), "not-joined"),
    ),
    "actually-joined",
)

# --- trap --------------------------------------------------------------------

HIT_ALL = "one-attack-hits-all"

TRAP = Chart(
    "trap",
    TWO_D6,
    2,
    16,
    (
        Entry((2,), "psycho-bomb", attacks=(Attack("psycho-bomb", None, 20, target="self", stat="mind"),)),
        Entry(
            (3,),
            "dark-knights",
            opponents=(
                Opponent(
                    "dark-knight",
                    durability=8,
                    weapon=Attack("d-bomb", 6, 50, tags=(INTRINSIC,)),
                    traits=("machine", NO_HALLUCINATION, "round-end-breakdown-roll"),  # KMC 5.3.2 (N13)
                ),
            ),
        ),
        Entry(
            (4,),
            "resonance-forest",
            effects=(Effect("resonance-forest", duration=Duration(until="end-of-combat"), tags=("combat-card-level-hits-self",)),),
            chain=Chain("random-combat", context=Context(forest=True)),
        ),
        Entry(
            (5,),
            "hell-divers",
            opponents=(
                Opponent("hell-diver", count=4, durability=6, weapon=_checked("blaster", 2, INTRINSIC), traits=(HIT_ALL, "combined-fire")),
            ),
        ),
        Entry((6,), "hallucination-attack", chain=Chain("hallucination")),
        Entry((7,), "event", chain=Chain("event")),
        Entry(
            (8,),
            "deadline",
            effects=(
                Effect(
                    "restraint",
                    target="all-present",
                    duration=Duration(dice=(3,)),
                    tags=("includes-evil-silhouettes", "no-actually-there", "cannot-oppose-victory"),
                ),
            ),
        ),
        Entry(
            (9,),
            "cybers",
            opponents=(
                Opponent(
                    "cyber",
                    count=3,
                    durability=8,
                    melee=2,
                    weapon=Attack("melee", 2, 2, count=2, tags=("melee", "simultaneous")),
                    traits=(HIT_ALL,),
                ),
            ),
        ),
        Entry(
            (10,),
            "golems",
            opponents=(
                Opponent(
                    "golem",
                    count=0,
                    count_chart="golem-count",
                    durability=3,
                    weapon=_checked("beam-cannon", 4, "E"),
                    traits=(HIT_ALL, "combined-fire", "round-end-full-heal", NO_HALLUCINATION),
                ),
            ),
            chain=Chain("golem-count"),
        ),
        Entry(
            (11,),
            "e-buster",
            opponents=(
                Opponent(
                    "e-buster",
                    durability=10,
                    weapon=BUSTER_CANNON,
                    traits=(NO_HALLUCINATION, "spares-declared-level-2-or-less", "persuadable-by-level-check"),
                ),
            ),
        ),
        Entry(
            (12,),
            "chronos-trap",
            effects=(
                Effect(
                    "chronos-trap",
                    check="mind",
                    on_fail="damage-self-then-repeat",
                    on_success="end",
                    params=(("odds", "1-1"),),
                ),
            ),
        ),
        Entry(
            (13,),
            "super-e-buster",
            opponents=(
                Opponent(
                    "super-e-buster",
                    durability=10,
                    weapon=BUSTER_CANNON,
                    esp_jammer=3,
                    esp_barrier=4,
                    traits=(
                        NO_HALLUCINATION,
                        "not-persuadable",
                        "jammer-vs-escape-only",
                        "jammer-lost-when-damaged",
                        "barrier-once-per-round",
                    ),
                ),
            ),
        ),
        Entry((14,), "genocide", chain=Chain("genocide")),
        Entry(
            (15,),
            "sync-attack-of-300",
            effects=(
                Effect(
                    "sync-attack-of-300",
                    params=(("extra_cards", 1),),
                    tags=("declare-at-least-own-level", "all-attack-cards-sync", "defend-or-evade-only"),
                ),
            ),
        ),
        Entry(
            (16,),
            "black-hole",
            effects=(
                Effect(
                    "black-hole",
                    check="esp-level",
                    on_fail="fall-into-black-hole",
                    params=(("mirrors_to_avoid", 2),),
                    tags=("dies-if-white-hole-unused",),
                ),
            ),
        ),
    ),
    "trap",
)

#: Modifier the event chart's "trap +4" adds to the trap roll.
TRAP_PLUS = 4

# --- sub-rolls stated inside trap entries -----------------------------------

HALLUCINATION = Chart(
    "hallucination",
    TWO_D6,
    2,
    12,
    # The resolver picks the entry from the ESP level and doubles.
    (Entry((), "miss"), Entry((), "hit"), Entry((), "hit-doubles-roll-again")),
    "trap",
)

GENOCIDE = Chart(
    "genocide",
    TWO_D6,
    2,
    12,
    (
        Entry((2,), "b-bomb", effects=(Effect("b-bomb", check="mind", on_fail="death"),)),
        Entry((3, 4), "n-bomb", attacks=(Attack("n-bomb", 8, None, target="self", odds="10-1"),)),
        Entry(_r(5, 9), "g-bomb", attacks=(Attack("g-bomb", 5, 30, target="self"),)),
        Entry((10, 11), "d-bomb", attacks=(Attack("d-bomb", 6, 50, target="self"),)),
        Entry((12,), "geoid-bomb", attacks=(Attack("geoid-bomb", 7, 100, target="self"),)),
    ),
    "trap",
)

GOLEM_COUNT = Chart(
    "golem-count",
    D6,
    1,
    6,
    tuple(Entry((n,), f"golems-{n}", value=n) for n in range(1, 7)),
    "trap",
)

DARK_KNIGHT_BREAKDOWN = Chart(
    "dark-knight-breakdown",
    D6,
    1,
    6,
    (Entry(_r(1, 5), "destroyed", effects=(Effect("destroyed", target="dark-knight"),)), Entry((6,), "holds")),
    "trap",
)

# --- event -------------------------------------------------------------------

EVENT = Chart(
    "event",
    TWO_D6,
    2,
    12,
    (
        Entry(
            (2,),
            "necra-crawley",
            attacks=(Attack("necra-crawley", None, None, target="all-living", odds="10-1", tags=("face-up-locke-exempt",)),),
            effects=(Effect("locke-may-reveal", target="locke"),),
        ),
        Entry(
            (3,),
            "psycho-blast",
            effects=(
                Effect(
                    "psycho-blast",
                    duration=Duration(until="death"),
                    params=(("esp_level_delta", 1), ("min_esp_level", 1), ("mind", 3)),
                    tags=("face-up-locke-exempt",),
                ),
                Effect("locke-may-reveal", target="locke"),
            ),
            attacks=(
                Attack("psycho-blast-backlash", None, None, target="all-present", odds="10-1", timing="if-locke-exempt"),
            ),
        ),
        Entry(
            (4,),
            "d-bomb-misfire",
            effects=(
                Effect(
                    "d-bomb-misfire",
                    target="random-cell",
                    check="esp-level",
                    on_fail="damage-10-1",
                    tags=("destroys-card-on-cell", "planet-excludes-spaceports-and-rafnor"),
                ),
            ),
            chain=Chain("random-cell"),
        ),
        Entry((5,), "hypno-crystal", effects=(Effect("reveal-character", target="all-present"),)),
        Entry(
            (6,),
            "astro-race",
            effects=(
                Effect(
                    "astro-race",
                    target="all-living",
                    params=(("goal", 18), ("prize_ability_cards", 1)),
                    tags=("dead-may-check-actually-alive", "six-twice-damage-or-retire", "six-thrice-retire"),
                ),
            ),
        ),
        Entry(
            (7,),
            "skyhawk-dandy",
            effects=(
                Effect(
                    "restraint",
                    target="self-if-female",
                    duration=Duration(until="mind-check-success"),
                    check="mind",
                    on_success="release-and-end-turn",
                    tags=("check-each-check-phase",),
                ),
            ),
        ),
        Entry((8,), "kurukuru-pa-x", effects=(Effect("restraint", duration=Duration(dice=(6,))),)),
        Entry(
            (9,),
            "wheat-harvest",
            effects=(Effect("wheat-harvest", duration=Duration(until="harvest"), tags=("roll-each-check-phase",)),),
        ),
        Entry((10,), "emperor-plan", effects=(Effect("emperor-plan", target="all-living", tags=("no-cell-effect",)),)),
        Entry(
            (11,),
            "hijiri-whim",
            effects=(
                Effect(
                    "hijiri-whim",
                    duration=Duration(until="death"),
                    params=(("option_a", "whim-stats"), ("option_b", "four-unused-characters")),
                    tags=("choose-one", "option-a-loses-abilities"),
                ),
            ),
        ),
        Entry((12,), "trap-plus-4", chain=Chain("trap", modifier=TRAP_PLUS)),
    ),
    "event",
)

RANDOM_CELL = Chart(
    "random-cell",
    TWO_D6,
    2,
    12,
    (Entry((), "cell"),),
    "event",
    modifiable=False,
    summed=False,
)

WHEAT_HARVEST = Chart(
    "wheat-harvest",
    D6,
    1,
    6,
    (Entry(_r(1, 4), "rain"), Entry((5, 6), "harvest", effects=(Effect("return-and-end-turn"),))),
    "event",
)

WHIM_STATS = Chart(
    "whim-stats",
    (6, 6, 6, 6),
    4,
    24,
    (Entry((), "stats"),),
    "event",
    modifiable=False,
    summed=False,
)


def _ability(name: str, *tags: str, **params: int) -> tuple[Effect, ...]:
    return (Effect("gain-ability", params=(("ability", name),) + tuple(sorted(params.items())), tags=tags),)


WHIM_ABILITY = Chart(
    "whim-ability",
    D6,
    1,
    6,
    (
        Entry((1,), "nothing", effects=(Effect("whim-blank", params=(("twice_ability", "experience"),), tags=("twice-gives-experience",)),)),
        Entry((2,), "release", effects=_ability("release", "normal")),
        Entry((3,), "sword", effects=_ability("sword", "combat", melee_weapon=1)),
        Entry((4,), "blaster", effects=_ability("blaster", "combat", "main", "attack", INTRINSIC)),
        Entry((5,), "henchman", effects=_ability("henchman", "pre-combat", henchman=2, gain_min=4)),
        Entry((6,), "ship-support", effects=_ability("ship-support", "combat", "support", "attack", "M")),
    ),
    "event",
)

# --- damage table ------------------------------------------------------------

#: Damage-table cell meaning "eliminated": dead whatever the durability left.
E = -1

#: The 13 columns of seed 002's damage table, left to right, with the smallest
#: attack:durability multiple k (attack >= k * durability) each needs.
DAMAGE_COLUMNS: tuple[tuple[str, int], ...] = (
    ("1-2-or-less", 0),
    ("1-1", 1),
    ("2-1", 2),
    ("3-1", 3),
    ("4-1", 4),
    ("5-1", 5),
    ("6-1", 6),
    ("7-1", 7),
    ("8-1", 8),
    ("9-1", 9),
    ("10-1", 10),
    ("20-1", 20),
    ("50-1-or-more", 50),
)

#: Damage by roll 2..12 (rows) and column (same order as DAMAGE_COLUMNS).
DAMAGE_TABLE: tuple[tuple[int, ...], ...] = (
    (2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, E, E),  # 2
    (1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, E),  # 3
    (0, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 5, E),  # 4
    (0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5),  # 5
    (0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5),  # 6
    (0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 4, 4),  # 7
    (0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4),  # 8
    (0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3),  # 9
    (0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 3, 3),  # 10
    (0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3),  # 11
    (0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2),  # 12
)

DAMAGE = Chart(
    "damage",
    TWO_D6,
    2,
    12,
    # Cells are generated per column by engine.locke.damage.
    (),
    "damage",
)

# --- transformation check ----------------------------------------------------


def _stat(stat: str, delta: int) -> tuple[Effect, ...]:
    return (Effect("stat-change", duration=Duration(until="end-of-game"), params=((stat, delta),)),)


TRANSFORMATION = Chart(
    "transformation",
    TWO_D6,
    2,
    12,
    (
        Entry(
            (2, 3),
            "true-self",
            effects=(Effect("transform", params=(("random_character", 1), ("random_silhouette", 1))),),
        ),
        Entry((4,), "esp-power-plus-10", effects=_stat("esp_power", 10)),
        Entry((5, 6, 8, 9), "nothing"),
        Entry(
            (7,),
            "extra-combat-cards",
            effects=(
                Effect("draw-combat-cards", params=(("cards", 2),)),
                Effect("hand-limit", duration=Duration(until="end-of-combat"), params=(("hand_limit", 2),)),
            ),
        ),
        Entry((10,), "durability-plus-1", effects=_stat("durability", 1)),
        Entry((11,), "mind-plus-1", effects=_stat("mind", 1)),
        Entry((12,), "esp-level-plus-1", effects=_stat("esp_level", 1)),
    ),
    "transformation-check",
    modifiable=False,
)

#: ESP-proof removal: a check-phase 1d6 at or below this removes one proof.
ESP_PROOF_REMOVAL_MAX = 2

ESP_PROOF_REMOVAL = Chart(
    "esp-proof-removal",
    D6,
    1,
    6,
    (Entry((1, 2), "removed", effects=(Effect("remove-esp-proof", params=(("proofs", 1),)),)), Entry(_r(3, 6), "stays")),
    "prison",
)


# --- the registry ------------------------------------------------------------

#: Every chart by id, in the seed's order, sub-rolls after the chart they serve.
CHARTS: dict[str, Chart] = {
    chart.id: chart
    for chart in (
        RANDOM_COMBAT,
        WEAPON_CHECK,
        WEAPON_FIREPOWER,
        PRISON,
        ESP_PROOF_REMOVAL,
        SHIP_SUPPORT,
        ACTUALLY_THERE,
        ACTUALLY_ALIVE,
        RESIDUAL_THOUGHT,
        ACTUALLY_JOINED,
        TRAP,
        HALLUCINATION,
        GENOCIDE,
        GOLEM_COUNT,
        DARK_KNIGHT_BREAKDOWN,
        EVENT,
        RANDOM_CELL,
        WHEAT_HARVEST,
        WHIM_STATS,
        WHIM_ABILITY,
        DAMAGE,
        TRANSFORMATION,
    )
}

#: The thirteen charts seed 002 names in its table of contents.
SEED_CHARTS = (
    "random-combat",
    "weapon-check",
    "weapon-firepower",
    "prison",
    "ship-support",
    "actually-there",
    "actually-alive",
    "residual-thought",
    "actually-joined",
    "trap",
    "event",
    "damage",
    "transformation",
)
