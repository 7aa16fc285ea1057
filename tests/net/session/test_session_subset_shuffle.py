"""Shuffles by the seats that draw (genesis ``drawers-beacon/v1``, net/session/subset_shuffle.py).

A four-seat Tiny table whose plan names seat 0 as the only drawer of its deck:
seats 0 and 1 shuffle it (a lone drawer gets the next seat), every seat sends
its beacon part, and seats 2 and 3, dealt later, each reshuffle the deck first
at their deal's step. Every other rule of the game is unchanged, so the game
ends with every hand right and the same state everywhere. Tampered or
misplaced parts are refused with the sender named.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from engine.core.encoding import decode
from engine.core.pending import CardsRevealed, HiddenOp
from engine.tiny.game import TinyGame, TinyState
from net.bots.random_bot import RandomBot
from net.envelope import DICE_COMMIT_REVEAL, SHUFFLES_DRAWERS, SHUFFLES_EVERY_SEAT, Envelope, Genesis, sign_envelope
from net.errors import MalformedMessage
from net.games import table_for
from net.identity import Identity
from net.session import Rejected, Session
from net.session.events import Cheat
from net.session.loopback import Loopback, Tap
from net.session.core import Outgoing
from net.poker.protocol import RevealRound
from net.session.subset_shuffle import shufflers_for
from tests.net.session.harness import identities, tiny_table

SEATS = 4


def only_seat_0(state: Any, zone: str) -> tuple[int, ...] | None:
    return (0,) if zone == "deck" else None


def _table(drawers: Callable[[Any, str], tuple[int, ...] | None] = only_seat_0, *,
           shuffle_seed: int | None = None, **genesis: Any) -> tuple[Loopback, list[Identity]]:
    _, base = tiny_table(SEATS)
    record = dataclasses.replace(base, **genesis) if genesis else base
    table = table_for(record)
    plan = dataclasses.replace(table.plan, drawers=drawers)
    ids = identities(SEATS, tag="tiny")
    sessions = [Session(record, table.game, table.state, plan=plan, identity=ids[s], seat=s,
                        agent=RandomBot(random.Random(300 + s))) for s in range(SEATS)]
    return Loopback(sessions, shuffle_seed), ids


def _count(lb: Loopback) -> Counter[tuple[int, str, int]]:
    """(step, kind, seat) of every broadcast envelope."""
    seen: Counter[tuple[int, str, int]] = Counter()

    def tap(seat: int, out: Outgoing) -> Outgoing:
        env = Envelope.from_data(decode(out.data))
        if out.to is None:
            seen[(env.seen.step, env.kind, seat)] += 1
        return out

    lb.tap = tap
    return seen


def _shufflers(seen: Counter[tuple[int, str, int]], step: int) -> list[int]:
    return sorted(seat for (t, kind, seat) in seen if t == step and kind == "shuffle")


def test_only_the_drawer_and_one_more_seat_shuffle_and_later_drawers_reshuffle_first() -> None:
    lb, _ = _table()
    seen = _count(lb)
    lb.start()
    lb.run()
    assert all(s.finished and s.verdict == "ok" for s in lb.sessions), [s.halted for s in lb.sessions]
    assert len({s.hashes[-1] for s in lb.sessions}) == 1
    assert _shufflers(seen, 0) == [0, 1]  # the drawer and the next seat, not all four
    assert sorted(seat for (t, kind, seat) in seen if t == 0 and kind == "roll") == [0, 1, 2, 3]  # the beacon
    assert _shufflers(seen, 1) == _shufflers(seen, 2) == []  # seats 0 and 1 shuffled: dealt at once
    assert _shufflers(seen, 3) == [2] and _shufflers(seen, 4) == [3]  # each later drawer reshuffles first
    # every seat knows exactly its own two cards, and they are the cards the engine dealt it
    for s in lb.sessions:
        assert s.seat is not None
        hand = s.state.hands[s.seat]
        assert all(s.knowledge.card(h) is not None for h in hand)
    assert lb.sessions[0].book is not None
    assert lb.sessions[0].book.shufflers["deck"][1] == frozenset({0, 1, 2, 3})


def test_a_zone_with_no_drawers_named_is_shuffled_by_every_seat_without_a_beacon() -> None:
    lb, _ = _table(lambda state, zone: None)
    seen = _count(lb)
    lb.start()
    lb.run()
    assert all(s.finished and s.verdict == "ok" for s in lb.sessions)
    assert _shufflers(seen, 0) == [0, 1, 2, 3]
    assert not [k for k in seen if k[0] == 0 and k[1] == "roll"]  # no beacon
    assert not [k for k in seen if k[1] == "shuffle" and k[0] > 0]  # every seat shuffled: no reshuffle
    assert lb.sessions[0].book is not None and "deck" not in lb.sessions[0].book.shufflers


def test_a_bad_step_of_a_shuffle_by_every_seat_halts_every_peer_too() -> None:
    """Pipelined as well: seat 2 builds on seat 1's step before checking it."""
    lb, ids = _table(lambda state, zone: None)
    lb.tap = _rewrite(ids, (0, "shuffle", 1), _swap_two)
    lb.start()
    lb.run()
    for s in lb.sessions:
        if s.seat != 1:
            assert isinstance(s.halted, Cheat) and s.halted.seat == 1, s.halted


