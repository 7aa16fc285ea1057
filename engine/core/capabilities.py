"""What a game may offer its drivers beyond the reducer contract, as explicit Protocols.

engine/core/game.py's :class:`~engine.core.game.Game` is what every game
implements. Three things only some games need:

- :class:`HasOpenCards`: handles whose card the game itself shows face up
  (a discard pile turned into a deck before its shuffle), so a driver can
  name them without a protocol;
- :class:`ChecksPrivate`: checks only the acting seat's own knowledge
  allows (Rider: a pass while another hand card could be played, rider.14),
  run by the driver before it applies or signs that seat's action;
- :class:`~engine.core.claims.ClaimingGame`: declarations about hidden cards,
  judged when the cards open (engine/core/claims.py);
- :class:`NarrowsSealed`: a sealed choice whose public options are more than
  a seat may honestly pick, given its own cards (Locke's silhouette: only the
  faces its shadow die allows); the drivers offer only the honest ones, so a
  person or a bot is never handed a pick that would be a false claim.

:func:`capabilities` looks at a game once and returns its
:class:`Capabilities`; a driver keeps that value and calls through it, so no
code probes a game object with ``getattr``. The registry (net/games/) calls
:func:`check_game_class` when an entry registers, so a game that offers half
of a capability (``claims`` without ``claim_holds``) is refused before any
table is built.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from engine.core.actions import Action
from engine.core.claims import Claim, ClaimingGame
from engine.core.hidden import Knowledge

#: The reducer contract's methods (engine.core.game.Game), which every game class must have.
CONTRACT = ("pending", "legal_actions", "apply", "public", "zone", "outcome", "view")


@runtime_checkable
class HasOpenCards(Protocol):
    """A game that names the cards it shows face up (handle -> card id) in a state."""

    def open_cards(self, state: Any) -> Mapping[int, str]: ...


@runtime_checkable
class ChecksPrivate(Protocol):
    """A game with rules only the acting seat's own knowledge can check (raises EngineError)."""

    def check_private(self, state: Any, action: Action, knowledge: Knowledge) -> None: ...


@runtime_checkable
class NarrowsSealed(Protocol):
    """A game whose pending sealed choice may offer ``seat`` only some of its public options."""

    def sealed_options(self, state: Any, seat: int, knowledge: Knowledge) -> tuple[Any, ...] | None:
        """The options ``seat`` may pick honestly now, or None when every public one is."""
        ...


def _no_open_cards(state: Any) -> Mapping[int, str]:
    return {}


@dataclasses.dataclass(frozen=True)
class Capabilities:
    """One game's optional parts, found once: call these, never probe the game."""

    open_cards: Callable[[Any], Mapping[int, str]] = _no_open_cards
    check_private: Callable[[Any, Action, Knowledge], None] | None = None
    claiming: ClaimingGame | None = None
    sealed_options: Callable[[Any, int, Knowledge], tuple[Any, ...] | None] | None = None

    def claims(self, state: Any) -> tuple[Claim, ...]:
        """The game's claim log in ``state`` (empty for a game that makes no claims)."""
        return () if self.claiming is None else self.claiming.claims(state)

    def honest_options(self, state: Any, seat: int, knowledge: Knowledge, options: tuple[Any, ...]) -> list[Any]:
        """The public ``options`` of a sealed choice that ``seat`` may pick honestly (all of them
        for a game that does not narrow them, or when none of them would be honest)."""
        allowed = self.sealed_options(state, seat, knowledge) if self.sealed_options is not None else None
        narrowed = [o for o in options if allowed is None or o in allowed]
        return narrowed or list(options)


#: The capability protocols by the name a docstring or error message uses.
PROTOCOLS: tuple[tuple[str, type], ...] = (
    ("HasOpenCards", HasOpenCards), ("ChecksPrivate", ChecksPrivate), ("ClaimingGame", ClaimingGame),
    ("NarrowsSealed", NarrowsSealed),
)


def capabilities(game: object) -> Capabilities:
    """The optional parts ``game`` offers (see the module docstring)."""
    return Capabilities(
        open_cards=game.open_cards if isinstance(game, HasOpenCards) else _no_open_cards,
        check_private=game.check_private if isinstance(game, ChecksPrivate) else None,
        claiming=game if isinstance(game, ClaimingGame) else None,
        sealed_options=game.sealed_options if isinstance(game, NarrowsSealed) else None,
    )


def check_game_class(game_class: type) -> tuple[str, ...]:
    """The capability protocols ``game_class`` implements; TypeError when it misses part of
    the reducer contract or offers only part of a capability."""
    missing = [name for name in CONTRACT if not callable(getattr(game_class, name, None))]
    if missing:
        raise TypeError(f"{game_class.__name__} is no game: it lacks {', '.join(missing)} "
                        "(engine/core/game.py, the reducer contract)")
    offered = []
    for name, protocol in PROTOCOLS:
        members = [m for m in vars(protocol) if not m.startswith("_") and callable(vars(protocol)[m])]
        present = [m for m in members if callable(getattr(game_class, m, None))]
        if present and len(present) < len(members):
            absent = sorted(set(members) - set(present))
            raise TypeError(f"{game_class.__name__} offers part of {name}: it has {', '.join(present)} "
                            f"but not {', '.join(absent)}")
        if present:
            offered.append(name)
    return tuple(offered)
