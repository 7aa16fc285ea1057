"""An independent judge of finished Locke games: every seat's result and grade, from the rules alone.

Why: the end of a hidden-identity game is where a wrong rule hurts most, and the
engine's judgement (its own outcome code) had nothing to be checked against (issue 28).
This module recomputes each seat's win and grade from the final public record of a
game - the state after the final reveal, when every character card is open - and
shares no outcome code with the engine: it reads only plain state fields and the
character card data (assets/locke/characters.json through the component set).
``tools.verify`` runs it on every finished Locke record (net/verifier.py asks the
game entry's ``judge``), ``tools.match`` on every game it plays.

The rules it implements, each with its source (KMC = a section of the KMC rulebook, as
docs/rules/locke.md chapter 6 retells it; rulings = docs/rules/locke-rulings.md):

- a seat wins when it meets both its side's condition and its own card's condition;
  the silhouette plays no part (KMC 6.3.2);
- Good: all four key bases destroyed, or no living Evil; while a key base stands at
  least one Good must live (KMC 6.3.2); four key bases down (also by Nova) hold for
  Good even if every Good is dead, and fail Evil (KMC 6.4, ch. 4 Nova; ruling N23);
- Evil: no living Good and at least one living Evil (KMC 6.3.2);
- E/G: Evil, and Good only while converted by a Locke (KMC 6.3.2, 2.2.1);
- Special: its own condition only (KMC 6.3.2);
- own conditions (KMC table 2.1, 11.8): name groups mean every card of that name (C7),
  alive/dead counts players' characters at the end only (C8), Francis and Marian lose
  only with a Locke in play and every Locke dead (C9; Raiza is a Locke, C3), Lord Leon
  reads current ESP levels (C10), Elmi counts the other players and Dr. Wong everyone
  (C11), Hijiri must be in the last combat or on the cell of the fourth key-base
  destruction and Jessica alive in a party with a living single man (N24),
  S-Strohheim must have killed a Locke with his own attack (N25);
- the King editorial room: its destroyer alone wins, everyone else loses (KMC 6.4);
- every ending is judged the same way on the final facts; an accepted declaration wins
  nothing by itself and the termination guard judges the game as it stands (N23, N47);
- grades: A alive and won, B dead and won, C alive and lost, D dead and lost (KMC 6.4).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from engine.locke.components import Character, ComponentSet

#: KMC 6.3.2 / 9.3.1: the key bases Good must destroy.
KEY_BASES = 4


@dataclasses.dataclass(frozen=True)
class Judged:
    """One seat's result by this judge: ``won``, ``grade`` (KMC 6.4) and why."""

    seat: int
    won: bool
    grade: str
    reason: str


def grade(won: bool, alive: bool) -> str:
    """KMC 6.4: A alive and won, B dead and won, C alive and lost, D dead and lost."""
    if won:
        return "A" if alive else "B"
    return "C" if alive else "D"


def side(character: Character, converted: bool) -> str:
    """KMC 6.3.2: the seat's side now; an E/G card is Good only while converted."""
    if character.attribute == "evil-good":
        return "good" if converted else "evil"
    return character.attribute


def level_now(character: Character, mods: Sequence[Sequence[Any]], proofs: int) -> int:
    """The current ESP level (C10): the printed level with each public change in turn
    ("add", "set", "zero", "regain" up to the maximum), and 0 while an ESP proof is in
    (seed 002 prison 12+)."""
    value = top = character.level
    for mod in mods:
        if str(mod[0]) != "level":
            continue
        op, amount = str(mod[1]), int(mod[2])
        if op == "add":
            value += amount
            top += max(0, amount)
        elif op == "regain":
            value = min(value + amount, top)
        elif op == "set":
            value = amount
        else:
            value = 0
    return 0 if proofs > 0 else max(0, value)


@dataclasses.dataclass(frozen=True)
class _Seat:
    index: int
    card: Character
    side: str
    alive: bool
    party: int  # the party's leader, or -1 alone
    level: int
    #: kills by this seat's own attack: (its card then, the victim's card then, the victim was a
    #: random character), from the game's kill log (KMC 11.8.2, rulings C8, N25)
    kills: tuple[tuple[Character, Character, bool], ...]


def _seats(components: ComponentSet, state: Any) -> list[_Seat]:
    opened = dict(state.open_cards)
    out = []
    for i, p in enumerate(state.seats):
        if p.character not in opened:
            raise ValueError(f"seat {i}'s character card is not open: judge a game after its final reveal")
        card = components.character(str(opened[p.character]))
        followed = any(q.leader == i for q in state.seats)
        party = p.leader if p.leader >= 0 else (i if followed else -1)
        kills = tuple(
            (components.character(str(opened[kc])), components.character(str(rc or opened[vc])), bool(rc))
            for k, kc, _, vc, rc in state.kill_log if k == i and kc in opened and (rc or vc in opened))
        out.append(_Seat(i, card, side(card, bool(p.converted)), bool(p.alive), party,
                         level_now(card, p.mods, p.proofs), kills))
    return out


def _named(card: Character, names: Sequence[Any]) -> bool:
    """C7: a name in a condition means every card of that name (``counts_as``; Raiza is a Locke, C3)."""
    return any(isinstance(n, str) and n in card.counts_as for n in names)


def side_met(me: _Seat, seats: Sequence[_Seat], key_bases: int) -> tuple[bool, str]:
    """KMC 6.3.2 with N23 for the key bases."""
    good_alive = any(s.alive and s.side == "good" for s in seats)
    evil_alive = any(s.alive and s.side == "evil" for s in seats)
    if me.side == "special":
        return True, "special has no side condition"
    if me.side == "good":
        if key_bases >= KEY_BASES:
            return True, "all four key bases fell"
        if not evil_alive and good_alive:
            return True, "no Evil alive and a Good alive"
        return False, "an Evil lives" if evil_alive else "no Good alive while a key base stands"
    if key_bases >= KEY_BASES:
        return False, "all four key bases fell"
    if not good_alive and evil_alive:
        return True, "no Good alive and an Evil alive"
    return False, "a Good lives" if good_alive else "no Evil alive"


