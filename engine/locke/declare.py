"""Victory declarations, the combat and destruction phases' choices, every end of
the game, the final reveal and the judgement (KMC 6.3-6.4, 9.1, 11.1, 11.8).

A declaration (KMC 11.1.1) is asked of the turn seat at the start of every
turn it is awake. Going left from the declarer, each living player that has
not seen the declarer's card and is not face up (T3) accepts or refuses; the
first refusal stops the round. The declarer may then void it by showing its
card (KMC 11.1.3): the card is revealed and must be Elmi or Dr. Wong with
their public death counts, or S-Strohheim or Lord Leon, whose conditions
depend on other hidden cards and become claims judged at the final reveal.

Every ending (``ENDINGS``) goes through :func:`end_game`: every character card
and shadow die is revealed, then engine/locke/victory.py judges every seat
and the Outcome lists each seat's verdict and grade (A-D, KMC 6.4).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, cast

from engine.core.errors import IllegalAction
from engine.core.game import Outcome, SeatResult
from engine.core.pending import CardsRevealed, HiddenOp, Pending
from engine.locke.state import seat_decision
from engine.locke import claims as ck
from engine.locke import fate, stats, victory
from engine.locke.actions import Answer, Declare, Fight, KingRoom, Nop, Nova, Override
from engine.locke.setup import cheat
from engine.locke.combat import begin
from engine.locke.state import claimed, NO_SEAT, OFF_BOARD, Combat, LockeState, Step, advance, cell_of, lead, log, party_of, with_seat, zone_of
from engine.locke.steps import LockeStep, Rules, Then

#: How a game can end (KMC 6.4) plus our termination guard (ruling N47).
ENDINGS = ("declaration", "last-alive", "all-dead", "key-bases", "nova", "king-room", "guard")
REASONS = {
    "declaration": "a victory declaration was not refused (KMC 6.4, 11.1)",
    "last-alive": "only one player was alive at the end of its turn (KMC 6.4)",
    "all-dead": "every player was dead (KMC 6.4)",
    "key-bases": "all four key bases were destroyed (KMC 6.4, 9.3.1)",
    "nova": "the Nova went off (KMC 6.4)",
    "king-room": "Yuki Hijiri destroyed the King editorial room (KMC 6.4)",
    "guard": "the turn limit was reached: judged as it stands (termination guard, rulings N47 and N23)",
}
OVERRIDERS = ("elmi", "dr-wong", "strohheim-s", "lord-leon")


def awake(s: LockeState, seat: int) -> bool:
    """KMC 11.1.1: normal, partner or arrested, and alive."""
    p = s.seats[seat]
    return p.alive and p.status in ("normal", "partner", "arrested")


def answerers(s: LockeState, declarer: int) -> tuple[int, ...]:
    """KMC 11.1.2: left of the declarer in seat order, living, has not seen its card, not face up."""
    seen = s.seats[declarer].seen_by
    out = []
    for k in range(1, s.n):
        seat = (declarer + k) % s.n
        p = s.seats[seat]
        if p.alive and seat not in seen and not p.exposed and not fate.cannot_refuse(s, seat):
            out.append(seat)
    return tuple(out)


def _auto_declare(g: Any, s: LockeState, step: Step) -> LockeState:
    if not awake(s, step.seat):
        return advance(s)
    return advance(s, Step("declaring", step.seat))


def _on_declare(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Declare)
    if not action.declare:
        return advance(s)
    s = log(s._replace(declarer=step.seat), "declared", step.seat)
    asks = tuple(Step("answer", seat, n=step.seat) for seat in answerers(s, step.seat))
    return advance(s, *asks, Step("accepted", step.seat))


def _on_answer(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Answer)
    if action.accept:
        return advance(log(s, "accepted", step.seat, step.n))
    rest = s.queue[1:]
    while rest and rest[0].kind in ("answer", "accepted"):
        rest = rest[1:]
    s = log(s, "refused", step.seat, step.n)._replace(queue=(s.queue[0],) + rest)
    return advance(s, Step("override", step.n))


def _auto_accepted(g: Any, s: LockeState, step: Step) -> LockeState:
    return end_game(s, "declaration", step.seat)


def _on_override(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Override)
    if not action.use:
        return advance(log(s._replace(declarer=NO_SEAT), "declaration-refused", step.seat))
    return advance(s, Step("override_reveal", step.seat))


def _pending_override_reveal(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", "characters", (s.seats[step.seat].character,))


def dead_count(s: LockeState, excluding: int = NO_SEAT) -> int:
    return sum(1 for i, p in enumerate(s.seats) if not p.alive and i != excluding)


def _on_override_revealed(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 11.1.3: the shown card must carry an override that holds."""
    assert isinstance(action, CardsRevealed)
    card = action.cards[0]
    seat = step.seat
    p = s.seats[seat]._replace(exposed=True)
    s = s._replace(seats=with_seat(s, seat, p), open_cards=s.open_cards + ((action.handles[0], card),))
    s = log(s, "override-shown", seat, card)
    others = s.n - 1
    if card == "elmi" and 2 * dead_count(s, seat) >= others:
        return end_game(s, "declaration", seat)
    if card == "dr-wong" and 2 * dead_count(s) >= s.n:
        return end_game(s, "declaration", seat)
    if card == "lord-leon":
        living = tuple(q for i, q in enumerate(s.seats) if q.alive and i != seat)
        ledgers = [[[list(m) for m in stats.for_stat(q.mods, "level")], q.proofs] for q in living]
        claim = ck.make(seat, s.step_no, ck.LEON, (p.character,) + tuple(q.character for q in living), ledgers,
                        "locke.11.1.3")
        return end_game(s._replace(**claimed(s, claim)), "declaration", seat)
    if card == "strohheim-s" and p.kills:
        victims = tuple(s.seats[v].character for v in p.kills if seat in s.seats[v].seen_by)
        if victims:
            claim = ck.make(seat, s.step_no, ck.STROHHEIM, (p.character,) + victims, None, "locke.11.1.3")
            return end_game(s._replace(**claimed(s, claim)), "declaration", seat)
    raise cheat(seat, f"overrode a refusal with {card}, whose override does not apply now", "locke.11.1.3")


