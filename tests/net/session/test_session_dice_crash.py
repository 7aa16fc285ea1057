"""SIGKILL mid-roll, resume from the journals: nothing lost, the same faces.

A child process plays a 3-seat Tiny table (one-phase dice, every seat with its
own journal on disk) and kills itself with SIGKILL as soon as some but not
all roll parts have reached some peer: no clean-up, no flush beyond what the
journal fsynced. Every seat then restarts from its journal in this process;
the game ends, every peer applied the roll the dice keys fix (computed here
from the journalled dice secrets and the roll's context, independently of
the sessions), and the record verifies with nothing refused (a restarted
seat re-sends byte for byte the roll part it had sent).
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from harness import NONCE, identities
from test_session_forfeits import kind_of

from engine.core.actions import SYSTEM
from engine.core.pending import DiceRolled
from engine.tiny.game import RULES_ID, card_set_hash
from net import dice_vrf as v
from net.bots.random_bot import RandomBot
from net.dice import faces_from_seed
from net.envelope import Envelope, Genesis
from net.games import table_for
from net.journal import SECRETS, Journal
from net.poker import group as g
from net.session import Rejected, Session
from net.session.dice_rounds import DICE_SECRET, OnePhase
from net.session.loopback import Loopback
from net.verifier import verify

ROOT = Path(__file__).resolve().parents[3]
SEATS = 3

CHILD = """
import os, random, signal, sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {here!r})
from pathlib import Path
from test_session_dice_crash import build
from net.session.dice_rounds import OnePhase

table = build(Path({journals!r}))
table.start()
for _ in range(100_000):
    table.run(limit=1)
    rounds = [s.current_phase.round for s in table.sessions if s.phase == "play"]
    if any(isinstance(r, OnePhase) and 0 < len(r.rnd.missing()) < {seats} for r in rounds):
        Path({mark!r}).write_text(str(table.sessions[0].step))
        os.kill(os.getpid(), signal.SIGKILL)
