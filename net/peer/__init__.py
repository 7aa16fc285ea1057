"""A peer at a networked table: lobby, session driver, restart directory.

:class:`~net.peer.driver.Peer` joins a sans-I/O :class:`net.session.Session`
to the Twisted :class:`net.transport.Mesh`; :mod:`net.peer.lobby` is how a
host and its joiners agree on the genesis record; the game registry
(:mod:`net.games`) says which games can be hosted; :mod:`net.peer.store`
keeps what a killed peer needs to resume; :mod:`net.peer.progress` words what the driver does as
events with stable ids. ``python -m tools.peer`` is the command line on top.
"""

from net.peer.driver import Peer

__all__ = ["Peer"]
