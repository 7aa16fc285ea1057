"""``python -m tools.verify FILE [--json]``: check a saved game transcript offline.

Checks every signature, chain, commitment, proof, the engine replay, every
state hash and the end-of-game audit: opened deck lists, hand cards opened
with proofs, and every decision re-judged with them (Rider: no pass while a
hand card could be played) (docs/protocol.md §13). Claims about hidden
cards proven at their step are replayed too: the answer says how many were
proven at their step and how many waited for the audit (``claims:`` line;
``--json``: ``claim_protocol`` and ``claims`` with ``proven_at_step``,
``waited_for_audit`` and each proven claim's ``[log position, step]``); a
record made before issue 31 has every claim waiting. Every answer lists the
seats with their names and key fingerprints. Exit status (a script reads
the result from it):

- 0: the record checks out and its result is fully proven by it (a normal,
  audited end, or a resignation: the loser's own signed word);
- 3: the record checks out, but its result rests on a claim of silence no
  record can prove (a forfeit or an abandonment, shown as the signed claim;
  a timeout cannot be proven offline), so treat it as the claimers' word;
- 1: the record is refused, naming the first bad step and the seat
  responsible (malformed input of any kind too);
- 2: the file cannot be read.
A proof of cheating saved by a peer (``FILE.proof``: an equivocation or a
false state hash, docs/security.md "Attributable divergence") is checked
instead: exit 0 printing "proof holds: ..." naming the seat, its key and the
step, exit 1 when the file does not prove its claim.
"""

from __future__ import annotations

import argparse
import json
import sys

from net.seats import for_people
from net.transcript import TranscriptError, is_proof, load_raw
from net.verifier import Verdict, verify, verify_proof


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.verify", description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a transcript saved by tools.match --save or a peer")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    args = parser.parse_args(argv)
    try:
        raw = load_raw(args.file)
        if is_proof(raw):  # a saved proof of cheating (net/session/conviction.py writes it)
            proof = verify_proof(raw)
            print(json.dumps(proof.to_data(), sort_keys=True) if args.json else for_people(str(proof)))
            return 0 if proof.ok else 1
        verdict = verify(raw)
    except TranscriptError as exc:
        verdict = Verdict(False, None, None, "format", str(exc))
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}; check the path", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(verdict.to_data(), sort_keys=True))
    else:
        print(for_people(str(verdict)))  # the verdict's texts count seats from 0, like the record
    return EXIT_UNPROVEN if verdict.unproven else 0 if verdict.ok else 1


#: Exit status of an accepted record whose result rests on a forfeit or abandonment claim.
EXIT_UNPROVEN = 3


if __name__ == "__main__":
    raise SystemExit(main())
