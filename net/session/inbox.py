"""The inbox: envelopes received and verified but not consumed yet, per seat.

An envelope waits here until it is next in its seat's chain and the table
has reached its step (:mod:`net.session.pump`). The inbox owns what that
needs and nothing else: the held envelopes by (seat, seq), their size per
seat (the budget of :mod:`net.session.limits`), who relayed each one, and
other versions of a waiting envelope that are not yet judged (see
:func:`net.session.intake.keep_alternate`). Every change goes through its
methods, so the byte count always matches what is held.
"""

from __future__ import annotations

from collections.abc import Sequence

from net.envelope import Envelope


class Inbox:
    """Held-back envelopes of every seat (see the module docstring)."""

    def __init__(self, seats: Sequence[int]) -> None:
        self._held: list[dict[int, Envelope]] = [{} for _ in seats]
        self._bytes: list[int] = [0 for _ in seats]
        #: Other versions of waiting envelopes, by (seat, seq), until the waiting one is judged.
        self._alternates: dict[tuple[int, int], list[Envelope]] = {}
        self._senders: dict[tuple[int, int], str | None] = {}

    # --- reading

    def get(self, seat: int, seq: int) -> Envelope | None:
        return self._held[seat].get(seq)

    def waiting(self, seat: int) -> list[Envelope]:
        """A seat's held envelopes by sequence number."""
        held = self._held[seat]
        return [held[q] for q in sorted(held)]

    def count(self, seat: int) -> int:
        return len(self._held[seat])

    def size(self, seat: int) -> int:
        """Bytes held for ``seat``, alternates included."""
        return self._bytes[seat]

    def farthest(self, seat: int) -> int:
        """The highest held sequence number of ``seat`` (it has some)."""
        return max(self._held[seat])

    def alternates(self, seat: int, seq: int) -> list[Envelope]:
        return list(self._alternates.get((seat, seq), ()))

    # --- changing

    def hold(self, env: Envelope, sender: str | None) -> None:
        """Keep ``env`` (its seq is free here) until it is judged; remember who relayed it."""
        self._put(env)
        self._senders[(env.seat, env.seq)] = sender

    def hold_own(self, env: Envelope) -> None:
        """One of our own envelopes, just sent: it waits like any other (no relay to remember)."""
        self._put(env)

    def release(self, env: Envelope) -> str | None:
        """``env`` was judged (accepted or refused): it leaves; return who relayed it."""
        del self._held[env.seat][env.seq]
        self._bytes[env.seat] -= len(env.to_bytes())
        return self._senders.pop((env.seat, env.seq), None)

    def drop_farthest(self, seat: int) -> None:
        """Make room: forget the held envelope farthest ahead (it comes back through catch-up)."""
        last = self.farthest(seat)
        dropped = self._held[seat].pop(last)
        self._bytes[seat] -= len(dropped.to_bytes())
        self._senders.pop((seat, last), None)

    def add_alternate(self, env: Envelope, most: int) -> bool:
        """Keep another version of a waiting envelope (at most ``most`` per seq: the oldest
        goes first, a seat's genuine message comes last); True when an old one was dropped."""
        versions = self._alternates.setdefault((env.seat, env.seq), [])
        dropped = False
        if len(versions) >= most:
            self._bytes[env.seat] -= len(versions.pop(0).to_bytes())
            dropped = True
        versions.append(env)
        self._bytes[env.seat] += len(env.to_bytes())
        return dropped

    def drop_alternates(self, env: Envelope) -> list[Envelope]:
        """Forget the other versions of a judged envelope; return them."""
        others = self._alternates.pop((env.seat, env.seq), [])
        for other in others:
            self._bytes[env.seat] -= len(other.to_bytes())
        return others

    def promote_alternate(self, env: Envelope) -> None:
        """``env`` was refused: the next other version of it (if any) waits in its place."""
        others = self.drop_alternates(env)
        if others:
            nxt, rest = others[0], others[1:]
            self._put(nxt)
            if rest:
                self._alternates[(env.seat, env.seq)] = rest
                self._bytes[env.seat] += sum(len(o.to_bytes()) for o in rest)

    def swap(self, held: Envelope, alt: Envelope) -> None:
        """Let the alternate ``alt`` wait in the place of ``held`` (which becomes an alternate)."""
        key = (held.seat, held.seq)
        versions = self._alternates[key]
        versions[versions.index(alt)] = held
        self._held[held.seat][held.seq] = alt

    def _put(self, env: Envelope) -> None:
        self._held[env.seat][env.seq] = env
        self._bytes[env.seat] += len(env.to_bytes())
