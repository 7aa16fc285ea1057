"""Test-only: ``tools.peer --rules-module tests/e2e/premature_claimer.py`` turns
that peer into a cheater built from our own :class:`net.peer.Peer`.

It changes one thing: the moment the table waits for another seat alone, the peer signs
a forfeit claim against it (which an honest session refuses to sign before
its deadline), lets its own session take the forfeit at once (no deadline, no
grace period), signs the final record and leaves, as the cheat of issue 9
did. Nothing here is on a production path.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from net.peer import driver  # noqa: E402
from net.session import deadlines, pump  # noqa: E402

_honest_after = driver.Peer._after


def _cheating_after(self: driver.Peer) -> None:
    _honest_after(self)
    s = self.session
    if s is None or self.result is not None or getattr(self, "_cheated", False) or s.phase != "play":
        return
    owing = s.waiting_for()
    if len(owing) != 1 or owing[0] == self.seat:
        return
    victim = owing[0]
    self._cheated = True  # type: ignore[attr-defined]
    self._say("claiming", seat=victim)
    s._send("forfeit", deadlines.claim_body(s, victim))
    deadlines.forfeit(s, victim, [seat for seat in s.seats if seat != victim])
    pump.pump(s)
    self._send(s._flush())
    _honest_after(self)


driver.Peer._after = _cheating_after  # type: ignore[method-assign]
