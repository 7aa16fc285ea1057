"""Networked play from the lobby, for any registered game: host a table, join by code,
find tables on the LAN, resume an unfinished game, meet again for a rematch.

:class:`NetTable` owns one :class:`net.peer.Peer` (the real Twisted driver:
lobby handshake, genesis, session, mesh) for the player's seat at a table
of one registered game (its :class:`net.games.GameEntry`). The lobby shows
its invite code and its progress lines; when the peer's session starts,
the game's client UI shows the table (``start_net`` of client/table/ui.py,
Rider's in client/rider/net_play.py) with a
:class:`~client.table.net_session.NetSession` over the same peer.

:class:`LanBrowser` lists tables advertised on the LAN
(:mod:`net.transport.discovery`, zeroconf) and advertises ours while we
host. zeroconf runs its own threads; results reach the reactor thread
through ``callFromThread``, so the lobby only ever sees them on the reactor.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
import secrets
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from client.app import App
from client.settings import Settings
from net.games import DEFAULT_GAME

if TYPE_CHECKING:
    from net.games import GameEntry

#: Lines of peer progress kept for the lobby.
MAX_LINES = 6
#: How many people may watch a table we host when the settings let them (net/peer/watching.py).
WATCHERS = 4
#: Seconds after which the directory of a table that never started a game is removed.
STALE_LOBBY = 24 * 3600


def games_dir() -> Path:
    """Where each networked game keeps its peer directory (journal, genesis,
    how to redial): the user data directory, so a crashed game can resume."""
    from client.settings import data_dir

    return data_dir("net-games")


@dataclasses.dataclass(frozen=True)
class Unfinished:
    """A networked game that started here and never ended (the client quit or crashed)."""

    directory: Path
    seat: int
    names: tuple[str, ...]  # every seat's name, as the genesis record has them
    game: str = DEFAULT_GAME  # the registered game it plays (the peer directory records it)

    def opponents(self) -> str:
        from client.table.words import display_name

        return ", ".join(display_name(n, i) for i, n in enumerate(self.names) if i != self.seat)


def unfinished_games(root: Path | None = None) -> list[Unfinished]:
    """Peer directories whose game started (a genesis record) and was not
    ended by this client; newest first. Directories of tables that never
    started a game are not games and are skipped."""
    from net.peer import store

    root = root or games_dir()
    found: list[Unfinished] = []
    try:
        candidates = sorted((d for d in root.iterdir() if d.is_dir()), reverse=True)
    except OSError:
        return []
    for directory in candidates:
        if not (directory / store.GENESIS_FILE).exists():
            try:  # a table that never started a game, left over for a day by a crash: forget it
                if time.time() - directory.stat().st_mtime > STALE_LOBBY:
                    discard_directory(directory)
            except OSError:
                pass
            continue
        try:
            genesis, seat = store.load_genesis(directory)
        except store.StoreError:
            continue
        if store.load_peer(directory).get("left"):  # we left that game for the others to finish
            continue
        names = genesis.options.get("names")
        count = len(genesis.seat_keys)
        if not isinstance(names, (list, tuple)) or len(names) != count:
            names = [""] * count  # display_name shows "Player N" (seats counted from 1)
        game = store.load_peer(directory).get("game")
        found.append(Unfinished(directory, seat, tuple(str(n) for n in names),
                                game if isinstance(game, str) else DEFAULT_GAME))  # older folders: no game
    return found


def discard_directory(directory: Path | None) -> None:
    """Forget a networked game's peer directory (it ended, or the player abandoned it)."""
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)


def copy_to_clipboard(text: str) -> bool:
    """Put ``text`` on the system clipboard; True only if it is really there."""
    try:
        pygame.scrap.put_text(text)
        return bool(pygame.scrap.get_text() == text)
    except (pygame.error, AttributeError, NotImplementedError):
        return False


def paste_from_clipboard() -> str:
    """The clipboard's text ("" if there is none or no clipboard)."""
    try:
        return str(pygame.scrap.get_text() or "") if pygame.scrap.has_text() else ""
    except (pygame.error, AttributeError, NotImplementedError):
        return ""


