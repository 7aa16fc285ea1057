"""The heuristic bot's combat hand: what to play, answer and equip in a Locke combat.

Why a module of its own: the combat (KMC 10, engine/locke/combat/) asks a seat many
small questions, and a sensible answer to each needs the same two facts - which
fighters are enemies, and what a card does (its level and firepower, KMC 5). The
rules of thumb, written out in docs/rules/locke.md "The heuristic bot":

- on its own turn a seat attacks the most hostile fighter (obstacles are always
  hostile; a seat only when it is believed an enemy, or already fights against it)
  with the card of the highest firepower it can play without stretching (a stretch
  is a mind check that can fail, KMC 10.5.1); no target worth it: it passes;
- attacked, it always escapes or defends when a card allows (the highest level);
- it syncs an attack of its own party (KMC 10.8) and blocks an enemy's escape;
- it equips everything its card and kept cards allow (henchmen, suit, field, jammer
  on the most hostile fighter, KMC 10.3.2);
- it wants the combat to go on while an enemy stands and it still has durability.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.inputs import SeatInput
from engine.locke.combat.actions import Equip, GoOn, Play, UseItem
from engine.locke.combat.model import DEAD, ESCAPED
from engine.locke.components import ComponentSet
from net.games.locke.beliefs import Beliefs

#: Hostility at which a fighter is attacked, synced against or kept in the combat for.
ATTACK_AT = 2
#: Prompts answering an attack in flight, and the uses that protect the one attacked.
PROTECT = ("escape", "defend", "flee", "illusion")


def _me(fight: Any, seat: int) -> int:
    return next((i for i, f in enumerate(fight.fighters) if f.seat == seat), -1)


def hostility(b: Beliefs, state: Any, index: int) -> int:
    """How much the fighter ``index`` is this seat's enemy (at :data:`ATTACK_AT` or more: attack it)."""
    fight = state.combat.detail
    seat = b.seat
    if not 0 <= index < len(fight.fighters):
        return -1
    mine = _me(fight, seat)
    f = fight.fighters[index]
    if f.state in (DEAD, ESCAPED):
        return -1
    if mine >= 0 and f.party == fight.fighters[mine].party:
        return -10
    if f.seat < 0:
        return 10
    score = b.enemy_score(f.seat)
    combat = state.combat
    if combat is not None and combat.cause == "declared" and score > -4 and len(combat.sides) == 2:
        if b.seat in combat.sides[1] and f.seat in combat.sides[0]:
            return score + 4  # it declared this combat on this seat's party: self-defence
    return score


def _firepower(components: ComponentSet, action: Play) -> int:
    card = components.combat_card(action.acts_as or action.card)
    return card.firepower * 2 + card.level


def _level(components: ComponentSet, action: Play) -> int:
    return components.combat_card(action.acts_as or action.card).level


def attack(components: ComponentSet, b: Beliefs, state: Any, legal: Sequence[SeatInput]) -> SeatInput | None:
    """The best attack on the seat's own combat turn, or None (pass)."""
    best: SeatInput | None = None
    best_key = (0, 0)
    for a in legal:
        if isinstance(a, Play) and a.use == "attack" and a.stretch == 0:
            hostile = hostility(b, state, a.target)
            if hostile < ATTACK_AT:
                continue
            key = (min(hostile, 10), _firepower(components, a))
        elif isinstance(a, UseItem) and a.target >= 0 and a.item in ("ship", "beam-cannon", "geoid-bomb"):
            hostile = hostility(b, state, a.target)
            if hostile < ATTACK_AT:
                continue
            key = (min(hostile, 10), 15)
        else:
            continue
        if key > best_key:
            best, best_key = a, key
    return best


def protect(components: ComponentSet, legal: Sequence[SeatInput]) -> SeatInput | None:
    """The strongest escape or defence offered (no stretch), or an item that answers the attack."""
    plays = [a for a in legal if isinstance(a, Play) and a.use in PROTECT and a.stretch == 0]
    if plays:
        return max(plays, key=lambda a: (_level(components, a), -legal.index(a)))
    items = [a for a in legal if isinstance(a, UseItem)]
    return items[0] if items else None


def answer(components: ComponentSet, b: Beliefs, state: Any, kind: str,
           legal: Sequence[SeatInput]) -> SeatInput | None:
    """A sync, henchman sync or block when it helps this seat's side, else None (pass)."""
    fight = state.combat.detail
    strike = fight.strike
    if strike is None:
        return None
    plays = [a for a in legal if isinstance(a, Play) and a.stretch == 0]
    if not plays:
        return None
    if kind in ("cb_sync", "cb_hench", "cb_thought_sync"):
        if hostility(b, state, strike.target) < ATTACK_AT:
            return None
        return max(plays, key=lambda a: (_firepower(components, a), -legal.index(a)))
    if kind == "cb_block":
        if hostility(b, state, strike.escaper) < ATTACK_AT:
            return None
        return max(plays, key=lambda a: (_level(components, a), -legal.index(a)))
    return None


def equip(b: Beliefs, state: Any, legal: Sequence[SeatInput]) -> SeatInput:
    """The fullest equipment: henchmen, a suit, the field, a jammer on the most hostile fighter."""
    def score(a: Equip) -> tuple[int, int]:
        jam = hostility(b, state, a.jammer) if a.jammer >= 0 else 0
        return (a.henchmen * 3 + (3 if a.suit else 0) + (2 if a.field else 0) + len(a.cards)
                + (min(jam, 10) if jam > 0 else -5 if a.jammer >= 0 else 0) + (2 if a.nike else 0), a.nike)

    equips = [a for a in legal if isinstance(a, Equip)]
    return max(equips, key=lambda a: (score(a), -legal.index(a)))


def go_on(b: Beliefs, state: Any, legal: Sequence[SeatInput]) -> SeatInput:
    """KMC 10.3.4: go on while a hostile fighter stands and this seat is not near death."""
    fight = state.combat.detail
    enemies = any(hostility(b, state, i) >= ATTACK_AT for i in range(len(fight.fighters)))
    want = enemies and b.durability >= 3
    return next((a for a in legal if isinstance(a, GoOn) and a.go_on == want), legal[0])
