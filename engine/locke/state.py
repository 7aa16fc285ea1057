"""The public state of a Locke game: immutable named tuples, no hidden card id.

Why named tuples: like Rider (engine/rider/state.py) the reducer copies the
state on every input, and ``_replace`` on a named tuple is cheap. They are
never encoded directly: :func:`public_data` builds the canonical map that the
state hash covers.

Hidden things appear only as integer *handles*: every seat's character card
and shadow-roll die, the face-down planet and base cards on the board, the
planet cards a seat keeps face down, and the stocks. A handle whose card
everybody knows (a deck before its first shuffle, a revealed card) is listed
in ``open_cards``; nothing else about a hidden card is public. Ambushes and
key bases are hidden *placements* (engine.core): the public state holds only
their commitments, never a cell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from engine.core.hashing import digest

if TYPE_CHECKING:
    from engine.locke.steps import LockeStep

#: Domains of the running digests that stand for the claim and event logs in the hash.
CLAIMS_DOMAIN = "fairtable/locke/claims/v1"
EVENTS_DOMAIN = "fairtable/locke/events/v1"

#: Seat states (KMC 8). "normal" covers the KMC 通常状態; "partner" rides on a
#: leader; "resting" is the unable-to-act state (行動不能, T16); "arrested" sits
#: in prison; the dead have ``alive`` False.
STATUSES = ("normal", "resting", "arrested", "partner")

OFF_BOARD = ""
NO_SEAT = -1

#: The rules id every Locke record and genesis names (written only here).
RULES_ID = "locke/1"
#: How many players a game of Locke takes (seed 000; docs/rules/locke.md).
MIN_SEATS, MAX_SEATS = 5, 10


class Seat(NamedTuple):
    """What the table sees of one player (KMC 8); all hidden cards are handles."""

    character: int = -1  # handle of the character card (KMC 7.1.5)
    die: int = -1  # handle of the shadow-roll die card (rulings N18, N41)
    silhouette: str = ""  # the public face (KMC 7.1.7-8)
    alive: bool = True
    status: str = "normal"
    place: str = OFF_BOARD  # a board cell id, or off the board
    leader: int = NO_SEAT  # the party leader this seat rides on (partner state)
    damage: int = 0  # durability lost so far (the ledger; true durability = card - damage)
    rest: int = 0  # turns left to rest (unable-to-act)
    prison_failures: int = 0  # failed prison checks (the prison chart modifier)
    kept: tuple[int, ...] = ()  # face-down planet cards held (handles)
    info: int = 0  # information cards held face up (seed 000 3.2.2)
    seen_by: tuple[int, ...] = ()  # seats that have seen this character card (KMC 11.1.2)
    exposed: bool = False  # character card face up (expose-self, or an override)
    entry_tries: int = 0  # failed base-entry checks (KMC 9.3.1)
    base_player: bool = False  # an Evil face at the end of set-up (KMC 7.1.9, ruling N43)
    tried: tuple[str, ...] = ()  # one-try-per-life things used: "nova", "king"
    kills: tuple[int, ...] = ()  # seats this seat killed (for victory conditions)
    # --- part 3, engine/locke/fate.py (deaths, checks, hits, restraints) and the cards and charts ---
    #: lasting stat changes (stat, "add" or "set", value, "game" or "life"), engine/locke/stats.py
    mods: tuple[tuple[str, str, int, str], ...] = ()
    proofs: int = 0  # ESP proofs in (seed 002 prison 12+)
    restraint: str = ""  # why a resting seat rests (fate.RESTRAINTS); "" = plain rest
    home: str = ""  # the cell to come back to (wheat harvest)
    converted: bool = False  # an E/G character converted to Good (KMC 2.2.1); reset on revival
    controller: int = -1  # the base player ordering this seat (ESP controller system, KMC 4)
    shown: tuple[int, ...] = ()  # kept planet cards turned face up by use and still held (items, a fixed wildcard)
    # --- abilities, engine/locke/abilities.py (KMC 2.2) ---
    converts: tuple[int, ...] = ()  # seats this seat tried to convert (KMC 2.2.1 flags)
    shifter: bool = False  # has shown it can shape-change (KMC 2.2.3)
    #: the character card's own items worn down in earlier combats, (kind, durability left; 0: broken)
    #: (KMC 2.3.2: they come back whole only by death and revival, or with a new character card)
    gear: tuple[tuple[str, int], ...] = ()


class Cell(NamedTuple):
    """One board cell's card: a face-down handle, or a face-up card id, or nothing."""

    handle: int | None = None
    face_up: str = ""


