"""Test-only rules module for peer processes: ``tools.peer --rules-module tests/e2e/tiny_rules.py``.

Registers the session engineer's tiny N-seat dice-and-cards game
(tests/net/session/tiny_game.py) with the session registry (by importing it)
and as a hostable game named ``tiny`` (2 to 10 seats, no decks), so real
peer processes can play it. Nothing here is on a production path.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.core.hashing import digest
from net.peer.games import GameSpec, register

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net" / "session"))

import tiny_game  # registers the rules id with net.session.registry

CARD_SET = digest("fairtable/test-cards", "tiny")


def _no_problems(info: object) -> list[str]:
    return [] if info == {} else ["the tiny test game takes no seat information"]


register(GameSpec("tiny", tiny_game.RULES_ID, "1", lambda: CARD_SET, 2, 10, False, lambda deck: {},
                  lambda infos: {}, _no_problems))

PATH = str(Path(__file__).resolve())
