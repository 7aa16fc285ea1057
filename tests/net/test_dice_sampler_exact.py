"""The face sampler (net.dice.faces_from_seed, shared by both dice protocols) has no
modulo bias, checked exactly rather than statistically.

The sampler reads ``width`` bytes of the seed's stream as a number ``x`` and keeps
it only below the largest multiple of ``sides`` that fits. Feeding it every
possible ``x`` through a stream the test controls shows that each face is hit by
exactly as many values of ``x`` as any other, that every other value is thrown
away (and the next bytes tried), and that fewer than half are thrown away. The
chi-square tests (tests/net/test_dice_statistics.py, test_dice_vrf_statistics.py)
only bound the bias; this leaves none to bound.
"""

from __future__ import annotations

from collections import Counter

import pytest

from net import dice


class _Scripted:
    """A stand-in for the seed's stream: the bytes of ``first``, then an accepted zero."""

    def __init__(self, first: int) -> None:
        self.first = first
        self.takes = 0

    def take(self, count: int) -> bytes:
        self.takes += 1
        return (self.first if self.takes == 1 else 0).to_bytes(count, "big")


@pytest.mark.parametrize("sides", [2, 3, 5, 6, 7, 10, 12, 20, 100, 129, 255, 256, 257, 1000])
def test_every_face_is_hit_by_exactly_as_many_stream_values(sides: int, monkeypatch: pytest.MonkeyPatch) -> None:
    width = ((sides - 1).bit_length() + 7) // 8
    hits: Counter[int] = Counter()
    rejected = 0
    for x in range(256**width):
        stream = _Scripted(x)
        monkeypatch.setattr(dice, "_Stream", lambda seed, stream=stream: stream)
        [face] = dice.faces_from_seed(bytes(32), (sides,))
        if stream.takes == 1:
            hits[face] += 1
        else:
            assert stream.takes == 2 and face == 1  # thrown away, and the next bytes decided
            rejected += 1
    assert set(hits) == set(range(1, sides + 1))
    assert len(set(hits.values())) == 1, f"faces of a d{sides} are not equally likely: {hits}"
    assert rejected == 256**width % sides and rejected < 256**width // 2
