"""rider.3 / rider.14 on a networked table: the end-of-game audit opens every
hidden hand card a seat held when it passed, verifiably (its own decryption
share with a fresh proof bound to game, audit step, seat and handle), and
judges each pass with ``RiderGame.pass_problem``. An illegal pass is named by
seat and step, in the final record and by tools.verify; a forged hand opening
is refused, naming the seat."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hand_audit_helpers import IllegalPasser, TideTrap, tide_trap_deck
from harness import identities, rider_decks, rider_genesis

from engine.core.encoding import decode
from engine.rider.actions import Pass
from net.bots.greedy import GreedyBot
from net.games.rider.evaluation import rider_score
from net.envelope import Envelope, sign_envelope
from net.poker import proofs
from net.poker.proofs import Context
from net.session import Finished, Rejected, Session
from net.session.core import Outgoing
from net.session.loopback import Loopback
from net.games import table_for
from net.transcript import save
from net.verifier import verify
from tools.verify import main as verify_main

IDS = identities(2)


def _table(agent: Any, seed: int) -> Loopback:
    """Seat 0: a greedy bot with a normal deck; seat 1: ``agent`` with the tide trap deck."""
    game = table_for(rider_genesis(IDS, rider_decks())).game
    decks = (rider_decks()[0], tide_trap_deck(game))
    genesis = rider_genesis(IDS, decks)
    setup = table_for(genesis)
    agents = (GreedyBot(random.Random(seed), rider_score), agent)
    return Loopback([Session(genesis, setup.game, setup.state, plan=setup.plan, identity=IDS[s], seat=s,
                             deck=decks[s], agent=agents[s]) for s in (0, 1)])


def _passes(session: Session, seat: int) -> list[int]:
    """Steps at which ``seat`` passed while it still had other hand cards."""
    return [k for k, a in enumerate(session.applied)
            if isinstance(a, Pass) and a.seat == seat and len(session.game.zone(session.states[k], f"hand:{seat}")) > 1]


def _audit_of(session: Session, seat: int) -> Envelope:
    return next(e for e in session.envelopes() if e.kind == "audit" and e.seat == seat)


@pytest.mark.slow
def test_honest_passes_open_the_hands_and_the_audit_is_ok() -> None:
    """rider.14: every pass is re-judged with the whole hand; honest ones pass.

    Every peer (and the offline verifier) recovers exactly the cards the
    passing seat privately held, from the transcript and its audit message."""
    net = _table(TideTrap(random.Random(5)), seed=5)
    net.start()
    net.run()
    a, b = net.sessions
    for s in (a, b):
        assert s.finished and s.verdict == "ok", (s.phase, s.verdict, [str(e) for e in s.events[-3:]])
        assert isinstance(s.events[-1], Finished)
    assert _passes(a, 1), "the tide trap seat should have passed"
    hands = _audit_of(a, 1).body["hands"]
    assert hands, "the passes should have left hidden hand cards to open"
    # the opening names exactly the cards seat 1 knew it held, and seat 0 agrees
    assert a.opened_hands == b.opened_hands
    for handle, card, _share in hands:
        assert b.knowledge.card(handle) == card == a.opened_hands[handle]
        assert not a.knowledge.knows(handle)  # seat 0 learned them only at the audit
    for k in _passes(a, 1):
        hand = a.game.zone(a.states[k], "hand:1")
        opened = dict(a.states[k].open_cards)
        assert all(h in a.opened_hands or h in opened or h in a.book.identified for h in hand)
    assert verify(a.transcript()).ok
    _forged_transcript_fails(a)


def _forged_transcript_fails(session: Session) -> None:
    """Seat 1 rewrites its saved audit message (one hand card named as another)
    and re-signs its chain: tools.verify refuses it, naming seat 1."""
    transcript = session.transcript()
    envelopes = [Envelope.from_data(e) for e in transcript["envelopes"]]
    prev = None
    for i, env in enumerate(envelopes):
        if env.seat != 1 or (prev is None and env.kind != "audit"):
            continue
        body = env.body
        if prev is None:
            hands = [list(e) for e in body["hands"]]
            _other_card(hands, session)
            body = {"deck": body["deck"], "hands": hands}
        new = sign_envelope(IDS[1], game=env.game, seat=1, seq=env.seq, prev=prev or env.prev, kind=env.kind,
                            body=body, seen=env.seen)
        transcript["envelopes"][i] = new.to_data()
        prev = new.digest()
    verdict = verify(transcript)
    assert not verdict.ok and verdict.seat == 1 and "DeckListMismatch" in verdict.reason, str(verdict)


def _cheat_game(seed: int = 11) -> tuple[Loopback, IllegalPasser]:
    agent = IllegalPasser(random.Random(seed))
    net = _table(agent, seed=seed)
    net.start()
    net.run()
    assert agent.cheated is not None, "the cheating seat found no playable card to hide"
    return net, agent


def test_pass_while_holding_a_playable_card_is_caught_naming_seat_and_step(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """rider.3: seat 1 passes holding a card it could play; the engine cannot
    see it, the audit can: every final record names seat 1 and the step, and
    tools.verify exits 1 naming them too."""
    net, agent = _cheat_game()
    a, b = net.sessions
    assert agent.cheated is not None
    step = next(k for k, x in enumerate(a.applied) if isinstance(x, Pass) and x.handle == agent.cheated[0])
    for s in (a, b):
        assert s.finished, (s.phase, [str(e) for e in s.events[-3:]])
        seat, at, problem = s.audit_findings[0]
        assert (seat, at) == (1, step)
        assert "rider.3" in problem and "passed" in problem
        assert s.verdict is not None and s.verdict.startswith(f"failed: seat 1: step {step}:")
        assert all(f[0] == 1 for f in s.audit_findings)  # the honest seat is not blamed
    verdict = verify(a.transcript())
    assert not verdict.ok and (verdict.step, verdict.seat, verdict.reason) == (step, 1, "audit"), str(verdict)
    path = tmp_path / "cheat.ftt"
    save(path, a.transcript())
    assert verify_main([str(path)]) == 1
    out = capsys.readouterr().out
    assert f"step {step}" in out and "seat 1" in out and "rider.3" in out


# --- forged hand openings -------------------------------------------------------------


Forge = Callable[[list[list[Any]], Session], None]


def _held_share(victim: Session, handle: int, step: int, game: bytes | None = None) -> dict[str, bytes]:
    """Seat 1's real share for ``handle`` with a proof made for another step or game."""
    assert victim.book is not None and victim._secrets is not None
    held = victim.book.held[handle]
    ctx = Context(game if game is not None else victim.gid, step, 1)
    return proofs.make_share(ctx, victim._secrets.x, victim.book.keys.keys[1], held.cipher[0], handle)


