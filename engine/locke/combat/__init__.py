"""Super Human Locke combat (KMC ch. 10 and 5): replaces the part-2 stand-in.

Start one with :func:`begin` (the contract is /work notes API-combat.md and
docs/rules/locke.md chapter 10). The modules, one job each:

- model.py - the fighters, the attack in flight, the combat's public data;
- flow.py - rounds: deal, initiative, turns, going on, the end;
- path.py - a turn's action and the attack path of KMC fig. 10.2;
- auto.py - the obstacles' automaton (KMC 10.12.2-3);
- items.py - the items of the character cards (KMC 2.3) and of kept planet cards;
- kept.py - which kept planet card is used as what, its claim and its reveal (seed 000 3.1);
- disintegration.py - Jessica's disintegration and its recovery (KMC 2.2.2);
- breakage.py - jammers and fields broken by a stronger attack (KMC 10.7.3);
- ebuster.py - the E-buster's sparing and persuasion (seed 002 trap 11);
- followup.py - follow-up combats after an escape (KMC 10.11);
- talks.py - parties formed and left inside a combat (KMC 10.3.1, 10.3.4);
- latecomers.py - seats joining from outside obey the cell's card (KMC 10.2.2);
- obstacles.py - chart opponents as obstacles;
- randoms.py - the items a random character brings (KMC 10.12.2);
- claims.py - what a combat declaration claims, and its judgement;
- volley.py - seed 002 trap 15, the 300's synchronised attack, on the attack path;
- legal.py - the honest legal actions;
- actions.py - the inputs.
"""

from __future__ import annotations

from typing import Any

from engine.locke.combat import (
    auto, breakage, deck, disintegration, ebuster, flow, followup, items, kept, path, randoms, talks, volley,
)
from engine.locke.combat.actions import ACTIONS
from engine.locke.combat.flow import begin
from engine.locke.combat.kept import PLANET_ITEMS
from engine.locke.combat.legal import MAKERS as _LEGAL
from engine.locke.combat.model import Obstacle
from engine.locke.combat.obstacles import alarm_device, obstacles_from
from engine.locke.steps import LockeStep

PENDING: dict[str, Any] = {**path.PENDING, **items.PENDING}
HANDLERS: dict[tuple[str, type[Any]], Any] = {**path.HANDLERS, **items.HANDLERS,
                                              **disintegration.HANDLERS,
                                              **ebuster.HANDLERS}
AUTO: dict[str, Any] = {**path.AUTO, **items.AUTO}
MAKERS: dict[str, Any] = dict(_LEGAL)
#: Dice whose roller is not the step's seat: kind -> (state, step) -> the rolling seat.
ROLLERS: dict[str, Any] = dict(path.ROLLERS)
#: typed step kinds of the combat (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = (*kept.STEPS, *breakage.STEPS, *talks.STEPS, *volley.STEPS, *followup.STEPS, *ebuster.STEPS,
                                        *randoms.STEPS, *auto.STEPS, *items.STEPS,
                                        *deck.STEPS, *flow.STEPS, *disintegration.STEPS)

__all__ = ["ACTIONS", "AUTO", "HANDLERS", "MAKERS", "PENDING", "PLANET_ITEMS", "ROLLERS", "STEPS", "Obstacle", "alarm_device", "begin", "obstacles_from"]
