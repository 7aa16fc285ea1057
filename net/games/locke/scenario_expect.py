"""What a Locke scenario's ``expect`` may check (docs/scenarios.md, "Locke scenarios").

Every check compares plain JSON values: tuples read as lists, bytes as hex, typed
values by their canonical data, so a file states what it expects the way the tool
prints it. A check that differs is one line saying what was expected and what came.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from typing import Any

from engine.core.actions import Action
from engine.core.pending import Decision, Placement
from engine.locke.combat.model import Fight, Fighter
from engine.locke.state import LockeState, zone_of
from net.local_table import LocalTable
from net.scenario import json_value
from net.seats import seat_label


def plain(value: Any) -> Any:
    """``value`` as JSON reads it back (lists for tuples, hex for bytes, canonical data for typed values)."""
    return json.loads(json.dumps(value, default=json_value))


def matches(data: Any, want: Mapping[str, Any]) -> bool:
    """Whether every key of ``want`` has its value in ``data`` (a partial object)."""
    return isinstance(data, Mapping) and all(k in data and plain(data[k]) == plain(v) for k, v in want.items())


def _input_data(chosen: Any) -> dict[str, Any]:
    """An offered input as data: an action's canonical data, a sealed or placement pick's fields."""
    if isinstance(chosen, Action):
        return dict(plain(chosen.to_data()))
    return {"kind": type(chosen).__name__, **plain(dataclasses.asdict(chosen))}


# --- one function per key -----------------------------------------------------------


def _pending_seat(want: Any, table: LocalTable) -> list[str]:
    pending = table.pending
    got = pending.seat if isinstance(pending, (Decision, Placement)) else None
    return [] if got == want else [f"expected the prompt to ask seat {want!r}, it asks {got!r} ({pending!r})"]


def _legal(want: Any, table: LocalTable) -> list[str]:
    """Per seat: ``has`` (partial inputs that must be offered), ``lacks`` (partial inputs
    none of which may be), ``exactly`` (partial inputs: of their kinds, these and no others are
    offered), ``kinds`` (exactly the kinds offered), ``count`` (how many inputs are offered)."""
    problems: list[str] = []
    for key, spec in dict(want).items():
        seat = int(key)
        offered = [_input_data(c) for c in table.legal(seat)]
        who = seat_label(seat)
        for item in spec.get("has", []):
            if not any(matches(o, item) for o in offered):
                problems.append(f"expected {who} to be offered {item}; offered {offered}")
        for item in spec.get("lacks", []):
            hit = [o for o in offered if matches(o, item)]
            if hit:
                problems.append(f"expected {who} not to be offered {item}; offered {hit}")
        exact = spec.get("exactly")
        if exact is not None:
            kinds = {item["kind"] for item in exact}
            keys = sorted({k for item in exact for k in item})
            want_set = sorted(json.dumps({k: item.get(k) for k in keys}, sort_keys=True) for item in exact)
            got_set = sorted(json.dumps({k: o.get(k) for k in keys}, sort_keys=True) for o in offered
                             if o["kind"] in kinds)
            if want_set != got_set:
                problems.append(f"expected {who} to be offered exactly {exact} of those kinds; offered "
                                f"{[json.loads(g) for g in got_set]}")
        if "kinds" in spec and sorted({o["kind"] for o in offered}) != sorted(spec["kinds"]):
            problems.append(f"expected {who} to be offered the kinds {sorted(spec['kinds'])}, "
                            f"got {sorted({o['kind'] for o in offered})}")
        if "count" in spec and len(offered) != spec["count"]:
            problems.append(f"expected {who} to be offered {spec['count']} inputs, got {len(offered)}")
    return problems


def _view(want: Any, table: LocalTable) -> list[str]:
    """Per seat, fields of the seat's own view (engine/locke/game.py ``view``), compared whole."""
    problems: list[str] = []
    for key, fields in dict(want).items():
        seat = int(key)
        view = table.game.view(table.state, seat, table.knowledge[seat])
        for name, value in fields.items():
            if name not in view:
                problems.append(f"a seat's view has no field {name!r}; it has {sorted(view)}")
            elif plain(view[name]) != plain(value):
                problems.append(f"expected {seat_label(seat)}'s view {name} {value!r}, got {plain(view[name])!r}")
    return problems


def _knows(want: Any, table: LocalTable) -> list[str]:
    """Per seat: other seats -> the character card it knows them by, from its own knowledge or
    a card face up on the table (null: it does not know it)."""
    problems: list[str] = []
    s: LockeState = table.state
    face_up = dict(s.open_cards)
    for key, others in dict(want).items():
        seat = int(key)
        for other_key, card in others.items():
            handle = s.seats[int(other_key)].character
            got = table.knowledge[seat].card(handle) or face_up.get(handle)
            if got != card:
                problems.append(f"expected {seat_label(seat)} to know {seat_label(int(other_key))} as {card!r}, "
                                f"it knows {got!r}")
    return problems


def _fighter_name(fight: Fight, f: Fighter, index: int) -> int | str:
    """A seat fighter by its seat number, an obstacle as ``obstacle:k`` (k-th obstacle, from 0)."""
    if f.seat >= 0:
        return f.seat
    return f"obstacle:{sum(1 for g in fight.fighters[:index] if g.seat < 0)}"


