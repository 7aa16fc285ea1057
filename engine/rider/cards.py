"""Rider cards as value objects, built from card-set data (docs/rider-cardset-format.md).

The engine never reads files: callers parse JSON and hand the data to
:func:`cardset_from_data`, which validates every field and raises
:class:`~engine.core.errors.DeckError` listing every problem it found.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypeGuard

from engine.core.errors import DeckError
from engine.core.hashing import digest

ATTRIBUTES = ("flame", "tide", "gale", "stone", "spark", "free")
FREE = "free"
MARKS = ("sword", "feather", "rock")
VALID_LEVELS = ((0,), (1,), (2,), (3,), (4,), (2, 3))

INSTANT_EFFECTS = ("draw", "destroy_top", "destroy_level0", "recover", "opponent_discards", "peek", "flip_facedown", "rescue_lost")
STATIC_EFFECTS = ("can_attack", "full_power", "power_bonus", "guard", "double_attack", "extra_copies")
PLACEMENTS = ("skip", "any_attribute", "onto_opponent_lost")
BATTLE_SIDES = ("attack", "defend", "both")

#: Integer parameters each effect type takes (all others must be absent).
EFFECT_PARAMS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "draw": ("count",),
        "destroy_top": ("max_level",),
        "destroy_level0": (),
        "recover": ("max_level",),
        "opponent_discards": ("count",),
        "peek": ("count",),
        "flip_facedown": (),
        "rescue_lost": (),
        "can_attack": (),
        "full_power": (),
        "power_bonus": ("amount",),
        "guard": ("min_attack",),
        "double_attack": (),
        "extra_copies": ("max",),
    }
)
#: Effects that also take ``on`` ("attack", "defend" or "both").
EFFECTS_WITH_SIDE = ("full_power", "power_bonus")


@dataclasses.dataclass(frozen=True)
class Effect:
    """One effect of a card; unused integer parameters are 0, ``on`` is ""."""

    type: str
    when: str
    count: int = 0
    max_level: int = 0
    amount: int = 0
    min_attack: int = 0
    max: int = 0
    on: str = ""

    def applies_on(self, side: str) -> bool:
        """True when a battle-side effect applies to ``side`` ("attack"/"defend")."""
        return self.on in (side, "both")


@dataclasses.dataclass(frozen=True)
class Placement:
    """A special-placement rule: ``skip`` (from_level), ``any_attribute``, ``onto_opponent_lost`` (min_lost)."""

    type: str
    from_level: int = 0
    min_lost: int = 0


@dataclasses.dataclass(frozen=True)
class Card:
    id: str
    name_en: str
    name_ja: str
    levels: tuple[int, ...]
    attribute: str
    mark: str
    power: int
    full_power: int
    special_placement: Placement | None
    effects: tuple[Effect, ...]
    text_en: str
    text_ja: str

    @property
    def is_level0(self) -> bool:
        return self.levels == (0,)

    @property
    def is_free(self) -> bool:
        return self.attribute == FREE

    def has(self, effect_type: str) -> bool:
        return any(e.type == effect_type for e in self.effects)

    def effects_of(self, effect_type: str) -> tuple[Effect, ...]:
        return tuple(e for e in self.effects if e.type == effect_type)

    @property
    def max_copies(self) -> int:
        """Copies allowed in one deck: 2 unless an ``extra_copies`` effect says otherwise."""
        extra = self.effects_of("extra_copies")
        return extra[0].max if extra else 2


@dataclasses.dataclass(frozen=True)
class CardSet:
    id: str
    name_en: str
    name_ja: str
    cards: Mapping[str, Card]

    def card(self, card_id: str) -> Card:
        try:
            return self.cards[card_id]
        except KeyError:
            raise DeckError([f"card {card_id!r} is not in card set {self.id!r}"]) from None

    def digest(self) -> bytes:
        """Hash binding a game to this exact card set (goes into the genesis record)."""
        return digest("fairtable/rider/cardset/v1", self.data)

    @property
    def data(self) -> Any:
        return {"id": self.id, "cards": [dataclasses.asdict(c) for c in self.cards.values()]}


def _text_pair(raw: Any, where: str, problems: list[str]) -> tuple[str, str]:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("en"), str) or not isinstance(raw.get("ja"), str):
        problems.append(f"{where}: needs English and Japanese text ({{'en': ..., 'ja': ...}})")
        return "", ""
    return raw["en"], raw["ja"]


def _int(raw: Any) -> TypeGuard[int]:
    """True for a non-negative int (bool is not accepted as an int here)."""
    return isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0


def _effect(raw: Any, where: str, problems: list[str]) -> Effect | None:
    if not isinstance(raw, Mapping) or raw.get("type") not in EFFECT_PARAMS:
        problems.append(f"{where}: unknown effect {raw!r}")
        return None
    kind = raw["type"]
    when = "instant" if kind in INSTANT_EFFECTS else "static"
    if raw.get("when") != when:
        problems.append(f"{where}: effect {kind!r} must have when={when!r}")
    allowed = set(EFFECT_PARAMS[kind]) | {"type", "when"} | ({"on"} if kind in EFFECTS_WITH_SIDE else set())
    for key in sorted(set(raw) - allowed):
        problems.append(f"{where}: effect {kind!r} takes no parameter {key!r}")
    params = {}
    for name in EFFECT_PARAMS[kind]:
        if not _int(raw.get(name)):
            problems.append(f"{where}: effect {kind!r} needs a non-negative integer {name!r}")
        else:
            params[name] = raw[name]
    on = ""
    if kind in EFFECTS_WITH_SIDE:
        on = raw.get("on", "")
        if on not in BATTLE_SIDES:
            problems.append(f"{where}: effect {kind!r} needs on= one of {BATTLE_SIDES}")
    return Effect(type=kind, when=when, on=on, **params)


def _placement(raw: Any, where: str, problems: list[str]) -> Placement | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or raw.get("type") not in PLACEMENTS:
        problems.append(f"{where}: unknown special placement {raw!r}")
        return None
    if raw["type"] == "skip":
        if raw.get("from_level") not in (1, 2):
            problems.append(f"{where}: skip placement needs from_level 1 or 2")
            return None
        return Placement("skip", from_level=raw["from_level"])
    if raw["type"] == "onto_opponent_lost":
        if not _int(raw.get("min_lost")):
            problems.append(f"{where}: onto_opponent_lost placement needs min_lost")
            return None
        return Placement("onto_opponent_lost", min_lost=raw["min_lost"])
    return Placement("any_attribute")


def card_from_data(raw: Any, problems: list[str]) -> Card | None:
    """Build one card, appending every problem found to ``problems``."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str) or not raw["id"]:
        problems.append(f"a card without a text id: {raw!r:.60}")
        return None
    where = f"card {raw['id']}"
    before = len(problems)
    name_en, name_ja = _text_pair(raw.get("name"), f"{where} name", problems)
    text_en, text_ja = _text_pair(raw.get("text"), f"{where} text", problems)
    levels = raw.get("levels")
    levels_t = tuple(levels) if isinstance(levels, list) else ()
    if levels_t not in VALID_LEVELS:
        problems.append(f"{where}: levels must be one of {[list(v) for v in VALID_LEVELS]}")
    if raw.get("attribute") not in ATTRIBUTES:
        problems.append(f"{where}: attribute must be one of {ATTRIBUTES}")
    if raw.get("mark") not in MARKS:
        problems.append(f"{where}: battle mark must be one of {MARKS}")
    power_raw, full_raw = raw.get("power"), raw.get("full_power")
    power = power_raw if _int(power_raw) else -1
    full = full_raw if _int(full_raw) else -1
    if power < 0 or full < power:
        problems.append(f"{where}: power and full_power must be integers with full_power >= power")
    effects_raw = raw.get("effects", [])
    if not isinstance(effects_raw, list):
        problems.append(f"{where}: effects must be a list")
        effects_raw = []
    effects = tuple(e for e in (_effect(r, where, problems) for r in effects_raw) if e is not None)
    placement = _placement(raw.get("special_placement"), where, problems)
    if len(problems) > before:
        return None
    return Card(
        id=raw["id"], name_en=name_en, name_ja=name_ja, levels=levels_t, attribute=raw["attribute"],
        mark=raw["mark"], power=power, full_power=full, special_placement=placement,
        effects=effects, text_en=text_en, text_ja=text_ja,
    )


def cardset_from_data(data: Any) -> CardSet:
    """Validate and build a card set; raise :class:`DeckError` naming every problem."""
    problems: list[str] = []
    if not isinstance(data, Mapping) or data.get("format") != "fairtable.rider.cardset/1":
        raise DeckError(["not a Rider card set (format must be 'fairtable.rider.cardset/1')"])
    if not isinstance(data.get("id"), str):
        problems.append("card set needs a text id")
    name_en, name_ja = _text_pair(data.get("name"), "card set name", problems)
    cards: dict[str, Card] = {}
    for raw in data.get("cards", []) if isinstance(data.get("cards"), list) else []:
        card = card_from_data(raw, problems)
        if card is not None:
            if card.id in cards:
                problems.append(f"card id {card.id} appears twice")
            cards[card.id] = card
    if problems:
        raise DeckError(problems)
    ordered = dict(sorted(cards.items()))
    return CardSet(id=data["id"], name_en=name_en, name_ja=name_ja, cards=MappingProxyType(ordered))