def own_met(me: _Seat, seats: Sequence[_Seat], state: Any) -> tuple[bool, str]:
    """The card's own condition (KMC table 2.1, 11.8; rulings C7-C11, N24, N25)."""
    rule = me.card.victory
    kind, params = rule.kind, rule.params
    names = params.get("targets", ())
    names = names if isinstance(names, tuple) else ()
    others = [s for s in seats if s.index != me.index]
    named = [s for s in others if _named(s.card, names)]
    if kind == "none":
        return True, "no own condition"
    if kind == "lose-if-any-alive":
        ok = not any(s.alive for s in named)
        return ok, "no named character alive" if ok else "a named character lives"
    if kind == "lose-if-any-dead":
        ok = not any(not s.alive for s in named)
        return ok, "no named character dead" if ok else "a named character died"
    if kind == "lose-if-all-present-dead":  # C9
        ok = not named or any(s.alive for s in named)
        return ok, "a Locke lives or none played" if ok else "every Locke in play is dead"
    if kind == "no-other-alive-at-level":  # C10
        level = params["level"]
        assert isinstance(level, int)
        ok = not any(s.alive and s.level >= level for s in others)
        return ok, f"no other living character at level {level}+" if ok else f"another lives at level {level}+"
    if kind in ("dead-share-of-others", "dead-share-of-all"):  # C11
        num, den = params["numerator"], params["denominator"]
        assert isinstance(num, int) and isinstance(den, int)
        pool = others if kind == "dead-share-of-others" else list(seats)
        dead = sum(1 for s in pool if not s.alive)
        ok = bool(pool) and dead * den >= num * len(pool)
        return ok, f"{dead} of {len(pool)} dead"
    if kind == "survive-in-party-with":  # N24
        ok = me.alive and me.party >= 0 and any(
            s.alive and s.party == me.party and s.card.sex == params["sex"] and s.card.marital == params["marital"]
            for s in others)
        return ok, "alive in a party with a living single man" if ok else "not alive in such a party"
    if kind == "present-at-finale":  # N24
        ok = me.index in tuple(state.last_combat) or me.index in tuple(state.present)
        return ok, "present at the finale" if ok else "absent from the finale"
    if kind == "kill-personally":  # N25, C8
        ok = _killed_target(me, me.card)
        return ok, "killed a Locke personally" if ok else "killed no Locke"
    raise ValueError(f"unknown own condition {kind!r} on {me.card.id}: the judge does not know this rule")


def _killed_target(me: _Seat, as_card: Character) -> bool:
    """KMC 11.8.2, C8: as ``as_card`` the seat killed one of that card's targets with its own
    attack (a random character counts only when the card says so)."""
    rule = as_card.victory
    names = rule.params.get("targets", ())
    names = names if isinstance(names, tuple) else ()
    flags = rule.params.get("flags", ())
    random_ok = isinstance(flags, tuple) and "random-character-counts" in flags
    return any(killer.id == as_card.id and _named(victim, names) and (random_ok or not rnd)
               for killer, victim, rnd in me.kills)


def _won_for_good(me: _Seat) -> bool:
    """KMC 11.8.2 (N25): a kill-personally win made under an earlier card stays won."""
    return any(killer.id != me.card.id and killer.victory.kind == "kill-personally" and _killed_target(me, killer)
               for killer, _, _ in me.kills)


def judge(components: ComponentSet, state: Any) -> list[Judged]:
    """Every seat's result on the final public state (after the final reveal), in seat order."""
    seats = _seats(components, state)
    out = []
    for me in seats:
        if state.ending == "king-room":  # KMC 6.4: the author's privilege
            won = me.index == state.ended_by
            out.append(Judged(me.index, won, grade(won, me.alive),
                              "destroyed the King editorial room" if won else "the author won alone"))
            continue
        if _won_for_good(me):
            out.append(Judged(me.index, True, grade(True, me.alive), "won for good by an earlier kill (KMC 11.8.2)"))
            continue
        s_ok, s_why = side_met(me, seats, int(state.key_bases_destroyed))
        o_ok, o_why = own_met(me, seats, state)
        won = s_ok and o_ok
        out.append(Judged(me.index, won, grade(won, me.alive),
                          f"{me.card.id} ({me.side}): side {'met' if s_ok else 'not met'} ({s_why}); "
                          f"own {'met' if o_ok else 'not met'} ({o_why})"))
    return out


def disagreements(game: Any, state: Any) -> list[str]:
    """Where the engine's outcome differs from this judge, one line per seat (empty: they agree).

    A game that has not ended has nothing to judge (empty)."""
    outcome = game.outcome(state)
    if outcome is None:
        return []
    mine = judge(game.components, state)
    theirs = {r.seat: r for r in outcome.seats}
    problems = []
    for j in mine:
        r = theirs.get(j.seat)
        if r is None:
            problems.append(f"seat {j.seat}: the engine gives no result; the judge says {j.grade} ({j.reason})")
        elif r.won != j.won or r.grade != j.grade:
            problems.append(f"seat {j.seat}: the engine says {'won' if r.won else 'lost'} {r.grade}, the judge "
                            f"says {'won' if j.won else 'lost'} {j.grade} ({j.reason})")
    return problems


def end_sides(game: Any, state: Any) -> list[str]:
    """Each seat's side at the end (after the final reveal), for tools.match's summary."""
    return [s.side for s in _seats(game.components, state)]