class Combat(NamedTuple):
    """The combat in progress (engine/locke/combat/; ``detail`` is its running Fight)."""

    cause: str  # "declared", "ambush", "random-combat", "prison", "barracks"
    cell: str
    sides: tuple[tuple[int, ...], tuple[int, ...]]  # seats on each side
    obstacles: tuple[Any, ...] = ()  # (id, level, firepower, durability) or engine.locke.combat.model.Obstacle
    declared: tuple[tuple[int, int, int], ...] = ()  # (seat, level, durability) declarations
    henchmen: int = 0  # ambush henchmen fighting with side 0
    detail: Any = None  # engine.locke.combat.model.Fight while the combat runs


class LockeState(NamedTuple):
    """Everything public about a Locke game; the state hash covers all of it."""

    n: int
    queue: tuple[LockeStep, ...]
    seats: tuple[Seat, ...]
    phase: str = "setup"  # setup, planet, base, reveal, over
    #: zone name -> handles (character groups, stocks, dice); see game.zone
    zones: tuple[tuple[str, tuple[int, ...]], ...] = ()
    cells: tuple[tuple[str, Cell], ...] = ()  # cell id -> card, in board order
    placements: tuple[Any, ...] = ()  # engine.core placement records (ambushes, key bases)
    open_cards: tuple[tuple[int, str], ...] = ()
    next_handle: int = 0
    order: tuple[int, ...] = ()  # turn order, starting seat first (KMC 7.1.10)
    current: int = NO_SEAT  # whose turn it is
    turn: int = 0  # turns taken so far
    step_no: int = 0  # inputs applied so far (claims cite it)
    claims: tuple[Any, ...] = ()  # engine.core.claims.Claim, in step order
    claims_chain: bytes = b""  # running digest of ``claims`` (what the hash covers)
    events: tuple[tuple[Any, ...], ...] = ()  # the public log (combats, effects pending part 3)
    events_chain: bytes = b""  # running digest of ``events`` (what the hash covers)
    combat: Combat | None = None
    last_combat: tuple[int, ...] = ()  # seats in the most recent combat
    key_bases_destroyed: int = 0
    declarer: int = NO_SEAT  # victory declaration in progress
    #: per-turn flags of the turn seat: moved ok, instruction caused combat/arrest
    turn_flags: tuple[str, ...] = ()
    ending: str = ""  # how the game ended (engine/locke/victory.py ids)
    ended_by: int = NO_SEAT  # the seat the ending names (declarer, Nova, King room)
    present: tuple[int, ...] = ()  # seats on the cell of the fourth key-base destruction
    result: Any = None  # the engine.core Outcome once judged
    #: the zone shuffled last and its fresh handles (drivers read them after the
    #: shuffle, even when an automatic step has dealt from the zone since)
    shuffled: tuple[str, tuple[int, ...]] = ("", ())
    picking: tuple[int, ...] = ()  # seats choosing a silhouette now (KMC 7.1.7)
    #: per seat: silhouette copies others had taken when it last picked (for its shadow claim)
    taken: tuple[tuple[tuple[str, int], ...], ...] = ()
    # --- part 3, planet cards (engine/locke/planet_cards.py) ---
    #: a revealed wildcard handle and the planet card id it stands for (seed 000 3.1.5); a kept
    #: card used face down as a jammer, field, suit or Nike and the kind it was used as (a wildcard
    #: among them is fixed to that kind; which card it is stays hidden, combat/kept.py FACE_DOWN)
    wild: tuple[tuple[int, str], ...] = ()
    #: kept handles that may no longer serve as a clone (wildcards held on a dead turn that passed)
    no_clone: tuple[int, ...] = ()
    #: trap cards whose event still holds someone: (cell, restraint kind, seat) (seed 000 3.2.1)
    ongoing: tuple[tuple[str, str, int], ...] = ()
    #: every kill by a seat's own attack, as it happened (KMC 11.8.2, rulings C8, N25):
    #: (killer seat, killer's character handle then, victim seat or NO_SEAT for a random
    #: character, victim's character handle then or NO_SEAT, the random character's card id or "").
    #: The handles are the cards of that moment, so a later transformation of either side
    #: neither hides nor moves the kill (engine/locke/ending.py reads it at the final reveal).
    kill_log: tuple[tuple[int, int, int, int, str], ...] = ()

    @property
    def over(self) -> bool:
        return self.result is not None


# --- small copy-on-write helpers ----------------------------------------------------


def with_seat(state: LockeState, index: int, seat: Seat) -> tuple[Seat, ...]:
    seats = list(state.seats)
    seats[index] = seat
    return tuple(seats)


def zone_of(state: LockeState, name: str) -> tuple[int, ...]:
    for key, handles in state.zones:
        if key == name:
            return handles
    return ()


