"""What happens to a character outside the combat rules: death, revival, prison,
restraint, the transformation check, ESP proofs, and checks on hidden stats.

Why one module: combat (part 4), the planet and base cards and the trap and
event charts all kill, revive, arrest, restrain and check characters; each of
those must be done in one way only (notes/API-fate.md is the contract).

Conventions. Every public function is ``(g, s, ...) -> LockeState``. What
needs input (dice, a declaration, a hidden-card deal) is queued *right after
the queue head* (the step being handled), so a handler that calls these and
then ``advance(s)`` lets fate's steps run next. Hidden stats are never read:
the seat declares, the declaration is a claim judged against
``stats.current(card, mods, proofs)`` when the card opens (engine/locke/claims.py).

Seed 002 and KMC sources: death and clones KMC 8 and seed 000 3.1 (clone);
prison chart and ESP proofs seed 002 "prison"; transformation check seed 002
"transformation"; restraint = the unable-to-act state of KMC 8 (ruling N101).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.pending import CardsDealt, CardsRevealed, Chance, Decision, DiceRolled, HiddenOp, Pending
from engine.locke import charts, stats
from engine.locke import claims as ck
from engine.locke.actions import CheckValue, DeclareDurability, TryRevive
from engine.locke.components import Character
from engine.locke.damage import resolve_damage
from engine.locke.setup import Shuffle, cheat, taken_copies
from engine.locke.state import (
    NO_SEAT,
    OFF_BOARD,
    Cell,
    LockeState,
    Step,
    advance,
    cell_of,
    claimed,
    log,
    with_cell,
    with_seat,
    with_zone,
    zone_of,
)
from engine.locke.steps import LockeStep

RULE_CHECK = "locke.11.2"
RULE_MIND = "locke.11.3"
RULE_PRISON = "locke.s002.prison"
RULE_TRANSFORM = "locke.s002.transformation"
RULE_CLONE = "locke.8"
RULE_DAMAGE = "locke.s002.damage"
#: Damage column for an attack on a mind already at 0 (ruling N1).
ZERO_MIND_ODDS = "50-1-or-more"
#: Restraints that take a seat out of play: no turn, no check, no hit (N2, N61).
OUT_OF_PLAY = ("black-hole", "wheat")

#: Restraint causes and how each ends (ruling N101): "count" counts own turns down,
#: "heal" counts down healing 1 a turn, "mind" a mind check each own check phase,
#: "die:a,b" a 1d6 each own turn freeing on those faces, "never" never. The base cards
#: (KMC 4) and the trap and event charts (seed 002) restrain through this one table.
RESTRAINTS: dict[str, str] = {
    "rest": "count",
    "madonna": "die:1,2",
    "dahlia": "heal",
    "energy-absorber": "count",
    "powder-room": "count",
    "goat-farm": "count",
    "autograph": "count",
    "audio-room": "count",
    "deadline": "count",  # trap 8 (R22)
    "kurukuru": "count",  # event 8
    "skyhawk": "mind",  # event 7 (D25)
    "wheat": "die:5,6",  # event 9 (D26): back where it was taken from
    "black-hole": "never",  # trap 16 (N2)
}
#: KMC 4 autograph session: seats already restrained by one of these are not affected.
AUTOGRAPH_IMMUNE = ("kurukuru", "wheat", "deadline", "skyhawk", "madonna", "dahlia", "energy-absorber",
                    "autograph", "powder-room", "goat-farm")

#: Yes/no facts a seat may be asked about its own character (claims of kind FACT).
FACTS: dict[str, Callable[[Character], bool]] = {
    "male": lambda c: c.sex == "male",
    "female": lambda c: c.sex == "female",
    "hijiri": lambda c: c.id == "hijiri-yuki",
}

Hook = Callable[..., LockeState]


def _trap(g: Any, s: LockeState, seat: int, *, modifier: int = 0, cause: str = "") -> LockeState:
    from engine.locke.traps import fate_trap

    return fate_trap(g, s, seat, modifier=modifier, cause=cause)


#: Entry points other modules provide: "trap" = the trap chart roll for ``seat`` (engine/locke/traps.py).
HOOKS: dict[str, Hook] = {"trap": _trap}

Continuation = Callable[[Any, LockeState, int, bool, str], LockeState]
#: What to do after a check: name -> f(g, s, seat, success, arg); the head is the finished
#: check step, so a continuation returns ``advance(s, ...)`` like a handler.
CONTINUATIONS: dict[str, Continuation] = {}


# --- helpers ---------------------------------------------------------------------------


def after_head(s: LockeState, *steps: Step | LockeStep) -> LockeState:
    """Queue ``steps`` right after the step being handled (the queue head)."""
    return s._replace(queue=s.queue[:1] + steps + s.queue[1:])


def _seat(s: LockeState, seat: int, **fields: Any) -> LockeState:
    return s._replace(seats=with_seat(s, seat, s.seats[seat]._replace(**fields)))


def _decision(g: Any, s: LockeState, step: Step) -> Pending:
    return Decision(step.seat, "locke." + step.kind)


#: How a declared value ``n`` stands to the current stat in a claim of kind STAT_NOW.
STAT_OPS: dict[str, Callable[[int, int], bool]] = {
    "le": lambda n, now: n <= now,  # the stat reaches n (a check, a teleport, following a party)
    "ge": lambda n, now: now <= n,  # the stat is at most n (psycho blast: "my level is 0")
    "eq": lambda n, now: now == n,  # the stat is exactly n (hallucination, a damage check on the mind)
}


def stat_claim(s: LockeState, seat: int, stat: str, op: str, n: int, rule: str) -> Any:
    """The one claim about a seat's current level, power or mind (ruling N100): it carries the
    public ledger it was made against (the stat's mods and the ESP proofs) and is judged as
    ``STAT_OPS[op](n, stats.current(card, mods, proofs, stat))`` when the card opens."""
    if op not in STAT_OPS or stat not in stats.STATS:
        raise ValueError(f"stat claim: stat {stat!r}, op {op!r}")
    p = s.seats[seat]
    mods = [list(m) for m in stats.for_stat(p.mods, stat)]
    return ck.make(seat, s.step_no, ck.STAT_NOW, (p.character,), [stat, op, n, mods, p.proofs], rule)


def durability_claim(s: LockeState, seat: int, declared: int, rule: str) -> Any:
    """The one claim about a seat's durability left: the current durability minus the public
    damage, never below 0 (0 = "that killed me", the astro race)."""
    p = s.seats[seat]
    mods = [list(m) for m in stats.for_stat(p.mods, "durability")]
    return ck.make(seat, s.step_no, ck.DURABILITY_NOW, (p.character,), [declared, p.damage, mods], rule)


def fact_claim(s: LockeState, seat: int, question: str, answer: bool, rule: str) -> Any:
    if question not in FACTS:
        raise ValueError(f"unknown fact {question!r}")
    return ck.make(seat, s.step_no, ck.FACT, (s.seats[seat].character,), [question, answer], rule)


def judge(character: Character, what: str, value: Any) -> bool:
    """Judge the part-3 claim kinds once the character card is open (engine/locke/claims.py)."""
    if what == ck.STAT_NOW:
        stat, op, n, mods, proofs = value
        return STAT_OPS[str(op)](int(n), stats.current(character, mods, int(proofs), str(stat)))
    if what == ck.DURABILITY_NOW:
        declared, damage, mods = value
        return int(declared) == max(0, stats.current(character, mods, 0, "durability") - int(damage))
    if what == ck.FACT:
        question, answer = value
        return FACTS[str(question)](character) == bool(answer)
    raise ValueError(f"not a fate claim: {what!r}")


# --- death and revival ------------------------------------------------------------------


def kill(g: Any, s: LockeState, victim: int, *, killer: int = NO_SEAT, cause: str) -> LockeState:
    """Death or elimination (KMC 8): see notes/API-fate.md. A no-op for the dead."""
    from engine.locke.turn import kill as drop

    p = s.seats[victim]
    if not p.alive:
        return s
    s = drop(s, victim, killer)
    s = _seat(s, victim, proofs=0, restraint="", home="", controller=NO_SEAT,
              mods=tuple(m for m in p.mods if m[3] == "game"))
    s = _let_go(log(s, "died", victim, cause, killer), victim)
    # KMC 4 ESP controller system: every death gives each controlled seat a 1d6 (1 frees it).
    rolls = tuple(Step("ctl_roll", i) for i, q in enumerate(s.seats) if q.alive and q.controller != NO_SEAT)
    return after_head(s, *rolls) if rolls else s


def revive(g: Any, s: LockeState, seat: int, *, cell: str, how: str) -> LockeState:
    """Back alive with full durability (KMC 8, seed 002 actually-alive); E/G back to Evil
    (KMC 6.3, seed 000 clone); the Nova and King-room tries come back (KMC 4)."""
    s = _seat(s, seat, alive=True, place=cell, status="normal", leader=NO_SEAT, damage=0, rest=0, restraint="",
              home="", converted=False, tried=(), prison_failures=0, proofs=0)
    from engine.locke.abilities import forget

    return log(forget(s, seat, own=True), "revived", seat, how, cell)


def _auto_ctl_roll(g: Any, s: LockeState, step: Step) -> LockeState:
    if not s.seats[step.seat].alive or s.seats[step.seat].controller == NO_SEAT:
        return advance(s)
    return advance(s, Step("ctl_die", step.seat))


def _pending_ctl_die(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.controller-release", (6,))


def _on_ctl_die(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    if action.faces[0] == 1:
        s = log(_seat(s, step.seat, controller=NO_SEAT), "control-released", step.seat)
    return advance(s)


# --- prison (seed 000 3.2.1, seed 002 prison chart) ---------------------------------------


def imprison(g: Any, s: LockeState, seat: int, *, cause: str) -> LockeState:
    from engine.locke.turn import arrest

    s = arrest(s, seat)
    return log(s, "arrested", seat, s.seats[seat].place, cause)


def escape_from_prison(g: Any, s: LockeState, seat: int, *, how: str) -> LockeState:
    s = _seat(s, seat, status="normal", prison_failures=0)
    return log(s, "escaped", seat, how)


def add_esp_proof(g: Any, s: LockeState, seat: int) -> LockeState:
    p = s.seats[seat]
    s = _seat(s, seat, proofs=p.proofs + 1)
    return log(s, "esp-proof", seat, p.proofs + 1)


def _auto_check_phase(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 9.1 check phase: an ESP proof may be removed on 1d6 <= 2, one proof per phase; a
    disintegrated character rolls to get a level back (KMC 2.2.2, engine/locke/combat/disintegration.py)."""
    from engine.locke.combat.disintegration import RecoveryRoll, recovering

    p = s.seats[step.seat]
    steps: tuple[Step | LockeStep, ...] = (Step("proof_roll", step.seat),) if p.alive and p.proofs > 0 else ()
    if recovering(g, p):
        steps += (RecoveryRoll(step.seat),)
    return advance(s, *steps)


def _pending_proof_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.esp-proof-removal", (6,))


def _on_proof_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    outcome = charts.resolve("esp-proof-removal", action.faces)
    if outcome.entry == "removed":
        left = s.seats[step.seat].proofs - 1
        s = log(_seat(s, step.seat, proofs=left), "esp-proof-removed", step.seat, left)
    return advance(s)


# --- restraint (KMC 8 unable to act; seed 002 "restraint", ruling N101) ------------------------


def restrain(g: Any, s: LockeState, seat: int, *, cause: str, turns: int, cell: str = "") -> LockeState:
    """The seat rests (KMC 8) for ``turns`` of its own turns or until ``cause``'s own release
    (RESTRAINTS); its partners go on alone. ``cell`` names the trap card whose event now holds
    it (seed 000 3.2.1: the card stays until nobody is caught; a newcomer is caught the same way)."""
    if cause not in RESTRAINTS:
        raise ValueError(f"unknown restraint {cause!r}")
    p = s.seats[seat]
    if not p.alive:
        return s
    seats = list(s.seats)
    seats[seat] = p._replace(status="resting", rest=max(0, turns), restraint=cause, leader=NO_SEAT,
                             home=p.place if cause == "wheat" else p.home)
    for i, q in enumerate(seats):
        if q.leader == seat:
            seats[i] = q._replace(leader=NO_SEAT, status="normal")
    s = s._replace(seats=tuple(seats), ongoing=s.ongoing + ((cell, cause, seat),) if cell else s.ongoing)
    if s.current == seat:
        s = s._replace(turn_flags=s.turn_flags + ("no_combat",))
    return log(s, "restrained", seat, cause, turns)


def restrain_roll(g: Any, s: LockeState, seat: int, *, cause: str, sides: int = 6, times: int = 1) -> LockeState:
    return after_head(s, Step("restrain_roll", seat, n=sides, arg=f"{cause}:{times}"))


def _pending_restrain_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.restraint", (step.n,))


def _on_restrain_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    cause, _, times = step.arg.partition(":")
    return advance(restrain(g, s, step.seat, cause=cause, turns=action.faces[0] * int(times)))


def wake(s: LockeState, seat: int, how: str) -> LockeState:
    """The restraint is over: the seat acts again, and a trap card that held it is removed
    once nobody else is caught in it."""
    s = _seat(s, seat, status="normal", rest=0, restraint="", home="")
    s = log(s, "woke", seat, how)
    return _let_go(s, seat)


def _let_go(s: LockeState, seat: int) -> LockeState:
    cells = [c for c, _, i in s.ongoing if i == seat]
    s = s._replace(ongoing=tuple(o for o in s.ongoing if o[2] != seat))
    for cell in cells:
        s = trap_card_done(s, cell)
    return s


def trap_card_done(s: LockeState, cell: str) -> LockeState:
    """Seed 000 3.2.1: a trap or arrest card is removed once its event is over (nobody is still caught)."""
    if not cell or any(o[0] == cell for o in s.ongoing):
        return s
    if cell_of(s, cell).face_up in ("trap", "arrest"):
        return log(s._replace(cells=with_cell(s, cell, Cell())), "card-removed", cell, cell_of(s, cell).face_up)
    return s


def _auto_restraint_turn(g: Any, s: LockeState, step: Step) -> LockeState:
    """A resting seat's turn (KMC 8): count down, or the cause's own release check."""
    p = s.seats[step.seat]
    release = RESTRAINTS.get(p.restraint or "rest", "count")
    if release == "never":
        return advance(s)
    if release == "mind":
        return advance(check(g, s, step.seat, stat="mind", then="fate.skyhawk"))
    if release.startswith("die:"):
        return advance(s, Step("release_roll", step.seat, arg=release[4:]))
    if release == "heal" and p.damage > 0:
        s = log(_seat(s, step.seat, damage=p.damage - 1), "healed", step.seat, p.restraint)
    rest = max(0, p.rest - 1)
    if rest == 0:
        return advance(wake(s, step.seat, "counted"))
    return advance(_seat(s, step.seat, rest=rest))


def _skyhawk(g: Any, s: LockeState, seat: int, success: bool, arg: str) -> LockeState:
    return advance(wake(s, seat, "mind-check") if success else s)


CONTINUATIONS["fate.skyhawk"] = _skyhawk


def _pending_release_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.release", (6,))


def _on_release_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    faces = tuple(int(f) for f in step.arg.split(","))
    p = s.seats[step.seat]
    if action.faces[0] not in faces:
        return advance(log(s, "still-restrained", step.seat, p.restraint, action.faces[0]))
    s = wake(s, step.seat, "roll")
    if p.restraint == "wheat":  # D26: harvested back onto the cell it was taken from, if that board is still out
        back = p.home if p.home.startswith("P:" if s.phase == "planet" else "B:") else OFF_BOARD
        s = log(_seat(s, step.seat, place=back), "wheat-harvested", step.seat, back)
    return advance(s)


# --- the transformation check (seed 002) ----------------------------------------------------


def transformation_step(seat: int) -> Step:
    """The transformation check's roll (seed 002), for a caller that queues what follows it: the
    damage of the hit that called for it comes after (KMC 11.4, D34)."""
    return Step("tf_roll", seat)


def transformation_check(g: Any, s: LockeState, seat: int) -> LockeState:
    return after_head(s, transformation_step(seat))


def _pending_tf_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.transformation", (6, 6))


_TF_MODS = {"esp-power-plus-10": ("power", 10), "durability-plus-1": ("durability", 1),
            "mind-plus-1": ("mind", 1), "esp-level-plus-1": ("level", 1)}


def _on_tf_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    entry = charts.resolve("transformation", action.faces).entry
    s = log(s, "transformation", step.seat, entry)
    p = s.seats[step.seat]
    if not p.alive:
        return advance(s)
    if entry in _TF_MODS:
        stat, amount = _TF_MODS[entry]
        return advance(_seat(s, step.seat, mods=p.mods + ((stat, "add", amount, "game"),)))
    if entry == "true-self" and zone_of(s, "chars:unused"):
        return advance(s, Shuffle("chars:unused"), Step("tf_deal", step.seat),
                       Step("tf_silhouette", step.seat))
    if entry == "extra-combat-cards":  # seed 002: two more combat cards, and two more in hand, in a combat
        from engine.locke.combat.flow import extra_cards

        return advance(extra_cards(s, step.seat, 2))
    return advance(s)  # nothing


def _pending_tf_deal(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("deal", "chars:unused", zone_of(s, "chars:unused")[:1], to_seat=step.seat)


def _on_tf_dealt(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """True self: the old card is discarded, the dealt one is the seat's character now."""
    assert isinstance(action, CardsDealt)
    p = s.seats[step.seat]
    unused = zone_of(s, "chars:unused")
    s = s._replace(zones=with_zone(s, "chars:unused", unused[1:]))
    s = s._replace(zones=with_zone(s, "chars:discarded", zone_of(s, "chars:discarded") + (p.character,)))
    from engine.locke.abilities import forget

    s = forget(s, step.seat, own=False)  # KMC 2.2.1 note: a new character, untried
    from engine.locke.combat.items import new_character

    s = _seat(s, step.seat, character=unused[0], mods=(), seen_by=(), exposed=False, tried=(), damage=0, converted=False)
    return advance(new_character(s, step.seat))  # KMC 11.4: in a combat, the old card's items go (N228)


def silhouette_copies(g: Any, s: LockeState) -> tuple[str, ...]:
    """Every silhouette card nobody holds, one entry per copy, in data order."""
    taken = taken_copies(s)
    out: list[str] = []
    for sil in g.components.silhouettes:
        out += [sil.id] * max(0, sil.count - taken.get(sil.id, 0))
    return tuple(out)


def _pending_tf_silhouette(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.random-silhouette", (max(1, len(silhouette_copies(g, s))),))


def _on_tf_silhouette(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    copies = silhouette_copies(g, s)
    assert isinstance(action, DiceRolled)
    if copies:
        new = copies[action.faces[0] - 1]
        old = s.seats[step.seat].silhouette
        s = log(_seat(s, step.seat, silhouette=new), "true-self", step.seat, old, new)
    return advance(s)


# --- checks on hidden stats, and hits outside combat ------------------------------------------
#
# The one implementation of both (issue 12): the planet and base cards, the trap and event
# charts, the abilities and the restraints all queue these steps. A stat the public ledger
# fixes (``stats.public``) is never declared; any other declaration is a claim.


def most(g: Any, s: LockeState, seat: int, stat: str) -> int:
    """The highest value a declaration of ``stat`` may name for ``seat``: the best character
    card with the seat's public changes (``stats.ceiling``), durability less the damage taken."""
    p = s.seats[seat]
    top = stats.ceiling(g.components.characters, p.mods, p.proofs, stat)
    return max(0, top - p.damage) if stat == "durability" else top


def in_play(s: LockeState, seat: int) -> bool:
    """Alive and able to be checked or hit: not inside the black hole or the wheat field (N2, N61)."""
    p = s.seats[seat]
    return p.alive and p.restraint not in OUT_OF_PLAY


def present(s: LockeState, cell: str) -> tuple[int, ...]:
    """Living characters on ``cell`` (partners included), in seat order."""
    if cell == OFF_BOARD:
        return ()
    return tuple(i for i, p in enumerate(s.seats) if p.alive and p.place == cell)


def check_step(seat: int, *, stat: str, then: str, arg: str = "") -> Step:
    """An ESP level check ("level", KMC 11.2) or a mind check ("mind", KMC 11.3) by ``seat``;
    ``CONTINUATIONS[then](g, s, seat, success, arg)`` runs after it (not for a seat that is
    dead or out of play by then)."""
    if stat not in ("level", "mind") or then not in CONTINUATIONS:
        raise ValueError(f"check: stat {stat!r}, continuation {then!r}")
    return Step("check", seat, arg=f"{stat}|{then}|{arg}")


def check(g: Any, s: LockeState, seat: int, *, stat: str, then: str, arg: str = "") -> LockeState:
    return after_head(s, check_step(seat, stat=stat, then=then, arg=arg))


def check_range(g: Any, s: LockeState, seat: int, stat: str) -> range:
    """Values the engine accepts for a check declaration (the claim says the rest): a level
    from 0, a mind from 2 (R10), up to what the public ledger allows."""
    return range(0 if stat == "level" else 2, most(g, s, seat, stat) + 1)


def _auto_check(g: Any, s: LockeState, step: Step) -> LockeState:
    if not in_play(s, step.seat):
        return advance(s)
    stat = step.arg.split("|", 1)[0]
    p = s.seats[step.seat]
    known = stats.public(p.mods, p.proofs, stat)
    if known is None:
        return advance(s, Step("check_value", step.seat, arg=step.arg))
    return _checked_value(s, step, known if stat == "level" or known >= 2 else -1)


def _on_check_value(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CheckValue)
    stat = step.arg.split("|", 1)[0]
    rule = RULE_CHECK if stat == "level" else RULE_MIND
    if action.value == -1:
        return _checked_value(s, step, -1)
    accepted = check_range(g, s, step.seat, stat)
    if action.value not in accepted:
        raise IllegalAction(f"declare a {stat} from {accepted.start} to yours, or -1 to fail", rule=rule)
    claim = stat_claim(s, step.seat, stat, "le", action.value, rule)
    return _checked_value(s._replace(**claimed(s, claim)), step, action.value)


def _checked_value(s: LockeState, step: Step, value: int) -> LockeState:
    stat, then, arg = step.arg.split("|", 2)
    s, roll = declared_check(s, step.seat, stat=stat, value=value, then=then, arg=arg)
    return advance(s, roll)


def declared_check(s: LockeState, seat: int, *, stat: str, value: int, then: str,
                   arg: str = "") -> tuple[LockeState, Step]:
    """The one way to roll a check whose value is already declared (and claimed) or public:
    the state and the step to queue next. 2d6 never make less than 2, so a value below 2 (or
    -1, giving up, ruling N102) fails at once without dice (N221); ``then`` continues as for
    :func:`check_step`."""
    if stat not in ("level", "mind") or then not in CONTINUATIONS:
        raise ValueError(f"check: stat {stat!r}, continuation {then!r}")
    full = f"{stat}|{then}|{arg}"
    if value < 2:
        return log(s, "check", seat, stat, value, 0, False), Step("check_done", seat, n=0, arg=full)
    return s, Step("check_roll", seat, n=value, arg=full)


def _pending_check_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.check." + step.arg.split("|", 1)[0], (6, 6))


def _on_check_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    stat = step.arg.split("|", 1)[0]
    total = sum(action.faces)
    success = total <= step.n
    s = log(s, "check", step.seat, stat, step.n, total, success)
    return advance(s, Step("check_done", step.seat, n=int(success), arg=step.arg))


def _auto_check_done(g: Any, s: LockeState, step: Step) -> LockeState:
    _, then, arg = step.arg.split("|", 2)
    if not in_play(s, step.seat):
        return advance(s)
    return CONTINUATIONS[then](g, s, step.seat, bool(step.n), arg)


def hit_step(seat: int, *, cause: str, firepower: int = 0, odds: str = "", stat: str = "durability") -> Step:
    """A damage check on ``seat`` outside combat (seed 002 damage table): the attack's
    ``firepower`` against the current durability, or a fixed ``odds`` column ("10-1"); on the
    mind instead (``stat`` "mind", ruling N1) the mind goes down, never the durability."""
    if stat not in ("durability", "mind"):
        raise ValueError(f"hit: stat {stat!r}")
    return Step("hit", seat, n=firepower, arg=f"{cause}|{odds}|{stat}")


def take_hit(g: Any, s: LockeState, seat: int, *, firepower: int, cause: str, odds: str = "",
             stat: str = "durability") -> LockeState:
    """An attack on the seat itself outside combat (see notes/API-fate.md)."""
    return after_head(s, hit_step(seat, cause=cause, firepower=firepower, odds=odds, stat=stat))


def _auto_hit(g: Any, s: LockeState, step: Step) -> LockeState:
    if not in_play(s, step.seat):
        return advance(s)
    stat = step.arg.split("|")[2]
    p = s.seats[step.seat]
    known = stats.public(p.mods, p.proofs, stat)
    if known is None:
        return advance(s, Step("hit_value", step.seat, n=step.n, arg=step.arg))
    value = max(0, known - p.damage) if stat == "durability" else known
    return advance(s, Step("hit_roll", step.seat, n=value, arg=f"{step.n}|{step.arg}"))


def hit_range(g: Any, s: LockeState, seat: int, stat: str) -> range:
    """Values a hit's declaration may name: a durability left of 1 or more (a seat at 0 is
    dead), a mind from 0 (a mind at 0 reads its own column, N1)."""
    return range(1 if stat == "durability" else 0, most(g, s, seat, stat) + 1)


def _on_hit_value(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DeclareDurability)
    stat = step.arg.split("|")[2]
    accepted = hit_range(g, s, step.seat, stat)
    if action.value not in accepted:
        what = "mind" if stat == "mind" else "durability (given the damage you have taken)"
        raise IllegalAction(f"declare your current {what}: {accepted.start}..{accepted.stop - 1}",
                            rule=RULE_MIND if stat == "mind" else RULE_DAMAGE)
    if stat == "mind":
        claim = stat_claim(s, step.seat, "mind", "eq", action.value, RULE_MIND)
    else:
        claim = durability_claim(s, step.seat, action.value, RULE_DAMAGE)
    return advance(s._replace(**claimed(s, claim)), Step("hit_roll", step.seat, n=action.value, arg=f"{step.n}|{step.arg}"))


def _pending_hit_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.damage", (6, 6))


def _on_hit_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Ruling D34: a transformation check the roll calls for comes first, the damage after."""
    assert isinstance(action, DiceRolled)
    firepower, cause, odds, stat = step.arg.split("|")
    before = step.n
    if stat == "mind" and before <= 0:
        result = resolve_damage(action.faces, odds=ZERO_MIND_ODDS)
    elif odds:
        result = resolve_damage(action.faces, odds=odds)
    else:
        result = resolve_damage(action.faces, attack=int(firepower), durability=before)
    p = s.seats[step.seat]
    after = 0 if result.eliminated else max(0, before - result.damage)
    s = log(s, "damage", cause, step.seat, stat, result.column, result.cell, before, after)
    apply = Step("hit_apply", step.seat, n=before,
                 arg=f"{result.damage}|{int(result.eliminated)}|{cause}|{stat}|{p.character}|{len(p.mods)}")
    if result.transformation:
        return advance(s, transformation_step(step.seat), apply)
    return advance(s, apply)


def _auto_hit_apply(g: Any, s: LockeState, step: Step) -> LockeState:
    damage_text, eliminated, cause, stat, character, mods_before = step.arg.split("|")
    p = s.seats[step.seat]
    if not p.alive:
        return advance(s)
    if p.character != int(character):  # true self: the new character declares its durability
        return advance(s, Step("hit_redeclare", step.seat, arg=step.arg))
    gained = sum(int(m[2]) for m in p.mods[int(mods_before):] if m[0] == stat and m[1] == "add")
    return _apply_hit(g, s, step.seat, step.n + gained, int(damage_text), bool(int(eliminated)), cause, stat)


def _apply_hit(g: Any, s: LockeState, seat: int, before: int, damage: int, eliminated: bool, cause: str,
               stat: str) -> LockeState:
    """The damage lands: on the durability (0 kills), or on the mind (ruling N1: lowered until
    death, never below 0, and only an E kills)."""
    p = s.seats[seat]
    after = max(0, before - damage)
    if stat == "mind":
        if after != before:
            s = _seat(s, seat, mods=p.mods + (("mind", "add", after - before, "life"),))
    else:
        s = _seat(s, seat, damage=p.damage + (before - after))
    if eliminated or (stat == "durability" and after <= 0):
        return advance(kill(g, s, seat, cause="eliminated" if eliminated else cause))
    return advance(s)


def _on_hit_redeclare(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DeclareDurability)
    damage_text, eliminated, cause, stat = step.arg.split("|")[:4]
    accepted = hit_range(g, s, step.seat, stat)
    if action.value not in accepted:
        raise IllegalAction(f"declare your new character's {stat}: {accepted.start}..{accepted.stop - 1}",
                            rule=RULE_DAMAGE)
    if stat == "mind":
        claim = stat_claim(s, step.seat, "mind", "eq", action.value, RULE_MIND)
    else:
        claim = durability_claim(s, step.seat, action.value, RULE_DAMAGE)
    s = s._replace(**claimed(s, claim))
    return _apply_hit(g, s, step.seat, action.value, int(damage_text), bool(int(eliminated)), cause, stat)


# --- when a combat starts: actually there / actually alive / residual thought (seed 002) --------


def joining_steps(s: LockeState, cell: str, fighters: tuple[int, ...]) -> tuple[Step, ...]:
    """The optional checks seed 002 offers when a combat starts on ``cell`` (ruling N117):
    each dead seat may roll actually-alive; each living seat elsewhere that can act (normal,
    partner or arrested; not restrained, KMC 8) may roll actually-there. Put them before the
    combat's own steps; results land in the log and in ``joined`` events the combat reads."""
    steps = []
    for i, p in enumerate(s.seats):
        if i in fighters:
            continue
        if not p.alive:
            steps.append(Step("try_revive", i, arg=f"alive|{cell}"))
        elif p.status in ("normal", "partner", "arrested") and p.place != cell:
            steps.append(Step("try_revive", i, arg=f"there|{cell}"))
    return tuple(steps)


def arrive(s: LockeState, seat: int, cell: str) -> LockeState:
    """Seed 002 actually-there: the seat's piece goes onto the combat's cell, out of its party
    (its partners are freed too); a prisoner joining a combat escapes (D11)."""
    p = s.seats[seat]
    seats = list(s.seats)
    seats[seat] = p._replace(place=cell, leader=NO_SEAT, status="normal",
                             prison_failures=0 if p.status == "arrested" else p.prison_failures)
    for i, q in enumerate(seats):
        if q.leader == seat:
            seats[i] = q._replace(leader=NO_SEAT, status="normal")
    s = s._replace(seats=tuple(seats))
    if p.status == "arrested":
        s = log(s, "escaped", seat, "joined-combat")
    return s


def _on_try_revive(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, TryRevive)
    if not action.attempt:
        return advance(s)
    return advance(s, Step("join_roll", step.seat, arg=step.arg))


def _pending_join_roll(g: Any, s: LockeState, step: Step) -> Pending:
    chart = "actually-alive" if step.arg.startswith("alive") else "actually-there"
    return Chance("locke.chart." + chart, (6, 6))


def _on_join_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Seed 002 actually-alive: 2/12 back alive on the combat cell, 3-5 a residual thought
    (its firepower from the residual-thought chart), else nothing. Actually-there: 2-4 on the
    cell now, 5-7 from round 2-4 (moved when the combat reaches that round), 8-12 not there."""
    assert isinstance(action, DiceRolled)
    how, _, cell = step.arg.partition("|")
    chart = "actually-alive" if how == "alive" else "actually-there"
    outcome = charts.resolve(chart, action.faces)
    s = log(s, "chart-entry", chart, outcome.entry, step.seat)
    if chart == "actually-alive":
        if outcome.entry == "alive" and not s.seats[step.seat].alive:
            s = revive(g, s, step.seat, cell=cell, how="actually-alive")
            return advance(log(s, "joined", step.seat, cell, 1, 0))
        if outcome.entry == "residual-thought":
            return advance(s, Step("thought_roll", step.seat, arg=cell))
        return advance(s)
    if outcome.entry == "there-now" and s.seats[step.seat].alive:
        return advance(log(arrive(s, step.seat, cell), "joined", step.seat, cell, 1, 0))
    if outcome.value and int(outcome.value) > 1:
        return advance(log(s, "joins-later", step.seat, cell, int(outcome.value)))
    return advance(s)


def _pending_thought_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.residual-thought", (6, 6))


def _on_thought_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    outcome = charts.resolve("residual-thought", action.faces)
    s = log(s, "chart-entry", "residual-thought", outcome.entry, step.seat)
    firepower = int(outcome.value or 0)
    if firepower:
        s = log(s, "joined", step.seat, step.arg, 1, firepower)  # a residual thought with this firepower
    return advance(s)


PENDING: dict[str, Any] = {
    "check_value": _decision, "hit_value": _decision, "hit_redeclare": _decision,
    "try_revive": _decision, "join_roll": _pending_join_roll, "thought_roll": _pending_thought_roll,
    "ctl_die": _pending_ctl_die, "proof_roll": _pending_proof_roll,
    "restrain_roll": _pending_restrain_roll, "release_roll": _pending_release_roll, "tf_roll": _pending_tf_roll,
    "tf_deal": _pending_tf_deal, "tf_silhouette": _pending_tf_silhouette, "check_roll": _pending_check_roll,
    "hit_roll": _pending_hit_roll,
}
HANDLERS: dict[tuple[str, type], Any] = {
    ("ctl_die", DiceRolled): _on_ctl_die,
    ("proof_roll", DiceRolled): _on_proof_roll, ("restrain_roll", DiceRolled): _on_restrain_roll,
    ("release_roll", DiceRolled): _on_release_roll, ("tf_roll", DiceRolled): _on_tf_roll,
    ("tf_deal", CardsDealt): _on_tf_dealt, ("tf_silhouette", DiceRolled): _on_tf_silhouette,
    ("check_value", CheckValue): _on_check_value, ("check_roll", DiceRolled): _on_check_roll,
    ("hit_value", DeclareDurability): _on_hit_value, ("hit_roll", DiceRolled): _on_hit_roll,
    ("hit_redeclare", DeclareDurability): _on_hit_redeclare, ("try_revive", TryRevive): _on_try_revive,
    ("join_roll", DiceRolled): _on_join_roll, ("thought_roll", DiceRolled): _on_thought_roll,
}
AUTO: dict[str, Any] = {
    "ctl_roll": _auto_ctl_roll, "check_phase": _auto_check_phase,
    "restraint_turn": _auto_restraint_turn, "check": _auto_check, "check_done": _auto_check_done,
    "hit": _auto_hit, "hit_apply": _auto_hit_apply,
}

#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = ()
