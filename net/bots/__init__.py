"""Bots that play a seat through the game-agnostic agent interface (net.bots.base)."""

from net.bots.base import Agent, PlacementPick, SealedPick
from net.bots.greedy import GreedyBot
from net.bots.random_bot import RandomBot

__all__ = ["Agent", "GreedyBot", "PlacementPick", "RandomBot", "SealedPick"]
