"""Legal actions of the part-3 decisions (planet cards, trap and event charts).

As in engine/locke/legal.py: with the seat's ``knowledge`` every declaration
about its own hidden cards is offered only with its true value (bots never
make false claims); without it, every value the public record allows.
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.locke import planet_cards as pc
from engine.locke import fate, stats
from engine.locke.actions import Choose, Keep, Nop, Stat, UseCard
from engine.locke.components import Character
from engine.locke.state import LockeState, Step

Maker = Any


def _stat_value(g: Any, s: LockeState, seat: int, me: Character | None, stat: str) -> int | None:
    """The seat's current ``stat`` as it knows it (durability: what is left after the damage), else None."""
    if me is None:
        return None
    p = s.seats[seat]
    value = stats.current(me, p.mods, p.proofs, stat)
    return value - p.damage if stat == "durability" else value


def _hallu(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    p = s.seats[step.seat]
    known = stats.public(p.mods, p.proofs, "level")
    level = known if known is not None else _stat_value(g, s, step.seat, me, "level")
    if level is not None:
        return [Stat(step.seat, "level", level)]
    return [Stat(step.seat, "level", v) for v in range(0, fate.most(g, s, step.seat, "level") + 1)]


def _mirrors(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    mine = pc.known_cards(s, step.seat, k)
    out: list[Action] = [Nop(step.seat)]
    mirrors = [(h, c if c != "wildcard" else "") for h, c in mine
               if c == "?" or c.startswith("lafnor-mirror") or pc.can_be(s, h, c, "lafnor-mirror-5")]
    for a in range(len(mirrors)):
        for b in range(a + 1, len(mirrors)):
            (h1, c1), (h2, c2) = mirrors[a], mirrors[b]
            out.append(UseCard(step.seat, h1, c1 if c1 not in ("", "?") else "lafnor-mirror-5", other=h2,
                               choice=c2 if c2 not in ("", "?") else "lafnor-mirror-5"))
    return out


def _locke_reveal(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    out: list[Action] = [Choose(step.seat, "no")]
    if me is None or "locke" in me.counts_as:
        out.append(Choose(step.seat, "reveal"))
    return out


def _blast(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    p = s.seats[step.seat]
    level = stats.public(p.mods, p.proofs, "level")
    if level is None and me is not None:
        level = _stat_value(g, s, step.seat, me, "level")
    if level is None:
        return [Choose(step.seat, o) for o in ("blast", "level-0", "reveal")]
    if level == 0:
        return [Choose(step.seat, "level-0")]
    out: list[Action] = [Choose(step.seat, "blast")]
    if me is not None and "locke" in me.counts_as:
        out.append(Choose(step.seat, "reveal"))
    return out


def _race_keep(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    card = k.card(step.n) if k is not None else None
    if card is None:
        return [Keep(step.seat, True), Keep(step.seat, False)]
    return [Keep(step.seat, g.components.planet(card).kind == "ability")]


def _race_hurt(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    value = _stat_value(g, s, step.seat, me, "durability")
    if value is not None:
        return [Stat(step.seat, "durability", max(0, value))]
    return [Stat(step.seat, "durability", v) for v in range(0, fate.most(g, s, step.seat, "durability") + 1)]


def _sex(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    if me is None:
        return [Choose(step.seat, "female"), Choose(step.seat, "not-female")]
    return [Choose(step.seat, "female" if me.sex == "female" else "not-female")]


def _options(*options: str) -> Maker:
    def make(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
        out: list[Action] = [Choose(step.seat, o) for o in options]
        return out
    return make


def _whim(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    from engine.locke.state import zone_of

    out: list[Action] = [Choose(step.seat, "a")]
    return out + ([Choose(step.seat, "b")] if len(zone_of(s, "chars:unused")) >= 4 else [])


MAKERS: dict[str, Maker] = {
    "hallu_declare": _hallu,
    "mirrors": _mirrors, "locke_reveal": _locke_reveal, "blast_choice": _blast, "race_keep": _race_keep,
    "race_six": _options("damage", "retire"), "race_hurt": _race_hurt, "sex_declare": _sex,
    "whim_choice": _whim,
}
