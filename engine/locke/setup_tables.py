"""Locke set-up tables (KMC 7.1, tables 7.1-7.3) as data and pure checks.

The reducer runs the set-up as a sequence of hidden shuffles, sealed choices
and dice; this module says what each of those steps may produce:

1. How many Lockes (L), Good (G), Evil (E, E/G included), Special (S) and
   random (X) characters a table of 5-10 uses (table 7.1, with our 5- and
   10-player rows, ruling N17), and which cards form each group (Raiza is a
   Locke, C3).
2. The draw itself (KMC 7.1.3-7.1.4): the top cards of each shuffled group,
   then X from the shuffled leftovers of G, E and S. The caller shuffles; this
   module only takes the top cards and checks the result.
3. The shadow roll (table 7.2): which silhouettes a seat may choose for its
   die face, given the copies already taken (N18).
4. The face check (KMC 7.1.8): re-roll when there is no Good or no Evil face;
   too many Evil faces are capped at ceil(n/3), the excess switching in
   reverse seat order (N19).
5. Planet cards dealt to each base player (table 7.3, N20), and the turn
   order roll with its tie rule (KMC 7.1.10, N21).

Everything is a pure function of component data and the dealt or rolled
results handed in; errors are typed and cite the KMC section.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Literal

from engine.core.errors import IllegalAction, MalformedAction
from engine.locke.components import ComponentSet

RULE_TABLE = "locke.7.1.2"
RULE_DRAW = "locke.7.1.4"
RULE_SHADOW = "locke.7.1.7"
RULE_FACES = "locke.7.1.8"
RULE_ORDER = "locke.7.1.10"
RULE_PLANET_CARDS = "locke.7.1.11"

MIN_PLAYERS = 5
MAX_PLAYERS = 10


@dataclasses.dataclass(frozen=True)
class Composition:
    """One row of table 7.1: how many characters of each group take part."""

    locke: int
    good: int
    evil: int
    special: int
    random: int

    @property
    def players(self) -> int:
        return self.locke + self.good + self.evil + self.special + self.random


#: Table 7.1. The rows for 6-9 players are KMC's; 5 and 10 are ruling N17.
COMPOSITIONS: Mapping[int, Composition] = MappingProxyType(
    {
        5: Composition(locke=1, good=0, evil=2, special=1, random=1),
        6: Composition(locke=1, good=0, evil=2, special=2, random=1),
        7: Composition(locke=1, good=0, evil=3, special=2, random=1),
        8: Composition(locke=1, good=1, evil=3, special=2, random=1),
        9: Composition(locke=1, good=1, evil=3, special=2, random=2),
        10: Composition(locke=1, good=1, evil=4, special=2, random=2),
    }
)


def _players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise MalformedAction(f"number of players {players!r} is not an integer")
    if players not in COMPOSITIONS:
        raise IllegalAction(
            f"Locke is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}", rule=RULE_TABLE
        )
    return players


def composition(players: int) -> Composition:
    """The row of table 7.1 for ``players`` (5..10)."""
    return COMPOSITIONS[_players(players)]


@dataclasses.dataclass(frozen=True)
class CharacterPools:
    """Character ids by set-up group (KMC 7.1.2): ``locke`` holds every card
    that counts as Locke (Raiza too, C3), ``good`` the other Good cards,
    ``evil`` the Evil and E/G cards, ``special`` the Special cards."""

    locke: tuple[str, ...]
    good: tuple[str, ...]
    evil: tuple[str, ...]
    special: tuple[str, ...]

    def groups(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return (("locke", self.locke), ("good", self.good), ("evil", self.evil), ("special", self.special))


def character_pools(components: ComponentSet) -> CharacterPools:
    """Split the 27 character cards into the four groups, in data order."""
    locke, good, evil, special = [], [], [], []
    for c in components.characters:
        if "locke" in c.counts_as:
            locke.append(c.id)
        elif c.attribute == "good":
            good.append(c.id)
        elif c.attribute in ("evil", "evil-good"):
            evil.append(c.id)
        else:
            special.append(c.id)
    return CharacterPools(tuple(locke), tuple(good), tuple(evil), tuple(special))


def _check_permutation(what: str, original: Sequence[str], shuffled: Sequence[str]) -> tuple[str, ...]:
    if sorted(shuffled) != sorted(original) or len(shuffled) != len(original):
        raise IllegalAction(
            f"the shuffled {what} cards are not the {what} group itself ({len(original)} cards, each once)",
            rule=RULE_DRAW,
        )
    return tuple(shuffled)


def first_draw(pools: CharacterPools, comp: Composition,
               shuffled: CharacterPools) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """KMC 7.1.3: the top cards of each shuffled group.

    ``shuffled`` holds each group in its shuffled order. Returns the chosen L,
    G, E and S cards, and the leftovers of G, E and S (in that order, each as
    shuffled): shuffle the leftovers and pass them to :func:`random_draw`.
    """
    wanted = {"locke": comp.locke, "good": comp.good, "evil": comp.evil, "special": comp.special}
    chosen: list[str] = []
    leftover: list[str] = []
    for (name, group), (_, mixed) in zip(pools.groups(), shuffled.groups(), strict=True):
        order = _check_permutation(name, group, mixed)
        k = wanted[name]
        if k > len(order):
            raise IllegalAction(f"table 7.1 wants {k} {name} characters but only {len(order)} exist", rule=RULE_TABLE)
        chosen.extend(order[:k])
        if name != "locke":
            leftover.extend(order[k:])
    return tuple(chosen), tuple(leftover)


def random_draw(leftover: Sequence[str], shuffled_leftover: Sequence[str], comp: Composition) -> tuple[str, ...]:
    """KMC 7.1.4: the X random characters, the top of the shuffled leftovers
    of G, E and S (never a Locke)."""
    order = _check_permutation("leftover", leftover, shuffled_leftover)
    if comp.random > len(order):
        raise IllegalAction(f"{comp.random} random characters wanted, {len(order)} left", rule=RULE_DRAW)
    return order[: comp.random]


def check_selection(components: ComponentSet, players: int, character_ids: Sequence[str]) -> None:
    """Refuse a set of characters that the draw of KMC 7.1.2-7.1.4 cannot give.

    Exactly L Lockes; at least G, E and S of the other groups; one card per
    player, each at most once. For a table that audits the hidden deal at the
    end.
    """
    comp = composition(players)
    pools = character_pools(components)
    ids = list(character_ids)
    if len(ids) != players or len(set(ids)) != len(ids):
        raise IllegalAction(f"{players} different characters are needed, got {ids}", rule=RULE_DRAW)
    group_of = {cid: name for name, group in pools.groups() for cid in group}
    unknown = [cid for cid in ids if cid not in group_of]
    if unknown:
        raise IllegalAction(f"no such character card: {unknown}", rule=RULE_DRAW)
    count = {name: sum(1 for cid in ids if group_of[cid] == name) for name, _ in pools.groups()}
    if count["locke"] != comp.locke:
        raise IllegalAction(
            f"table 7.1 for {players} players uses {comp.locke} Locke, the deal holds {count['locke']}"
            " (random characters never include a Locke)", rule=RULE_DRAW,
        )
    for name, need in (("good", comp.good), ("evil", comp.evil), ("special", comp.special)):
        if count[name] < need:
            raise IllegalAction(
                f"table 7.1 for {players} players uses at least {need} {name}, the deal holds {count[name]}",
                rule=RULE_DRAW,
            )


# ---------------------------------------------------------------- shadow roll (table 7.2)

ShadowRule = Literal["own", "any", "evil"]

#: Table 7.2: what a secret 1d6 lets a seat choose as its silhouette.
SHADOW_TABLE: Mapping[int, ShadowRule] = MappingProxyType(
    {1: "own", 2: "any", 3: "any", 4: "any", 5: "any", 6: "evil"}
)


def _copies_left(components: ComponentSet, taken: Mapping[str, int]) -> dict[str, int]:
    left = {s.id: s.count for s in components.silhouettes}
    for sid, n in taken.items():
        if sid not in left:
            raise MalformedAction(f"silhouette {sid!r} does not exist")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise MalformedAction(f"taken copies of {sid!r} must be a count, got {n!r}")
        left[sid] -= n
        if left[sid] < 0:
            raise IllegalAction(f"silhouette {sid!r} has only {left[sid] + n} copies", rule=RULE_SHADOW)
    return left


def silhouette_choices(components: ComponentSet, face: int, character_id: str,
                       taken: Mapping[str, int]) -> tuple[str, ...]:
    """Silhouette ids a seat may choose after rolling ``face`` (table 7.2).

    ``taken`` counts the copies other seats already hold (ruling N18). 1: its
    own character's silhouette (either, when the character has two), or any
    silhouette if every copy of those is taken; 2-5: any; 6: any Evil one.
    Only silhouettes with a copy left are offered, in data order.
    """
    if isinstance(face, bool) or not isinstance(face, int) or face not in SHADOW_TABLE:
        raise MalformedAction(f"shadow roll: a d6 shows 1..6, not {face!r}")
    components.character(character_id)
    left = _copies_left(components, taken)
    free = [s for s in components.silhouettes if left[s.id] > 0]
    rule = SHADOW_TABLE[face]
    if rule == "own":
        own = tuple(s.id for s in free if character_id in s.characters)
        return own if own else tuple(s.id for s in free)
    if rule == "evil":
        return tuple(s.id for s in free if s.attribute == "evil")
    return tuple(s.id for s in free)


def check_silhouette_choice(components: ComponentSet, face: int, character_id: str,
                            taken: Mapping[str, int], chosen: str) -> None:
    """Refuse a silhouette that table 7.2 does not allow for this roll."""
    allowed = silhouette_choices(components, face, character_id, taken)
    if chosen not in allowed:
        raise IllegalAction(
            f"with a shadow roll of {face} the silhouette {chosen!r} cannot be chosen; choose one of {list(allowed)}",
            rule=RULE_SHADOW,
        )


def switch_choices(components: ComponentSet, taken: Mapping[str, int]) -> tuple[str, ...]:
    """Silhouettes a seat giving up its Evil face may take: any non-Evil one
    with a copy left (KMC 7.1.8)."""
    left = _copies_left(components, taken)
    return tuple(s.id for s in components.silhouettes if s.attribute != "evil" and left[s.id] > 0)


# ---------------------------------------------------------------- the face check (KMC 7.1.8)


def evil_face_cap(players: int) -> int:
    """Most Evil faces a table keeps: ceil(n/3) (ruling N19)."""
    return -(-_players(players) // 3)


def _attributes(face_attributes: Sequence[str]) -> tuple[str, ...]:
    attrs = tuple(face_attributes)
    for a in attrs:
        if a not in ("good", "evil", "special"):
            raise MalformedAction(f"silhouette attribute {a!r} is not good, evil or special")
    _players(len(attrs))
    return attrs


def needs_shadow_reroll(face_attributes: Sequence[str]) -> bool:
    """KMC 7.1.8: with no Good face or no Evil face every seat rolls again.

    ``face_attributes`` are the shown silhouettes' attributes in seat order.
    """
    attrs = _attributes(face_attributes)
    return "good" not in attrs or "evil" not in attrs


def evil_faces_to_switch(face_attributes: Sequence[str]) -> tuple[int, ...]:
    """Seats that must give up their Evil face, highest seat first (N19).

    Checked after :func:`needs_shadow_reroll`; the cap is at least 2, so at
    least one Evil face always stays.
    """
    attrs = _attributes(face_attributes)
    evil = [seat for seat, a in enumerate(attrs) if a == "evil"]
    excess = len(evil) - evil_face_cap(len(attrs))
    return tuple(reversed(evil))[: max(0, excess)]


# ---------------------------------------------------------------- table 7.3 and turn order


def base_player_planet_cards(non_base_players: int) -> int:
    """Table 7.3: planet cards each base player gets: 6 with 3 other players,
    4 with 4, 3 with 5 or more; 6 with fewer than 3 (ruling N20, a case the
    Evil-face cap never lets happen)."""
    if isinstance(non_base_players, bool) or not isinstance(non_base_players, int) or non_base_players < 0:
        raise MalformedAction(f"number of other players {non_base_players!r} is not a count")
    if non_base_players <= 3:
        return 6
    return 4 if non_base_players == 4 else 3


@dataclasses.dataclass(frozen=True)
class FirstRoll:
    """The turn-order roll: ``first`` is the seat that starts, or None when
    the highest face is tied; then ``reroll`` names the tied seats, who roll
    again (ruling N21)."""

    first: int | None
    reroll: tuple[int, ...]


def roll_for_first(rolls: Mapping[int, int]) -> FirstRoll:
    """KMC 7.1.10: each non-base player rolls 1d6; the highest starts.

    ``rolls`` maps seat -> face (only the seats rolling this time).
    """
    if not rolls:
        raise IllegalAction("nobody rolled for the turn order; every non-base player rolls 1d6", rule=RULE_ORDER)
    for seat, face in rolls.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise MalformedAction(f"seat {seat!r} is not a seat number")
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise MalformedAction(f"seat {seat}: a d6 shows 1..6, not {face!r}")
    top = max(rolls.values())
    best = tuple(sorted(seat for seat, face in rolls.items() if face == top))
    return FirstRoll(best[0], ()) if len(best) == 1 else FirstRoll(None, best)


def turn_order(first: int, players: int) -> tuple[int, ...]:
    """Every seat from ``first`` going left, i.e. to the next seat number and
    round (KMC 7.1.10, N21). In the planet phase the reducer skips base
    players (KMC 7.2.1); in the base phase everyone takes turns."""
    n = _players(players)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
        raise MalformedAction(f"first seat {first!r} is not one of 0..{n - 1}")
    return tuple((first + i) % n for i in range(n))