def with_zone(state: LockeState, name: str, handles: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    zones = [z for z in state.zones if z[0] != name]
    zones.append((name, handles))
    zones.sort()
    return tuple(zones)


def cell_of(state: LockeState, cell: str) -> Cell:
    for key, value in state.cells:
        if key == cell:
            return value
    return Cell()


def with_cell(state: LockeState, cell: str, value: Cell) -> tuple[tuple[str, Cell], ...]:
    return tuple((key, value if key == cell else old) for key, old in state.cells)


def public_data(state: LockeState) -> dict[str, Any]:
    """Canonical data of the public state (what the state hash covers)."""
    return {
        "rules": RULES_ID,
        "n": state.n,
        "phase": state.phase,
        "queue": list(state.queue),  # a step encodes as a list (engine/locke/steps.py LockeStep.data)
        "seats": [list(s) for s in state.seats],
        "zones": [[name, list(h)] for name, h in state.zones],
        "cells": [[name, [c.handle, c.face_up]] for name, c in state.cells],
        "placements": list(state.placements),
        "open_cards": [list(o) for o in state.open_cards],
        "next_handle": state.next_handle,
        "order": list(state.order),
        "current": state.current,
        "turn": state.turn,
        "step_no": state.step_no,
        # The growing logs enter the hash as running digests (each new entry is chained onto
        # the previous digest), so hashing a state stays cheap late in a long game.
        "claims": [len(state.claims), state.claims_chain],
        "events": [len(state.events), state.events_chain],
        "combat": None if state.combat is None else [
            state.combat.cause, state.combat.cell, [list(s) for s in state.combat.sides],
            [list(o) for o in state.combat.obstacles], [list(d) for d in state.combat.declared],
            state.combat.henchmen, state.combat.detail,
        ],
        "last_combat": list(state.last_combat),
        "key_bases_destroyed": state.key_bases_destroyed,
        "declarer": state.declarer,
        "turn_flags": list(state.turn_flags),
        "ending": state.ending,
        "ended_by": state.ended_by,
        "present": list(state.present),
        "result": state.result,
        "shuffled": [state.shuffled[0], list(state.shuffled[1])],
        "picking": list(state.picking),
        "taken": [[list(p) for p in t] for t in state.taken],
        "wild": [list(w) for w in state.wild],
        "no_clone": list(state.no_clone),
        "ongoing": [list(o) for o in state.ongoing],
        "kill_log": [list(k) for k in state.kill_log],
    }


def advance(state: LockeState, *steps: LockeStep) -> LockeState:
    """Replace the head of the queue by ``steps`` (none: just pop it)."""
    return state._replace(queue=steps + state.queue[1:])


def log(state: LockeState, *entry: Any) -> LockeState:
    """Append one entry to the public event log (and chain it into the log digest)."""
    chain = digest(EVENTS_DOMAIN, (state.events_chain, entry))
    return state._replace(events=state.events + (entry,), events_chain=chain)


def claimed(state: LockeState, *claims: Any) -> dict[str, Any]:
    """The ``_replace`` fields that append ``claims`` to the claim log and its digest."""
    chain = state.claims_chain
    for claim in claims:
        chain = digest(CLAIMS_DOMAIN, (chain, claim))
    return {"claims": state.claims + claims, "claims_chain": chain}


def party_of(state: LockeState, leader: int) -> tuple[int, ...]:
    """The leader followed by its partners, in seat order."""
    return (leader,) + tuple(i for i, p in enumerate(state.seats) if p.leader == leader and p.alive)


def lead(state: LockeState, seat: int) -> int:
    """The leader of ``seat``'s party (itself when it leads or is alone)."""
    leader = state.seats[seat].leader
    return seat if leader == NO_SEAT else leader


def alive_seats(s: LockeState) -> tuple[int, ...]:
    return tuple(i for i, p in enumerate(s.seats) if p.alive)


def move_party(s: LockeState, leader: int, to: str) -> LockeState:
    seats = list(s.seats)
    for i in party_of(s, leader):
        seats[i] = seats[i]._replace(place=to)
    return s._replace(seats=tuple(seats))


def party_candidates(s: LockeState, seat: int) -> tuple[int, ...]:
    """Seats ``seat`` may invite (KMC 9.2.1): normal, alone, same cell, other faces."""
    me = s.seats[seat]
    faces = {s.seats[i].silhouette for i in party_of(s, seat)}
    return tuple(
        i for i, p in enumerate(s.seats)
        if i != seat and p.alive and p.status == "normal" and p.place == me.place and p.place != OFF_BOARD
        and p.leader == NO_SEAT and not any(q.leader == i for q in s.seats) and p.silhouette not in faces
    )
