"""Super Human Locke components as value objects (docs/rules/locke-components.md).

The five card kinds (characters, silhouettes, combat cards, planet cards,
secret-base cards) are shipped as JSON in assets/locke/. The engine reads no
files: a caller loads the JSON (``assets.load_json``) and hands the parsed data
to the ``*_from_data`` functions here. Each validates every field and raises
:class:`ComponentError` listing *every* problem it found, so one fix-up pass
over the data is enough.

Effects, abilities, items and victory conditions are kept as a ``type``/``kind``
id plus integer/text parameters. The schemas below say which parameters each
id takes; the later turn and combat rules dispatch on the id and read the
numbers, so no rule number lives in code and in data at once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
import functools
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Protocol, TypeGuard, TypeVar

from engine.core.errors import EngineError
from engine.core.hashing import digest

ParamValue = int | str | tuple[str, ...] | tuple[int, ...]
Params = Mapping[str, ParamValue]

#: Totals of each card kind (KMC appendix C; chapter 1's component table agrees).
APPENDIX_C_COUNTS: Mapping[str, int] = MappingProxyType(
    {"characters": 27, "silhouettes": 60, "combat_cards": 86, "planets": 81, "bases": 60}
)

ATTRIBUTES = ("good", "evil", "special", "evil-good")
SILHOUETTE_ATTRIBUTES = ("good", "evil", "special")
SEXES = ("male", "female", "unknown")
MARITAL = ("single", "married", "unknown")
SILHOUETTE_TRAITS = ("locke", "author")
ITEM_LIFETIMES = ("permanent", "until-broken")
ABILITY_KINDS = ("check", "reaction", "action", "passive")
ITEM_KINDS = ("special-attack", "support", "defence", "escape", "suit", "jammer", "field", "nike")

#: Charts the components refer to (ids of engine/locke/charts, seed 002).
CHART_IDS = ("random-combat", "trap", "prison", "ship-support", "weapon-firepower")

COMBAT_TYPES = ("attack", "defence", "escape", "contact-telepathy", "wildcard")
WEAPONS = ("raygun", "blaster", "bazooka", "beam-cannon", "g-bomb", "d-bomb", "geoid-bomb", "light-sword")
COMBAT_TAGS = (
    "syncable", "no-sync", "ignores-defence-cards", "breaks-defences", "puts-to-sleep",
    "teleport-block", "no-power-cost", "ignores-jammer", "stands-for-any",
)

PLANET_GROUPS = ("ability", "other")
PLANET_KINDS = ("ability", "instruction")
#: Lifetimes of a kept (ability) planet card, and what happens to an instruction card.
ABILITY_LIFETIMES = ("permanent", "until-broken", "single-use", "as-chosen")
INSTRUCTION_LIFETIMES = ("stays-on-cell", "kept-face-up", "returned", "removed-when-opened")
PLANET_FLAGS = ("hidden-until-effect", "must-use")

BASE_KINDS = ("key-base", "plain", "event", "alarm")
BASE_FLAGS = ("no-recovery", "no-normal-recovery", "no-recovery-if-exit-open")

# A schema maps parameter name -> type: "int", "str", "strs" (list of text),
# "ints" (list of integers); a trailing "?" marks the parameter optional.
Schema = Mapping[str, str]


def _schemas(raw: dict[str, dict[str, str]]) -> Mapping[str, Schema]:
    return MappingProxyType({k: MappingProxyType(v) for k, v in raw.items()})


PLANET_EFFECTS = _schemas(
    {
        "mirror-card": {"level": "int"},
        "subspace-escape": {"escape_level": "int", "success_max": "int", "faint_min": "int"},
        "absorb-ball": {"max_level": "int", "faint_dice": "int", "absorbs": "strs?"},
        # grant-item also takes the granted item's own parameters (checked against the item).
        "grant-item": {"item": "str"},
        "energy-suit-card": {},
        "special-attack": {"level": "int", "attack": "int", "success_max": "int", "faint_min": "int"},
        "change-identity": {},
        "esp-controller": {"release_die_face": "int"},
        "wildcard": {},
        "heal": {"amount": "int"},
        "reroll": {"count": "int"},
        "contact-telepathy-level": {"level": "int"},
        "give-ability-card": {"count": "int"},
        "swap-combat-cards": {"count": "int"},
        "clone": {},
        "ambush": {"henchmen_by_face": "ints"},
        "information": {"needed": "int"},
        "chart": {"chart": "str"},
        "spaceport": {},
        "arrest": {"chart": "str"},
        "peek-identity": {"count": "int"},
        "reveal-self": {},
    }
)

BASE_EFFECTS = _schemas(
    {
        "key-base": {"bases_to_win": "int"},
        "none": {},
        "random-teleport": {"dice": "int"},
        "chart": {"chart": "str"},
        "level-check-or-rest": {"rest_dice": "int"},
        "captor": {
            "character_sex": "str", "exempt_silhouette": "str", "escape_faces": "ints",
            "threat_damage_faces": "ints", "threat_damage": "int", "threat_card_loss": "int",
        },
        "illusion-room": {"level": "int"},
        "alarm-device": {"jammer_level": "int", "attack_level": "int"},
        "controller-system": {"exempt_silhouette": "str", "release_die_face": "int"},
        "ek": {},
        "audio-room": {"author_rest_dice": "int", "others_fail_rest_turns": "int"},
        "rest-and-heal": {"rest_dice": "int", "author_multiplier": "int", "heal_per_turn": "int"},
        "author-victory-attempt": {},
        "mind-check-or-rest": {"silhouette_sex": "str", "rest_dice": "int"},
        "autograph-session": {"rest_dice": "int", "locke_multiplier": "int"},
        "vortex": {"cards": "int", "odds": "int"},
        "nova": {},
        "black-hole": {"exit": "str"},
        "silhouette-rest": {"silhouette_trait": "str", "rest_dice": "int"},
    }
)

#: Personal victory conditions (the attribute's own condition is separate).
VICTORY_KINDS = _schemas(
    {
        "none": {},
        "lose-if-any-alive": {"targets": "strs"},
        "lose-if-any-dead": {"targets": "strs"},
        "lose-if-all-present-dead": {"targets": "strs"},
        "no-other-alive-at-level": {"level": "int"},
        "dead-share-of-others": {"numerator": "int", "denominator": "int"},
        "dead-share-of-all": {"numerator": "int", "denominator": "int"},
        "survive-in-party-with": {"sex": "str", "marital": "str"},
        "present-at-finale": {},
        "kill-personally": {"targets": "strs", "flags": "strs?"},
    }
)


class ComponentError(EngineError, ValueError):
    """Component data is malformed or inconsistent; ``problems`` lists every fault."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(
            f"{len(self.problems)} problem(s) in Locke component data; fix the JSON in assets/locke/: "
            + "; ".join(self.problems)
        )


