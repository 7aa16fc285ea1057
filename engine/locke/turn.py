"""Turns (KMC 8, 9), planet and base cards, prison, the phase change (KMC 7.2-7.3).

A turn is the six phases of KMC fig. 9.1 as queued steps: ``declare``
(engine/locke/declare.py), the check phase (``check_phase``: ESP-proof
removal, engine/locke/fate.py), ``move``, ``instruct``, ``combat_phase`` and ``destroy_phase``, then
``end_turn``. A seat's state picks which phases it gets (KMC 8): resting
seats count down, arrested seats take the prison check, partners may only
stay or leave. Evil faces take no planet-phase turn (KMC 7.2.1).

Planet cards: on arrival at a face-down card the ambush placements are opened
for that cell first (each proves "here" or "not here"), then the card is
dealt to the arriving player alone; it keeps it face down (a claim that it is
an ability card) or shows it and obeys it (:func:`obey_planet`; the trap chart
is engine/locke/traps.py's). Base cards are turned face up by non-base
players and obeyed by engine/locke/base_cards.py; combats go to
engine/locke/combat/.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.pending import (
    EMPTY,
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CellsOpened,
    Chance,
    Decision,
    DiceRolled,
    HiddenOp,
    Pending,
    Placement,
    PlacementDisclosed,
    PlacementMade,
)
from engine.locke.state import seat_decision
from engine.locke import board, charts, fate
from engine.locke import claims as ck
from engine.locke.actions import (
    Appear,
    Destroy,
    EnterBase,
    Escape,
    Fly,
    Follow,
    Identify,
    Join,
    Keep,
    Land,
    Leave,
    Nop,
    Propose,
    Recover,
    Release,
    Surrender,
    Teleport,
    Walk,
)
from engine.locke.setup import cheat, fresh_zone, on_placement_made
from engine.locke.state import (
    claimed,
    NO_SEAT,
    OFF_BOARD,
    Cell,
    Combat,
    LockeState,
    Step,
    advance,
    cell_of,
    lead,
    log,
    party_of,
    with_cell,
    with_seat,
    with_zone,
    zone_of,
)
from engine.locke.steps import LockeStep

BASE_CELLS: tuple[str, ...] = tuple(c.key for c in board.BASE_CELLS)
OUTER: tuple[str, ...] = tuple(c.key for c in board.OUTER_CELLS)
ENTRY: tuple[str, ...] = tuple(c.key for c in board.PRINTED_SPACEPORTS)
KEY_BASES = ("command-room", "laboratory", "computer-room", "energy-room")
KEY_ZONE = "keybases"
#: After this many turns the game is judged as it stands (our termination guard, ruling N47).
GUARD_CYCLES = 150
#: Bound on chained random teleports within one instruction phase (our addition).
MAX_CHAIN = 8
#: Base cards that do nothing on arrival.
QUIET_BASES = ("corridor", "white-hole", *KEY_BASES)


# --- helpers -------------------------------------------------------------------------


def move_party(s: LockeState, leader: int, to: str) -> LockeState:
    seats = list(s.seats)
    for i in party_of(s, leader):
        seats[i] = seats[i]._replace(place=to)
    return s._replace(seats=tuple(seats))


def flag(s: LockeState, *flags: str) -> LockeState:
    return s._replace(turn_flags=s.turn_flags + flags)


def spaceport_cards(s: LockeState) -> tuple[board.PlanetCell, ...]:
    found = []
    for key, c in s.cells:
        if c.face_up == "spaceport":
            cell = board.cell_from_key(key)
            assert isinstance(cell, board.PlanetCell)
            found.append(cell)
    return tuple(found)


def is_spaceport(s: LockeState, key: str) -> bool:
    return key in ENTRY or cell_of(s, key).face_up == "spaceport"


def walk_targets(s: LockeState, key: str) -> tuple[str, ...]:
    return tuple(c.key for c in board.walk_neighbours(board.cell_from_key(key)))


def teleport_targets(s: LockeState, key: str, distance: int) -> tuple[str, ...]:
    return tuple(c.key for c in board.teleport_destinations(board.cell_from_key(key), distance))


def flight_targets(s: LockeState, key: str) -> tuple[str, ...]:
    if s.phase != "planet" or not is_spaceport(s, key):
        return ()
    return tuple(c.key for c in board.flight_destinations(board.cell_from_key(key), spaceport_cards(s)))


def can_recover(g: Any, s: LockeState, seat: int) -> bool:
    """KMC 9.3.1: lost durability heals by one, except on the base cells that forbid it."""
    p = s.seats[seat]
    if p.damage <= 0:
        return False
    card = cell_of(s, p.place).face_up if s.phase == "base" else ""
    if card and card not in KEY_BASES and card != "destroyed":
        flags = g.components.base(card).flags
        if "no-recovery" in flags or "no-normal-recovery" in flags:
            return False
        if "no-recovery-if-exit-open" in flags and any(c.face_up == "white-hole" for _, c in s.cells):
            return False
    return True


def party_candidates(g: Any, s: LockeState, seat: int) -> tuple[int, ...]:
    """Seats ``seat`` may invite (KMC 9.2.1): normal, alone, same cell, other faces."""
    me = s.seats[seat]
    faces = {s.seats[i].silhouette for i in party_of(s, seat)}
    return tuple(
        i for i, p in enumerate(s.seats)
        if i != seat and p.alive and p.status == "normal" and p.place == me.place and p.place != OFF_BOARD
        and p.leader == NO_SEAT and not any(q.leader == i for q in s.seats) and p.silhouette not in faces
    )


def info_of_party(s: LockeState, seat: int) -> int:
    return sum(s.seats[i].info for i in party_of(s, lead(s, seat)))


def alive_seats(s: LockeState) -> tuple[int, ...]:
    return tuple(i for i, p in enumerate(s.seats) if p.alive)


# --- the turn loop (KMC 7.2.1, 7.3.2, 9.1) --------------------------------------------


def takes_turn(s: LockeState, seat: int) -> bool:
    p = s.seats[seat]
    if s.phase == "planet" and p.base_player:
        return False
    if not p.alive:  # KMC 8: a dead seat's turn is only for a clone (engine/locke/planet_cards.py)
        from engine.locke.planet_cards import takes_dead_turn

        return takes_dead_turn(s, seat)
    return True


def _auto_next_turn(g: Any, s: LockeState, step: Step) -> LockeState:
    from engine.locke.declare import end_game

    if s.turn >= GUARD_CYCLES * s.n:
        return end_game(s, "guard")
    if not s.order:
        raise IllegalAction("no turn order yet", rule="locke.7.1.10")
    if s.phase == "planet" and not any(p.alive and not p.base_player for p in s.seats):
        # KMC 7.2.2: every searcher is dead (a clone held is used in the base phase)
        return advance(s, Step("phase_change", -1, arg="no-searchers"))
    start = 0 if s.current == NO_SEAT else s.order.index(s.current) + 1
    for k in range(s.n):
        seat = s.order[(start + k) % s.n]
        if takes_turn(s, seat):
            # a dead seat's clone turn does not count towards the guard (ruling N103)
            s = s._replace(current=seat, turn=s.turn + int(s.seats[seat].alive), turn_flags=())
            return advance(s, Step("turn", seat))
    if s.phase == "planet":  # KMC 7.2.2: every non-base character is dead
        return advance(s, Step("phase_change", -1, arg="no-searchers"))
    return end_game(s, "all-dead")


def _auto_turn(g: Any, s: LockeState, step: Step) -> LockeState:
    seat = step.seat
    p = s.seats[seat]
    end = Step("end_turn", seat)
    check = fate.CheckPhase(seat)  # engine/locke/fate.py: ESP-proof removal (KMC 9.1 check phase)
    if not p.alive:
        from engine.locke.planet_cards import dead_turn

        return dead_turn(g, s, seat)
    if p.status == "resting":
        return advance(s, fate.RestraintTurn(seat), end)  # engine/locke/fate.py (KMC 8)
    if p.status == "arrested":
        return advance(s, Step("declare", seat), check, Step("release", seat), end)
    if p.status == "partner":
        return advance(s, Step("declare", seat), check, Step("move", seat), end)
    if s.phase == "base" and p.base_player and p.place == OFF_BOARD:
        return advance(s, Step("declare", seat), check, Step("base_drop", seat), end)  # KMC 7.3.1.3: freed, enters at random
    return advance(s, Step("declare", seat), check, Step("move", seat), Step("instruct", seat),
                   Step("combat_phase", seat), Step("destroy_phase", seat), end)


def _auto_end_turn(g: Any, s: LockeState, step: Step) -> LockeState:
    from engine.locke.declare import end_game

    living = alive_seats(s)
    if not living:
        return end_game(s, "all-dead")
    if len(living) == 1 and living[0] == step.seat:  # KMC 6.4: the last one alive finished its turn
        return end_game(s, "last-alive", living[0])
    if s.phase == "planet" and all(c.handle is None for _, c in s.cells):
        return advance(s, Step("phase_change", -1, arg="all-open"))  # KMC 7.2.2
    return advance(s, Step("next_turn", -1))


# --- movement phase (KMC 9.2.1, 9.3.1) ------------------------------------------------


def _on_walk(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Walk)
    seat = step.seat
    p = s.seats[seat]
    if p.status == "partner":
        raise IllegalAction("a partner moves with its leader; stay (nop) or leave the party", rule="locke.8")
    if p.place == OFF_BOARD:
        cells = ENTRY if s.phase == "planet" else ()
        if action.to not in cells:
            raise IllegalAction(f"enter the board on a left-hand spaceport: one of {list(cells)}", rule="locke.9.2.1")
        s = s._replace(seats=with_seat(s, seat, p._replace(place=action.to)))
        return advance(flag(s, "moved"))
    if action.to not in walk_targets(s, p.place):
        raise IllegalAction(f"{action.to} is not next to {p.place}; walk to one of {list(walk_targets(s, p.place))}",
                            rule="locke.9.2.1" if s.phase == "planet" else "locke.9.3.1")
    return advance(flag(move_party(s, seat, action.to), "moved"))


def _on_teleport(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Teleport)
    p = s.seats[step.seat]
    if p.place == OFF_BOARD or p.status != "normal":
        raise IllegalAction("only a player on the board in a normal state can teleport", rule="locke.9.2.1")
    if not 1 <= action.level <= 6:
        raise IllegalAction("declare a teleport level from 1 to your ESP level (at most 6)", rule="locke.9.2.1")
    if p.proofs:
        raise IllegalAction("an ESP proof holds your ESP level at 0: you cannot teleport", rule="locke.s002.prison")
    claim = fate.stat_claim(s, step.seat, "level", "le", action.level, "locke.9.2.1")
    return advance(s._replace(**claimed(s, claim)), Step("tele_roll", step.seat, n=action.level))


def _pending_tele_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.teleport", (6,))


def _on_tele_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    face = action.faces[0]
    if face > step.n:
        return advance(flag(log(s, "teleport-failed", step.seat, step.n, face), "move_failed"))
    return advance(s, Step("land", step.seat, n=face, arg=str(step.n)))


def _on_land(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Land)
    p = s.seats[step.seat]
    targets = teleport_targets(s, p.place, step.n)
    if action.to not in targets:
        raise IllegalAction(f"a teleport of {step.n} from {p.place} ends on one of {list(targets)}",
                            rule="locke.9.2.1" if s.phase == "planet" else "locke.9.3.1")
    origin = p.place
    partners = party_of(s, step.seat)[1:]
    s = s._replace(seats=with_seat(s, step.seat, p._replace(place=action.to)))
    follow = tuple(Step("follow", i, n=int(step.arg), arg=action.to) for i in partners)
    seats = list(s.seats)
    for i in partners:
        seats[i] = seats[i]._replace(place=origin)
    return advance(flag(s._replace(seats=tuple(seats)), "moved"), *follow)


def _on_follow(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 9.2.1: a partner goes along (claiming a level at least the declared one) or stays behind."""
    assert isinstance(action, Follow)
    p = s.seats[step.seat]
    if action.follow:
        claim = fate.stat_claim(s, step.seat, "level", "le", step.n, "locke.9.2.1")
        p = p._replace(place=step.arg)
        return advance(s._replace(seats=with_seat(s, step.seat, p), **claimed(s, claim)))
    return advance(s._replace(seats=with_seat(s, step.seat, p._replace(leader=NO_SEAT, status="normal"))))


