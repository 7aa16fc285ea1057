"""Super Human Locke combat (KMC ch. 10 and 5).

Start one with :func:`begin` (docs/rules/locke.md chapter 10 says what a combat does).
Every step of a combat is a typed step class (engine/locke/steps.py) living next to the
code it runs; :data:`STEPS` lists them all for engine/locke/registry.py. The modules,
one job each:

- model.py - the fighters, the attack in flight, the combat's public data;
- common.py - helpers every module shares (the fight, targets, sleepers, face-up plays);
- flow.py - rounds: start, joiners, initiative, turns, going on, the end;
- deck.py - combat cards dealt to a seat or turned face up for an obstacle;
- path.py - a turn's action, the attack path of KMC fig. 10.2, and the three
  decisions a controller may order (the turn, the escape, the defence);
- options.py - the honest card and item options of the turn and of the answers;
- auto.py - the obstacles' automaton (KMC 10.12.2-3);
- items.py - the item tables and claim the item families share (KMC 2.3), one module
  each: equip.py (declarations, hand trims), jammer.py (the ESP jammer), nike.py (Nike,
  thought syncs), specials.py (an item used on one's turn, the special attacks),
  escapes.py (escapes and defences by item), ball.py (the absorb ball), turn_cards.py
  (slum, ESP controller, industrial district; the turn going on, waking up, the end)
  and suits.py (what a hit meets before the body: absorb ball, Nike, suits);
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
- actions.py - the inputs.

Nothing is imported here: the package's modules are imported one by one (the claims of a
combat are judged far below the rest of it, engine/locke/claims.py), and
engine/locke/registry.py gathers the steps of each.
"""