# ---------------------------------------------------------------- value objects


@dataclasses.dataclass(frozen=True)
class AbilitySpec:
    """A special ability a character card can carry (KMC ch. 2.2)."""

    id: str
    kind: str
    name_ja: str
    name_en: str
    params: Schema
    text_en: str


@dataclasses.dataclass(frozen=True)
class ItemSpec:
    """An item a character starts with (KMC ch. 2.3); ``constants`` hold its fixed numbers."""

    id: str
    kind: str
    lifetime: str
    name_ja: str
    name_en: str
    constants: Params
    params: Schema
    text_en: str


@dataclasses.dataclass(frozen=True)
class Grant:
    """One ability or item on a card: the catalogue id plus this card's parameters."""

    id: str
    params: Params


@dataclasses.dataclass(frozen=True)
class VictoryCondition:
    kind: str
    params: Params


@dataclasses.dataclass(frozen=True)
class Character:
    """A character card (KMC table 2.1). ``counts_as`` names the people it is for
    victory conditions (for example both Grunberg cards count as "grunberg")."""

    id: str
    name_ja: str
    name_en: str
    counts_as: tuple[str, ...]
    attribute: str
    sex: str
    marital: str
    level: int
    power: int
    durability: int
    mind: int
    abilities: tuple[Grant, ...]
    items: tuple[Grant, ...]
    victory: VictoryCondition

    def has_ability(self, ability_id: str) -> bool:
        return any(g.id == ability_id for g in self.abilities)

    def items_of(self, item_id: str) -> tuple[Grant, ...]:
        return tuple(g for g in self.items if g.id == item_id)

    @property
    def can_release(self) -> bool:
        """The "release" column of table 2.1."""
        return self.has_ability("release")

    @property
    def can_shape_change(self) -> bool:
        """The "shape-change" column of table 2.1."""
        return self.has_ability("shape-change")


