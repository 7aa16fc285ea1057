"""Effect primitives outside combat: hidden stats, damage checks, checks, restraints.

The trap and event charts (engine/locke/traps.py) and the planet cards
(engine/locke/planet_cards.py) are built from the few steps here, so each rule
has one implementation:

- ``fx_hit``: a damage check on one character's durability or mind (seed 002
  damage table). A stat that is not public is first *declared* (a claim judged
  when the card opens, engine/locke/claims.py), then 2d6 are rolled.
- ``fx_check``: an ESP level check or a mind check (KMC 11.2, 11.3): the seat
  declares (a claim), 2d6 are rolled, and the result goes to the callback the
  effect registered in :data:`ON_CHECK` under its source name.
- restraints, deaths and revivals go through :func:`restrain`, :func:`die` and
  :func:`revive`; these are the simplest honest stand-ins until l3-base's fate
  module (notes/API-fate.md) lands, marked ``STAND-IN (l3-base)``.

The public ledger of a seat (engine/locke/state.py ``Seat``): ``damage``,
``mods`` (lasting changes, the format of notes/API-fate.md) and ``proofs``.
A stat the ledger alone fixes (after a "set", or level and power with an ESP
proof in: ``stats.public``) is never declared. Any other declaration is
engine/locke/fate.py's ``stat_claim`` or ``durability_claim``, judged on
``stats.current`` (ruling N100), like every stat claim of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.pending import Chance, Decision, DiceRolled, Pending
from engine.locke import fate, stats
from engine.locke.actions import Stat
from engine.locke.damage import resolve_damage
from engine.locke.state import NO_SEAT, OFF_BOARD, LockeState, Step, advance, claimed, log, with_seat

#: Damage column for an attack on a mind already at 0 (ruling N1).
ZERO_MIND_ODDS = "50-1-or-more"
#: Stats a seat can declare, and the rule each declaration cites.
STATS = ("durability", "mind", "level", "mind-check", "level-check")

Callback = Callable[[Any, LockeState, int, bool, str], LockeState]
#: source name -> what happens after a check (g, state, seat, success, arg); traps.py fills it.
ON_CHECK: dict[str, Callback] = {}


# --- the public ledger: lasting changes (engine/locke/stats.py reads them) -----------------------


def add_mod(s: LockeState, seat: int, stat: str, op: str, value: int, lasts: str = "life") -> LockeState:
    p = s.seats[seat]
    return s._replace(seats=with_seat(s, seat, p._replace(mods=p.mods + ((stat, op, value, lasts),))))


def acts(s: LockeState, seat: int) -> bool:
    """Alive and in play (not inside the black hole or the wheat field)."""
    p = s.seats[seat]
    return p.alive and p.restraint not in ("black-hole", "wheat")


def present(s: LockeState, cell: str) -> tuple[int, ...]:
    """Living characters on ``cell`` (partners included), in seat order."""
    if cell == OFF_BOARD:
        return ()
    return tuple(i for i, p in enumerate(s.seats) if p.alive and p.place == cell)


# --- stand-ins for l3-base's fate module ---------------------------------------------------


def die(g: Any, s: LockeState, victim: int, killer: int = NO_SEAT, cause: str = "") -> LockeState:
    """A character dies outside combat: engine/locke/fate.py's kill, then any trap it was caught
    in is over."""
    cells = [c for c, _, i in s.ongoing if i == victim]
    s = fate.kill(g, s, victim, killer=killer, cause=cause or "effect")
    s = s._replace(ongoing=tuple(o for o in s.ongoing if o[2] != victim))
    s = log(s, "killed", victim, killer, cause)
    for cell in cells:
        s = trap_card_done(s, cell)
    return s


def restrain(s: LockeState, seat: int, turns: int, kind: str, cell: str = "") -> LockeState:
    """Unable to act (R13, T16). STAND-IN (l3-base fate.restrain): the resting state with ``turns``
    counted on the seat's own turns (0: until the kind's own check frees it), the kind in
    ``Seat.restraint``; ``cell`` names the trap card whose event now holds the seat."""
    p = s.seats[seat]
    p = p._replace(status="resting", rest=turns, restraint=kind, leader=NO_SEAT)
    seats = list(s.seats)
    seats[seat] = p
    for i, q in enumerate(seats):  # a restrained leader's partners go on alone
        if q.leader == seat:
            seats[i] = q._replace(leader=NO_SEAT, status="normal")
    ongoing = s.ongoing + ((cell, kind, seat),) if cell else s.ongoing
    return log(s._replace(seats=tuple(seats), ongoing=ongoing), "restrained", seat, kind, turns)


def release(s: LockeState, seat: int) -> LockeState:
    p = s.seats[seat]
    kind = p.restraint
    cells = [c for c, _, i in s.ongoing if i == seat]
    p = p._replace(status="normal", rest=0, restraint="", home="")
    s = s._replace(seats=with_seat(s, seat, p), ongoing=tuple(o for o in s.ongoing if o[2] != seat))
    s = log(s, "restraint-ended", seat, kind)
    for cell in cells:
        s = trap_card_done(s, cell)
    return s


def trap_card_done(s: LockeState, cell: str) -> LockeState:
    """Seed 000 3.2.1: a trap card is removed once its event is over (nobody is still caught)."""
    from engine.locke.state import Cell, cell_of, with_cell

    if not cell or any(o[0] == cell for o in s.ongoing):
        return s
    if cell_of(s, cell).face_up in ("trap", "arrest"):
        return log(s._replace(cells=with_cell(s, cell, Cell())), "card-removed", cell, cell_of(s, cell).face_up)
    return s


def revive(g: Any, s: LockeState, seat: int, how: str) -> LockeState:
    """Back to life through engine/locke/fate.py's revive (full durability, tries back, E/G
    Evil again), "life" changes gone, off the board until the caller places it (KMC 8)."""
    p = s.seats[seat]
    s = s._replace(seats=with_seat(s, seat, p._replace(mods=tuple(m for m in p.mods if m[3] != "life"))))
    return fate.revive(g, s, seat, cell=OFF_BOARD, how=how)


# --- damage checks outside combat ------------------------------------------------------------


def hit(seat: int, source: str, *, attack: int = 0, odds: str = "", stat: str = "durability") -> Step:
    """A step: ``seat`` takes a damage check from ``source`` (firepower ``attack`` or fixed ``odds``)."""
    return Step("fx_hit", seat, arg=f"{source}|{attack}|{odds}|{stat}")


def _auto_hit(g: Any, s: LockeState, step: Step) -> LockeState:
    if not acts(s, step.seat):
        return advance(s)
    stat = step.arg.split("|")[3]
    p = s.seats[step.seat]
    known = stats.public(p.mods, p.proofs, stat)
    if known is not None:
        value = max(0, known - p.damage) if stat == "durability" else known
        return advance(s, Step("fx_roll", step.seat, n=value, arg=step.arg))
    return advance(s, Step("fx_declare", step.seat, arg=step.arg))


def _on_declare(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Stat)
    stat = step.arg.split("|")[3]
    p = s.seats[step.seat]
    if action.stat != stat:
        raise IllegalAction(f"declare your current {stat}", rule="locke.s002.damage")
    if stat == "durability":
        if not 1 <= action.value <= 20 - p.damage:
            raise IllegalAction("declare your current durability (1 or more)", rule="locke.s002.damage")
        claim = fate.durability_claim(s, step.seat, action.value, "locke.s002.damage")
    else:
        if not 0 <= action.value <= fate.MAX_MIND:
            raise IllegalAction("declare your current mind (0 or more)", rule="locke.s002.damage")
        claim = fate.stat_claim(s, step.seat, "mind", "eq", action.value, "locke.s002.damage")
    s = s._replace(**claimed(s, claim))
    return advance(s, Step("fx_roll", step.seat, n=action.value, arg=step.arg))


def _pending_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.damage", (6, 6))


def _on_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    source, attack_text, odds, stat = step.arg.split("|")
    before = step.n
    if stat == "mind" and before <= 0:
        result = resolve_damage(action.faces, odds=ZERO_MIND_ODDS)
    elif odds:
        result = resolve_damage(action.faces, odds=odds)
    else:
        result = resolve_damage(action.faces, attack=int(attack_text), durability=before)
    p = s.seats[step.seat]
    lost = min(result.damage, before)
    if stat == "durability":
        p = p._replace(damage=p.damage + lost)
    elif lost:  # ruling N1: the mind itself goes down, until death
        p = p._replace(mods=p.mods + (("mind", "add", -lost, "life"),))
    s = log(s._replace(seats=with_seat(s, step.seat, p)), "damage", source, step.seat, stat, result.cell,
            before, max(0, before - lost))
    if result.eliminated or (stat == "durability" and before - lost <= 0):
        return advance(die(g, s, step.seat, NO_SEAT, source))
    if result.transformation:  # seed 002: natural 1-1 or 6-6 on a character (engine/locke/fate.py)
        s = fate.transformation_check(g, s, step.seat)
    return advance(s)


# --- checks --------------------------------------------------------------------------------


def check(seat: int, kind: str, source: str, arg: str = "") -> Step:
    """A step: ``seat`` makes an ESP level check (``kind`` "level") or a mind check ("mind");
    ``ON_CHECK[source](g, state, seat, success, arg)`` runs after the roll."""
    return Step("fx_check", seat, arg=f"{kind}|{source}|{arg}")


def _auto_check(g: Any, s: LockeState, step: Step) -> LockeState:
    if not acts(s, step.seat):
        return advance(s)
    kind = step.arg.split("|")[0]
    p = s.seats[step.seat]
    value = stats.public(p.mods, p.proofs, "level" if kind == "level" else "mind")
    if value is not None:  # nothing hidden to declare: the best value is declared for the seat
        return advance(s, Step("fx_check_roll", step.seat, n=value if kind == "level" or value >= 2 else 0,
                               arg=step.arg))
    return advance(s, Step("fx_check_declare", step.seat, arg=step.arg))


def _on_check_declare(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Stat)
    kind = step.arg.split("|")[0]
    if kind == "level":
        if action.stat != "level-check" or not 0 <= action.value <= fate.MAX_LEVEL:
            raise IllegalAction("declare a level from 0 to your ESP level", rule="locke.11.2")
        claim = fate.stat_claim(s, step.seat, "level", "le", action.value, "locke.11.2")
        value = action.value
    else:
        if action.stat != "mind-check" or not 0 <= action.value <= fate.MAX_MIND:
            raise IllegalAction("declare a mind from 2 to your mind (0 or 1: your mind is that low)", rule="locke.11.3")
        if action.value >= 2:
            claim = fate.stat_claim(s, step.seat, "mind", "le", action.value, "locke.11.3")
            value = action.value
        else:  # ruling R10: below 2 nothing can be declared and the check fails
            claim = fate.stat_claim(s, step.seat, "mind", "eq", action.value, "locke.11.3")
            value = 0
    return advance(s._replace(**claimed(s, claim)), Step("fx_check_roll", step.seat, n=value, arg=step.arg))


def _pending_check_roll(g: Any, s: LockeState, step: Step) -> Pending:
    kind = step.arg.split("|")[0]
    return Chance("locke.check." + ("esp-level" if kind == "level" else "mind"), (6, 6))


def _on_check_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    kind, source, arg = step.arg.split("|", 2)
    total = sum(action.faces)
    success = (kind == "level" or step.n >= 2) and total <= step.n
    s = log(advance(s), "check", kind, step.seat, source, step.n, total, success)
    return ON_CHECK[source](g, s, step.seat, success, arg)


def _decision(g: Any, s: LockeState, step: Step) -> Pending:
    return Decision(step.seat, "locke." + step.kind)


PENDING = {
    "fx_declare": _decision, "fx_roll": _pending_roll, "fx_check_declare": _decision,
    "fx_check_roll": _pending_check_roll,
}
HANDLERS = {
    ("fx_declare", Stat): _on_declare, ("fx_roll", DiceRolled): _on_roll,
    ("fx_check_declare", Stat): _on_check_declare, ("fx_check_roll", DiceRolled): _on_check_roll,
}
AUTO = {"fx_hit": _auto_hit, "fx_check": _auto_check}
