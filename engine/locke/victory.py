"""Judging a finished Locke game (KMC 6.3-6.4, 11.1.3, 11.8).

When a game ends every character card is shown and each seat is judged: it
wins when it meets both its alignment's condition and its character card's
own condition (KMC 6.3.2), and gets a grade from winning and being alive
(KMC 6.4): A alive and won, B dead and won, C alive and lost, D dead and lost.

The reducer knows the state; this module knows the conditions. The reducer
hands over a small record of final facts (:class:`EndFacts`, one
:class:`SeatFacts` per seat, the :class:`Kill` records) and gets one
:class:`Verdict` per seat. :func:`refusal_override` answers, during a victory
declaration, whether the declarer may show its card to void refusals
(KMC 11.1.3).

Which facts the flow must supply, and why, is written next to each field;
docs/rules/locke.md (chapter 6 and 11) lists them too. Only the players'
characters count as alive or dead; random characters of random combats never
do (C8), except in S-Strohheim's kill record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

from engine.core.errors import IllegalAction, MalformedAction
from engine.locke.components import Character, ComponentError, ComponentSet

RULE_JUDGE = "locke.6.3"
RULE_OVERRIDE = "locke.11.1.3"

Ending = Literal["declaration", "last-alive", "all-dead", "key-bases", "nova", "king-room", "guard"]
ENDINGS: tuple[str, ...] = ("declaration", "last-alive", "all-dead", "key-bases", "nova", "king-room", "guard")
Alignment = Literal["good", "evil", "special"]
ALIGNMENTS: tuple[str, ...] = ("good", "evil", "special")
#: Key bases that must fall for Good's win (KMC 6.3.2, 9.3.1).
KEY_BASES = 4

#: Alignments a character of each attribute can have now: E/G is Evil unless
#: converted by a Locke (KMC 6.3.2).
_ALLOWED_ALIGNMENT = {
    "good": ("good",), "evil": ("evil",), "special": ("special",), "evil-good": ("evil", "good"),
}


@dataclasses.dataclass(frozen=True)
class SeatFacts:
    """What the judge needs to know about one seat at the end.

    - ``character``: the character card the seat holds now (after any
      transformation; an earlier card "never appeared", KMC 11.4).
    - ``alignment``: its side now, ``"good"``, ``"evil"`` or ``"special"``;
      an E/G card is ``"good"`` only while converted (KMC 6.3.2).
    - ``alive``: not dead. A character inside the black hole is alive (N2).
    - ``party``: an id shared by the members of one party at the end, or None
      (Jessica, KMC table 2.1).
    - ``esp_level``: its current usable ESP level (Lord Leon, C10).
    - ``seen_by``: seats that have seen this character card (Lord Leon's
      override, N22); ``face_up``: the card is face up for everyone (T3).
    - ``level_publicly_at_most_4``: public effects (disintegration, ESP
      proofs, ...) show its level is 4 or less without showing the card (N22).
    """

    seat: int
    character: str
    alignment: Alignment
    alive: bool
    esp_level: int
    party: int | None = None
    seen_by: tuple[int, ...] = ()
    face_up: bool = False
    level_publicly_at_most_4: bool = False


@dataclasses.dataclass(frozen=True)
class Kill:
    """One character killed by one seat's own attack (S-Strohheim, KMC 11.8.2).

    ``killer_character`` is the killer's card at the time; ``victim`` the
    victim's seat, or None for a random character of a random combat;
    ``victim_character`` the card it died as (the engine records the handle,
    N25, so a later transformation cannot hide it); ``killer_saw_card``: the
    killer has seen that card by now (needed for the override only).
    """

    killer: int
    killer_character: str
    victim: int | None
    victim_character: str
    killer_saw_card: bool = False


@dataclasses.dataclass(frozen=True)
class EndFacts:
    """The final facts of a game.

    - ``ending``: how it ended (KMC 6.4): ``declaration`` (accepted or made
      final by an override), ``last-alive``, ``all-dead``, ``key-bases``
      (the fourth fell), ``nova``, ``king-room``, or ``guard`` (our
      termination guard: judged as it stands, N23).
    - ``key_bases_destroyed``: 0..4 (Nova destroys all four).
    - ``declarer``: the declaring seat for ``declaration``, else None.
    - ``king_room_by``: the seat that destroyed the King editorial room for
      ``king-room``, else None.
    - ``last_combat``: seats that took part in the game's last combat;
      ``fourth_destruction_present``: seats on the cell when the fourth key
      base fell (Hijiri, N24).
    - ``kills``: every kill by a seat's own attack of a character that counts
      as a Locke (others may be left out).
    """

    ending: Ending
    seats: tuple[SeatFacts, ...]
    key_bases_destroyed: int = 0
    declarer: int | None = None
    king_room_by: int | None = None
    last_combat: tuple[int, ...] = ()
    fourth_destruction_present: tuple[int, ...] = ()
    kills: tuple[Kill, ...] = ()


@dataclasses.dataclass(frozen=True)
class Verdict:
    """One seat's judgement: ``code`` is stable (for logs and tests),
    ``reason`` says it in words."""

    seat: int
    won: bool
    grade: str
    alignment_met: bool
    personal_met: bool
    code: str
    reason: str

    def __canonical__(self) -> dict[str, object]:
        return dataclasses.asdict(self)


def grade(won: bool, alive: bool) -> str:
    """KMC 6.4: A alive and won, B dead and won, C alive and lost, D dead and lost."""
    return ("A" if alive else "B") if won else ("C" if alive else "D")


# ---------------------------------------------------------------- validation


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_seats(components: ComponentSet, seats: Sequence[SeatFacts]) -> tuple[SeatFacts, ...]:
    out = tuple(seats)
    if not out:
        raise MalformedAction("no seats to judge")
    n = len(out)
    for i, s in enumerate(out):
        if not isinstance(s, SeatFacts) or s.seat != i:
            raise MalformedAction(f"seat facts must be SeatFacts for seats 0..{n - 1} in order; entry {i} is {s!r}")
        card = components.character(s.character)
        if s.alignment not in _ALLOWED_ALIGNMENT[card.attribute]:
            raise IllegalAction(
                f"seat {i}: {card.name_en} ({card.attribute}) cannot be on the {s.alignment!r} side",
                rule="locke.6.3.2",
            )
        if not isinstance(s.alive, bool) or not isinstance(s.face_up, bool):
            raise MalformedAction(f"seat {i}: alive and face_up must be true or false")
        if not _is_int(s.esp_level) or s.esp_level < 0:
            raise MalformedAction(f"seat {i}: ESP level {s.esp_level!r} is not a level")
        if s.party is not None and not _is_int(s.party):
            raise MalformedAction(f"seat {i}: party {s.party!r} is not an id")
        _check_seat_list(f"seat {i} seen_by", s.seen_by, n)
    return out


def _check_seat_list(what: str, seats: tuple[int, ...], n: int) -> None:
    if not all(_is_int(x) and 0 <= x < n for x in seats):
        raise MalformedAction(f"{what}: {seats!r} must list seats 0..{n - 1}")


def _check_kills(components: ComponentSet, kills: Sequence[Kill], n: int) -> tuple[Kill, ...]:
    for k in kills:
        if not isinstance(k, Kill) or not _is_int(k.killer) or not 0 <= k.killer < n:
            raise MalformedAction(f"kill {k!r}: the killer must be a seat 0..{n - 1}")
        if k.victim is not None and not (_is_int(k.victim) and 0 <= k.victim < n and k.victim != k.killer):
            raise MalformedAction(f"kill {k!r}: the victim must be another seat or None (a random character)")
        components.character(k.killer_character)
        components.character(k.victim_character)
    return tuple(kills)


def _check_end(components: ComponentSet, facts: EndFacts) -> tuple[tuple[SeatFacts, ...], tuple[Kill, ...]]:
    seats = _check_seats(components, facts.seats)
    n = len(seats)
    if facts.ending not in ENDINGS:
        raise MalformedAction(f"unknown ending {facts.ending!r}; use one of {list(ENDINGS)}")
    if not _is_int(facts.key_bases_destroyed) or not 0 <= facts.key_bases_destroyed <= KEY_BASES:
        raise MalformedAction(f"key bases destroyed must be 0..{KEY_BASES}, got {facts.key_bases_destroyed!r}")
    if facts.ending in ("key-bases", "nova") and facts.key_bases_destroyed != KEY_BASES:
        raise IllegalAction(
            f"a {facts.ending} ending destroys all {KEY_BASES} key bases (KMC 9.3.1, ch. 4 Nova)", rule="locke.6.4"
        )
    if facts.ending == "nova" and any(s.alive for s in seats):
        raise IllegalAction("Nova kills every character (KMC ch. 4)", rule="locke.6.4")
    if (facts.declarer is not None) != (facts.ending == "declaration"):
        raise MalformedAction("name the declarer exactly when the game ended by a victory declaration")
    if facts.declarer is not None:
        _check_seat_list("declarer", (facts.declarer,), n)
    if (facts.king_room_by is not None) != (facts.ending == "king-room"):
        raise MalformedAction("name king_room_by exactly when the King editorial room ended the game")
    if facts.king_room_by is not None:
        _check_seat_list("king_room_by", (facts.king_room_by,), n)
        if not components.character(seats[facts.king_room_by].character).has_ability("authors-privilege"):
            raise IllegalAction("only the author character can destroy the King editorial room", rule="locke.2.2.3")
    _check_seat_list("last_combat", facts.last_combat, n)
    _check_seat_list("fourth_destruction_present", facts.fourth_destruction_present, n)
    return seats, _check_kills(components, facts.kills, n)


# ---------------------------------------------------------------- conditions


def _alignment_condition(seat: SeatFacts, seats: tuple[SeatFacts, ...], key_bases: int) -> tuple[bool, str]:
    """KMC 6.3.2 for the seat's side now."""
    living_good = any(s.alive and s.alignment == "good" for s in seats)
    living_evil = any(s.alive and s.alignment == "evil" for s in seats)
    if seat.alignment == "special":
        return True, "special:no-condition"
    if seat.alignment == "good":
        if key_bases >= KEY_BASES:
            return True, "good:key-bases"
        if not living_evil and living_good:
            return True, "good:no-evil-alive"
        return False, "good:evil-alive" if living_evil else "good:no-good-alive"
    if key_bases >= KEY_BASES:
        return False, "evil:key-bases-fell"
    if not living_good and living_evil:
        return True, "evil:no-good-alive"
    return False, "evil:good-alive" if living_good else "evil:no-evil-alive"


