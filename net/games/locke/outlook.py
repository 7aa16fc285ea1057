"""How a Locke seat would fare if the game ended now, judged from what it may know.

Why: a victory declaration that nobody refuses ends the game and every seat is judged
on the facts as they stand (KMC 11.1, 6.3.2; docs/rules/locke.md chapter 6). The
heuristic bot declares when these facts make it win for sure, refuses another's
declaration when they make it lose, and otherwise weighs its chance. This module turns
the seat's :class:`~net.games.locke.beliefs.Beliefs` into that chance, in whole percent
(integers: decisions replay exactly).

Unknown cards are guessed from the belief scores; the conditions are read from the
character card data (assets/locke/characters.json), the same table the rules page lists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.locke.components import Character, ComponentSet
from engine.locke.stats import current
from net.games.locke.beliefs import Beliefs

#: Key bases whose fall wins for Good (KMC 9.3.1).
KEY_BASES = 4
#: Percent chance an unknown card counts as one particular name (27 cards, few of each).
NAMED_GUESS = 10


def _p_evil(score: int) -> int:
    return max(3, min(97, 30 + 12 * score))


def _p_good(score: int) -> int:
    return max(3, min(97, 40 - 12 * score))


def _pct(x: int) -> int:
    return max(0, min(100, x))


def side_chance(b: Beliefs, components: ComponentSet, state: Any) -> int:
    """Percent chance that this seat's side condition holds now (KMC 6.3.2)."""
    if b.my_side == "special":
        return 100
    living = [i for i, p in enumerate(state.seats) if p.alive]
    if b.my_side == "good":
        if state.key_bases_destroyed >= KEY_BASES:
            return 100
        return _no_enemy_chance(b, components, state, living, "good", "evil", _p_good, _p_evil)
    if state.key_bases_destroyed >= KEY_BASES:
        return 0
    return _no_enemy_chance(b, components, state, living, "evil", "good", _p_evil, _p_good)


def _no_enemy_chance(b: Beliefs, components: ComponentSet, state: Any, living: list[int], mine: str, enemy: str,
                     p_mine: Callable[[int], int], p_enemy: Callable[[int], int]) -> int:
    """Percent chance that no living seat is of the ``enemy`` side while one of ``mine`` lives
    (this seat or another), from the sides known and the beliefs about the rest."""
    no_enemy = 100
    mine_alive = state.seats[b.seat].alive
    miss_mine = 100
    for i in living:
        if i == b.seat:
            continue
        side = b.side(i, components, state)
        if side == enemy:
            return 0
        if side == mine:
            mine_alive = True
        elif side is None:
            no_enemy = no_enemy * (100 - p_enemy(b.evil[i])) // 100
            miss_mine = miss_mine * (100 - p_mine(b.evil[i])) // 100
    return no_enemy if mine_alive else no_enemy * (100 - miss_mine) // 100


def _counts(components: ComponentSet, card: str, targets: tuple[str, ...]) -> bool:
    return any(t in components.character(card).counts_as for t in targets)


def _targets(card: Character) -> tuple[str, ...]:
    t = card.victory.params.get("targets", ())
    return tuple(x for x in t if isinstance(x, str)) if isinstance(t, tuple) else ()


def own_chance(b: Beliefs, components: ComponentSet, state: Any) -> int:
    """Percent chance that this seat's character card's own condition holds now (KMC table 2.1)."""
    me = b.me
    if me is None:
        return 50
    kind = me.victory.kind
    params = me.victory.params
    targets = _targets(me)
    others = [i for i in range(state.n) if i != b.seat]
    dead = sum(1 for i in others if not state.seats[i].alive)
    if kind == "none":
        return 100
    if kind in ("lose-if-any-alive", "lose-if-any-dead"):
        want_alive = kind == "lose-if-any-dead"
        chance = 100
        for i in others:
            if state.seats[i].alive == want_alive:
                continue
            card = b.known[i]
            if card is None:
                chance = chance * (100 - NAMED_GUESS) // 100
            elif _counts(components, card, targets):
                return 0
        return chance
    if kind == "lose-if-all-present-dead":  # C9: loses only when every such card in play is dead
        if any(b.known[i] is not None and _counts(components, str(b.known[i]), targets) and state.seats[i].alive
               for i in others):
            return 100
        unknown_alive = sum(1 for i in others if b.known[i] is None and state.seats[i].alive)
        return 80 if unknown_alive else 30
    if kind == "no-other-alive-at-level":
        level = params["level"]
        assert isinstance(level, int)
        chance = 100
        for i in others:
            q = state.seats[i]
            if not q.alive:
                continue
            card = b.known[i]
            if card is None:
                chance = chance // 2
            elif current(components.character(card), q.mods, q.proofs, "level") >= level:
                return 0
        return chance
    if kind in ("dead-share-of-others", "dead-share-of-all"):
        num, den = params["numerator"], params["denominator"]
        assert isinstance(num, int) and isinstance(den, int)
        if kind == "dead-share-of-all":
            dead, total = dead + int(not state.seats[b.seat].alive), state.n
        else:
            total = len(others)
        return 100 if dead * den >= num * total else 0
    if kind == "survive-in-party-with":
        if not state.seats[b.seat].alive:
            return 0
        party = _party(state, b.seat)
        best = 0
        for i in party:
            card = b.known[i]
            if card is None:
                best = max(best, 40)
                continue
            c = components.character(card)
            if c.sex == params["sex"] and c.marital == params["marital"] and state.seats[i].alive:
                return 100
        return best
    if kind == "present-at-finale":
        return 100 if b.seat in state.last_combat or b.seat in state.present else 0
    if kind == "kill-personally":
        best = 0
        for v in state.seats[b.seat].kills:
            card = b.known[v]
            if card is None:
                best = max(best, 25)
            elif _counts(components, card, targets):
                return 100
        return best
    return 50


def _party(state: Any, seat: int) -> list[int]:
    leader = state.seats[seat].leader
    head = seat if leader < 0 else leader
    return [i for i, p in enumerate(state.seats) if i != seat and p.alive and (i == head or p.leader == head)]


def win_chance(b: Beliefs, components: ComponentSet, state: Any) -> int:
    """Percent chance that this seat wins if the game ended now (both conditions, KMC 6.3.2)."""
    return _pct(side_chance(b, components, state) * own_chance(b, components, state) // 100)