def test_a_record_without_the_field_replays_with_every_seat_shuffling() -> None:
    lb, _ = _table(shuffles=SHUFFLES_EVERY_SEAT)
    seen = _count(lb)
    lb.start()
    lb.run()
    assert all(s.finished and s.verdict == "ok" for s in lb.sessions)
    assert _shufflers(seen, 0) == [0, 1, 2, 3]
    assert "shuffles" not in lb.sessions[0].genesis.to_data()


@pytest.mark.parametrize("order", [11, 12, 13, 14, 15, 16])
def test_the_result_does_not_depend_on_delivery_order(order: int) -> None:
    """Random delivery orders: shuffles, beacon parts and shares arrive early or late, and deferred
    checks (pipelining) fall due at different moments on each peer; the game ends the same everywhere."""
    lb, _ = _table(shuffle_seed=order)
    lb.start()
    lb.run()
    assert all(s.finished and s.verdict == "ok" for s in lb.sessions)
    assert len({s.hashes[-1] for s in lb.sessions}) == 1


def _rewrite(ids: list[Identity], at: tuple[int, str, int], change: Callable[[Any], Any]) -> Tap:
    """A tap that replaces seat ``at[2]``'s ``at[1]`` envelope of step ``at[0]`` by a re-signed one
    whose body is ``change(body)``: a seat that really sent that (its signature is good)."""

    def tap(seat: int, out: Outgoing) -> Outgoing:
        env = Envelope.from_data(decode(out.data))
        if (env.seen.step, env.kind, seat) != at:
            return out
        forged = sign_envelope(ids[seat], game=env.game, seat=env.seat, seq=env.seq, prev=env.prev, kind=env.kind,
                               body=change(env.body), seen=env.seen)
        return Outgoing(forged.to_bytes(), out.to)

    return tap


def _refusals(lb: Loopback, seat: int) -> list[Rejected]:
    return [e for s in lb.sessions if s.seat != seat for e in s.events if isinstance(e, Rejected) and e.seat == seat]


def _swap_two(body: Any) -> Any:
    deck = list(body["deck"])
    deck[0], deck[1] = deck[1], deck[0]
    return {**body, "deck": tuple(deck)}


