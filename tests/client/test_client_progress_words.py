"""Lobby progress lines and end-screen words a newcomer playtest found half in English or wrong.

Seen: "the hostとのワームホール接続：direct" and "wormhole code … の卓に接続しています" (the driver's
English "the host", link kind and "where" inside Japanese lines); "The table closed before the game
started" for a mistyped online code; "dice by commit-reveal" on the end screen of a game that rolled
one-phase VRF dice. Words: client/locale; the facts: net/peer/progress.py events.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from client.i18n import progress_text
from client.table.words import audit_words
from net.envelope import DICE_COMMIT_REVEAL, DICE_VRF
from net.peer.progress import progress
from net.transport.wormhole import explain_failure, expired

ENGLISH = re.compile(r"[A-Za-z]{3,}")


def _no_english(text: str, *allowed: str) -> bool:
    for word in allowed:
        text = text.replace(word, "")
    return not ENGLISH.search(text)


@pytest.mark.parametrize("kind, ja", [("direct", "直接"), ("relayed", "中継サーバー経由"), ("reconnecting", "再接続中")])
def test_the_online_link_line_is_all_japanese(kind: str, ja: str) -> None:
    event = progress("online_link", who="the host", kind=kind, host=True)
    assert event.text == f"the wormhole link to the host is {kind}"  # the driver's English line is unchanged
    line = progress_text("ja", event)
    assert line == f"ホストとのワームホール接続：{ja}", line
    assert "the host" in progress_text("en", event)


def test_resuming_with_the_host_is_all_japanese() -> None:
    line = progress_text("ja", progress("online_resuming", who="the host", host=True))
    assert "ホスト" in line and _no_english(line), line


@pytest.mark.parametrize("event_id", ["joining", "end_not_seated", "end_host_gone"])
def test_an_online_join_names_its_code_in_the_players_language(event_id: str) -> None:
    extra: dict[str, dict[str, Any]] = {"joining": {"key": "AB12"}, "end_not_seated": {}, "end_host_gone": {"seconds": 30}}
    fields = extra[event_id]
    event = progress(event_id, where="wormhole code 7-crossover-clockwork", code="7-crossover-clockwork", **fields)
    line = progress_text("ja", event)
    assert "ワームホールコード 7-crossover-clockwork" in line and "wormhole code" not in line, line
    assert _no_english(line, "crossover", "clockwork"), line


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_wrong_online_code_says_the_code_is_not_valid_not_that_the_table_closed(lang: str) -> None:
    problem = explain_failure("WrongPasswordError", None, mailbox="ws://m", relay="tcp:r", code="3-ultimate-sweltar")
    event = progress("end_join_failed", problem_text=str(problem), problem=problem.code, code="3-ultimate-sweltar")
    line = progress_text(lang, event)
    assert "3-ultimate-sweltar" in line, line
    if lang == "en":
        assert "not (or no longer) valid" in line and "host" in line and "closed" not in line, line
    else:
        assert "正しくないか、もう使えません" in line and _no_english(line, "ultimate", "sweltar"), line
    late = expired("3-ultimate-sweltar", 30)
    words = progress_text(lang, progress("end_join_failed", problem_text=str(late), problem=late.code,
                                         code="3-ultimate-sweltar"))
    assert ("expired" if lang == "en" else "期限切れ") in words, words


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_end_screen_names_the_dice_protocol_the_record_used(lang: str) -> None:
    def session(dice: str | None) -> SimpleNamespace:
        genesis = None if dice is None else SimpleNamespace(dice=dice)
        return SimpleNamespace(networked=True, peer=SimpleNamespace(genesis=genesis))

    vrf = audit_words(session(DICE_VRF), lang)
    assert "vrf-dleq/v1" in vrf and ("commit-reveal" not in vrf and "コミット" not in vrf), vrf
    old = audit_words(session(DICE_COMMIT_REVEAL), lang)
    assert ("commit-reveal" in old) if lang == "en" else ("コミット・リビール" in old), old
    local = audit_words(SimpleNamespace(networked=False), lang)
    assert local not in (vrf, old)


def _table(peer: SimpleNamespace, role: str, events: list[Any]) -> SimpleNamespace:
    """The parts of a NetTable (client/table/net_play.py) its progress lines read."""
    from client.table.net_play import NetTable

    table = SimpleNamespace(peer=peer, role=role, events=events, _seen_names={})
    table.known_names = lambda lang: NetTable.known_names(table, lang)  # type: ignore[arg-type]
    return table


def _lines(table: SimpleNamespace, lang: str) -> list[str]:
    from client.table.net_play import NetTable

    return NetTable.progress_lines(table, lang)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_hosts_box_names_players_with_their_seats_and_watchers_by_name(lang: str) -> None:
    """Seen: "watcher Watcher (LRQL-…) is watching the table", "Player LRQL-…: connected", and
    "Player (2): connected" next to "Player takes seat 2 of 6"."""
    from net.transport.keys import short_id

    host, joiner, watcher = b"H" * 32, b"J" * 32, b"W" * 32
    lobby = SimpleNamespace(seated=[SimpleNamespace(key=host, name="Player"),
                                    SimpleNamespace(key=joiner, name="Player (2)")])
    desk = SimpleNamespace(watchers={watcher: SimpleNamespace(name="Watcher")})
    peer = SimpleNamespace(host_lobby=lobby, genesis=None, desk=desk, invite=None)
    events = [progress("seat_taken", who="Player", seat=1, size=6),
              progress("link", peer=short_id(joiner), status="connected"),
              progress("watcher_in", who=f"watcher Watcher ({short_id(watcher)})", name="Watcher"),
              progress("link", peer=short_id(watcher), status="connected")]
    taken, linked, watching, watcher_link = _lines(_table(peer, "host", events), lang)
    seat = "Player (Seat 2)" if lang == "en" else "Player（席2）"
    assert linked.startswith(seat) and "(2)" not in linked, linked
    for line in (watching, watcher_link):
        assert short_id(watcher) not in line and "Watcher" in line and "watcher Watcher" not in line, line
    assert short_id(joiner) not in linked


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_joiner_names_the_host_by_seat_and_every_seat_by_name_once_known(lang: str) -> None:
    """Seen: "The host (W4AB-…): connected" (the host's key, not who it is)."""
    from net.transport.keys import short_id

    host, other = b"H" * 32, b"O" * 32
    invite = SimpleNamespace(fingerprint=short_id(host))
    peer = SimpleNamespace(host_lobby=None, genesis=None, desk=None, invite=invite)
    before = _lines(_table(peer, "join", [progress("link", peer=short_id(host), status="connected")]), lang)[0]
    assert short_id(host) not in before and ("The host (Seat 1)" if lang == "en" else "ホスト（席1）") in before
    peer.genesis = SimpleNamespace(seat_keys=(host, b"M" * 32, other), options={"names": ["Ken", "Me", "Aki"]})
    after = _lines(_table(peer, "join", [progress("link_seat", peer=short_id(other), seat=2, status="connected"),
                                         progress("link", peer=short_id(host), status="connected")]), lang)
    assert "Aki" in after[0] and short_id(other) not in after[0], after
    assert after[1].startswith("Ken"), after
