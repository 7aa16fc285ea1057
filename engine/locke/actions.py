"""The inputs a Locke seat can give (plus the driver answers from engine.core).

One small class per thing a player can say at the table. Cells are board keys
("P:3:4", "B:2:5", engine/locke/board.py); seats are integers. Declarations
about hidden data (a level, a durability, "this card is an ability card", "I
am Good now") are plain fields: the engine accepts them when they fit the
public record and logs each as a claim (engine/locke/claims.py), judged when
the hidden card opens.
"""

from __future__ import annotations

import dataclasses

from engine.core.actions import Action


@dataclasses.dataclass(frozen=True)
class Switch(Action):
    """KMC 7.1.8: a seat over the Evil-face cap takes a non-Evil silhouette."""

    KIND = "locke.switch"
    silhouette: str


@dataclasses.dataclass(frozen=True)
class InfoCheck(Action):
    """Seed 000 3.2.2: a base player shows three or more dealt information cards
    (``handles``), or shows none (``handles`` empty; a claim that it holds fewer)."""

    KIND = "locke.info_check"
    handles: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Declare(Action):
    """KMC 11.1.1: declare victory now (True) or not (False)."""

    KIND = "locke.declare"
    declare: bool


@dataclasses.dataclass(frozen=True)
class Answer(Action):
    """KMC 11.1.2: accept (True) or refuse (False) the victory declaration."""

    KIND = "locke.answer"
    accept: bool


@dataclasses.dataclass(frozen=True)
class Override(Action):
    """KMC 11.1.3: show your character card to void the refusal (True), or let it stand."""

    KIND = "locke.override"
    use: bool


@dataclasses.dataclass(frozen=True)
class Walk(Action):
    """KMC 9.2.1 / 9.3.1: walk one cell (also: enter the board at ``to``)."""

    KIND = "locke.walk"
    to: str


@dataclasses.dataclass(frozen=True)
class Teleport(Action):
    """KMC 9.2.1: level teleport, declaring ``level`` (1..your ESP level; a claim)."""

    KIND = "locke.teleport"
    level: int


@dataclasses.dataclass(frozen=True)
class Land(Action):
    """Where a successful teleport ends (one of the cells at the rolled distance)."""

    KIND = "locke.land"
    to: str


@dataclasses.dataclass(frozen=True)
class Follow(Action):
    """KMC 9.2.1 parties: a partner follows the leader's teleport (a claim that its
    level is at least the declared one) or drops out of the party."""

    KIND = "locke.follow"
    follow: bool


@dataclasses.dataclass(frozen=True)
class Fly(Action):
    """KMC 9.2.1: fly from a spaceport to another (takes the whole movement)."""

    KIND = "locke.fly"
    to: str


@dataclasses.dataclass(frozen=True)
class Recover(Action):
    """KMC 9.2.1 / 9.3.1: recover one point of lost durability."""

    KIND = "locke.recover"


@dataclasses.dataclass(frozen=True)
class Nop(Action):
    """KMC 9.2.1: do nothing in the movement phase (or skip an optional step)."""

    KIND = "locke.nop"


@dataclasses.dataclass(frozen=True)
class Propose(Action):
    """KMC 9.2.1 parties: invite ``partners`` (normal state, same cell) to a party you lead."""

    KIND = "locke.propose"
    partners: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Join(Action):
    """An invited player accepts (True) or declines (False) the party."""

    KIND = "locke.join"
    accept: bool


@dataclasses.dataclass(frozen=True)
class Leave(Action):
    """KMC 9.2.1 parties: a partner leaves, or the leader dissolves the party."""

    KIND = "locke.leave"


@dataclasses.dataclass(frozen=True)
class Destroy(Action):
    """KMC 9.3.1: destroy the key base you stand on (a claim: you are Good now)."""

    KIND = "locke.destroy"


@dataclasses.dataclass(frozen=True)
class EnterBase(Action):
    """KMC 9.3.1: try to enter the base, declaring ``level`` (0..your ESP level; a claim)."""

    KIND = "locke.enter_base"
    level: int


@dataclasses.dataclass(frozen=True)
class Keep(Action):
    """Seed 000 3, KMC 9.2.2: keep the planet card just drawn face down (a claim:
    it is an ability card), or (False) show it and obey it."""

    KIND = "locke.keep"
    keep: bool


@dataclasses.dataclass(frozen=True)
class Appear(Action):
    """Seed 000 3.2.3: the ambush's placer comes out and fights (True) or not."""

    KIND = "locke.appear"
    appear: bool


@dataclasses.dataclass(frozen=True)
class Surrender(Action):
    """Seed 000 3.2.1 (ruling N11): against police or espers, be arrested instead of fighting."""

    KIND = "locke.surrender"
    surrender: bool