@pytest.mark.parametrize("cheat", [0, 1])
def test_a_tampered_shuffle_halts_every_peer_naming_its_seat(cheat: int) -> None:
    """Seat 0's bad step is built on by seat 1 before seat 1 checks it (pipelining): seat 1 still
    halts naming seat 0 once it checks, as the others do at once. Seat 1's bad step (the last)
    is checked by everyone after their beacon part is out, with the same verdict."""
    lb, ids = _table()
    tamper = _rewrite(ids, (0, "shuffle", cheat), _swap_two)
    sent: Counter[tuple[int, str, int]] = Counter()

    def tap(seat: int, out: Outgoing) -> Outgoing | None:
        env = Envelope.from_data(decode(out.data))
        sent[(env.seen.step, env.kind, seat)] += 1
        return tamper(seat, out)

    lb.tap = tap
    lb.start()
    lb.run()
    for s in lb.sessions:
        if s.seat != cheat:
            assert isinstance(s.halted, Cheat) and s.halted.seat == cheat and s.halted.step == 0, s.halted
            assert "does not verify" in str(s.halted)
    assert not any(s.finished for s in lb.sessions)
    if cheat == 0:
        assert sent[(0, "shuffle", 1)] == 1  # seat 1 shuffled on top of seat 0's step before checking it


def test_a_beacon_part_with_a_bad_proof_is_refused_naming_its_seat() -> None:
    lb, ids = _table()
    lb.tap = _rewrite(ids, (0, "roll", 3), lambda body: {**body, "z": bytes(32)})
    lb.start()
    lb.run()
    refused = _refusals(lb, 3)
    assert refused and all(e.kind == "roll" for e in refused), refused
    assert not any(s.finished for s in lb.sessions)


def test_a_reshuffle_by_the_wrong_seat_is_refused_naming_it() -> None:
    """At seat 2's deal only seat 2 reshuffles: seat 0's shuffle there is refused, naming seat 0."""
    lb, ids = _table()
    forged: list[bytes] = []

    def tap(seat: int, out: Outgoing) -> Outgoing:
        env = Envelope.from_data(decode(out.data))
        if seat == 2 and env.kind == "shuffle" and env.seen.step == 3 and not forged:
            s0 = lb.sessions[0]
            w = s0._writer
            assert w is not None
            fake = sign_envelope(ids[0], game=s0.gid, seat=0, seq=w.next_seq, prev=w.head, kind="shuffle",
                                 body=env.body, seen=(s0.step, s0.hashes[s0.step]))
            forged.append(fake.to_bytes())
            for other in lb.sessions[1:]:
                lb.post(other.seat or 0, other.receive(fake.to_bytes(), sender="peer-0", via=0))
        return out

    lb.tap = tap
    lb.start()
    lb.run()
    assert forged
    refused = _refusals(lb, 0)
    assert refused and all(e.kind == "shuffle" and "only seats [2]" in e.error for e in refused), refused


def test_shares_made_before_the_reshuffle_are_refused_naming_the_sharer() -> None:
    """Seat 1 skips seat 2's reshuffle and sends its decryption shares of the deck as it was: they
    do not decrypt the reshuffled deck, so every peer refuses them and names seat 1."""
    lb, ids = _table()
    stale: dict[str, Any] = {}

    def tap(seat: int, out: Outgoing) -> Outgoing:
        env = Envelope.from_data(decode(out.data))
        s1 = lb.sessions[1]
        if seat == 2 and env.kind == "shuffle" and env.seen.step == 3 and s1.book is not None:
            pending = s1.game.pending(s1.state)  # seat 1 has not seen the reshuffle yet
            assert s1.step == 3 and s1._secrets is not None and isinstance(pending, HiddenOp)
            old = RevealRound.draw(s1.book.keys, 3, [s1.book.cipher[h] for h in pending.handles],
                                   pending.handles, 2)
            stale["body"] = old.make(s1._secrets)
        if seat == 1 and env.kind == "shares" and env.seen.step == 3 and "body" in stale:
            body = stale["body"]
            forged = sign_envelope(ids[1], game=env.game, seat=1, seq=env.seq, prev=env.prev, kind="shares",
                                   body=body, seen=env.seen)
            return Outgoing(forged.to_bytes(), out.to)
        return out

    lb.tap = tap
    lb.start()
    lb.run()
    refused = _refusals(lb, 1)
    assert refused and all(e.kind == "shares" for e in refused), refused
    assert not lb.sessions[2].finished


