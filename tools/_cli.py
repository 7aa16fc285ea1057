"""Shared entry-point glue for the command-line tools: running a main, and the input-problem error."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from net.problems import InputProblem

if TYPE_CHECKING:
    from net.games import GameEntry

__all__ = ["InputProblem", "deck_tool", "run"]


def run(main: Callable[[list[str]], int]) -> None:
    """Run ``main(sys.argv[1:])`` and exit with its code.

    Output piped into a program that stops reading (``| head``) ends the tool
    quietly instead of with a BrokenPipeError traceback.
    """
    try:
        code = main(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    raise SystemExit(code)


def deck_tool(entry: GameEntry[Any]) -> Any:
    """The tool module that reads ``entry``'s deck and component files (its registry entry's
    ``deck_tool``, in the game's own package); InputProblem for a game without decks."""
    if entry.deck_tool is None:
        raise InputProblem(f"{entry.title} has no decks; drop --deck and --cardset")
    return importlib.import_module(entry.deck_tool)
