"""Build a Locke position from plain data (for tools.scenario and rule tests).

A position names each seat's character, silhouette, shadow die, state and
kept planet cards, the cards on the board (face down or face up), the ambush
and key-base placements, the turn order and whose turn starts. It becomes a
public :class:`~engine.locke.state.LockeState` whose queue starts that turn,
each seat's :class:`Knowledge` (its own cards, its placements), and the
``truth`` (every handle's card) a trusted LocalTable needs. The format is in
docs/scenarios.md ("Locke scenarios").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import EMPTY
from engine.locke import board
from engine.locke.claims import DIE_CARDS
from engine.locke.game import LockeGame
from engine.locke.setup import PLANET_CELLS
from engine.locke.state import MAX_SEATS, MIN_SEATS, NO_SEAT, Cell, LockeState, Seat
from engine.locke.turn import BASE_CELLS, KEY_ZONE, TurnStart

RULE = "locke.position"


def _problem(message: str) -> IllegalAction:
    return IllegalAction(f"position: {message}", rule=RULE)


def position_state(g: LockeGame, data: Any) -> tuple[LockeState, tuple[Knowledge, ...], dict[int, str]]:
    """The state, knowledge and truth of a position; IllegalAction names what is wrong."""
    if not isinstance(data, Mapping):
        raise _problem("a position is an object with 'seats', 'phase' and more (docs/scenarios.md)")
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not MIN_SEATS <= len(raw_seats) <= MAX_SEATS:
        raise _problem("'seats' must list 5 to 10 seats")
    n = len(raw_seats)
    phase = data.get("phase", "planet")
    if phase not in ("planet", "base"):
        raise _problem("'phase' is 'planet' or 'base'")
    handle = 0
    truth: dict[int, str] = {}
    knowledge = [Knowledge(i) for i in range(n)]

    def new(card: str) -> int:
        nonlocal handle
        truth[handle] = card
        handle += 1
        return handle - 1

    seats: list[Seat] = []
    used_characters: list[str] = []
    for i, raw in enumerate(raw_seats):
        if not isinstance(raw, Mapping):
            raise _problem(f"seat {i} must be an object")
        character = str(raw.get("character", ""))
        try:
            g.components.character(character)
            silhouette = g.components.silhouette(str(raw.get("silhouette", ""))).id
            kept_cards = [g.components.planet(str(c)).id for c in raw.get("kept", [])]
        except Exception as exc:  # ComponentError: unknown id
            raise _problem(f"seat {i}: {exc}") from None
        die = int(raw.get("die", 2))
        if not 1 <= die <= 6:
            raise _problem(f"seat {i}: 'die' is the shadow roll, 1..6")
        used_characters.append(character)
        ch = new(character)
        dh = new(DIE_CARDS[die - 1])
        kept = tuple(new(c) for c in kept_cards)
        place = str(raw.get("place", ""))
        if place:
            board.cell_from_key(place)
        status = str(raw.get("status", "normal"))
        if status not in ("normal", "resting", "arrested", "partner"):
            raise _problem(f"seat {i}: unknown status {status!r}")
        seats.append(Seat(
            character=ch, die=dh, silhouette=silhouette, alive=bool(raw.get("alive", True)), status=status,
            place=place, leader=int(raw.get("leader", NO_SEAT)), damage=int(raw.get("damage", 0)),
            rest=int(raw.get("rest", 0)), prison_failures=int(raw.get("prison_failures", 0)), kept=kept,
            info=int(raw.get("info", 0)), seen_by=tuple(sorted(int(x) for x in raw.get("seen_by", []))),
            exposed=bool(raw.get("exposed", False)), entry_tries=int(raw.get("entry_tries", 0)),
            base_player=bool(raw.get("base_player", g.components.silhouette(silhouette).attribute == "evil")),
            kills=tuple(int(x) for x in raw.get("kills", [])),
            mods=tuple((str(m[0]), str(m[1]), int(m[2]), str(m[3])) for m in raw.get("mods", [])),
            proofs=int(raw.get("proofs", 0)), restraint=str(raw.get("restraint", "")), home=str(raw.get("home", "")),
            converted=bool(raw.get("converted", False)), controller=int(raw.get("controller", NO_SEAT)),
            gear=tuple(sorted((str(k), int(v)) for k, v in dict(raw.get("gear", {})).items())),
        ))
        knowledge[i] = knowledge[i].learn([(ch, character), (dh, DIE_CARDS[die - 1])] + list(zip(kept, kept_cards)))
    if len(set(used_characters)) != n:
        raise _problem("every seat needs a different character card")
    for i, raw in enumerate(raw_seats):
        for j in raw.get("knows", []):
            other = seats[int(j)]
            knowledge[i] = knowledge[i].learn([(other.character, truth[other.character])])

    all_cells = PLANET_CELLS if phase == "planet" else BASE_CELLS
    raw_cells = data.get("cells", {})
    if not isinstance(raw_cells, Mapping):
        raise _problem("'cells' maps cell keys to a card id (face down) or {'face_up': id}")
    fill = data.get("fill")  # a card laid face down on every cell not listed (None: those are empty)
    cells: list[tuple[str, Cell]] = []
    for key in all_cells:
        spec = raw_cells.get(key, fill)
        if spec is None:
            cells.append((key, Cell()))
        elif isinstance(spec, Mapping):
            cells.append((key, Cell(face_up=str(spec.get("face_up", "")))))
        else:
            cells.append((key, Cell(handle=new(str(spec)))))
    unknown = set(raw_cells) - set(all_cells)
    if unknown:
        raise _problem(f"cells {sorted(unknown)} are not {phase}-phase card cells")

    placements: list[tuple[str, int, tuple[str, ...], tuple[int, ...]]] = []
    for raw in data.get("placements", []):
        zone, placer, things = str(raw["zone"]), int(raw["seat"]), raw.get("cells", {})
        cells_of = PLANET_CELLS if zone.startswith("ambush:") else BASE_CELLS
        handles = tuple(new(str(things.get(c, EMPTY))) for c in cells_of)
        placements.append((zone, placer, cells_of, handles))
        for seat in [placer] + [int(x) for x in raw.get("disclosed_to", [])]:
            knowledge[seat] = knowledge[seat].learn((h, truth[h]) for h in handles)
    if phase == "base" and not any(p[0] == KEY_ZONE for p in placements):
        raise _problem("a base-phase position needs the 'keybases' placement")

    unused = tuple(new(c.id) for c in g.components.characters if c.id not in used_characters)
    order = tuple(int(x) for x in data.get("order", range(n)))
    if sorted(order) != list(range(n)):
        raise _problem("'order' lists every seat once")
    start = int(data.get("turn_of", order[0]))
    state = LockeState(
        n=n, queue=(TurnStart(start),), seats=tuple(seats), phase=phase,
        zones=(("chars:unused", unused),), cells=tuple(cells), placements=tuple(placements),
        next_handle=handle, order=order, current=start, turn=int(data.get("turn", 1)),
        key_bases_destroyed=int(data.get("key_bases_destroyed", 0)), taken=tuple(() for _ in range(n)),
        kill_log=tuple((i, p.character, v, seats[v].character, "") for i, p in enumerate(seats) for v in p.kills),
    )
    return g.settle(state), tuple(knowledge), truth
