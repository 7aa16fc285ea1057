"""A game of Super Human Locke told for people, one line per input and per public event
(``python -m tools.match locke --log``; the table's log shows the same lines).

Nothing here reads a hidden card: the lines come from the public inputs and the public
event log, worded by client/locke/words.py as a spectator sees them (no seat is "you"), in
English or Japanese, seats counted from 1.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from client.i18n import tr
from client.locke.views import fighters_of
from client.locke.words import Namer
from engine.core.actions import Action
from engine.locke.game import LockeGame
from engine.locke.state import LockeState

#: Nobody's seat: the story is told as a spectator sees it.
SPECTATOR = -1


def told(namer: Namer, pre: LockeState, action: Action, post: LockeState) -> list[str]:
    """The input's own line, then each public event it caused (indented)."""
    return [namer.logged(action, pre)] + ["  " + namer.event(e) for e in post.events[len(pre.events):]]


def lines(game: LockeGame, state: LockeState, inputs: Sequence[Action], names: Sequence[str],
          lang: str) -> Iterator[str]:
    """The game from ``state`` through ``inputs``, with a heading whenever a new turn starts."""
    turn = (state.turn, state.current)
    for action in inputs:
        post = game.apply(state, action)
        namer = Namer(lang, names, SPECTATOR, game.components, None, fighters_of(state))
        yield from told(namer, state, action, post)
        if (post.turn, post.current) != turn and post.turn:
            turn = (post.turn, post.current)
            yield ""
            yield tr(lang, "lk_story_turn", turn=post.turn, who=namer.seat(post.current))
        state = post