@dataclasses.dataclass(frozen=True)
class CharacterCatalogue:
    abilities: Mapping[str, AbilitySpec]
    items: Mapping[str, ItemSpec]
    characters: tuple[Character, ...]


@dataclasses.dataclass(frozen=True)
class Silhouette:
    """A silhouette card: the face a player shows. ``characters`` are the
    character cards this is "the same silhouette" of (for the 1 on the
    silhouette roll); ``traits`` mark Locke and author silhouettes for traps."""

    id: str
    name_ja: str
    name_en: str
    attribute: str
    sex: str
    traits: tuple[str, ...]
    characters: tuple[str, ...]
    count: int


@dataclasses.dataclass(frozen=True)
class CombatCard:
    """A combat card (KMC ch. 5). ``firepower`` is the attack value of an attack
    card and 0 otherwise; ``weapon`` is empty for non-attacks."""

    id: str
    type: str
    name_ja: str
    name_en: str
    weapon: str
    level: int
    firepower: int
    tags: tuple[str, ...]
    count: int


@dataclasses.dataclass(frozen=True)
class Effect:
    type: str
    params: Params


@dataclasses.dataclass(frozen=True)
class PlanetCard:
    """A planet card (seed 000 = KMC ch. 3). ``kind`` says whether the drawer
    keeps it hidden (ability) or shows it and obeys it (instruction)."""

    id: str
    name_ja: str
    name_en: str
    group: str
    kind: str
    lifetime: str
    level: int
    count: int
    effect: Effect
    flags: tuple[str, ...]
    text_en: str


@dataclasses.dataclass(frozen=True)
class BaseCard:
    """A secret-base card (KMC ch. 4): always turned face up where it lies."""

    id: str
    name_ja: str
    name_en: str
    kind: str
    count: int
    effect: Effect
    flags: tuple[str, ...]
    text_en: str


@dataclasses.dataclass(frozen=True)
class ComponentSet:
    """Every Locke component, cross-checked, with appendix C's totals."""

    catalogue: CharacterCatalogue
    silhouettes: tuple[Silhouette, ...]
    combat_cards: tuple[CombatCard, ...]
    planets: tuple[PlanetCard, ...]
    bases: tuple[BaseCard, ...]

    @property
    def characters(self) -> tuple[Character, ...]:
        return self.catalogue.characters

    @property
    def counts(self) -> Mapping[str, int]:
        """Physical cards of each kind (duplicates counted)."""
        return MappingProxyType(
            {
                "characters": len(self.characters),
                "silhouettes": sum(s.count for s in self.silhouettes),
                "combat_cards": sum(c.count for c in self.combat_cards),
                "planets": sum(p.count for p in self.planets),
                "bases": sum(b.count for b in self.bases),
            }
        )

    def deck(self, kind: str) -> tuple[str, ...]:
        """The ids of every physical card of ``kind``, duplicates repeated, in data order."""
        if kind == "characters":
            return tuple(c.id for c in self.characters)
        counted: Mapping[str, tuple[Silhouette | CombatCard | PlanetCard | BaseCard, ...]] = {
            "silhouettes": self.silhouettes, "combat_cards": self.combat_cards,
            "planets": self.planets, "bases": self.bases,
        }
        if kind not in counted:
            raise ComponentError([f"unknown component kind {kind!r}; use one of {sorted(APPENDIX_C_COUNTS)}"])
        return tuple(card.id for card in counted[kind] for _ in range(card.count))

    def character(self, character_id: str) -> Character:
        return _lookup(self.characters, character_id, "character")

    def silhouette(self, silhouette_id: str) -> Silhouette:
        return _lookup(self.silhouettes, silhouette_id, "silhouette")

    def combat_card(self, card_id: str) -> CombatCard:
        return _lookup(self.combat_cards, card_id, "combat card")

    def planet(self, card_id: str) -> PlanetCard:
        return _lookup(self.planets, card_id, "planet card")

    def base(self, card_id: str) -> BaseCard:
        return _lookup(self.bases, card_id, "secret-base card")

    def planet_effect(self, card: str) -> str:
        """The effect type of the planet card ``card`` (an id, or a kind: :func:`kind_of`); ""
        when no planet card is called that."""
        return self._effect_of.get(card, "")

    def planets_of(self, effect: str) -> tuple[str, ...]:
        """The ids of the planet cards whose effect is of type ``effect``, in data order."""
        return self._planets_by_effect.get(effect, ())

    # The engine asks these on every decision: built once per component set (functools.cached_property
    # writes beside the frozen fields; equality, hashing and the digest read the fields only).

    @functools.cached_property
    def _effect_of(self) -> dict[str, str]:
        table: dict[str, str] = {}
        for p in self.planets:
            table.setdefault(p.id, p.effect.type)
            table.setdefault(kind_of(p.id), p.effect.type)
        return table

    @functools.cached_property
    def _planets_by_effect(self) -> dict[str, tuple[str, ...]]:
        table: dict[str, tuple[str, ...]] = {}
        for p in self.planets:
            table[p.effect.type] = table.get(p.effect.type, ()) + (p.id,)
        return table

    def digest(self) -> bytes:
        """Hash binding a game to this exact component set (for the genesis record)."""
        return digest("fairtable/locke/components/v1", _plain(self))


