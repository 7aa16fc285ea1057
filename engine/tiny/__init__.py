"""Tiny: a 2-10 seat dice-and-cards game that asks for every kind of pending input.

It is small on purpose: the networked session's tests play it at any seat
count, and docs/architecture.md "Adding a game" walks through how it plugs in
(this engine package, one registry entry in net/games/tiny.py, a client UI).
Entry point: :class:`engine.tiny.game.TinyGame`.
"""