# --- combat phase (KMC 9.2.3) ------------------------------------------------------------


def combat_targets(s: LockeState, seat: int) -> tuple[int, ...]:
    """Attackable players on the turn seat's cell: alive, on the board, not in its party."""
    p = s.seats[seat]
    if not p.alive or p.place == OFF_BOARD or p.status != "normal":
        return ()
    mine = party_of(s, lead(s, seat))
    return tuple(i for i, q in enumerate(s.seats) if q.alive and q.place == p.place and i not in mine)


def _auto_combat_phase(g: Any, s: LockeState, step: Step) -> LockeState:
    flags = s.turn_flags
    if "no_combat" in flags or not ("moved" in flags or "nop" in flags):
        return advance(s)
    if s.seats[step.seat].leader != NO_SEAT:
        return advance(s)
    targets = combat_targets(s, step.seat)
    if not targets:
        return advance(s)
    forced = any(s.seats[i].silhouette == s.seats[step.seat].silhouette for i in targets)
    return advance(s, Step("fight", step.seat, n=int(forced)))


def fight_options(s: LockeState, step: Step) -> tuple[int, ...]:
    targets = combat_targets(s, step.seat)
    if step.n:  # forced combat: only those with the same silhouette (KMC 9.2.3)
        return tuple(i for i in targets if s.seats[i].silhouette == s.seats[step.seat].silhouette)
    return targets


def _on_fight(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Fight)
    options = fight_options(s, step)
    if action.target == NO_SEAT and not step.n:
        return advance(s)
    if action.target not in options:
        raise IllegalAction(f"declare a combat against one of {list(options)}"
                            + (" (someone with your silhouette is here: the combat is compulsory)" if step.n else
                               ", or none"), rule="locke.9.2.3")
    sides = (party_of(s, lead(s, step.seat)), party_of(s, lead(s, action.target)))
    here = s.seats[step.seat].place
    return begin(advance(s), Combat("declared", here, sides))


# --- destruction phase (KMC 9.3.4) ---------------------------------------------------------


