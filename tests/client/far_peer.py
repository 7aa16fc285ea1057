"""The far side of a networked client test, run as its own process:
``python tests/client/far_peer.py CODE MODE NAME``.

It joins the table of invite CODE with the real peer driver and then
- ``leave``: plays with a bot until the first turn has started, then at its
  next decision resigns and leaves the table (a signed goodbye);
- ``silent``: joins and never decides (it simply goes quiet).
It prints one JSON line with its result when it is done.
"""

from __future__ import annotations

import json
import sys


def main() -> int:
    code, mode, name = sys.argv[1], sys.argv[2], sys.argv[3]
    from twisted.internet import reactor, task

    from client.rider.demo import bot_peer

    peer = bot_peer(reactor, code, name=name)
    bot = peer.agent
    if mode == "silent":
        peer.agent = None

    def look() -> None:
        session = peer.session
        if mode != "leave" or session is None or peer.result is not None:
            return
        started = getattr(session.state, "turn", 0) >= 1
        if started and peer.agent is not None:
            peer.agent = None  # from now on this seat decides by itself: it leaves
        if peer.agent is None and peer.legal():
            peer.resign()
            peer.leave("the far peer leaves the table")

    def ended(result: dict[str, object]) -> None:
        print(json.dumps({"error": result.get("error"), "seat": result.get("seat")}), flush=True)
        reactor.callLater(0.5, reactor.stop)

    peer.on_end = ended
    assert bot is not None
    task.LoopingCall(look).start(0.05)
    reactor.callLater(120, reactor.stop)
    reactor.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