print("the table never got mid-roll")
sys.exit(3)
"""


def build(journals: Path) -> Loopback:
    """The table, each seat journalling to ``journals/seatN`` (a restart reads the same)."""
    ids = identities(SEATS, tag="crash")
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids), {}, (NONCE,) * SEATS)
    table = table_for(genesis)
    return Loopback([Session(genesis, table.game, table.state, plan=table.plan, identity=ids[s], seat=s,
                             agent=RandomBot(random.Random(70 + s)), journal=Journal(journals / f"seat{s}"))
                     for s in range(SEATS)], shuffle_seed=3)


@pytest.mark.slow
def test_sigkill_mid_roll_then_resume_gives_the_same_faces(tmp_path: Path) -> None:
    mark = tmp_path / "step"
    script = CHILD.format(root=str(ROOT), here=str(Path(__file__).parent), journals=str(tmp_path), seats=SEATS,
                          mark=str(mark))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == -signal.SIGKILL, done.stdout + done.stderr[-3000:]
    killed_at = int(mark.read_text())
    table = build(tmp_path)  # every seat back from its journal
    table.start()
    table.run()
    sessions = table.sessions
    for s in sessions:
        assert s.finished, (s.seat, s.phase, s.step, s.waiting_for())
        assert not [e for e in s.events if isinstance(e, Rejected)], [str(e) for e in s.events]
    a = sessions[0]
    assert len({s.hashes[-1] for s in sessions}) == 1
    # the roll the crash cut through: its faces are the ones the journalled dice keys fix
    step = next(k for k, act in enumerate(a.applied) if isinstance(act, DiceRolled) and act.purpose == "tiny.roll")
    assert step == killed_at
    secrets = [int(Journal(tmp_path / f"seat{s}").secret(DICE_SECRET)) for s in range(SEATS)]
    ctx = v.RollContext(a.gid, step, "tiny.roll", (6, 6), tuple(range(SEATS)))
    outputs = [v.roll_part(ctx, s, secrets[s])["out"] for s in range(SEATS)]
    expected = faces_from_seed(v.vrf_seed(ctx, outputs), (6, 6))
    assert all(s.applied[step] == DiceRolled(SYSTEM, "tiny.roll", expected) for s in sessions)
    rolls = [e for e in a.envelopes() if e.kind == "roll"]
    assert sorted(e.seat for e in rolls) == list(range(SEATS))  # one part per seat, none twice
    assert verify(a.transcript()).ok


def test_a_seat_restarted_after_sending_its_roll_part_sends_the_same_bytes(tmp_path: Path) -> None:
    """In process: seat 1 dies right after journalling its roll part, before it left (its outbox is
    lost); back from its journal it sends the same envelope, so no peer sees two versions."""
    table = build(tmp_path)
    table.start()
    sent: list[bytes] = []
    for _ in range(100_000):
        table.run(limit=1)
        play = table.sessions[1]
        rnd = play.current_phase.round if play.phase == "play" else None
        queued = [o.data for seat, o in table.queue if seat == 1]
        if isinstance(rnd, OnePhase) and any(kind_of(d) == (1, "roll") for d in queued):
            sent = queued
            break
    assert sent, "seat 1 never had its roll part waiting to leave"
    table.queue = [(seat, o) for seat, o in table.queue if seat != 1]  # its outbox dies with it
    dead = table.sessions[1]
    assert dead.journal is not None
    dead.journal.close()
    table.down.add(1)
    table.run()
    ids = identities(SEATS, tag="crash")
    genesis, game = dead.genesis, dead.game
    back = Session(genesis, game, table_for(genesis).state, plan=dead.plan, identity=ids[1], seat=1,
                   agent=RandomBot(random.Random(71)), journal=Journal(tmp_path / "seat1"))
    table.sessions[1] = back
    table.down.discard(1)
    again = back.start()
    assert set(sent) <= {o.data for o in again}  # the very same bytes
    table.post(1, again)
    table.run()
    for s in table.sessions:
        assert s.finished and not [e for e in s.events if isinstance(e, Rejected)], [str(e) for e in s.events]
    assert verify(table.sessions[0].transcript()).ok


class _Ordered(Journal):
    """A real journal that also notes the order of its durable writes."""

    def __init__(self, directory: Path, order: list[str]) -> None:
        super().__init__(directory)
        self.order = order

    def put_secret(self, name: str, value: object) -> None:
        super().put_secret(name, value)
        self.order.append(f"secret {name}")

    def append_envelope(self, data: bytes) -> None:
        super().append_envelope(data)
        self.order.append(f"envelope {kind_of(data)[1]}")  # type: ignore[index]


def test_the_dice_key_is_durable_before_the_hello_announcing_it_and_a_restart_announces_the_same(
        tmp_path: Path) -> None:
    """The key is written (fsynced) before the hello is; a seat that dies between the two
    comes back with the same key and the same proof of it (no second key to choose; the
    first hello never left, since an envelope is journalled before it is sent)."""
    ids = identities(SEATS, tag="crash")
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids), {}, (NONCE,) * SEATS)
    table = table_for(genesis)

    def seat1(journal: Journal) -> Session:
        return Session(genesis, table.game, table.state, plan=table.plan, identity=ids[1], seat=1, journal=journal)

    order: list[str] = []
    first = seat1(_Ordered(tmp_path / "seat1", order))
    [hello] = [o.data for o in first.start() if kind_of(o.data) == (1, "hello")]
    assert order.index(f"secret {DICE_SECRET}") < order.index("envelope hello")
    secret = first._saved_secret(DICE_SECRET)
    body = Envelope.from_bytes(hello).body
    assert body["dice"]["key"] == g.base_mul(int(secret)) == v.check_key(first.gid, 1, body["dice"])
    # the crash came after the key was written and before the hello was: only the secrets survive
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    (crashed / SECRETS).write_bytes((tmp_path / "seat1" / SECRETS).read_bytes())
    again = seat1(Journal(crashed))
    [second] = [o.data for o in again.start() if kind_of(o.data) == (1, "hello")]
    assert Envelope.from_bytes(second).body["dice"] == body["dice"]  # the same key, proved the same way
