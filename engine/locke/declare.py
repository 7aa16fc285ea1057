"""Victory declarations, the combat and destruction phases' choices, every end of
the game, the final reveal and the judgement (KMC 6.3-6.4, 9.1, 11.1, 11.8).

A declaration (KMC 11.1.1) is asked of the turn seat at the start of every
turn it is awake. Going left from the declarer, each living player that has
not seen the declarer's card and is not face up (T3) accepts or refuses; the
first refusal stops the round. The declarer may then void it by showing its
card (KMC 11.1.3): the card is revealed and must be Elmi or Dr. Wong with
their public death counts, or S-Strohheim or Lord Leon, whose conditions
depend on other hidden cards and become claims judged at the final reveal.

Every ending goes through engine/locke/ending.py ``end_game`` (the final reveal and
the judgement live there, below everything that can end a game).

Each step is a typed class next to its code (engine/locke/steps.py): the turn's
declaration, combat and destruction phases (:class:`DeclarationPhase`,
:class:`CombatPhase`, :class:`DestructionPhase`, queued by engine/locke/turn.py), the
decisions they ask, each listing its honest legal actions.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import CardsRevealed, Pending
from engine.locke import claims as ck
from engine.locke import fate, stats
from engine.locke.actions import Answer, Declare, Fight, KingRoom, Nop, Nova, Override
from engine.locke.combat.flow import begin
from engine.locke.components import Character
from engine.locke.ending import end_game
from engine.locke.setup import cheat, own_character
from engine.locke.state import (
    NO_SEAT,
    OFF_BOARD,
    Combat,
    LockeState,
    advance,
    cell_of,
    claimed,
    lead,
    log,
    party_of,
    with_seat,
)
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, Then, Waiting, answers

OVERRIDERS = ("elmi", "dr-wong", "strohheim-s", "lord-leon")


def stat_now(s: LockeState, seat: int, me: Character, stat: str) -> int:
    """The seat's current ``stat`` (printed card plus the public ledger, ruling N100): what its
    declarations are judged on, so the honest actions read it too."""
    p = s.seats[seat]
    return stats.current(me, p.mods, p.proofs, stat)


def esp_levels(s: LockeState, seat: int, me: Character | None, low: int) -> range:
    """ESP levels a teleport, a base entry or the Nova may declare: up to the current level, at most 6."""
    return range(low, min(6, stat_now(s, seat, me, "level") if me else 6) + 1)


def awake(s: LockeState, seat: int) -> bool:
    """KMC 11.1.1: normal, partner or arrested, and alive."""
    p = s.seats[seat]
    return p.alive and p.status in ("normal", "partner", "arrested")


def answerers(s: LockeState, declarer: int) -> tuple[int, ...]:
    """KMC 11.1.2: going left from the declarer, every living player whose own character card the
    declarer has not seen may refuse (a card face up for everyone has been seen, T3; a
    deadline-restrained character cannot, N8)."""
    out = []
    for k in range(1, s.n):
        seat = (declarer + k) % s.n
        p = s.seats[seat]
        if p.alive and declarer not in p.seen_by and not p.exposed and not fate.cannot_refuse(s, seat):
            out.append(seat)
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class DeclarationPhase(Automatic):
    """KMC 9.1, 11.1.1: a turn starts by asking the turn seat, when it is awake, whether it
    declares victory."""

    KIND: ClassVar[str] = "declare"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not awake(s, self.seat):
            return advance(s)
        return advance(s, VictoryDeclaration(self.seat))


@dataclasses.dataclass(frozen=True)
class VictoryDeclaration(SeatDecision):
    """KMC 11.1.1: the turn seat declares victory or not; each answerer is then asked in turn."""

    KIND: ClassVar[str] = "declaring"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Declare(self.seat, False), Declare(self.seat, True)]

    @answers(Declare)
    def declared(self, g: Rules, s: LockeState, action: Declare) -> LockeState:
        if not action.declare:
            return advance(s)
        s = log(s._replace(declarer=self.seat), "declared", self.seat)
        asks = tuple(DeclarationAnswer(seat, self.seat) for seat in answerers(s, self.seat))
        return advance(s, *asks, DeclarationAccepted(self.seat))


@dataclasses.dataclass(frozen=True)
class DeclarationAnswer(SeatDecision):
    """KMC 11.1.2: ``seat`` accepts or refuses ``declarer``'s declaration; the first refusal
    stops the round and lets the declarer override it (KMC 11.1.3)."""

    KIND: ClassVar[str] = "answer"
    declarer: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Answer(self.seat, True), Answer(self.seat, False)]

    @answers(Answer)
    def answered(self, g: Rules, s: LockeState, action: Answer) -> LockeState:
        if action.accept:
            return advance(log(s, "accepted", self.seat, self.declarer))
        rest = s.queue[1:]
        while rest and isinstance(rest[0], (DeclarationAnswer, DeclarationAccepted)):
            rest = rest[1:]
        s = log(s, "refused", self.seat, self.declarer)._replace(queue=(s.queue[0],) + rest)
        return advance(s, OverrideChoice(self.declarer))


@dataclasses.dataclass(frozen=True)
class DeclarationAccepted(Automatic):
    """KMC 6.4, 11.1: nobody refused ``seat``'s declaration: the game ends."""

    KIND: ClassVar[str] = "accepted"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        return end_game(s, "declaration", self.seat)


