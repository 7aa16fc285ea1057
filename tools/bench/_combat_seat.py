"""One seat of the combat-start benchmark in its own process: ``python -m tools.bench._combat_seat SEAT N SEED``.

Driven by :mod:`tools.bench._combat_procs` over stdin/stdout, one JSON object
a line, like :mod:`tools.bench._net_seat` (whose loopback TCP mesh and
identities it reuses). Each process runs the real ``net.session.Session`` of
its seat on the synthetic combat table of :mod:`tools.bench._combat_game`,
and passes what the session sends to the mesh (``to`` None: every seat; else
that seat) and what the mesh delivers to the session, so every step is the
protocol code a networked Locke table runs.

Commands (stdin) and answers (stdout), besides ``join`` and ``quit``:

- ``{"setup": {"fighters": [...], "cards": C, "hand": H}}``: build the
  session and run the table's opening (card keys); the seat prints
  ``{"opened": true}`` once it plays (seat 0 to declare the first combat).
- ``{"begin": t, "round": k}``: combat ``k`` starts when seat 0 declares it at
  ``time.monotonic() == t`` (the clock is the machine's, the same in every
  process). Every seat notes its process CPU time when the command arrives
  (it is idle until the combat reaches it) and prints, once it has applied
  the last fighter's deal, ``{"round": k, "start_ms", "hand_ms", "done_ms",
  "cpu_s", "deck", "hand"}``: when (ms after ``t``) it applied the
  declaration, when it held its own hand (fighters; else null), when it
  applied the last deal (every shuffle step checked by then: the shuffle step
  is applied only after), the CPU seconds it spent since the command, a
  digest of the ciphertexts of the shuffled deck, and its hand's cards. A
  halted session prints ``{"round": k, "error": ...}`` instead, and a
  command that fails ``{"failed": ...}`` (the parent stops the run).
- ``{"report": true}``: prints ``{"bytes": [...]}``, the payload bytes it
  received per round (from the round's ``begin`` to the next one).
"""

from __future__ import annotations

import hashlib
import sys
import time
from typing import Any

from engine.core.pending import CardsDealt, CardsShuffled
from net.session import Session
from net.session.core import Outgoing
from net.session.events import Applied, Notice
from tools.bench._combat_game import Begin, CombatGame, CombatState, genesis, plan_for
from tools.bench._net_seat import Seat, serve

NONCE = bytes(range(16))