def _auto_destroy_phase(g: Any, s: LockeState, step: Step) -> LockeState:
    p = s.seats[step.seat]
    if s.phase != "base" or not p.alive or p.status != "normal" or p.place == OFF_BOARD:
        return advance(s)
    card = cell_of(s, p.place).face_up
    if card == "nova" and "nova" not in p.tried:
        return advance(s, Step("nova", step.seat))
    if card == "king-editorial-room" and "king" not in p.tried:
        return advance(s, Step("king", step.seat))
    return advance(s)


def _on_nova(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Nova)
    p = s.seats[step.seat]
    if not 0 <= action.level <= (0 if p.proofs else 6):
        raise IllegalAction("declare an ESP level from 0 to yours for the Nova check (0 with an ESP proof in)",
                            rule="locke.4")
    claim = fate.stat_claim(s, step.seat, "level", "le", action.level, "locke.11.2")
    p = p._replace(tried=p.tried + ("nova",))
    s = s._replace(seats=with_seat(s, step.seat, p), **claimed(s, claim))
    s, roll = fate.declared_check(s, step.seat, stat=fate.CheckStat.LEVEL, value=action.level, then=AfterNova())
    return advance(s, roll)


def _on_skip(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    return advance(s)


@dataclasses.dataclass(frozen=True)
class AfterNova(Then):
    """KMC 4 Nova: an ESP level check; on success everyone dies and every key base falls (Good wins)."""

    KIND: ClassVar[str] = "declare.nova"

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if not success:
            return advance(log(s, "nova-failed", seat))
        seats = tuple(p._replace(alive=False, place=OFF_BOARD, leader=NO_SEAT, status="normal") for p in s.seats)
        s = log(s._replace(seats=seats, key_bases_destroyed=4), "nova", seat)
        return end_game(s, "nova", seat)


def _on_king(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, KingRoom)
    p = s.seats[step.seat]
    if not 2 <= action.mind <= fate.most(g, s, step.seat, "mind"):
        raise IllegalAction("declare a mind from 2 to yours for the King editorial room", rule="locke.11.3")
    claim = fate.stat_claim(s, step.seat, "mind", "le", action.mind, "locke.11.3")
    p = p._replace(tried=p.tried + ("king",))
    s = s._replace(seats=with_seat(s, step.seat, p), **claimed(s, claim))
    return advance(s, Step("king_reveal", step.seat, n=action.mind))


def _pending_king_reveal(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", "characters", (s.seats[step.seat].character,))


def _on_king_revealed(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsRevealed)
    card = action.cards[0]
    if card != "hijiri-yuki":
        raise cheat(step.seat, f"tried the King editorial room as {card}; only Yuki Hijiri may", "locke.4")
    p = s.seats[step.seat]._replace(exposed=True)
    s = s._replace(seats=with_seat(s, step.seat, p), open_cards=s.open_cards + ((action.handles[0], card),))
    s, roll = fate.declared_check(s, step.seat, stat=fate.CheckStat.MIND, value=step.n, then=AfterKingRoom())
    return advance(s, roll)


@dataclasses.dataclass(frozen=True)
class AfterKingRoom(Then):
    """KMC 4 King editorial room: Yuki Hijiri's mind check; a pass ends the game."""

    KIND: ClassVar[str] = "declare.king"

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if not success:
            return advance(log(s, "king-room-failed", seat))
        return end_game(log(s, "king-room", seat), "king-room", seat)


# --- the end (KMC 6.4) -----------------------------------------------------------------------


#: Zones of cards that were a seat's character and are no longer (true self, the shape-change card).
FORMER_CHARACTERS = ("chars:discarded", "chars:erased")


def end_game(s: LockeState, ending: str, by: int = NO_SEAT, present: tuple[int, ...] = ()) -> LockeState:
    """Stop play; reveal every character card and shadow die, then judge. Every card a claim
    was made about is opened too: former characters and the planet cards still kept face
    down, so that every claim of the game can be judged from the public record alone (the
    audit a networked table makes)."""
    assert ending in ENDINGS
    s = log(s, "game-over", ending, by)
    audit = tuple(Step("final_open", -1, arg=zone) for zone in FORMER_CHARACTERS if zone_of(s, zone))
    audit += tuple(Step("final_open", -1, arg=f"kept:{i}") for i, p in enumerate(s.seats) if p.kept)
    return s._replace(phase="reveal", ending=ending, ended_by=by, present=present, combat=None,
                      queue=(Step("final_reveal", -1), *audit, Step("final_dice", -1), Step("judge", -1)))


def _pending_final(g: Any, s: LockeState, step: Step) -> Pending:
    zone = {"final_reveal": "characters", "final_dice": "dice"}.get(step.kind, step.arg)
    handles = zone_of(s, zone) if zone in FORMER_CHARACTERS else g.zone(s, zone)
    return HiddenOp("reveal", zone, handles)


def _on_final(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsRevealed)
    known = dict(s.open_cards)
    new = tuple((h, c) for h, c in zip(action.handles, action.cards) if h not in known)
    return advance(s._replace(open_cards=s.open_cards + new))


def alignment_of(attribute: str) -> victory.Alignment:
    """KMC 6.3.2: E/G starts Evil; conversion (part 3) is the only way to Good."""
    if attribute == "good":
        return "good"
    return "special" if attribute == "special" else "evil"


def facts(g: Any, s: LockeState) -> victory.EndFacts:
    """The final facts victory.py judges, from the public record after the final reveal."""
    opened = dict(s.open_cards)
    characters = [opened[p.character] for p in s.seats]
    seats = []
    for i, p in enumerate(s.seats):
        character = g.components.character(characters[i])
        seats.append(victory.SeatFacts(
            seat=i, character=characters[i],
            alignment="good" if p.converted and character.attribute == "evil-good" else alignment_of(character.attribute),
            alive=p.alive,
            party=None if p.leader == NO_SEAT and not any(q.leader == i for q in s.seats) else lead(s, i),
            esp_level=stats.current(character, p.mods, p.proofs, "level"), seen_by=p.seen_by, face_up=p.exposed,
        ))
    kills = tuple(
        victory.Kill(killer=i, killer_character=characters[i], victim=v, victim_character=characters[v],
                     killer_saw_card=i in s.seats[v].seen_by)
        for i, p in enumerate(s.seats) for v in p.kills
    )
    return victory.EndFacts(
        ending=cast(victory.Ending, s.ending), seats=tuple(seats), key_bases_destroyed=s.key_bases_destroyed,
        declarer=s.ended_by if s.ending == "declaration" else None,
        king_room_by=s.ended_by if s.ending == "king-room" else None,
        last_combat=s.last_combat, fourth_destruction_present=s.present, kills=kills,
    )


def _auto_judge(g: Any, s: LockeState, step: Step) -> LockeState:
    verdicts = victory.judge(g.components, facts(g, s))
    results = [SeatResult.graded(v.seat, won=v.won, alive=s.seats[v.seat].alive, reason=v.reason) for v in verdicts]
    outcome = Outcome.judged(f"locke.end.{s.ending}: {REASONS[s.ending]}", results)
    return s._replace(queue=(), phase="over", result=outcome)


PENDING = {
    "declaring": seat_decision, "answer": seat_decision, "override": seat_decision, "fight": seat_decision,
    "nova": seat_decision, "king": seat_decision,
    "override_reveal": _pending_override_reveal, "king_reveal": _pending_king_reveal,
    "final_reveal": _pending_final, "final_dice": _pending_final, "final_open": _pending_final,
}
HANDLERS = {
    ("declaring", Declare): _on_declare, ("answer", Answer): _on_answer, ("override", Override): _on_override,
    ("override_reveal", CardsRevealed): _on_override_revealed, ("fight", Fight): _on_fight,
    ("nova", Nova): _on_nova, ("nova", Nop): _on_skip, ("king", KingRoom): _on_king, ("king", Nop): _on_skip,
    ("king_reveal", CardsRevealed): _on_king_revealed,
    ("final_reveal", CardsRevealed): _on_final, ("final_dice", CardsRevealed): _on_final,
    ("final_open", CardsRevealed): _on_final,
}
AUTO = {
    "declare": _auto_declare, "accepted": _auto_accepted, "combat_phase": _auto_combat_phase,
    "destroy_phase": _auto_destroy_phase, "judge": _auto_judge,
}

#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = ()
