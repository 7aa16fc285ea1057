"""The lobby (sans-I/O): seating, refusals that say why, genesis checks,
telling lobby payloads from session envelopes, and (issue 9, items 2-3) that
no lobby or control message can be forged, misattributed or replayed: every
one is signed by its author for this table and checked against the author's
key and seat; the genesis holds every seat's fresh nonce."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from engine.core.encoding import decode, encode
from engine.core.hashing import digest
from net.envelope import EnvelopeWriter, Genesis, game_id, verify_equivocation_proof
from net.errors import InvalidProof
from net.identity import Identity
from net.peer import lobby, store
from net.games import game_named

RIDER = game_named("rider")
TABLE = b"T" * 8
FRESH = b"f" * 16


def ident(n: int) -> Identity:
    return Identity.from_seed(digest("fairtable/test-peer", n))


HOST, JOINER, ATTACKER, ATTACKER2 = ident(0), ident(1), ident(2), ident(3)


def author(who: Identity, table: bytes = TABLE) -> lobby.Author:
    return lobby.Author(who, table)


def opened(data: bytes, table: bytes = TABLE) -> lobby.LobbyMessage:
    message = lobby.open_message(data, table)
    assert message is not None
    return message


def join(info: dict[str, object], name: str = "p", /, who: Identity = JOINER, fresh: bytes = FRESH,
         **override: object) -> lobby.LobbyMessage:
    message = opened(author(who).join(RIDER, info, name, host=HOST.public_key, fresh=fresh))
    return dataclasses.replace(message, fields={**message.fields, **override})


def view(me: Identity = JOINER, fresh: bytes = FRESH) -> lobby.JoinerView:
    return lobby.JoinerView(HOST.fingerprint, me.public_key, fresh)


def seated_host(deck_size: int = 38, fresh: bytes = FRESH) -> lobby.HostLobby:
    host = lobby.HostLobby(RIDER, 2, HOST.public_key, {"deck_size": 40}, "alice")
    host.join(JOINER.public_key, join({"deck_size": deck_size}, "bob", fresh=fresh))
    return host


def test_host_seats_joiners_in_arrival_order_and_makes_the_genesis() -> None:
    host = lobby.HostLobby(RIDER, 2, HOST.public_key, {"deck_size": 40}, "alice")
    assert host.join(JOINER.public_key, join({"deck_size": 38}, "bob")) == 1
    assert host.join(JOINER.public_key, join({"deck_size": 38}, "bob")) == 1  # a repeat keeps the seat
    genesis = host.make_genesis()
    assert genesis.seat_keys == (HOST.public_key, JOINER.public_key)
    assert genesis.options["deck_sizes"] == [40, 38] and genesis.options["names"] == ["alice", "bob"]
    assert genesis.card_set_hash == RIDER.card_set_hash()
    assert genesis.nonces[1] == FRESH and len(genesis.nonces[0]) == lobby.NONCE_SIZE  # every seat's part
    back, seat = lobby.check_start(RIDER, opened(author(HOST).start(genesis)), view(), {"deck_size": 38})
    assert (game_id(back), seat) == (game_id(genesis), 1)


def test_a_rejoin_before_the_start_replaces_the_joiners_nonce_and_after_it_changes_nothing() -> None:
    host = seated_host()
    host.join(JOINER.public_key, join({"deck_size": 38}, fresh=b"g" * 16))  # a new process, same key
    genesis = host.make_genesis()
    assert genesis.nonces[1] == b"g" * 16
    host.join(JOINER.public_key, join({"deck_size": 38}, fresh=b"h" * 16))
    assert host.make_genesis().nonces[1] == b"g" * 16


@pytest.mark.parametrize(("override", "words"), [
    ({"rules": "locke/1"}, "choose Rider in the lobby's game row .or tools.peer join CODE --game rider"),
    ({"version": "2"}, "install the same Fairtable release"),
    ({"cards": bytes(32)}, "card set differs"),
    ({"info": {"deck_size": 0}}, "deck_size"),
    ({"info": "forty"}, "malformed join request"),
])
def test_host_refuses_what_does_not_fit_and_says_why(override: dict[str, object], words: str) -> None:
    host = lobby.HostLobby(RIDER, 2, HOST.public_key, {"deck_size": 40}, "alice")
    with pytest.raises(lobby.LobbyError, match=words):
        host.join(JOINER.public_key, join({"deck_size": 40}, **override))
    assert not host.full


@pytest.mark.parametrize("name", ["n" * (lobby.MAX_NAME + 1), 7])
def test_host_refuses_a_name_too_long_or_not_text(name: object) -> None:
    host = lobby.HostLobby(RIDER, 2, HOST.public_key, {"deck_size": 40}, "alice")
    with pytest.raises(lobby.LobbyError, match="malformed join request"):
        host.join(JOINER.public_key, join({"deck_size": 40}, name=name))
    assert host.join(JOINER.public_key, join({"deck_size": 40}, name="n" * lobby.MAX_NAME)) == 1


def test_a_signed_name_that_does_not_fit_still_verifies_so_the_host_can_answer_why() -> None:
    data = author(JOINER)._sign("join", rules=RIDER.rules_id, version=RIDER.rules_version,
                                cards=RIDER.card_set_hash(), info={"deck_size": 40}, name=7,
                                to=HOST.public_key, fresh=FRESH)
    host = lobby.HostLobby(RIDER, 2, HOST.public_key, {"deck_size": 40}, "alice")
    with pytest.raises(lobby.LobbyError, match="malformed join request"):
        host.join(JOINER.public_key, opened(data))


def test_full_table_and_bad_seat_counts_are_refused() -> None:
    host = seated_host(40)
    with pytest.raises(lobby.LobbyError, match="table is full"):
        host.join(ATTACKER.public_key, join({"deck_size": 40}, who=ATTACKER))
    with pytest.raises(lobby.LobbyError, match="2 to 2 seats"):
        lobby.HostLobby(RIDER, 3, HOST.public_key, {"deck_size": 40}, "alice")
    with pytest.raises(lobby.LobbyError, match="not every seat"):
        lobby.HostLobby(RIDER, 2, HOST.public_key, {"deck_size": 40}, "a").make_genesis()


def test_joiner_refuses_a_start_without_its_seat_or_with_its_deck_size_changed() -> None:
    start = opened(author(HOST).start(seated_host().make_genesis()))
    with pytest.raises(lobby.LobbyError, match="holds no seat"):
        lobby.check_start(RIDER, start, view(ident(5)), {"deck_size": 38})
    with pytest.raises(lobby.LobbyError, match="differently from what you sent"):
        lobby.check_start(RIDER, start, view(), {"deck_size": 39})
    bad = dataclasses.replace(start, fields={"genesis": {"rules_id": "x"}})
    with pytest.raises(lobby.LobbyError, match="invalid genesis"):
        lobby.check_start(RIDER, bad, view(), {})


def test_joiner_refuses_a_start_for_another_game_or_card_set() -> None:
    """The host's genesis must name the rules and card set of the table we
    asked to join, whatever seat it gives us."""
    keys = (HOST.public_key, JOINER.public_key)
    options = {"deck_sizes": [40, 40], "names": ["alice", "bob"]}
    for rules_id, cards in (("locke/1", RIDER.card_set_hash()), (RIDER.rules_id, bytes(32))):
        genesis = Genesis(rules_id, RIDER.rules_version, cards, keys, options, (bytes(16), FRESH))
        with pytest.raises(lobby.LobbyError, match="another card set .*ask the host for a new invite"):
            lobby.check_start(RIDER, opened(author(HOST).start(genesis)), view(), {"deck_size": 40})
    fine = Genesis(RIDER.rules_id, RIDER.rules_version, RIDER.card_set_hash(), keys, options, (bytes(16), FRESH))
    assert lobby.check_start(RIDER, opened(author(HOST).start(fine)), view(), {"deck_size": 40})[1] == 1


# --- issue 9, item 3: every seat's fresh nonce; a replayed genesis is refused -------------------------


def test_a_replayed_genesis_is_refused_and_cannot_frame_a_player_with_two_hellos() -> None:
    """The attack: a genesis is replayed at a joiner (same host, same table,
    same players, the host's signature genuine). Before, the joiner accepted
    it, and its hello envelope for "the same game" twice made a valid
    equivocation proof against it. Now the genesis must hold the fresh nonce
    of *this* join, so the replay is refused, and two honest lobbies always
    give two game ids, so the hellos of two games never pair into a proof."""
    first = seated_host(fresh=b"1" * 16).make_genesis()
    replay = opened(author(HOST).start(first))  # what a replay delivers: validly signed by the host
    with pytest.raises(lobby.LobbyForgery, match="fresh nonce"):
        lobby.check_start(RIDER, replay, view(fresh=b"2" * 16), {"deck_size": 38})
    second = seated_host(fresh=b"2" * 16).make_genesis()
    lobby.check_start(RIDER, opened(author(HOST).start(second)), view(fresh=b"2" * 16), {"deck_size": 38})
    assert game_id(first) != game_id(second)
    hellos = [EnvelopeWriter(JOINER, game_id(g), 1).write("hello", {"n": i}, (0, bytes(32)))
              for i, g in enumerate((first, second))]
    with pytest.raises(InvalidProof, match="differ in game"):
        verify_equivocation_proof({"first": hellos[0].to_data(), "second": hellos[1].to_data()},
                                  JOINER.public_key)


def test_the_host_cannot_replace_a_joiners_nonce() -> None:
    genesis = seated_host().make_genesis()
    swapped = dataclasses.replace(genesis, nonces=(genesis.nonces[0], b"x" * 16))
    with pytest.raises(lobby.LobbyForgery, match="fresh nonce"):
        lobby.check_start(RIDER, opened(author(HOST).start(swapped)), view(), {"deck_size": 38})


def test_equal_lobbies_give_different_game_ids_even_with_the_same_joiner_nonce() -> None:
    """The host's own fresh nonce too: two tables with the same joiner
    contribution still differ (each honest seat alone makes the id new)."""
    assert game_id(seated_host().make_genesis()) != game_id(seated_host().make_genesis())


# --- issue 9, item 2: signed lobby and control messages ------------------------------------------------


def every_message(gid: bytes) -> dict[str, bytes]:
    """One well-formed message of every kind, each signed by its rightful author."""
    genesis = seated_host().make_genesis()
    return {
        "join": author(JOINER).join(RIDER, {"deck_size": 40}, "bob", host=HOST.public_key, fresh=FRESH),
        "refuse": author(HOST).refuse("no", to=JOINER.public_key, re=FRESH),
        "seated": author(HOST).seated([HOST.public_key, JOINER.public_key], 2),
        "start": author(HOST).start(genesis),
        "ready": author(JOINER).ready(gid, host=HOST.public_key),
        "go": author(HOST).go(gid),
        "done": author(JOINER).done(gid, 1),
        "nudge": author(JOINER).nudge(gid, encode({"catch_up": {"game": gid, "have": (0, 0), "n": 1, "seat": 1}})),
    }


def resign(data: bytes, signer: Identity, *, by: bytes | None = None, table: bytes = TABLE,
           msg: dict[str, Any] | None = None) -> bytes:
    """The same message re-signed by ``signer``, optionally naming another author key."""
    outer = decode(data)["lobby"]
    body = dict(msg if msg is not None else outer["msg"])
    claimed = by if by is not None else signer.public_key
    sig = signer.sign(lobby.signed_bytes(table, claimed, body))
    return encode({"lobby": {"by": claimed, "msg": body, "sig": sig}})


@pytest.mark.parametrize("kind", ["join", "refuse", "seated", "start", "ready", "go", "done", "nudge"])
def test_every_lobby_message_verifies_only_as_signed_by_its_author_for_this_table(kind: str) -> None:
    gid = game_id(seated_host().make_genesis())
    data = every_message(gid)[kind]
    rightful = decode(data)["lobby"]["by"]
    assert opened(data).author == rightful and opened(data).kind == kind
    # a signature by another key in the rightful author's name: the relayed forgery of the issue
    with pytest.raises(lobby.LobbyForgery, match="does not verify"):
        lobby.open_message(resign(data, ATTACKER, by=rightful), TABLE)
    # the genuine message replayed at another table
    with pytest.raises(lobby.LobbyForgery, match="does not verify"):
        lobby.open_message(data, b"U" * 8)
    # any altered byte of the message
    outer = decode(data)["lobby"]
    for name in outer["msg"]:
        value = outer["msg"][name]
        changed = {**outer["msg"], name: (value + b"x") if isinstance(value, bytes) else
                   (value + "x") if isinstance(value, str) else value}
        if changed == outer["msg"]:
            continue
        tampered = encode({"lobby": {**outer, "msg": changed}})
        with pytest.raises(lobby.LobbyForgery):
            lobby.open_message(tampered, TABLE)


@pytest.mark.parametrize("mutate", [
    lambda m: {**m, "extra": 1},
    lambda m: {k: v for k, v in m.items() if k != "nonce"},
    lambda m: {**m, "t": "promote"},
    lambda m: {**m, "nonce": b"short"},
])
def test_malformed_lobby_messages_are_refused_even_when_signed(mutate: Any) -> None:
    gid = game_id(seated_host().make_genesis())
    for kind, data in every_message(gid).items():
        body = mutate(dict(decode(data)["lobby"]["msg"]))
        with pytest.raises(lobby.LobbyForgery, match="malformed|unknown kind"):
            lobby.open_message(resign(data, JOINER, msg=body), TABLE)
    for junk in (encode({"lobby": {"by": HOST.public_key, "msg": {}}}), encode({"lobby": 1}),
                 encode({"lobby": {"by": b"k", "msg": {"t": "go"}, "sig": bytes(64)}}), b"ds5:lobbyi"):
        with pytest.raises(lobby.LobbyForgery):
            lobby.open_message(junk, TABLE)


def test_start_go_and_refuse_signed_by_another_joiner_are_refused() -> None:
    """Another joiner signs with its own key (so the signature verifies) but
    is not the invite's host: its start, go and refusal count for nothing."""
    host = seated_host()
    genesis = host.make_genesis()
    gid = game_id(genesis)
    forged_genesis = dataclasses.replace(genesis, seat_keys=(ATTACKER.public_key, JOINER.public_key))
    with pytest.raises(lobby.LobbyForgery, match="not by the host"):
        lobby.check_start(RIDER, opened(author(ATTACKER).start(forged_genesis)), view(), {"deck_size": 38})
    with pytest.raises(lobby.LobbyForgery, match="not by the host"):
        lobby.check_refuse(view(), opened(author(ATTACKER).refuse("go away", to=JOINER.public_key, re=FRESH)))
    with pytest.raises(lobby.LobbyForgery, match="only the host"):
        lobby.check_go(genesis, opened(author(ATTACKER).go(gid)))
    lobby.check_go(genesis, opened(author(HOST).go(gid)))  # the real one passes
    with pytest.raises(lobby.LobbyForgery, match="only the host"):
        lobby.check_go(genesis, opened(author(HOST).go(bytes(32))))  # for another game


def test_two_keys_of_one_attacker_cannot_be_seated_around_a_victim() -> None:
    """The attacker forges a start putting two keys it owns around the victim
    (three seats: attacker, victim, attacker). Signed by one of its keys it is
    not the host's; naming the host's key it does not verify; and a host that
    did seat the victim next to them must still include the victim's nonce."""
    keys = (ATTACKER.public_key, JOINER.public_key, ATTACKER2.public_key)
    tiny_like = Genesis(RIDER.rules_id, RIDER.rules_version, RIDER.card_set_hash(), keys,
                        {"deck_sizes": [40, 38, 40]}, (b"a" * 16, FRESH, b"b" * 16))
    data = author(ATTACKER).start(tiny_like)
    with pytest.raises(lobby.LobbyForgery, match="not by the host"):
        lobby.check_start(RIDER, opened(data), view(), {"deck_size": 38})
    with pytest.raises(lobby.LobbyForgery, match="does not verify"):
        lobby.open_message(resign(data, ATTACKER, by=HOST.public_key), TABLE)
    # a host key with seat 0 given to someone else: the host did not sign *that* seating
    host_keys = dataclasses.replace(tiny_like, seat_keys=(ATTACKER.public_key, JOINER.public_key, HOST.public_key))
    with pytest.raises(lobby.LobbyForgery, match="seat 0 is not the host"):
        lobby.check_start(RIDER, opened(author(HOST).start(host_keys)), view(), {"deck_size": 38})


def test_a_join_seats_only_its_signer_and_only_at_the_host_it_names() -> None:
    host = lobby.HostLobby(RIDER, 2, HOST.public_key, {"deck_size": 40}, "alice")
    other_host = opened(author(JOINER).join(RIDER, {"deck_size": 40}, "b", host=ATTACKER.public_key, fresh=FRESH))
    with pytest.raises(lobby.LobbyForgery, match="another host"):
        host.join(JOINER.public_key, other_host)
    # a join in a victim's name, signed by the attacker: never opens, so never reaches the host
    forged = resign(author(JOINER).join(RIDER, {"deck_size": 40}, "b", host=HOST.public_key, fresh=FRESH),
                    ATTACKER, by=JOINER.public_key)
    with pytest.raises(lobby.LobbyForgery):
        lobby.open_message(forged, TABLE)
    assert not host.full


def test_a_refusal_counts_only_for_our_current_join() -> None:
    refuse = author(HOST).refuse("full", to=JOINER.public_key, re=FRESH)
    assert lobby.check_refuse(view(), opened(refuse)) == "full"
    with pytest.raises(lobby.LobbyForgery, match="another joiner or for an earlier join"):
        lobby.check_refuse(view(fresh=b"n" * 16), opened(refuse))  # replayed at our next join
    with pytest.raises(lobby.LobbyForgery, match="another joiner"):
        lobby.check_refuse(view(ATTACKER), opened(refuse))  # replayed at another joiner


def test_ready_counts_only_from_a_seated_joiner_for_this_host_and_game() -> None:
    host = seated_host()
    with pytest.raises(lobby.LobbyForgery, match="before the game was started"):
        host.check_ready(opened(author(JOINER).ready(bytes(32), host=HOST.public_key)))
    gid = game_id(host.make_genesis())
    assert host.check_ready(opened(author(JOINER).ready(gid, host=HOST.public_key))) == 1
    for bad in (author(JOINER).ready(bytes(32), host=HOST.public_key),  # another game
                author(JOINER).ready(gid, host=ATTACKER.public_key),  # another host
                author(ATTACKER).ready(gid, host=HOST.public_key),  # holds no seat
                author(HOST).ready(gid, host=HOST.public_key)):  # the host is no joiner
        with pytest.raises(lobby.LobbyForgery):
            host.check_ready(opened(bad))


def test_done_and_nudge_speak_only_for_their_signers_own_seat() -> None:
    genesis = seated_host().make_genesis()
    gid = game_id(genesis)
    assert lobby.check_done(genesis, opened(author(JOINER).done(gid, 1))) == 1
    for bad in (author(JOINER).done(gid, 0), author(JOINER).done(bytes(32), 1), author(JOINER).done(gid, 7),
                author(ATTACKER).done(gid, 1)):
        with pytest.raises(lobby.LobbyForgery):
            lobby.check_done(genesis, opened(bad))

    def request(seat: object) -> bytes:
        return encode({"catch_up": {"game": gid, "have": (0, 0), "n": 1, "seat": seat}})

    assert lobby.check_nudge(genesis, opened(author(JOINER).nudge(gid, request(1)))) == request(1)
    for bad in (author(JOINER).nudge(gid, request(0)),  # replies would go to the host's seat
                author(JOINER).nudge(gid, request(None)), author(JOINER).nudge(gid, b"not a request"),
                author(JOINER).nudge(bytes(32), request(1)), author(ATTACKER).nudge(gid, request(1))):
        with pytest.raises(lobby.LobbyForgery):
            lobby.check_nudge(genesis, opened(bad))


def test_lobby_signature_literal_vector() -> None:
    """Pins the signed bytes and the signature (docs/protocol.md §14), recomputed by hand."""
    import hashlib

    signer = Identity.from_seed(b"\x01" * 32)
    msg = {"t": "go", "game": bytes(32), "nonce": bytes(8)}
    signed = lobby.signed_bytes(b"TTTTTTTT", signer.public_key, msg)
    assert signed == encode(["fairtable/lobby/v1", {"by": signer.public_key, "msg": msg, "table": b"TTTTTTTT"}])
    assert hashlib.sha256(signed).hexdigest() == "5c209505c7f0a9fc81dc3ada4b61fe454a5a0f7c1515f4228dce633f96d18c12"
    sig = signer.sign(signed)
    assert sig.hex() == ("1dcab496478f7f6c76cd9c0a2fe06bd969ba1ab75adce44e999325d4cffc6895"
                         "f85d226f1fceafa9e42ae2ac2fd1f3276f9fd8980ba3c7cd7b85f73ed69b570f")
    message = opened(encode({"lobby": {"by": signer.public_key, "msg": msg, "sig": sig}}), b"TTTTTTTT")
    assert (message.kind, message.fields) == ("go", {"game": bytes(32)})


def test_lobby_payloads_are_told_from_session_envelopes_and_never_repeat() -> None:
    genesis = seated_host().make_genesis()
    gid = game_id(genesis)
    env = EnvelopeWriter(HOST, gid, 0).write("chat", {"text": "hi"}, (0, bytes(32)))
    assert lobby.open_message(env.to_bytes(), TABLE) is None
    assert lobby.open_message(encode({"catch_up": {"game": gid}}), TABLE) is None
    assert lobby.is_catch_up_request(encode({"catch_up": {"game": gid}}))
    assert not lobby.is_catch_up_request(env.to_bytes())
    assert lobby.open_message(b"\xff garbage", TABLE) is None
    a, b = author(JOINER).ready(gid, host=HOST.public_key), author(JOINER).ready(gid, host=HOST.public_key)
    assert a != b  # the mesh drops payloads it has seen: two joiners' "ready" must differ
    ready = opened(a)
    assert ready.kind == "ready" and ready["game"] == gid and ready.author == JOINER.public_key
    assert set(decode(a)) == {"lobby"}


def test_peer_directory_round_trip_and_clear_errors(tmp_path: Path) -> None:
    genesis = seated_host().make_genesis()
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
