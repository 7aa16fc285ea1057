"""``python -m tools.peer``: play one seat of a networked table over TCP.

    python -m tools.peer host --game rider [--seats 2] [--port P] [--bot NAME] [--deck FILE] [--journal DIR]
    python -m tools.peer join CODE [--bot NAME] [--deck FILE] [--journal DIR] [--listen ADDR | --no-listen]
    python -m tools.peer resume DIR
    python -m tools.peer list [--seconds S] [--json]

``host`` opens a table, prints its invite code on one line of stdout (give it
to the other players) and plays seat 1; ``join`` takes a seat at the table
of an invite code (and listens for direct links from the other joiners,
``--listen ADDR`` / ``--port P``; ``--no-listen`` relays everything through
the host); ``resume`` restarts a peer that died from its journal
directory and catches up; ``list`` browses the LAN for tables advertised
with ``host --lan`` (zeroconf) and prints them with their invite codes.
Progress lines go to stderr, the result to stdout
(one JSON object with ``--json``). See docs/protocol.md §14.

Exit status: 0 = the game finished and every check passed (or ended as
another stalling seat's forfeit, ``--claim-forfeits``, or as abandoned while
we waited for silent seats), 1 = the game did not
finish, a check failed (desync, cheat, audit) or our own seat forfeited (the
reason is printed), 2 = bad input (a bad
invite code, a deck that cannot be used, a directory that cannot be resumed).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from twisted.internet import task

from net.identity import Identity
from net.games import DEFAULT_GAME, GameEntry, game_named, load_rules_module
from net.peer.bot_seats import add_bot
from net.peer import Peer
from net.peer.driver import join_interface
from net.peer.store import StoreError, load_peer
from net.seats import for_people, seat_label, seats_label
from net.transport.errors import InviteError
from net.transport.invite import parse_invite
from tools._cli import run as run_cli
from tools.match import who_won

LOOPBACK = "127.0.0.1"


class Problem(Exception):
    """Bad input; the message says what to do."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tools.peer", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--journal", metavar="DIR", help="keep the journal here (needed to resume after a crash)")
        p.add_argument("--save", metavar="FILE", help="write the game transcript to FILE at the end")
        p.add_argument("--json", action="store_true", help="print the result as one JSON object")
        p.add_argument("--max-time", type=float, default=None, metavar="S",
                       help="give up if the game has not finished after S seconds")
        p.add_argument("--rules-module", metavar="MOD",
                       help="import a module (name or .py file) that registers extra games (for tests)")
        p.add_argument("--timeout", type=float, default=None, metavar="S",
                       help="deadline per pending input before a seat is reported as stalling")
        p.add_argument("--claim-forfeits", action="store_true",
                       help="when a seat misses its deadline (--timeout), claim the game as its forfeit")
        p.add_argument("--progress-every", type=int, default=10, metavar="N",
                       help="print who the table waits for every N steps (default 10)")
        p.add_argument("--verbose", "-v", action="store_true", help="also log every transport event")
        p.add_argument("--hashes", metavar="FILE",
                       help="write the public state hash after every step to FILE (JSON) at the end")
        p.add_argument("--linger", type=float, default=3.0, metavar="S",
                       help="after the end, wait at most S seconds for every peer to say it is done")

    def online(p: argparse.ArgumentParser) -> None:
        p.add_argument("--mailbox", metavar="URL", default=None,
                       help="wormhole mailbox server (default: FAIRTABLE_MAILBOX, else the public magic-wormhole one)")
        p.add_argument("--relay", metavar="HINT", default=None,
                       help="transit relay, tcp:HOST:PORT (default: FAIRTABLE_RELAY, else the public one)")
        p.add_argument("--no-direct", action="store_true",
                       help="online: never try a direct connection, always go through the relay")

    def seat(p: argparse.ArgumentParser) -> None:
        p.add_argument("--game", default=None,
                       help=f"the game (host default: {DEFAULT_GAME}; join: the game the invite code names)")
        p.add_argument("--bot", default=None, help="the bot playing this seat (default: the game's first default bot)")
        p.add_argument("--seed", type=int, default=None, help="seed of the bot's choices (default: random)")
        p.add_argument("--delay", type=float, default=0.0, metavar="S", help="the bot waits S seconds per move")
        p.add_argument("--deck", metavar="FILE", help="deck file (games with decks; default: a shipped deck)")
        p.add_argument("--cardset", metavar="FILE", help="card set of the deck file (default: the shipped set)")
        p.add_argument("--identity", metavar="FILE",
                       help="identity key file (default: DIR/identity.pem with --journal, else your user key)")
        p.add_argument("--name", default="", help="name shown to the other players")
        common(p)

    host = sub.add_parser("host", help="open a table and print its invite code")
    seat(host)
    host.add_argument("--seats", type=int, default=2, help="number of seats (default 2)")
    host.add_argument("--watchers", type=int, default=0, metavar="N",
                      help="let up to N people watch without a seat (join CODE --watch; default 0: none)")
    host.add_argument("--no-watcher-chat", action="store_true", help="watchers may not chat at this table")
    host.add_argument("--add-bot", action="append", default=[], metavar="KIND",
                      help="seat a bot of KIND (one of the game's bots) in an empty seat, run on this computer "
                           "with its own key (repeatable; net/peer/bot_seats.py)")
    host.add_argument("--port", type=int, default=0, help="TCP port to listen on (default: any free port)")
    host.add_argument("--listen", default=None, metavar="ADDR",
                      help="address to listen on (default 127.0.0.1, or 0.0.0.0 with --lan)")
    host.add_argument("--lan", action="store_true",
                      help="advertise the table on the LAN (zeroconf) until the game starts")
    host.add_argument("--lan-loopback", action="store_true", help=argparse.SUPPRESS)  # tests: mDNS on 127.0.0.1
    host.add_argument("--advertise", action="append", default=[], metavar="ADDR",
                      help="address to put in the invite code (repeatable; default: the listen address)")
    host.add_argument("--online", action="store_true",
                      help="also invite friends across the internet: print one wormhole code per friend")
    host.add_argument("--invites", type=int, default=None, metavar="N",
                      help="online: codes open at once (default: one per free seat); a used, failed or expired "
                           "code is replaced by a new one while seats are free")
    host.add_argument("--no-reinvite", action="store_true", help="online: do not replace failed or expired codes")
    host.add_argument("--invite-ttl", type=float, default=600.0, metavar="S",
                      help="online: an unused code is withdrawn after S seconds (default 600)")
    online(host)
    join = sub.add_parser("join", help="take a seat at the table of an invite code")
    join.add_argument("code", help="the host's wormhole code (7-word-word) or LAN invite code (FT1-...)")
    seat(join)
    online(join)
    join.add_argument("--watch", action="store_true",
                      help="watch the table without a seat: every message is checked, only the public view is shown")
    join.add_argument("--connect-timeout", type=float, default=30.0, metavar="S",
                      help="give up if no game starts within S seconds")
    join.add_argument("--listen", default=None, metavar="ADDR",
                      help="also accept direct links from the other joiners on ADDR (default: 127.0.0.1 when "
                           "the host is on loopback, else 0.0.0.0)")
    join.add_argument("--port", type=int, default=0, help="TCP port for direct links (default: any free port)")
    join.add_argument("--no-listen", action="store_true",
                      help="accept no connections: every message to the other joiners goes through the host")
    browse = sub.add_parser("list", help="list the tables advertised on the LAN (host --lan)")
    browse.add_argument("--seconds", type=float, default=3.0, metavar="S", help="browse for S seconds (default 3)")
    browse.add_argument("--json", action="store_true", help="print one JSON object per table")
    browse.add_argument("--lan-loopback", action="store_true", help=argparse.SUPPRESS)
    resume = sub.add_parser("resume", help="restart a peer from its journal directory")
    resume.add_argument("directory", help="the --journal DIR the peer was started with")
    resume.add_argument("--bot", default=None, help="the bot playing this seat (default: the game's first default bot)")
    resume.add_argument("--seed", type=int, default=None, help="seed of the bot's choices")
    resume.add_argument("--delay", type=float, default=0.0, metavar="S", help="the bot waits S seconds per move")
    resume.add_argument("--identity", metavar="FILE", help="identity key file (default: the one recorded)")
    online(resume)
    common(resume)
    return parser


