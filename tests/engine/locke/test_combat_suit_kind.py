"""A suit declared without its kind (KMC 2.3.2; seed 000 3.1.2; ruling N225).

The declaration before round 1 may say just "a suit" (its source, the character card or a kept
handle, stays public); the first attack that reaches the suit makes its wearer say the kind, a
claim about that card. Seat 0 is Locke-1 (fighter 0), seat 2 (fighter 1) stands on his cell."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import FalseClaim, IllegalAction
from engine.core.pending import Decision
from engine.locke.actions import CheckValue, Nop
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Absorb, Equip, SuitKind, UseItem
from engine.locke.combat.model import SUIT
from engine.locke.state import public_data, zone_of
from tests.engine.locke.combat_helpers import card, combat_table, fight, initiative, seven
from tests.engine.locke.flow_helpers import act, five, roll, table_at, waiting

LOCKE_FIRST = (6, 6, 1, 1)
FACES = {"nia": "nia", "octavius": "flora", "yamaki-1": "yamaki-1", "strohheim-e": "soi", "strohheim-s": "strohheim-s",
         "locke-1": "locke"}


def _seats(s2: str = "nia", kept2: tuple[str, ...] = (), s0: str = "locke-1") -> list[dict[str, Any]]:
    over: dict[str, Any] = {"s0": {"character": s0, "silhouette": FACES[s0]},
                            "s2": {"character": s2, "silhouette": FACES[s2], "place": "P:1:0", "kept": list(kept2)}}
    if s2 == "yamaki-1":
        over["s3"] = {"character": "ran-g", "silhouette": "ran-g"}
    return five(**over)


def _handle(seats: list[dict[str, Any]]) -> int:
    """Seat 2's first kept planet card."""
    return int(table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier"}).state.seats[2].kept[0])


def _table(s2: str = "nia", kept2: tuple[str, ...] = (), deck0: tuple[str, ...] = ("blaster-4",),
           equip: dict[int, Equip] | None = None, s0: str = "locke-1") -> Any:
    table = combat_table(seats=_seats(s2, kept2, s0), deck=seven(*deck0) + seven(), equip=equip)
    if equip and 0 in equip and equip[0].nike:
        roll(table, 3, 3)  # Nike's check for the round
    initiative(table, *LOCKE_FIRST)
    return table


def _card_suit(kept2: str, deck0: tuple[str, ...] = ("blaster-4",)) -> tuple[Any, int]:
    """Nia wears the kept card ``kept2`` as "a suit"."""
    h = _handle(_seats(kept2=(kept2,)))
    return _table(kept2=(kept2,), deck0=deck0, equip={2: Equip(2, 0, "", False, cards=(h,), kinds=(SUIT,))}), h


def _attack(table: Any, name: str = "blaster-4") -> None:
    """Locke attacks Nia's side; Nia neither escapes nor defends: the attack reaches the suit."""
    act(table, card(table, 0, "attack", name, target=1))
    act(table, Nop(2))
    act(table, Nop(2))


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


# --- the character card's suit ------------------------------------------------------------------


def test_the_honest_declaration_offers_the_suit_with_or_without_its_kind() -> None:
    """N225: saying the kind up front stays a choice (it costs nothing); Octavius may declare his
    E-suit by name or as "a suit", never another kind; Nia, with no suit, neither."""
    from engine.locke.combat.equip import EquipDeclaration
    from tests.engine.locke.flow_helpers import game

    table = combat_table(seats=_seats("octavius"))
    g = game()
    step = EquipDeclaration(2, 1)
    me = g.components.character("octavius")
    options = step.legal(g, table.state, me, None)
    assert Equip(2, 0, "energy-suit", False) in options and Equip(2, 0, SUIT, False) in options
    assert Equip(2, 0, "powered-suit", False) not in options
    nia = step.legal(g, table.state, g.components.character("nia"), None)
    assert not [a for a in nia if isinstance(a, Equip) and a.suit]


def test_a_suit_declared_without_its_kind_stays_unsaid_until_an_attack_reaches_it() -> None:
    """KMC 2.3.2 ("the round's declaration need not say the suit's kind"): the declaration is a
    claim that the character card carries some suit; the fighter wears SUIT, no durability yet."""
    table = _table("octavius", equip={2: Equip(2, 0, SUIT, False)})
    octavius = fight(table).fighters[1]
    assert octavius.suit == SUIT and octavius.suit_left == 0
    assert any(c.what == cc.ITEM and c.value == [SUIT, 1] and c.seat == 2 for c in table.state.claims)
    assert ("cb-equip", 2, 0, SUIT, False, -1, 0, []) in table.state.events


def test_declaring_a_suit_without_one_is_caught_naming_the_seat() -> None:
    """KMC 2.3: Nia carries no suit; "a suit" is a false claim about her character card."""
    with pytest.raises(FalseClaim) as err:
        _table("nia", equip={2: Equip(2, 0, SUIT, False)})
    assert err.value.seat == 2 and err.value.claim.what == cc.ITEM and err.value.claim.value == [SUIT, 1]


def test_a_declared_suit_must_be_a_suit_or_just_a_suit() -> None:
    with pytest.raises(IllegalAction) as err:
        combat_table(seats=_seats("octavius"), equip={2: Equip(2, 0, "cape", False)})
    assert err.value.rule == "locke.10.3.2"


def test_the_first_hit_makes_the_wearer_say_the_kind_and_the_e_suit_reflects() -> None:
    """KMC 2.3.2 E-suit: the attack reaches Octavius's suit; he says "energy-suit" (a claim about
    his card); then the attacker makes the reflection check (KMC 11.2 (1)), and the suit has its
    durability 5 when it takes the hit."""
    table = _table("octavius", equip={2: Equip(2, 0, SUIT, False)})
    _attack(table)
    assert waiting(table) == ("locke.cb_suit_kind", 2)
    assert table.legal(2) == [SuitKind(2, "energy-suit")]
    act(table, SuitKind(2, "energy-suit"))
    claim = table.state.claims[-1]
    assert claim.what == cc.ITEM and claim.value == ["energy-suit", 1] and claim.seat == 2
    assert _events(table, "cb-suit-kind")[-1] == ("cb-suit-kind", 2, "energy-suit")
    assert fight(table).fighters[1].suit == "energy-suit" and fight(table).fighters[1].suit_left == 5
    assert waiting(table) == ("locke.check_value", 0)
    act(table, CheckValue(0, 6))
    roll(table, 2, 3)  # passed: the suit takes it
    roll(table, 2, 2)
    assert _events(table, "cb-suit-hit")[-1][1:3] == (2, "energy-suit") and _events(table, "cb-suit-hit")[-1][4] == 5


def test_saying_the_wrong_kind_is_caught_naming_the_seat() -> None:
    """N225: Octavius's suit is an E-suit; saying "powered-suit" is a false claim about his card."""
    table = _table("octavius", equip={2: Equip(2, 0, SUIT, False)})
    _attack(table)
    with pytest.raises(FalseClaim) as err:
        table.feed(SuitKind(2, "powered-suit"))
    assert err.value.seat == 2 and err.value.claim.value == ["powered-suit", 1]


def test_a_statement_that_names_no_suit_is_refused() -> None:
    table = _table("octavius", equip={2: Equip(2, 0, SUIT, False)})
    _attack(table)
    before = table.state
    with pytest.raises(IllegalAction) as err:
        table.feed(SuitKind(2, "esp-field"))
    assert err.value.rule == "locke.2.3.2" and table.state == before


def test_the_hell_diver_suit_said_at_its_first_hit_takes_it_with_durability_8() -> None:
    """KMC 2.3.2 H-suit (E-Strohheim): said at the first hit, then checked on durability 8."""
    table = _table("strohheim-e", deck0=("blaster-6",), equip={2: Equip(2, 0, SUIT, False)})
    _attack(table, "blaster-6")
    assert table.legal(2) == [SuitKind(2, "hell-diver-suit")]
    act(table, SuitKind(2, "hell-diver-suit"))
    roll(table, 2, 2)
    hit = _events(table, "cb-suit-hit")[-1]
    assert hit[1:3] == (2, "hell-diver-suit") and hit[4] == 8 and table.state.seats[2].damage == 0


def test_the_powered_suit_said_at_its_first_hit_then_answers_the_absorb() -> None:
    """KMC 2.3.2 P-suit (Yamaki-1, level 3): said, then its owner says it absorbs the bazooka."""
    table = _table("yamaki-1", deck0=("bazooka-7",), equip={2: Equip(2, 0, SUIT, False)})
    _attack(table, "bazooka-7")
    act(table, SuitKind(2, "powered-suit"))
    assert waiting(table) == ("locke.cb_absorb", 2) and table.legal(2) == [Absorb(2, True)]
    act(table, Absorb(2, True))
    assert _events(table, "cb-suit-absorbs")


def test_nikes_attack_also_makes_the_kind_matter() -> None:
    """KMC 2.3.2: Nike hits an E-suit with no check but goes past a P-suit, so a suit of unsaid
    kind must be named before Nike's attack is placed."""
    table = _table("octavius", deck0=(), s0="strohheim-s",
                   equip={0: Equip(0, 0, "", False, -1, 10), 2: Equip(2, 0, SUIT, False)})
    act(table, UseItem(0, "nike", 1))
    assert waiting(table) == ("locke.cb_suit_kind", 2)
    act(table, SuitKind(2, "energy-suit"))
    assert not _events(table, "cb-reflect")
    roll(table, 2, 2)
    assert _events(table, "cb-suit-hit")[-1][1:3] == (2, "energy-suit")


# --- a kept suit card ------------------------------------------------------------------------------


def test_a_suit_card_declared_as_a_suit_stays_face_down_and_is_a_claim_of_either_kind() -> None:
    """Seed 000 3.1.2: the card is named as "a suit" (a claim that it is an E- or P-suit card, or a
    wildcard) and stays face down; the handle is public (the seed's "suit A")."""
    table, h = _card_suit("powered-suit-4")
    nia = fight(table).fighters[1]
    assert nia.suit == SUIT and nia.suit_card == h and h in table.state.seats[2].kept
    assert h not in dict(table.state.open_cards) and dict(table.state.wild)[h] == SUIT
    assert any(c.what == cc.PLANET and c.about == (h,) and c.value == SUIT for c in table.state.claims)


def test_a_card_that_is_no_suit_declared_as_a_suit_is_caught() -> None:
    from engine.core.errors import CheatDetected

    h = _handle(_seats(kept2=("frontier",)))
    with pytest.raises((FalseClaim, CheatDetected)) as err:
        _table(kept2=("frontier",), equip={2: Equip(2, 0, "", False, cards=(h,), kinds=(SUIT,))})
    assert err.value.seat == 2


def test_the_suit_cards_kind_is_said_at_its_first_hit_and_then_it_absorbs() -> None:
    """Seed 000 3.1.2 P-suit card (level 4): at the first hit Nia says "powered-suit" (a claim
    about the kept card, which stays face down), then answers the absorb as for any P-suit."""
    table, h = _card_suit("powered-suit-4", deck0=("bazooka-7",))
    _attack(table, "bazooka-7")
    assert waiting(table) == ("locke.cb_suit_kind", 2) and table.legal(2) == [SuitKind(2, "powered-suit")]
    act(table, SuitKind(2, "powered-suit"))
    claim = table.state.claims[-1]
    assert claim.what == cc.PLANET and claim.about == (h,) and claim.value == "powered-suit"
    assert _events(table, "cb-suit-kind")[-1] == ("cb-suit-kind", 2, "powered-suit", "planet")
    assert waiting(table) == ("locke.cb_absorb", 2) and h in table.state.seats[2].kept
    assert dict(table.state.wild)[h] == "powered-suit"


def test_saying_the_wrong_kind_of_a_suit_card_is_caught() -> None:
    """N225: the P-suit card said to be an E-suit: a false claim about the kept card, judged when
    it opens (at once on a trusted table), naming seat 2."""
    table, _ = _card_suit("powered-suit-4", deck0=("bazooka-7",))
    _attack(table, "bazooka-7")
    with pytest.raises(FalseClaim) as err:
        table.feed(SuitKind(2, "energy-suit"))
    assert err.value.seat == 2 and err.value.claim.what == cc.PLANET


def test_a_suit_card_cannot_be_said_to_be_a_hell_diver_suit() -> None:
    """Seed 000 3.1.2: the planet suits are the E-suit and the P-suit only."""
    table, _ = _card_suit("energy-suit")
    _attack(table)
    with pytest.raises(IllegalAction):
        table.feed(SuitKind(2, "hell-diver-suit"))


def test_a_wildcard_worn_as_a_suit_is_fixed_by_the_statement_and_shown_at_its_break() -> None:
    """Seed 000 3.1.5: a wildcard worn as "a suit" may be said to be either kind; the statement
    fixes it; said E-suit, a passed reflection check breaks it: shown as a wildcard, spent."""
    table, h = _card_suit("wildcard")
    _attack(table)
    assert table.legal(2) == [SuitKind(2, "energy-suit"), SuitKind(2, "powered-suit")]
    act(table, SuitKind(2, "energy-suit"))
    assert dict(table.state.wild)[h] == "energy-suit"
    act(table, CheckValue(0, 6))
    roll(table, 1, 1)
    assert dict(table.state.open_cards)[h] == "wildcard" and h in zone_of(table.state, "planet:stock")


def test_two_positions_differing_only_in_the_suits_kind_look_the_same_until_it_is_said() -> None:
    """Hidden information (N225): Nia's kept suit is an E-suit in one game and a P-suit in the
    other; up to her statement every public datum and every other seat's question and options are
    the same in both."""
    tables = [_card_suit(kind)[0] for kind in ("energy-suit", "powered-suit-4")]

    def same() -> None:
        a, b = tables
        assert public_data(a.state) == public_data(b.state)
        assert a.pending == b.pending
        if isinstance(a.pending, Decision) and a.pending.seat != 2:
            assert a.legal(a.pending.seat) == b.legal(b.pending.seat)

    same()
    for t in tables:
        act(t, card(t, 0, "attack", "blaster-4", target=1))
    same()
    for t in tables:
        act(t, Nop(2))
        act(t, Nop(2))
    same()
    assert all(waiting(t) == ("locke.cb_suit_kind", 2) for t in tables)