#: Refused connections in a row (about 2 s with the driver's redial backoff) before a join gives up.
REFUSALS = 3
#: How long a rematch's joiner waits for the host to press "Play again" too (seconds).
REMATCH_WAIT = 180.0
#: Seconds between looks for the finished game's listening port to close (the host's rematch reuses it).
REMATCH_POLL = 0.25
REMATCH_DOMAIN = "fairtable/rematch-table"


@dataclasses.dataclass(frozen=True)
class Rematch:
    """What both players of a finished networked game need to meet again without
    a new code: the table nonce both derive from the game id, the host's key and
    address (the joiner dials it as before), and who may sit (the same players)."""

    role: str  # "host" or "join", as in the game before
    table: bytes
    host_fingerprint: str
    addresses: tuple[tuple[str, int], ...]
    interface: str
    players: frozenset[bytes]  # every seat's key of the last game
    opponents: str  # the other players' names, to show
    #: (key, name shown) of every seat of the last game, in seat order: who is back, who is awaited.
    seats: tuple[tuple[bytes, str], ...] = ()

    def names_of(self, keys: Sequence[bytes] | frozenset[bytes]) -> list[str]:
        """The names of the last game's players holding ``keys``, in their old seat order."""
        return [name for key, name in self.seats if key in keys]


def rematch_of(table: NetTable) -> Rematch | None:
    """The rematch of ``table``'s finished game, or None where there can be none
    (an online game has no fixed address to meet at; a resumed game, no invite)."""
    from engine.core.hashing import digest
    from net.transport.messages import TABLE_SIZE

    peer = table.peer
    session, genesis, invite = peer.session, peer.genesis, peer.invite
    if session is None or genesis is None or invite is None or table.role not in ("host", "join"):
        return None
    if table.online is not None or peer.online_connect is not None:
        return None
    from client.table.words import display_name

    nonce = digest(REMATCH_DOMAIN, session.gid)[:TABLE_SIZE]
    others = ", ".join(display_name(n, i) for i, n in enumerate(session.names) if i != peer.seat)
    seats = tuple((key, display_name(n, i)) for i, (key, n) in enumerate(zip(genesis.seat_keys, session.names)))
    return Rematch(table.role, nonce, invite.fingerprint, tuple(invite.addresses), table.interface,
                   frozenset(genesis.seat_keys), others, seats)


def rematch_off(table: NetTable) -> str:
    """Why *Play again* cannot meet the same players again, as a catalogue key ("" when it can)."""
    if table.role == "watch":
        return "again_off_watch"
    if table.online is not None or table.peer.online_connect is not None:
        return "again_off_online"
    if table.role not in ("host", "join") or table.peer.invite is None:
        return "again_off_resumed"
    return ""


def rematch_starter(table: NetTable, session: Any, deck: Sequence[str] | None,
                    on_rematch: Callable[[NetTable], None] | None) -> Callable[[], None] | None:
    """What the end screen's *Play again* does on a networked table: leave the finished
    game, open a new :class:`NetTable` meeting its players again (:meth:`NetTable.start_rematch`)
    with ``deck``, and hand it to ``on_rematch``; None where no rematch can be had."""
    rematch = rematch_of(table)
    if rematch is None or on_rematch is None:
        return None

    def again() -> None:
        assert rematch is not None and on_rematch is not None
        old = table.peer
        session.leave()
        table.abandon()
        new = NetTable(table.app, table.settings, entry=table.entry, deck=deck, seats=len(rematch.players),
                       identity=table.identity, keep_journal=table.directory is not None)
        new.start_rematch(rematch, old_peer=old)
        on_rematch(new)

    return again


