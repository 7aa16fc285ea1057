"""The lobby (sans-I/O): seating, refusals that say why, genesis checks, and
telling lobby payloads from session envelopes."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.encoding import decode, encode
from engine.core.hashing import digest
from net.envelope import EnvelopeWriter, Genesis, game_id
from net.identity import Identity
from net.peer import lobby, store
from net.peer.games import spec_named

RIDER = spec_named("rider")


def ident(n: int) -> Identity:
    return Identity.from_seed(digest("fairtable/test-peer", n))


def join(spec_info: dict[str, object], name: str = "p", /, **override: object) -> dict[str, object]:
    message = lobby.parse(lobby.join_message(RIDER, spec_info, name))
    assert message is not None
    return {**message, **override}


def test_host_seats_joiners_in_arrival_order_and_makes_the_genesis() -> None:
    host = lobby.HostLobby(RIDER, 2, ident(0).public_key, {"deck_size": 40}, "alice")
    assert host.join(ident(1).public_key, join({"deck_size": 38}, "bob")) == 1
    assert host.join(ident(1).public_key, join({"deck_size": 38}, "bob")) == 1  # a repeat keeps the seat
    genesis = host.make_genesis()
    assert genesis.seat_keys == (ident(0).public_key, ident(1).public_key)
    assert genesis.options["deck_sizes"] == [40, 38] and genesis.options["names"] == ["alice", "bob"]
    assert genesis.card_set_hash == RIDER.card_set_hash() and len(genesis.nonce) == 16
    start = lobby.parse(lobby.start_message(genesis))
    assert start is not None
    back, seat = lobby.check_start(RIDER, start, ident(1).public_key, {"deck_size": 38})
    assert (game_id(back), seat) == (game_id(genesis), 1)


@pytest.mark.parametrize(("override", "words"), [
    ({"rules": "locke/1"}, "install the same Fairtable release"),
    ({"version": "2"}, "install the same Fairtable release"),
    ({"cards": bytes(32)}, "card set differs"),
    ({"info": {"deck_size": 0}}, "deck_size"),
    ({"info": "forty"}, "malformed join request"),
])
def test_host_refuses_what_does_not_fit_and_says_why(override: dict[str, object], words: str) -> None:
    host = lobby.HostLobby(RIDER, 2, ident(0).public_key, {"deck_size": 40}, "alice")
    with pytest.raises(lobby.LobbyError, match=words):
        host.join(ident(1).public_key, join({"deck_size": 40}, **override))
    assert not host.full


@pytest.mark.parametrize("name", ["n" * (lobby.MAX_NAME + 1), 7])
def test_host_refuses_a_name_too_long_or_not_text(name: object) -> None:
    host = lobby.HostLobby(RIDER, 2, ident(0).public_key, {"deck_size": 40}, "alice")
    with pytest.raises(lobby.LobbyError, match="malformed join request"):
        host.join(ident(1).public_key, {**join({"deck_size": 40}), "name": name})
    assert host.join(ident(1).public_key, {**join({"deck_size": 40}), "name": "n" * lobby.MAX_NAME}) == 1


def test_full_table_and_bad_seat_counts_are_refused() -> None:
    host = lobby.HostLobby(RIDER, 2, ident(0).public_key, {"deck_size": 40}, "alice")
    host.join(ident(1).public_key, join({"deck_size": 40}))
    with pytest.raises(lobby.LobbyError, match="table is full"):
        host.join(ident(2).public_key, join({"deck_size": 40}))
    with pytest.raises(lobby.LobbyError, match="2 to 2 seats"):
        lobby.HostLobby(RIDER, 3, ident(0).public_key, {"deck_size": 40}, "alice")
    with pytest.raises(lobby.LobbyError, match="not every seat"):
        lobby.HostLobby(RIDER, 2, ident(0).public_key, {"deck_size": 40}, "a").make_genesis()


def test_joiner_refuses_a_start_without_its_seat_or_with_its_deck_size_changed() -> None:
    host = lobby.HostLobby(RIDER, 2, ident(0).public_key, {"deck_size": 40}, "alice")
    host.join(ident(1).public_key, join({"deck_size": 38}))
    start = lobby.parse(lobby.start_message(host.make_genesis()))
    assert start is not None
    with pytest.raises(lobby.LobbyError, match="holds no seat"):
        lobby.check_start(RIDER, start, ident(5).public_key, {"deck_size": 38})
    with pytest.raises(lobby.LobbyError, match="differently from what you sent"):
        lobby.check_start(RIDER, start, ident(1).public_key, {"deck_size": 39})
    with pytest.raises(lobby.LobbyError, match="invalid genesis"):
        lobby.check_start(RIDER, {"t": "start", "genesis": {"rules_id": "x"}}, ident(1).public_key, {})


def test_joiner_refuses_a_start_for_another_game_or_card_set() -> None:
    """The host's genesis must name the rules and card set of the table we
    asked to join, whatever seat it gives us."""
    keys = (ident(0).public_key, ident(1).public_key)
    options = {"deck_sizes": [40, 40], "names": ["alice", "bob"]}
    for rules_id, cards in (("locke/1", RIDER.card_set_hash()), (RIDER.rules_id, bytes(32))):
        genesis = Genesis(rules_id, RIDER.rules_version, cards, keys, options, bytes(16))
        start = lobby.parse(lobby.start_message(genesis))
        assert start is not None
        with pytest.raises(lobby.LobbyError, match="another card set .*ask the host for a new invite"):
            lobby.check_start(RIDER, start, ident(1).public_key, {"deck_size": 40})
    fine = Genesis(RIDER.rules_id, RIDER.rules_version, RIDER.card_set_hash(), keys, options, bytes(16))
    start = lobby.parse(lobby.start_message(fine))
    assert start is not None
    assert lobby.check_start(RIDER, start, ident(1).public_key, {"deck_size": 40})[1] == 1


def test_lobby_payloads_are_told_from_session_envelopes_and_never_repeat() -> None:
    genesis = Genesis("rider/1", "1", RIDER.card_set_hash(), (ident(0).public_key, ident(1).public_key),
                      {"deck_sizes": [40, 40]}, bytes(16))
    gid = game_id(genesis)
    env = EnvelopeWriter(ident(0), gid, 0).write("chat", {"text": "hi"}, (0, bytes(32)))
    assert lobby.parse(env.to_bytes()) is None
    assert lobby.parse(encode({"catch_up": {"game": gid}})) is None
    assert lobby.parse(b"\xff garbage") is None
    assert lobby.parse(encode({"lobby": {"t": "ready", "game": gid}, "zz": 1})) is None  # an extra key
    assert lobby.parse(encode({"lobby": {"t": 1}})) is None and lobby.parse(encode({"lobby": "ready"})) is None
    a, b = lobby.ready_message(gid), lobby.ready_message(gid)
    assert a != b  # the mesh drops payloads it has seen: two joiners' "ready" must differ
    ready = lobby.parse(a)
    assert ready is not None and ready["t"] == "ready" and ready["game"] == gid
    nudge = lobby.parse(lobby.nudge_message(b"request"))
    assert nudge is not None and nudge["request"] == b"request"
    assert set(decode(a)) == {"lobby"}


def test_peer_directory_round_trip_and_clear_errors(tmp_path: Path) -> None:
    genesis = Genesis("rider/1", "1", RIDER.card_set_hash(), (ident(0).public_key, ident(1).public_key),
                      {"deck_sizes": [40, 40]}, bytes(16))
    with pytest.raises(store.StoreError, match="Join the table again"):
        store.load_genesis(tmp_path / "p")
    store.save_peer(tmp_path / "p", {"role": "join", "invite": "FT1-X"})
    store.save_genesis(tmp_path / "p", genesis, 1)
    assert store.load_peer(tmp_path / "p")["invite"] == "FT1-X"
    back, seat = store.load_genesis(tmp_path / "p")
    assert (game_id(back), seat) == (game_id(genesis), 1)
    assert (tmp_path / "p").stat().st_mode & 0o077 == 0
    assert (tmp_path / "p" / store.GENESIS_FILE).stat().st_mode & 0o077 == 0
    (tmp_path / "p" / store.GENESIS_FILE).write_bytes(encode({"genesis": {}, "seat": 1}))
    with pytest.raises(store.StoreError, match="damaged"):
        store.load_genesis(tmp_path / "p")