@dataclasses.dataclass(frozen=True)
class Identify(Action):
    """Seed 000 3.2.3: look at ``target``'s character card in secret."""

    KIND = "locke.identify"
    target: int


@dataclasses.dataclass(frozen=True)
class Fight(Action):
    """KMC 9.2.3: declare a combat against ``target`` on your cell (-1: no combat)."""

    KIND = "locke.fight"
    target: int


@dataclasses.dataclass(frozen=True)
class Release(Action):
    """Seed 000 3.2.1: use the release ability instead of the prison check (a claim)."""

    KIND = "locke.release"
    use: bool


@dataclasses.dataclass(frozen=True)
class Escape(Action):
    """Prison rows 6-8: escape (True; a claim that your level reaches the row's) or stay."""

    KIND = "locke.escape"
    escape: bool


@dataclasses.dataclass(frozen=True)
class Nova(Action):
    """KMC 9.3.4 / 4: the Nova check on the Nova cell, declaring ``level`` (a claim)."""

    KIND = "locke.nova"
    level: int


@dataclasses.dataclass(frozen=True)
class KingRoom(Action):
    """KMC 9.3.4 / 4: Yuki Hijiri's attempt on the King editorial room (shows his card)."""

    KIND = "locke.king_room"
    mind: int


# --- part 3: fate and base cards (engine/locke/fate.py, engine/locke/base_cards.py) ---


@dataclasses.dataclass(frozen=True)
class CheckValue(Action):
    """A check on a hidden stat (KMC 11.2, 11.3): declare ``value`` (a claim that it
    is within your current level or mind); -1 when nothing can be declared (mind < 2)."""

    KIND = "locke.check_value"
    value: int


@dataclasses.dataclass(frozen=True)
class UseCard(Action):
    """Seed 000 3.1: use the kept planet card ``handle`` as the card ``card`` (for a wildcard,
    the card it stands for). ``target`` is a seat (the receiver of an entertainment-district
    gift, the player an identify-other card looks at), ``other`` a second kept handle (the
    card given away; the second Lafnor mirror), ``choice`` a detail ("character" or a
    silhouette id for a shape change)."""

    KIND = "locke.use_card"
    handle: int
    card: str
    target: int = -1
    other: int = -1
    choice: str = ""


@dataclasses.dataclass(frozen=True)
class Stat(Action):
    """Declare a hidden stat for an effect (a claim): ``stat`` is "durability" or "mind"
    (the current value), "level" (exact, or at most for an ESP level check), "mind-check"
    (a value from 2 to your mind; 0 when it is below 2)."""

    KIND = "locke.stat"
    stat: str
    value: int


@dataclasses.dataclass(frozen=True)
class Fact(Action):
    """Answer a yes/no question about your own hidden character (a claim), such as
    "is your character male?" (KMC 4 Madonna of Khan)."""

    KIND = "locke.fact"
    holds: bool


@dataclasses.dataclass(frozen=True)
class DeclareDurability(Action):
    """Declare your current durability before taking a hit outside combat (a claim)."""

    KIND = "locke.durability"
    value: int


@dataclasses.dataclass(frozen=True)
class TryRevive(Action):
    """Seed 002: roll the actually-alive (dead) or actually-there (elsewhere) check when a
    combat starts (True), or not."""

    KIND = "locke.try_revive"
    attempt: bool


@dataclasses.dataclass(frozen=True)
class PlayTeleport(Action):
    """KMC 4 stacked vortex: show the teleport card ``handle`` from the seven dealt,
    or -1 (a claim that none of them is a teleport)."""

    KIND = "locke.play_teleport"
    handle: int


@dataclasses.dataclass(frozen=True)
class Choose(Action):
    """Pick one of the options an effect offers (an id such as "female", "a", "retire")."""

    KIND = "locke.choose"
    option: str


@dataclasses.dataclass(frozen=True)
class UseAbility(Action):
    """KMC 2.2: use a character ability in the movement decision (engine/locke/abilities.py):
    a conversion check on ``target`` declaring ``level``, or a shape change / author's
    privilege giving ``target`` the silhouette ``choice``."""

    KIND = "locke.use_ability"
    ability: str
    target: int
    choice: str = ""
    level: int = 0


ACTIONS: tuple[type[Action], ...] = (
    Switch, InfoCheck, Declare, Answer, Override, Walk, Teleport, Land, Follow, Fly, Recover, Nop,
    Propose, Join, Leave, Destroy, EnterBase, Keep, Appear, Surrender, Identify, Fight,
    Release, Escape, Nova, KingRoom, UseCard, Stat, Choose,
    CheckValue, Fact, DeclareDurability, TryRevive, PlayTeleport, UseAbility,
)
