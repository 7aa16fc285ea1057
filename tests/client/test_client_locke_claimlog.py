"""The Locke log's word per declaration on a networked table: proven now, or checked at the end (issue 31).

The statuses come from a real networked session (tests/net/session/held_claim_game.py: seat 0 declares a
floor for its own hand cards) that proved its claim, and from one whose record judges claims at the audit.
"""

from __future__ import annotations

import types

import pytest

from client.i18n import tr
from client.locke.claimlog import claim_entries, claim_statuses
from client.table.words import player_label
from net.envelope import CLAIMS_AT_AUDIT, CLAIMS_AT_STEP
from tests.net.session.held_claim_game import table


def _played(claims: str) -> tuple[types.SimpleNamespace, object, object]:
    t = table(3, claims=claims)
    t.start()
    t.run()
    s = t.sessions[1]
    assert s.phase == "done" and len(s.game.claims(s.state)) == 1
    index = next(k for k, state in enumerate(s.states) if s.game.claims(state))
    # the client's table session as far as claimlog reads it: networked, with the net session inside
    return types.SimpleNamespace(networked=True, session=s, game=s.game), s.states[index - 1], s.states[index]


def test_a_claim_proven_at_its_step_reads_proven_now_in_both_languages() -> None:
    view, pre, post = _played(CLAIMS_AT_STEP)
    assert claim_statuses(view, pre, post) == [(0, True)]
    for lang in ("en", "ja"):
        [entry] = claim_entries(lang, [(0, True)], ("Ann", "Bo", "Cy"), me=1)
        ann = tr(lang, "seat_named", name="Ann", n=1)
        assert entry.text == tr(lang, "lk_claim_proven", who=ann) and "Ann" in entry.text
        assert entry.text != tr(lang, "lk_claim_waits", who=ann)
    assert claim_entries("en", [(1, True)], ("Ann", "Bo", "Cy"), me=1)[0].text.startswith("You (Seat 2) proved")


def test_a_record_that_judges_claims_at_the_audit_reads_checked_at_the_end() -> None:
    view, pre, post = _played(CLAIMS_AT_AUDIT)
    assert claim_statuses(view, pre, post) == [(0, False)]
    assert "end" in claim_entries("en", [(0, False)], ("Ann", "Bo", "Cy"), me=1)[0].text
    assert claim_entries("ja", [(0, False)], ("Ann", "Bo", "Cy"), me=1)[0].text == tr(
        "ja", "lk_claim_waits", who=tr("ja", "seat_named", name="Ann", n=1))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_same_claim_by_every_seat_at_one_step_is_one_line_naming_each_seat(lang: str) -> None:
    """Seen at a networked set-up: five lines "Player made a claim that is checked at the end ...",
    one per seat, and two seats both called "Player" without their seat numbers."""
    names = ("Player", "Bot2", "Bot3", "Player (2)", "Heuristic bot 1")
    entries = claim_entries(lang, [(s, False) for s in range(5)], names, me=3)
    assert len(entries) == 1, [e.text for e in entries]
    text = entries[0].text
    for seat in range(5):
        assert player_label(seat, names, 3, lang) in text, text
    mixed = claim_entries(lang, [(0, True), (0, True), (1, True), (1, True), (2, False)], names, me=3)
    assert len(mixed) == 2 and ("2 claims" in mixed[0].text if lang == "en" else "2件" in mixed[0].text)


def test_a_local_table_adds_no_claim_line() -> None:
    view, pre, post = _played(CLAIMS_AT_STEP)
    view.networked = False
    assert claim_statuses(view, pre, post) == []
    assert claim_statuses(types.SimpleNamespace(networked=True, session=view.session, game=view.game), post, post) == []
