"""``python -m tools.deck [--game NAME] COMMAND ...``: a game's deck tool, found through its registry entry.

A game with decks names its own deck tool in its registry entry
(``GameEntry.deck_tool``, a module with ``main(argv) -> int`` in the game's
package); this command runs it. ``--game`` picks the game when more than
one has decks; with one (today: Rider, net/games/rider/deck_tool.py) it is
that one. Exit status is the deck tool's: 0 = legal deck / done, 1 = the
deck breaks deck-building rules, 2 = the input could not be checked at all.
"""

from __future__ import annotations

import sys

from net.games import games
from net.seats import for_people
from tools._cli import InputProblem, deck_tool
from tools._cli import run as run_cli


def main(argv: list[str]) -> int:
    with_decks = [entry for entry in games() if entry.deck_tool is not None]
    rest = list(argv)
    try:
        if rest[:1] == ["--game"] and len(rest) >= 2:
            name, rest = rest[1], rest[2:]
            entry = next((e for e in with_decks if e.name == name), None)
            if entry is None:
                raise InputProblem(f"{name!r} is no game with decks; games with decks: "
                                   f"{', '.join(e.name for e in with_decks) or 'none'}")
        elif len(with_decks) == 1:
            entry = with_decks[0]
        else:
            raise InputProblem("several games have decks: name one with --game NAME "
                               f"({', '.join(e.name for e in with_decks)})")
        tool = deck_tool(entry)
    except InputProblem as exc:
        print(f"error: {for_people(str(exc))}", file=sys.stderr)
        return 2
    code: int = tool.main(rest)
    return code


if __name__ == "__main__":
    run_cli(main)
