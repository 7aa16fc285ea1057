"""A line about our own seat reads as English about "you": "You (Seat 1) play", not "plays".

Every catalogue line that puts a seat field before a verb is filled with our own seat's label
through the client's real wording paths (client/i18n.py ``tr`` and client/locke/words.py
``Namer.event``), and no third-person verb may follow "You (Seat 1)" (client/agreement.py).
"""

from __future__ import annotations

import re
import string

import pytest

from client.agreement import base_form, you_agree
from client.i18n import tr
from client.locke.events import EVENT_ARGS
from client.locke.words import Namer
from engine.core.hidden import Knowledge
from net.games.locke import components
from tests.client.words import all_words

YOU = "You (Seat 1)"
#: "You (Seat 1)" followed by a third-person verb (an optional adverb between).
THIRD_PERSON = re.compile(r"You \(Seat 1\) (?:(?:now|also|still|then|first|again|just|only) )?"
                          r"(is|has|was|does|[a-z]+[^s]s)\b")
SEAT_FIELDS = ("who", "winner", "loser", "owner")
SAMPLE = {"s": 0, "S": 0, "c": "P:1:1", "k": "x", "t": "x", "b": True, "l": [0], "f": 0, "L": []}


def _third_person(text: str) -> list[str]:
    return [m.group(1) for m in THIRD_PERSON.finditer(text) if base_form(m.group(1)) != m.group(1)]


def test_base_forms() -> None:
    assert [base_form(w) for w in ("plays", "is", "has", "tries", "stretches", "passes", "escapes", "was")] == \
        ["play", "are", "have", "try", "stretch", "pass", "escape", "were"]
    assert [base_form(w) for w in ("its", "with", "cards", "pass", "as")] == ["its", "with", "cards", "pass", "as"]
    assert you_agree("Aki (Seat 2) plays; You (Seat 1) now wins.") == "Aki (Seat 2) plays; You (Seat 1) now win."


@pytest.mark.parametrize("key", sorted(k for k, (en, _ja) in all_words().items()
                                       if any(f"{{{f}}} " in en for f in SEAT_FIELDS)))
def test_every_named_line_agrees_with_you(key: str) -> None:
    template = all_words()[key][0]
    fields = {name: "X" for _, name, _, _ in string.Formatter().parse(template) if name}
    fields.update({f: YOU for f in SEAT_FIELDS if f in fields})
    line = tr("en", key, **fields)
    assert not _third_person(line), f"{key}: {line!r}"


def test_every_locke_event_about_us_agrees() -> None:
    namer = Namer("en", ["Ann", "Bob", "Cy", "Di", "Ed"], 0, components(), Knowledge(0))
    checked = 0
    for kind, types in EVENT_ARGS.items():
        entry = [kind] + [SAMPLE.get(t, 1) for t in types]
        line = namer.event(entry)
        if YOU in line:
            checked += 1
        assert not _third_person(line), f"{kind}: {line!r}"
    assert checked > 20  # the check saw many lines about us


def test_turn_line_and_a_watcher() -> None:
    assert tr("en", "lk_turn_line", phase="Planet phase", turn=1, who=YOU).endswith("You (Seat 1) play")
    # a watched table names every seat by name: nothing changes
    assert tr("en", "lk_turn_line", phase="P", turn=1, who="Ann (Seat 1)").endswith("Ann (Seat 1) plays")


def test_a_noun_in_us_or_is_after_you_is_left_whole() -> None:
    """Review: "…You (Seat 1) status" lost its last letter ("statu")."""
    from client.agreement import you_agree

    assert you_agree("the hit on You (Seat 1) status stays") == "the hit on You (Seat 1) status stays"
    assert you_agree("You (Seat 1) bonus") == "You (Seat 1) bonus"
    assert you_agree("You (Seat 1) plays") == "You (Seat 1) play"