def _counts_as(components: ComponentSet, character_id: str, targets: tuple[str, ...]) -> bool:
    return bool(set(components.character(character_id).counts_as) & set(targets))


def _targets(card: Character) -> tuple[str, ...]:
    t = card.victory.params.get("targets", ())
    return tuple(x for x in t if isinstance(x, str)) if isinstance(t, tuple) else ()


def _number(card: Character, name: str) -> int:
    """A whole-number parameter of ``card``'s victory condition (assets/locke/characters.json)."""
    value = card.victory.params.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ComponentError([f"{card.id}: victory parameter {name!r} must be a whole number, not {value!r}"])
    return value


def _share(dead: int, total: int, card: Character) -> bool:
    num, den = _number(card, "numerator"), _number(card, "denominator")
    return total > 0 and dead * den >= num * total


def _personal_condition(components: ComponentSet, seat: SeatFacts, facts: EndFacts,
                        seats: tuple[SeatFacts, ...], kills: tuple[Kill, ...]) -> tuple[bool, str]:
    """The character card's own condition (KMC table 2.1, 11.8)."""
    card = components.character(seat.character)
    kind = card.victory.kind
    others = tuple(s for s in seats if s.seat != seat.seat)
    targets = _targets(card)
    is_target = [s for s in others if _counts_as(components, s.character, targets)]
    if kind == "none":
        return True, "personal:none"
    if kind == "lose-if-any-alive":
        alive = [s.seat for s in is_target if s.alive]
        return (not alive), f"personal:{'no-' if not alive else ''}target-alive"
    if kind == "lose-if-any-dead":
        dead = [s.seat for s in is_target if not s.alive]
        return (not dead), f"personal:{'no-' if not dead else ''}target-dead"
    if kind == "lose-if-all-present-dead":  # C9: only with at least one in play, all dead
        lost = bool(is_target) and not any(s.alive for s in is_target)
        return (not lost), "personal:all-targets-dead" if lost else "personal:a-target-lives-or-none-played"
    if kind == "no-other-alive-at-level":
        level = _number(card, "level")
        high = [s.seat for s in others if s.alive and s.esp_level >= level]
        return (not high), f"personal:{'no-' if not high else ''}other-at-level-{level}"
    if kind == "dead-share-of-others":
        ok = _share(sum(1 for s in others if not s.alive), len(others), card)
        return ok, f"personal:{'' if ok else 'not-'}half-of-others-dead"
    if kind == "dead-share-of-all":
        ok = _share(sum(1 for s in seats if not s.alive), len(seats), card)
        return ok, f"personal:{'' if ok else 'not-'}half-of-all-dead"
    if kind == "survive-in-party-with":
        sex, marital = card.victory.params["sex"], card.victory.params["marital"]
        partner = seat.alive and seat.party is not None and any(
            s.alive and s.party == seat.party
            and components.character(s.character).sex == sex
            and components.character(s.character).marital == marital
            for s in others
        )
        return partner, f"personal:{'' if partner else 'not-'}alive-in-party-with-{marital}-{sex}"
    if kind == "present-at-finale":
        here = seat.seat in facts.last_combat or seat.seat in facts.fourth_destruction_present
        return here, f"personal:{'' if here else 'not-'}present-at-finale"
    if kind == "kill-personally":
        ok = _personal_kill(components, seat.seat, seat.character, kills, need_seen=False)
        return ok, f"personal:{'' if ok else 'no-'}personal-kill"
    raise MalformedAction(f"unknown victory kind {kind!r} on {card.id!r}")


