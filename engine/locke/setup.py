"""Set-up (KMC 7.1) as steps: characters, shadow roll, silhouettes, planet cards,
ambushes, turn order and the base players' planet cards.

Every deck starts face down in data order with its handles public
(``open_cards``); a shuffle gives fresh handles nobody can read. Characters
are drawn as KMC 7.1.2-5 says, with hidden-card operations only: each
attribute group is shuffled and its top cards join the pool, the leftover
Good, Evil and Special cards are shuffled for the random (X) draw, the pool is
shuffled and one card is dealt to each seat. The shadow roll is a private
die: a six-card "die" deck per seat, shuffled, its top card dealt to the seat
(rulings N18, N41). Silhouettes are a sealed choice; the die rule is a claim judged
when the die opens at the end.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import CheatDetected, IllegalAction
from engine.core.pending import (
    CardsDealt,
    CardsRevealed,
    CardsShuffled,
    Chance,
    Decision,
    DiceRolled,
    HiddenOp,
    Pending,
    Placement,
    PlacementMade,
    SealedChoice,
    SealedChoicesRevealed,
)
from engine.locke import board, setup_tables
from engine.locke import claims as ck
from engine.locke.actions import InfoCheck, Switch
from engine.locke.state import claimed, Cell, LockeState, Seat, Step, advance, log, with_seat, with_zone, zone_of
from engine.locke.steps import LockeStep

#: Planet-card cells in board order (36, KMC 7.1.1) and their keys.
PLANET_CELLS: tuple[str, ...] = tuple(c.key for c in board.PLANET_CARD_CELLS)
AMBUSH_CARDS = ("ambush-a", "ambush-b")
GROUPS = ("L", "G", "E", "S")


def initial_state(g: Any, players: int) -> LockeState:
    """Seats, the character groups face down (handles public), and the set-up queue."""
    comp = setup_tables.composition(players)  # IllegalAction outside 5..10 (locke.7.1)
    pools = setup_tables.character_pools(g.components)
    zones: list[tuple[str, tuple[int, ...]]] = []
    opened: list[tuple[int, str]] = []
    handle = 0
    for name, ids in zip(GROUPS, (pools.locke, pools.good, pools.evil, pools.special)):
        handles = tuple(range(handle, handle + len(ids)))
        handle += len(ids)
        zones.append((f"chars:{name}", handles))
        opened.extend(zip(handles, ids))
    queue = tuple(Step("shuffle", -1, arg=f"chars:{name}") for name in GROUPS) + (
        Step("pick_pool", -1, n=players), Step("shuffle", -1, arg="chars:X"), Step("pick_x", -1, n=comp.random),
        Step("shuffle", -1, arg="chars:pool"),
    ) + tuple(Step("deal_char", seat) for seat in range(players)) + (Step("shadow", -1),)
    return LockeState(
        n=players, queue=queue, seats=tuple(Seat() for _ in range(players)), zones=tuple(sorted(zones)),
        open_cards=tuple(opened), next_handle=handle, taken=tuple(() for _ in range(players)),
    )


# --- hidden-card steps shared by every phase ------------------------------------------


def _pending_shuffle(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("shuffle", step.arg, zone_of(s, step.arg))


def on_shuffled(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Any zone shuffle: the zone gets fresh handles and loses its public identities."""
    old = set(zone_of(s, step.arg))
    start = s.next_handle
    fresh = tuple(range(start, start + len(old)))
    return advance(s._replace(
        zones=with_zone(s, step.arg, fresh), next_handle=start + len(fresh), shuffled=(step.arg, fresh),
        open_cards=tuple(o for o in s.open_cards if o[0] not in old),
    ))


def own_character(s: LockeState, seat: int) -> Pending:
    """``seat`` turns its own character card face up for everyone (an ability's user, an
    override, an expose-self card, the King editorial room)."""
    return HiddenOp("reveal", "characters", (s.seats[seat].character,))


def fresh_zone(s: LockeState, name: str, cards: tuple[str, ...]) -> LockeState:
    """A new face-down zone of ``cards`` in this order, handles public until shuffled."""
    start = s.next_handle
    handles = tuple(range(start, start + len(cards)))
    return s._replace(
        zones=with_zone(s, name, handles), next_handle=start + len(handles),
        open_cards=s.open_cards + tuple(zip(handles, cards)),
    )


# --- characters (KMC 7.1.2-5) -----------------------------------------------------------