def test_shufflers_are_the_drawers_and_enough_seats_after_a_lone_one() -> None:
    seats = tuple(range(10))
    assert shufflers_for((3, 7), seats, ()) == (3, 7)
    assert shufflers_for((9,), seats, ()) == (0, 9)  # cyclic: the seat after the last is seat 0
    assert shufflers_for((4,), seats, (5,)) == (4, 6)  # a seat that left is skipped
    assert shufflers_for((), seats, ()) == (0, 1)
    assert shufflers_for((2,), (2,), ()) == (2,)  # nobody else is left at the table
    assert shufflers_for((2, 5), seats, (5,)) == (2, 3)


def test_the_genesis_names_the_rule_and_refuses_a_stray_field() -> None:
    _, base = tiny_table(SEATS)
    assert base.shuffles == SHUFFLES_DRAWERS and base.to_data()["shuffles"] == SHUFFLES_DRAWERS
    assert Genesis.from_data(base.to_data()) == base
    old = {k: v for k, v in base.to_data().items() if k != "shuffles"}
    assert Genesis.from_data(old).shuffles == SHUFFLES_EVERY_SEAT
    with pytest.raises(MalformedMessage, match="has no 'shuffles'"):
        Genesis.from_data({**old, "shuffles": SHUFFLES_EVERY_SEAT})
    with pytest.raises(MalformedMessage, match="does not know"):
        Genesis.from_data({**old, "shuffles": "nobody/v9"})
    legacy = {k: v for k, v in old.items() if k != "dice"}
    with pytest.raises(MalformedMessage, match="needs the"):
        Genesis.from_data({**legacy, "shuffles": SHUFFLES_DRAWERS})
    assert dataclasses.replace(base, dice=DICE_COMMIT_REVEAL).shuffles == SHUFFLES_EVERY_SEAT


def _replays(first: Session) -> None:
    """An observer with the same plan replays the record to the same end (the verifier's way)."""
    watcher = Session(first.genesis, first.game, first.states[0], plan=first.plan)
    envelopes = first.envelopes()  # every hello first: a leave at the first step needs the play phase
    for env in [e for e in envelopes if e.seq == 0] + [e for e in envelopes if e.seq > 0]:
        watcher.receive(env.to_bytes())
    watcher.close_record()
    assert watcher.finished and watcher.hashes[-1] == first.hashes[-1] and watcher.verdict == "ok", (
        watcher.phase, watcher.step, watcher.halted, watcher.waiting_for(), watcher.events[-4:])


def seats_0_and_3(state: Any, zone: str) -> tuple[int, ...] | None:
    return (0, 3) if zone == "deck" else None


Moment = Callable[[Session], bool]
LEAVES: dict[str, tuple[int, Moment, Callable[[Any, str], tuple[int, ...] | None], list[int]]] = {
    # seat 1, the second shuffler, walks away before its shuffle: the next seat still here (2)
    # shuffles in its place, so seat 0 never shuffles alone (review finding); seat 1's beacon part
    # is computed from its published dice secret
    "a shuffler before its shuffle": (1, lambda s: s.phase == "play" and s.step == 0, only_seat_0, [0, 2]),
    # drawers 0 and 3, and seat 3 walks away: its replacement is seat 1, whose shuffle comes before
    # seat 3's leave in the record's (step, seat) order, so a reader of the record meets it first
    "a shuffler replaced by a lower seat": (3, lambda s: s.phase == "play" and s.step == 0, seats_0_and_3, [0, 1]),
    # seat 2 walks away at its own deal: it is dealt without reshuffling (its card secret is public)
    "a later drawer at its deal": (2, lambda s: s.step == 3, only_seat_0, [0, 1]),
}


