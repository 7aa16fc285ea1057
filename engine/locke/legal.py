"""Legal actions of a Locke seat, from the public state and the seat's own knowledge.

With ``knowledge`` the list is *honest*: declarations about the seat's own
hidden cards (its level, durability, what a drawn card is) are offered only
with their true values, so bots never make false claims. Without knowledge
every value the public record allows is listed (what the engine accepts).
Movement lists exactly the reachable cells (engine/locke/board.py).
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.core.pending import Decision
from engine.locke import abilities, combat, control, fate, legal_fate, planet_cards, stats, turn
from engine.locke.actions import (
    Answer,
    Appear,
    Declare,
    Destroy,
    EnterBase,
    Escape,
    Fight,
    Fly,
    Follow,
    Identify,
    InfoCheck,
    Join,
    Keep,
    KingRoom,
    Land,
    Leave,
    Nop,
    Nova,
    Override,
    Propose,
    Recover,
    Release,
    Surrender,
    Switch,
    Teleport,
    Walk,
)
from engine.locke.components import Character
from engine.locke.declare import dead_count, fight_options
from engine.locke.setup import face_attribute, free_silhouettes
from engine.locke.state import NO_SEAT, OFF_BOARD, LockeState, Step, cell_of, party_of
from engine.locke.steps import Waiting


def _character(g: Any, s: LockeState, seat: int, knowledge: Knowledge | None) -> Character | None:
    if knowledge is None:
        return None
    card = knowledge.card(s.seats[seat].character)
    return g.components.character(card) if card else None


def legal_actions(g: Any, s: LockeState, seat: int, knowledge: Knowledge | None) -> list[Action]:
    pending = g.pending(s)
    if not isinstance(pending, Decision) or pending.seat != seat:
        return []
    step = s.queue[0]
    if control.decider(step) != seat:  # a controller decides for the seat it controls, from public data only (N212)
        return control.legal_for_controller(g, s, step, seat, _MAKERS)
    me = _character(g, s, seat, knowledge)
    if isinstance(step, Waiting):
        return control.obeying(step, step.legal(g, s, me, knowledge))
    actions: list[Action] = _MAKERS[step.kind](g, s, step, me, knowledge)
    return control.obeying(step, actions)


def _now(s: LockeState, seat: int, me: Character, stat: str) -> int:
    """The seat's current ``stat`` (printed card plus the public ledger, ruling N100): what its
    declarations are judged on, so the honest actions read it too."""
    p = s.seats[seat]
    return stats.current(me, p.mods, p.proofs, stat)


def _levels(s: LockeState, seat: int, me: Character | None, low: int) -> range:
    """ESP levels a teleport, a base entry or the Nova may declare: up to the current level, at most 6."""
    return range(low, min(6, _now(s, seat, me, "level") if me else 6) + 1)


def _switch(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    return [Switch(step.seat, sid) for sid in free_silhouettes(g, s, (step.seat,)) if face_attribute(g, sid) != "evil"]


def _info_check(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    if k is not None:
        info = tuple(h for h in s.seats[step.seat].kept
                     if (card := k.card(h)) and g.components.planet(card).effect.type == "information")
        if len(info) >= 3:
            return [InfoCheck(step.seat, info)]
    return [InfoCheck(step.seat, ())]


def _declaring(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    return [Declare(step.seat, False), Declare(step.seat, True)]


def _answer(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    return [Answer(step.seat, True), Answer(step.seat, False)]


def _override(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    out: list[Action] = [Override(step.seat, False)]
    if me is None or k is None:
        return out + [Override(step.seat, True)]
    seat = step.seat
    ok = False
    if me.id == "elmi":
        ok = 2 * dead_count(s, seat) >= s.n - 1
    elif me.id == "dr-wong":
        ok = 2 * dead_count(s) >= s.n
    elif me.id == "lord-leon":
        others = [p for i, p in enumerate(s.seats) if p.alive and i != seat]
        cards = [k.card(p.character) for p in others]
        ok = all(c is not None and stats.current(g.components.character(c), p.mods, p.proofs, "level") <= 4
                 for c, p in zip(cards, others))
    elif me.id == "strohheim-s":
        for v in s.seats[seat].kills:
            card = k.card(s.seats[v].character)
            if seat in s.seats[v].seen_by and card and "locke" in g.components.character(card).counts_as:
                ok = True
    if ok:
        out.append(Override(seat, True))
    return out


def _move(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    seat = step.seat
    p = s.seats[seat]
    if p.status == "partner":
        return [Nop(seat), Leave(seat)]
    if p.place == OFF_BOARD:
        if s.phase == "planet":
            return [Walk(seat, cell) for cell in turn.ENTRY]
        return [Nop(seat)] + [EnterBase(seat, level) for level in _levels(s, seat, me, 0)
                              if not p.proofs or level == 0]
    out: list[Action] = [Nop(seat)]
    out += [Walk(seat, cell) for cell in turn.walk_targets(s, p.place)]
    out += [Teleport(seat, level) for level in _levels(s, seat, me, 1)]
    out += [Fly(seat, cell) for cell in turn.flight_targets(s, p.place)]
    if turn.can_recover(g, s, seat):
        out.append(Recover(seat))
    candidates = turn.party_candidates(g, s, seat)
    out += [Propose(seat, (i,)) for i in candidates]
    if len(candidates) > 1:
        faces = [s.seats[i].silhouette for i in candidates]
        if len(set(faces)) == len(faces):
            out.append(Propose(seat, candidates))
    if len(party_of(s, seat)) > 1:
        out.append(Leave(seat))
    if p.proofs:  # seed 002 prison 12+: ESP level 0 while a proof is in
        out = [a for a in out if not isinstance(a, Teleport)]
    here = cell_of(s, p.place).face_up
    if s.phase == "base" and here in turn.KEY_BASES and (me is None or me.attribute == "good"):
        out.append(Destroy(seat))
    return out + planet_cards.move_uses(g, s, seat, me, k) + list(abilities.move_options(g, s, seat, me, k))


def _land(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    return [Land(step.seat, cell) for cell in turn.teleport_targets(s, s.seats[step.seat].place, step.n)]


def _follow(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    out: list[Action] = [Follow(step.seat, False)]
    if me is None or _now(s, step.seat, me, "level") >= step.n:
        out.append(Follow(step.seat, True))
    return out


def _yes_no(cls: type[Action]) -> Any:
    def make(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
        return [cls(step.seat, True), cls(step.seat, False)]  # type: ignore[call-arg]
    return make


def _keep(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    card = k.card(step.n) if k is not None else None
    if card is None:
        return [Keep(step.seat, True), Keep(step.seat, False)]
    return [Keep(step.seat, g.components.planet(card).kind == "ability")]


def _identify(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    return [Identify(step.seat, i) for i, p in enumerate(s.seats) if i != step.seat and p.alive]


def _release(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    out: list[Action] = [Release(step.seat, False)]
    if me is None or me.can_release:
        out.append(Release(step.seat, True))
    return out


def _escape(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    out: list[Action] = [Escape(step.seat, False)]
    if me is None or _now(s, step.seat, me, "level") >= step.n:
        out.append(Escape(step.seat, True))
    return out


def _outer(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    return [Walk(step.seat, cell) for cell in turn.OUTER]


def _fight(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    out: list[Action] = [] if step.n else [Fight(step.seat, NO_SEAT)]
    return out + [Fight(step.seat, t) for t in fight_options(s, step)]


def _nova(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    proofs = s.seats[step.seat].proofs
    return [Nop(step.seat)] + [Nova(step.seat, level) for level in _levels(s, step.seat, me, 0)
                               if not proofs or level == 0]


def _king(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    out: list[Action] = [Nop(step.seat)]
    if me is None or me.id == "hijiri-yuki":
        top = _now(s, step.seat, me, "mind") if me is not None else fate.most(g, s, step.seat, "mind")
        out += [KingRoom(step.seat, mind) for mind in range(2, top + 1)]
    return out


_MAKERS = {
    "switch": _switch, "info_check": _info_check, "declaring": _declaring, "answer": _answer,
    "override": _override, "move": _move, "land": _land, "follow": _follow, "join": _yes_no(Join),
    "keep": _keep, "appear": _yes_no(Appear), "surrender": _yes_no(Surrender), "identify": _identify,
    "release": _release, "escape": _escape, "enter_place": _outer, "info_entry": _outer, "fight": _fight,
    "nova": _nova, "king": _king,
}
_MAKERS.update(combat.MAKERS)  # KMC 10 (engine/locke/combat/legal.py)
_MAKERS.update(legal_fate.MAKERS)  # part 3: fate and base cards (engine/locke/legal_fate.py)