def _auto_pick_pool(g: Any, s: LockeState, step: Step) -> LockeState:
    comp = setup_tables.composition(step.n)
    pool: tuple[int, ...] = ()
    leftover: tuple[int, ...] = ()
    for name, count in zip(GROUPS, (comp.locke, comp.good, comp.evil, comp.special)):
        handles = zone_of(s, f"chars:{name}")
        pool += handles[:count]
        if name != "L":
            leftover += handles[count:]
    unused = zone_of(s, "chars:L")[comp.locke:]
    zones = s._replace(zones=with_zone(s, "chars:pool", pool))
    zones = zones._replace(zones=with_zone(zones, "chars:X", leftover))
    zones = zones._replace(zones=with_zone(zones, "chars:unused", unused))
    for name in GROUPS:
        zones = zones._replace(zones=with_zone(zones, f"chars:{name}", ()))
    return advance(zones)


def _auto_pick_x(g: Any, s: LockeState, step: Step) -> LockeState:
    rest = zone_of(s, "chars:X")
    s = s._replace(zones=with_zone(s, "chars:pool", zone_of(s, "chars:pool") + rest[: step.n]))
    s = s._replace(zones=with_zone(s, "chars:unused", zone_of(s, "chars:unused") + rest[step.n:]))
    return advance(s._replace(zones=with_zone(s, "chars:X", ())))


