"""Online tables: a :class:`~net.peer.driver.Peer` reached through wormholes.

:class:`OnlineHost` gives each friend a code of their own (a mailbox
nameplate pairs exactly two sides, so a shared code would fail for all or
pair two joiners with each other): ``invites`` codes at once, a fresh one
whenever a code fails (typo, crowded) or expires, none once every seat is
taken. Every link of a wormhole ends in the host's mesh like a TCP link,
and the mesh forwards between joiners (a star). A table that lets people
watch (``Peer(watchers=N)``) also keeps ``watch_codes`` codes open for
watchers (net/peer/watching.py), before and after the start: each works
once, and a fresh one replaces it while the table has room for watchers.

:class:`OnlineJoin` opens the wormhole of a typed code, learns the table and
the host key from the host's offer (over the PAKE channel), and lets the
peer join that table with the mesh dialling through the wormhole.

Reconnection. While both processes live, Dilation reconnects a dropped
connection by itself and our link inside survives. When a process dies, the
other's link goes silent (our heartbeat, docs/protocol.md §8); then both
sides meet again, with nobody typing, on :func:`~net.transport.wormhole.resume_code`
for the current time window, from the secret of their first pairing kept in
each peer directory (``online`` in ``peer.ft``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import task

from net.peer import store
from net.peer.driver import Peer
from net.peer.progress import progress
from net.transport.invite import Invite
from net.transport.keys import short_id
from net.transport.mesh import DialTarget
from net.transport.messages import Address
from net.transport.wormhole import (
    Offer,
    WormholeProblem,
    WormholeSettings,
    expired,
    relay_blocked,
    resume_code,
    resume_epoch,
)
from net.transport.wormhole_glue import Pairing

#: An online invite has no address; the mesh needs one to "dial", and the
#: wormhole dialer ignores it.
NO_ADDRESS: Address = ("127.0.0.1", 9)
#: Seconds a peer's link may be down (after our heartbeat gave up on it) with
#: its wormhole not connected before we meet on the resume code.
RESUME_GRACE = 2.0
#: Seconds a paired resume wormhole may go without a connection before we open a new one.
RESUME_RETRY = 15.0
#: Seconds an unused invite code stays open.
INVITE_TTL = 600.0
#: Seconds for a paired wormhole to get a connection up before we blame the relay.
RELAY_TIMEOUT = 30.0
#: Seconds a paired wormhole may go without an authenticated link inside it (a connection
#: through the relay, then our handshake) before we close it and open a fresh code: whoever
#: paired may be a stranger holding the code, or may have crashed, and must not keep the seat
#: or the resume window (docs/security.md, "Online play through wormholes").
LINK_TIMEOUT = RELAY_TIMEOUT + 15.0
WATCH = 0.5
#: After a code fails (the mailbox unreachable, a failed transit, a wrong password), the next
#: one waits this long, doubling with each failure up to RETRY_MAX; a code someone linked through
#: resets it (a code that only opened does not: it may still fail): no storm of codes.
RETRY_FIRST = 2.0
RETRY_MAX = 60.0


def unlinked(pairing: Pairing, now: float) -> bool:
    """Paired more than :data:`LINK_TIMEOUT` seconds ago, and no link authenticated in it yet."""
    paired_at = getattr(pairing, "paired_at", None)
    return bool(pairing.paired) and paired_at is not None and getattr(pairing, "peer_key", None) is None \
        and now - paired_at > LINK_TIMEOUT


def _save_online(peer: Peer, update: Callable[[dict[str, Any]], None]) -> None:
    if peer.directory is None:
        return
    try:
        saved = store.load_peer(peer.directory)
    except store.StoreError:
        return
    online = dict(saved.get("online") or {})
    update(online)
    store.save_peer(peer.directory, {**saved, "online": online})


class OnlineHost:
    """Wormhole invites and reconnections of a hosting peer (module docstring)."""

    def __init__(self, peer: Peer, settings: WormholeSettings, *, invites: int | None = None, reinvite: bool = True,
                 invite_ttl: float = INVITE_TTL, on_code: Callable[[str], None] | None = None,
                 watch_codes: int = 0, on_watch_code: Callable[[str], None] | None = None) -> None:
        assert peer.net is not None, "host the table before inviting"
        self.peer = peer
        self.settings = settings
        #: Codes open at once while seats are free; None = one per free seat.
        self.invites = None if invites is None else max(1, invites)
        self.reinvite = reinvite
        self.invite_ttl = invite_ttl
        self.on_code = on_code or (lambda code: None)
        self.offer = Offer(peer.mesh.table, peer.identity.public_key, peer.entry.name)
        self.open: list[Pairing] = []  # invite codes not used yet
        self.by_key: dict[bytes, Pairing] = {}  # the pairing carrying each friend's link
        self.secrets: dict[bytes, bytes] = {}
        self.resuming: dict[bytes, tuple[int, Pairing]] = {}
        self.down_since: dict[bytes, float] = {}
        self.made = 0
        #: Codes kept open for watchers (0: none; only while the table lets people watch).
        self.watch_codes = watch_codes if peer.desk is not None else 0
        self.on_watch_code = on_watch_code or (lambda code: None)
        self.watch_open: list[Pairing] = []  # watch codes not used yet
        self.watch_by_key: dict[bytes, Pairing] = {}  # the pairing carrying each watcher's link
        #: Every code made, in order, with its state: waiting, joined, expired or failed (for a lobby list).
        self.states: dict[str, str] = {}
        #: The codes among them that are watch codes (a lobby lists the friends' invites apart).
        self.watch_made: list[str] = []
        self.stopped = False
        #: Failures in a row of the codes we opened, and when the next automatic one may open.
        self.failures = 0
        self.retry_at = 0.0
        self._watch = task.LoopingCall(self._check)
        self._watch.clock = peer.reactor
        peer.on_close.append(self.stop)

    def start(self) -> None:
        """Make the first codes (call after :meth:`Peer.host`)."""
        settings = self.settings
        _save_online(self.peer, lambda online: online.update(
            mailbox=settings.mailbox, relay=settings.relay, direct=settings.direct))
        self._maybe_reinvite()
        self._maybe_rewatch()
        self._watch.start(WATCH, now=False)

    def resume(self) -> None:
        """After :meth:`Peer.resume`: meet every friend again on the resume codes."""
        assert self.peer.directory is not None
        saved = store.load_peer(self.peer.directory).get("online") or {}
        for hex_key, secret in dict(saved.get("secrets") or {}).items():
            self.secrets[bytes.fromhex(hex_key)] = secret
        self._watch.start(WATCH, now=True)

    def stop(self) -> None:
        self.stopped = True
        if self._watch.running:
            self._watch.stop()
        for pairing in [*self.open, *self.by_key.values(), *(p for _, p in self.resuming.values()),
                        *self.watch_open, *self.watch_by_key.values()]:
            pairing.close()

    # ------------------------------------------------------------------ invites

    def invite(self) -> None:
        """Make one more code now ("Invite a friend"); it arrives through ``on_code``."""
        if not self.stopped and self._free_seats() > 0:
            self._new_invite()

    def _mark(self, pairing: Pairing, state: str) -> None:
        if pairing.code is not None and self.states.get(pairing.code) != "joined":
            self.states[pairing.code] = state

    def _free_seats(self) -> int:
        lobby = self.peer.host_lobby
        if lobby is None or self.peer.genesis is not None:
            return 0
        return lobby.size - len(lobby.seated)

    def _new_invite(self) -> None:
        self._open_pairing("invite", self._invite_event, self.open)

    def _open_pairing(self, what: str, on_event: Callable[[Pairing, int, str, Any], None],
                      into: list[Pairing]) -> None:
        """A fresh host-side wormhole (an invite or a watch code), numbered with the others."""
        self.made += 1
        n = self.made
        pairing = Pairing(self.peer.reactor, self.settings, "host", offer=self.offer,
                          mesh=lambda: self.peer.net.mesh if self.peer.net is not None else None,
                          label=f"{what} {n}", on_event=lambda name, value: on_event(pairing, n, name, value))
        into.append(pairing)
        pairing.start()

    def _linked(self, pairing: Pairing, key: bytes, opened: list[Pairing], by_key: dict[bytes, Pairing]) -> None:
        """A friend or watcher came through ``pairing``: it is theirs now (an older link of the same
        key is closed), and the host hears who joined."""
        if pairing in opened:
            opened.remove(pairing)
        old = by_key.get(key)
        if old is not None and old is not pairing:
            old.close()
        by_key[key] = pairing
        self.failures = 0  # a code that worked all the way: the wait after the next failure starts short
        self._mark(pairing, "joined")
        self.peer._say("online_joined", code=pairing.code, peer=short_id(key))

    def _say_link(self, pairing: Pairing, kind: Any) -> None:
        who = short_id(pairing.peer_key) if pairing.peer_key else pairing.label
        self.peer._say("online_link", who=who, kind=kind)

    def _invite_event(self, pairing: Pairing, n: int, name: str, value: Any) -> None:
        if name == "code":
            self.states[str(value)] = "waiting"
            self.peer._say("online_code", n=n, code=value)
            self.on_code(str(value))
        elif name == "failed":
            self._mark(pairing, "failed")
            self._drop(pairing, self.open)
            self.peer._say("online_problem", problem_text=f"invite {n} ({pairing.code or 'no code'}): {value}",
                           code=pairing.code, problem=getattr(value, "code", "wormhole"))
            self._failed()
            self._maybe_reinvite()
        elif name == "linked":
            key: bytes = value
            if pairing.resume_secret is not None and key not in self.secrets:
                secret = pairing.resume_secret
                self.secrets[key] = secret
                _save_online(self.peer, lambda online: online.__setitem__(
                    "secrets", {**dict(online.get("secrets") or {}), key.hex(): secret}))
            self._linked(pairing, key, self.open, self.by_key)
            self._maybe_reinvite()
        elif name == "kind":
            self._say_link(pairing, value)

    def _failed(self) -> None:
        """A code of ours failed: the next automatic one waits (RETRY_FIRST, doubling, RETRY_MAX)."""
        self.failures += 1
        delay = min(RETRY_MAX, RETRY_FIRST * 2 ** min(self.failures - 1, 16))
        self.retry_at = self.peer.reactor.seconds() + delay

    def _backing_off(self) -> bool:
        return self.failures > 0 and self.peer.reactor.seconds() < self.retry_at

    def _drop(self, pairing: Pairing, opened: list[Pairing]) -> None:
        if pairing in opened:
            opened.remove(pairing)
        pairing.close()

    def _maybe_reinvite(self) -> None:
        if self.stopped or (self.made and not self.reinvite) or self._backing_off():
            return
        free = self._free_seats() - self._pending_seats()
        wanted = 0 if free <= 0 else (free if self.invites is None else self.invites)
        while len(self.open) < wanted and not self._backing_off():
            self._new_invite()

    def _pending_seats(self) -> int:
        """Friends linked but not yet seated (their join is on its way)."""
        lobby = self.peer.host_lobby
        return sum(1 for key in self.by_key if lobby is not None and lobby.seat_of(key) is None)

    # ------------------------------------------------------------------ watch codes

    def _maybe_rewatch(self) -> None:
        """Keep ``watch_codes`` watch codes open while the table has room for more watchers."""
        desk = self.peer.desk
        if self.stopped or desk is None or self.peer.result is not None or self._backing_off() \
                or self.peer.relaying:  # we left our game: nobody watches through us
            return
        room = desk.limit - len(desk.watchers)
        while len(self.watch_open) < min(self.watch_codes, room) and not self._backing_off():
            self._new_watch_code()

    def _new_watch_code(self) -> None:
        self._open_pairing("watch", self._watch_event, self.watch_open)

    def _watch_event(self, pairing: Pairing, n: int, name: str, value: Any) -> None:
        if name == "code":
            self.states[str(value)] = "waiting"
            self.watch_made.append(str(value))
            self.peer._say("online_watch_code", n=n, code=value)
            self.on_watch_code(str(value))
        elif name == "failed":
            self._mark(pairing, "failed")
            self._drop(pairing, self.watch_open)
            self._failed()
            self._maybe_rewatch()
        elif name == "linked":
            self._linked(pairing, value, self.watch_open, self.watch_by_key)
            self._maybe_rewatch()
        elif name == "kind":
            self._say_link(pairing, value)

    def _check_watch_codes(self, now: float) -> None:
        """Watch codes outlive the start (a watcher may come mid-game); an unused one expires
        after ``invite_ttl``, one paired but never linked after LINK_TIMEOUT (then a fresh one)."""
        for pairing in list(self.watch_open):
            if self.peer.relaying:
                why = "you left the game, so nobody can watch it through you any more"
            elif not pairing.paired and now - pairing.started > self.invite_ttl:
                why = f"nobody used it within {self.invite_ttl:.0f} s"
            elif unlinked(pairing, now):
                why = f"whoever used it never completed the link within {LINK_TIMEOUT:.0f} s"
            else:
                continue
            self._mark(pairing, "expired")
            self._drop(pairing, self.watch_open)
            self.peer._say("online_withdrawn", code=pairing.code, why_text=why)
        self._maybe_rewatch()

    # ------------------------------------------------------------------ watch

    def _check(self) -> None:
        if self.stopped or self.peer.result is not None:
            return
        now = self.peer.reactor.seconds()
        self._check_watch_codes(now)
        for pairing in list(self.open):
            if self.peer.genesis is not None:
                self._mark(pairing, "expired")
                self._drop(pairing, self.open)
                self.peer._say("online_withdrawn", code=pairing.code, why_text="every seat is taken")
            elif not pairing.paired and now - pairing.started > self.invite_ttl:
                self._mark(pairing, "expired")
                self._drop(pairing, self.open)
                self.peer._say("online_withdrawn", code=pairing.code,
                               why_text=f"nobody used it within {self.invite_ttl:.0f} s")
                self._maybe_reinvite()
            elif unlinked(pairing, now):  # someone paired on the code, then never linked: the seat is free again
                self._mark(pairing, "failed")
                self._drop(pairing, self.open)
                self.peer._say("online_withdrawn", code=pairing.code,
                               why_text=f"whoever used it never completed the link within {LINK_TIMEOUT:.0f} s; "
                                        "a fresh code replaces it (give your friend the new one)")
                self._maybe_reinvite()
        if self.peer.genesis is None:
            self._maybe_reinvite()  # a free seat without a code (after a failed one, once its wait is over)
        if self.peer.genesis is None or self.peer.net is None:
            return
        mesh = self.peer.mesh
        for key in self.peer.genesis.seat_keys:
            secret = self.secrets.get(key)
            if key == self.peer.identity.public_key or secret is None:
                continue
            record = mesh.peers.get(key)
            carrying = self.by_key.get(key)
            current = self.resuming.get(key)
            link_up = record is not None and record.channel is not None
            if link_up and carrying is not None and carrying.connected:
                self.down_since.pop(key, None)
                if current is not None and current[1] is not carrying and not current[1].paired:
                    current[1].close()  # not needed after all: release its nameplate
                    self.resuming.pop(key, None)
                continue
            # our heartbeat lost the link, or Dilation lost its connection (the friend
            # may have died: Dilation cannot tell): meet on the resume code as well
            since = self.down_since.setdefault(key, now)
            if now - since < RESUME_GRACE:
                continue
            epoch = resume_epoch(now, self.settings.resume_window)
            if current is not None and not current[1].closed and (current[0] == epoch or current[1].paired) \
                    and not current[1].stuck(now, RESUME_RETRY) and not unlinked(current[1], now):
                continue
            if current is not None and unlinked(current[1], now):
                self.peer._say("online_problem", problem_text=f"the peer met on {short_id(key)}'s resume code never "
                               f"completed the link within {LINK_TIMEOUT:.0f} s (not our friend?); opening the "
                               "resume code again", code=current[1].code, problem="wrong-peer")
            if current is not None and current[1] is not carrying:
                current[1].close()
            code = resume_code(secret, self.peer.identity.public_key, key, mesh.table, epoch)
            pairing = Pairing(self.peer.reactor, self.settings, "host", code=code, offer=self.offer,
                              mesh=lambda: self.peer.net.mesh if self.peer.net is not None else None,
                              label=f"resume {short_id(key)}",
                              on_event=self._resume_handler(key))
            self.resuming[key] = (epoch, pairing)
            self.peer._say("online_resuming", who=short_id(key))
            pairing.start()

    def _resume_handler(self, key: bytes) -> Callable[[str, Any], None]:
        return lambda name, value: self._resume_event(key, name, value)

    def _resume_event(self, key: bytes, name: str, value: Any) -> None:
        entry = self.resuming.get(key)
        if entry is None:
            return
        pairing = entry[1]
        if name == "linked" and value == key:
            old = self.by_key.get(key)
            if old is not None and old is not pairing:
                old.close()
            self.by_key[key] = pairing
            self.resuming.pop(key, None)
            self.down_since.pop(key, None)
        elif name == "linked":  # another key linked on our friend's resume code: not the friend
            pairing.close()
            self.resuming.pop(key, None)  # the watch opens the next one
        elif name == "failed":
            self.resuming.pop(key, None)  # the watch opens the next one
        elif name == "kind":
            self.peer._say("online_link", who=short_id(key), kind=value)


class OnlineJoin:
    """A joining peer's wormhole to its host, and meeting again after a crash.

    ``pairing`` carries our link (the first wormhole, later a resume one);
    ``spare`` is a resume wormhole opened while the carrying one has lost its
    connection (or after our own restart), promoted once a link runs in it.
    """

    def __init__(self, peer: Peer, settings: WormholeSettings, *, connect_timeout: float = 60.0,
                 relay_timeout: float = RELAY_TIMEOUT, keep: dict[str, Any] | None = None,
                 adopt: Callable[[str], None] | None = None) -> None:
        self.peer = peer
        #: Called with the host's game (its offer names it) when the peer was made for another:
        #: it switches the peer to that game (Peer.switch_game) or raises ValueError saying why not.
        #: Without it, a code for another game is refused, naming the host's game.
        self.adopt = adopt or self._other_game
        self.keep = dict(keep or {})  # more to record in the peer directory (e.g. the identity file)
        self.settings = settings
        self.connect_timeout = connect_timeout
        self.relay_timeout = relay_timeout
        self.code: str | None = None
        self.pairing: Pairing | None = None
        self.spare: Pairing | None = None
        self.spare_epoch: int | None = None
        self.host_key: bytes | None = None
        self.table: bytes | None = None
        self.secret: bytes | None = None
        self.lost_since: float | None = None
        self.stopped = False
        self._watch = task.LoopingCall(self._check)
        self._watch.clock = peer.reactor
        peer.on_close.append(self.stop)
        peer.online_connect = self.connect

    def _other_game(self, game: str) -> None:
        raise ValueError(f"this code is for a {game} table, not {self.peer.entry.title}; join without choosing "
                         "a game to play the host's")

    def join(self, code: str) -> None:
        """Open the wormhole of ``code``; the peer joins once the host's offer arrives."""
        self.code = code
        self.peer._say("online_joining", code=code, mailbox=self.settings.mailbox)
        self.pairing = Pairing(self.peer.reactor, self.settings, "join", code=code, mesh=self._mesh,
                               label=f"code {code}", on_event=self._first_event)
        self.pairing.start()
        self._watch.start(WATCH, now=False)

    def resume(self) -> None:
        """Before :meth:`Peer.resume`: load what the first pairing left in the directory."""
        assert self.peer.directory is not None
        saved = store.load_peer(self.peer.directory)
        online = saved.get("online") or {}
        self.host_key, self.secret, self.code = online.get("host_key"), online.get("secret"), online.get("code")
        self.table = saved.get("table")
        if not isinstance(self.host_key, bytes) or not isinstance(self.secret, bytes) \
                or not isinstance(self.table, bytes):
            raise store.StoreError("this directory has no record of an online host to meet again; "
                                   "join the table again with a fresh code")
        self._watch.start(WATCH, now=False)

    def stop(self) -> None:
        self.stopped = True
        if self._watch.running:
            self._watch.stop()
        for pairing in (self.pairing, self.spare):
            if pairing is not None:
                pairing.close()

    def _mesh(self) -> Any:
        return self.peer.net.mesh if self.peer.net is not None else None

    def _first_event(self, name: str, value: Any) -> None:
        pairing = self.pairing
        if pairing is None:
            return
        if name == "offer":
            offer: Offer = value
            if offer.game != self.peer.entry.name:
                try:
                    self.adopt(offer.game)
                except ValueError as exc:
                    self.peer.leave(f"cannot join the table: {exc}", goodbye=False)
                    return
            self.host_key, self.table, self.secret = offer.host_key, offer.table, pairing.resume_secret
            from net.identity import fingerprint_of

            invite = Invite(offer.table, fingerprint_of(offer.host_key), (NO_ADDRESS,), offer.game)
            record = {**self.keep, "online": {
                "host_key": offer.host_key, "secret": pairing.resume_secret, "code": self.code,
                "mailbox": self.settings.mailbox, "relay": self.settings.relay, "direct": self.settings.direct}}
            self.peer.join(invite, connect_timeout=self.connect_timeout, listen=None,
                           where=f"wormhole code {self.code}", record=record, code=self.code)
        elif name == "kind":
            self.peer._say("online_link", who="the host", kind=value, host=True)
        elif name == "failed" and pairing is self.pairing:
            problem: WormholeProblem = value
            if self.peer.genesis is None and not pairing.ever_connected:
                self._cannot_join(problem)
            else:
                self.peer._say("online_problem", problem_text=str(problem), code=pairing.code,
                               problem=problem.code)

    # ------------------------------------------------------------------ the mesh's dialer

    def connect(self, address: Address, target: DialTarget) -> None:
        """The mesh (re)dials the host: through our wormhole while it is up, else
        on the resume code (opened here if needed)."""
        mesh = self._mesh()
        if mesh is None:
            return
        pairing = self.pairing
        lost = self.lost_since is not None and self.peer.reactor.seconds() - self.lost_since >= RESUME_GRACE
        if pairing is not None and not pairing.closed and not lost \
                and (pairing.connected or not pairing.ever_connected):
            pairing.connect(mesh, target)
            return
        if self.secret is None or self.host_key is None:
            mesh.dial_failed(target)
            return
        self._open_spare().connect(mesh, target)

    def _open_spare(self) -> Pairing:
        now = self.peer.reactor.seconds()
        epoch = resume_epoch(now, self.settings.resume_window)
        spare = self.spare
        if spare is not None and not spare.closed and (self.spare_epoch == epoch or spare.paired) \
                and not spare.stuck(now, RESUME_RETRY) and not unlinked(spare, now):
            return spare
        pending = spare.take_pending() if spare is not None else []
        if spare is not None:
            spare.close()  # a new window: a new code (the old one may hold a stale claim)
        assert self.secret is not None and self.host_key is not None and self.table is not None
        code = resume_code(self.secret, self.host_key, self.peer.identity.public_key, self.table, epoch)
        self.peer._say("online_resuming", who="the host", host=True)
        fresh = Pairing(self.peer.reactor, self.settings, "join", code=code, mesh=self._mesh, label="resume",
                        on_event=lambda name, value: self._spare_event(fresh, name, value))
        self.spare, self.spare_epoch = fresh, epoch
        fresh.start()
        for mesh, target in pending:
            fresh.connect(mesh, target)
        return fresh

    def _spare_event(self, spare: Pairing, name: str, value: Any) -> None:
        if spare is not self.spare:
            return
        if name == "offer":
            offer: Offer = value
            if offer.host_key != self.host_key or offer.table != self.table:
                spare.close()
                self.spare = None
                self.peer._say("online_problem", problem_text="the peer met on the resume code is not our "
                               "host; ignoring it", code=spare.code, problem="wrong-peer")
        elif name == "linked" and value == self.host_key:
            old, self.pairing, self.spare = self.pairing, spare, None
            self.lost_since = None
            if old is not None:
                old.close()
        elif name == "kind":
            self.peer._say("online_link", who="the host", kind=value, host=True)
        elif name == "failed":
            self.spare = None  # the watch opens the next one

    def _cannot_join(self, problem: WormholeProblem) -> None:
        """Our join's wormhole failed before any link came up: the table ends with the reason as a
        progress event (``end_join_failed`` with the problem's stable ``problem`` id), so a window
        says what went wrong with the code in its own words ("that code is not valid", not "the
        table closed"); the English line is the same as before."""
        self.peer.leave(progress("end_join_failed", problem_text=str(problem), problem=problem.code,
                                 code=self.code or ""), goodbye=False)

    def _check(self) -> None:
        if self.stopped or self.peer.result is not None:
            return
        pairing = self.pairing
        now = self.peer.reactor.seconds()
        if pairing is not None and pairing.label.startswith("code") and not pairing.ever_connected \
                and not pairing.closed:
            if not pairing.paired and now - pairing.started > self.connect_timeout:
                self._cannot_join(expired(self.code or '?', self.connect_timeout))
            elif pairing.paired and now - pairing.started > self.connect_timeout + self.relay_timeout:
                self._cannot_join(relay_blocked(self.settings.relay, self.relay_timeout))
            return
        if self.secret is None or self.peer.genesis is None:
            return
        mesh = self._mesh()
        record = mesh.peers.get(self.host_key) if mesh is not None and self.host_key else None
        link_up = record is not None and record.channel is not None
        if pairing is not None and pairing.connected and not pairing.closed and link_up:
            self.lost_since = None
            if self.spare is not None and not self.spare.paired:
                self.spare.close()  # Dilation came back by itself: release the resume nameplate
                self.spare = None
            return
        # the carrying wormhole lost its connection, or our heartbeat lost the link
        # inside it (a dead host: over the relay Dilation may go on reporting a
        # connection), or we restarted: meet on the resume code as well
        self.lost_since = self.lost_since if self.lost_since is not None else now
        if now - self.lost_since < RESUME_GRACE and pairing is not None:
            return
        had = self.spare
        spare = self._open_spare()
        if spare is not had and record is not None and record.dial is not None and mesh is not None:
            spare.connect(mesh, record.dial)


