"""The inputs digest: a running hash of the engine inputs a session applied.

A session's ``seen`` tells the table the state it reached; since issue 30 it
also carries the digest of the inputs that led there (docs/protocol.md,
"Envelopes"). The engine is deterministic, so equal inputs give equal states:
a ``seen`` whose inputs digest equals ours but whose state hash differs is a
signed lie about the state (net/session/conviction.py), while a different
inputs digest says only that its signer applied other inputs than our record
holds, for instance because a cheater showed it another version of one of its
own envelopes. A proof of a false state hash is therefore accepted only when
the accused's own signed digest matches the record the proof replays
(net/verifier.py ``verify_proof``): a cheater cannot frame an honest seat with
a second version of its own envelope that the honest seat never saw.

``D_0 = H("fairtable/inputs/v1", [game])`` and ``D_k+1 = H("fairtable/inputs/v1",
[game, k, D_k, input k])``, where ``input k`` is the canonical data of the
engine input applied at step k: domain-separated, bound to the game and the step.
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.core.hashing import digest

INPUTS_DOMAIN = "fairtable/inputs/v1"


def first(game: bytes) -> bytes:
    """The digest before any input (step 0)."""
    return digest(INPUTS_DOMAIN, (game,))


def after(game: bytes, step: int, previous: bytes, action: Action) -> bytes:
    """The digest once ``action`` was applied at ``step`` on top of ``previous``."""
    return digest(INPUTS_DOMAIN, (game, step, previous, action.to_data()))