def show_net_table(app: App, table: NetTable, make_scene: Callable[[Any, Callable[[], None], Callable[[Any], None]], Any],
                   words: Callable[[Any], Any], on_leave: Callable[[], None],
                   on_rematch: Callable[[NetTable], None] | None = None, *, deck: Sequence[str] | None = None,
                   board: bool = False) -> Any:
    """Show our seat of ``table`` once its peer's session runs: the one hand-over every game's
    ``start_net`` makes (client/table/ui.py). ``make_scene(session, leave, ended)`` builds the
    game's scene over a :class:`~client.table.net_session.NetSession` of the same peer;
    leaving abandons the table (the scene asks first: nothing to resume later); when the game
    ends the table layer's end screen follows with ``words(session)`` (the game's
    :class:`~client.table.end_scene.EndWords`) and *Play again* meeting the same players with
    ``deck`` (``board``: the end screen can show the table again)."""
    from client.table.end_scene import show_end
    from client.table.net_session import NetSession

    session: NetSession[Any] = NetSession(table.peer, clock=app.clock)

    def leave() -> None:
        session.leave()
        table.abandon()
        on_leave()

    again = rematch_starter(table, session, deck, on_rematch)

    def ended(scene: Any) -> None:
        show_end(app, scene, session, on_lobby=leave, on_again=again, board=board, words=words(session),
                 again_off=rematch_off(table))

    scene = make_scene(session, leave, ended)
    app.switch(scene)  # its enter() starts following the session
    return scene


