"""Card rounds end to end: keys, shuffles, private draws, shows, public reveals,
the discard pile reshuffled, for 2 to 10 seats and decks of 24 to 81 cards."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from poker_helpers import GAME, make_table, run_reveal, shuffle_all, wire

from engine.core.encoding import encode
from net.poker import group as g
from net.poker.cards import CardTable, card_point
from net.poker.errors import (
    BadCardProof,
    BadPoint,
    BadSealedShare,
    CardOutsideDeck,
    OutOfTurn,
)
from net.poker.protocol import (
    CardKeys,
    HeldCard,
    RevealRound,
    SeatSecrets,
    ShuffleRound,
    judge_show,
)


def _cards(n: int) -> list[str]:
    return [f"card-{i:02d}" for i in range(n)]


@pytest.mark.parametrize(("seats", "size"), [(2, 81), (3, 24), (6, 24), (10, 24), (2, 60), (3, 60)])
def test_completeness_shuffle_draw_show_reveal(seats: int, size: int) -> None:
    secrets, keys = make_table(seats)
    ids = _cards(size)
    table = CardTable.public(GAME, ids)
    deck = shuffle_all(keys, 10, [card_point(GAME, c) for c in ids])
    assert len(deck) == size

    # seat 0 draws the top three cards privately
    rounds = {s.seat: RevealRound.draw(keys, 11, deck[:3], [0, 1, 2], drawer=0) for s in secrets}
    run_reveal(rounds, secrets)
    drawn = rounds[0].identify(table, secrets[0])
    assert len(set(drawn)) == 3 and all(c in ids for c in drawn)
    for other in secrets[1:]:  # nobody else can decrypt
        with pytest.raises(OutOfTurn):
            rounds[other.seat].points(other)
    held = rounds[1].held()
    assert held == rounds[0].held()

    # seat 0 shows its first card to the last seat only
    to = secrets[-1].seat
    show = {s.seat: RevealRound.show(keys, 12, held[:1], to=to) for s in secrets}
    run_reveal(show, secrets)
    assert show[to].identify(table, secrets[-1]) == drawn[:1]
    if seats > 2:
        with pytest.raises(OutOfTurn):
            show[1].points(secrets[1])

    # seat 0 reveals its other two cards to everyone; the next card is turned face up
    reveal = {s.seat: RevealRound.reveal_held(keys, 13, held[1:]) for s in secrets}
    run_reveal(reveal, secrets)
    flip = {s.seat: RevealRound.public(keys, 14, deck[3:4], [3]) for s in secrets}
    run_reveal(flip, secrets)
    for s in secrets:
        assert reveal[s.seat].identify(table) == drawn[1:]
        assert flip[s.seat].identify(table) == flip[0].identify(table)
    face_up = drawn[1:] + flip[0].identify(table)
    assert len(set(face_up + drawn[:1])) == 4


def test_discard_pile_becomes_a_new_shuffled_deck() -> None:
    secrets, keys = make_table(3)
    ids = _cards(24)
    table = CardTable.public(GAME, ids)
    deck = shuffle_all(keys, 10, [card_point(GAME, c) for c in ids])
    flip = {s.seat: RevealRound.public(keys, 11, deck[:5], list(range(5))) for s in secrets}
    run_reveal(flip, secrets)
    discard = flip[0].identify(table)
    # the revealed cards go to the discard pile, which every seat re-shuffles
    new_deck = shuffle_all(keys, 12, [card_point(GAME, str(c)) for c in discard])
    assert len(new_deck) == 5 and not set(new_deck) & set(deck)
    again = {s.seat: RevealRound.public(keys, 13, new_deck, list(range(5))) for s in secrets}
    run_reveal(again, secrets)
    assert sorted(str(c) for c in again[1].identify(table)) == sorted(str(c) for c in discard)


def _drawn(seats: int = 3) -> tuple[list[SeatSecrets], CardKeys, tuple[HeldCard, ...], CardTable]:
    secrets, keys = make_table(seats)
    ids = _cards(8)
    deck = shuffle_all(keys, 10, [card_point(GAME, c) for c in ids])
    rounds = {s.seat: RevealRound.draw(keys, 11, deck[:2], [0, 1], drawer=0) for s in secrets}
    run_reveal(rounds, secrets)
    return secrets, keys, rounds[1].held(), CardTable.public(GAME, ids)


def test_wrong_share_in_a_draw_names_the_seat() -> None:
    secrets, keys = make_table(3)
    deck = shuffle_all(keys, 10, [card_point(GAME, c) for c in _cards(6)])
    maker = RevealRound.draw(keys, 11, deck[:2], [0, 1], drawer=0)
    checker = RevealRound.draw(keys, 11, deck[:2], [0, 1], drawer=0)
    msg = maker.make(secrets[2])
    bad = {"shares": (msg["shares"][0], dict(msg["shares"][1], share=g.add(msg["shares"][1]["share"], g.BASE)))}
    with pytest.raises(BadCardProof) as info:
        checker.receive(2, wire(bad), secrets[0])
    assert info.value.seat == 2
    # the shares in swapped order: each is a share for the wrong card
    swapped = {"shares": (msg["shares"][1], msg["shares"][0])}
    with pytest.raises(BadCardProof):
        checker.receive(2, wire(swapped), secrets[0])
    # shares copied from another seat, or from another step
    with pytest.raises(BadCardProof) as copied:
        checker.receive(1, wire(msg), secrets[0])
    assert copied.value.seat == 1
    other_step = RevealRound.draw(keys, 99, deck[:2], [0, 1], drawer=0).make(secrets[2])
    with pytest.raises(BadCardProof):
        checker.receive(2, wire(other_step), secrets[0])
    assert checker.waiting_for() == (1, 2)  # nothing was recorded from the rejects
    checker.receive(2, wire(msg), secrets[0])
    with pytest.raises(OutOfTurn) as again:
        checker.receive(2, wire(msg), secrets[0])
    assert again.value.seat == 2
    with pytest.raises(OutOfTurn):  # the drawer owes no shares in its own draw
        checker.receive(0, wire(msg), secrets[0])


Tamper = Callable[[dict[str, object]], dict[str, object]]


@pytest.mark.parametrize("tamper", [
    lambda m: dict(m, box=bytes([m["box"][0] ^ 1]) + m["box"][1:]),
    lambda m: dict(m, eph=g.BASE),
    lambda m: dict(m, box=m["box"][:-1]),
], ids=["flipped-bit", "other-ephemeral-key", "truncated"])
def test_tampered_sealed_share_names_the_sender(tamper: Tamper) -> None:
    secrets, keys, held, _ = _drawn()
    maker = RevealRound.show(keys, 12, held[:1], to=2)
    receiver = RevealRound.show(keys, 12, held[:1], to=2)
    msg = maker.make(secrets[0])
    with pytest.raises(BadSealedShare) as info:
        receiver.receive(0, wire(tamper(msg)), secrets[2])
    assert info.value.seat == 0
    receiver.receive(0, wire(msg), secrets[2])  # the untouched one still opens


def test_sealed_share_for_another_step_or_seat_does_not_open() -> None:
    secrets, keys, held, _ = _drawn()
    msg = RevealRound.show(keys, 13, held[:1], to=2).make(secrets[0])
    with pytest.raises(BadSealedShare):
        RevealRound.show(keys, 12, held[:1], to=2).receive(0, wire(msg), secrets[2])
    # seat 1 cannot open a box addressed to seat 2, even when told it is the recipient
    to_two = RevealRound.show(keys, 12, held[:1], to=2).make(secrets[0])
    with pytest.raises(BadSealedShare):
        RevealRound.show(keys, 12, held[:1], to=1).receive(0, wire(dict(to_two, to=1)), secrets[1])
    # a bystander (seat 1) sees a box addressed to someone else than agreed
    with pytest.raises(BadSealedShare) as info:
        RevealRound.show(keys, 12, held[:1], to=2).receive(0, wire(dict(to_two, to=1)), secrets[1])
    assert info.value.seat == 0


def test_sealed_wrong_share_fails_its_proof_inside_the_box() -> None:
    secrets, keys, held, _ = _drawn()
    # the holder seals a share made with the wrong secret: the box opens, the proof fails
    liar = SeatSecrets(0, g.random_scalar(), secrets[0].box)
    msg = RevealRound.show(keys, 12, held[:1], to=1).make(liar)
    with pytest.raises(BadCardProof) as info:
        RevealRound.show(keys, 12, held[:1], to=1).receive(0, wire(msg), secrets[1])
    assert info.value.seat == 0


def test_card_point_outside_the_deck_is_rejected_naming_the_holder() -> None:
    secrets, keys, held, table = _drawn()
    show = {s.seat: RevealRound.show(keys, 12, held[:1], to=1) for s in secrets}
    run_reveal(show, secrets)
    other_deck = CardTable.public(GAME, ["x", "y"])
    with pytest.raises(CardOutsideDeck) as info:
        show[1].identify(other_deck, secrets[1])
    assert info.value.seat == 0
    with pytest.raises(CardOutsideDeck) as direct:
        table.lookup(card_point(GAME, "not-a-card"), seat=2)
    assert direct.value.seat == 2


def test_shuffle_round_turns_and_attribution() -> None:
    _, keys = make_table(3)
    points = [card_point(GAME, c) for c in _cards(6)]
    mine = ShuffleRound.fresh(keys, 10, points)
    theirs = ShuffleRound.fresh(keys, 10, points)
    msg0 = mine.make(0)
    with pytest.raises(OutOfTurn) as info:
        theirs.receive(1, wire(msg0))
    assert info.value.seat == 1
    theirs.receive(0, wire(msg0))
    # seat 1 replays seat 0's shuffle (deck and proof) as its own
    with pytest.raises(BadCardProof) as copied:
        theirs.receive(1, wire(msg0))
    assert copied.value.seat == 1
    with pytest.raises(OutOfTurn):
        theirs.result()


def test_a_shuffle_by_some_seats_and_a_step_taken_before_its_check() -> None:
    """A subset of the table shuffles (the drawers' rule); ``accept`` lets the next seat build
    on a step at once and ``check`` verifies it afterwards, naming the step's seat."""
    _, keys = make_table(4)
    points = [card_point(GAME, c) for c in _cards(6)]
    with pytest.raises(ValueError, match="shuffles once"):
        ShuffleRound.fresh(keys, 10, points, order=(1, 1))
    with pytest.raises(ValueError, match="seat of the table"):
        ShuffleRound.fresh(keys, 10, points, order=(1, 7))
    maker = ShuffleRound.fresh(keys, 10, points, order=(1, 3))
    taker = ShuffleRound.fresh(keys, 10, points, order=(1, 3))
    good = maker.make(1)
    step = taker.accept(1, wire(good))
    assert taker.waiting_for() == 3 and taker.deck == step[1]  # built on before its proof is checked
    taker.check(1, *step)
    bad = dict(good)
    bad["deck"] = tuple(reversed(good["deck"]))  # a reordered deck under the same proof
    later = ShuffleRound.fresh(keys, 10, points, order=(1, 3))
    taken = later.accept(1, wire(bad))
    with pytest.raises(BadCardProof) as caught:
        later.check(1, *taken)
    assert caught.value.seat == 1
    with pytest.raises(OutOfTurn):
        later.accept(1, wire(good))  # seat 1's turn is over


def test_resume_from_journal_by_replaying_own_messages() -> None:
    """A seat that crashed after sending rebuilds its rounds from journaled
    messages and secrets; its own messages go through receive (and verify)."""
    secrets, keys = make_table(2)
    points = [card_point(GAME, c) for c in _cards(6)]
    live = ShuffleRound.fresh(keys, 10, points)
    journal = [(seat, wire(live.make(seat))) for seat in (0, 1)]
    resumed = ShuffleRound.fresh(keys, 10, points)
    for seat, msg in journal:
        resumed.receive(seat, msg)
    assert resumed.result() == live.result()
    restored = SeatSecrets.load(wire(secrets[0].export()))  # type: ignore[arg-type]
    assert restored.key == secrets[0].key and restored.seat == 0
    draw = RevealRound.draw(keys, 11, live.result()[:1], [0], drawer=0)
    draw.receive(1, wire(RevealRound.draw(keys, 11, live.result()[:1], [0], drawer=0).make(secrets[1])))
    assert draw.identify(CardTable.public(GAME, _cards(6)), restored)[0] in _cards(6)
    with pytest.raises(ValueError):
        SeatSecrets.load({"seat": 0, "x": bytes(32), "box": bytes(32)})


def test_disputed_sealed_share_is_settled_by_anyone() -> None:
    secrets, keys, held, _ = _drawn()
    good = RevealRound.show(keys, 12, held[:1], to=2).make(secrets[0])
    tampered = dict(good, box=bytes([good["box"][0] ^ 1]) + good["box"][1:])
    liar = SeatSecrets(0, g.random_scalar(), secrets[0].box)
    wrong_share = RevealRound.show(keys, 12, held[:1], to=2).make(liar)
    secret = secrets[2].box.private_bytes_raw()
    assert judge_show(keys, 12, held[:1], 2, secret, wire(tampered)) == 0
    assert judge_show(keys, 12, held[:1], 2, secret, wire(wrong_share)) == 0
    assert judge_show(keys, 12, held[:1], 2, secret, wire(good)) == 2  # a false complaint
    assert judge_show(keys, 12, held[:1], 2, secrets[1].box.private_bytes_raw(), wire(tampered)) == 2
    assert judge_show(keys, 12, held[:1], 2, b"short", wire(tampered)) == 2


def test_fresh_deck_refuses_a_card_point_outside_the_group_before_anyone_shuffles() -> None:
    """A card point with a small-order component (say, from a tampered deck
    list) must stop the round at once: otherwise the first honest shuffler's
    re-masked output fails point validation at every verifier and is blamed."""
    _, keys = make_table(2)
    points = [card_point(GAME, c) for c in _cards(4)]
    torsion = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
    for bad in (g.add(points[1], torsion), torsion, g.IDENTITY):
        with pytest.raises(BadPoint) as info:
            ShuffleRound.fresh(keys, 10, points[:1] + [bad] + points[2:])
        assert info.value.seat is None


def test_sealed_box_opens_only_for_its_game_step_sender_and_recipient() -> None:
    """The associated data binds all four: a box replayed into another game, or
    carried in another seat's envelope, fails to open (BadSealedShare naming
    the seat whose envelope carried it), before any share proof is looked at."""
    from net.poker import sealed

    secrets, keys, _, _ = _drawn()
    box_key = keys.boxes[2]
    msg = wire(sealed.seal_share(GAME, 12, 0, 2, box_key, b"payload"))
    assert sealed.open_share(GAME, 12, 0, 2, secrets[2].box, msg) == b"payload"
    for game, step, sender in ((bytes(32), 12, 0), (GAME, 13, 0), (GAME, 12, 1)):
        with pytest.raises(BadSealedShare) as info:
            sealed.open_share(game, step, sender, 2, secrets[2].box, msg)
        assert info.value.seat == sender
    # sealed for seat 2 under seat 2's key, but the AD says seat 1 was meant
    to_one = wire(sealed.seal_share(GAME, 12, 0, 1, box_key, b"payload"))
    with pytest.raises(BadSealedShare):
        sealed.open_share(GAME, 12, 0, 2, secrets[2].box, dict(to_one, to=2))  # type: ignore[call-overload]
    # the 'to' field must name the recipient even if the box would open
    with pytest.raises(BadSealedShare):
        sealed.open_share(GAME, 12, 0, 2, secrets[2].box, dict(msg, to=1))  # type: ignore[call-overload]


def test_drawers_share_never_leaves_and_the_others_together_cannot_decrypt() -> None:
    """Private draw: scan every message on the wire for the drawer's share, and
    let all other seats pool their secrets and everything they saw."""
    secrets, keys = make_table(3)
    ids = _cards(8)
    table = CardTable.public(GAME, ids)
    deck = shuffle_all(keys, 10, [card_point(GAME, c) for c in ids])
    rounds = {s.seat: RevealRound.draw(keys, 11, deck[:2], [0, 1], drawer=0) for s in secrets}
    sent = []
    for me in secrets:
        if me.seat not in rounds[me.seat].waiting_for():
            continue
        msg = wire(rounds[me.seat].make(me))
        sent.append(encode(msg))
        for other in secrets:
            if other.seat != me.seat:
                rounds[other.seat].receive(me.seat, msg, other)
    assert rounds[0].done and rounds[0].identify(table, secrets[0])[0] in ids
    for cipher in deck[:2]:
        drawer_share = g.mul(secrets[0].x, cipher[0])
        assert not any(drawer_share in blob for blob in sent)
        pooled = g.total([g.mul(s.x, cipher[0]) for s in secrets[1:]])
        assert g.sub(cipher[1], pooled) not in table


def test_sealed_share_with_missing_extra_or_mistyped_fields_is_blamed_on_its_sender() -> None:
    from net.poker import sealed
    from net.poker.errors import BadCardMessage

    secrets, keys, _, _ = _drawn()
    msg = wire(sealed.seal_share(GAME, 12, 0, 2, keys.boxes[2], b"payload"))
    missing = {k: v for k, v in msg.items() if k != "box"}  # type: ignore[union-attr]
    for bad in (missing, dict(msg, extra=1), dict(msg, eph=b"short"), dict(msg, box="text"), [msg]):  # type: ignore[call-overload]
        with pytest.raises(BadCardMessage) as info:
            sealed.open_share(GAME, 12, 0, 2, secrets[2].box, bad)
        assert info.value.seat == 0