def _swap_shares(hands: list[list[Any]], victim: Session) -> None:
    hands[0][2], hands[1][2] = hands[1][2], hands[0][2]


def _other_card(hands: list[list[Any]], victim: Session) -> None:
    hands[0][1] = next(c for c in tide_trap_deck(victim.game) if c != hands[0][1])


def _earlier_step(hands: list[list[Any]], victim: Session) -> None:
    hands[0][2] = _held_share(victim, hands[0][0], victim.step - 1)


def _other_game(hands: list[list[Any]], victim: Session) -> None:
    hands[0][2] = _held_share(victim, hands[0][0], victim.step, game=bytes(32))


def _copied_share(hands: list[list[Any]], victim: Session) -> None:
    """A genuine share seat 1 published earlier in the game (for a card dealt to seat 0)."""
    env = next(e for e in victim.envelopes() if e.kind == "shares" and e.seat == 1)
    hands[0][2] = dict(env.body["parts"][0][1]["shares"][0])


def _left_out(hands: list[list[Any]], victim: Session) -> None:
    del hands[-1]


def _extra_entry(hands: list[list[Any]], victim: Session) -> None:
    hands.append(list(hands[-1]))


def _wrong_share_point(hands: list[list[Any]], victim: Session) -> None:
    share = dict(hands[0][2])
    share["share"] = dict(hands[1][2])["share"]
    hands[0][2] = share


FORGERIES: dict[str, tuple[Forge, str]] = {
    "share of another hand card": (_swap_shares, "BadCardProof"),
    "wrong share point": (_wrong_share_point, "BadCardProof"),
    "names another card": (_other_card, "DeckListMismatch"),
    "proof made for an earlier step": (_earlier_step, "BadCardProof"),
    "proof made for another game": (_other_game, "BadCardProof"),
    "share copied from an earlier message": (_copied_share, "BadCardProof"),
    "a hand card left out": (_left_out, "BadCardMessage"),
    "a card it does not owe": (_extra_entry, "BadCardMessage"),
}


def test_forged_hand_openings_are_rejected_naming_the_seat() -> None:
    """Each forgery of seat 1's audit message is refused by seat 0 with the
    specific reason, changes nothing, and the genuine message still settles
    the game afterwards."""
    net = _table(TideTrap(random.Random(8)), seed=8)
    held: list[Outgoing] = []

    def hold_audit(seat: int, out: Outgoing) -> Outgoing | None:
        value = decode(out.data)
        if seat == 1 and isinstance(value, dict) and value.get("kind") == "audit":
            held.append(out)
            return None
        return out

    net.tap = hold_audit
    net.start()
    net.run()
    a, b = net.sessions
    assert len(held) == 1 and a.phase == "audit" and a.waiting_for() == (1,)
    genuine = Envelope.from_data(decode(held[0].data))
    assert len(genuine.body["hands"]) >= 2, "the tide trap seat should hold hidden cards at its passes"
    for name, (forge, reason) in FORGERIES.items():
        body = {"deck": genuine.body["deck"], "hands": [list(e) for e in genuine.body["hands"]]}
        forge(body["hands"], b)
        forged = sign_envelope(IDS[1], game=genuine.game, seat=1, seq=genuine.seq, prev=genuine.prev,
                               kind="audit", body=body, seen=genuine.seen)
        before = len(a.events)
        a.receive(forged.to_bytes(), sender="peer-1")
        new = a.events[before:]
        assert len(new) == 1 and isinstance(new[0], Rejected), (name, [str(e) for e in new])
        assert (new[0].seat, new[0].kind, new[0].reason) == (1, "audit", reason), (name, str(new[0]))
        assert a.phase == "audit" and a.waiting_for() == (1,), name
    net.tap = None
    net.post(0, a.receive(held[0].data, sender="peer-1"))
    net.run()
    assert a.finished and a.verdict == "ok" and b.finished
