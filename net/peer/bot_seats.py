"""Bots in a networked table's empty seats, run on the host's computer.

A host whose friends are fewer than the seats fills the rest with bots
before the start (the lobby's *Add a bot*, ``tools.peer host --add-bot
KIND``). Each bot is a whole :class:`~net.peer.Peer` of its own in the
host's process (made as ``type(host)``: the driver imports this module to
resume its bots, so this module does not import the driver): a fresh
identity key, its own agent (a registry bot of the chosen level), and a join
over loopback to the host's own listening port, so it takes part in every
joint protocol exactly like a person's seat and the other seats cannot tell
it from one.

A host that keeps a directory (a client's table, ``tools.peer host
--dir``) keeps each bot's in ``<its directory>/bots/<n>``: the bot's key
seed, kind and name (``store.BOT_FILE``), beside the bot's own peer record and
journal. When the host's window closes or crashes mid-game its bots go with
it; :func:`resume_bots` brings them back with the host's resume, so the
table plays on instead of waiting for seats nobody can bring back.

What the host could learn: the bot's keys and secrets sit in the host's
process (and its directory), so the host could read the bot's own hidden cards (its hand, its
sealed picks); a cheating host gains no more from that than a player who
teams up with one seat. It learns nothing more about anyone else: every
other seat's cards stay encrypted under that seat's key (docs/security.md,
"Bots in networked seats").
"""

from __future__ import annotations

import random
import secrets
from typing import TYPE_CHECKING

from net.identity import Identity
from net.peer import store
from net.transport.invite import Invite
from net.transport.messages import Address

if TYPE_CHECKING:
    from net.peer.driver import Peer

#: How long a bot waits for a seat at its own host's table (it is on the same computer).
BOT_JOIN_TIMEOUT = 30.0
#: The host directory's folder of its bots' directories, one per bot (numbered from 1).
BOTS_DIR = "bots"


def loopback_of(address: Address) -> Address:
    """Where a process on the host's computer dials a listening address (an any-interface one: loopback)."""
    host, port = address
    return ("127.0.0.1", port) if host in ("0.0.0.0", "", "::") else (host, port)


def open_seats(host: Peer) -> int:
    """Seats of ``host``'s open table that no player holds and no bot is on its way to (a bot
    added a moment ago takes its seat once its join arrives; counting it keeps two quick clicks
    from adding a bot the table has no seat for). 0 without an open table."""
    lobby = host.host_lobby
    if lobby is None or host.genesis is not None:
        return 0
    coming = sum(1 for bot in host.bot_seats if bot.result is None and lobby.seat_of(bot.identity.public_key) is None)
    return max(0, lobby.size - len(lobby.seated) - coming)


def add_bot(host: Peer, kind: str, *, name: str = "", seed: int | None = None,
            identity: Identity | None = None, key_seed: bytes | None = None) -> Peer:
    """Seat a bot of ``kind`` (a bot of the host's game) at ``host``'s open table; return its Peer.
    ``identity`` or its ``key_seed``: the key of the same bot at the last game (a rematch lets in
    only its players); only a bot whose seed is known can be kept in the host's directory.

    ValueError, saying what to do, when the host has no open table, the table
    is full or started, or the game has no such bot."""
    lobby = host.host_lobby
    if lobby is None or host.invite is None or host.net is None:
        raise ValueError("only the host of an open table can add a bot; host a table first")
    if open_seats(host) == 0:
        raise ValueError("the table has no empty seat for a bot: every seat is taken or has a bot on its way")
    entry = host.entry
    rng = random.Random(secrets.randbits(63) if seed is None else seed)
    agent = entry.bot(kind, rng)  # ValueError naming the game's bots
    listening = host.mesh.listen
    if not listening:
        raise ValueError("the table does not listen on this computer, so a bot cannot reach it")
    deck = entry.shipped_deck(len(lobby.seated)) if entry.needs_deck and entry.shipped_deck is not None else None
    number = len(host.bot_seats) + 1
    if key_seed is None and identity is None:
        key_seed = secrets.token_bytes(32)
    if key_seed is not None:
        identity = Identity.from_seed(key_seed)
    assert identity is not None
    seed_kept = key_seed
    name = name or f"{kind.capitalize()} bot {number}"
    directory = None
    if host.directory is not None and seed_kept is not None:
        directory = host.directory / BOTS_DIR / str(number)
        store.save_bot(directory, {"seed": seed_kept, "kind": kind, "name": name})
    bot = type(host)(identity, entry, reactor=host.reactor, deck=deck, agent=agent, delay=host.delay, name=name,
                     linger=host.linger, session_timeout=host.session_timeout, net_factory=host.net_factory,
                     directory=directory)
    bot.bot_kind, bot.bot_seed = kind, seed_kept
    host.bot_seats.append(bot)
    bot.join(Invite(host.invite.table, host.identity.fingerprint, (loopback_of(listening[0]),), entry.name),
             connect_timeout=BOT_JOIN_TIMEOUT)
    return bot


def resume_bots(host: Peer) -> list[Peer]:
    """As a host resumed from its directory: bring back the bots it had seated in the game (each
    from its own directory, its key from ``store.BOT_FILE``); a bot directory that cannot be resumed
    (the game had not started for it, or it is damaged) is reported and skipped."""
    if host.directory is None or not (host.directory / BOTS_DIR).is_dir():
        return []
    back = []
    for directory in sorted((host.directory / BOTS_DIR).iterdir(), key=lambda d: (len(d.name), d.name)):
        if not (directory / store.GENESIS_FILE).exists():
            continue  # it never sat down at the game: nothing to resume
        try:
            info = store.load_bot(directory)
            kind = str(info["kind"])
            agent = host.entry.bot(kind, random.Random(secrets.randbits(63)))
            bot = type(host)(Identity.from_seed(bytes(info["seed"])), host.entry, reactor=host.reactor, agent=agent,
                             delay=host.delay, name=str(info["name"]), linger=host.linger,
                             session_timeout=host.session_timeout, net_factory=host.net_factory,
                             directory=directory)
            bot.bot_kind, bot.bot_seed = kind, bytes(info["seed"])
            bot.resume()
        except Exception as exc:  # noqa: BLE001 - any bot's trouble (a damaged journal too) must not undo the host's resume
            host.report(f"the bot in {directory} cannot be resumed ({exc}); its seat may stall the table")
            continue
        host.bot_seats.append(bot)
        back.append(bot)
    return back


def seat_again(host: Peer, old: Peer) -> list[Peer]:
    """A rematch: the bots ``old`` (the last game's host peer) seated take their seats at
    ``host``'s new table with the same keys, kinds and names (they never press *Play again*)."""
    return [add_bot(host, bot.bot_kind, name=bot.name, identity=bot.identity, key_seed=bot.bot_seed)
            for bot in old.bot_seats if bot.bot_kind is not None and open_seats(host) > 0]
