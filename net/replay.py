"""A saved game record, replayed step by step for a viewer (issue 32: the replay viewer).

One replay and one check: a record is replayed by the verifier
(net/verifier.py ``verify``), which hands every engine input it applies
to :func:`load_replay` as it goes. The replay therefore holds exactly the
positions the check accepted: a local record's inputs up to the first
whose state hash differs, a networked transcript's inputs up to the first
forged, illegal or lying envelope; the verdict says where and who, and a
viewer marks that step. Every position is public: a replay is made from
the record alone, which holds no seat's secret (cards opened during the
game, and at the end-of-game audit, are in it; a hand never opened is not).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from engine.core.actions import Action
from net.games import GameEntry, game_for_rules, table_for
from net.session.events import Applied
from net.transcript import TranscriptError, from_match_log, is_local, is_match_log, parse, parse_local
from net.verifier import Verdict, verify


class ReplayError(ValueError):
    """A record that cannot be replayed at all: not a record, or a game this copy lacks."""


@dataclasses.dataclass(frozen=True)
class Frame:
    """One input of the record and the position after it."""

    step: int
    action: Action
    state: Any


@dataclasses.dataclass(frozen=True)
class Replay:
    """A record's positions in order: ``first`` before any input, then one per frame."""

    entry: GameEntry[Any]
    #: The engine game the positions belong to (as the record's set-up builds it).
    game: Any
    names: tuple[str, ...]
    first: Any
    frames: tuple[Frame, ...]
    verdict: Verdict

    @property
    def steps(self) -> int:
        """How many inputs the replay holds (positions are 0 to ``steps``)."""
        return len(self.frames)

    def state_at(self, position: int) -> Any:
        """The state after ``position`` inputs (0: the first state); clamped to the record."""
        position = max(0, min(position, self.steps))
        return self.first if position == 0 else self.frames[position - 1].state

    def failing_position(self) -> int | None:
        """The position where the check failed (the record holds no input past it), or None."""
        return None if self.verdict.ok else self.steps


def _names(seats: list[dict[str, Any]]) -> tuple[str, ...]:
    return tuple(str(s.get("name") or f"Player {s['seat'] + 1}") for s in seats)  # as client display_name


def _game_of(data: Any) -> tuple[GameEntry[Any], Any]:
    """The registered game of a record and its engine game as the record's set-up builds it
    (ReplayError when it is no record, an unknown game, or a set-up this copy cannot build)."""
    try:
        if is_match_log(data):
            rules = str(data.get("rules"))
        elif is_local(data):
            rules = parse_local(data).rules_id
        else:
            rules = parse(data)[0].rules_id
        entry = game_for_rules(rules)
        if entry is None:
            raise ReplayError(f"the record's game ({rules!r}) is not installed in this copy of Fairtable")
        if is_match_log(data):
            data = from_match_log(data, entry.rules_version, entry.card_set_hash())
        game = entry.local(parse_local(data).setup, None).game if is_local(data) else table_for(parse(data)[0]).game
    except (TranscriptError, ValueError, TypeError, KeyError) as exc:
        if isinstance(exc, ReplayError):
            raise
        raise ReplayError(f"this file is not a game record Fairtable can replay ({exc})") from None
    return entry, game


def load_replay(data: Any) -> Replay:
    """Replay a decoded record (a local record, a match log or a networked transcript) under the
    verifier, keeping every position it accepts; ReplayError when nothing can be replayed."""
    if not isinstance(data, Mapping):
        raise ReplayError("this file is not a game record Fairtable can replay (not a record object)")
    entry, game = _game_of(data)
    applied: list[Applied] = []
    verdict = verify(data, on_applied=applied.append)
    if not applied:
        raise ReplayError(f"the record holds no position to show: {verdict}")
    frames = tuple(Frame(n, a.action, a.after) for n, a in enumerate(applied, start=1))
    return Replay(entry, game, _names(verdict.seats), applied[0].before, frames, verdict)
