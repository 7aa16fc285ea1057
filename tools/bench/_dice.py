"""Dice benchmark, included by the ``crypto`` suite (``measure() -> dict``).

``dice_roll_ms_<n>_seats`` is the wall time of one complete 2d6 roll among
``n`` seats simulated in one process, as one peer experiences it: every seat
makes its contribution and signs a commit envelope and a reveal envelope; the
peer verifies all ``2n`` envelopes (signatures and chains) and every opening,
then derives the faces (the commit-reveal dice of records before issue 26).
``vrf_roll_ms_<n>_seats`` is the same for the one-phase dice of net.dice_vrf:
every seat makes its part and signs one roll envelope; the peer verifies the
``n`` envelopes and the ``n - 1`` other parts. CPU only, no network. Median
over several batches.

Run alone: ``python -m tools.bench._dice``.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from collections.abc import Callable

from net import dice_vrf as v
from net.commit import commit_message, reveal_message
from net.dice import DiceRound
from net.envelope import EnvelopeChain, EnvelopeWriter, Genesis, game_id
from net.identity import Identity
from net.poker import group as g

SEATS = (2, 6)


def _table(seats: int) -> tuple[Genesis, list[Identity]]:
    ids = [Identity.from_seed(bytes([100 + s]) * 32) for s in range(seats)]
    genesis = Genesis("bench", "1", bytes(32), tuple(i.public_key for i in ids), {}, (b"bench-nonce-0001",) * len(ids))
    return genesis, ids


def one_roll(genesis: Genesis, ids: list[Identity], step: int) -> tuple[int, ...]:
    """One full commit+reveal roll; returns the faces (so nothing is optimised away)."""
    gid = game_id(genesis)
    seats = tuple(range(len(ids)))
    writers = [EnvelopeWriter(ident, gid, s) for s, ident in enumerate(ids)]
    peer = EnvelopeChain(gid, genesis.seat_keys)
    round_ = DiceRound(gid, step, seats, "bench", (6, 6))
    made = [round_.contribute(s) for s in seats]
    seen = (step, bytes(32))
    for s in seats:
        env = peer.accept(writers[s].write("dice.commit", commit_message(made[s][0]), seen))
        round_.handle(env.seat, env.body)
    for s in seats:
        env = peer.accept(writers[s].write("dice.reveal", reveal_message(made[s][1]), seen))
        round_.handle(env.seat, env.body)
    return round_.faces()


def one_vrf_roll(genesis: Genesis, ids: list[Identity], step: int) -> tuple[int, ...]:
    """One full one-phase roll as seat 0 sees it; returns the faces."""
    gid = game_id(genesis)
    seats = tuple(range(len(ids)))
    writers = [EnvelopeWriter(ident, gid, s) for s, ident in enumerate(ids)]
    peer = EnvelopeChain(gid, genesis.seat_keys)
    secrets_ = [g.hash_to_scalar("fairtable/bench-dice", (s,)) or 1 for s in seats]
    keys = {s: g.base_mul(d) for s, d in enumerate(secrets_)}
    rnd = v.VrfDiceRound(v.RollContext(gid, step, "bench", (6, 6), seats), keys)
    seen = (step, bytes(32))
    for s in seats:
        env = peer.accept(writers[s].write("roll", rnd.make(s, secrets_[s]), seen))
        if s == 0:
            rnd.receive_ours(0, env.body)
        else:
            rnd.receive(env.seat, env.body)
    return rnd.faces()


def _time_roll_ms(seats: int, budget_s: float = 0.4, batches: int = 5,
                  roll: Callable[[Genesis, list[Identity], int], tuple[int, ...]] = one_roll) -> float:
    genesis, ids = _table(seats)
    roll(genesis, ids, 0)  # warm up
    start = time.perf_counter()
    roll(genesis, ids, 1)
    single = max(time.perf_counter() - start, 1e-6)
    per_batch = max(1, int(budget_s / batches / single))
    samples = []
    for batch in range(batches):
        start = time.perf_counter()
        for i in range(per_batch):
            roll(genesis, ids, 2 + batch * per_batch + i)
        samples.append((time.perf_counter() - start) / per_batch)
    return round(statistics.median(samples) * 1000, 3)


def measure() -> dict[str, Any]:
    """Figures for the crypto benchmark suite (milliseconds per roll)."""
    return {**{f"dice_roll_ms_{n}_seats": _time_roll_ms(n) for n in SEATS},
            **{f"vrf_roll_ms_{n}_seats": _time_roll_ms(n, roll=one_vrf_roll) for n in SEATS}}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2, sort_keys=True))