def load_deck_for(entry: GameEntry[Any], args: argparse.Namespace, default_seat: int) -> tuple[str, ...] | None:
    """The seat's deck: ``--deck FILE`` (checked), else the game's shipped deck; None for a game without decks."""
    if not entry.needs_deck:
        if args.deck:
            raise Problem(f"{entry.title} has no decks; drop --deck")
        return None
    from tools._cli import InputProblem, deck_tool

    if args.deck is None:
        assert entry.shipped_deck is not None
        return entry.shipped_deck(default_seat)
    try:
        return tuple(deck_tool(entry).deck_cards(args.deck, args.cardset))
    except InputProblem as exc:
        raise Problem(str(exc)) from None


# --- LAN (zeroconf) ---------------------------------------------------------------------

Discovery = Callable[[Any, bool], Any]


def lan_discovery(reactor: Any, loopback_only: bool) -> Any:
    """The real zeroconf discovery (net.transport.discovery); tests pass a fake instead."""
    from net.transport.discovery import LanDiscovery

    return LanDiscovery(reactor, loopback_only=loopback_only)


def browse_tables(reactor: Any, discovery: Any, seconds: float) -> Any:
    """Browse for ``seconds``; a Deferred firing with the tables seen and still there
    (sorted by name), after the discovery is closed."""
    from twisted.internet import defer

    from net.transport.discovery import service_name

    found: dict[str, Any] = {}
    result: defer.Deferred[list[Any]] = defer.Deferred()

    def lost(name: str) -> None:
        found.pop(name, None)

    def bad(name: str, why: str) -> None:
        print(f"ignored the advertisement {name!r}: {why}", file=sys.stderr, flush=True)

    def done() -> None:
        tables = sorted(found.values(), key=lambda ad: (ad.name, ad.fingerprint))
        closing = discovery.close()
        closing.addErrback(lambda failure: None)  # closing trouble does not hide what we found
        closing.addCallback(lambda _: result.callback(tables))

    discovery.browse(lambda ad: found.__setitem__(service_name(ad), ad), lost, bad)
    reactor.callLater(seconds, done)
    return result


