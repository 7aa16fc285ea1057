"""Locke's pages of the help overlay: the player's guide and the controls.

The guide is for players (the premise, a turn, the phases, how each side
wins, the grades), written from docs/rules/locke.md in our own words; the
engineers' rules reference stays in that document. Words are catalogue keys
(client/locke/strings.py), so the overlay re-words itself with the language.
"""

from __future__ import annotations

from client.help import HelpPage

#: The guide's paragraphs, in reading order (each key has its title under ``<key>_t``).
GUIDE = ("lk_help_premise", "lk_help_turn", "lk_help_phases", "lk_help_win", "lk_help_grades")

HELP = (HelpPage("help_rules", paragraphs=GUIDE), HelpPage("help_keys", paragraphs=("lk_help_keys",)))