class NetTable:
    """Our seat at a networked table of ``entry``'s game, before and during the game.

    ``deck`` is the card ids our seat brings (the game UI's ``net_deck``; None
    for a game without decks, and on a resume: the deck is in the journal);
    ``seats`` how many a table we host seats (default: the game's default)."""

    def __init__(self, app: App, settings: Settings, *, entry: GameEntry[Any], deck: Sequence[str] | None = None,
                 seats: int | None = None, identity: Any = None, on_change: Callable[[], None] | None = None,
                 resume: Unfinished | None = None, keep_journal: bool = True, watch: bool = False) -> None:
        from net.identity import Identity
        from net.peer import Peer

        self.app = app
        self.settings = settings
        self.entry = entry
        self.seats = entry.default_seats if seats is None else seats
        entry.check_seats(self.seats)
        self.identity = identity if identity is not None else Identity.load_or_create()
        self.lines: list[str] = []  # the driver's English lines (logs, tests)
        self.events: list[Any] = []  # the same as net.peer.progress events, shown in the player's language
        self.code = ""
        self.error = ""
        self.result: dict[str, Any] | None = None
        self.on_change = on_change or (lambda: None)
        self.role = ""
        self.interface = "0.0.0.0"  # where a host listens
        #: While this table is a rematch: what it meets again (see start_rematch).
        self.rematch: Rematch | None = None
        self._rematch_old: Any = None
        #: The host's give-up call of a rematch nobody completes (REMATCH_WAIT), and who was missing then.
        self._rematch_call: Any = None
        self.rematch_gone: list[str] = []
        #: A joiner of a rematch whose link to the host is up (it waits for the other players now:
        #: who they are, the host's ``seated`` roster tells, net.peer.lobby).
        self.at_host = False
        self.online: Any = None  # net.peer.online.OnlineHost once we invite a friend online
        self.online_code = ""  # the newest online code
        #: As the host: the name of every joiner seen seated so far, by key fingerprint (known_names).
        self._seen_names: dict[str, tuple[str, int]] = {}
        #: We watch this table without a seat (net/peer/watching.py): no deck, no journal, no input.
        self.watch = watch
        if resume is not None:  # the deck is in the journal (committed at the start)
            self.directory: Path | None = resume.directory
            cards = None
        elif watch:  # a watcher keeps nothing to resume: it holds no seat and no secret
            self.directory, cards = None, None
        else:
            stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
            # demos and screenshots keep none: their games must not be offered for resuming
            self.directory = games_dir() / f"{stamp}-{secrets.token_hex(4)}" if keep_journal else None
            cards = None if deck is None else tuple(deck)
        self.peer = Peer(self.identity, entry, reactor=app.clock, deck=cards,
                         agent=None, name=(settings.name.strip() or "Player")[:40], report=self._report,
                         on_end=self._on_end, linger=3.0, directory=self.directory, on_progress=self._progress,
                         watch=watch, watchers=WATCHERS if settings.watchers else 0)

    # -- starting ---------------------------------------------------------------------------
    def host(self, interface: str = "0.0.0.0", port: int = 0) -> str:
        """Open the table (of :attr:`seats`; seat 1 is ours) and return its invite code."""
        self.role = "host"
        self.interface = interface
        self.code = self.peer.host(self.seats, interface=interface, port=port).encode()
        return self.code

    def empty_seats(self) -> int:
        """Seats of the table we host that nobody holds and no bot is on its way to (0 when
        joining or started): what *Add a bot* and *Start with bots* can still fill."""
        from net.peer.bot_seats import open_seats

        return open_seats(self.peer) if self.role == "host" else 0

    def fill_with_bots(self) -> int:
        """Seat a bot in every empty seat of the table we host, so it starts (it starts by itself
        once every seat is taken and every player connected); how many bots were added."""
        added = 0
        while self.empty_seats():
            self.add_bot()
            added += 1
        return added

    def add_bot(self, kind: str | None = None) -> None:
        """Seat a bot of ``kind`` (default: the game's first bot) in an empty seat of the table we
        host; it runs on this computer with a key of its own (net/peer/bot_seats.py). ValueError
        with words for the player when there is no empty seat. The bot is named in the host's
        language ("ランダムボット 1"): its name is sent to every seat as it is."""
        from client.i18n import known, tr
        from net.peer.bot_seats import add_bot

        kind = kind or self.peer.entry.default_bots[0]
        lang = self.app.lang
        name = f"{tr(lang, f'bot_{kind}')} {len(self.peer.bot_seats) + 1}" if known(f"bot_{kind}") else ""
        add_bot(self.peer, kind, name=name)
        self.on_change()

    def start_rematch(self, rematch: Rematch, old_peer: Any = None) -> None:
        """Meet the last game's players again at a table both derive from its game id:
        the host listens on its old address once the old game has let it go; the
        joiner dials it (redialling until the host presses "Play again" too).
        Only the last game's keys may sit."""
        from net.transport.invite import Invite

        self.rematch = rematch
        self.role = "rematch"
        self.peer.allowed_keys = rematch.players - {self.identity.public_key}
        if rematch.role == "join":
            invite = Invite(rematch.table, rematch.host_fingerprint, rematch.addresses)
            self.code = invite.encode()
            self.peer.join(invite, connect_timeout=REMATCH_WAIT)
            return
        self._rematch_old = old_peer
        self._host_rematch()

    def _host_rematch(self) -> None:
        """Host the rematch on the old port as soon as the old game closed it."""
        from twisted.internet.error import CannotListenError

        rematch = self.rematch
        assert rematch is not None
        old = self._rematch_old
        if self.peer.result is not None:
            return  # cancelled meanwhile
        if old is not None and old.result is None:
            self.app.clock.callLater(REMATCH_POLL, self._host_rematch)
            return
        port = rematch.addresses[0][1]
        try:
            self.code = self.peer.host(self.seats, interface=rematch.interface, port=port, table=rematch.table).encode()
        except CannotListenError:  # the old game's socket is still closing: try again in a moment
            self.app.clock.callLater(REMATCH_POLL, self._host_rematch)
            return
        if old is not None:  # our own bots are back at once: they have no Play again to press
            from net.peer.bot_seats import seat_again

            seat_again(self.peer, old)
        self._rematch_call = self.app.clock.callLater(REMATCH_WAIT, self._rematch_expired)
        self.on_change()

    def seated_keys(self) -> list[bytes] | None:
        """The keys at the rematch table so far, in seat order: the host's own lobby, or, for a
        joiner, the host's latest ``seated`` roster (None before one came)."""
        host = self.peer.host_lobby
        if host is not None:
            return [s.key for s in host.seated]
        roster = self.peer.lobby_seated
        return list(roster) if roster is not None and self.at_host else None

    def rematch_back(self) -> list[str]:
        """The other players of the last game already back at our rematch table, in seat order
        (the host knows; a joiner from the host's roster)."""
        keys = self.seated_keys()
        if self.rematch is None or keys is None:
            return []
        return self.rematch.names_of([k for k in keys if k != self.identity.public_key])

    def rematch_missing(self) -> list[str]:
        """The other players of the last game the rematch still waits for: the host, for a joiner
        not linked to it yet; else everyone not back (a joiner linked to the host but without
        its roster yet cannot tell: [])."""
        rematch = self.rematch
        if rematch is None or self.peer.genesis is not None:
            return []
        keys = self.seated_keys()
        if keys is None:
            return [] if self.at_host else [name for key, name in rematch.seats[:1]]
        here = set(keys) | {self.identity.public_key}
        return rematch.names_of([k for k in rematch.players if k not in here])

    def _stop_rematch_wait(self) -> None:
        if self._rematch_call is not None and self._rematch_call.active():
            self._rematch_call.cancel()
        self._rematch_call = None

    def _rematch_expired(self) -> None:
        """Not everyone came back within REMATCH_WAIT: stop waiting, name who is missing, and let
        those who came back go (leaving says goodbye, so their drivers stop waiting for us)."""
        self._rematch_call = None
        if self.peer.genesis is not None or self.peer.result is not None:
            return
        self.rematch_gone = self.rematch_missing()
        self.peer.leave("not every player came back for the rematch: " + ", ".join(self.rematch_gone))

    def join(self, code: str, connect_timeout: float = 30.0) -> None:
        """Dial the host of a LAN invite code, or open the wormhole of an online
        code (7-word-word); raises InviteError or WormholeProblem for a bad code."""
        from net.transport.invite import parse_invite
        from net.transport.wormhole import looks_like_wormhole_code, parse_code

        self.role = "watch" if self.watch else "join"
        if looks_like_wormhole_code(code):
            from net.peer.online import OnlineJoin

            self.code = parse_code(code)
            OnlineJoin(self.peer, self.online_settings(), connect_timeout=connect_timeout,
                       adopt=self._adopt).join(self.code)
            return
        invite = parse_invite(code)
        self.code = invite.encode()
        self.peer.join(invite, connect_timeout=connect_timeout)

    def _adopt(self, game: str) -> None:
        """An online code paired with a host of another game than the lobby's row: play the
        host's (its offer names it), with our deck for it; ValueError when this client cannot."""
        from client.table.ui import net_ui
        from net.games import game_named

        try:
            entry = game_named(game)
        except ValueError:
            raise ValueError(f"the host plays {game!r}, which this Fairtable does not know; install the host's "
                             "Fairtable release") from None
        ui = net_ui(entry.name)
        if ui is None:
            raise ValueError(f"the host plays {entry.title}, which this client cannot play with friends yet")
        self.peer.switch_game(entry, deck=ui.net_deck(self.settings), agent=None)
        self.entry = entry
        self.on_change()

    def online_settings(self) -> Any:
        """Mailbox and relay: the environment (FAIRTABLE_MAILBOX, FAIRTABLE_RELAY) or the public servers."""
        from net.transport.wormhole import WormholeSettings

        return WormholeSettings.from_env()

    def invite_online(self) -> None:
        """"Invite a friend": one more wormhole code for one friend (while hosting).
        The code arrives a moment later (:attr:`online_code`, :meth:`online_invites`)."""
        from net.peer.online import OnlineHost

        if self.online is None:
            # with watchers allowed, one watch code too: the progress box shows it (online_watch_code)
            self.online = OnlineHost(self.peer, self.online_settings(), invites=1, reinvite=False,
                                     on_code=self._online_code, watch_codes=1 if self.peer.desk is not None else 0)
            self.online.start()
        else:
            self.online.invite()

    def _online_code(self, code: str) -> None:
        self.online_code = code
        self.on_change()

    def online_invites(self) -> list[tuple[str, str]]:
        """Each friend's online code made so far and its state: waiting, joined, expired or failed
        (a watch code is shown apart, in the progress box)."""
        if self.online is None:
            return []
        return [(code, state) for code, state in self.online.states.items() if code not in self.online.watch_made]

    def resume(self) -> None:
        """Restart the unfinished game from its directory (``tools.peer resume``'s
        path: genesis and journal, redial or listen again, catch up from the others).
        Raises :class:`net.peer.store.StoreError` (saying why) when it cannot."""
        from net.peer import online

        self.role = "resume"
        online.resume(self.peer)  # an online game also meets the others again on its resume codes

    def nobody_listening(self) -> bool:
        """While joining: the host's address refused our connection REFUSALS times
        in a row and we never reached it (no table is open there)."""
        net = self.peer.net
        return self.peer.genesis is None and net is not None and net.mesh.host_refusals >= REFUSALS

    def dialled(self) -> str:
        """The address(es) of the invite we dial, as host:port."""
        invite = self.peer.invite
        return ", ".join(f"{h}:{p}" for h, p in invite.addresses) if invite is not None else "?"

    def cancel(self) -> None:
        """Leave before (or instead of) playing: close the peer and its links."""
        if self.peer.result is None:
            self.peer.leave("cancelled in the lobby")

    def abandon(self) -> None:
        """Leave the game for good: close the peer and forget its directory. A peer that left a
        running game for the others to finish (Peer.step_out) relays on until they no longer need
        it, then ends itself."""
        if self.peer.result is None and not self.peer.relaying:
            self.peer.leave("left the table from the client")
        discard_directory(self.directory)

    # -- state --------------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        """The session runs: the table scene can take over."""
        return self.peer.session is not None and self.result is None

    def seats_free(self) -> int:
        host = self.peer.host_lobby
        return 0 if host is None else host.size - len(host.seated)

    def ad(self) -> Any:
        """Our LAN advertisement (while hosting)."""
        assert self.peer.net is not None
        return self.peer.net.table_ad((self.settings.name.strip() or "Player")[:40], self.entry.name, self.seats_free())

    def _report(self, text: str) -> None:
        self.lines = (self.lines + [text])[-MAX_LINES:]
        self.on_change()

    def _progress(self, event: Any) -> None:
        self.events = (self.events + [event])[-MAX_LINES:]
        if event.id == "seat_taken" and event.fields.get("seat") != 0:
            self.app.sound.play("join")  # another player sat down at our table
        elif event.id == "link" and event.fields.get("status") == "connected" and self.peer.genesis is None:
            self.at_host = True  # before the start a joiner links to the host only
        elif event.id == "playing":
            self._stop_rematch_wait()  # everyone came back

    def progress_lines(self, lang: str) -> list[str]:
        """The latest progress of our peer in ``lang`` (stable ids, client.i18n); a peer the
        driver names by its key fingerprint is named as the player knows it (:meth:`known_names`),
        else as "Player <fingerprint>"."""
        from client.i18n import progress_text, tr
        from client.table.words import display_name

        names = self.known_names(lang)

        def named(event: Any) -> Any:
            name = event.fields.get("name")
            if event.id in ("watcher_in", "watcher_out") and isinstance(name, str):  # a watcher by its name
                return dataclasses.replace(event, fields={**event.fields,
                                                          "who": tr(lang, "watcher_named", name=display_name(name, 0))})
            peer = event.fields.get("peer")
            if not isinstance(peer, str):
                return event
            who = names.get(peer) or tr(lang, "a_player", fingerprint=peer)
            return dataclasses.replace(event, fields={**event.fields, "peer": who})

        return [progress_text(lang, named(event)) for event in self.events]

    def known_names(self, lang: str) -> dict[str, str]:
        """Key fingerprint -> how the player knows that peer: by name with its seat wherever the name
        is known (every seat once the game's genesis names them; as the host, each seated joiner and
        each watcher before), else as the host: a joiner is not told the host's name before the start."""
        from client.i18n import tr
        from client.table.words import display_name
        from net.seats import seat_number
        from net.transport.keys import short_id

        def seat_label(name: str, seat: int) -> str:  # the lobby's " (2)" for a repeated name: the seat says it
            return tr(lang, "seat_named", name=re.sub(r" \(\d+\)$", "", display_name(name, seat)), n=seat_number(seat))

        named: dict[str, str] = {}
        lobby = self.peer.host_lobby
        if lobby is not None:  # kept once seen: a joiner who left is still named in the lines before
            self._seen_names.update({short_id(s.key): (s.name, i) for i, s in enumerate(lobby.seated) if i > 0})
            named.update({fp: seat_label(name, seat) for fp, (name, seat) in self._seen_names.items()})
        else:
            invite = self.peer.invite
            if self.role in ("join", "rematch") and invite is not None:
                named[invite.fingerprint] = tr(lang, "the_host", fingerprint=invite.fingerprint)
        genesis = self.peer.genesis
        names = genesis.options.get("names") if genesis is not None else None
        if genesis is not None and isinstance(names, (list, tuple)) and len(names) == len(genesis.seat_keys):
            named.update({short_id(key): seat_label(str(name), seat)
                          for seat, (key, name) in enumerate(zip(genesis.seat_keys, names))})
        desk = self.peer.desk
        if desk is not None:
            for key, watcher in desk.watchers.items():
                named.setdefault(short_id(key), tr(lang, "watcher_named", name=display_name(watcher.name, 0)))
        return named

    def ending_words(self, lang: str) -> str | None:
        """Why our peer closed the table before or without its game, in ``lang`` (its driver's
        reason id, net/peer/progress.py ``end_*``); None when the driver gave no such reason."""
        from client.i18n import progress_text

        ending = self.peer.ending
        return None if ending is None else progress_text(lang, ending)

    def own_table(self) -> bool:
        """Whether the table we dialled is our own: its host has our identity key (two windows on
        one computer without FAIRTABLE_PROFILE; the driver refuses that join at once)."""
        from net.transport.keys import key_matches

        invite = self.peer.invite
        return self.role == "join" and invite is not None and key_matches(self.identity.public_key, invite.fingerprint)

    def seat_waiting(self) -> tuple[int, int, int] | None:
        """As a joiner seated at a table that has not started: (our seat number counted from 1,
        the table's size, how many more it waits for); None before the host has seated us."""
        seated, size = self.peer.lobby_seated, self.peer.lobby_size
        me = self.identity.public_key
        if self.peer.genesis is not None or seated is None or size is None or me not in seated:
            return None
        return seated.index(me) + 1, size, size - len(seated)

    def _on_end(self, result: dict[str, Any]) -> None:
        self.result = result
        self._stop_rematch_wait()
        if result.get("error"):
            self.error = str(result["error"])
        session = self.peer.session
        # nothing to resume: no game started, it finished, or it stopped on a desync or a cheat
        if (self.peer.genesis is None and self.role != "resume") or result.get("finished") or (session is not None and session.halted is not None):
            discard_directory(self.directory)
        self.on_change()