@pytest.mark.parametrize("order", [None, 5, 11])
@pytest.mark.parametrize("who", sorted(LEAVES))
def test_a_seat_that_leaves_is_skipped_and_the_others_finish(monkeypatch: pytest.MonkeyPatch, who: str,
                                                             order: int | None) -> None:
    """``order``: the loopback's delivery order (None: as sent; a seed: shuffled), so a peer may
    read the replacement's shuffle before the leave that names it."""
    from net.session import pump as pump_module

    seat, moment, drawers, first = LEAVES[who]
    lb, _ = _table(drawers, shuffle_seed=order)
    seen = _count(lb)
    leaver = lb.sessions[seat]
    real = pump_module.emit_due

    def emit_due(s: Session) -> bool:
        return False if s is leaver and moment(s) else real(s)

    monkeypatch.setattr(pump_module, "emit_due", emit_due)
    lb.start()
    lb.run()
    assert moment(leaver) and not leaver.finished
    lb.post(seat, leaver.leave())
    lb.down.add(seat)
    lb.run()
    others = [s for s in lb.sessions if s is not leaver]
    for s in others:
        assert s.finished and s.verdict == "ok", (s.seat, s.phase, s.halted, s.waiting_for())
        assert not [e for e in s.events if isinstance(e, Rejected)]
    assert len({s.hashes[-1] for s in others}) == 1
    assert _shufflers(seen, 0) == first
    if seat == 2:
        assert _shufflers(seen, 3) == []  # no reshuffle for a seat that left
        assert _shufflers(seen, 4) == [3]
    _replays(others[0])


def test_a_shuffle_from_a_seat_that_no_leave_names_is_refused_once_the_deck_is_shuffled() -> None:
    """Seat 3 (not a shuffler: seats 0 and 1 are) sends a copy of seat 0's shuffle, signed as its
    own, before the deck is shuffled. It might be a replacement named by a leave not read yet, so it
    waits; once the deck's shuffles are complete it is refused with seat 3 named, and seat 3's
    genuine next message (same sequence number) is taken in its place: the game ends alike."""
    lb, ids = _table()
    forged: list[Envelope] = []

    def tap(seat: int, out: Outgoing) -> Outgoing:
        env = Envelope.from_data(decode(out.data))
        if seat == 0 and env.kind == "shuffle" and not forged:
            log = lb.sessions[3]._logs[3]
            forged.append(sign_envelope(ids[3], game=env.game, seat=3, seq=log.next_seq, prev=log.head,
                                        kind="shuffle", body=env.body, seen=env.seen))
            lb.queue.append((3, Outgoing(forged[0].to_bytes(), None)))
        return out

    lb.tap = tap
    lb.start()
    lb.run()
    assert forged
    refused = _refusals(lb, 3)
    assert [e.kind for e in refused] == ["shuffle"] * (SEATS - 1), refused
    assert all("only seats [0, 1] shuffle" in str(e.error) for e in refused), refused
    assert all(s.finished and s.verdict == "ok" for s in lb.sessions), [s.halted for s in lb.sessions]
    assert len({s.hashes[-1] for s in lb.sessions}) == 1


class _KeepRevealed(TinyGame):
    """Tiny with a revealed card left on top of the deck (its identity and place public) before the
    deals; seat 2 is dealt first, so it reshuffles the deck that only seat 0 (and the next seat) shuffled."""

    def initial_state(self, seats: int) -> TinyState:
        state = super().initial_state(seats)
        queue = (("shuffle", -1), ("reveal", -1), ("deal", 2), ("deal", 0), ("deal", 1), ("deal", 3),
                 ("guess", -1), ("roll", -1), *(("play", s) for s in range(seats)))
        return dataclasses.replace(state, queue=queue)

    def apply(self, state: TinyState, action: Any) -> TinyState:
        if isinstance(action, CardsRevealed):  # the card is shown and stays where it was
            return dataclasses.replace(state, revealed=state.revealed + action.cards, queue=state.queue[1:])
        out = super().apply(state, action)
        if not out.queue and out.winner is None:
            out = dataclasses.replace(out, winner=self._winner(out))
        return out


