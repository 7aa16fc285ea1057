"""Watchers: keys without a seat that see a networked game and verify all of it (sans-I/O).

A watcher asks the host with a signed ``watch`` (net/peer/lobby.py); the host
answers ``watching`` with the genesis record once its own game runs, and from
then on sends the watcher every envelope its session accepted: first whatever
the watcher's signed ``pull`` says it lacks (a late watcher catches up from
the envelopes so far), then each new one as it comes (:meth:`WatchDesk.push`).
The watcher replays them through an observer session (net/session/core.py
with no seat and no identity, the same code tools.verify runs), so it checks
every signature, proof and state hash and holds no secret: it sees exactly
what any seat sees of the others' cards, the public view.

What a watcher can do to the table is bounded here: at most ``limit`` of them
(the mesh refuses more, net/transport/mesh.py ``guest_limit``), pulls and chat
lines from token buckets, nothing else it says is used (net/peer/driver.py
names it and drops it). A watcher is never a seat: it is not in the genesis
record, so no round, deadline or forfeit counts it, and no decryption share
or sealed opening is ever addressed to it (those go to seats' keys only).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from net.envelope import Genesis, game_id
from net.errors import ProtocolError
from net.games import GameEntry
from net.peer.lobby import JoinerView, LobbyError, LobbyForgery, LobbyMessage, check_from_host
from net.session import Session
from net.session.catchup import held, replies
from net.transport.keys import short_id

#: Default most watchers at one table (a host may allow fewer).
MAX_WATCHERS = 8
#: A watcher's pulls: this many at once, then one per PULL_REFILL seconds.
PULL_BURST = 10
PULL_REFILL = 0.5
#: Bytes of envelopes the host sends one watcher in answer to its pulls: this many at once, then
#: PULL_BYTES_RATE a second (a watcher pulling the whole game again and again gets no more).
PULL_BYTES = 8 * 1024 * 1024
PULL_BYTES_RATE = 512 * 1024
#: Most names of departed watchers whose ignored messages the host keeps for its result.
GONE_KEPT = 64
#: A watcher's chat lines: this many at once, then one per CHAT_REFILL seconds.
CHAT_BURST = 3
CHAT_REFILL = 5.0
#: Refusals of one kind named one by one per watcher; after that only every 100th.
REFUSALS_SHOWN = 3
#: Keys without a seat whose refusals are counted apart (beyond them, one shared count).
MAX_STRANGERS = 256


@dataclasses.dataclass
class Bucket:
    """A token bucket on the host's clock."""

    size: int
    refill: float
    tokens: float
    at: float

    def empty(self, now: float) -> bool:
        """Whether nothing at all could be taken now (checked before making an answer's bytes)."""
        self.tokens = min(float(self.size), self.tokens + max(0.0, now - self.at) / self.refill)
        self.at = now
        return self.tokens < 1.0

    def take(self, now: float, n: float = 1.0) -> bool:
        """Take ``n`` tokens if the bucket holds them (after its refill up to ``now``). A take larger
        than the whole bucket succeeds only from a full one and leaves it in debt, so one big answer
        (a late watcher's catch-up of a long game) is possible and still paid for at the refill rate."""
        self.tokens = min(float(self.size), self.tokens + max(0.0, now - self.at) / self.refill)
        self.at = now
        if self.tokens < min(n, float(self.size)):
            return False
        self.tokens -= n
        return True


@dataclasses.dataclass
class Watcher:
    """One watcher the host knows: its key, shown name, the nonce of its request, and how many
    envelopes of each seat it has been sent (None before its first pull)."""

    key: bytes
    name: str
    fresh: bytes
    pulls: Bucket
    chats: Bucket
    pulled: Bucket
    sent: tuple[int, ...] | None = None
    told: bool = False
    #: Messages of this watcher ignored so far, by what they were.
    refused: dict[str, int] = dataclasses.field(default_factory=dict)