def _personal_kill(components: ComponentSet, seat: int, character_id: str, kills: tuple[Kill, ...],
                   *, need_seen: bool) -> bool:
    """S-Strohheim's condition (KMC 11.8.2, C8): the seat, as this character,
    killed a character counting as one of its targets; a random character
    counts only when the card's flags say so."""
    card = components.character(character_id)
    flags = card.victory.params.get("flags", ())
    random_ok = isinstance(flags, tuple) and "random-character-counts" in flags
    return any(
        k.killer == seat and k.killer_character == character_id
        and _counts_as(components, k.victim_character, _targets(card))
        and (k.victim is not None or random_ok)
        and (k.killer_saw_card or not need_seen)
        for k in kills
    )


def _locked_kill_win(components: ComponentSet, seat: SeatFacts, kills: tuple[Kill, ...]) -> str | None:
    """A kill-personally win made earlier under another card stays won (N25)."""
    for k in kills:
        if k.killer == seat.seat and k.killer_character != seat.character:
            if components.character(k.killer_character).victory.kind == "kill-personally" and _personal_kill(
                components, seat.seat, k.killer_character, kills, need_seen=False
            ):
                return k.killer_character
    return None


# ---------------------------------------------------------------- judging


def judge(components: ComponentSet, facts: EndFacts) -> tuple[Verdict, ...]:
    """One verdict per seat, in seat order (KMC 6.3.2, 6.4, 11.8).

    A seat wins when both its alignment's and its card's condition hold. The
    King editorial room overrides everything: its destroyer alone wins
    (KMC 6.4). A kill-personally win stays won even if the seat later became
    another character (KMC 11.8.2, N25).
    """
    seats, kills = _check_end(components, facts)
    out = []
    for s in seats:
        card = components.character(s.character)
        if facts.ending == "king-room":
            won = s.seat == facts.king_room_by
            code = "king-room:author-wins" if won else "king-room:everyone-else-loses"
            reason = ("destroyed the King editorial room and wins alone" if won
                      else "the author destroyed the King editorial room: everyone else loses")
            out.append(Verdict(s.seat, won, grade(won, s.alive), won, won, code, reason))
            continue
        locked = _locked_kill_win(components, s, kills)
        if locked is not None:
            code = f"personal:locked-win-as-{locked}"
            out.append(Verdict(s.seat, True, grade(True, s.alive), True, True, code,
                               f"won for good as {components.character(locked).name_en} by killing a Locke"))
            continue
        a_met, a_code = _alignment_condition(s, seats, facts.key_bases_destroyed)
        p_met, p_code = _personal_condition(components, s, facts, seats, kills)
        won = a_met and p_met
        reason = (f"{card.name_en} ({s.alignment}, {'alive' if s.alive else 'dead'}): "
                  f"side condition {'met' if a_met else 'not met'} ({a_code}), "
                  f"own condition {'met' if p_met else 'not met'} ({p_code})")
        out.append(Verdict(s.seat, won, grade(won, s.alive), a_met, p_met, f"{a_code}+{p_code}", reason))
    return tuple(out)