def test_a_reshuffle_leaves_a_card_of_public_identity_where_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """Review finding: a seat reshuffling alone a zone that holds a card everyone has seen would learn
    where that card went, and so which card an earlier shuffler is dealt later without a reshuffle.
    A reshuffle takes only the cards whose place nobody knows."""
    from net.session import subset_shuffle

    reshuffled: list[tuple[int, ...]] = []
    real = subset_shuffle.DrawersShuffle.__init__

    def recording(self: Any, s: Session, zone: str, handles: Any, order: Any, **kw: Any) -> None:
        if not kw.get("engine_shuffle", True):
            reshuffled.append(tuple(handles))
        real(self, s, zone, handles, order, **kw)

    monkeypatch.setattr(subset_shuffle.DrawersShuffle, "__init__", recording)
    seats = 4
    _, base = tiny_table(seats)
    game = _KeepRevealed()
    plan = dataclasses.replace(table_for(base).plan, drawers=lambda st, z: (0,) if z == "deck" else None)
    ids = identities(seats, tag="tiny")
    start = game.initial_state(seats)
    ss = [Session(base, game, start, plan=plan, identity=ids[s], seat=s, agent=RandomBot(random.Random(s)))
          for s in range(seats)]
    table = Loopback(ss, 3)
    table.start()
    table.run()
    assert all(s.finished for s in ss), [(s.seat, s.halted) for s in ss]
    shown = next(st.deck[0] for st in ss[0].states if st.queue and st.queue[0][0] == "deal")
    assert reshuffled and all(shown not in handles for handles in reshuffled), (shown, reshuffled)


def seats_1_and_3(state: Any, zone: str) -> tuple[int, ...] | None:
    return (1, 3) if zone == "deck" else None


@pytest.mark.parametrize("first", [1, 3])
def test_two_shufflers_leaving_at_one_step_give_every_peer_the_same_order(monkeypatch: pytest.MonkeyPatch,
                                                                          first: int) -> None:
    """Review finding: drawers 1 and 3 of five seats both leave before their turn, and the peers
    read the two leaves in different orders (peer 2 the other way round from peers 0 and 4). The
    replacements follow from who left, not from which leave came first: every peer (and a replay
    of the record) has the same shufflers, nobody is refused or named, and the game ends alike."""
    from net.session import pump as pump_module

    _, record = tiny_table(5)
    table = table_for(record)
    plan = dataclasses.replace(table.plan, drawers=seats_1_and_3)
    ids = identities(5, tag="tiny")
    sessions = [Session(record, table.game, table.state, plan=plan, identity=ids[s], seat=s,
                        agent=RandomBot(random.Random(300 + s))) for s in range(5)]
    lb = Loopback(sessions, None)
    leavers = (1, 3)
    real = pump_module.emit_due
    monkeypatch.setattr(pump_module, "emit_due", lambda s: False if s.seat in leavers and s.phase == "play"
                        and s.step == 0 else real(s))
    lb.start()
    lb.run()
    outs = {x: [o.data for o in sessions[x].leave() if o.to is None] for x in leavers}
    lb.down.update(leavers)
    for peer in (0, 2, 4):
        order = (first, 4 - first) if peer != 2 else (4 - first, first)
        for x in order:
            for data in outs[x]:
                lb.post(peer, sessions[peer].receive(data, sender=f"peer-{x}", via=x))
    rounds = [sessions[p].current_round for p in (0, 2, 4)]
    assert len({tuple(r.rnd.order) for r in rounds if r is not None and hasattr(r, "rnd")}) == 1
    lb.run()
    others = [sessions[p] for p in (0, 2, 4)]
    for s in others:
        assert s.finished and s.verdict == "ok", (s.seat, s.phase, s.halted, s.waiting_for())
        assert not [e for e in s.events if isinstance(e, Rejected)]
    assert len({s.hashes[-1] for s in others}) == 1
    _replays(others[0])


# --- pipelining: our part goes out before the check of the step it builds on (Session.work)


def _manual(seats: int, drawers: Callable[[Any, str], tuple[int, ...] | None]) -> list[Session]:
    _, record = tiny_table(seats)
    table = table_for(record)
    plan = dataclasses.replace(table.plan, drawers=drawers)
    ids = identities(seats, tag="tiny")
    sessions = [Session(record, table.game, table.state, plan=plan, identity=ids[s], seat=s,
                        agent=RandomBot(random.Random(300 + s))) for s in range(seats)]
    for s in sessions:
        s.driver_calls_work = True
    return sessions


