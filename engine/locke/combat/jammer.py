"""A player's ESP jammer of hidden level (KMC 10.10): its owner says whether it stops the card just played.

The jammer is put on a fighter by the declaration (engine/locke/combat/equip.py); the turn
(engine/locke/combat/path.py) and the obstacles' automaton (engine/locke/combat/auto.py) ask
:func:`jam_question` after a card is played. Its own module because both of them ask it and
it needs nothing of the other items.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.locke import claims as ck
from engine.locke.combat import breakage, kept
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import JamVeto
from engine.locke.combat.common import as_now, fight_of, put, seat_index
from engine.locke.combat.model import Fighter
from engine.locke.components import Character
from engine.locke.state import LockeState, advance, claimed, log
from engine.locke.steps import LockeStep, Ordered, Rules, SeatDecision, answers


def jam_question(f: Fighter, index: int, level: int, drop: int, step: LockeStep) -> JammerQuestion:
    """The jammer's owner answers the card fighter ``index`` plays (KMC 10.10): stopped, the play is
    taken back (the ``drop`` steps of its continuation with it) and ``step`` comes again (afresh:
    a controller's order for it is asked again)."""
    again = dataclasses.replace(step, order="") if isinstance(step, Ordered) else step
    return JammerQuestion(f.jam_owner, index, level, drop, again)


@dataclasses.dataclass(frozen=True)
class JammerQuestion(SeatDecision):
    """The owner ``seat`` of the jammer of hidden level on fighter ``fighter`` says whether it
    stops the card of ``level`` just played (KMC 10.10). Stopped, the ``drop`` steps that carry
    the play on go and ``again`` (the step the card was played in) comes back."""

    KIND: ClassVar[str] = "cb_jam_ask"
    fighter: int
    level: int
    drop: int
    again: LockeStep

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        card = fight_of(s).fighters[self.fighter].jam_card
        jammer = kept.levels(g, s, self.seat, card, knowledge, as_now(s, self.seat, me), "esp-jammer")
        return [JamVeto(self.seat, veto) for veto in (False, True)
                if jammer is None or any((top >= self.level) == veto for top in jammer)]

    @answers(JamVeto)
    def answer(self, g: Rules, s: LockeState, action: JamVeto) -> LockeState:
        """The owner stops the card (a claim that its jammer reaches the card's level: the play is
        taken back, card and power returned, and the player chooses again) or lets it work (a
        claim that the jammer is below it, KMC 10.10: the level stays hidden only until a card
        works). Either answer is recorded (breakage.learn), so neither level is asked again."""
        fight = fight_of(s)
        victim = fight.fighters[self.fighter]
        about = (victim.jam_card,) if victim.jam_card >= 0 else (s.seats[self.seat].character,)
        what = cc.JAMMER if action.veto else cc.JAM_PASS
        s = s._replace(**claimed(s, ck.make(self.seat, s.step_no, what, about, self.level, "locke.10.10")))
        owner = seat_index(fight_of(s), self.seat)
        if not action.veto or fight.before is None:
            fight = breakage.learn(fight, owner, "esp-jammer", victim.jam_card, self.level, False)
            return advance(put(s, fight._replace(before=None)))
        back = breakage.learn(fight.before, owner, "esp-jammer", victim.jam_card, self.level, True)
        s = log(put(s, back), "cb-jam-veto", self.seat, victim.seat, self.level)
        return s._replace(queue=(self.again,) + s.queue[1 + self.drop:])


#: the jammer step kinds (engine/locke/registry.py, the combat family)
STEPS: tuple[type[LockeStep], ...] = (
    JammerQuestion,
)