def table_lines(tables: Sequence[Any], as_json: bool) -> list[str]:
    """How ``list`` prints the tables: one line each (or one JSON object each)."""
    from net.transport.errors import InviteError

    lines = []
    for ad in tables:
        try:
            code = ad.invite().encode()
        except InviteError:
            code = None
        if as_json:
            lines.append(json.dumps({"name": ad.name, "game": ad.game, "seats_free": ad.seats_free,
                                     "fingerprint": ad.fingerprint, "addresses": list(ad.addresses),
                                     "port": ad.port, "invite": code}, sort_keys=True))
        else:
            where = ", ".join(f"{a}:{ad.port}" for a in ad.addresses) or "no address"
            lines.append(f"{ad.name or '(no name)'} - {ad.game}, {ad.seats_free} seat(s) free, host key "
                         f"{ad.fingerprint}, at {where}: " + (f"python -m tools.peer join {code}" if code
                                                              else "cannot be joined (no address)"))
    return lines


def list_tables(args: argparse.Namespace, out: Any, discovery: Discovery) -> int:
    from twisted.internet import reactor as the_reactor

    reactor: Any = the_reactor
    if not 0 < args.seconds <= 60:
        raise Problem("--seconds must be between 0 and 60")
    try:
        lan = discovery(reactor, args.lan_loopback)
    except (OSError, RuntimeError, ValueError) as exc:
        raise Problem(f"cannot search this network ({exc or type(exc).__name__}); ask the host for an "
                      "invite code instead") from None
    tables: list[Any] = []
    browse_tables(reactor, lan, args.seconds).addCallback(tables.extend).addBoth(lambda _: reactor.stop())
    reactor.run()
    for line in table_lines(tables, args.json):
        print(line, file=out, flush=True)
    if not tables:
        print(f"no tables found on this network within {args.seconds:g} s; check that the host used --lan "
              "and is on this network, or ask for its invite code", file=sys.stderr, flush=True)
    return 0