def _run(sessions: list[Session], queue: list[tuple[int, Outgoing]], *, lazy: tuple[int, ...] = ()) -> None:
    """Deliver first in first out; every seat but those in ``lazy`` does its put-off work at once
    (as net/peer/driver.py does), the lazy ones only when a payload arrives."""
    while queue:
        sender, out = queue.pop(0)
        for s in sessions:
            if s.seat == sender or (out.to is not None and out.to != s.seat):
                continue
            assert s.seat is not None
            queue.extend((s.seat, o) for o in s.receive(out.data, sender=f"peer-{sender}", via=sender))
            while s.seat not in lazy and s.has_work:
                queue.extend((s.seat, o) for o in s.work())


def _opened(sessions: list[Session]) -> dict[int, list[Outgoing]]:
    """Every seat's hello delivered to every other seat: what each seat sends next, by seat."""
    hellos = [(s.seat, s.start()) for s in sessions]
    after: dict[int, list[Outgoing]] = {s.seat: [] for s in sessions if s.seat is not None}
    for sender, outs in hellos:
        for out in outs:
            for s in sessions:
                if s.seat is not None and s.seat != sender:
                    after[s.seat] += s.receive(out.data, sender=f"peer-{sender}", via=sender)
    return after


def _count_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the seat of every shuffle step checked (net.poker.protocol.ShuffleRound.check), in order."""
    from net.poker.protocol import ShuffleRound

    checked: list[int] = []
    real = ShuffleRound.check

    def counting(self: ShuffleRound, seat: int, *rest: Any) -> None:
        checked.append(seat)
        real(self, seat, *rest)

    monkeypatch.setattr(ShuffleRound, "check", counting)
    return checked


def _shuffle_from(outs: list[Outgoing]) -> Envelope:
    envs = [Envelope.from_data(decode(o.data)) for o in outs]
    shuffles = [e for e in envs if e.kind == "shuffle"]
    assert len(shuffles) == 1, [e.kind for e in envs]
    return shuffles[0]


def test_the_next_shuffler_sends_its_part_before_it_checks_the_step_it_built_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What receive returns already holds our shuffle; the check of the step under it waits for
    Session.work, which a driver calls once that shuffle is on its way."""
    ss = _manual(SEATS, lambda state, zone: None)
    first = _opened(ss)[0]
    checked = _count_checks(monkeypatch)
    shuffle_0 = _shuffle_from(first)
    outs = ss[1].receive(shuffle_0.to_bytes(), sender="peer-0", via=0)
    assert _shuffle_from(outs).seat == 1 and checked == []  # built on seat 0's step, not yet checked
    assert ss[1].has_work
    assert ss[1].work() == [] and checked == [0] and not ss[1].has_work
    # a seat that shuffles later checks the step at once (nothing of its own would wait for it)
    assert ss[2].receive(shuffle_0.to_bytes(), sender="peer-0", via=0) == [] and checked == [0, 0]
    assert not ss[2].has_work


def test_after_the_last_shuffle_a_seat_sends_its_beacon_part_before_it_checks_that_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ss = _manual(SEATS, only_seat_0)  # seats 0 and 1 shuffle, then every seat's beacon part
    first = _opened(ss)[0]
    shuffle_0 = _shuffle_from(first)
    shuffle_1 = _shuffle_from(ss[1].receive(shuffle_0.to_bytes(), sender="peer-0", via=0))
    checked = _count_checks(monkeypatch)
    assert ss[2].receive(shuffle_0.to_bytes(), sender="peer-0", via=0) == [] and checked == [0]
    outs = ss[2].receive(shuffle_1.to_bytes(), sender="peer-1", via=1)
    assert [Envelope.from_data(decode(o.data)).kind for o in outs] == ["roll"] and checked == [0]
    assert ss[2].has_work
    ss[2].work()
    assert checked == [0, 1] and not ss[2].has_work and ss[2].halted is None


