"""A heuristic bot for Super Human Locke: plays its own side toward its own win.

Why: bots fill the seats of a Locke table, and a random bot teaches a person nothing
(issue 28). This bot reads only its own seat's view - the public state and log, its
own cards, and the character cards the public record says it has seen
(net/games/locke/beliefs.py) - keeps integer beliefs about who is on which side, and
answers every prompt with a rule of thumb (docs/rules/locke.md "The heuristic bot"):

- identity: a face of its own attribute when the shadow roll allows (KMC 7.1.7);
- declarations (KMC 11.1): it declares when the facts as it knows them make it win
  for sure (net/games/locke/outlook.py), refuses another's declaration when its
  chance of winning then is below one half, and accepts otherwise; shows its card
  to override a refusal whenever the rules allow it;
- movement (KMC 9.2-9.3): toward goals (net/games/locke/aims.py; distances in
  net/games/locke/moves.py), the planet cards in the planet phase and the key bases in
  the base phase, by the move that leaves the least distance (a teleport counted by its
  expected landing);
- parties: it invites and joins only seats it believes friends, leaves an enemy leader;
- combat (KMC 9.2.3, 10): it declares a combat on a believed enemy when it is fit to
  fight, and plays its hand by net/games/locke/fighting.py;
- checks and claims: the highest honest value on offer (every check succeeds at or
  under the declared value, KMC 11.2-11.3); the engine's honest legal actions keep
  every claim true.

Anything else falls back to the random bot (net/games/locke/random_bot.py) with the same
injected RNG, so rare prompts still get a legal answer. Every tie is broken by the
order of ``legal`` or by that RNG, never by set order or hashing, so games replay.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.core.hidden import Knowledge
from engine.core.inputs import PlacementPick, SealedPick, SeatInput
from engine.locke.actions import (
    Answer, Appear, CheckValue, Declare, DeclareDurability, Destroy, EnterBase, Escape, Fight, Fly, Follow,
    Identify, InfoCheck, Join, Keep, KingRoom, Land, Leave, Nop, Nova, Override, Propose, Recover, Release, Stat,
    Surrender, Switch, Teleport, TryRevive, UseCard, Walk,
)
from engine.locke.combat.actions import (
    Absorb, Disintegrate, Durability, EBuster, Equip, GoOn, JamVeto, Order, Play, Sleep,
)
from engine.locke.combat.talks import PartyInvitation
from engine.locke.components import ComponentSet
from engine.locke.turn import JoinInvitation
from net.games.locke import fighting, moves
from net.games.locke.aims import FIT_DURABILITY, LATE_FIGHT, Aims, attack_at, futile
from net.games.locke.beliefs import EVIL_SURE, Beliefs, LogDigest, build
from net.games.locke.outlook import win_chance
from net.games.locke.random_bot import LockeRandomBot

#: As the game drags on (turns per seat), the bar for declaring and for accepting falls,
#: so that a game between careful bots still ends by a rule long before the termination
#: guard (150 turns per seat, ruling N47): (turns per seat, declare at, refuse below).
PATIENCE: tuple[tuple[int, int, int], ...] = ((0, 100, 50), (20, 80, 40), (35, 60, 25), (50, 40, 10), (70, 25, 1))
#: Cards a seat does not walk onto unless it must (KMC 11.6 manners: rest cells, the
#: autograph session; the black hole can swallow a piece; traps, arrests, barracks and alarm
#: devices start fights with obstacles that decide nothing about the sides, KMC ch. 3-4).
AVOID = ("cafe-dahlia", "autograph-session", "black-hole", "goat-farm", "powder-room", "trap", "arrest", "combat",
         "ek", "barracks", "energy-absorber", "esp-controller-system", "illusion-room-4", "illusion-room-5",
         "illusion-room-6", "madonna-of-khan", "alarm-1-1", "alarm-1-2", "alarm-2-1", "alarm-2-2", "alarm-2-3", "alarm-3-2", "alarm-3-3",
         "alarm-3-4", "alarm-4-3", "alarm-4-4", "alarm-5-4")
#: What stepping onto such a cell costs, in sixths of a move: less than a move
#: saved, so a seat still crosses one when it is the way to its goal.
AVOID_COST = 5
#: Staying on such a cell (it acts again on every turn there, e.g. a trap's restraint): five moves.
AVOID_STAY = 30


class LockeHeuristicBot:
    """Plays one seat by the rules of thumb above; the caller injects the RNG."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.fallback = LockeRandomBot(rng)
        #: the aims of the decision in progress (set by choose)
        self.aims: Aims | None = None
        #: the public log read so far (beliefs.LogDigest; rebuilt when the log is another one)
        self.digest = LogDigest()

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge,
               legal: Sequence[SeatInput]) -> SeatInput:
        if not legal:
            raise ValueError(f"seat {seat} was asked to act with no legal action")
        first = legal[0]
        components: ComponentSet = game.components
        if isinstance(first, SealedPick):
            return self._sealed(game, state, seat, knowledge, legal)
        if isinstance(first, PlacementPick):
            return self._placement(legal)
        self.digest = self.digest.update(state.events)
        b = build(components, state, seat, knowledge, self.digest)
        self.aims = Aims(components, knowledge, state.turn // max(1, state.n) >= LATE_FIGHT)
        kind = state.queue[0].kind if state.queue else ""
        if state.queue and 0 <= state.queue[0].seat < state.n and state.queue[0].seat != seat:
            # deciding for a seat this one controls (ESP controller, KMC 4; engine/locke/control.py):
            # its goals are not ours to read, so it is steered as the random bot would
            return self.fallback.choose(game, state, seat, knowledge, legal)
        choice = self._decide(components, state, knowledge, b, kind, legal)
        if choice is None:
            return self.fallback.choose(game, state, seat, knowledge, legal)
        return choice

    def _aims(self) -> Aims:
        assert self.aims is not None, "aims are set by choose() before any rule of thumb runs"
        return self.aims

    # --- set-up -----------------------------------------------------------------------

    def _sealed(self, game: Any, state: Any, seat: int, knowledge: Knowledge,
                legal: Sequence[SeatInput]) -> SeatInput:
        first = legal[0]
        assert isinstance(first, SealedPick)
        if first.purpose != "locke.silhouette":
            return legal[self.rng.randrange(len(legal))]
        options = [a for a in legal if isinstance(a, SealedPick)]  # only honest faces (the driver's NarrowsSealed)
        card = knowledge.card(state.seats[seat].character)
        if card is not None:
            attribute = game.components.character(card).attribute
            want = "evil" if attribute in ("evil", "evil-good") else attribute
            mine = [a for a in options if isinstance(a, SealedPick)
                    and game.components.silhouette(str(a.choice)).attribute == want]
            if mine:
                options = mine
        return options[self.rng.randrange(len(options))]

    def _placement(self, legal: Sequence[SeatInput]) -> SeatInput:
        """Key bases inside the grid, away from the outer entry cells (KMC 7.3.1), spread at
        random so that one found does not give the others away; ambushes anywhere."""
        picks = [a for a in legal if isinstance(a, PlacementPick)]
        if picks and picks[0].zone == "keybases":
            inner = [a for a in picks if min(moves.parse(a.cell)[1:]) > 1 and max(moves.parse(a.cell)[1:]) < 6]
            picks = inner or picks
            return picks[self.rng.randrange(len(picks))]
        return legal[self.rng.randrange(len(legal))]

    # --- every other prompt ----------------------------------------------------------

    def _decide(self, components: ComponentSet, state: Any, knowledge: Knowledge, b: Beliefs, kind: str,
                legal: Sequence[SeatInput]) -> SeatInput | None:
        first = legal[0]
        if isinstance(first, Declare):
            return self._declare(components, state, b, legal)
        if isinstance(first, Answer):
            chance = win_chance(b, components, state)
            return _pick(legal, Answer, "accept", chance >= _patience(state)[1])
        if isinstance(first, Override):
            return _pick(legal, Override, "use", True)
        if kind.startswith("cb_"):
            return self._combat(components, state, b, kind, legal)
        if kind == "move":
            return self._move(components, state, knowledge, b, legal)
        if kind == "fight" or kind == "follow_fight":
            return self._fight(state, b, legal)
        return self._simple(components, state, b, legal)

    def _declare(self, components: ComponentSet, state: Any, b: Beliefs,
                 legal: Sequence[SeatInput]) -> SeatInput | None:
        chance = win_chance(b, components, state)
        return _pick(legal, Declare, "declare", chance >= _patience(state)[0])

    def _simple(self, components: ComponentSet, state: Any, b: Beliefs,
                legal: Sequence[SeatInput]) -> SeatInput | None:
        """Prompts with one obviously best answer."""
        for a in legal:  # things always worth doing when offered
            if isinstance(a, (Destroy, Release)) and (not isinstance(a, Release) or a.use):
                return a
            if isinstance(a, Escape) and a.escape:
                return a
            if isinstance(a, TryRevive) and a.attempt:
                return a
        first = legal[0]
        if isinstance(first, Keep):
            return _pick(legal, Keep, "keep", True)
        if isinstance(first, Surrender):
            return _pick(legal, Surrender, "surrender", b.durability < FIT_DURABILITY)
        if isinstance(first, Appear):
            return _pick(legal, Appear, "appear", b.durability >= FIT_DURABILITY)
        if isinstance(first, Follow):
            leader = state.seats[b.seat].leader
            return _pick(legal, Follow, "follow", leader < 0 or not b.enemy(leader))
        if isinstance(first, Join):
            step = state.queue[0]
            # the party's leader: a turn's invitation (engine/locke/turn.py) or one inside a combat
            # (engine/locke/combat/talks.py)
            inviter = step.inviter if isinstance(step, (JoinInvitation, PartyInvitation)) else -1
            inviter = inviter if 0 <= inviter < state.n else -1
            ok = inviter >= 0 and self._aims().wants_party(state, b, inviter)
            return _pick(legal, Join, "accept", ok)
        numbers = _max_number(legal)
        if numbers is not None:
            return numbers
        kings = [a for a in legal if isinstance(a, KingRoom)]
        if kings:
            return max(kings, key=lambda a: a.mind)
        novas = [a for a in legal if isinstance(a, Nova)]
        if novas:
            return max(novas, key=lambda a: a.level) if b.my_side == "good" else _first(legal, Nop)
        if isinstance(first, Identify):
            return max((a for a in legal if isinstance(a, Identify)),
                       key=lambda a: (b.known[a.target] is None, abs(b.evil[a.target]) < EVIL_SURE, -a.target))
        if isinstance(first, InfoCheck):
            return max((a for a in legal if isinstance(a, InfoCheck)), key=lambda a: len(a.handles))
        if isinstance(first, Land):
            return self._best_cell(state, b, [a for a in legal if isinstance(a, Land)])
        if isinstance(first, Switch):
            good = [a for a in legal if isinstance(a, Switch)
                    and components.silhouette(a.silhouette).attribute == b.my_side]
            return good[0] if good else None
        if any(isinstance(a, UseCard) for a in legal):
            return _first(legal, Nop)
        return None

    # --- movement --------------------------------------------------------------------

    def _move(self, components: ComponentSet, state: Any, knowledge: Knowledge, b: Beliefs,
              legal: Sequence[SeatInput]) -> SeatInput | None:
        me = state.seats[b.seat]
        for a in legal:
            if isinstance(a, Destroy):  # KMC 9.3.1: the point of the base phase for Good
                return a
            if isinstance(a, Leave) and me.leader >= 0 and (
                    b.enemy_score(me.leader) > 0 or self._aims().target_score(state, b, me.leader) > 0
                    or (state.phase == "planet" and state.seats[me.leader].base_player)):
                return a  # an enemy's party, or a base player's, who takes no planet-phase turns (KMC 7.2)
        entries = [a for a in legal if isinstance(a, EnterBase)]
        if entries:  # KMC 9.3.1: 2d6 at or under the level (plus bonuses) gets in
            return max(entries, key=lambda a: a.level)
        proposals = [a for a in legal if isinstance(a, Propose) and a.partners
                     and all(self._aims().wants_party(state, b, i) for i in a.partners)]
        if proposals and (state.phase == "planet" or not any(state.seats[i].leader >= 0 for i in range(state.n))):
            return max(proposals, key=lambda a: (len(a.partners), -legal.index(a)))
        recover = next((a for a in legal if isinstance(a, Recover)), None)
        goals = self._aims().goals(components, state, knowledge, b)
        ports = moves.spaceports(state)
        here = moves.nearest(me.place, goals, ports) if me.place else moves.FAR
        if recover is not None and b.durability < FIT_DURABILITY and here > 0:
            return recover
        scored: list[tuple[int, int, SeatInput]] = []
        avoid = moves.face_up(state, AVOID)
        for index, a in enumerate(legal):
            if isinstance(a, (Walk, Fly)):
                detour = AVOID_COST if a.to in avoid and a.to not in goals else 0
                value = moves.nearest(a.to, goals, ports) * 6 + detour
            elif isinstance(a, Teleport):
                value = moves.teleport_value(me.place, a.level, goals, ports) if me.place else moves.FAR * 6
                if me.place in avoid:  # a failed teleport (a d6 over the level) stays on the cell
                    value += max(0, 6 - a.level) * AVOID_STAY // 6
            elif isinstance(a, Nop):
                value = here * 6 + (0 if here == 0 else 1) + (AVOID_STAY if me.place in avoid else 0)
            else:
                continue
            scored.append((value, index, a))
        if not scored:
            return None
        low = min(v for v, _, _ in scored)
        best = [a for v, _, a in scored if v == low]
        return best[self.rng.randrange(len(best))]

    def _best_cell(self, state: Any, b: Beliefs, lands: Sequence[Land]) -> SeatInput:
        aims = self._aims()
        goals = aims.goals(aims.components, state, aims.knowledge, b)
        ports = moves.spaceports(state)
        low = min(moves.nearest(a.to, goals, ports) for a in lands)
        best = [a for a in lands if moves.nearest(a.to, goals, ports) == low]
        return best[self.rng.randrange(len(best))]

    # --- combat ----------------------------------------------------------------------

    def _fight(self, state: Any, b: Beliefs, legal: Sequence[SeatInput]) -> SeatInput | None:
        fights = [a for a in legal if isinstance(a, Fight)]
        threshold = attack_at(state, b)
        targets = [a for a in fights if a.target >= 0]
        if not targets:
            return fights[0] if fights else None
        best = max(targets, key=lambda a: (not futile(state, b, a.target), self._aims().target_score(state, b, a.target),
                                           -a.target))
        score = self._aims().target_score(state, b, best.target)
        if (score >= threshold and self._aims().fit(b) and not futile(state, b, best.target)) \
                or not any(a.target < 0 for a in fights):
            return best
        return next(a for a in fights if a.target < 0)

    def _combat(self, components: ComponentSet, state: Any, b: Beliefs, kind: str,
                legal: Sequence[SeatInput]) -> SeatInput | None:
        if state.combat is None or state.combat.detail is None:
            return None
        first = legal[0]
        nop = _first(legal, Nop)
        if kind == "cb_act":
            orders = [a for a in legal if isinstance(a, Order)]
            if orders:
                return orders[0]
            return fighting.attack(components, b, state, legal) or nop
        if kind in ("cb_escape", "cb_defend"):
            return fighting.protect(components, legal) or nop
        if kind in ("cb_sync", "cb_hench", "cb_thought_sync", "cb_block"):
            return fighting.answer(components, b, state, kind, legal) or nop
        if isinstance(first, Equip):
            return fighting.equip(b, state, legal)
        if isinstance(first, GoOn):
            return fighting.go_on(b, state, legal)
        if isinstance(first, Sleep):
            return _pick(legal, Sleep, "sleep", False)
        if isinstance(first, Absorb):
            return _pick(legal, Absorb, "absorb", True)
        if isinstance(first, (JamVeto, Disintegrate)):
            return next((a for a in legal if getattr(a, "veto", getattr(a, "use", False))), legal[0])
        if isinstance(first, EBuster):
            return next((a for a in legal if isinstance(a, EBuster) and a.what == "spare"), None) or \
                next((a for a in legal if isinstance(a, EBuster) and a.what == "persuade"), legal[0])
        if kind in ("cb_party", "cb_leave"):
            return self._talk(state, b, kind, legal)
        if kind == "cb_party_join":
            return self._simple(components, state, b, legal)
        numbers = _max_number(legal)
        if numbers is not None:
            return numbers
        if any(isinstance(a, Play) for a in legal) and nop is not None:
            return nop
        return None

    def _talk(self, state: Any, b: Beliefs, kind: str, legal: Sequence[SeatInput]) -> SeatInput | None:
        """KMC 10.3.1 (3), 10.3.4: invite friends into the party; leave a party led by an enemy."""
        nop = _first(legal, Nop)
        if kind == "cb_party":
            ok = [a for a in legal if isinstance(a, Propose) and a.partners
                  and all(self._aims().wants_party(state, b, i) for i in a.partners)]
            return max(ok, key=lambda a: (len(a.partners), -legal.index(a))) if ok else nop
        leader = state.seats[b.seat].leader
        if leader >= 0 and b.enemy_score(leader) > 0:
            return next((a for a in legal if isinstance(a, Leave)), nop)
        return nop


def _patience(state: Any) -> tuple[int, int]:
    """(declare at, refuse below), in percent, for how long the game has run (:data:`PATIENCE`)."""
    per_seat = state.turn // max(1, state.n)
    row = [r for r in PATIENCE if per_seat >= r[0]][-1]
    return row[1], row[2]


def _first(legal: Sequence[SeatInput], kind: type) -> SeatInput | None:
    return next((a for a in legal if isinstance(a, kind)), None)


def _pick(legal: Sequence[SeatInput], kind: type, field: str, want: bool) -> SeatInput | None:
    """The offered ``kind`` action whose yes/no ``field`` is ``want``, else any of that kind."""
    same = [a for a in legal if isinstance(a, kind)]
    return next((a for a in same if getattr(a, field) == want), same[0] if same else None)


#: Declarations of a number where the highest honest one is best (checks succeed at or under it).
_NUMBERED: tuple[tuple[type, str], ...] = (
    (CheckValue, "value"), (Stat, "value"), (DeclareDurability, "value"), (Durability, "value"),
    (EnterBase, "level"),
)


def _max_number(legal: Sequence[SeatInput]) -> SeatInput | None:
    for kind, field in _NUMBERED:
        same = [a for a in legal if isinstance(a, kind)]
        if same and len(same) == len(legal):
            return max(same, key=lambda a: (getattr(a, field), -legal.index(a)))
    return None


__all__ = ["LockeHeuristicBot"]
