"""The Rider card game: 2 players, 24-card decks, three columns (seed 003).

Entry points: :class:`engine.rider.game.RiderGame` (the reducer) and
:mod:`engine.rider.cards` (card sets as data). Rules: docs/rules/rider.md.
"""