class LanAdvert:
    """A hosted table advertised on the LAN until its game starts (or the peer ends; a table that
    lets people watch, until its game ends)."""

    def __init__(self, peer: Peer, discovery: Any, name: str, report: Callable[[str], None]) -> None:
        self.peer = peer
        self.discovery: Any = discovery
        self.report = report
        assert peer.net is not None
        ad = peer.net.table_ad(name, peer.entry.name, self.seats_free())
        discovery.advertise(ad).addErrback(lambda f: report(f"the LAN advertisement failed: "
                                                           f"{f.getErrorMessage()}; use the invite code"))
        report(f"advertising the table on the LAN as {ad.name!r} (python -m tools.peer list shows it)")
        self._watch = task.LoopingCall(self._check)
        self._watch.clock = peer.reactor
        self._watch.start(0.25, now=False)

    def seats_free(self) -> int:
        lobby = self.peer.host_lobby
        return 0 if lobby is None else lobby.size - len(lobby.seated)

    def _check(self) -> None:
        # a table that lets people watch stays listed during its game (no seat free: watchers only)
        if (self.peer.genesis is not None and self.peer.desk is None) or self.peer.result is not None:
            self.close()

    def close(self) -> Any:
        """Withdraw the advertisement; a Deferred that fires when it is gone."""
        from twisted.internet import defer

        if self._watch.running:
            self._watch.stop()
        if self.discovery is None:
            return defer.succeed(None)
        discovery, self.discovery = self.discovery, None
        self.report("the table is no longer advertised on the LAN")
        closing = discovery.close()
        closing.addErrback(lambda failure: None)
        return closing


def online_settings(args: argparse.Namespace, saved: dict[str, Any] | None) -> Any:
    """Mailbox and relay from the flags, else what a resumed peer recorded, else the
    environment or the public servers (net.transport.wormhole.WormholeSettings)."""
    from net.transport.wormhole import WormholeSettings

    saved = saved or {}
    mailbox = getattr(args, "mailbox", None) or saved.get("mailbox")
    relay = getattr(args, "relay", None) or saved.get("relay")
    direct = False if getattr(args, "no_direct", False) else saved.get("direct")
    return WormholeSettings.from_env(mailbox=mailbox, relay=relay,
                                     direct=direct if isinstance(direct, bool) else None)


def start_online_host(peer: Peer, settings: Any, args: argparse.Namespace, out: Any,
                      directory: Path | None) -> Any:
    """Open the wormhole invites of ``host --online``; each code is printed on its own stdout line."""
    from net.peer.online import OnlineHost

    invites = args.invites
    if invites is not None and invites < 1:
        raise Problem("--invites must be at least 1")

    def show(code: str) -> None:
        print(code, file=out, flush=True)

    def show_watch(code: str) -> None:
        print(f"watch: {code}", file=out, flush=True)

    host = OnlineHost(peer, settings, invites=invites, reinvite=not args.no_reinvite,
                      invite_ttl=args.invite_ttl, on_code=show, watch_codes=1 if args.watchers else 0,
                      on_watch_code=show_watch)
    host.start()
    print(f"[host] online: one code per friend; they run: python -m tools.peer join CODE (mailbox "
          f"{settings.mailbox})", file=sys.stderr, flush=True)
    return host


