"""The networked adapter's queue of session notices, with a cap of its own.

``Session.subscribe`` tells the adapter every notice as it happens; the
adapter handles them at its next frame-rate poll. Between two polls a
hostile seat can make the session refuse many messages (each a
``Rejected`` notice), so the queue must not grow with what others send.
What a player expects decides what may go:

- kept, always: every applied input (``Applied``: one per engine step, a
  step the session keeps anyway; dropping one would lose a move from the
  log and the animation of it) and the notices that change what the table
  is (``PhaseChanged``, ``Cheat``, ``Resigned``, ``Left``, ``Finished``, and
  ``Flooding``, which the session raises at most once per seat and kind);
- capped: everything else (refused messages, stalls, misconduct, chat
  lines), at most :data:`MAX_NOTICES` waiting; beyond that the oldest such
  notice is dropped and counted, and the adapter says once how many were
  left out ("n more notices ...", catalogue key ``notices_dropped``).
"""

from __future__ import annotations

from net.session.events import Applied, Cheat, Finished, Flooding, Left, Notice, PhaseChanged, Resigned

#: Most waiting notices of the capped kinds (refusals, stalls, misconduct, chat) between two polls.
MAX_NOTICES = 256

_KEPT = (Applied, PhaseChanged, Cheat, Resigned, Left, Finished, Flooding)


class NoticeQueue:
    """Notices in arrival order; the capped kinds drop oldest-first beyond ``cap`` (counted)."""

    def __init__(self, cap: int = MAX_NOTICES) -> None:
        if cap < 1:
            raise ValueError("the notice cap must be at least 1")
        self.cap = cap
        self._items: list[Notice] = []
        self._capped = 0  # waiting notices of the capped kinds
        #: Notices dropped since the last :meth:`take`.
        self.dropped = 0

    def __len__(self) -> int:
        return len(self._items)

    def push(self, notice: Notice) -> None:
        """Queue ``notice`` (the session's subscriber callback)."""
        self._items.append(notice)
        if isinstance(notice, _KEPT):
            return
        self._capped += 1
        if self._capped > self.cap:  # drop the oldest capped notice (a scan of at most cap + kept ones)
            oldest = next(i for i, n in enumerate(self._items) if not isinstance(n, _KEPT))
            del self._items[oldest]
            self._capped -= 1
            self.dropped += 1

    def take(self) -> tuple[list[Notice], int]:
        """Every waiting notice in arrival order, and how many were dropped since the last take."""
        notices, dropped = self._items, self.dropped
        self._items, self._capped, self.dropped = [], 0, 0
        return notices, dropped
