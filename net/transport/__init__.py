"""Twisted transport for Fairtable tables (issue 4, item 3).

Protocol logic is sans-I/O and tested without sockets:

* :mod:`.framing` length-prefixed frames with a 1 MiB limit;
* :mod:`.messages` the message types and their strict parsing;
* :mod:`.handshake` versioned, mutually authenticated handshake;
* :mod:`.link` one connection: framing + handshake + rejection rules;
* :mod:`.mesh` routing among all peers: forwarding, dedup, pings, status,
  reconnection with :mod:`.backoff`;
* :mod:`.invite` invite codes with the host's addresses and fingerprint.

:mod:`.twisted_glue` adapts these to TCP; :mod:`.discovery` does zeroconf.
The wire format is specified in docs/protocol.md.
"""

from net.transport.invite import Invite, parse_invite
from net.transport.mesh import Mesh, PeerStatus, PeerView
from net.transport.twisted_glue import TwistedMesh

__all__ = ["Invite", "Mesh", "PeerStatus", "PeerView", "TwistedMesh", "parse_invite"]