def identity_for(args: argparse.Namespace, directory: Path | None) -> tuple[Identity, Path | None]:
    path = Path(args.identity) if args.identity else (directory / "identity.pem" if directory else None)
    return Identity.load_or_create(path), path


def run(args: argparse.Namespace, out: Any = None, discovery: Discovery = lan_discovery) -> int:
    """Run one peer until its game ends (or list LAN tables); print the result; return the exit status."""
    from twisted.internet import reactor as the_reactor
    from twisted.internet.error import CannotListenError

    reactor: Any = the_reactor
    out = out or sys.stdout
    if args.command == "list":
        return list_tables(args, out, discovery)
    if args.verbose:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(PeopleFormatter("[%(name)s] %(message)s"))
        logging.basicConfig(level=logging.INFO, handlers=[handler])
    if args.rules_module:
        try:
            load_rules_module(args.rules_module)
        except ValueError as exc:
            raise Problem(str(exc)) from None
    directory = Path(args.journal if args.command != "resume" else args.directory) \
        if (args.command == "resume" or args.journal) else None
    saved: dict[str, Any] = {}
    if args.command == "resume":
        assert directory is not None
        try:
            saved = load_peer(directory)
        except StoreError as exc:
            raise Problem(str(exc)) from None
        game_name = str(saved.get("game"))
        if args.identity is None and isinstance(saved.get("identity"), str):
            args.identity = saved["identity"]
    else:
        game_name = args.game or DEFAULT_GAME
    invite = None
    wormhole_code = None
    if args.command == "join":
        from net.transport.wormhole import WormholeProblem, looks_like_wormhole_code, parse_code

        try:
            if looks_like_wormhole_code(args.code):
                wormhole_code = parse_code(args.code)
            else:
                invite = parse_invite(args.code)
        except InviteError as exc:
            raise Problem(f"bad invite code: {exc}") from None
        except WormholeProblem as exc:
            raise Problem(f"bad code: {exc}") from None
        if invite is not None and invite.game:  # the host's game comes with its code
            if args.game is not None and args.game != invite.game:
                raise Problem(f"this code is for a {invite.game} table, not {args.game}; drop --game to play "
                              f"the host's game")
            game_name = invite.game
    try:
        entry = game_named(game_name)
    except ValueError as exc:
        if invite is not None and invite.game:
            raise Problem(f"the host plays {invite.game!r}, which this Fairtable does not know; install the "
                          "host's Fairtable release") from None
        raise Problem(str(exc)) from None
    if not entry.networked:
        raise Problem(f"{entry.title} plays only on a local table for now (python -m tools.match {entry.name}); "
                      "its networked table is future work")
    online_saved = saved.get("online") if isinstance(saved.get("online"), dict) else None
    settings = online_settings(args, online_saved)
    deck = load_deck_for(entry, args, 0 if args.command == "host" else 1) if args.command != "resume" else None
    identity, id_path = identity_for(args, directory)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    try:
        bot_kind = args.bot or entry.default_bots[0]
        agent = entry.bot(bot_kind, random.Random(f"{seed}/peer/{identity.fingerprint}"))
    except ValueError as exc:
        raise Problem(str(exc)) from None
    tag = {"host": "host", "join": "join", "resume": "resume"}[args.command]
    watch = args.command == "join" and args.watch
    if watch:
        tag = "watch"
    if args.command == "host" and not 0 <= args.watchers <= 64:
        raise Problem(f"--watchers takes 0 to 64, not {args.watchers}")

    def report(text: str) -> None:
        print(f"[{tag}] {text}", file=sys.stderr, flush=True)

    results: list[dict[str, Any]] = []
    advert: list[LanAdvert] = []

    def on_end(result: dict[str, Any]) -> None:
        results.append(result)
        if advert:
            advert[0].close().addBoth(lambda _: reactor.callLater(0.1, reactor.stop))
        else:
            reactor.callLater(0.1, reactor.stop)

    peer = Peer(identity, entry, reactor=reactor, deck=deck, agent=agent, delay=args.delay, directory=directory,
                name=getattr(args, "name", "") or saved.get("name", "") or ("Watcher" if watch else bot_name(bot_kind)),
                report=report, on_end=on_end, transcript=Path(args.save) if args.save else None,
                linger=args.linger, session_timeout=args.timeout,
                claim_forfeits=args.claim_forfeits and not watch, progress_every=max(1, args.progress_every),
                watch=watch, watchers=args.watchers if args.command == "host" else 0,
                watcher_chat=not getattr(args, "no_watcher_chat", False))
    if watch:
        peer.agent = None  # a watcher holds no seat: nothing to play
    try:
        if args.command == "host":
            advertise = tuple((a, args.port) for a in args.advertise)
            if advertise and args.port == 0:
                raise Problem("--advertise needs a fixed --port so the invite can name it")
            interface = args.listen or ("0.0.0.0" if args.lan and not args.lan_loopback else LOOPBACK)
            invite_code = peer.host(args.seats, interface=interface, port=args.port, advertise=advertise).encode()
            print(invite_code, file=out, flush=True)
            if len(args.add_bot) > args.seats - 1:
                raise Problem(f"{len(args.add_bot)} bots do not fit at a table of {args.seats} seats with the host")
            for kind in args.add_bot:
                try:
                    add_bot(peer, kind)
                except ValueError as exc:
                    raise Problem(str(exc)) from None
                report(f"a {kind} bot takes an empty seat (it runs here, with its own key)")
            report("give the invite code above to the other players: python -m tools.peer join CODE")
            if args.lan:
                try:
                    advert.append(LanAdvert(peer, discovery(reactor, args.lan_loopback), peer.name, report))
                except (OSError, RuntimeError, ValueError) as exc:  # no multicast here: the code still works
                    report(f"cannot advertise on this network ({exc or type(exc).__name__}); use the invite code")
            if args.online:
                start_online_host(peer, settings, args, out, directory)
        elif args.command == "join" and wormhole_code is not None:
            from net.peer.online import OnlineJoin

            if args.listen is not None or args.port:
                raise Problem("--listen and --port are for LAN invites; an online joiner reaches the host and the "
                              "other players through the wormhole")
            kept = {"identity": str(id_path.resolve())} if id_path is not None else {}

            def adopt(game: str) -> None:
                """The host's game, named by its offer once the code pairs: play it with its own
                bot and deck (without --game; with it, another game is refused)."""
                try:
                    other = game_named(game)
                except ValueError:
                    raise ValueError(f"the host plays {game!r}, which this Fairtable does not know; install the "
                                     "host's Fairtable release") from None
                if not other.networked:
                    raise ValueError(f"the host plays {other.title}, which plays only on a local table here")
                try:
                    kind = args.bot or other.default_bots[0]
                    bot = other.bot(kind, random.Random(f"{seed}/peer/{identity.fingerprint}"))
                    peer.switch_game(other, deck=load_deck_for(other, args, 1), agent=bot)
                except Problem as exc:
                    raise ValueError(str(exc)) from None
                if not getattr(args, "name", ""):
                    peer.name = bot_name(kind)

            OnlineJoin(peer, settings, connect_timeout=args.connect_timeout, keep=kept,
                       adopt=None if args.game else adopt).join(wormhole_code)
        elif args.command == "join":
            assert invite is not None
            if args.no_listen and (args.listen is not None or args.port):
                raise Problem("--no-listen cannot be combined with --listen or --port; pick one")
            listen = None if args.no_listen or watch else (args.listen or join_interface(invite))
            peer.join(invite, connect_timeout=args.connect_timeout, listen=listen, port=args.port)
        else:
            from net.peer import online

            online.resume(peer, settings if online_saved is not None else None)
    except StoreError as exc:
        raise Problem(str(exc)) from None
    except (OSError, CannotListenError) as exc:  # e.g. the port is taken
        raise Problem(f"cannot open the network connection: {exc}; pick another --port or check the address") \
            from None
    if directory is not None and id_path is not None and args.command != "resume" and wormhole_code is None:
        from net.peer import store

        store.save_peer(directory, {**store.load_peer(directory), "identity": str(id_path.resolve())})
    if args.max_time:
        peer.give_up(args.max_time)
    reactor.run()
    result = results[0] if results else peer.summary("interrupted")
    if args.hashes and peer.session is not None:
        Path(args.hashes).write_text(json.dumps([h.hex() for h in peer.session.hashes]), encoding="utf-8")
    code, problem = exit_status(result)
    if args.json:
        print(json.dumps(result, sort_keys=True), file=out, flush=True)
    elif result["error"] is not None:
        print(f"error: {for_people(str(result['error']))}", file=out, flush=True)
    else:
        who = who_won(result)
        print(f"game over: {who} ({for_people(str(result.get('reason')))}); "
              f"audit: {for_people(str(result.get('audit')))}; "
              f"final state hash {result.get('final_hash')}", file=out, flush=True)
    for m in result.get("misconduct") or ():
        print(f"warning: {seat_label(m['seat'])} at step {m['step']}: {for_people(m['what'])}", file=sys.stderr,
              flush=True)
    if problem:
        print(f"error: {problem}", file=sys.stderr, flush=True)
    return code


