"""The critical path of one roll, modelled from unit costs measured in this run.

Used by ``tools.bench net``. The process benchmark (:mod:`tools.bench._net_procs`)
runs every seat in its own process, but on a machine with fewer cores than
seats the seats still wait for each other's CPU. The critical path a table
with one core per peer would see is the sum of the work on the slowest
chain of one roll, priced with costs measured here, now, on this machine:

- ``es`` / ``ev``: sign an envelope / parse and verify one (Ed25519, chain fields);
- ``make`` / ``check``: our roll part (net.dice_vrf.roll_part) / one other seat's
  part checked (net.dice_vrf.check_part), the roll's base point made once (``base``);
- ``faces``: seed and faces from every output;
- ``hop``: one-way delivery, from the two-process signed round trip measured in
  the same run: ``(rt - 2*(es + ev)) / 2`` (its median);

Each unit is the fastest of several timed batches (see :func:`_per_call_ms`).
- for the commit-reveal dice of records before issue 26, ``commit`` and
  ``open`` (make and check one commitment).

One-phase roll among N seats: ``base + make + es + hop + (N-1)*(ev + check) + faces``,
one network phase. Commit-reveal: ``commit + es + hop + (N-1)*ev`` then
``es + hop + (N-1)*(ev + open) + faces``, two phases. Both leave out the
engine's own step (apply and state hash), which is the game's, not the dice's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from engine.core.hashing import digest
from net import dice_vrf as v
from net.commit import Commitment, Opening, verify_opening
from net.dice import faces_from_seed, joint_seed
from net.envelope import ZERO32, Envelope, EnvelopeWriter
from net.identity import Identity
from net.poker import group as g

GAME = digest("fairtable/bench-dice-model", "game")


def _per_call_ms(fn: Callable[[int], Any], budget_s: float = 0.2, batches: int = 8) -> float:
    """The fastest of ``batches`` batches: mean cost of ``fn(i)`` in milliseconds.

    The fastest, not the median: the model prices a table with a core per peer,
    and on a shared machine the slower batches measure waiting for a core."""
    fn(0)
    start = time.perf_counter()
    fn(1)
    single = max(time.perf_counter() - start, 1e-6)
    per_batch = max(1, int(budget_s / batches / single))
    samples = []
    i = 2
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(per_batch):
            fn(i)
            i += 1
        samples.append((time.perf_counter() - start) / per_batch)
    return min(samples) * 1000


def unit_costs() -> dict[str, float]:
    """Each unit's cost in milliseconds, measured now."""
    ident = Identity.from_seed(digest("fairtable/bench-dice-model", "seat"))
    writer = EnvelopeWriter(ident, GAME, 0)
    secret = g.hash_to_scalar("fairtable/bench-dice-model", "secret")
    key = g.base_mul(secret)
    ctx = v.RollContext(GAME, 1, "bench.2d6", (6, 6), tuple(range(10)))
    base = ctx.base()
    part = v.roll_part(ctx, 0, secret, base)
    data = writer.write("roll", part, (1, ZERO32)).to_bytes()
    outputs = [part["out"]] * 10
    commitment, opening = Commitment.create(GAME, 1, 0, b"x" * 32, purpose="dice:bench")

    def sign(i: int) -> None:
        writer.write("roll", part, (i, ZERO32))

    def check_env(i: int) -> None:
        Envelope.from_bytes(data).verify(ident.public_key, game=GAME)

    def check_opening(i: int) -> None:
        verify_opening(commitment, GAME, 1, 0, Opening.from_data(opening.to_data()), purpose="dice:bench")

    return {
        "es": _per_call_ms(sign),
        "ev": _per_call_ms(check_env),
        "base": _per_call_ms(lambda i: v.RollContext(GAME, i, "bench.2d6", (6, 6), tuple(range(10))).base()),
        "make": _per_call_ms(lambda i: v.roll_part(ctx, 0, secret, base)),
        "check": _per_call_ms(lambda i: v.check_part(ctx, 0, key, part, base)),
        "faces": _per_call_ms(lambda i: faces_from_seed(v.vrf_seed(ctx, outputs), (6, 6))),
        "commit": _per_call_ms(lambda i: Commitment.create(GAME, i, 0, b"x" * 32, purpose="dice:bench")),
        "open": _per_call_ms(check_opening),
        "legacy_faces": _per_call_ms(lambda i: faces_from_seed(
            joint_seed(GAME, i, "bench", (6, 6), tuple(range(10)), [b"x" * 32] * 10), (6, 6))),
    }


def hop_ms(costs: dict[str, float], round_trip_2_ms: float) -> float:
    """One-way delivery between two processes, from their signed round trip."""
    return max(0.0, (round_trip_2_ms - 2 * (costs["es"] + costs["ev"])) / 2)


def critical_path(costs: dict[str, float], hop: float, n: int) -> dict[str, float | int]:
    """Both dice protocols' critical path for ``n`` seats, in milliseconds, and their phases."""
    one = costs["base"] + costs["make"] + costs["es"] + hop + (n - 1) * (costs["ev"] + costs["check"]) + costs["faces"]
    two = (costs["commit"] + costs["es"] + hop + (n - 1) * costs["ev"]
           + costs["es"] + hop + (n - 1) * (costs["ev"] + costs["open"]) + costs["legacy_faces"])
    return {"one_phase_ms": round(one, 3), "one_phase_phases": 1,
            "commit_reveal_ms": round(two, 3), "commit_reveal_phases": 2}
