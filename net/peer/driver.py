"""The Twisted-side driver of one peer: a :class:`Session` on a :class:`Mesh`.

Both halves are sans-I/O and know nothing of each other; this module is the
only place that joins them to a reactor:

- mesh payloads go to the lobby (:mod:`net.peer.lobby`) until the game
  starts, then to :meth:`Session.receive`; whatever the session returns is
  broadcast, or sent to one seat;
- the reactor clock drives :meth:`Session.tick` (deadlines, stalls) and the
  *nudge*: when the game stops moving, we ask every peer for envelopes we
  lack (after a dropped link or a restart nothing else would resend them);
- when the session waits for our seat, the agent (a bot, or later the
  client through :meth:`Peer.act`) is asked after ``delay`` seconds;
- with a directory, the genesis record and the session journal are written
  there first, so ``resume`` can restart a killed peer (:mod:`net.peer.store`);
- when every peer has every final record (``done`` from each seat), or the
  game stops on a desync or a cheat, the mesh is closed and ``on_end`` gets
  the result.
"""

from __future__ import annotations

import ipaddress
import resource
import secrets
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from twisted.internet import task

from engine.core.game import Outcome
from engine.core.inputs import SeatInput
from net.bots.base import Agent
from net.envelope import Genesis, game_id
from net.games import GameEntry, table_for
from net.identity import PROFILE_VARIABLE, Identity
from net.journal import Journal
from net.peer import lobby, store
from net.peer.bot_seats import resume_bots
from net.peer.progress import Progress, progress
from net.peer.watching import MAX_WATCHERS, WatchDesk, check_watching
from net.session.catchup import held
from net.seam import InputRefused
from net.session import (
    Abandonable,
    Cheat,
    Finished,
    Flooding,
    Left,
    Misconduct,
    Outgoing,
    Rejected,
    Resigned,
    Session,
    Stalling,
)
from net.transport.backoff import Backoff
from net.transport.invite import Invite
from net.transport.keys import key_matches, short_id
from net.transport.link import Problem
from net.transport.mesh import Mesh, PeerStatus
from net.transport.messages import LOBBY, Address
from net.transport.twisted_glue import TwistedMesh

Report = Callable[[str], None]
#: Seconds without progress before the first catch-up nudge; it doubles up to NUDGE_MAX.
NUDGE_AFTER = 1.0
NUDGE_MAX = 8.0
#: Most bytes of payloads kept for a session that does not exist yet.
EARLY_BYTES = 4 * 1024 * 1024
TICK = 0.25
#: Refused lobby messages reported one by one; after that only every 100th.
FORGERIES_SHOWN = 10
#: Seconds the host keeps a seat whose joiner's link went down before the start (a brief outage
#: keeps it; a joiner that quit or crashed frees it for someone else; one that said goodbye at once).
LOBBY_GRACE = 15.0
#: Link states in which a peer is still there (a quiet direct link included: nothing is sent in a lobby).
#: A peer that left its game relays on while the seats still playing send through it; this long
#: without a payload from any of them, it ends (they have finished, gone, or left too: a seat that
#: left after us is one our halted session never reads about), and never longer than RELAY_MAX.
RELAY_UNREACHABLE = 120.0
RELAY_MAX = 4 * 3600.0
REACHABLE = (PeerStatus.CONNECTED, PeerStatus.RELAYED, PeerStatus.STALLING)
#: What a peer that left its game tells a key without a seat (a watcher, a late player, a stranger).
RELAY_ONLY = ("this player left the game (a bot plays its seat) and only passes the other players' messages on "
              "until they finish: nobody can watch or join through it any more. Ask a player who is still "
              "in the game for its saved record to replay it")
#: Watchers' chat lines a peer keeps (Peer.watch_lines).
WATCH_LINES = 50


def join_interface(invite: Invite) -> str:
    """Where a joiner listens for direct links by default: loopback when the
    host is only on loopback (a local test table), else every interface (the
    handshake then advertises this machine's own addresses)."""
    return "127.0.0.1" if all(_is_loopback(host) for host, _ in invite.addresses) else "0.0.0.0"


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return host == "localhost"  # any other host name may be a LAN address


def peer_backoff() -> Backoff:
    """Redial quickly at first (a dropped link on a LAN), never slower than every 5 s."""
    return Backoff(initial=0.25, maximum=5.0)