class WatchDesk:
    """The host's list of watchers and what each may still do (see the module docstring)."""

    def __init__(self, entry: GameEntry[Any], host_key: bytes, *, limit: int = MAX_WATCHERS,
                 chat: bool = True) -> None:
        if not 1 <= limit <= 64:
            raise ValueError(f"a table allows 1 to 64 watchers, not {limit}")
        self.entry = entry
        self.host_key = host_key
        self.limit = limit
        self.chat = chat
        self.watchers: dict[bytes, Watcher] = {}
        #: Refused messages from links we know no watcher of (counted, named a few times).
        self.strangers = 0
        #: Refused messages per key without a seat that is no watcher (at most MAX_STRANGERS keys).
        self.stranger_counts: dict[bytes, int] = {}
        #: What watchers that left had sent that was ignored (kept for the result).
        self.gone_refusals: dict[str, dict[str, int]] = {}

    def names(self) -> list[str]:
        """The watchers' shown names, in arrival order (the seat list shows them as watchers)."""
        return [w.name or short_id(w.key) for w in self.watchers.values()]

    def ask(self, message: LobbyMessage, seats: Sequence[bytes], now: float, *,
            left: Sequence[bytes] = ()) -> Watcher:
        """Take a verified ``watch`` request; LobbyError (a reason to send back) or LobbyForgery.
        ``left``: the keys of seats that left the running game (net/session/leave.py)."""
        fields, key = message.fields, message.author
        if fields["to"] != self.host_key:
            raise LobbyForgery(f"a watch request from {short_id(key)} was meant for another host")
        if key in left:
            # its own peer still relays the game under this key (net/peer/driver.py step_out), and one
            # key is one link: a watch under it would take the relay's place
            raise LobbyError("you left this game, so you cannot watch it under the same key; watch it from "
                             "another profile (FAIRTABLE_PROFILE) or ask a player for its saved record to replay")
        if key in seats:
            raise LobbyError("your key holds a seat at this table; play it (a seat already sees the whole game)")
        entry = self.entry
        if fields["rules"] != entry.rules_id or fields["version"] != entry.rules_version:
            raise LobbyError(f"this table plays {entry.title} ({entry.rules_id} version {entry.rules_version}); "
                             f"choose {entry.title} and install the host's Fairtable release, then watch again")
        if fields["cards"] != entry.card_set_hash():
            raise LobbyError("your card set differs from the host's (card-set hashes differ); install the same "
                             "card set as the host")
        known = self.watchers.get(key)
        if known is not None:  # it asked again (a new link): the newest nonce counts, within its pull budget
            if not known.pulls.take(now):
                raise LobbyError("asked to watch again too often; wait a moment")
            known.fresh, known.told, known.sent = bytes(fields["fresh"]), False, None
            return known
        if len(self.watchers) >= self.limit:
            raise LobbyError(f"this table has room for {self.limit} watchers and all are taken; ask the host")
        name = str(fields["name"]).strip() or f"watcher {short_id(key)}"
        watcher = Watcher(key, name, bytes(fields["fresh"]), Bucket(PULL_BURST, PULL_REFILL, PULL_BURST, now),
                          Bucket(CHAT_BURST, CHAT_REFILL, CHAT_BURST, now),
                          Bucket(PULL_BYTES, 1.0 / PULL_BYTES_RATE, PULL_BYTES, now))
        self.watchers[key] = watcher
        return watcher

    def leave(self, key: bytes) -> Watcher | None:
        """A watcher's link is gone: forget it (it may ask again; what it sent that was
        ignored is kept for the result)."""
        watcher = self.watchers.pop(key, None)
        if watcher is not None and watcher.refused and (watcher.name in self.gone_refusals
                                                        or len(self.gone_refusals) < GONE_KEPT):
            kept = self.gone_refusals.setdefault(watcher.name, {})
            for what, n in watcher.refused.items():
                kept[what] = kept.get(what, 0) + n
        return watcher

    def pull(self, message: LobbyMessage, genesis: Genesis, now: float) -> tuple[int, ...]:
        """A verified ``pull``: what its watcher says it holds. LobbyError when it is not ours,
        for another game, malformed or over its rate (the caller names the watcher)."""
        watcher = self._of(message, genesis)
        have = tuple(int(n) for n in message["have"])
        if len(have) != len(genesis.seat_keys):
            raise LobbyError(f"a pull listing {len(have)} seats at a table of {len(genesis.seat_keys)}")
        if not watcher.pulls.take(now):
            raise LobbyError(f"more than {PULL_BURST} pulls in a row (one per {PULL_REFILL} s after that); "
                             "the extra ones are ignored")
        return have  # what it was sent moves on only once the answer fits its byte budget (the driver)

    def spent(self, key: bytes, now: float) -> bool:
        """Whether the watcher's byte budget is empty now: no answer is made for it until it refills
        (so a refused pull costs the host no encoding)."""
        watcher = self.watchers.get(key)
        return watcher is None or watcher.pulled.empty(now)

    def answer(self, key: bytes, payloads: Sequence[bytes], now: float) -> bool:
        """Whether the answer to a pull (``payloads``) fits the watcher's byte budget (spent if so)."""
        watcher = self.watchers.get(key)
        return watcher is not None and watcher.pulled.take(now, float(sum(len(p) for p in payloads)))

    def say(self, message: LobbyMessage, genesis: Genesis, now: float) -> tuple[Watcher, str]:
        """A verified watcher's chat line (who, text), or LobbyError (chat off, over its rate)."""
        watcher = self._of(message, genesis)
        if not self.chat:
            raise LobbyError("this table does not let watchers chat; the line was not shown")
        if not watcher.chats.take(now):
            raise LobbyError(f"more than {CHAT_BURST} chat lines in a row (one per {CHAT_REFILL:.0f} s after "
                             "that); the extra ones were not shown")
        text = str(message["text"]).strip()
        if not text:
            raise LobbyError("an empty chat line")
        return watcher, text

    def _of(self, message: LobbyMessage, genesis: Genesis) -> Watcher:
        watcher = self.watchers.get(message.author)
        if watcher is None or not watcher.told:
            raise LobbyError(f"a {message.kind!r} from {short_id(message.author)}, which is not watching this table")
        if message["game"] != game_id(genesis):
            raise LobbyError(f"a {message.kind!r} from watcher {watcher.name} for another game")
        return watcher

    def push(self, session: Session, now: float) -> list[tuple[bytes, list[bytes]]]:
        """For each watcher that pulled: the envelopes accepted since it was last sent some,
        as catch-up payloads (each well inside one frame), paid from the same byte budget as its
        pulls; its count moves on only when they are sent (over budget: they wait for a later push)."""
        out: list[tuple[bytes, list[bytes]]] = []
        have = held(session)
        for watcher in self.watchers.values():
            if watcher.sent is None or watcher.sent == have or watcher.pulled.empty(now):
                continue
            payloads = [o.data for o in replies(session, watcher.sent, None)]
            if payloads and not watcher.pulled.take(now, float(sum(len(p) for p in payloads))):
                continue
            watcher.sent = tuple(max(a, b) for a, b in zip(watcher.sent, have))
            if payloads:
                out.append((watcher.key, payloads))
        return out

    def refusal(self, key: bytes, what: str) -> int | None:
        """Count one refused message (``what`` it was) of ``key``: how many of that kind so far
        when it should be named, else None (a flood is named, then only counted)."""
        watcher = self.watchers.get(key)
        if watcher is None:  # a key without a seat that is no watcher: counted per key (a few hundred of them)
            self.strangers += 1
            if key not in self.stranger_counts and len(self.stranger_counts) >= MAX_STRANGERS:
                count = self.strangers  # beyond that many keys, one shared count
            else:
                count = self.stranger_counts[key] = self.stranger_counts.get(key, 0) + 1
            return count if count <= REFUSALS_SHOWN or count % 100 == 0 else None
        count = watcher.refused[what] = watcher.refused.get(what, 0) + 1
        return count if count <= REFUSALS_SHOWN or count % 100 == 0 else None

    def refusals(self) -> dict[str, dict[str, int]]:
        """Each watcher's ignored messages by kind (the host's result lists them)."""
        out = {name: dict(counts) for name, counts in self.gone_refusals.items()}
        for w in self.watchers.values():
            for what, n in w.refused.items():
                out.setdefault(w.name, {})[what] = out.get(w.name, {}).get(what, 0) + n
        return out

    def name_of(self, key: bytes) -> str:
        watcher = self.watchers.get(key)
        return f"watcher {watcher.name} ({short_id(key)})" if watcher is not None else f"peer {short_id(key)}"