def saved_settings(peer: Peer) -> WormholeSettings | None:
    """The servers an online peer recorded in its directory (None: not an online peer)."""
    if peer.directory is None:
        return None
    online = store.load_peer(peer.directory).get("online")
    if not isinstance(online, dict):
        return None
    mailbox, relay, direct = online.get("mailbox"), online.get("relay"), online.get("direct")
    return WormholeSettings.from_env(mailbox=mailbox if isinstance(mailbox, str) else None,
                                     relay=relay if isinstance(relay, str) else None,
                                     direct=direct if isinstance(direct, bool) else None)


def resume(peer: Peer, settings: WormholeSettings | None = None) -> None:
    """``Peer.resume`` for any peer directory: an online peer also meets the others
    again on the resume codes (with ``settings``, else the servers it recorded)."""
    assert peer.directory is not None
    recorded = saved_settings(peer)
    if recorded is None:
        peer.resume()
        return
    settings = settings or recorded
    if store.load_peer(peer.directory).get("role") == "join":
        OnlineJoin(peer, settings).resume()
        peer.resume()
    else:
        peer.resume()
        OnlineHost(peer, settings).resume()


__all__ = ["INVITE_TTL", "LINK_TIMEOUT", "NO_ADDRESS", "OnlineHost", "OnlineJoin", "resume", "saved_settings"]