class Peer:
    """One seat at a networked table (see the module docstring)."""

    def __init__(self, identity: Identity, entry: GameEntry[Any], *, reactor: Any, deck: Sequence[str] | None = None,
                 agent: Agent | None = None, delay: float = 0.0, directory: Path | None = None,
                 name: str = "", report: Report | None = None, on_end: Callable[[dict[str, Any]], None] | None = None,
                 transcript: Path | None = None, linger: float = 3.0, progress_every: int = 10,
                 session_timeout: float | None = None, claim_forfeits: bool = False,
                 on_progress: Callable[[Progress], None] | None = None,
                 net_factory: Callable[..., TwistedMesh] = TwistedMesh, watch: bool = False,
                 watchers: int = 0, watcher_chat: bool = True) -> None:
        self.identity = identity
        #: A watcher (net/peer/watching.py): joins without a seat, verifies everything, sends only chat.
        self.watch = watch
        #: The wormhole code of an online join (its progress events carry it as ``code``).
        self._where_code: str | None = None
        #: As the host: how many watchers the table lets in (0: none) and whether they may chat.
        self.watchers = watchers
        self.watcher_chat = watcher_chat
        #: As the host with watchers allowed: who watches and what each may still do.
        self.desk: WatchDesk | None = None
        #: As a watcher: whether the table lets us chat (from the host's answer).
        self.may_chat = False
        #: Watchers' chat lines this peer saw: (name, text), the newest WATCH_LINES.
        self.watch_lines: list[tuple[str, str]] = []
        #: How many watchers' chat lines this peer saw in all (a reader's mark into watch_lines).
        self.watch_count = 0
        #: The payload being handled now (a watcher's signed chat line is passed on as it came).
        self._handling: bytes | None = None
        #: Builds the mesh and its sockets (tests pass an in-memory network).
        self.net_factory = net_factory
        #: When set, only these keys may link to us (a rematch table is for the last game's players only).
        self.allowed_keys: frozenset[bytes] | None = None
        self.entry = entry
        self.reactor = reactor
        self.deck = tuple(deck) if deck is not None else None
        self.agent = agent
        self.delay = delay
        self.directory = directory
        self.name = name
        self.report: Report = report or (lambda text: None)
        #: Structured progress (stable ids, net.peer.progress) for a UI that shows its own words.
        self.on_progress: Callable[[Progress], None] = on_progress or (lambda event: None)
        self.on_end = on_end or (lambda result: None)
        self.transcript_path = transcript
        self.linger = linger
        self.progress_every = progress_every
        self.session_timeout = session_timeout
        self.claim_forfeits = claim_forfeits
        # the lobby contribution (a resumed peer has its deck in the journal and needs none)
        self.info = entry.seat_info(self.deck) if self.deck is not None or not entry.needs_deck else {}
        self.net: TwistedMesh | None = None
        self.invite: Invite | None = None
        self.host_lobby: lobby.HostLobby | None = None
        self.genesis: Genesis | None = None
        self.seat: int | None = None
        self.session: Session | None = None
        self.result: dict[str, Any] | None = None
        #: Why the table ended before or without its game, as an id and facts (progress.TEMPLATES
        #: ``end_*``); None when it ended otherwise. ``result["error"]`` holds its English line.
        self.ending: Progress | None = None
        self.stats = {"messages": 0, "bytes": 0, "received": 0, "received_bytes": 0}
        #: Payloads that came before our session existed: (origin, data, direct), at most EARLY_BYTES.
        self._early: list[tuple[bytes, bytes, bool]] = []
        self._early_bytes = 0
        self._forgeries = 0
        #: Our lobby messages, signed for this table (set with the mesh).
        self._author: lobby.Author = lobby.Author(identity, bytes(8))
        #: As a joiner: the invite's host and the fresh nonce we sent it (our part of the game id).
        self._joiner: lobby.JoinerView | None = None
        #: As a joiner before the start: the keys the host says sit at its table so far (its
        #: ``seated`` roster, seat order), or None before the first one.
        self.lobby_seated: tuple[bytes, ...] | None = None
        #: As a joiner: the size of the host's table (from its roster), or None before the first one.
        self.lobby_size: int | None = None
        #: As a joiner before the start: how long we wait without ever being seated, and when the
        #: host was last reachable (a seated joiner waits as long as the host keeps the table).
        self._connect_timeout = 30.0
        self._host_seen = 0.0
        #: As a joiner: a roster of the host's has listed us (sticky: a stale roster relayed to us
        #: later must not make us give up a seat the host keeps; a freed seat is asked for again).
        self._was_seated = False
        #: As the host before the start: when each seated joiner's link went down (freed after LOBBY_GRACE).
        self._lobby_down: dict[bytes, float] = {}
        self._events_seen = 0
        self._done: set[int] = set()
        #: We left the running game (:meth:`step_out`) and only pass the others' messages on.
        self.relaying = False
        self._relay_seen = 0.0  # when a payload from a seat of the game last reached us
        self._relay_since = 0.0  # when we left and began relaying
        self._ready: set[bytes] = set()
        self._agent_call: Any = None
        self._calls: list[Any] = []
        self._work_due = False  # a Session.work call is scheduled (_send)
        self._loop: task.LoopingCall | None = None
        self._last_sig: tuple[Any, ...] = ()
        self._last_change = 0.0
        self._nudge_wait = NUDGE_AFTER
        self._last_step_reported = -1
        self._joined = False
        self._started_wall = time.monotonic()
        self._announced_finish = False
        self._stopping = False
        self._direct: set[bytes] = set()  # keys we had a direct link with at some point
        #: After the end: Deferreds that fire once our listening ports are closed (a resume reuses them).
        self.stopping: list[Any] = []
        #: How a joiner reaches its host when not over TCP (a wormhole; net.peer.online sets it).
        self.online_connect: Callable[[Address, Any], None] | None = None
        #: Called once at the end, before ``on_end`` (net.peer.online closes its wormholes there).
        self.on_close: list[Callable[[], None]] = []
        #: As the host: the bots it seated at its table (net/peer/bot_seats.py); they leave with it.
        self.bot_seats: list[Peer] = []
        #: The registry bot this peer is, when it is a host's bot seat (net/peer/bot_seats.py).
        self.bot_kind: str | None = None
        #: Its key seed, when its host keeps it to bring the bot back (net/peer/bot_seats.py).
        self.bot_seed: bytes | None = None

    # ------------------------------------------------------------------ starting

    @property
    def mesh(self) -> Mesh:
        assert self.net is not None
        return self.net.mesh

    def _make_mesh(self, table: bytes, game: bytes | str) -> TwistedMesh:
        net = self.net_factory(self.identity, table=table, reactor=self.reactor, game=game, name=self.name,
                          on_message=self._on_message, on_status=self._on_status, on_problem=self._on_problem,
                          accept_key=self._accept_key, backoff=peer_backoff)
        net.mesh.describe_key = self._describe_key
        self._author = lobby.Author(self.identity, table)
        self.net = net
        return net

    def _listen_or_close(self, net: TwistedMesh, port: int, interface: str) -> Address:
        """Listen on ``interface:port``; if that fails (the port is taken, say), close the mesh
        just made, so its ping timer does not keep a peer that never started alive."""
        try:
            return net.listen_tcp(port, interface)
        except BaseException:
            net.stop()
            self.net = None
            raise

    def host(self, seats: int, *, interface: str = "127.0.0.1", port: int = 0,
             advertise: Sequence[Address] = (), table: bytes | None = None) -> Invite:
        """Open a table and take seat 0; returns the invite for the others."""
        self._check_fresh_directory()
        self.host_lobby = lobby.HostLobby(self.entry, seats, self.identity.public_key, self.info, self.name)
        net = self._make_mesh(table or secrets.token_bytes(8), LOBBY)
        self._open_desk(net)
        bound = self._listen_or_close(net, port, interface)
        addresses = tuple(advertise) or (bound,)
        self.invite = Invite(net.mesh.table, self.identity.fingerprint, addresses, self.entry.name)
        self._remember_peer({"role": "host", "listen": list(bound), "table": net.mesh.table,
                             "watchers": self.watchers, "watcher_chat": self.watcher_chat})
        self._start_loop()
        self._say("hosting", game=self.entry.name, seats=seats, host=bound[0], port=bound[1],
                  key=self.identity.fingerprint, waiting=seats - 1)
        if seats == 1:
            self._start_game()
        return self.invite

    def switch_game(self, entry: GameEntry[Any], *, deck: Sequence[str] | None, agent: Agent | None) -> None:
        """Play ``entry``'s game instead, with this seat's ``deck`` and ``agent`` for it: an online
        code names its game only once it pairs (net/peer/online.py), after this peer was made.
        Only before any table: RuntimeError once hosting or joining."""
        if self.invite is not None or self.host_lobby is not None or self.genesis is not None:
            raise RuntimeError("a peer changes its game only before it hosts or joins a table")
        self.entry = entry
        self.deck = tuple(deck) if deck is not None else None
        self.agent = agent
        self.info = entry.seat_info(self.deck) if self.deck is not None or not entry.needs_deck else {}

    def join(self, invite: Invite, *, connect_timeout: float = 30.0, listen: str | None = None,
             port: int = 0, where: str | None = None, record: dict[str, Any] | None = None,
             code: str | None = None) -> None:
        """Dial the invite's host, ask for a seat, and play once the game starts.

        With ``listen`` (an interface; :func:`join_interface` picks one that
        suits the invite) we also accept connections on ``listen:port`` and
        say so in the handshake, so the other joiners dial us and messages
        between joiners go over direct links instead of through the host.
        Without it everything we exchange with the other joiners is relayed
        by the host (docs/protocol.md §7). With :attr:`online_connect` set
        (:mod:`net.peer.online`) the host is reached through a wormhole instead
        of the invite's address; ``where`` then says how for progress lines and
        ``record`` is kept in the peer directory for a resume.
        """
        self._check_fresh_directory()
        self.invite = invite
        if key_matches(self.identity.public_key, invite.fingerprint):
            self._end(progress("end_own_table", key=self.identity.fingerprint,
                               command=f"{PROFILE_VARIABLE}=2 fairtable"))
            return
        self._joiner = lobby.JoinerView(invite.fingerprint, self.identity.public_key,
                                        secrets.token_bytes(lobby.NONCE_SIZE))
        net = self._make_mesh(invite.table, LOBBY)
        bound = self._listen_or_close(net, port, listen) if listen is not None else None
        self._remember_peer({"role": "join", "invite": invite.encode(), "table": invite.table,
                             **({"listen": [listen, bound[1]]} if bound is not None else {}), **(record or {})})
        if self.online_connect is not None:
            net.mesh.connect = self.online_connect
        net.mesh.join(invite.addresses, invite.fingerprint)
        where = where or ", ".join(f"{h}:{p}" for h, p in invite.addresses)
        self._where_code = code  # an online join: a window words "where" as the code, in its language
        if bound is not None:
            self._say("joining_listen", where=where, key=invite.fingerprint, host=bound[0], port=bound[1],
                      **self._code_field())
        else:
            self._say("joining", where=where, key=invite.fingerprint, **self._code_field())
        self._start_loop()
        self._connect_timeout = connect_timeout
        self._host_seen = self.reactor.seconds()
        self._later(connect_timeout, self._join_timeout, where)

    def resume(self) -> None:
        """Restart from our directory: genesis, journal, then catch up from any peer."""
        assert self.directory is not None
        saved = store.load_peer(self.directory)
        if saved.get("left"):
            raise store.StoreError("this seat left that game for good (the others played on without it); it cannot "
                                   "be resumed: start or join a new table")
        genesis, seat = store.load_genesis(self.directory)
        if genesis.seat_keys[seat] != self.identity.public_key:
            raise store.StoreError("this identity does not hold the seat recorded in the directory; pass "
                                   "the identity key the game was started with")
        table = saved["table"]
        net = self._make_mesh(table, game_id(genesis))
        if saved["role"] == "host":
            # the watchers the table was opened with (a directory saved before they were kept: none)
            self.watchers = int(saved.get("watchers", 0) or 0)
            self.watcher_chat = bool(saved.get("watcher_chat", True))
            self._open_desk(net)
            host, port = saved["listen"]
            net.listen_tcp(int(port), str(host))
        else:
            from net.transport.invite import parse_invite

            self.invite = parse_invite(saved["invite"])
            listen = saved.get("listen")
            if isinstance(listen, list) and len(listen) == 2:
                try:  # the same port if it is still free (others may know it), else any
                    net.listen_tcp(int(listen[1]), str(listen[0]))
                except OSError:
                    net.listen_tcp(0, str(listen[0]))
            if self.online_connect is not None:
                net.mesh.connect = self.online_connect
            net.mesh.join(self.invite.addresses, self.invite.fingerprint)
        self._start_loop()
        self._begin(genesis, seat, resumed=True)
        if saved["role"] == "host":
            resume_bots(self)  # its bots went with it (they run in its process): back they come

    def _open_desk(self, net: TwistedMesh) -> None:
        """As the host of a table that lets people watch: the watchers' desk, and room for them
        among the mesh's links."""
        if self.watchers > 0:
            self.desk = WatchDesk(self.entry, self.identity.public_key, limit=min(self.watchers, MAX_WATCHERS),
                                  chat=self.watcher_chat)
            net.mesh.guest_limit = self.desk.limit

    def _say(self, event_id: str, **fields: Any) -> None:
        """Report progress: the English line to ``report``, the event to ``on_progress``."""
        event = progress(event_id, **fields)
        self.report(event.text)
        self.on_progress(event)

    def _check_fresh_directory(self) -> None:
        """A new table needs a directory that holds no other game: a started game's journal keeps
        its card key, dice key and deck list, which a new game must not take over (it would reuse
        keys across games and ignore the deck chosen now). StoreError, saying what to do."""
        if self.directory is not None and (self.directory / store.GENESIS_FILE).exists():
            raise store.StoreError(f"{self.directory} holds the journal of a game already started; resume that game "
                                   f"(python -m tools.peer resume {self.directory}) or give an empty folder for a "
                                   "new one")

    def _remember_peer(self, info: dict[str, Any]) -> None:
        if self.directory is not None:
            store.save_peer(self.directory, {**info, "game": self.entry.name, "name": self.name})

    def _start_loop(self) -> None:
        self._loop = task.LoopingCall(self._on_tick)
        self._loop.clock = self.reactor
        self._loop.start(TICK, now=False)

    def _later(self, delay: float, fn: Callable[..., Any], *args: Any) -> None:
        self._calls = [c for c in self._calls if c.active()]  # only the calls still to come (a game makes many)
        self._calls.append(self.reactor.callLater(delay, fn, *args))

    # ------------------------------------------------------------------ lobby

    def _accept_key(self, key: bytes) -> str | None:
        if self.relaying and self.genesis is not None and key not in self.genesis.seat_keys:
            return RELAY_ONLY  # we left: no watcher, no late player, no stranger (only the seats' messages)
        if self.allowed_keys is not None and key not in self.allowed_keys:
            return "this table is kept for the players of the last game; ask the host for a new table"
        if self.genesis is not None:
            if key in self.genesis.seat_keys or self.desk is not None:  # the mesh counts the watchers
                return None
            return "this game is already running and your key holds no seat in it; ask for a new table"
        if self.host_lobby is not None and self.host_lobby.full and self.host_lobby.seat_of(key) is None \
                and self.desk is None:
            return "the table is full; ask the host for a new table"
        return None

    def _on_status(self, key: bytes, status: PeerStatus) -> None:
        seat = self.genesis.seat_keys.index(key) if self.genesis is not None and key in self.genesis.seat_keys \
            else None
        if seat is None:
            self._say("link", peer=short_id(key), status=status.value)
        else:
            self._say("link_seat", peer=short_id(key), seat=seat, status=status.value)
        if status is PeerStatus.CONNECTED:
            self._direct.add(key)
        if self.relaying and status is PeerStatus.LEFT:
            self._maybe_leave()
        self._lobby_link(key, status)
        if self.desk is not None and status in (PeerStatus.LEFT, PeerStatus.RECONNECTING) \
                and key in self.desk.watchers:
            self._say("watcher_out", who=self.desk.name_of(key), **self._watcher_name(key))
            self.desk.leave(key)
        if self.watch and self.genesis is not None and self.result is None and status is PeerStatus.LEFT \
                and key == self.genesis.seat_keys[0] and not (self.session is not None and self.session.finished):
            self._end(progress("end_host_left", step=self.session.step if self.session is not None else 0))
            return
        if self._joiner is not None and self.genesis is None and self.result is None \
                and key_matches(key, self._joiner.host_fingerprint):
            if status in REACHABLE:
                self._host_seen = self.reactor.seconds()
            elif status is PeerStatus.LEFT:  # the host said goodbye: the table is closed, not just out of reach
                self._end(progress("end_host_closed"))
                return
            elif self._seated_here():
                self._say("host_lost")
        if status is not PeerStatus.CONNECTED:
            return
        if self.watch and self._joiner is not None and key_matches(key, self._joiner.host_fingerprint):
            self.mesh.send_to(key, self._author.watch(self.entry, self.name, host=key, fresh=self._joiner.fresh),
                              lobby=True)
            if self.session is None:
                self._say("watch_asked")
        elif self.genesis is None and self._joiner is not None and key_matches(key, self._joiner.host_fingerprint):
            self.mesh.send_to(key, self._author.join(self.entry, self.info, self.name, host=key,
                                                     fresh=self._joiner.fresh))
        elif self.session is not None and not self.session.finished:
            self._nudge()  # back after an outage: ask for what we missed

    def _on_problem(self, problem: Problem) -> None:
        error = self.net.mesh.join_error if self.net is not None else None
        if error is not None and self.session is None:
            self._end(progress("end_join_failed", problem_text=str(error)))

    def _seated_here(self) -> bool:
        """As a joiner before the start: a roster of the host's has listed us (we hold a seat)."""
        return self._was_seated

    def _host_reachable(self) -> bool:
        assert self._joiner is not None
        return any(key_matches(key, self._joiner.host_fingerprint) and record.status in REACHABLE
                   for key, record in self.mesh.peers.items())

    def _join_timeout(self, where: str) -> None:
        """A joiner that was never seated gives up after ``connect_timeout``; a seated one waits
        as long as the host keeps the table open, and gives up only when the host has been out
        of reach for that long (checked again every ``connect_timeout``)."""
        if self.genesis is not None or self.result is not None:
            return
        now = self.reactor.seconds()
        if self._seated_here():
            if self._host_reachable():
                self._host_seen = now
            if now - self._host_seen < self._connect_timeout:
                self._later(self._connect_timeout, self._join_timeout, where)
                return
            self._end(progress("end_host_gone", where=where, seconds=round(self._connect_timeout),
                               **self._code_field()))
            return
        self._end(progress("end_not_watching" if self.watch else "end_not_seated", where=where,
                           **self._code_field()))

    def _watcher_name(self, key: bytes) -> dict[str, str]:
        """``name``: the name a watcher gave itself (a window shows it as a name, not as the English
        ``who`` with its key)."""
        watcher = self.desk.watchers.get(key) if self.desk is not None else None
        return {"name": watcher.name} if watcher is not None else {}

    def _code_field(self) -> dict[str, str]:
        """``code``: the wormhole code an online join dialled (its ``where`` is that code in English)."""
        return {"code": self._where_code} if self._where_code else {}

    def _lobby_link(self, key: bytes, status: PeerStatus) -> None:
        """The host before the start: a seated joiner whose link is gone for LOBBY_GRACE seconds
        (or that said goodbye) leaves, and its seat is free for someone else."""
        if self.result is not None or self.host_lobby is None or self.genesis is not None \
                or not self.host_lobby.seat_of(key):
            return  # over (our own links closing), no lobby, or not a joiner's seat
        if status in REACHABLE:
            was_down = self._lobby_down.pop(key, None) is not None
            if was_down and status is not PeerStatus.CONNECTED:
                # back through another seat: the same process, its nonce unchanged (a new link
                # of its own brings a new join request, which starts the table, see _on_lobby)
                self._start_when_ready()
            return
        if key not in self._lobby_down:
            self._lobby_down[key] = self.reactor.seconds()
            self._later(0.0 if status is PeerStatus.LEFT else LOBBY_GRACE, self._free_seat, key)

    def lobby_down(self) -> list[str]:
        """As the host before the start: the names of seated joiners whose link is down (a full
        table's start waits for them, _start_when_ready); [] otherwise."""
        if self.host_lobby is None or self.genesis is not None:
            return []
        return [s.name or short_id(s.key) for s in self.host_lobby.seated if s.key in self._lobby_down]

    def _start_when_ready(self) -> None:
        """The host before the start, after a seat was taken or a seated joiner came back: start
        the game once every seat is taken and every seated joiner is reachable; else tell every
        joiner who sits so far (a rematch's joiner shows who is back). A full table whose joiner's
        link is down waits for it to come back, or for its seat to be freed (LOBBY_GRACE): a game
        started without it would wait for its signature for ever."""
        lobby_ = self.host_lobby
        if lobby_ is None or self.genesis is not None or self.result is not None:
            return
        down = self.lobby_down()
        if lobby_.full and not down:
            self._start_game()
            return
        if lobby_.full:
            self._say("start_held", who=", ".join(down), seconds=round(LOBBY_GRACE))
        self.mesh.broadcast(self._author.seated([s.key for s in lobby_.seated], lobby_.size))

    def _free_seat(self, key: bytes) -> None:
        lobby_ = self.host_lobby
        down = self._lobby_down.get(key)
        if lobby_ is None or self.genesis is not None or down is None:
            return
        record = self.mesh.peers.get(key)
        if record is not None and record.status in REACHABLE:
            self._lobby_down.pop(key, None)
            return
        name = next((s.name for s in lobby_.seated if s.key == key), "")
        seat = lobby_.leave(key)
        self._lobby_down.pop(key, None)
        if seat is None:
            return
        self._say("seat_freed", who=name or short_id(key), seat=seat, waiting=lobby_.size - len(lobby_.seated))
        self.mesh.broadcast(self._author.seated([s.key for s in lobby_.seated], lobby_.size))

    def _on_lobby(self, message: lobby.LobbyMessage) -> None:
        """A lobby message whose signature verified: act on it if its author may say it here.

        Nothing here looks at the mesh's ``origin`` (a hint nobody signs): each
        check is against the message's proven author (net.peer.lobby).
        """
        kind, author = message.kind, message.author
        if self._on_watch_lobby(message):
            return
        if kind in ("start", "go", "refuse", "seated"):  # the host's words, whatever our state
            if self._joiner is None:
                raise lobby.LobbyForgery(f"a {kind!r} signed by {short_id(author)}, but only the host sends "
                                         "that and we are the host")
            lobby.check_from_host(self._joiner, message)
        if kind == "join" and self.host_lobby is not None:
            record = self.mesh.peers.get(author)
            if record is None or record.channel is None:
                raise lobby.LobbyForgery(f"a join request by {short_id(author)} reached us only relayed; a "
                                         "joiner must ask over its own link to the host")
            try:
                seat = self.host_lobby.join(author, message)
            except lobby.LobbyForgery:
                raise
            except lobby.LobbyError as exc:
                self._say("refused", peer=short_id(author), reason_text=str(exc))
                self.mesh.send_to(author, self._author.refuse(str(exc), to=author, re=message["fresh"]))
                return
            if self.genesis is not None:
                self.mesh.send_to(author, self._author.start(self.genesis))  # it reconnected
                return
            who = message.get("name") or short_id(author)
            self._say("seat_taken", who=who, seat=seat, size=self.host_lobby.size)
            self._start_when_ready()
        elif kind == "start" and self.genesis is None and self._joiner is not None:
            try:
                genesis, seat = lobby.check_start(self.entry, message, self._joiner, self.info)
            except lobby.LobbyForgery:
                raise
            except lobby.LobbyError as exc:
                self._end(progress("end_cannot_play", problem_text=str(exc)))
                return
            self.genesis, self.seat = genesis, seat
            self.mesh.restrict_to(genesis.seat_keys)
            if self.directory is not None:
                store.save_genesis(self.directory, genesis, seat)
            gid = game_id(genesis)
            self.mesh.send_to(author, self._author.ready(gid, host=author))  # still tagged for the lobby
            self.mesh.set_game(gid)
            self._say("seated", seat=seat, game=gid.hex()[:16])
        elif kind == "ready" and self.host_lobby is not None and self.genesis is not None:
            self.host_lobby.check_ready(message)
            if self.session is not None:
                self.mesh.send_to(author, self._author.go(game_id(self.genesis)))  # a late repeat
                return
            self._ready.add(author)
            if len(self._ready) == len(self.genesis.seat_keys) - 1:
                self.mesh.set_game(game_id(self.genesis))
                self.mesh.broadcast(self._author.go(game_id(self.genesis)))
                self._begin(self.genesis, 0, resumed=False)
        elif kind == "go" and self.session is None and self.genesis is not None and self.seat is not None \
                and self._joiner is not None:
            lobby.check_go(self.genesis, message)
            self._begin(self.genesis, self.seat, resumed=False)
        elif kind == "seated" and self.genesis is None and self._joiner is not None:
            self.lobby_seated, self.lobby_size = lobby.check_seated(self._joiner, message)
            self._was_seated = self._was_seated or self.identity.public_key in self.lobby_seated
            self._host_seen = self.reactor.seconds()
            taken = len(self.lobby_seated)
            if taken < self.lobby_size:
                self._say("table_roster", taken=taken, size=self.lobby_size, waiting=self.lobby_size - taken)
            else:  # the host holds the start for a seated player whose link is down (_start_when_ready)
                self._say("table_full_held", size=self.lobby_size)
        elif kind == "refuse" and self.session is None and self._joiner is not None:
            reason = lobby.check_refuse(self._joiner, message)
            self._end(progress("end_refused", reason_text=reason))
        elif kind == "nudge" and self.session is not None and self.genesis is not None:
            # signed by its seat; answered only when the author's own link brought it (net.session.catchup)
            self._feed(author, lobby.check_nudge(self.genesis, message), direct=self.mesh.delivering_via == author)
        elif kind == "done" and self.genesis is not None:
            self._done.add(lobby.check_done(self.genesis, message))
            self._maybe_leave()

    # ------------------------------------------------------------------ watchers (net/peer/watching.py)

    def _from_watcher(self) -> bytes | None:
        """Once the game's seats are fixed: the key without a seat (a watcher, or a stranger still
        linked from the lobby) whose own link delivers the payload now (the mesh delivers a guest's
        payloads only as from its link), else None."""
        via = self.mesh.delivering_via
        return via if via is not None and self.mesh.is_guest(via) else None

    def _on_watch_lobby(self, message: lobby.LobbyMessage) -> bool:
        """A lobby message that watching concerns; True when it was handled here. A watcher's
        link may bring only ``watch``, ``pull`` and ``wchat``; anything else from it (a join, a
        ready, a nudge or a done in a seat's name) is refused and the watcher named."""
        kind, author = message.kind, message.author
        watcher = self._from_watcher()
        if watcher is not None and kind == "join" and author == watcher and self.genesis is not None \
                and self._hosting() and self.desk is not None and author not in self.desk.watchers:
            # someone who wants to play, let in as a guest because this table lets people watch: tell it why
            # no seat is left (else it waits for one until its join times out), and what it can do instead
            if self.desk.refusal(author, "a join") is None:
                return True  # a flood of joins: answered and named a few times, then only counted
            reason = (f"this game has already started and its {len(self.genesis.seat_keys)} seats are taken; "
                      "you can watch it instead (Watch, with the same code), or ask the host for a new table")
            self._say("refused", peer=short_id(author), reason_text=reason)
            self.mesh.send_to(author, self._author.refuse(reason, to=author, re=message["fresh"]), lobby=True)
            return True
        if watcher is not None and kind not in ("watch", "pull", "wchat"):
            self._watcher_refused(watcher, f"a {kind!r} message", "a watcher holds no seat and may only watch "
                                  "and chat; nothing it says changes the game")
            return True
        if kind == "watch":
            self._watch_asked(message)
            return True
        if kind == "pull":
            if self.desk is None or self.session is None or self.genesis is None or watcher != author:
                if watcher is not None:
                    self._watcher_refused(watcher, "a pull", "it came before its watching answer or for "
                                          "another watcher")
                return True
            try:
                have = self.desk.pull(message, self.genesis, self.reactor.seconds())
            except lobby.LobbyError as exc:
                self._watcher_refused(author, "a pull", str(exc))
                return True
            from net.session.catchup import replies

            now = self.reactor.seconds()
            if self.desk.spent(author, now) or not self.desk.answer(
                    author, payloads := [out.data for out in replies(self.session, have, None)], now):
                self._watcher_refused(author, "a pull", "it asked for more bytes than its budget allows now; it may "
                                      "pull again in a while")
                return True
            for data in payloads:
                self.mesh.send_to(author, data)
            self.desk.watchers[author].sent = held(self.session)
            return True
        if kind == "wchat":
            self._watch_chat(message, watcher)
            return True
        if kind == "watching":
            if self.watch and self._joiner is not None:
                self._watching(message)
            return True
        if self.watch and kind in ("start", "go", "ready", "done", "nudge"):
            return True  # the seats' business, broadcast before the host knew we watch
        if self.watch and kind == "seated" and self._joiner is not None:
            lobby.check_seated(self._joiner, message)
            self._was_seated = True  # the host keeps our request until its game starts
            self._host_seen = self.reactor.seconds()
            return True
        return False

    def _hosting(self) -> bool:
        """We host this table: we have its lobby, or once the game runs we hold seat 0 (a host
        resumed from its directory has no lobby, and must answer watchers and late players alike)."""
        return self.host_lobby is not None or (self.genesis is not None and self.seat == 0 and not self.watch)

    def _watch_asked(self, message: lobby.LobbyMessage) -> None:
        """As the host: someone asks to watch (over its own link only)."""
        author = message.author
        hosting = self._hosting()
        if self.desk is None or not hosting:
            if hosting:
                self.mesh.send_to(author, self._author.refuse("this table does not allow watchers; ask the host",
                                                              to=author, re=message["fresh"]), lobby=True)
            return
        record = self.mesh.peers.get(author)
        if record is None or record.channel is None or self.mesh.delivering_via != author:
            raise lobby.LobbyForgery(f"a watch request by {short_id(author)} reached us only relayed; a watcher "
                                     "must ask over its own link to the host")
        left: tuple[bytes, ...] = ()
        if self.genesis is not None:
            seats = self.genesis.seat_keys
            if self.session is not None:
                left = tuple(seats[x] for x in sorted(self.session.left))
        else:
            assert self.host_lobby is not None
            seats = tuple(s.key for s in self.host_lobby.seated)
        try:
            self.desk.ask(message, seats, self.reactor.seconds(), left=left)
        except lobby.LobbyForgery:
            raise
        except lobby.LobbyError as exc:
            self._say("refused", peer=short_id(author), reason_text=str(exc))
            self.mesh.send_to(author, self._author.refuse(str(exc), to=author, re=message["fresh"]), lobby=True)
            return
        self._say("watcher_in", who=self.desk.name_of(author), **self._watcher_name(author))
        if self.session is not None:
            self._tell_watchers()
        elif self.host_lobby is not None:
            self.mesh.send_to(author, self._author.seated([s.key for s in self.host_lobby.seated],
                                                          self.host_lobby.size), lobby=True)

    def _tell_watchers(self) -> None:
        """As the host once our game runs: give each watcher not told yet the genesis record."""
        if self.desk is None or self.genesis is None or self.session is None:
            return
        for watcher in self.desk.watchers.values():
            if not watcher.told:
                watcher.told = True
                self.mesh.send_to(watcher.key, self._author.watching(self.genesis, to=watcher.key, re=watcher.fresh,
                                                                     chat=self.desk.chat), lobby=True)

    def _push_watchers(self) -> None:
        """As the host: every envelope accepted since, to each watcher that pulled."""
        if self.desk is None or self.session is None or not self.desk.watchers:
            return
        for key, payloads in self.desk.push(self.session, self.reactor.seconds()):
            for data in payloads:
                self.mesh.send_to(key, data)

    def _watching(self, message: lobby.LobbyMessage) -> None:
        """As a watcher: the host lets us watch; start (or, after a new link, go on) watching."""
        assert self._joiner is not None
        try:
            genesis, chat = check_watching(self.entry, message, self._joiner)
        except lobby.LobbyForgery:
            raise
        except lobby.LobbyError as exc:
            self._end(progress("end_cannot_play", problem_text=str(exc)))
            return
        if self.genesis is not None and game_id(genesis) != game_id(self.genesis):
            raise lobby.LobbyForgery("a watching answer for another game than the one we watch")
        self.may_chat = chat
        if self.session is None:
            self._begin_watching(genesis)
        self._nudge()

    def _begin_watching(self, genesis: Genesis) -> None:
        """An observer session (no seat, no identity, no secrets) for the game we watch."""
        self.genesis = genesis
        gid = game_id(genesis)
        self.mesh.set_game(gid)  # the host's game frames are ours now
        table = table_for(genesis)
        self.session = Session(genesis, table.game, table.state, plan=table.plan, now=self.reactor.seconds(),
                               timeout=self.session_timeout)
        names = ", ".join(f"{n} (seat {i})" for i, n in enumerate(self.session.names))  # counted from 1 when shown
        self._say("watching", game=gid.hex()[:16], names_text=names, names=list(self.session.names))
        early, self._early, self._early_bytes = self._early, [], 0
        for origin, data, direct in early:
            self._feed(origin, data, direct=direct)
        self._after()

    def _watch_chat(self, message: lobby.LobbyMessage, watcher: bytes | None) -> None:
        """A watcher's chat line: the host checks and shows it and passes the signed line on to
        the seats and the other watchers; they take it only from the host's own link."""
        author = message.author
        if self.desk is not None and self.genesis is not None and watcher is not None:
            if watcher != author:
                self._watcher_refused(watcher, "a chat line", "signed by another key than the watcher's own")
                return
            try:
                who, text = self.desk.say(message, self.genesis, self.reactor.seconds())
            except lobby.LobbyError as exc:
                self._watcher_refused(author, "a chat line", str(exc))
                return
            self._heard(who.name, text)
            data = self._author_bytes(message)
            self.mesh.broadcast(data)
            for other in self.desk.watchers.values():
                if other.key != author and other.told:
                    self.mesh.send_to(other.key, data)
            return
        genesis = self.genesis
        if genesis is None or self.desk is not None or author in genesis.seat_keys \
                or self.mesh.delivering_via != genesis.seat_keys[0] or message["game"] != game_id(genesis):
            raise lobby.LobbyForgery(f"a watcher's chat line by {short_id(author)} that did not come from the host's "
                                     "own link, or for another game")
        self._heard(f"watcher {short_id(author)}", str(message["text"]))

    def _heard(self, who: str, text: str) -> None:
        self.watch_lines = [*self.watch_lines, (who, text)][-WATCH_LINES:]
        self.watch_count += 1
        self._say("watch_chat", who=who, line=text)

    def _author_bytes(self, message: lobby.LobbyMessage) -> bytes:
        """The signed bytes of a lobby message being handled now (kept by _on_message)."""
        assert self._handling is not None
        return self._handling

    def _watcher_refused(self, key: bytes, what: str, why: str) -> None:
        """Name a watcher whose message was ignored (each watcher's first few, then every 100th)."""
        if self.desk is None:  # not the host: a key without a seat still linked to us from the lobby
            self._lobby_rejected(key, lobby.LobbyForgery(f"{what} from {short_id(key)}, which holds no seat ({why})"))
            return
        count = self.desk.refusal(key, what)
        if count is not None:
            self._say("watch_refused", what=what, who=self.desk.name_of(key),
                      why_text=why + (f" ({count} so far)" if count > 3 else ""))

    def watch_chat(self, text: str) -> None:
        """As a watcher: send a chat line to the table (the host shows it and passes it on);
        ValueError, saying why, when the table does not let watchers chat or nothing runs."""
        if not self.watch or self.genesis is None or self.result is not None:
            raise ValueError("there is no table to talk to yet; wait until the game starts")
        if not self.may_chat:
            raise ValueError("this table does not let watchers chat")
        line = text.strip()[:lobby.MAX_WATCH_CHAT]
        if not line:
            raise ValueError("a chat line needs some text")
        self.mesh.send_to(self.genesis.seat_keys[0], self._author.wchat(game_id(self.genesis), line))
        self._heard(self.name or "me", line)

    def _lobby_rejected(self, origin: bytes, error: lobby.LobbyError) -> None:
        """Say who passed us a lobby message we refused, without letting a flood flood the log."""
        self._forgeries += 1
        if self._forgeries <= FORGERIES_SHOWN or self._forgeries % 100 == 0:
            count = f" ({self._forgeries} so far)" if self._forgeries > FORGERIES_SHOWN else ""
            self._say("rejected", event_text=f"ignored a lobby message (relayed as from {self._describe_peer(origin)}, "
                                             f"which nobody signs): {error}{count}")

    def _start_game(self) -> None:
        assert self.host_lobby is not None
        genesis = self.host_lobby.make_genesis()
        self.genesis, self.seat = genesis, 0
        self.mesh.restrict_to(genesis.seat_keys)
        if self.directory is not None:
            store.save_genesis(self.directory, genesis, 0)
        self._say("starting", game=game_id(genesis).hex()[:16])
        if len(genesis.seat_keys) == 1:
            self._begin(genesis, 0, resumed=False)
            return
        self.mesh.broadcast(self._author.start(genesis))  # tagged for the lobby: joiners still expect that

    # ------------------------------------------------------------------ the session

    def _begin(self, genesis: Genesis, seat: int, *, resumed: bool) -> None:
        self.genesis, self.seat = genesis, seat
        gid = game_id(genesis)
        journal = None
        if self.directory is not None:
            if resumed is False:
                store.save_genesis(self.directory, genesis, seat)
            journal = Journal(store.journal_dir(self.directory))
        self.mesh.set_game(gid)
        self.mesh.restrict_to(genesis.seat_keys)
        table = table_for(genesis)
        self.session = Session(genesis, table.game, table.state, plan=table.plan, identity=self.identity,
                               seat=seat, deck=self.deck, journal=journal, now=self.reactor.seconds(),
                               timeout=self.session_timeout)
        self.session.driver_calls_work = True  # _send schedules _work
        names = ", ".join(f"{n} (seat {i})" for i, n in enumerate(self.session.names))
        self._say("resuming" if resumed else "playing", game=gid.hex()[:16], seat=seat, names_text=names,
                  names=list(self.session.names))
        self._send(self.session.start())  # after a restart: our envelopes again, our leave among them
        if resumed and seat in self.session.left:
            # we left before the restart but the directory was not marked (a crash in between, or a
            # directory of an older version): relay as a peer that left does, and never resume it again
            if self.directory is not None:
                store.save_peer(self.directory, {**store.load_peer(self.directory), "left": True})
            self._after()
            self._relay_from_now()
            return
        self._tell_watchers()
        if resumed:
            self._nudge()
        early, self._early, self._early_bytes = self._early, [], 0
        for origin, data, direct in early:
            self._feed(origin, data, direct=direct)
        self._after()

    def _describe_key(self, key: bytes) -> str:
        if self.genesis is not None and key in self.genesis.seat_keys:
            return f"seat {self.genesis.seat_keys.index(key)}"
        return ""

    def _describe_peer(self, key: bytes) -> str:
        seat = self._describe_key(key)
        return f"peer {short_id(key)}" + (f" ({seat})" if seat else "")

    def _on_message(self, origin: bytes, data: bytes) -> None:
        """A payload from the mesh. ``origin`` is the mesh's unsigned hint of who
        sent it: used only to name the relaying peer in messages, never trusted."""
        watcher = self._from_watcher()
        try:
            message = lobby.open_message(data, self.mesh.table)
            if message is not None:
                self._handling = data
                self._on_lobby(message)
                return
        except lobby.LobbyError as exc:
            if watcher is not None:
                self._watcher_refused(watcher, "a lobby message", str(exc))
            else:
                self._lobby_rejected(origin, exc)
            return
        finally:
            self._handling = None
        if watcher is not None:  # game data from a watcher: it has no seat, so nothing it sends is game input
            self._watcher_refused(watcher, "game data", "a watcher holds no seat; only the seats' own signed "
                                  "messages count")
            return
        if lobby.is_catch_up_request(data):
            # catch-up requests name who gets the reply, so they count only inside a signed nudge
            self._lobby_rejected(origin, lobby.LobbyForgery("an unsigned catch-up request"))
            return
        direct = self.mesh.delivering_via == origin
        if self.session is None:
            if self._early_bytes + len(data) <= EARLY_BYTES:  # more is a flood: catch-up recovers the rest
                self._early.append((origin, data, direct))
                self._early_bytes += len(data)
            return
        self._feed(origin, data, direct=direct)

    def _feed(self, origin: bytes, data: bytes, *, direct: bool = False) -> None:
        """One payload to the session; ``direct`` when it came over the origin's
        own authenticated link (only then may a catch-up answer go back to it)."""
        assert self.session is not None and self.genesis is not None
        self.stats["received"] += 1
        self.stats["received_bytes"] += len(data)
        keys = self.genesis.seat_keys
        if self.relaying and origin in keys:
            self._relay_seen = self.reactor.seconds()  # the game still runs: keep passing it on
        via = keys.index(origin) if direct and origin in keys and not self.watch else None
        self._send(self.session.receive(data, sender=self._describe_peer(origin), via=via))
        self._after()

    def _send(self, outgoing: list[Outgoing]) -> None:
        assert self.genesis is not None
        if self.watch:
            return  # a watcher's observer session signs nothing; it sends only chat (watch_chat)
        for out in outgoing:
            self.stats["messages"] += 1
            self.stats["bytes"] += len(out.data)
            if lobby.is_catch_up_request(out.data):  # only a signed request proves whose it is
                self.mesh.broadcast(self._author.nudge(game_id(self.genesis), out.data))
            elif out.to is None:
                self.mesh.broadcast(out.data)
            elif out.to != self.seat:
                self.mesh.send_to(self.genesis.seat_keys[out.to], out.data)
        if self.session is not None and self.session.has_work and not self._work_due:
            # a proof check put off so that this went out first (pipelining): the transports only
            # write once the reactor has its turn, so the check waits a turn as well
            self._work_due = True
            self._later(0, self._later, 0, self._work)

    def _work(self) -> None:
        self._work_due = False
        if self.session is None or self.result is not None:
            return
        self._send(self.session.work())
        self._after()

    def _nudge(self) -> None:
        assert self.session is not None and self.genesis is not None
        if self.watch:  # a watcher asks the host (the only peer it links to) for what it lacks
            self.mesh.send_to(self.genesis.seat_keys[0], self._author.pull(game_id(self.genesis), held(self.session)))
            return
        self.mesh.broadcast(self._author.nudge(game_id(self.genesis), self.session.catch_up_request().data))

    # ------------------------------------------------------------------ after every input

    def _after(self) -> None:
        session = self.session
        if session is None or self.result is not None:
            return
        for event in session.events[self._events_seen:]:
            self._events_seen += 1
            if isinstance(event, (Rejected, Flooding)):  # a flood is named once, then only counted
                self._say("rejected", event_text=str(event))
            elif isinstance(event, Stalling):
                self._say("stalling", event_text=str(event), seats=list(event.seats), names=list(event.names))
                if self.claim_forfeits:
                    self._claim(event.seats)
            elif isinstance(event, Abandonable):
                self._say("stalling", event_text=str(event), seats=list(event.seats), names=list(event.names))
                if self.claim_forfeits and session.abandonable():
                    self._say("abandoning", seats=list(event.seats),
                              seats_text=", ".join(f"seat {s}" for s in event.seats))
                    self._send(session.claim_abandon())
            elif isinstance(event, Misconduct):
                self._say("misconduct", event_text=str(event), seat=event.seat, step=event.step)
            elif isinstance(event, Cheat):
                self._say("stopped", event_text=str(event))
                if not self._stopping:  # a better proof may still replace it: read session.halted at the end
                    self._stopping = True
                    self._later(min(self.linger, 1.0), self._stop_halted)
            elif isinstance(event, Resigned):
                self._say("resigned", seat=event.seat, name=event.name)
            elif isinstance(event, Left):
                self._say("left_game", seat=event.seat, name=event.name)
            elif isinstance(event, Finished):
                self._say("finished", event_text=str(event))
        if session.step >= self._last_step_reported + self.progress_every and not session.finished:
            self._last_step_reported = session.step
            owing = session.waiting_for()
            who = ", ".join(f"seat {s}" for s in owing) or "nobody"
            self._say("step", step=session.step, who_text=who, what_text=session.waiting_what(), seats=list(owing))
        if session.finished and not self._announced_finish:
            self._announced_finish = True
            self._finish()
        self._push_watchers()
        self._maybe_agent()

    def _stop_halted(self) -> None:
        """End after a proven cheat: keep the transcript and the proof, then stop."""
        session = self.session
        assert session is not None
        why = f"the game stopped: {session.halted}"
        proof = session.proof_file()
        if self.transcript_path is not None:
            from net.transcript import save

            save(self.transcript_path, session.transcript())
            if proof is not None:
                path = self.transcript_path.with_name(self.transcript_path.name + ".proof")
                save(path, proof)
                why += f" (proof saved to {path}; check it with python -m tools.verify {path})"
        self._end(why)

    def _claim(self, stallers: Sequence[int]) -> list[int]:
        """Sign forfeit claims against seats that missed the deadline; the seats claimed."""
        assert self.session is not None
        claimed = []
        for staller in stallers:
            if staller in self.session.claimable():
                self._say("claiming", seat=staller)
                self._send(self.session.claim_forfeit(staller))
                claimed.append(staller)
        return claimed

    def _finish(self) -> None:
        session = self.session
        assert session is not None and self.genesis is not None
        if self.transcript_path is not None:
            from net.transcript import save

            save(self.transcript_path, session.transcript())
            self._say("transcript", path=str(self.transcript_path))
        if self.seat is None:  # a watcher: nobody waits for its word
            self._later(0.05, self._end, None)
            return
        self._done.add(self.seat)
        self.mesh.broadcast(self._author.done(game_id(self.genesis), self.seat))
        self._later(self.linger, self._end, None)
        self._maybe_leave()

    def _maybe_leave(self) -> None:
        if self.genesis is None or self.session is None:
            return
        if self.relaying:  # we left the game: we end once nobody still playing may need us as a relay
            records = self.mesh.peers
            # a seat not linked yet counts (after a restart nobody is): RELAY_UNREACHABLE bounds the wait
            playing = [key for s, key in enumerate(self.genesis.seat_keys)
                       if s != self.seat and s not in self.session.left and s not in self.session.gone
                       and s not in self._done and (key not in records or records[key].status is not PeerStatus.LEFT)]
            now = self.reactor.seconds()
            # nobody left to pass messages to, none of them heard for a while, or relaying long enough
            if not playing or now - self._relay_seen > RELAY_UNREACHABLE or now - self._relay_since > RELAY_MAX:
                self._later(0.05, self._end, "left the game; the others play on")
            return
        if not self.session.finished:
            return
        present = [s for s in range(len(self.genesis.seat_keys)) if s not in self.session.gone]
        if all(s in self._done for s in present):
            self._later(0.05, self._end, None)  # let the last writes go out

    # ------------------------------------------------------------------ our seat

    def legal(self) -> list[SeatInput]:
        """What our seat may give now (empty when the table waits for others)."""
        if self.session is None or self.seat is None:
            return []
        return self.session.legal(self.seat)

    def submit(self, choice: SeatInput) -> None:
        """Give ``choice`` (one of :meth:`legal`) for our seat: the session, our seat's
        driver (net/seam.py), checks it, signs it and says what to send."""
        if self.session is None or self.seat is None:
            raise InputRefused("the game has not started yet; wait for every seat to arrive", seat=self.seat)
        self._send(self.session.submit(self.seat, choice))
        self._after()

    def claimable(self) -> list[int]:
        """Seats we may claim a forfeit against now: they still owe their part and
        the session's deadline passed on our clock (and we have not claimed
        yet). Empty when nothing is claimable."""
        session = self.session
        if session is None or self.result is not None or session.finished or session.halted is not None:
            return []
        return sorted(session.claimable())

    def claim_forfeit(self, seat: int | None = None) -> list[int]:
        """Claim the game as the forfeit of a stalling seat (``seat``, or every
        :meth:`claimable` one): the session signs the claim and the others check
        it. Returns the seats claimed; raises ValueError when ``seat`` has not
        missed its deadline (the text says so)."""
        claimable = self.claimable()
        wanted = claimable if seat is None else [seat]
        if not wanted or any(s not in claimable for s in wanted):
            raise ValueError("no seat has missed its deadline now, so there is no forfeit to claim; "
                             "wait until the table reports a seat as stalling")
        claimed = self._claim(wanted)
        self._after()
        return claimed

    def abandonable(self) -> bool:
        """Whether we may end the game as abandoned now: the seats we wait for stayed silent past
        the abandonment deadline (net/session/abandon.py), for instance because a forfeit needs a
        claim another seat never signs."""
        session = self.session
        return session is not None and self.result is None and session.abandonable()

    def claim_abandon(self) -> None:
        """Sign that the game is abandoned (nobody wins); raises ValueError, saying why, when it is
        too early (the text says how long is left)."""
        if self.session is None or self.result is not None:
            raise ValueError("there is no running game to abandon")
        self._send(self.session.claim_abandon())
        self._after()

    def resign(self) -> None:
        """Give the game up with a signed resignation (net.session.resign): the
        others win at once, with the envelope as proof. Raises ValueError when
        there is no running game to give up."""
        if self.session is None or self.result is not None:
            raise ValueError("there is no running game to resign from")
        self._send(self.session.resign())
        self._after()

    def can_step_out(self) -> bool:
        """Whether we may leave the running game and let the others play on (net/session/leave.py):
        a seat in the play phase at a table where at least three seats are still playing."""
        s = self.session
        return (s is not None and self.result is None and not self.watch and s.seat is not None
                and s.phase == "play" and s.halted is None and len(s.seats) - len(s.left) > 2
                and s.leave_blocked() is None)

    def step_out(self) -> None:
        """Leave the running game for good; the others play on, and our character is played by the
        table's stand-in (net/session/leave.py). Our signed ``leave`` goes out; then this peer
        only passes the others' messages on (the mesh relays: some seats may reach each other
        only through us) until every seat still playing has finished or gone, and ends. Our
        directory says we left, so the game is never offered for resuming. Raises ValueError,
        saying why, when the game cannot go on without us (resign instead)."""
        if self.session is None or not self.can_step_out():
            raise ValueError("only a seat in a running game of three or more seats still playing can leave "
                             "it and let the others play on; give the game up instead")
        # the mark first: a crash after the leave is signed must not offer the game for resuming
        saved = store.load_peer(self.directory) if self.directory is not None else None
        if self.directory is not None and saved is not None:
            store.save_peer(self.directory, {**saved, "left": True})
        try:
            sent = self.session.leave()
        except Exception:
            if self.directory is not None and saved is not None:
                store.save_peer(self.directory, saved)  # nothing was signed: the game is ours to resume
            raise
        self._send(sent)
        self._after()
        self._relay_from_now()

    def _relay_from_now(self) -> None:
        """We left our game (now, or before a restart: our leave is in the journal): from now on
        only pass the others' messages on (see :meth:`step_out`)."""
        self.relaying = True
        self._relay_seen = self._relay_since = self.reactor.seconds()
        if self.desk is not None:  # as the host: we no longer play, so there is nothing to show watchers
            self.mesh.guest_limit = 0
            for key in list(self.desk.watchers):
                self._say("watcher_out", who=self.desk.name_of(key), **self._watcher_name(key))
                self.desk.leave(key)
            for key in [k for k, r in self.mesh.peers.items() if self.mesh.is_guest(k) and r.channel is not None]:
                self.mesh.drop(key, RELAY_ONLY)  # a watcher is told the host left; its watch ends there
        self._say("stepped_out")
        self._maybe_leave()

    def chat(self, text: str) -> None:
        """Send a signed chat line to the table (net.session.chat; never game input)."""
        if self.watch:
            self.watch_chat(text)
            return
        if self.session is None or self.result is not None:
            raise ValueError("there is no table to talk to")
        self._send(self.session.chat(text))

    def leave(self, reason: str | Progress = "left the table", *, goodbye: bool = True) -> None:
        """Stop playing now: close every link and the journal, and call
        ``on_end`` with ``reason`` as the error. With ``goodbye`` the others
        are told we left (they stop redialling us); without it the links are
        just cut, as when the process dies, so the others keep waiting and
        redialling and the game can be resumed from our directory. A
        :class:`Progress` reason is kept as :attr:`ending` (a window words it). A second
        call, or a call after the end, does nothing."""
        self._end(reason, goodbye=goodbye)

    def _maybe_agent(self) -> None:
        if self.agent is None or self.session is None or self.result is not None:
            return
        if self._agent_call is not None and self._agent_call.active():
            return
        if self.legal():
            self._agent_call = self.reactor.callLater(self.delay, self._agent_act)

    def _agent_act(self) -> None:
        session = self.session
        if session is None or self.agent is None or self.result is not None:
            return
        legal = self.legal()
        if not legal or self.seat is None:
            return
        self.submit(self.agent.choose(session.game, session.state, self.seat, session.knowledge, legal))

    # ------------------------------------------------------------------ time

    def _on_tick(self) -> None:
        session = self.session
        if session is None or self.result is not None:
            return
        if self.relaying:
            self._maybe_leave()
            return
        now = self.reactor.seconds()
        self._send(session.tick(now))
        self._after()
        if session.finished or session.halted is not None:
            return
        sig = (session.step, session.phase, len(session.envelopes()))
        if sig != self._last_sig:
            self._last_sig, self._last_change, self._nudge_wait = sig, now, NUDGE_AFTER
            return
        owing = session.waiting_for()
        if now - self._last_change >= self._nudge_wait and owing != (self.seat,):
            self._nudge()
            self._last_change = now
            self._nudge_wait = min(self._nudge_wait * 2, NUDGE_MAX)

    # ------------------------------------------------------------------ the end

    def give_up(self, seconds: float) -> None:
        """End with an error if the game has not finished after ``seconds``."""
        self._later(seconds, self._timed_out, seconds)

    def _timed_out(self, seconds: float) -> None:
        if self.result is not None:
            return
        if self.session is None:
            self._end(progress("end_no_start", seconds=round(seconds)))
            return
        owing = ", ".join(f"seat {s}" for s in self.session.waiting_for()) or "nobody"
        self._end(progress("end_unfinished", seconds=round(seconds), step=self.session.step, who_text=owing,
                           what_text=self.session.waiting_what(), seats=list(self.session.waiting_for())))

    def _end(self, error: str | Progress | None, *, goodbye: bool = True) -> None:
        """Close the table with ``error`` (None: the game ended); a :class:`Progress` also keeps
        the reason's id and facts in :attr:`ending`, so a window words it in its player's language."""
        if self.result is not None:
            return
        if isinstance(error, Progress):
            self.ending, error = error, error.text
        self.result = self.summary(error)
        for call in self._calls:
            if call.active():
                call.cancel()
        if self._agent_call is not None and self._agent_call.active():
            self._agent_call.cancel()
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        if self.net is not None:
            if not goodbye:  # cut the links first: a closed link sends no Bye
                for record in self.net.mesh.peers.values():
                    if record.channel is not None:
                        record.channel.close(abort=True)
            self.stopping = self.net.stop()
        if self.session is not None and self.session.journal is not None:
            self.session.journal.close()
        for hook in self.on_close:
            hook()
        for bot in self.bot_seats:  # a table closed before its start takes its bots with it
            if bot.result is None and bot.session is None:
                bot.leave("its host closed the table before the game")
        self.on_end(self.result)

    def direct_seats(self) -> list[int]:
        """The other seats we had a direct link with (not only through a relay)."""
        if self.genesis is None:
            return []
        keys = self.genesis.seat_keys
        return [s for s, key in enumerate(keys) if s != self.seat and key in self._direct]

    def summary(self, error: str | None = None) -> dict[str, Any]:
        """The result as plain JSON-friendly values."""
        session = self.session
        usage = resource.getrusage(resource.RUSAGE_SELF)
        out: dict[str, Any] = {
            "seat": self.seat, "rules": self.entry.rules_id, "error": error,
            "game_id": game_id(self.genesis).hex() if self.genesis is not None else None,
            "finished": bool(session is not None and session.finished),
            "wall_s": round(time.monotonic() - self._started_wall, 3),
            "cpu_s": round(usage.ru_utime + usage.ru_stime, 3), **self.stats,
            "direct": self.direct_seats(), "watcher": self.watch,
            "watchers": self.desk.names() if self.desk is not None else [],
            "watcher_refusals": self.desk.refusals() if self.desk is not None else {},
        }
        if session is not None:
            outcome = session.outcome or {}
            out.update({
                "winner": outcome.get("winner"), "reason": outcome.get("reason", "unfinished"),
                "winners": list(Outcome.from_data(outcome).winners) if outcome else [],
                "audit": session.verdict, "final_hash": session.hashes[-1].hex(), "steps": session.step,
                "actions": len(session.applied), "turns": getattr(session.state, "turn", None),
                "rejected": sum(1 for e in session.events if isinstance(e, Rejected)),
                "forfeited": session.forfeited, "forfeit": session.forfeit, "gone": sorted(session.gone),
                "abandoned": session.abandoned,
                "convicted": session.conviction["seat"] if session.conviction is not None else None,
                "misconduct": [{"seat": m.seat, "step": m.step, "what": m.what} for m in session.misconduct],
                "transcript": str(self.transcript_path) if self.transcript_path and session.finished else None,
            })
        return out