def dead_count(s: LockeState, excluding: int = NO_SEAT) -> int:
    return sum(1 for i, p in enumerate(s.seats) if not p.alive and i != excluding)


def own_kills(s: LockeState, seat: int) -> tuple[tuple[int, int, str], ...]:
    """The kills ``seat`` made as the card it holds now whose victim's card it has seen (KMC
    11.1.3, 11.8.2; ruling N25): (victim seat or NO_SEAT, victim's card handle, random card id).
    A random character's card was face up in its combat, so everyone has seen it."""
    me = s.seats[seat]
    return tuple(
        (victim, victim_card, random_card)
        for killer, killer_card, victim, victim_card, random_card in s.kill_log
        if killer == seat and killer_card == me.character and (
            random_card or (seat in s.seats[victim].seen_by and s.seats[victim].character == victim_card))
    )


@dataclasses.dataclass(frozen=True)
class OverrideChoice(SeatDecision):
    """KMC 11.1.3: a refused declarer may void the refusal by showing its card."""

    KIND: ClassVar[str] = "override"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        """Honest: offered only when the seat's card carries an override that holds now (Elmi and
        Dr. Wong on the public death count; Lord Leon and S-Strohheim on the cards it knows)."""
        seat = self.seat
        out: list[Action] = [Override(seat, False)]
        if me is None or knowledge is None:
            return out + [Override(seat, True)]
        ok = False
        if me.id == "elmi":
            ok = 2 * dead_count(s, seat) >= s.n - 1
        elif me.id == "dr-wong":
            ok = 2 * dead_count(s) >= s.n
        elif me.id == "lord-leon":
            others = [p for i, p in enumerate(s.seats) if p.alive and i != seat]
            cards = [knowledge.card(p.character) for p in others]
            ok = all(c is not None and stats.current(g.components.character(c), p.mods, p.proofs, "level") <= 4
                     for c, p in zip(cards, others))
        elif me.id == "strohheim-s":
            for _, victim_card, random_card in own_kills(s, seat):
                card = random_card or knowledge.card(victim_card)
                if card and "locke" in g.components.character(card).counts_as:
                    ok = True
        if ok:
            out.append(Override(seat, True))
        return out

    @answers(Override)
    def chosen(self, g: Rules, s: LockeState, action: Override) -> LockeState:
        if not action.use:
            return advance(log(s._replace(declarer=NO_SEAT), "declaration-refused", self.seat))
        return advance(s, OverrideReveal(self.seat))


@dataclasses.dataclass(frozen=True)
class OverrideReveal(Waiting):
    """KMC 11.1.3: the declarer shows its card; it must carry an override that holds."""

    KIND: ClassVar[str] = "override_reveal"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return own_character(s, self.seat)

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        card = action.cards[0]
        seat = self.seat
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
        if card == "strohheim-s":
            kills = own_kills(s, seat)
            victims = tuple(h for _, h, r in kills if not r)
            randoms = tuple(r for _, _, r in kills if r)
            if victims or any("locke" in g.components.character(r).counts_as for r in randoms):
                claim = ck.make(seat, s.step_no, ck.STROHHEIM, (p.character,) + victims, randoms, "locke.11.1.3")
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


@dataclasses.dataclass(frozen=True)
class CombatPhase(Automatic):
    """KMC 9.2.3: after moving (or staying), a party leader with someone to attack on its
    cell may declare a combat; it must when someone there shows its silhouette."""

    KIND: ClassVar[str] = "combat_phase"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        flags = s.turn_flags
        if "no_combat" in flags or not ("moved" in flags or "nop" in flags or "revived" in flags):
            return advance(s)
        if s.seats[self.seat].leader != NO_SEAT:
            return advance(s)
        targets = combat_targets(s, self.seat)
        if not targets:
            return advance(s)
        forced = any(s.seats[i].silhouette == s.seats[self.seat].silhouette for i in targets)
        return advance(s, FightChoice(self.seat, forced))


@dataclasses.dataclass(frozen=True)
class FightChoice(SeatDecision):
    """KMC 9.2.3: whom to fight; ``forced`` when someone with the seat's silhouette is here."""

    KIND: ClassVar[str] = "fight"
    forced: bool

    def options(self, s: LockeState) -> tuple[int, ...]:
        targets = combat_targets(s, self.seat)
        if self.forced:  # forced combat: only those with the same silhouette (KMC 9.2.3)
            return tuple(i for i in targets if s.seats[i].silhouette == s.seats[self.seat].silhouette)
        return targets

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        out: list[Action] = [] if self.forced else [Fight(self.seat, NO_SEAT)]
        return out + [Fight(self.seat, t) for t in self.options(s)]

    @answers(Fight)
    def chosen(self, g: Rules, s: LockeState, action: Fight) -> LockeState:
        options = self.options(s)
        if action.target == NO_SEAT and not self.forced:
            return advance(s)
        if action.target not in options:
            raise IllegalAction(f"declare a combat against one of {list(options)}"
                                + (" (someone with your silhouette is here: the combat is compulsory)"
                                   if self.forced else ", or none"), rule="locke.9.2.3")
        sides = (party_of(s, lead(s, self.seat)), party_of(s, lead(s, action.target)))
        here = s.seats[self.seat].place
        return begin(advance(s), Combat("declared", here, sides))