class CombatSeat(Seat):
    """A benchmark seat that plays its seat of the combat table through its session."""

    def __init__(self, reactor: Any, seat: int, n: int, seed: str) -> None:
        super().__init__(reactor, seat, n, seed)
        self.session: Session | None = None
        self.before_setup: list[tuple[int, bytes]] = []
        self.by_key = {key: s for s, key in enumerate(self.keys)}
        self.opened = False
        self.reported_halt = False
        self.round_k = -1
        self.starts: dict[int, float] = {}
        self.cpu0: dict[int, float] = {}
        self.bytes_in: dict[int, int] = {}
        self.applied_begin: dict[int, float] = {}
        self.hand_at: dict[int, float] = {}
        self.hand_cards: dict[int, list[str | None]] = {}
        self.deck_digest: dict[int, str] = {}
        #: When the session call now running began (a step's notice comes only when the call ends).
        self.call_began = 0.0
        self.work_due = False  # a Session.work call is scheduled (send)

    # --- the session on the mesh

    def on_message(self, origin: bytes, data: bytes) -> None:
        self.bytes_in[self.round_k] = self.bytes_in.get(self.round_k, 0) + len(data)
        sender = self.by_key.get(origin)
        if sender is None:
            return
        if self.session is None:
            self.before_setup.append((sender, data))  # a faster seat's opening, before our setup command
            return
        self.call_began = time.monotonic()
        self.send(self.session.receive(data, sender=f"peer-{sender}", via=sender))

    def send(self, out: list[Outgoing]) -> None:
        for o in out:
            if o.to is None:
                self.net.mesh.broadcast(o.data)
            else:
                self.net.mesh.send_to(self.keys[o.to], o.data)
        self.after_call()
        s = self.session
        if s is not None and s.has_work and not self.work_due:
            # a check put off until this part was sent: after the reactor's turn to write it,
            # as net/peer/driver.py does
            self.work_due = True
            self.reactor.callLater(0, self.reactor.callLater, 0, self.work)

    def work(self) -> None:
        self.work_due = False
        if self.session is not None:
            self.call_began = time.monotonic()
            self.send(self.session.work())

    def after_call(self) -> None:
        s = self.session
        assert s is not None
        if s.halted is not None and not self.reported_halt:
            self.reported_halt = True
            self.say(round=self.round_k, error=f"seat {self.seat} halted: {s.halted}")
        elif not self.opened and s.phase == "play":
            self.opened = True
            self.say(opened=True)

    def notice(self, notice: Notice) -> None:
        """Called when a session call has finished: the moment each step was applied, to the call."""
        if not isinstance(notice, Applied):
            return
        now = time.monotonic()
        before: CombatState = notice.before
        after: CombatState = notice.after
        k = before.combats
        s = self.session
        assert s is not None and s.book is not None
        if isinstance(notice.action, Begin):
            self.applied_begin[k] = self.call_began  # the declaration reached us (our core was free)
        elif isinstance(notice.action, CardsShuffled):
            ciphers = b"".join(a + b for a, b in (s.book.cipher[h] for h in after.deck))
            self.deck_digest[k] = hashlib.sha256(ciphers).hexdigest()
        elif isinstance(notice.action, CardsDealt):
            if before.fighters[before.dealt] == self.seat:
                self.hand_at[k] = now
                self.hand_cards[k] = [s.knowledge.card(h) for h in notice.action.handles]
            if after.stage == "begin":
                self.finish_round(k, now)

    def finish_round(self, k: int, now: float) -> None:
        t = self.starts.get(k)
        if t is None:
            self.say(round=k, error=f"seat {self.seat} finished combat {k} before it was told to begin it")
            return

        def ms(at: float | None) -> float | None:
            return None if at is None else round((at - t) * 1000, 3)

        self.say(round=k, start_ms=ms(self.applied_begin.get(k)), hand_ms=ms(self.hand_at.get(k)),
                 done_ms=ms(now), cpu_s=round(time.process_time() - self.cpu0[k], 4),
                 deck=self.deck_digest.get(k), hand=self.hand_cards.get(k))

    # --- commands

    def command(self, cmd: dict[str, Any]) -> None:
        try:
            self.obey(cmd)
        except Exception as exc:  # told to the parent, which stops the benchmark and its processes
            self.say(failed=f"{type(exc).__name__}: {exc}")

    def obey(self, cmd: dict[str, Any]) -> None:
        if "setup" in cmd:
            self.setup(cmd["setup"])
        elif "begin" in cmd:
            k, t = int(cmd["round"]), float(cmd["begin"])
            self.round_k, self.starts[k], self.cpu0[k] = k, t, time.process_time()
            if self.seat == 0:
                self.reactor.callLater(max(0.0, t - time.monotonic()), self.declare)
        elif "report" in cmd:
            self.say(bytes=[self.bytes_in.get(k, 0) for k in range(self.round_k + 1)])
        else:
            super().command(cmd)

    def setup(self, spec: dict[str, Any]) -> None:
        cards, hand = int(spec["cards"]), int(spec["hand"])
        game = CombatGame(cards)
        record = genesis(tuple(self.keys), cards, NONCE)
        state = game.initial_state(self.n, tuple(int(f) for f in spec["fighters"]), hand)
        self.session = Session(record, game, state, plan=plan_for(game), identity=self.ids[self.seat],
                               seat=self.seat)
        self.session.driver_calls_work = True  # send schedules work
        self.session.subscribe(self.notice)
        self.send(self.session.start())
        early, self.before_setup = self.before_setup, []
        for sender, data in early:
            self.send(self.session.receive(data, sender=f"peer-{sender}", via=sender))

    def declare(self) -> None:
        assert self.session is not None
        self.call_began = time.monotonic()
        self.send(self.session.submit(0, Begin(0)))


def make(reactor: Any, seat: int, n: int, seed: str) -> Seat:
    return CombatSeat(reactor, seat, n, seed)


if __name__ == "__main__":
    raise SystemExit(serve(sys.argv[1:], make))