def check_watching(entry: GameEntry[Any], message: LobbyMessage, view: JoinerView) -> tuple[Genesis, bool]:
    """A watcher's check of the host's ``watching``: the genesis of the game it may watch, and
    whether the table lets watchers chat. LobbyForgery when it is not the invite's host's answer
    to our own current request; LobbyError when it is for another game than we asked for."""
    check_from_host(view, message)
    if message["to"] != view.me or message["re"] != view.fresh:
        raise LobbyForgery("a watching answer meant for another watcher or an earlier request (a replay)")
    try:
        genesis = Genesis.from_data(message["genesis"])
    except ProtocolError as exc:
        raise LobbyError(f"the host sent an invalid genesis record ({exc}); the host must update Fairtable") from None
    if genesis.seat_keys[0] != message.author:
        raise LobbyForgery("a genesis record whose seat 0 is not the host that sent it")
    if genesis.rules_id != entry.rules_id or genesis.card_set_hash != entry.card_set_hash():
        raise LobbyError(f"the host plays {genesis.rules_id!r} with another card set than the {entry.name} table "
                         "you asked to watch; ask the host for a new invite")
    if view.me in genesis.seat_keys:
        raise LobbyError("your key holds a seat in this game; play it instead of watching")
    return genesis, bool(message["chat"])