# --- destruction phase (KMC 9.3.4) ---------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class DestructionPhase(Automatic):
    """KMC 9.3.4: on the Nova or the King editorial room, once a life, the seat may try it."""

    KIND: ClassVar[str] = "destroy_phase"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        p = s.seats[self.seat]
        if s.phase != "base" or not p.alive or p.status != "normal" or p.place == OFF_BOARD:
            return advance(s)
        card = cell_of(s, p.place).face_up
        if card == "nova" and "nova" not in p.tried:
            return advance(s, NovaChoice(self.seat))
        if card == "king-editorial-room" and "king" not in p.tried:
            return advance(s, KingRoomChoice(self.seat))
        return advance(s)


@dataclasses.dataclass(frozen=True)
class NovaChoice(SeatDecision):
    """KMC 4 Nova, 11.2: the seat on the Nova may declare a level and take the check."""

    KIND: ClassVar[str] = "nova"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        proofs = s.seats[self.seat].proofs
        return [Nop(self.seat)] + [Nova(self.seat, level) for level in esp_levels(s, self.seat, me, 0)
                                   if not proofs or level == 0]

    @answers(Nova)
    def tried(self, g: Rules, s: LockeState, action: Nova) -> LockeState:
        p = s.seats[self.seat]
        if not 0 <= action.level <= (0 if p.proofs else 6):
            raise IllegalAction("declare an ESP level from 0 to yours for the Nova check (0 with an ESP proof in)",
                                rule="locke.4")
        claim = fate.stat_claim(s, self.seat, "level", "le", action.level, "locke.11.2")
        p = p._replace(tried=p.tried + ("nova",))
        s = s._replace(seats=with_seat(s, self.seat, p), **claimed(s, claim))
        s, roll = fate.declared_check(s, self.seat, stat=fate.CheckStat.LEVEL, value=action.level, then=AfterNova())
        return advance(s, roll)

    @answers(Nop)
    def skipped(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
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


@dataclasses.dataclass(frozen=True)
class KingRoomChoice(SeatDecision):
    """KMC 4 King editorial room, 11.3: Yuki Hijiri may declare a mind, show her card and
    take the mind check."""

    KIND: ClassVar[str] = "king"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        out: list[Action] = [Nop(self.seat)]
        if me is None or me.id == "hijiri-yuki":
            top = stat_now(s, self.seat, me, "mind") if me is not None else fate.most(g, s, self.seat, "mind")
            out += [KingRoom(self.seat, mind) for mind in range(2, top + 1)]
        return out

    @answers(KingRoom)
    def tried(self, g: Rules, s: LockeState, action: KingRoom) -> LockeState:
        p = s.seats[self.seat]
        if not 2 <= action.mind <= fate.most(g, s, self.seat, "mind"):
            raise IllegalAction("declare a mind from 2 to yours for the King editorial room", rule="locke.11.3")
        claim = fate.stat_claim(s, self.seat, "mind", "le", action.mind, "locke.11.3")
        p = p._replace(tried=p.tried + ("king",))
        s = s._replace(seats=with_seat(s, self.seat, p), **claimed(s, claim))
        return advance(s, KingRoomReveal(self.seat, action.mind))

    @answers(Nop)
    def skipped(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s)


@dataclasses.dataclass(frozen=True)
class KingRoomReveal(Waiting):
    """KMC 4: only Yuki Hijiri may try the King editorial room; her card is shown, then the
    mind check on the declared ``mind``."""

    KIND: ClassVar[str] = "king_reveal"
    seat: int
    mind: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return own_character(s, self.seat)

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        card = action.cards[0]
        if card != "hijiri-yuki":
            raise cheat(self.seat, f"tried the King editorial room as {card}; only Yuki Hijiri may", "locke.4")
        p = s.seats[self.seat]._replace(exposed=True)
        s = s._replace(seats=with_seat(s, self.seat, p), open_cards=s.open_cards + ((action.handles[0], card),))
        s, roll = fate.declared_check(s, self.seat, stat=fate.CheckStat.MIND, value=self.mind, then=AfterKingRoom())
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


#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = (
    DeclarationPhase, VictoryDeclaration, DeclarationAnswer, DeclarationAccepted, OverrideChoice, OverrideReveal,
    CombatPhase, FightChoice, DestructionPhase, NovaChoice, KingRoomChoice, KingRoomReveal,
)
