"""Jessica's disintegration (KMC 2.2.2, 10.7.1, fig. 10.2; rulings N180-N184).

When a combat card attacks her or a member of her party, Jessica may make
the attacker take an ESP level check, after the syncs and before the escape
phase. A 2 on the dice takes the power from her for good and the attack goes
on; a pass lets the attack go on; a failure makes the attack vanish and
drops the attacker's ESP level to 0 (unless the card was played through an
ESP field: then only the attack vanishes). A disintegrated character rolls
1d6 in each of its own turns' check phases: 1 or 2 gives back one level and
10 power, never above the maximum.

Hidden information: asking only the true Jessica would tell everyone who she
is (N180). The target is asked anyway, in its escape decision, so there the
power is one more option of that decision (after which the decision comes
back, if the attack still stands); every other seat on the target's side
that could hold the power by the public record is asked before it. Using it is a claim: when the target is
herself, a claim that her character has the ability; when it is a party
member, her card is turned face up first (KMC 2.2.2 step 1), so a seat
without the ability is caught at once. The level drop and the recovery are
public mods (engine/locke/stats.py "zero" and "regain"), so every later
level declaration is judged on the level the character has now.
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import CardsRevealed, Chance, DiceRolled, Pending
from engine.locke.state import seat_decision
from engine.locke import claims as ck
from engine.locke import fate, stats
from engine.locke.actions import CheckValue
from engine.locke.combat.actions import Disintegrate
from engine.locke.combat.common import active, alert, fight_of, player, put, with_fighter, with_strike
from engine.locke.abilities import pending_reveal, revealed_user
from engine.locke.components import Character
from engine.locke.state import LockeState, Seat, Step, advance, claimed, log, with_seat

RULE = "locke.2.2.2"
ABILITY = "disintegration"
#: The public mark of a power lost for good (a roll of 2, KMC 2.2.2): a mod no stat reads.
LOST = ("ability:" + ABILITY, "set", 0, "game")
#: Outcomes logged as ("cb-disint", user, attacker, level, total, outcome).
REVERSED, PASSED, FAILED = "reversed", "passed", "failed"


def lost(p: Seat) -> bool:
    return tuple(LOST) in (tuple(m) for m in p.mods)


def could_hold(g: Any, s: LockeState, seat: int) -> bool:
    """By the public record, may ``seat``'s character have the power now? (Not lost for good,
    and not a card turned face up that lacks it.)"""
    p = s.seats[seat]
    if lost(p):
        return False
    shown = dict(s.open_cards).get(p.character)
    return shown is None or g.components.character(shown).has_ability(ABILITY)


def _auto_phase(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 10.7.1: the disintegration phase of a combat-card attack on a seat."""
    fight = fight_of(s)
    strike = fight.strike
    if strike is None or not strike.card or strike.direct or not active(fight, strike.target):
        return advance(s)
    target = fight.fighters[strike.target]
    if not player(target):
        return advance(s)
    asks = tuple(Step("cb_disint", f.seat, n=j) for j, f in enumerate(fight.fighters)
                 if j != strike.target and player(f) and f.party == target.party and alert(fight, j)
                 and could_hold(g, s, f.seat))
    return advance(s, *asks)


def offered(g: Any, s: LockeState, seat: int) -> bool:
    """May ``seat`` be offered the power against the attack in flight (by the public record)?"""
    strike = fight_of(s).strike
    return (strike is not None and bool(strike.card) and not strike.direct and not strike.disint_tried
            and could_hold(g, s, seat))


