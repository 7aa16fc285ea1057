"""The error of a file or argument that cannot be used at all, shared by the tools and the games' file readers.

A command-line tool (tools/) exits with status 2 and prints the message,
which always says what to do; a game's own file formats (its deck files,
its scenario files: net/games/<game>/) raise it so the tools need not know
them.
"""

from __future__ import annotations


class InputProblem(Exception):
    """A file or argument could not be used at all; the message says what to do."""
