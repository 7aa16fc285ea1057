"""The public state of a Rider game: immutable named tuples, no hidden card ids.

Why named tuples: they are immutable like frozen dataclasses but much cheaper
to copy with ``_replace``, and the engine copies the state on every input (the
benchmark plays hundreds of games per second). They must never be encoded
directly (a tuple encodes as a plain list); :func:`public_data` builds the
canonical map that the state hash covers.

Hidden cards appear only as integer *handles* allocated from ``next_handle``:
the deck, the hand, and face-down Lv.1 cards. Face-up cards, the discard pile
and the Lost pile hold card ids, because everybody has seen them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

#: Column letters in seat order; actions name columns by letter.
COLUMNS = ("A", "B", "C")
COLUMN_INDEX = {"A": 0, "B": 1, "C": 2}

#: The rules id every Rider record and genesis names (written only here).
RULES_ID = "rider/1"
#: Rider is a two-player game (rider.0).
SEATS = 2


class Column(NamedTuple):
    """One of a seat's three columns.

    - face down: ``facedown`` is the handle of the owner's secret Lv.1 card;
    - face up: ``cards`` lists (card id, placed level) from the Lv.1 upwards;
      it is non-empty exactly while the column's Lv.1 stands;
    - ``zero`` is the column's Lv.0 card, if any (it survives its Lv.1).
    """

    facedown: int | None = None
    cards: tuple[tuple[str, int], ...] = ()
    zero: str | None = None

    @property
    def active(self) -> bool:
        """A face-up column whose Lv.1 stands (attack source and target)."""
        return bool(self.cards)

    @property
    def top_level(self) -> int:
        return self.cards[-1][1] if self.cards else 0


class Step(NamedTuple):
    """One queued thing the game will do or wait for (see game.py).

    ``kind`` names it; ``n`` and ``arg`` are its parameters (a count or level,
    and a column letter or card id).
    """

    kind: str
    seat: int
    n: int = 0
    arg: str = ""


class Player(NamedTuple):
    columns: tuple[Column, Column, Column]
    deck: tuple[int, ...]  # handles, top first
    hand: tuple[int, ...]  # handles
    discard: tuple[str, ...]  # card ids, oldest first
    lost: tuple[str, ...]  # Lv.1 card ids destroyed in battle, oldest first


class RiderState(NamedTuple):
    """Everything public about a game; the state hash covers all of it."""

    players: tuple[Player, Player]
    queue: tuple[Step, ...]
    active: int = 0
    turn: int = 0
    next_handle: int = 0
    attacks: tuple[int, int, int] = (0, 0, 0)
    #: Handles in hidden zones whose card is public (a recovered card in
    #: hand, a discard pile turned into a deck before its shuffle).
    open_cards: tuple[tuple[int, str], ...] = ()
    #: Columns each seat flipped for the battle-mark contest.
    marks: tuple[str, str] = ("", "")
    winner: int | None = None
    reason: str = ""

    @property
    def over(self) -> bool:
        return bool(self.reason)


EMPTY_COLUMNS = (Column(), Column(), Column())


def _column_data(col: Column) -> dict[str, Any]:
    return {"facedown": col.facedown, "cards": [list(c) for c in col.cards], "zero": col.zero}


def _player_data(p: Player) -> dict[str, Any]:
    return {
        "columns": [_column_data(c) for c in p.columns],
        "deck": list(p.deck),
        "hand": list(p.hand),
        "discard": list(p.discard),
        "lost": list(p.lost),
    }


def public_data(state: RiderState) -> dict[str, Any]:
    """Canonical data of the public state (what :func:`state_hash` covers)."""
    return {
        "rules": RULES_ID,
        "players": [_player_data(p) for p in state.players],
        "queue": [list(s) for s in state.queue],
        "active": state.active,
        "turn": state.turn,
        "next_handle": state.next_handle,
        "attacks": list(state.attacks),
        "open_cards": [list(o) for o in state.open_cards],
        "marks": list(state.marks),
        "winner": state.winner,
        "reason": state.reason,
    }


# --- small copy-on-write helpers shared by the reducer modules ----------------------


def other(seat: int) -> int:
    return 1 - seat


def with_player(state: RiderState, seat: int, player: Player) -> tuple[Player, Player]:
    """The players tuple with ``seat`` replaced."""
    return (player, state.players[1]) if seat == 0 else (state.players[0], player)


def with_column(player: Player, index: int, col: Column) -> Player:
    cols = list(player.columns)
    cols[index] = col
    return player._replace(columns=(cols[0], cols[1], cols[2]))


def remove_one(pile: tuple[str, ...], card: str) -> tuple[str, ...]:
    """Remove the most recent copy of ``card`` from a pile."""
    i = len(pile) - 1 - pile[::-1].index(card)
    return pile[:i] + pile[i + 1:]