def _on_disint(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """A party member's answer (``cb_disint``), or the target's own option in its escape
    decision (``cb_escape``; the decision comes back afterwards if the attack still stands)."""
    assert isinstance(action, Disintegrate)
    if not action.use:
        return advance(s)
    if not offered(g, s, step.seat):
        raise IllegalAction("disintegration answers an attack with a combat card, once, before the escape",
                            rule=RULE)
    strike = fight_of(s).strike
    assert strike is not None
    rest = s.queue[1:]
    while rest and rest[0].kind == "cb_disint":  # one try per attack: the others are not asked
        rest = rest[1:]
    s = with_strike(s._replace(queue=(step,) + rest), strike._replace(disint_tried=True))
    target_seat = fight_of(s).fighters[strike.target].seat
    s = log(s, "cb-disint-try", step.seat, target_seat)
    check = _check_step(s, step.seat)
    if step.kind == "cb_escape":  # her own: a claim judged when the card opens
        claim = ck.make(step.seat, s.step_no, ck.HAS_ABILITY, (s.seats[step.seat].character,), ABILITY, RULE)
        return advance(s._replace(**claimed(s, claim)), check, Step("cb_disint_back", step.seat, n=step.n))
    return advance(s, Step("cb_disint_reveal", step.seat), check)


def _auto_back(g: Any, s: LockeState, step: Step) -> LockeState:
    """The target's escape decision again, unless the attack vanished."""
    strike = fight_of(s).strike
    if strike is None or strike.target != step.n:
        return advance(s)
    return advance(s, Step("cb_escape", step.seat, n=step.n))


def _check_step(s: LockeState, user: int) -> Step:
    """The attacker's level check: a seat declares its level (a claim), unless the public
    ledger fixes it; an obstacle's level is public."""
    fight = fight_of(s)
    strike = fight.strike
    assert strike is not None
    attacker = fight.fighters[strike.attacker]
    if attacker.seat < 0:
        assert attacker.ob is not None
        return Step("cb_disint_roll", -1, n=attacker.ob.level, arg=str(user))
    p = s.seats[attacker.seat]
    known = stats.public(p.mods, p.proofs, "level")
    if known is not None:
        return Step("cb_disint_roll", -1, n=known, arg=str(user))
    return Step("cb_disint_level", attacker.seat, n=strike.attacker, arg=str(user))


def _on_revealed(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 2.2.2 step 1: for a party member's sake the card is shown to everyone first."""
    s = revealed_user(g, s, step.seat, action, ABILITY, RULE)
    return advance(log(s, "cb-disint-reveal", step.seat, action.cards[0]))


def _on_level(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CheckValue)
    accepted = fate.check_range(g, s, step.seat, "level")
    if action.value not in accepted:
        raise IllegalAction(f"declare your ESP level ({accepted.start}..{accepted.stop - 1}) for the level check",
                            rule=RULE)
    claim = fate.stat_claim(s, step.seat, "level", "le", action.value, RULE)
    return advance(s._replace(**claimed(s, claim)), Step("cb_disint_roll", -1, n=action.value, arg=step.arg))


def _pending_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.disintegration", (6, 6))


def _on_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """A 2 reverses it (the power is gone for good, the attack goes on); at or below the level
    the attack goes on; above it the attack vanishes and the attacker's level drops to 0."""
    assert isinstance(action, DiceRolled)
    fight = fight_of(s)
    strike = fight.strike
    assert strike is not None
    user = int(step.arg)
    attacker = fight.fighters[strike.attacker]
    who: Any = attacker.seat if attacker.seat >= 0 else (attacker.ob.id if attacker.ob else "")
    total = sum(action.faces)
    if total == 2:
        p = s.seats[user]
        s = s._replace(seats=with_seat(s, user, p._replace(mods=p.mods + (LOST,))))
        return advance(log(s, "cb-disint", user, who, step.n, total, REVERSED))
    if total <= step.n:
        return advance(log(s, "cb-disint", user, who, step.n, total, PASSED))
    s = log(with_strike(s, None), "cb-disint", user, who, step.n, total, FAILED)  # the attack still happened
    if strike.field:  # KMC 2.2.2: a field's attack only vanishes
        return advance(log(s, "cb-disint-field", user, who))
    if attacker.seat >= 0:
        p = s.seats[attacker.seat]
        s = s._replace(seats=with_seat(s, attacker.seat, p._replace(mods=p.mods + (("level", "zero", 0, "life"),))))
    else:
        assert attacker.ob is not None
        s = put(s, with_fighter(fight_of(s), strike.attacker, attacker._replace(ob=attacker.ob._replace(level=0))))
    return advance(log(s, "disintegrated", who))


# --- recovery (KMC 2.2.2: 1d6 in each own turn) -------------------------------------------------


# The check phase asks stats.recovering whether a seat still rolls (engine/locke/fate.py CheckPhase).


def _pending_recover(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.disintegration-recovery", (6,))


def _on_recover(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    face = action.faces[0]
    back = face <= 2
    if back:
        p = s.seats[step.seat]
        s = s._replace(seats=with_seat(s, step.seat, p._replace(
            mods=p.mods + (("level", "regain", 1, "life"), ("power", "regain", 10, "life")))))
    return advance(log(s, "disint-recovery", step.seat, face, back))


# --- honest legal actions (engine/locke/combat/legal.py registers them) -------------------------


def options(s: LockeState, step: Step, me: Character | None) -> list[Action]:
    """The use of the power, for a seat that truly has it (``me`` None: the public record allows it)."""
    if me is not None and not me.has_ability(ABILITY):
        return []
    return [Disintegrate(step.seat, True)]


def _legal_disint(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    return [Disintegrate(step.seat, False)] + (options(s, step, me) if offered(g, s, step.seat) else [])


def _legal_level(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    """``me`` arrives with its current stats (legal.py's wrapper): any level up to the true one."""
    accepted = fate.check_range(g, s, step.seat, "level")
    top = me.level if me is not None else accepted.stop - 1
    return [CheckValue(step.seat, v) for v in accepted if v <= top]


MAKERS = {"cb_disint": _legal_disint, "cb_disint_level": _legal_level}
PENDING = {"cb_disint": seat_decision, "cb_disint_reveal": pending_reveal, "cb_disint_level": seat_decision,
           "cb_disint_roll": _pending_roll, "dis_recover": _pending_recover}
HANDLERS = {("cb_disint", Disintegrate): _on_disint, ("cb_escape", Disintegrate): _on_disint,
            ("cb_disint_reveal", CardsRevealed): _on_revealed,
            ("cb_disint_level", CheckValue): _on_level, ("cb_disint_roll", DiceRolled): _on_roll,
            ("dis_recover", DiceRolled): _on_recover}
AUTO = {"cb_disint_phase": _auto_phase, "cb_disint_back": _auto_back}
