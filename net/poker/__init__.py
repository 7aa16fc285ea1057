"""Mental-poker cards (Barnett-Smart ElGamal over edwards25519), sans-I/O.

Modules: ``group`` (curve arithmetic and strict decoding), ``proofs``
(Schnorr key proofs, Chaum-Pedersen share proofs), ``shuffle`` (verifiable
re-mask-and-permute), ``cards`` (card points, secret deck lists, lookup),
``sealed`` (a share encrypted to one seat), ``protocol`` (the rounds).
See docs/security-cards.md for what the scheme guarantees.
"""