def test_a_session_whose_driver_never_calls_work_checks_within_the_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Session.driver_calls_work the check is done before the call returns (a driver that
    never calls work could otherwise leave the table waiting on a check nothing triggers)."""
    ss = _manual(SEATS, lambda state, zone: None)
    for s in ss:
        s.driver_calls_work = False
    first = _opened(ss)[0]
    checked = _count_checks(monkeypatch)
    outs = ss[1].receive(_shuffle_from(first).to_bytes(), sender="peer-0", via=0)
    assert _shuffle_from(outs).seat == 1 and checked == [0] and not ss[1].has_work


def test_a_bad_step_built_on_before_its_check_halts_that_seat_at_work_naming_the_cheat() -> None:
    ss = _manual(SEATS, lambda state, zone: None)
    first = _opened(ss)[0]
    ids = identities(SEATS, tag="tiny")
    forged = _rewrite(ids, (0, "shuffle", 0), _swap_two)(0, next(o for o in first if _is_shuffle(o)))
    assert forged is not None
    outs = ss[1].receive(forged.data, sender="peer-0", via=0)
    assert _shuffle_from(outs).seat == 1 and ss[1].halted is None and ss[1].has_work
    ss[1].work()
    assert isinstance(ss[1].halted, Cheat) and ss[1].halted.seat == 0 and "does not verify" in str(ss[1].halted)
    assert not ss[1].has_work


@pytest.mark.parametrize("order", ["shuffle first", "resignation first"])
def test_a_resignation_right_behind_a_bad_step_we_built_on_still_halts_naming_the_cheat(order: str) -> None:
    """Review of the put-off check: the next shuffler sends its part and returns; the cheat's
    resignation arrives before the driver calls Session.work. Taken first, it ended the game on this
    peer (a resignation, no cheat) while every other peer halted naming seat 0. Now any other
    seat's envelope runs the put-off checks before it counts."""
    ss = _manual(SEATS, lambda state, zone: None)
    first = _opened(ss)[0]
    ids = identities(SEATS, tag="tiny")
    tampered = _rewrite(ids, (0, "shuffle", 0), _swap_two)(0, next(o for o in first if _is_shuffle(o)))
    assert tampered is not None
    forged = Envelope.from_data(decode(tampered.data))
    resign = sign_envelope(ids[0], game=forged.game, seat=0, seq=forged.seq + 1, prev=forged.digest(), kind="resign",
                           body={"step": forged.seen.step}, seen=forged.seen)
    envs = [forged, resign] if order == "shuffle first" else [resign, forged]
    one = ss[1]
    for env in envs:
        one.receive(env.to_bytes(), sender="peer-0", via=0)  # no work() in between: the driver's turn has not come
    assert isinstance(one.halted, Cheat) and one.halted.seat == 0 and "does not verify" in str(one.halted)
    assert one.resigned is None and not one.finished and not one.has_work


def _is_shuffle(out: Outgoing) -> bool:
    return bool(Envelope.from_data(decode(out.data)).kind == "shuffle")


@pytest.mark.parametrize("lazy", [(), (2,), (1, 2)])
def test_our_own_part_joins_our_chain_before_a_buffered_part_can_complete_the_step(lazy: tuple[int, ...]) -> None:
    """Three seats, every seat shuffles, then seat 0 is dealt (seats 1 and 2 share). A last shuffler
    that leaves its check for later is still at the shuffle when seat 1's shares arrive; once it
    checks and makes its own shares, seat 1's buffered ones complete the deal. Our own envelope is
    judged first, so it is in our chain, not refused as late (which made the next one reuse its
    sequence number: a forked chain, and an honest seat convicted)."""
    ss = _manual(3, lambda state, zone: None)
    queue = [(s.seat, o) for s in ss for o in s.start() if s.seat is not None]
    _run(ss, queue, lazy=lazy)
    assert all(s.finished and s.verdict == "ok" for s in ss), [s.halted for s in ss]
    assert len({s.hashes[-1] for s in ss}) == 1
    assert not [e for s in ss for e in s.events if isinstance(e, Rejected)]
