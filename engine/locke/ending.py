"""The end of a game of Super Human Locke (KMC 6.3-6.4): every ending stops play the same
way, the final reveal opens every hidden card a claim was made about, and the judgement
grades every seat (engine/locke/victory.py).

Why a module of its own, low in the engine: a declaration, a combat, a trap, the base
cards and the turn can all end the game, and each of them calls :func:`end_game` here
without importing the others.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar, cast

from engine.core.game import Outcome, SeatResult
from engine.core.pending import CardsRevealed, HiddenOp, Pending
from engine.locke import stats, victory
from engine.locke.victory import ENDINGS
from engine.locke.state import NO_SEAT, LockeState, advance, lead, log, zone_of
from engine.locke.steps import Automatic, LockeStep, Rules, Waiting, answers

#: What each way to end (engine/locke/victory.py ENDINGS: KMC 6.4 plus our termination guard,
#: ruling N47) is called in an outcome's reason.
REASONS = {
    "declaration": "a victory declaration was not refused (KMC 6.4, 11.1)",
    "last-alive": "only one player was alive at the end of its turn (KMC 6.4)",
    "all-dead": "every player was dead (KMC 6.4)",
    "key-bases": "all four key bases were destroyed (KMC 6.4, 9.3.1)",
    "nova": "the Nova went off (KMC 6.4)",
    "king-room": "Yuki Hijiri destroyed the King editorial room (KMC 6.4)",
    "guard": "the turn limit was reached: judged as it stands (termination guard, rulings N47 and N23)",
}
#: Zones of cards that were a seat's character and are no longer (true self, the shape-change card).
FORMER_CHARACTERS = ("chars:discarded", "chars:erased")


def end_game(s: LockeState, ending: str, by: int = NO_SEAT, present: tuple[int, ...] = ()) -> LockeState:
    """Stop play; reveal every character card and shadow die, then judge. Every card a claim
    was made about is opened too: former characters and the planet cards still kept face
    down, so that every claim of the game can be judged from the public record alone (the
    audit a networked table makes)."""
    if ending not in ENDINGS:
        raise ValueError(f"no ending {ending!r}: one of {ENDINGS}")
    s = log(s, "game-over", ending, by)
    audit = tuple(FinalOpen(zone, zone_of(s, zone)) for zone in FORMER_CHARACTERS if zone_of(s, zone))
    audit += tuple(FinalOpen(f"kept:{i}", p.kept) for i, p in enumerate(s.seats) if p.kept)
    return s._replace(phase="reveal", ending=ending, ended_by=by, present=present, combat=None,
                      queue=(FinalReveal(), *audit, FinalDice(), Judgement()))


@dataclasses.dataclass(frozen=True)
class FinalOpening(Waiting):
    """KMC 6.4: at the end a zone of hidden cards is turned face up for everyone."""

    def opened(self, s: LockeState) -> tuple[str, tuple[int, ...]]:
        """The zone and its handles."""
        raise NotImplementedError(f"{type(self).__name__} does not say what it opens")

    def pending(self, g: Rules, s: LockeState) -> Pending:
        zone, handles = self.opened(s)
        return HiddenOp("reveal", zone, handles)

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        known = dict(s.open_cards)
        new = tuple((h, c) for h, c in zip(action.handles, action.cards) if h not in known)
        return advance(s._replace(open_cards=s.open_cards + new))


@dataclasses.dataclass(frozen=True)
class FinalReveal(FinalOpening):
    """Every seat's character card."""

    KIND: ClassVar[str] = "final_reveal"

    def opened(self, s: LockeState) -> tuple[str, tuple[int, ...]]:
        return "characters", tuple(p.character for p in s.seats)


@dataclasses.dataclass(frozen=True)
class FinalDice(FinalOpening):
    """Every seat's shadow die (judging each shadow claim, KMC 7.1.7)."""

    KIND: ClassVar[str] = "final_dice"

    def opened(self, s: LockeState) -> tuple[str, tuple[int, ...]]:
        return "dice", tuple(p.die for p in s.seats)


@dataclasses.dataclass(frozen=True)
class FinalOpen(FinalOpening):
    """The audit: a zone of cards a claim was made about (former characters, a seat's kept
    planet cards), with its ``handles`` when the game ended."""

    KIND: ClassVar[str] = "final_open"
    zone: str
    handles: tuple[int, ...]

    def opened(self, s: LockeState) -> tuple[str, tuple[int, ...]]:
        return self.zone, self.handles


def alignment_of(attribute: str) -> victory.Alignment:
    """KMC 6.3.2: E/G starts Evil; conversion (engine/locke/abilities.py) is the only way to Good."""
    if attribute == "good":
        return "good"
    return "special" if attribute == "special" else "evil"


def facts(g: Rules, s: LockeState) -> victory.EndFacts:
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
        victory.Kill(killer=killer, killer_character=opened[killer_card], victim=None if victim == NO_SEAT else victim,
                     victim_character=random_card or opened[victim_card],
                     killer_saw_card=victim == NO_SEAT or (killer in s.seats[victim].seen_by
                                                           and s.seats[victim].character == victim_card))
        for killer, killer_card, victim, victim_card, random_card in s.kill_log
        # every card of the log is open by now: a seat's card, or a former one (FORMER_CHARACTERS)
        if killer_card in opened and (random_card or victim_card in opened)
    )
    return victory.EndFacts(
        ending=cast(victory.Ending, s.ending), seats=tuple(seats), key_bases_destroyed=s.key_bases_destroyed,
        declarer=s.ended_by if s.ending == "declaration" else None,
        king_room_by=s.ended_by if s.ending == "king-room" else None,
        last_combat=s.last_combat, fourth_destruction_present=s.present, kills=kills,
    )


@dataclasses.dataclass(frozen=True)
class Judgement(Automatic):
    """KMC 6.3-6.4: every seat judged from the public record (engine/locke/victory.py)."""

    KIND: ClassVar[str] = "judge"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        verdicts = victory.judge(g.components, facts(g, s))
        results = [SeatResult.graded(v.seat, won=v.won, alive=s.seats[v.seat].alive, reason=v.reason)
                   for v in verdicts]
        outcome = Outcome.judged(f"locke.end.{s.ending}: {REASONS[s.ending]}", results)
        return s._replace(queue=(), phase="over", result=outcome)


#: the end's step kinds (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = (FinalReveal, FinalDice, FinalOpen, Judgement)
