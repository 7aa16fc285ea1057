"""Latecomers obey the cell's card (KMC 10.2.2, 10.3.1 (1); ruling N192).

A seat that actually-there (or actually-alive) brings onto the combat's cell
obeys the card there before the cards are dealt. The engine does so at once
for the planet cards whose instruction touches only the newcomer and starts
nothing (arrest, turning one's own card face up, looking at someone's card).
Every other instruction (a random combat or a trap card, and in the base
phase the opening of the cell's secret-base card and what it does) could
start a combat, and KMC 10.1 allows one combat at a time: the newcomer obeys
it as soon as this combat is over, as an escaper obeys its new cell (N147).
A face-down planet card is not drawn for a newcomer (KMC speaks only of the
secret-base card).
"""

from __future__ import annotations


from engine.locke.combat.common import fight_of, put
from engine.locke.state import LockeState, cell_of, log
from engine.locke.steps import LockeStep, Rules

#: Planet-card instructions a newcomer obeys before the deal (they start no combat).
AT_ONCE = ("arrest", "reveal-self", "peek-identity")


def obey(g: Rules, s: LockeState, seats: tuple[int, ...]) -> tuple[LockeState, tuple[LockeStep, ...]]:
    """The newcomers ``seats`` and the cell's card: steps to run now, the rest kept for the end."""
    assert s.combat is not None
    here = cell_of(s, s.combat.cell)
    now: list[LockeStep] = []
    later: list[int] = []
    for seat in seats:
        if s.phase == "planet":
            if not here.face_up:
                continue
            kind = g.components.planet(here.face_up).effect.type
            if kind not in AT_ONCE and kind != "chart":  # a spaceport (or an information card) asks nothing
                continue
            if kind in AT_ONCE:
                now.append(g.instruct(seat))
            else:
                later.append(seat)
            s = log(s, "cb-newcomer-obeys", seat, here.face_up, "now" if kind in AT_ONCE else "after")
        elif here.face_up or (here.handle is not None and not s.seats[seat].base_player):
            later.append(seat)
            s = log(s, "cb-newcomer-obeys", seat, here.face_up or "base-card", "after")
    if later:
        fight = fight_of(s)
        s = put(s, fight._replace(newcomers=fight.newcomers + tuple(later)))
    return s, tuple(now)


def after(g: Rules, s: LockeState, cell: str, newcomers: tuple[int, ...],
          escapers: tuple[int, ...]) -> tuple[LockeStep, ...]:
    """At the combat's end: the newcomers still on the cell (not escaped) obey it now."""
    return tuple(g.instruct(seat) for seat in newcomers
                 if seat not in escapers and s.seats[seat].alive and s.seats[seat].place == cell)