#: Tables on the LAN list at the most (a host on the LAN could advertise without end).
MAX_LAN_TABLES = 64


class LanBrowser:
    """Tables on the LAN (zeroconf), kept fresh on the reactor thread."""

    def __init__(self, clock: Any, on_change: Callable[[], None], *, loopback_only: bool = False) -> None:
        self.clock = clock
        self.loopback_only = loopback_only  # tests: zeroconf on 127.0.0.1 only
        self.on_change = on_change
        self.tables: dict[str, Any] = {}  # service name -> TableAd
        self.error = ""
        self.discovery: Any = None
        #: Our own table's advertisement as last sent (None: we advertise none).
        self.ours: Any = None

    def start(self) -> None:
        try:
            from net.transport.discovery import LanDiscovery

            self.discovery = LanDiscovery(self.clock, loopback_only=self.loopback_only)
            self.discovery.browse(self._found, self._lost, None)
        except (OSError, ImportError, RuntimeError, ValueError) as exc:  # no network or multicast: say so, play on
            self.discovery = None
            self.error = str(exc) or type(exc).__name__

    def advertise(self, ad: Any) -> None:
        self.ours = ad
        if self.discovery is not None:
            self.discovery.advertise(ad).addErrback(lambda f: self._fail(f.getErrorMessage()))

    def refresh(self, ad: Any) -> None:
        """Our table changed (a seat taken or freed, in the lobby): others' lists show the new count
        of free seats (they kept the first one until the table vanished)."""
        if self.ours is None or ad == self.ours:
            return
        self.ours = ad
        if self.discovery is not None:
            self.discovery.update(ad).addErrback(lambda f: self._fail(f.getErrorMessage()))

    def _fail(self, message: str) -> None:
        self.error = message
        self.on_change()

    def _found(self, ad: Any) -> None:
        from net.transport.discovery import service_name

        name = service_name(ad)
        if name not in self.tables and len(self.tables) >= MAX_LAN_TABLES:
            return  # a flood of advertisements on the LAN (updates of listed tables still count)
        self.tables[name] = ad
        self.on_change()

    def _lost(self, name: str) -> None:
        self.tables.pop(name, None)
        self.on_change()

    def close(self) -> None:
        if self.discovery is not None:
            self.discovery.close().addErrback(lambda f: None)
            self.discovery = None
