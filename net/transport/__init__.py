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

Use from a session (host side, then a joiner)::

    host = TwistedMesh(identity, table=new_table_nonce(), reactor=reactor,
                       on_message=session.receive, on_status=ui.show_status)
    host.listen_tcp(0, "0.0.0.0")
    print(host.invite().encode())
    ...
    joiner = TwistedMesh(identity, table=invite.table, reactor=reactor, ...)
    joiner.join(parse_invite(code))          # key checked in the handshake
    ...
    mesh = host.mesh
    mesh.set_game(game_id); mesh.restrict_to(seat_keys)
    mesh.describe_key = lambda key: f"seat {seat_of[key]}"   # for log lines
    mesh.broadcast(envelope_bytes)           # to everyone, relayed if needed
    mesh.send_to(key, catch_up_bytes)        # to one peer
    mesh.view()                              # statuses and RTTs for the UI

``on_message(origin_key, data)`` gets every payload once; ``origin_key`` is
a routing hint, so the session must verify the envelope's own signature.
"""

from net.transport.invite import Invite, parse_invite
from net.transport.mesh import Mesh, PeerStatus, PeerView
from net.transport.twisted_glue import TwistedMesh, new_table_nonce

__all__ = ["Invite", "Mesh", "PeerStatus", "PeerView", "TwistedMesh", "new_table_nonce",
           "parse_invite"]