def _on_fly(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Fly)
    p = s.seats[step.seat]
    targets = flight_targets(s, p.place) if p.status == "normal" else ()
    if action.to not in targets:
        raise IllegalAction(f"fly from a spaceport to another spaceport: one of {list(targets)}", rule="locke.9.2.1")
    return advance(flag(move_party(s, step.seat, action.to), "moved"))


def _on_recover(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    p = s.seats[step.seat]
    if p.status != "normal" or not can_recover(g, s, step.seat):
        raise IllegalAction("you can recover only lost durability, and not on this cell", rule="locke.9.3.1")
    return advance(flag(s._replace(seats=with_seat(s, step.seat, p._replace(damage=p.damage - 1))), "recovered"))


def _on_nop(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    return advance(flag(s, "nop"))


def _on_propose(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Propose)
    p = s.seats[step.seat]
    candidates = party_candidates(g, s, step.seat)
    faces = [s.seats[i].silhouette for i in action.partners]
    if (p.status != "normal" or p.place == OFF_BOARD or not action.partners or len(set(action.partners)) != len(action.partners)
            or any(i not in candidates for i in action.partners) or len(set(faces)) != len(faces)):
        raise IllegalAction("invite players in a normal state on your cell, none with your party's silhouette "
                            f"nor sharing one; you may invite {list(candidates)}", rule="locke.9.2.1")
    joins = tuple(Step("join", i, n=step.seat) for i in sorted(action.partners))
    return advance(flag(log(s, "party-proposed", step.seat, list(action.partners)), "party"), *joins)


def _on_join(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Join)
    if not action.accept:
        return advance(log(s, "party-declined", step.seat, step.n))
    p = s.seats[step.seat]._replace(leader=step.n, status="partner")
    return advance(log(s._replace(seats=with_seat(s, step.seat, p)), "party-joined", step.seat, step.n))


def _on_leave(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    p = s.seats[step.seat]
    if p.status == "partner":  # leaves, then obeys the cell (KMC 8, 9.3.1)
        s = s._replace(seats=with_seat(s, step.seat, p._replace(leader=NO_SEAT, status="normal")))
        return advance(log(s, "party-left", step.seat), Step("instruct", step.seat))
    partners = party_of(s, step.seat)[1:]
    if not partners:
        raise IllegalAction("you are in no party to leave", rule="locke.9.2.1")
    seats = list(s.seats)
    for i in partners:
        seats[i] = seats[i]._replace(leader=NO_SEAT, status="normal")
    return advance(flag(log(s._replace(seats=tuple(seats)), "party-dissolved", step.seat), "party"))


def _on_destroy(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 9.3.1: a character that is Good now destroys the key base it stands on (a claim)."""
    from engine.locke.declare import end_game

    p = s.seats[step.seat]
    here = cell_of(s, p.place)
    if s.phase != "base" or p.status != "normal" or here.face_up not in KEY_BASES:
        raise IllegalAction("stand on a face-up key base in the base phase to destroy it", rule="locke.9.3.1")
    claim = ck.make(step.seat, s.step_no, ck.GOOD_NOW, (p.character,), None, "locke.9.3.1")
    s = s._replace(cells=with_cell(s, p.place, Cell(face_up="destroyed")), **claimed(s, claim),
                   key_bases_destroyed=s.key_bases_destroyed + 1)
    s = flag(log(s, "key-base-destroyed", step.seat, here.face_up, p.place), "destroyed")
    if s.key_bases_destroyed >= len(KEY_BASES):
        present = tuple(i for i, q in enumerate(s.seats) if q.alive and q.place == p.place)
        return end_game(s._replace(last_combat=s.last_combat), "key-bases", step.seat, present)
    return advance(s)


def _on_enter_base(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, EnterBase)
    p = s.seats[step.seat]
    if s.phase != "base" or p.place != OFF_BOARD or not 0 <= action.level <= (0 if p.proofs else 6):
        raise IllegalAction("off the board in the base phase, declare an ESP level 0..6 to try to enter",
                            rule="locke.9.3.1")
    claim = fate.stat_claim(s, step.seat, "level", "le", action.level, "locke.9.3.1")
    return advance(s._replace(**claimed(s, claim)), Step("enter_roll", step.seat, n=action.level))


def _pending_enter_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.enter_base", (6, 6))


def _on_enter_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 9.3.1: 2d6 at or below declared level + information cards + earlier tries."""
    assert isinstance(action, DiceRolled)
    p = s.seats[step.seat]
    total = sum(action.faces)
    if total <= step.n + p.info + p.entry_tries:
        return advance(log(s, "entered", step.seat, total), Step("enter_place", step.seat))
    p = p._replace(entry_tries=p.entry_tries + 1)
    return advance(flag(log(s._replace(seats=with_seat(s, step.seat, p)), "entry-failed", step.seat, total), "move_failed"))


def _on_enter_place(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Walk)
    if action.to not in OUTER:
        raise IllegalAction("enter the base on an outer cell", rule="locke.9.3.1")
    return advance(flag(move_party(s, step.seat, action.to), "moved"))


def _auto_base_drop(g: Any, s: LockeState, step: Step) -> LockeState:
    return advance(s, Step("drop_roll", step.seat))


def _pending_drop_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.random_cell", (6, 6))


def _on_drop_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 7.3.1.3: a base player enters the base on a random cell (two dice: row, column)."""
    assert isinstance(action, DiceRolled)
    cell = board.random_base_cell(action.faces[0], action.faces[1]).key
    return advance(log(move_party(s, step.seat, cell), "base-player-entered", step.seat, cell))


# --- instruction phase (KMC 9.2.2, 9.3.2; seed 000 3) -----------------------------------


def _auto_instruct(g: Any, s: LockeState, step: Step) -> LockeState:
    seat = step.seat
    p = s.seats[seat]
    if not p.alive or p.place == OFF_BOARD or p.status != "normal":
        return advance(s)
    here = cell_of(s, p.place)
    if s.phase == "planet":
        if here.handle is not None:
            opens = tuple(
                Step("ambush_try", seat, arg=f"{placement[0]}|{p.place}") for placement in s.placements
                if placement[0].startswith("ambush:") and p.place in placement[2]
                and placement[3][placement[2].index(p.place)] not in dict(s.open_cards)
            )
            return advance(s, *opens, Step("draw_cell", seat, arg=p.place))
        return obey_planet(g, s, seat, here.face_up)
    if here.handle is not None and not p.base_player:  # KMC 9.3.2: only non-base players turn base cards
        return advance(s, Step("key_open", seat, n=step.n), Step("base_turn", seat, n=step.n))
    if here.handle is not None:
        return advance(s)
    return obey_base(g, s, seat, here.face_up, step.n)


def _placement(s: LockeState, zone: str) -> tuple[Any, ...]:
    for placement in s.placements:
        if placement[0] == zone:
            return tuple(placement)
    raise IllegalAction(f"no placement {zone!r}", rule="locke.7.1.9")


def _here(s: LockeState, seat: int, cell: str) -> bool:
    """Is ``seat`` still standing on ``cell`` able to obey it (not killed or moved meanwhile)?"""
    p = s.seats[seat]
    return p.alive and p.place == cell and p.status == "normal"


def _auto_ambush_try(g: Any, s: LockeState, step: Step) -> LockeState:
    zone, _, cell = step.arg.partition("|")
    if not _here(s, step.seat, cell):
        return advance(s)
    return advance(s, Step("ambush_open", step.seat, arg=step.arg))


def _pending_ambush_open(g: Any, s: LockeState, step: Step) -> Pending:
    zone, _, cell = step.arg.partition("|")
    _, placer, cells, handles = _placement(s, zone)[:4]
    return Placement("open", zone, placer, (cell,), handles=(handles[cells.index(cell)],))


def _on_ambush_open(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Seed 000 3.2.3: an ambush under this cell replaces its planet card; the placer may come out."""
    assert isinstance(action, CellsOpened)
    content = action.contents[0]
    s = s._replace(open_cards=s.open_cards + ((action.handles[0], content),))
    if content == EMPTY:
        return advance(s)
    zone, _, place = step.arg.partition("|")
    placer = _placement(s, zone)[1]
    here = cell_of(s, place)
    stock = zone_of(s, "planet:stock") + ((here.handle,) if here.handle is not None else ())
    s = s._replace(cells=with_cell(s, place, Cell(face_up=content)), zones=with_zone(s, "planet:stock", stock))
    s = log(s, "ambush", placer, place, content)
    if not s.seats[placer].alive:
        return advance(s._replace(cells=with_cell(s, place, Cell())))
    return advance(s, Step("appear", placer, n=step.seat, arg=place))


def _on_appear(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Appear)
    place = step.arg
    s = s._replace(cells=with_cell(s, place, Cell()))  # the opened ambush is removed
    if not action.appear:
        return advance(log(s, "ambush-stayed-hidden", step.seat))
    return advance(flag(s, "no_combat"), Step("hench_roll", step.seat, n=step.n, arg=place))


def _pending_hench_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.henchmen", (6,))


def _on_hench_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Seed 000 3.2.3: 3-4 brings one henchman, 5-6 two, for this combat only."""
    from engine.locke.combat import begin

    assert isinstance(action, DiceRolled)
    placer = step.seat
    henchmen = g.components.planet("ambush-a").effect.params["henchmen_by_face"][action.faces[0] - 1]
    p = s.seats[placer]._replace(place=step.arg, status="normal", leader=NO_SEAT)
    s = s._replace(seats=with_seat(s, placer, p))  # ruling N44: on the board from now on
    sides = ((placer,), party_of(s, lead(s, step.n)))
    return begin(advance(s), Combat("ambush", step.arg, sides, henchmen=int(henchmen)))


def _auto_draw_cell(g: Any, s: LockeState, step: Step) -> LockeState:
    if not _here(s, step.seat, step.arg):
        return advance(s)
    here = cell_of(s, step.arg)
    if here.handle is None:
        return obey_planet(g, s, step.seat, here.face_up) if here.face_up not in ("ambush-a", "ambush-b") else advance(s)
    return advance(s, Step("draw", step.seat, n=here.handle), Step("keep", step.seat, n=here.handle))


def _pending_draw(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("deal", f"cell:{s.seats[step.seat].place}", (step.n,), to_seat=step.seat)


def _on_drawn(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    return advance(s)


def _on_keep(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 9.2.2: an ability card is kept face down (a claim); anything else is shown."""
    assert isinstance(action, Keep)
    p = s.seats[step.seat]
    if action.keep:
        claim = ck.make(step.seat, s.step_no, ck.KEEPS_ABILITY, (step.n,), None, "locke.9.2.2")
        p = p._replace(kept=p.kept + (step.n,))
        s = s._replace(seats=with_seat(s, step.seat, p), cells=with_cell(s, p.place, Cell()),
                       **claimed(s, claim))
        return advance(log(s, "card-kept", step.seat, p.place))
    return advance(s, Step("show_card", step.seat, n=step.n))


def _pending_show_card(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", f"cell:{s.seats[step.seat].place}", (step.n,))


def _on_card_shown(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsRevealed)
    card = action.cards[0]
    planet = g.components.planet(card)
    if planet.kind == "ability":
        raise cheat(step.seat, f"showed the ability card {card} instead of keeping it", "locke.9.2.2")
    p = s.seats[step.seat]
    s = s._replace(open_cards=s.open_cards + ((step.n, card),))
    s = log(s, "card-shown", step.seat, p.place, card)
    kind = planet.effect.type
    if kind == "information":  # seed 000 3.2.2: kept face up by the drawer
        s = s._replace(cells=with_cell(s, p.place, Cell()), seats=with_seat(s, step.seat, p._replace(info=p.info + 1)))
        from engine.locke.planet_cards import evil_info_steps

        return advance(s, *evil_info_steps(s, step.seat), Step("info_trigger", step.seat))
    if planet.lifetime == "returned":  # seed 000 3.2.3: shown, obeyed, returned to the stock
        s = s._replace(cells=with_cell(s, p.place, Cell()),
                       zones=with_zone(s, "planet:stock", zone_of(s, "planet:stock") + (step.n,)))
    else:
        s = s._replace(cells=with_cell(s, p.place, Cell(face_up=card)))
    return obey_planet(g, s, step.seat, card)


def obey_planet(g: Any, s: LockeState, seat: int, card: str) -> LockeState:
    """Carry out a face-up planet card for ``seat`` (seed 000 3.2)."""
    if not card:
        return advance(s)
    kind = g.components.planet(card).effect.type
    p = s.seats[seat]
    if kind == "spaceport":
        return advance(s)
    if kind == "arrest":  # seed 000 3.2.1: in prison on this cell
        s = fate.arrest(s, seat)
        return advance(flag(log(s, "arrested", seat, p.place), "no_combat"))
    if kind == "chart" and g.components.planet(card).effect.params["chart"] == "random-combat":
        return advance(flag(s, "no_combat"), Step("rc_roll", seat, arg="card"))
    if kind == "chart" and g.components.planet(card).effect.params["chart"] == "trap":
        from engine.locke.traps import enter_trap  # seed 000 3.2.1, seed 002 trap chart

        return enter_trap(g, flag(s, "no_combat"), seat, p.place)
    if kind == "reveal-self":
        return advance(s, Step("expose", seat))
    if kind == "peek-identity":
        if any(i != seat for i in alive_seats(s)):
            return advance(s, Step("identify", seat))
        return advance(s)
    # information and ambush cards act before this (seed 000 3.2.2, 3.2.3); nothing else is an instruction
    raise ValueError(f"planet card {card!r}: no instruction of type {kind!r}")


def _on_identify(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Identify)
    if action.target == step.seat or not 0 <= action.target < s.n or not s.seats[action.target].alive:
        raise IllegalAction("name another living player", rule="locke.s000.3.2.3")
    return advance(s, Step("show_char", step.seat, n=action.target))


def _pending_show_char(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("show_to", "characters", (s.seats[step.n].character,), to_seat=step.seat)


def _on_char_shown(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsShownTo)
    target = s.seats[step.n]
    if step.seat not in target.seen_by:
        target = target._replace(seen_by=tuple(sorted(target.seen_by + (step.seat,))))
    return advance(log(s._replace(seats=with_seat(s, step.n, target)), "identified", step.seat, step.n))


def _pending_expose(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", "characters", (s.seats[step.seat].character,))


def _on_exposed(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Seed 000 3.2.3: the card is face up; from now on this seat cannot refuse declarations."""
    assert isinstance(action, CardsRevealed)
    p = s.seats[step.seat]._replace(exposed=True)
    s = s._replace(seats=with_seat(s, step.seat, p), open_cards=s.open_cards + ((action.handles[0], action.cards[0]),))
    return advance(log(s, "exposed", step.seat, action.cards[0]))


def _auto_info_trigger(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 7.2.2 / seed 000 3.2.2: three information cards with one player or one party."""
    if info_of_party(s, step.seat) >= 3:
        return advance(s._replace(queue=(s.queue[0],)), Step("phase_change", lead(s, step.seat), arg="information"))
    return advance(s)


# --- random combats (combat card, prison, barracks) ---------------------------------------


def _pending_rc_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.random-combat", (6, 6))


def _on_rc_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    outcome = charts.resolve("random-combat", action.faces)
    faces = ",".join(str(f) for f in action.faces)
    s = log(s, "random-combat", step.seat, outcome.entry)
    # rows 9-12 chain to the police weapon check: the combat rolls it as it starts (N153)
    count = sum(o.random_characters for o in outcome.opponents)
    steps: list[Step] = []
    if step.arg == "card" and s.phase == "planet" and any(o.id in ("police", "esper") for o in outcome.opponents):
        steps.append(Step("surrender", step.seat, arg=faces))  # ruling N11
    if count:
        steps.append(Step("reveal_unused", step.seat, n=count))
    steps.append(Step("rc_start", step.seat, arg=f"{step.arg}:{faces}"))
    return advance(s, *steps)


def _on_surrender(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Surrender)
    if not action.surrender:
        return advance(s)
    s = fate.arrest(s, step.seat)
    s = log(s, "surrendered", step.seat)
    queue = tuple(q for q in s.queue[1:] if q.kind not in ("reveal_unused", "rc_start"))
    return s._replace(queue=queue)


def _pending_reveal_unused(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", "chars:unused", zone_of(s, "chars:unused")[: step.n])


def _on_unused_revealed(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Random characters (T17) are shown, fight, and go back under the unused pile face up."""
    assert isinstance(action, CardsRevealed)
    unused = zone_of(s, "chars:unused")
    s = s._replace(zones=with_zone(s, "chars:unused", unused[step.n:] + unused[: step.n]),
                   open_cards=s.open_cards + tuple(zip(action.handles, action.cards)))
    return advance(s)


def _auto_rc_start(g: Any, s: LockeState, step: Step) -> LockeState:
    from engine.locke.combat import begin
    from engine.locke.combat import obstacles_from as obstacles_of

    cause, _, faces_text = step.arg.partition(":")
    faces = tuple(int(f) for f in faces_text.split(","))
    outcome = charts.resolve("random-combat", faces)
    unused = zone_of(s, "chars:unused")
    count = sum(o.random_characters for o in outcome.opponents)
    opened = dict(s.open_cards)
    randoms = tuple(opened[h] for h in unused[len(unused) - count:]) if count else ()
    obstacles = obstacles_of(g, outcome.opponents, randoms)
    here = s.seats[step.seat].place
    sides = (party_of(s, lead(s, step.seat)), ())
    return begin(advance(s), Combat("random-combat:" + cause, here, sides, obstacles=obstacles))


# --- prison (seed 000 3.2.1, seed 002 prison chart) ----------------------------------------


def _on_release(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Release)
    p = s.seats[step.seat]
    if not action.use:
        return advance(s, Step("prison_roll", step.seat))
    claim = ck.make(step.seat, s.step_no, ck.RELEASE, (p.character,), None, "locke.s000.3.2.1")
    s = s._replace(seats=with_seat(s, step.seat, p._replace(status="normal", prison_failures=0)),
                   **claimed(s, claim))
    return advance(log(s, "released", step.seat))


def _pending_prison_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.prison", (6, 6))


def freed(s: LockeState, seat: int, how: str) -> LockeState:
    p = s.seats[seat]._replace(status="normal", prison_failures=0)
    s = log(s._replace(seats=with_seat(s, seat, p)), "escaped", seat, how)
    if s.phase == "base" and p.base_player and p.place == OFF_BOARD:
        return advance(s, Step("base_drop", seat))  # KMC 7.3.1.3: enters at random that turn
    return advance(s)


def failed(s: LockeState, seat: int, how: str) -> LockeState:
    p = s.seats[seat]
    p = p._replace(prison_failures=p.prison_failures + 1)
    return log(s._replace(seats=with_seat(s, seat, p)), "prison-failed", seat, how)


def _on_prison_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    p = s.seats[step.seat]
    outcome = charts.resolve("prison", action.faces, charts.prison_modifier(p.prison_failures))
    s = log(s, "chart-entry", "prison", outcome.entry, step.seat, p.prison_failures)
    effects = {e.id: e for e in outcome.effects}
    if outcome.entry == "escape-into-trap":  # seed 002 prison 11: out, but into a trap
        from engine.locke.traps import trap_steps

        s = freed(s, step.seat, outcome.entry)
        return s._replace(queue=trap_steps(step.seat, p.place) + s.queue)
    if "escape" in effects:
        return freed(s, step.seat, outcome.entry)
    if "may-escape" in effects:
        level = int(dict(effects["may-escape"].params)["min_esp_level"])
        return advance(s, Step("escape", step.seat, n=level))
    if "prison-combat" in effects:
        return advance(s, Step("rc_roll", step.seat, arg="prison"))
    if "esp-proof" in effects:  # seed 002 prison 12+ (engine/locke/fate.py)
        s = fate.add_esp_proof(g, s, step.seat)
    return advance(failed(s, step.seat, outcome.entry))


def _on_escape(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Escape)
    if not action.escape:
        return advance(failed(s, step.seat, "stayed"))
    p = s.seats[step.seat]
    claim = fate.stat_claim(s, step.seat, "level", "le", step.n, "locke.s002.prison")
    return freed(s._replace(**claimed(s, claim)), step.seat, f"level-{step.n}")


# --- the phase change (KMC 7.2.2-7.3.1) ------------------------------------------------------


def _auto_phase_change(g: Any, s: LockeState, step: Step) -> LockeState:
    """Gather the planet cards, lay the base, hide the key bases, enter (KMC 7.2.3, 7.3.1)."""
    trigger = step.arg
    holder = step.seat if trigger == "information" else NO_SEAT
    keep_party = party_of(s, holder) if holder != NO_SEAT else ()
    seats = []
    for i, p in enumerate(s.seats):
        in_party = i in keep_party
        seats.append(p._replace(place=OFF_BOARD, leader=p.leader if in_party else NO_SEAT,
                                status="normal" if p.status == "partner" and not in_party else p.status))
    s = s._replace(seats=tuple(seats), cells=(), phase="base", combat=None, turn_flags=())
    s = log(s, "phase-change", trigger, holder)
    from engine.locke.planet_cards import phase_end_identity

    identity = phase_end_identity(s)  # seed 000 3.2.3: the Evil faces' hidden identity cards act now
    cards = tuple(cid for cid in g.components.deck("bases") if cid not in KEY_BASES)
    s = fresh_zone(s, "base:stock", cards)
    base = [i for i, p in enumerate(s.seats) if p.base_player]
    placer = base[0]  # ruling N42: the first base player places all four (alive or not)
    others = tuple(i for i in base if i != placer)
    steps: list[Step | LockeStep] = [*identity, Step("shuffle", -1, arg="base:stock"), Step("lay_base", -1),
                                     Step("key_place", placer)]
    if others:
        steps.append(Step("key_disclose", placer, arg=",".join(str(i) for i in others)))
    if holder != NO_SEAT:
        steps.append(Step("info_entry", holder))
    steps += [Step("base_drop", i) for i in base if s.seats[i].alive and s.seats[i].status == "normal"]
    if holder != NO_SEAT:
        steps.append(Step("instruct", holder))
    steps.append(Step("next_turn", -1))
    return s._replace(queue=tuple(steps))


def _auto_lay_base(g: Any, s: LockeState, step: Step) -> LockeState:
    stock = zone_of(s, "base:stock")
    cells = tuple((key, Cell(handle=h)) for key, h in zip(BASE_CELLS, stock))
    return advance(s._replace(cells=cells, zones=with_zone(s, "base:stock", stock[len(BASE_CELLS):])))


def _pending_key_place(g: Any, s: LockeState, step: Step) -> Pending:
    return Placement("place", KEY_ZONE, step.seat, BASE_CELLS, KEY_BASES)


def _pending_key_disclose(g: Any, s: LockeState, step: Step) -> Pending:
    zone, placer, cells, handles = _placement(s, KEY_ZONE)[:4]
    to = tuple(int(x) for x in step.arg.split(","))
    return Placement("disclose", zone, placer, cells, handles=handles, to_seats=to)


def _on_key_disclosed(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    return advance(s)


def _on_info_entry(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Walk)
    if action.to not in OUTER:
        raise IllegalAction("the finders of the base start on an outer cell", rule="locke.7.3.1")
    return advance(log(move_party(s, step.seat, action.to), "finders-entered", step.seat, action.to))


def _pending_key_open(g: Any, s: LockeState, step: Step) -> Pending:
    zone, placer, cells, handles = _placement(s, KEY_ZONE)[:4]
    place = s.seats[step.seat].place
    return Placement("open", zone, placer, (place,), handles=(handles[cells.index(place)],))


def _on_key_open(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CellsOpened)
    content = action.contents[0]
    s = s._replace(open_cards=s.open_cards + ((action.handles[0], content),))
    if content == EMPTY:
        return advance(s)
    place = s.seats[step.seat].place
    here = cell_of(s, place)
    stock = zone_of(s, "base:stock") + ((here.handle,) if here.handle is not None else ())
    s = s._replace(cells=with_cell(s, place, Cell(face_up=content)), zones=with_zone(s, "base:stock", stock))
    return advance(log(s, "key-base-found", step.seat, place, content))


def _auto_base_turn(g: Any, s: LockeState, step: Step) -> LockeState:
    place = s.seats[step.seat].place
    here = cell_of(s, place)
    if here.handle is not None:
        return advance(s, Step("base_reveal", step.seat, n=step.n))
    return obey_base(g, s, step.seat, here.face_up, step.n)


def _pending_base_reveal(g: Any, s: LockeState, step: Step) -> Pending:
    place = s.seats[step.seat].place
    handle = cell_of(s, place).handle
    assert handle is not None
    return HiddenOp("reveal", f"cell:{place}", (handle,))


def _on_base_revealed(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsRevealed)
    card = action.cards[0]
    if card in KEY_BASES:
        raise cheat(-1, f"base card {card} is a key base outside the key-base placement", "locke.7.3.1")
    place = s.seats[step.seat].place
    s = s._replace(cells=with_cell(s, place, Cell(face_up=card)),
                   open_cards=s.open_cards + ((action.handles[0], card),))
    return obey_base(g, log(s, "base-card", step.seat, place, card), step.seat, card, step.n)


def obey_base(g: Any, s: LockeState, seat: int, card: str, chain: int = 0) -> LockeState:
    """Carry out a face-up base card for ``seat`` (KMC 4): the flow's own cards here, every
    other kind in engine/locke/base_cards.py."""
    from engine.locke import base_cards

    if not card or card == "destroyed":
        return advance(s)
    s = log(s, "base-obeyed", card, seat)
    if card in QUIET_BASES:
        return advance(s)
    kind = g.components.base(card).effect.type
    if kind == "random-teleport" and chain < MAX_CHAIN:
        return advance(s, Step("rtele_roll", seat, n=chain + 1))
    if kind == "chart" and g.components.base(card).effect.params["chart"] == "random-combat":
        return advance(flag(s, "no_combat"), Step("rc_roll", seat, arg="barracks"))
    if kind in ("nova", "author-victory-attempt"):
        return advance(s)  # their checks come in the destruction phase
    return base_cards.obey(g, s, seat, card)


def _pending_rtele_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.random_cell", (6, 6))


def _on_rtele_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 4 random teleport: two dice pick the cell (row, column); then obey it."""
    assert isinstance(action, DiceRolled)
    cell = board.random_base_cell(action.faces[0], action.faces[1]).key
    s = log(move_party(s, lead(s, step.seat), cell), "random-teleport", step.seat, cell)
    return advance(s, Step("instruct", step.seat, n=step.n))


PENDING = {
    "move": seat_decision, "land": seat_decision, "follow": seat_decision, "join": seat_decision, "keep": seat_decision,
    "appear": seat_decision, "surrender": seat_decision, "identify": seat_decision, "release": seat_decision,
    "escape": seat_decision, "enter_place": seat_decision, "info_entry": seat_decision,
    "tele_roll": _pending_tele_roll, "enter_roll": _pending_enter_roll, "drop_roll": _pending_drop_roll,
    "hench_roll": _pending_hench_roll, "rc_roll": _pending_rc_roll, "prison_roll": _pending_prison_roll,
    "rtele_roll": _pending_rtele_roll,
    "ambush_open": _pending_ambush_open, "draw": _pending_draw, "show_card": _pending_show_card,
    "show_char": _pending_show_char, "expose": _pending_expose, "reveal_unused": _pending_reveal_unused,
    "key_place": _pending_key_place, "key_disclose": _pending_key_disclose, "key_open": _pending_key_open,
    "base_reveal": _pending_base_reveal,
}
HANDLERS = {
    ("move", Walk): _on_walk, ("move", Teleport): _on_teleport, ("move", Fly): _on_fly,
    ("move", Recover): _on_recover, ("move", Nop): _on_nop, ("move", Propose): _on_propose,
    ("move", Leave): _on_leave, ("move", Destroy): _on_destroy, ("move", EnterBase): _on_enter_base,
    ("land", Land): _on_land, ("follow", Follow): _on_follow, ("join", Join): _on_join,
    ("tele_roll", DiceRolled): _on_tele_roll, ("enter_roll", DiceRolled): _on_enter_roll,
    ("enter_place", Walk): _on_enter_place, ("drop_roll", DiceRolled): _on_drop_roll,
    ("ambush_open", CellsOpened): _on_ambush_open, ("appear", Appear): _on_appear,
    ("hench_roll", DiceRolled): _on_hench_roll, ("draw", CardsDealt): _on_drawn, ("keep", Keep): _on_keep,
    ("show_card", CardsRevealed): _on_card_shown, ("identify", Identify): _on_identify,
    ("show_char", CardsShownTo): _on_char_shown, ("expose", CardsRevealed): _on_exposed,
    ("rc_roll", DiceRolled): _on_rc_roll, ("surrender", Surrender): _on_surrender,
    ("reveal_unused", CardsRevealed): _on_unused_revealed,
    ("release", Release): _on_release, ("prison_roll", DiceRolled): _on_prison_roll, ("escape", Escape): _on_escape,
    ("key_place", PlacementMade): on_placement_made, ("key_disclose", PlacementDisclosed): _on_key_disclosed,
    ("info_entry", Walk): _on_info_entry, ("key_open", CellsOpened): _on_key_open,
    ("base_reveal", CardsRevealed): _on_base_revealed, ("rtele_roll", DiceRolled): _on_rtele_roll,
}
AUTO = {
    "next_turn": _auto_next_turn, "turn": _auto_turn, "end_turn": _auto_end_turn,
    "instruct": _auto_instruct, "draw_cell": _auto_draw_cell, "ambush_try": _auto_ambush_try, "info_trigger": _auto_info_trigger,
    "rc_start": _auto_rc_start, "phase_change": _auto_phase_change, "lay_base": _auto_lay_base,
    "base_turn": _auto_base_turn, "base_drop": _auto_base_drop,
}

#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = ()