def exit_status(result: dict[str, Any]) -> tuple[int, str]:
    """The exit status for a peer's result, and why it is not 0 (empty when it is).

    A game another seat forfeited is finished but not audited: 0. A game our
    own seat forfeited is a loss we did not play out: 1, saying so.
    """
    if result["error"] is not None:
        return 1, ""
    if not result["finished"]:
        return 1, "the game did not finish"
    forfeited = result.get("forfeited")
    if forfeited is not None and forfeited == result.get("seat"):
        f = result.get("forfeit") or {}
        return 1, (f"this seat ({seat_label(forfeited)}) forfeited: it did not {f.get('owed', 'answer')} before "
                   f"the deadline at step {f.get('step', '?')} and {seats_label(f.get('claimers', []))} claimed the "
                   "forfeit; "
                   "answer sooner, or ask the table for a longer --timeout")
    abandoned = result.get("abandoned")
    if abandoned is not None and result.get("seat") in abandoned.get("silent", []):
        return 1, (f"this seat ({seat_label(result['seat'])}) did not {abandoned.get('owed', 'answer')} before the "
                   f"abandonment deadline at step {abandoned.get('step', '?')}, and the waiting seats ended the "
                   "game as abandoned; answer sooner, or ask the table for a longer --timeout")
    if result.get("seat") in (result.get("gone") or []) and forfeited != result.get("seat"):
        return 1, f"this seat ({seat_label(result['seat'])}) left the game before its end (it resigned or forfeited)"
    if forfeited is None and abandoned is None and result.get("audit") != "ok":
        return 1, f"the end-of-game audit failed: {for_people(str(result.get('audit')))}"
    return 0, ""


class PeopleFormatter(logging.Formatter):
    """Log lines for a person (``--verbose``): the session's and the transport's texts
    count seats from 0, like the records they come from; the line shown counts from 1."""

    def format(self, record: logging.LogRecord) -> str:
        return for_people(super().format(record))


def bot_name(bot: str) -> str:
    """The name a peer shows the others when none is given: the bot that plays its seat ("Greedy bot")."""
    return f"{bot.capitalize()} bot"


def main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        return run(args)
    except Problem as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    run_cli(main)
