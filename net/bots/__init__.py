"""Game-agnostic bots that play a seat through the agent interface (net.bots.base).

Bots that know one game live with that game's registry entry (net/games/<game>/).
"""

from net.bots.base import Agent
from net.bots.greedy import GreedyBot
from net.bots.random_bot import RandomBot

__all__ = ["Agent", "GreedyBot", "RandomBot"]