_T = TypeVar("_T")


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


_C = TypeVar("_C", bound=_Identified)


def _lookup(cards: tuple[_C, ...], card_id: str, what: str) -> _C:
    for card in cards:
        if card.id == card_id:
            return card
    raise ComponentError([f"{what} {card_id!r} does not exist"])


def _plain(value: Any) -> Any:
    """Canonical plain data (maps, lists, ints, text) of a component object."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


# ---------------------------------------------------------------- validation helpers


class _Reader:
    """Collects problems while reading one JSON object; never raises itself."""

    def __init__(self, raw: Any, where: str, problems: list[str]) -> None:
        self.where = where
        self.problems = problems
        if not isinstance(raw, Mapping):
            problems.append(f"{where}: expected an object, got {type(raw).__name__}")
            raw = {}
        self.raw: Mapping[str, Any] = raw

    def fail(self, message: str) -> None:
        self.problems.append(f"{self.where}: {message}")

    def text(self, key: str, *, choices: Sequence[str] | None = None, empty_ok: bool = False) -> str:
        value = self.raw.get(key)
        if not isinstance(value, str) or (not value and not empty_ok):
            self.fail(f"{key!r} must be {'text' if empty_ok else 'non-empty text'}, got {value!r}")
            return ""
        if choices is not None and value not in choices:
            self.fail(f"{key!r} is {value!r}, expected one of {list(choices)}")
        return value

    def integer(self, key: str, *, low: int = 0, high: int = 1000) -> int:
        value = self.raw.get(key)
        if not _is_int(value) or not low <= value <= high:
            self.fail(f"{key!r} must be an integer from {low} to {high}, got {value!r}")
            return low
        return int(value)

    def texts(self, key: str, *, choices: Sequence[str] | None = None) -> tuple[str, ...]:
        value = self.raw.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.fail(f"{key!r} must be a list of non-empty text, got {value!r}")
            return ()
        if len(set(value)) != len(value):
            self.fail(f"{key!r} repeats an entry: {value!r}")
        for v in value:
            if choices is not None and v not in choices:
                self.fail(f"{key!r} holds unknown {v!r}, expected one of {list(choices)}")
        return tuple(value)

    def entries(self, key: str) -> list[Any]:
        value = self.raw.get(key)
        if not isinstance(value, list):
            self.fail(f"{key!r} must be a list, got {type(value).__name__}")
            return []
        return value

    def mapping(self, key: str) -> Mapping[str, Any]:
        value = self.raw.get(key)
        if not isinstance(value, Mapping):
            self.fail(f"{key!r} must be an object, got {type(value).__name__}")
            return {}
        return value

    def only(self, *keys: str) -> None:
        extra = sorted(set(self.raw) - set(keys))
        if extra:
            self.fail(f"unknown field(s) {extra}")


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


_CHECKS: Mapping[str, Callable[[Any], bool]] = MappingProxyType(
    {
        "int": _is_int,
        "str": lambda v: isinstance(v, str) and bool(v),
        "strs": lambda v: isinstance(v, list) and all(isinstance(x, str) and x for x in v),
        "ints": lambda v: isinstance(v, list) and all(_is_int(x) for x in v),
    }
)


def _params(raw: Mapping[str, Any], schema: Schema, where: str, problems: list[str], *, skip: Sequence[str] = ()) -> Params:
    """Check ``raw`` against ``schema`` and freeze it (lists become tuples)."""
    out: dict[str, ParamValue] = {}
    for name, kind in schema.items():
        base, optional = kind.rstrip("?"), kind.endswith("?")
        if name not in raw:
            if not optional:
                problems.append(f"{where}: missing parameter {name!r} ({base})")
            continue
        value = raw[name]
        if not _CHECKS[base](value):
            problems.append(f"{where}: parameter {name!r} must be {base}, got {value!r}")
            continue
        out[name] = tuple(value) if isinstance(value, list) else value
    extra = sorted(set(raw) - set(schema) - set(skip))
    if extra:
        problems.append(f"{where}: unknown parameter(s) {extra}")
    return MappingProxyType(dict(sorted(out.items())))


def _schema(raw: Any, where: str, problems: list[str]) -> Schema:
    if not isinstance(raw, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) and v.rstrip("?") in _CHECKS for k, v in raw.items()
    ):
        problems.append(f"{where}: 'params' must map names to one of {sorted(_CHECKS)} (optional: trailing '?')")
        return MappingProxyType({})
    return MappingProxyType(dict(raw))


def _unique(ids: Iterable[str], what: str, problems: list[str]) -> None:
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            problems.append(f"{what} id {i!r} is used twice")
        seen.add(i)


def _entries(raw: Any, key: str, fmt: str, problems: list[str]) -> list[Any]:
    top = _Reader(raw, key, problems)
    if top.raw and top.raw.get("format") != fmt:
        top.fail(f"'format' must be {fmt!r}, got {top.raw.get('format')!r}")
    return top.entries(key)


def _raise(problems: list[str]) -> None:
    if problems:
        raise ComponentError(problems)


# ---------------------------------------------------------------- characters


def characters_from_data(raw: Any) -> CharacterCatalogue:
    """Validate assets/locke/characters.json (abilities, items and the 27 cards)."""
    problems: list[str] = []
    top = _Reader(raw, "characters.json", problems)
    if top.raw.get("format") != "fairtable/locke/characters/v1":
        top.fail("'format' must be 'fairtable/locke/characters/v1'")
    top.only("format", "abilities", "items", "characters")

    abilities: dict[str, AbilitySpec] = {}
    for n, entry in enumerate(top.entries("abilities")):
        r = _Reader(entry, f"ability #{n}", problems)
        r.only("id", "kind", "name_ja", "name_en", "params", "text_en")
        spec = AbilitySpec(
            id=r.text("id"), kind=r.text("kind", choices=ABILITY_KINDS), name_ja=r.text("name_ja"),
            name_en=r.text("name_en"), params=_schema(r.raw.get("params"), r.where, problems), text_en=r.text("text_en"),
        )
        if spec.id in abilities:
            r.fail(f"ability id {spec.id!r} is used twice")
        abilities[spec.id] = spec

    items = _items(top.entries("items"), problems)

    characters = [_character(entry, n, abilities, items, problems) for n, entry in enumerate(top.entries("characters"))]
    _unique((c.id for c in characters), "character", problems)
    people = {p for c in characters for p in c.counts_as}
    for c in characters:
        targets = c.victory.params.get("targets", ())
        for t in targets if isinstance(targets, tuple) else ():
            if t not in people:
                problems.append(f"character {c.id!r}: victory target {t!r} is no character's 'counts_as'")
    _raise(problems)
    return CharacterCatalogue(MappingProxyType(abilities), items, tuple(characters))


def character_items_from_data(raw: Any) -> Mapping[str, ItemSpec]:
    """Only the item list of characters.json (planet cards refer to it)."""
    problems: list[str] = []
    top = _Reader(raw, "characters.json", problems)
    items = _items(top.entries("items"), problems)
    _raise(problems)
    return items


def _items(entries: list[Any], problems: list[str]) -> Mapping[str, ItemSpec]:
    items: dict[str, ItemSpec] = {}
    for n, entry in enumerate(entries):
        r = _Reader(entry, f"item #{n}", problems)
        r.only("id", "kind", "lifetime", "name_ja", "name_en", "constants", "params", "text_en")
        constants = r.mapping("constants")
        bad = [k for k, v in constants.items() if not (_is_int(v) or isinstance(v, str))]
        if bad:
            r.fail(f"constants {bad} must be integers or text")
        spec_item = ItemSpec(
            id=r.text("id"), kind=r.text("kind", choices=ITEM_KINDS), lifetime=r.text("lifetime", choices=ITEM_LIFETIMES),
            name_ja=r.text("name_ja"), name_en=r.text("name_en"),
            constants=MappingProxyType(dict(sorted(constants.items()))),
            params=_schema(r.raw.get("params"), r.where, problems), text_en=r.text("text_en"),
        )
        if spec_item.id in items:
            r.fail(f"item id {spec_item.id!r} is used twice")
        items[spec_item.id] = spec_item
    return MappingProxyType(items)


def _grants(raw: list[Any], catalogue: Mapping[str, AbilitySpec] | Mapping[str, ItemSpec], what: str,
            where: str, problems: list[str]) -> tuple[Grant, ...]:
    out = []
    for n, entry in enumerate(raw):
        r = _Reader(entry, f"{where} {what} #{n}", problems)
        r.only("id", "params")
        gid = r.text("id")
        spec = catalogue.get(gid)
        if spec is None:
            if gid:
                r.fail(f"{what} {gid!r} is not in the {what} list")
            continue
        out.append(Grant(gid, _params(r.mapping("params"), spec.params, f"{r.where} ({gid})", problems)))
    return tuple(out)


def _character(raw: Any, n: int, abilities: Mapping[str, AbilitySpec], items: Mapping[str, ItemSpec],
               problems: list[str]) -> Character:
    r = _Reader(raw, f"character #{n}", problems)
    r.only("id", "name_ja", "name_en", "counts_as", "attribute", "sex", "marital", "level", "power",
           "durability", "mind", "abilities", "items", "victory")
    cid = r.text("id")
    r.where = f"character {cid!r}"
    v = _Reader(r.raw.get("victory"), f"{r.where} victory", problems)
    kind = v.text("kind", choices=tuple(VICTORY_KINDS))
    victory = VictoryCondition(kind, _params(v.raw, VICTORY_KINDS.get(kind, {}), v.where, problems, skip=("kind",)))
    return Character(
        id=cid, name_ja=r.text("name_ja"), name_en=r.text("name_en"), counts_as=r.texts("counts_as"),
        attribute=r.text("attribute", choices=ATTRIBUTES), sex=r.text("sex", choices=SEXES),
        marital=r.text("marital", choices=MARITAL), level=r.integer("level", high=7), power=r.integer("power", high=100),
        durability=r.integer("durability", low=1, high=20), mind=r.integer("mind", low=1, high=12),
        abilities=_grants(r.entries("abilities"), abilities, "ability", r.where, problems),
        items=_grants(r.entries("items"), items, "item", r.where, problems),
        victory=victory,
    )


# ---------------------------------------------------------------- silhouettes and combat cards


def silhouettes_from_data(raw: Any) -> tuple[Silhouette, ...]:
    """Validate assets/locke/silhouettes.json."""
    problems: list[str] = []
    out = []
    for n, entry in enumerate(_entries(raw, "silhouettes", "fairtable/locke/silhouettes/v1", problems)):
        r = _Reader(entry, f"silhouette #{n}", problems)
        r.only("id", "name_ja", "name_en", "attribute", "sex", "traits", "characters", "count")
        out.append(Silhouette(
            id=r.text("id"), name_ja=r.text("name_ja"), name_en=r.text("name_en"),
            attribute=r.text("attribute", choices=SILHOUETTE_ATTRIBUTES), sex=r.text("sex", choices=SEXES),
            traits=r.texts("traits", choices=SILHOUETTE_TRAITS), characters=r.texts("characters"),
            count=r.integer("count", low=1, high=10),
        ))
    _unique((s.id for s in out), "silhouette", problems)
    _raise(problems)
    return tuple(out)


def combat_cards_from_data(raw: Any) -> tuple[CombatCard, ...]:
    """Validate assets/locke/combat_cards.json."""
    problems: list[str] = []
    out = []
    for n, entry in enumerate(_entries(raw, "combat_cards", "fairtable/locke/combat-cards/v1", problems)):
        r = _Reader(entry, f"combat card #{n}", problems)
        r.only("id", "type", "name_ja", "name_en", "weapon", "level", "firepower", "tags", "count")
        card = CombatCard(
            id=r.text("id"), type=r.text("type", choices=COMBAT_TYPES), name_ja=r.text("name_ja"),
            name_en=r.text("name_en"), weapon=r.text("weapon", empty_ok=True), level=r.integer("level", high=7),
            firepower=r.integer("firepower", high=100), tags=r.texts("tags", choices=COMBAT_TAGS),
            count=r.integer("count", low=1, high=10),
        )
        where = f"combat card {card.id!r}"
        if card.type == "attack":
            if card.weapon not in WEAPONS:
                problems.append(f"{where}: attack cards need a weapon from {list(WEAPONS)}, got {card.weapon!r}")
            if card.level < 1 or card.firepower < 1:
                problems.append(f"{where}: attack cards need level and firepower of at least 1")
        elif card.weapon or card.firepower:
            problems.append(f"{where}: only attack cards have a weapon and firepower")
        if card.type in ("defence", "escape") and card.level < 1:
            problems.append(f"{where}: {card.type} cards need a level of at least 1")
        out.append(card)
    _unique((c.id for c in out), "combat card", problems)
    _raise(problems)
    return tuple(out)


# ---------------------------------------------------------------- planet and base cards


def _effect(raw: Any, schemas: Mapping[str, Schema], where: str, problems: list[str],
            items: Mapping[str, ItemSpec] | None = None) -> Effect:
    r = _Reader(raw, f"{where} effect", problems)
    etype = r.text("type", choices=tuple(schemas))
    schema = dict(schemas.get(etype, {}))
    skip: tuple[str, ...] = ("type",)
    if etype == "grant-item":
        item = items.get(r.raw.get("item", "")) if items is not None else None
        if item is not None:
            schema.update(item.params)
        elif items is not None:
            r.fail(f"item {r.raw.get('item')!r} is not in the character item list")
        else:  # the item list itself is broken (reported there): its parameters cannot be checked
            skip = tuple(r.raw)
    params = _params(r.raw, schema, r.where, problems, skip=skip)
    chart = params.get("chart")
    if chart is not None and chart not in CHART_IDS:
        r.fail(f"chart {chart!r} is not one of {list(CHART_IDS)}")
    return Effect(etype, params)


#: Planet cards printed at several levels (or letters) whose kind is the id without them: a kept
#: card's level stays hidden, so a use or a claim may name the kind alone (seed 000 3.1.2).
LEVELLED_KINDS = ("lafnor-mirror", "absorb-ball", "powered-suit", "esp-jammer", "esp-field", "ambush")


@lru_cache(maxsize=256)  # a pure function of a card id, asked for half a million times a 300-game run
def kind_of(card: str) -> str:
    """One id per planet-card kind (28 kinds): the card id without its level or letter. The
    cards of one kind share their effect type (checked when the planet cards load)."""
    for kind in LEVELLED_KINDS:
        if card.startswith(kind + "-"):
            return kind
    return card


def planets_from_data(raw: Any, items: Mapping[str, ItemSpec] | None) -> tuple[PlanetCard, ...]:
    """Validate assets/locke/planets.json; ``items`` resolves "grant-item" effects
    (None only when the item list is itself broken and already reported)."""
    problems: list[str] = []
    out = []
    for n, entry in enumerate(_entries(raw, "planets", "fairtable/locke/planets/v1", problems)):
        r = _Reader(entry, f"planet card #{n}", problems)
        r.only("id", "name_ja", "name_en", "group", "kind", "lifetime", "level", "count", "effect", "flags", "text_en")
        pid = r.text("id")
        r.where = f"planet card {pid!r}"
        kind = r.text("kind", choices=PLANET_KINDS)
        lifetimes = ABILITY_LIFETIMES if kind == "ability" else INSTRUCTION_LIFETIMES
        out.append(PlanetCard(
            id=pid, name_ja=r.text("name_ja"), name_en=r.text("name_en"), group=r.text("group", choices=PLANET_GROUPS),
            kind=kind, lifetime=r.text("lifetime", choices=lifetimes), level=r.integer("level", high=7),
            count=r.integer("count", low=1, high=20), effect=_effect(r.raw.get("effect"), PLANET_EFFECTS, r.where, problems, items),
            flags=r.texts("flags", choices=PLANET_FLAGS), text_en=r.text("text_en"),
        ))
    _unique((p.id for p in out), "planet card", problems)
    types: dict[str, str] = {}
    for p in out:
        kind = kind_of(p.id)
        if types.setdefault(kind, p.effect.type) != p.effect.type:
            problems.append(f"planet card {p.id!r} is of kind {kind!r}, whose cards have effect type "
                            f"{types[kind]!r}, not {p.effect.type!r}")
    _raise(problems)
    return tuple(out)


def bases_from_data(raw: Any) -> tuple[BaseCard, ...]:
    """Validate assets/locke/bases.json."""
    problems: list[str] = []
    out = []
    for n, entry in enumerate(_entries(raw, "bases", "fairtable/locke/bases/v1", problems)):
        r = _Reader(entry, f"secret-base card #{n}", problems)
        r.only("id", "name_ja", "name_en", "kind", "count", "effect", "flags", "text_en")
        bid = r.text("id")
        r.where = f"secret-base card {bid!r}"
        out.append(BaseCard(
            id=bid, name_ja=r.text("name_ja"), name_en=r.text("name_en"), kind=r.text("kind", choices=BASE_KINDS),
            count=r.integer("count", low=1, high=20), effect=_effect(r.raw.get("effect"), BASE_EFFECTS, r.where, problems),
            flags=r.texts("flags", choices=BASE_FLAGS), text_en=r.text("text_en"),
        ))
    _unique((b.id for b in out), "secret-base card", problems)
    ids = {b.id for b in out}
    for b in out:
        exit_id = b.effect.params.get("exit")
        if isinstance(exit_id, str) and exit_id not in ids:
            problems.append(f"secret-base card {b.id!r}: exit {exit_id!r} is not a secret-base card")
        trait = b.effect.params.get("silhouette_trait")
        if trait is not None and trait not in SILHOUETTE_TRAITS:
            problems.append(f"secret-base card {b.id!r}: silhouette trait {trait!r} is unknown")
    _raise(problems)
    return tuple(out)


# ---------------------------------------------------------------- the whole set


_SILHOUETTE_OF = {"good": "good", "evil": "evil", "special": "special", "evil-good": "evil"}


def component_set_from_data(*, characters: Any, silhouettes: Any, combat_cards: Any, planets: Any,
                            bases: Any, expected_counts: Mapping[str, int] | None = APPENDIX_C_COUNTS) -> ComponentSet:
    """Validate all five files together: each file, the references between them
    and (unless ``expected_counts`` is None) the totals of appendix C."""
    problems: list[str] = []

    def part(fn: Callable[..., _T], *args: Any) -> _T | None:
        try:
            return fn(*args)
        except ComponentError as err:
            problems.extend(err.problems)
            return None

    def part_quiet(fn: Callable[..., _T], *args: Any) -> _T | None:
        try:
            return fn(*args)
        except ComponentError:
            return None  # the same problems come from characters_from_data

    catalogue = part(characters_from_data, characters)
    sils = part(silhouettes_from_data, silhouettes)
    combat = part(combat_cards_from_data, combat_cards)
    items = catalogue.items if catalogue else part_quiet(character_items_from_data, characters)
    plan = part(planets_from_data, planets, items)
    base = part(bases_from_data, bases)
    if catalogue is None or sils is None or combat is None or plan is None or base is None:
        raise ComponentError(problems)

    by_id = {c.id: c for c in catalogue.characters}
    covered: set[str] = set()
    for s in sils:
        for cid in s.characters:
            ch = by_id.get(cid)
            if ch is None:
                problems.append(f"silhouette {s.id!r}: character {cid!r} does not exist")
                continue
            covered.add(cid)
            if _SILHOUETTE_OF[ch.attribute] != s.attribute:
                problems.append(f"silhouette {s.id!r} is {s.attribute} but its character {cid!r} is {ch.attribute}")
            if ch.sex != s.sex:
                problems.append(f"silhouette {s.id!r} is {s.sex} but its character {cid!r} is {ch.sex}")
    for c in catalogue.characters:
        if c.id not in covered:
            problems.append(f"character {c.id!r} has no silhouette of its own (needed for a silhouette roll of 1)")

    result = ComponentSet(catalogue, sils, combat, plan, base)
    if expected_counts is not None:
        for kind, want in expected_counts.items():
            got = result.counts.get(kind)
            if got != want:
                problems.append(f"{kind}: {got} cards, but appendix C lists {want}")
    _raise(problems)
    return result
