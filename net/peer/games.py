"""Which games a peer can host: CLI name -> how to fill in a genesis record.

The session registry (:mod:`net.session.registry`) builds a table *from* a
genesis record; a host must first *make* one. A :class:`GameSpec` says how:
rules id and version, the card-set hash, the seat range, what each seat
contributes in the lobby (Rider: its deck size, never the cards) and how the
contributions become the genesis options.

Test games register themselves with :func:`register`; a peer process loads
such a module with :func:`load_rules_module` (``tools.peer --rules-module``),
so nothing test-only lives on the production path.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """What a host needs to open a table for one game (see module docstring)."""

    name: str
    rules_id: str
    rules_version: str
    card_set_hash: Callable[[], bytes]
    min_seats: int
    max_seats: int
    needs_deck: bool
    #: A seat's lobby contribution (canonical data) from its deck list.
    seat_info: Callable[[Sequence[str] | None], dict[str, Any]]
    #: Genesis options from every seat's contribution, in seat order.
    options: Callable[[Sequence[Mapping[str, Any]]], dict[str, Any]]
    #: Problems with one seat's contribution (empty when it is fine).
    check_info: Callable[[Mapping[str, Any]], list[str]]


SPECS: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> None:
    SPECS[spec.name] = spec


def spec_named(name: str) -> GameSpec:
    spec = SPECS.get(name)
    if spec is None:
        raise ValueError(f"unknown game {name!r}; this Fairtable can host: {', '.join(sorted(SPECS))}")
    return spec


def spec_for_rules(rules_id: str) -> GameSpec | None:
    return next((s for s in SPECS.values() if s.rules_id == rules_id), None)


def load_rules_module(where: str) -> None:
    """Import a module that registers extra games (a dotted name or a .py file).

    Meant for tests and experiments: the module calls :func:`register` here
    and :func:`net.session.registry.register` for its setup.
    """
    if where.endswith(".py"):
        path = Path(where).resolve()
        if not path.is_file():
            raise ValueError(f"rules module {where} does not exist; pass a .py file or a module name")
        name = f"_fairtable_rules_{path.stem}"
        if name in sys.modules:
            return
        loader = importlib.util.spec_from_file_location(name, path)
        if loader is None or loader.loader is None:
            raise ValueError(f"cannot load {where} as a Python module")
        module = importlib.util.module_from_spec(loader)
        sys.modules[name] = module
        sys.path.insert(0, str(path.parent))  # let it import its neighbours
        loader.loader.exec_module(module)
        return
    try:
        importlib.import_module(where)
    except ImportError as exc:
        raise ValueError(f"cannot import rules module {where!r} ({exc})") from None


# --- Rider ------------------------------------------------------------------------------


def _rider_hash() -> bytes:
    from net.session.registry import rider_cardset

    digest: bytes = rider_cardset().digest()
    return digest


def _rider_info(deck: Sequence[str] | None) -> dict[str, Any]:
    if deck is None:
        raise ValueError("Rider needs a deck list for every seat")
    return {"deck_size": len(deck)}


def _rider_options(infos: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {"deck_sizes": [int(i["deck_size"]) for i in infos]}


def _rider_check(info: Mapping[str, Any]) -> list[str]:
    size = info.get("deck_size")
    if set(info) != {"deck_size"} or not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= 200:
        return ["a Rider seat brings {'deck_size': 1..200}"]
    return []


register(GameSpec("rider", "rider/1", "1", _rider_hash, 2, 2, True, _rider_info, _rider_options, _rider_check))