# ---------------------------------------------------------------- overrides (KMC 11.1.3)

Override = Literal["elmi", "dr-wong", "strohheim-s", "lord-leon"]


def refusal_override(components: ComponentSet, seats: Sequence[SeatFacts], kills: Sequence[Kill],
                     declarer: int) -> Override | None:
    """The KMC 11.1.3 override the declarer may use now by showing its card, or None.

    - Elmi: half or more of the other players are dead.
    - Dr. Wong: half or more of all players are dead.
    - S-Strohheim: killed a Locke himself and has seen its card (a random
      Locke counts, C8).
    - Lord Leon: no other living character is at level 5 or more, and that is
      plain: each other living card has been shown to him or is face up, or
      public effects hold its level at 4 or less (N22).

    ``seats`` and ``kills`` are the facts as they stand at the declaration. On
    a networked table the hidden parts are claims, judged at the audit.
    """
    checked = _check_seats(components, seats)
    ks = _check_kills(components, kills, len(checked))
    _check_seat_list("declarer", (declarer,), len(checked))
    me = checked[declarer]
    if not me.alive:
        raise IllegalAction("a dead player cannot declare victory", rule="locke.11.1.1")
    card = components.character(me.character)
    kind = card.victory.kind
    others = [s for s in checked if s.seat != declarer]
    if kind == "dead-share-of-others" and _share(sum(1 for s in others if not s.alive), len(others), card):
        return "elmi"
    if kind == "dead-share-of-all" and _share(sum(1 for s in checked if not s.alive), len(checked), card):
        return "dr-wong"
    if kind == "kill-personally" and _personal_kill(components, declarer, me.character, ks, need_seen=True):
        return "strohheim-s"
    if kind == "no-other-alive-at-level":
        level = _number(card, "level")
        living = [s for s in others if s.alive]
        if all(s.esp_level < level for s in living) and all(
            s.face_up or declarer in s.seen_by or s.level_publicly_at_most_4 for s in living
        ):
            return "lord-leon"
    return None