def _pending_deal_char(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("deal", "chars:pool", zone_of(s, "chars:pool")[:1], to_seat=step.seat)


def _on_char_dealt(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    pool = zone_of(s, "chars:pool")
    seat = s.seats[step.seat]._replace(character=pool[0])
    s = s._replace(seats=with_seat(s, step.seat, seat), zones=with_zone(s, "chars:pool", pool[1:]))
    return advance(s)


# --- shadow roll and silhouettes (KMC 7.1.7-8, table 7.2) ------------------------------


def _auto_shadow(g: Any, s: LockeState, step: Step) -> LockeState:
    """Every seat gets a fresh private die (rulings N18, N41), then all pick a silhouette."""
    steps: list[Step] = []
    for seat in range(s.n):
        s = fresh_zone(s, f"die:{seat}", ck.DIE_CARDS)
        steps += [Step("shuffle", -1, arg=f"die:{seat}"), Step("deal_die", seat)]
    seats = tuple(p._replace(silhouette="") for p in s.seats)
    s = s._replace(seats=seats, picking=tuple(range(s.n)), taken=tuple(() for _ in range(s.n)))
    return advance(s, *steps, Step("silhouettes", -1), Step("faces", -1))


def _pending_deal_die(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("deal", f"die:{step.seat}", zone_of(s, f"die:{step.seat}")[:1], to_seat=step.seat)


def _on_die_dealt(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    zone = zone_of(s, f"die:{step.seat}")
    seat = s.seats[step.seat]._replace(die=zone[0])
    return advance(s._replace(seats=with_seat(s, step.seat, seat), zones=with_zone(s, f"die:{step.seat}", zone[1:])))


def taken_copies(s: LockeState, excluding: tuple[int, ...] = ()) -> dict[str, int]:
    taken: dict[str, int] = {}
    for i, p in enumerate(s.seats):
        if p.silhouette and i not in excluding:
            taken[p.silhouette] = taken.get(p.silhouette, 0) + 1
    return taken


def free_silhouettes(g: Any, s: LockeState, excluding: tuple[int, ...] = ()) -> tuple[str, ...]:
    """Silhouette ids with a copy left, in data order (seats in ``excluding`` hold none)."""
    taken = taken_copies(s, excluding)
    return tuple(sil.id for sil in g.components.silhouettes if taken.get(sil.id, 0) < sil.count)


def _pending_silhouettes(g: Any, s: LockeState, step: Step) -> Pending:
    options = free_silhouettes(g, s, s.picking)
    return SealedChoice(s.picking, "locke.silhouette", tuple(options for _ in s.picking))


def _on_silhouettes(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Everyone shows the picked face; over-picked faces go to the earliest seats
    and the later ones pick again (rulings N18, N41)."""
    assert isinstance(action, SealedChoicesRevealed)
    before = taken_copies(s, s.picking)
    snapshot = tuple(sorted(before.items()))
    seats = list(s.seats)
    taken = list(s.taken)
    counts = dict(before)
    again: list[int] = []
    for seat, choice in sorted(zip(s.picking, action.choices)):
        taken[seat] = snapshot
        if counts.get(choice, 0) < g.components.silhouette(choice).count:
            counts[choice] = counts.get(choice, 0) + 1
            seats[seat] = seats[seat]._replace(silhouette=choice)
        else:
            again.append(seat)
    s = s._replace(seats=tuple(seats), taken=tuple(taken), picking=tuple(again))
    if again:
        return advance(s, Step("silhouettes", -1))
    return advance(s)


def face_attribute(g: Any, silhouette: str) -> str:
    attribute: str = g.components.silhouette(silhouette).attribute
    return attribute


def _auto_faces(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 7.1.8: at least one Good and one Evil face, else roll again; too many
    Evil faces switch (ruling N19); then every pick becomes a shadow claim."""
    attributes = [face_attribute(g, p.silhouette) for p in s.seats]
    if setup_tables.needs_shadow_reroll(attributes):
        return advance(log(s, "shadow-reroll", "locke.7.1.8"), Step("shadow", -1))
    made = tuple(
        ck.make(seat, s.step_no, ck.SHADOW, (p.die, p.character), [p.silhouette, [list(t) for t in s.taken[seat]]],
                "locke.7.1.7")
        for seat, p in enumerate(s.seats)
    )
    s = s._replace(**claimed(s, *made))
    switch = tuple(Step("switch", seat) for seat in setup_tables.evil_faces_to_switch(attributes))
    return advance(s, *switch, Step("faces_done", -1))


def _on_switch(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Switch)
    options = [sid for sid in free_silhouettes(g, s, (step.seat,)) if face_attribute(g, sid) != "evil"]
    if action.silhouette not in options:
        raise IllegalAction(f"{action.silhouette!r} is not a free non-Evil silhouette; choose one of {options}",
                            rule="locke.7.1.8")
    seat = s.seats[step.seat]._replace(silhouette=action.silhouette)
    return advance(log(s._replace(seats=with_seat(s, step.seat, seat)), "switched", step.seat, action.silhouette))


def _auto_faces_done(g: Any, s: LockeState, step: Step) -> LockeState:
    """Base players are the Evil faces; lay the planet cards (KMC 7.1.1, 7.1.9-11)."""
    seats = tuple(p._replace(base_player=face_attribute(g, p.silhouette) == "evil") for p in s.seats)
    s = s._replace(seats=seats)
    cards = tuple(cid for cid in g.components.deck("planets") if cid not in AMBUSH_CARDS)
    s = fresh_zone(s, "planet:stock", cards)
    base = [i for i, p in enumerate(seats) if p.base_player]
    ambushes: list[Step] = []
    if len(base) == 1:
        ambushes.append(Step("ambush", base[0], arg=",".join(AMBUSH_CARDS)))
    else:  # ruling N40: ambush A to the first base player, B to the second
        ambushes += [Step("ambush", base[0], arg=AMBUSH_CARDS[0]), Step("ambush", base[1], arg=AMBUSH_CARDS[1])]
    rollers = ",".join(str(i) for i, p in enumerate(seats) if not p.base_player)
    k = setup_tables.base_player_planet_cards(s.n - len(base))
    deals = tuple(Step("deal_planets", seat, n=k) for seat in base)
    return advance(s, Step("shuffle", -1, arg="planet:stock"), Step("lay_planets", -1), *ambushes,
                   Step("order_roll", -1, arg=rollers), *deals, Step("planet_start", -1))


def _auto_lay_planets(g: Any, s: LockeState, step: Step) -> LockeState:
    stock = zone_of(s, "planet:stock")
    cells = tuple((key, Cell(handle=h)) for key, h in zip(PLANET_CELLS, stock))
    return advance(s._replace(cells=cells, zones=with_zone(s, "planet:stock", stock[len(PLANET_CELLS):])))


# --- ambushes (KMC 7.1.9; ruling N40) ------------------------------------------------------


def _pending_ambush(g: Any, s: LockeState, step: Step) -> Pending:
    return Placement("place", f"ambush:{step.seat}", step.seat, PLANET_CELLS, tuple(step.arg.split(",")))


def on_placement_made(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """A placement is committed: one fresh handle per candidate cell (engine.core)."""
    assert isinstance(action, PlacementMade)
    pending = g.pending(s)
    assert isinstance(pending, Placement)
    start = s.next_handle
    handles = tuple(range(start, start + len(pending.cells)))
    record = (pending.zone, pending.seat, pending.cells, handles)
    return advance(s._replace(placements=s.placements + (record,), next_handle=start + len(handles)))


# --- turn order (KMC 7.1.10; ruling N21) -----------------------------------------------------


def _pending_order_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.turn_order", tuple(6 for _ in step.arg.split(",")))


def _on_order_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    rollers = [int(x) for x in step.arg.split(",")]
    rolls = dict(zip(rollers, action.faces))
    roll = setup_tables.roll_for_first(rolls)
    if roll.first is None:
        tied = roll.reroll
        return advance(log(s, "order-tie", list(tied)), Step("order_roll", -1, arg=",".join(str(t) for t in tied)))
    return advance(s._replace(order=setup_tables.turn_order(roll.first, s.n)))


# --- the base players' planet cards (KMC 7.1.11, table 7.3) ----------------------------------


def _pending_deal_planets(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("deal", "planet:stock", zone_of(s, "planet:stock")[: step.n], to_seat=step.seat)


def _on_planets_dealt(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsDealt)
    stock = zone_of(s, "planet:stock")
    seat = s.seats[step.seat]
    seat = seat._replace(kept=seat.kept + stock[: step.n])
    return advance(s._replace(seats=with_seat(s, step.seat, seat), zones=with_zone(s, "planet:stock", stock[step.n:])))


def _auto_planet_start(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 7.2.1: the planet phase; first every base player shows three or more
    dealt information cards, or claims it holds fewer (seed 000 3.2.2)."""
    checks = tuple(Step("info_check", i) for i, p in enumerate(s.seats) if p.base_player)
    return advance(s._replace(phase="planet"), *checks, Step("next_turn", -1))


def _on_info_check(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Seed 000 3.2.2: three or more dealt information cards are shown at once and end
    the planet phase; showing none is a claim of holding fewer than three."""
    assert isinstance(action, InfoCheck)
    p = s.seats[step.seat]
    if not action.handles:
        claim = ck.make(step.seat, s.step_no, ck.INFO_BELOW_3, p.kept, None, "locke.s000.3.2.2")
        return advance(s._replace(**claimed(s, claim)))
    if len(action.handles) < 3 or len(set(action.handles)) != len(action.handles) or any(
            h not in p.kept for h in action.handles):
        raise IllegalAction("show three or more of your own dealt planet cards, or none", rule="locke.s000.3.2.2")
    return advance(s, Step("reveal_info", step.seat, arg=",".join(str(h) for h in action.handles)))


def _pending_reveal_info(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", f"kept:{step.seat}", tuple(int(h) for h in step.arg.split(",")))


def open_information(g: Any, s: LockeState, seat: int, action: CardsRevealed) -> LockeState:
    """Seed 000 3.2.2: kept cards shown as information go face up and count towards
    the seat's information; a shown card that is not one is a cheat."""
    if any(g.components.planet(c).effect.type != "information" for c in action.cards):
        raise cheat(seat, f"showed {list(action.cards)} as information cards", "locke.s000.3.2.2")
    p = s.seats[seat]
    shown = set(action.handles)
    p = p._replace(kept=tuple(h for h in p.kept if h not in shown), info=p.info + len(shown))
    return s._replace(seats=with_seat(s, seat, p), open_cards=s.open_cards + tuple(zip(action.handles, action.cards)))


def _on_info_revealed(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsRevealed)
    s = open_information(g, s, step.seat, action)
    s = log(s, "information-shown", step.seat, len(action.handles))
    return s._replace(queue=(Step("phase_change", step.seat, arg="information"),))


def _decision(g: Any, s: LockeState, step: Step) -> Pending:
    return Decision(step.seat, "locke." + step.kind)


def cheat(seat: int, message: str, rule: str) -> CheatDetected:
    return CheatDetected(message, seat=seat, rule=rule)


PENDING = {
    "shuffle": _pending_shuffle,
    "deal_char": _pending_deal_char,
    "deal_die": _pending_deal_die,
    "silhouettes": _pending_silhouettes,
    "switch": _decision,
    "info_check": _decision,
    "reveal_info": _pending_reveal_info,
    "ambush": _pending_ambush,
    "order_roll": _pending_order_roll,
    "deal_planets": _pending_deal_planets,
}
HANDLERS = {
    ("shuffle", CardsShuffled): on_shuffled,
    ("deal_char", CardsDealt): _on_char_dealt,
    ("deal_die", CardsDealt): _on_die_dealt,
    ("silhouettes", SealedChoicesRevealed): _on_silhouettes,
    ("switch", Switch): _on_switch,
    ("info_check", InfoCheck): _on_info_check,
    ("reveal_info", CardsRevealed): _on_info_revealed,
    ("ambush", PlacementMade): on_placement_made,
    ("order_roll", DiceRolled): _on_order_roll,
    ("deal_planets", CardsDealt): _on_planets_dealt,
}
AUTO = {
    "pick_pool": _auto_pick_pool,
    "pick_x": _auto_pick_x,
    "shadow": _auto_shadow,
    "faces": _auto_faces,
    "faces_done": _auto_faces_done,
    "lay_planets": _auto_lay_planets,
    "planet_start": _auto_planet_start,
}

#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = ()