def _combat(want: Any, table: LocalTable) -> list[str]:
    """``null`` for no combat, or the combat's ``cause``, ``cell``, ``round``, ``order`` (seats and
    ``obstacle:k`` in initiative order), ``ended``, ``escapers``, ``dead`` and ``fighters``
    (per seat or ``obstacle:k``: Fighter fields; ``hand`` as a count or the card ids, sorted)."""
    combat = table.state.combat
    if want is None:
        return [] if combat is None else [f"expected no combat, one goes on at {combat.cell}"]
    if combat is None:
        return ["expected a combat, none goes on"]
    problems: list[str] = []
    fight = combat.detail if isinstance(combat.detail, Fight) else Fight()
    keys = {i: _fighter_name(fight, f, i) for i, f in enumerate(fight.fighters)}
    got: dict[str, Any] = {"cause": combat.cause, "cell": combat.cell, "round": fight.round,
                           "order": [keys[i] for i in fight.order], "ended": fight.ended,
                           "escapers": list(fight.escapers), "dead": list(fight.dead)}
    for name, value in want.items():
        if name == "fighters":
            continue
        if name not in got:
            problems.append(f"combat has no field {name!r}; it has {sorted(got)} and 'fighters'")
        elif plain(got[name]) != plain(value):
            problems.append(f"expected the combat's {name} {value!r}, got {got[name]!r}")
    by_key = {str(keys[i]): f for i, f in enumerate(fight.fighters)}
    for key, fields in dict(want.get("fighters", {})).items():
        f = by_key.get(str(key))
        if f is None:
            problems.append(f"expected fighter {key} in the combat; the fighters are {sorted(by_key)}")
            continue
        for name, value in fields.items():
            if name == "hand" and isinstance(value, list):
                have: Any = sorted(table.card(h) for h in f.hand)
                value = sorted(value)
            elif name == "hand":
                have = len(f.hand)
            elif name in Fighter._fields:
                have = plain(getattr(f, name))
            else:
                problems.append(f"a fighter has no field {name!r}; see engine/locke/combat/model.py Fighter")
                continue
            if have != plain(value):
                problems.append(f"expected fighter {key}'s {name} {value!r}, got {have!r}")
    return problems


def _state(want: Any, table: LocalTable) -> list[str]:
    """Fields of the public state (engine/locke/state.py LockeState), compared whole."""
    problems: list[str] = []
    for name, value in dict(want).items():
        if name not in LockeState._fields:
            problems.append(f"the state has no field {name!r}; see engine/locke/state.py LockeState")
        elif plain(getattr(table.state, name)) != plain(value):
            problems.append(f"expected the state's {name} {value!r}, got {plain(getattr(table.state, name))!r}")
    return problems


#: A field of a log pattern that matches any value.
ANY = "*"


def _zones(want: Any, table: LocalTable) -> list[str]:
    """Zone name -> how many cards it holds, or the card ids in it (in order)."""
    problems: list[str] = []
    for name, value in dict(want).items():
        state = table.state
        # what the zone holds now: game.zone answers a driver right after a shuffle (the fresh handles,
        # even once cards were dealt from them), so a zone the state keeps is read from the state
        handles = zone_of(state, str(name)) if any(z == name for z, _ in state.zones) else \
            table.game.zone(state, str(name))
        got: Any = [table.card(h) for h in handles] if isinstance(value, list) else len(handles)
        if got != value:
            problems.append(f"expected zone {name} to hold {value!r}, it holds {got!r}")
    return problems


def _prefix(event: list[Any], pattern: list[Any]) -> bool:
    return len(event) >= len(pattern) and all(p == ANY or p == e for e, p in zip(event, pattern))


def _log(want: Any, table: LocalTable) -> list[str]:
    """``has``: events (or their first fields; ``"*"`` matches any field) that must be in the
    public log, in this order; ``lacks``: events none of which may be."""
    events = [plain(list(e)) for e in table.state.events]
    problems: list[str] = []
    at = 0
    for pattern in want.get("has", []):
        found = next((i for i in range(at, len(events)) if _prefix(events[i], plain(pattern))), None)
        if found is None:
            problems.append(f"expected the log to show {pattern} (after the events matched before it)")
        else:
            at = found + 1
    for pattern in want.get("lacks", []):
        hit = [e for e in events if _prefix(e, plain(pattern))]
        if hit:
            problems.append(f"expected the log not to show {pattern}; it shows {hit[0]}")
    return problems


def _outcome(want: Any, table: LocalTable) -> list[str]:
    """The outcome's canonical data, compared key by key (``null``: the game goes on)."""
    outcome = table.outcome()
    if want is None:
        return [] if outcome is None else [f"expected the game to go on, it ended: {outcome.__canonical__()}"]
    if outcome is None:
        return ["expected the game to have ended, it goes on"]
    got = plain(outcome.__canonical__())
    return [f"expected the outcome's {k} {v!r}, got {got.get(k)!r}" for k, v in dict(want).items()
            if plain(v) != got.get(k)]


CHECKS: dict[str, Callable[[Any, LocalTable], list[str]]] = {
    "pending_seat": _pending_seat, "legal": _legal, "view": _view, "knows": _knows, "combat": _combat,
    "state": _state, "zones": _zones, "log": _log, "outcome": _outcome,
}
