"""Secret deck lists: salted card points, committed at the start, opened card by
card when revealed and in full at the end-of-game audit."""

from __future__ import annotations

import pytest
from poker_helpers import GAME, make_table, run_reveal, shuffle_all

from net.poker.cards import (
    CardTable,
    SecretDeckList,
    card_point,
    deck_list_commitment,
    salted_card_point,
    verify_deck_list,
)
from net.poker.errors import BadCardMessage, CardOutsideDeck, DeckListMismatch
from net.poker.protocol import RevealRound

LIST = ["blade", "blade", "wing", "stone", "stone", "stone", "free"]


def test_salted_points_hide_the_card_and_differ_per_copy() -> None:
    deck = SecretDeckList.create(GAME, 0, LIST)
    points = deck.points()
    assert len(set(points)) == len(LIST)  # two copies of one card still differ
    assert not set(points) & {card_point(GAME, c) for c in LIST}
    assert points == tuple(sorted(points))  # the public order says nothing about the list


def test_secret_deck_full_flow_and_audit() -> None:
    secrets, keys = make_table(2)
    mine = SecretDeckList.create(GAME, 0, LIST)
    commitment = mine.commitment()  # signed at the start of the game
    public_points = mine.points()
    deck = shuffle_all(keys, 10, public_points)
    # the owner draws two cards and knows them; seat 1 cannot tell which they are
    rounds = {s.seat: RevealRound.draw(keys, 11, deck[:2], [0, 1], drawer=0) for s in secrets}
    run_reveal(rounds, secrets)
    drawn = rounds[0].identify(mine.table(), secrets[0])
    assert all(c in LIST for c in drawn)
    # the owner plays one face up: seat 1 sees a point of the deck, not yet its name
    held = rounds[1].held()
    reveal = {s.seat: RevealRound.reveal_held(keys, 12, held[:1]) for s in secrets}
    run_reveal(reveal, secrets)
    theirs = CardTable.sealed(public_points)
    (point,) = reveal[1].points()
    assert reveal[1].identify(theirs) == (None,)
    assert theirs.learn(GAME, 0, point, mine.opening_for(point)) == drawn[0]
    assert theirs.lookup(point, seat=0) == drawn[0]
    # end of game: the whole list is opened and checked against the commitment
    opened = verify_deck_list(GAME, 0, commitment, public_points, mine.opening())
    assert sorted(opened) == sorted(LIST)


def test_revealed_card_opened_as_another_card_is_caught() -> None:
    mine = SecretDeckList.create(GAME, 0, LIST)
    theirs = CardTable.sealed(mine.points())
    point = salted_card_point(GAME, 0, *mine.entries[0])
    _, salt = mine.entries[0]
    with pytest.raises(DeckListMismatch) as info:
        theirs.learn(GAME, 0, point, ("wing" if mine.entries[0][0] != "wing" else "stone", salt))
    assert info.value.seat == 0
    with pytest.raises(CardOutsideDeck) as outside:
        theirs.learn(GAME, 0, card_point(GAME, "blade"), mine.entries[0])
    assert outside.value.seat == 0
    with pytest.raises(BadCardMessage):
        theirs.learn(GAME, 0, point, ("blade", b"short"))


def test_deck_list_opened_to_a_different_list_is_caught() -> None:
    mine = SecretDeckList.create(GAME, 3, LIST)
    entries = list(mine.opening())
    variants = [
        [("free", entries[0][1])] + entries[1:],  # one card renamed, same salt
        entries[:-1],  # a card dropped
        entries + [entries[0]],  # a card duplicated
        [(c, bytes(32)) for c, _ in entries],  # other salts
    ]
    for changed in variants:
        with pytest.raises(DeckListMismatch) as info:
            verify_deck_list(GAME, 3, mine.commitment(), mine.points(), changed)
        assert info.value.seat == 3
    # published points that do not match the commitment made at the start
    other = SecretDeckList.create(GAME, 3, LIST)
    with pytest.raises(DeckListMismatch):
        verify_deck_list(GAME, 3, mine.commitment(), other.points(), other.opening())
    # the opening is bound to the owner seat and the game
    with pytest.raises(DeckListMismatch):
        verify_deck_list(GAME, 2, mine.commitment(), mine.points(), mine.opening())


def test_copied_deck_points_cannot_be_opened_by_the_copier() -> None:
    """Seat 2 publishes seat 3's salted points as its own list (and commits to
    them itself); even once seat 3's openings are public, seat 2 cannot open
    them: the owner seat and the game are inside every salted point."""
    mine = SecretDeckList.create(GAME, 3, LIST)
    points = mine.points()
    for game, owner in ((GAME, 2), (bytes(32), 3)):
        with pytest.raises(DeckListMismatch) as info:
            verify_deck_list(game, owner, deck_list_commitment(game, owner, points), points, mine.opening())
        assert info.value.seat == owner
        point = salted_card_point(GAME, 3, *mine.entries[0])
        with pytest.raises(DeckListMismatch):
            CardTable.sealed(points).learn(game, owner, point, mine.entries[0])
    # public card points differ from game to game as well
    assert card_point(GAME, "blade") != card_point(bytes(32), "blade")
