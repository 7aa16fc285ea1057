"""Items from kept planet cards in combat (seed 000 3.1, KMC 3.1 and 10; rulings N200-N209).

A scenario per kind the combat uses (engine/locke/combat/kept.py ``PLANET_ITEMS``): the use names a kept
handle and the card it is used as (a claim), the card is turned up through the hidden-card reveal,
and the planet card's own numbers and lifetime apply. Seat 0 is Locke-1 (fighter 0), seat 2 Nia
(fighter 1), on Locke's cell, unless a test says otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import CheatDetected, IllegalAction
from engine.core.pending import Chance
from engine.locke.actions import CheckValue, Nop
from engine.locke.combat.kept import PLANET_ITEMS
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Durability, Equip, GoOn, Play, UseItem
from engine.locke.state import zone_of
from tests.engine.locke.combat_helpers import card, combat_table, fight, hand, initiative, seven
from tests.engine.locke.flow_helpers import act, five, roll, waiting

LOCKE_FIRST = (6, 6, 1, 1)
NIA_FIRST = (1, 1, 6, 6)


def _seats(kept0: tuple[str, ...] = (), kept2: tuple[str, ...] = (), s2: str = "nia") -> list[dict[str, Any]]:
    faces = {"nia": "nia", "francis": "francis"}
    return five(s0={"kept": list(kept0)}, s2={"character": s2, "silhouette": faces[s2], "place": "P:1:0",
                                               "kept": list(kept2)})


def _table(kept0: tuple[str, ...] = (), kept2: tuple[str, ...] = (), deck0: tuple[str, ...] = (),
           deck2: tuple[str, ...] = (), first: tuple[int, ...] = LOCKE_FIRST, equip: dict[int, Equip] | None = None,
           extra0: int = 0, s2: str = "nia") -> Any:
    table = combat_table(seats=_seats(kept0, kept2, s2), deck=seven(*deck0) + ["*"] * extra0 + seven(*deck2),
                         equip=equip)
    initiative(table, *first)
    return table


def _h(table: Any, seat: int, k: int = 0) -> int:
    """The seat's k-th kept planet card (face down or face up)."""
    p = table.state.seats[seat]
    return (p.kept + p.shown)[k]


def _handles(seats: list[dict[str, Any]], seat: int) -> Any:
    from tests.engine.locke.flow_helpers import table_at

    return table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier"}).state.seats[seat].kept


def _keep(table: Any, seat: int) -> None:
    """The roller still holds a face-down card: it keeps its roll (no residential re-roll, N62)."""
    assert waiting(table) == ("locke.reroll", seat)
    act(table, Nop(seat))


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def _used(table: Any, kind: str) -> bool:
    return any(e[0] == "planet" and e[1] == kind for e in table.state.events)


def test_the_combat_uses_all_fourteen_combat_kinds() -> None:
    """Seed 000 3.1: every combat-only kind of ruling N81 is used by the combat."""
    assert set(PLANET_ITEMS) == {"cruiser", "henchman", "esp-jammer", "esp-field", "energy-suit", "powered-suit",
                                 "nike", "subspace-field", "esp-controller", "absorb-ball", "geoid-bomb",
                                 "lafnor-mirror", "industrial", "slum"}


# --- declared before round 1 (seed 000 3.1.1-3.1.2) ---------------------------------------------------


def test_a_henchman_card_brings_a_card_and_stays_face_up() -> None:
    """Seed 000 3.1.1: the henchman card is one henchman, kept for the game, turned up at use (N60)."""
    seats = _seats(kept0=("henchman",))
    h = _handles(seats, 0)[0]
    table = _table(kept0=("henchman",), equip={0: Equip(0, 0, "", False, cards=(h,), kinds=("henchman",))}, extra0=1)
    f = fight(table).fighters[0]
    assert f.henchmen == 1 and len(f.hand) == 8
    assert h in table.state.seats[0].shown and dict(table.state.open_cards)[h] == "henchman"
    assert _used(table, "henchman") and any(c.what == cc.PLANET for c in table.state.claims)


def test_naming_a_kept_card_for_what_it_is_not_is_caught_naming_the_seat() -> None:
    """N60, N200: a frontier declared as a henchman card is a false claim, caught when it turns up."""
    seats = _seats(kept0=("frontier",))
    h = _handles(seats, 0)[0]
    with pytest.raises(CheatDetected) as err:
        _table(kept0=("frontier",), equip={0: Equip(0, 0, "", False, cards=(h,), kinds=("henchman",))})
    assert err.value.seat == 0


def test_the_honest_declaration_offers_only_ones_own_cards() -> None:
    """N200: the holder is offered its jammer card on each opponent; Nia, holding nothing, no card."""
    from engine.locke.combat.flow import begin
    from engine.locke.state import Combat
    from tests.engine.locke.flow_helpers import decline_joins, game, table_at

    table = table_at({"seats": _seats(kept0=("esp-jammer-4",)), "phase": "planet", "turn_of": 0, "fill": "frontier"})
    table.state = game().settle(begin(table.state, Combat("declared", "P:1:0", ((0,), (2,)))))
    decline_joins(table)
    table.step()  # the shuffle
    h = table.state.seats[0].kept[0]
    assert Equip(0, 0, "", False, 1, cards=(h,), kinds=("esp-jammer",)) in table.legal(0)
    assert not [a for a in table.legal(0) if isinstance(a, Equip) and "esp-jammer-4" in a.kinds]  # level hidden
    act(table, Equip(0, 0, "", False))
    assert all(not a.cards for a in table.legal(2) if isinstance(a, Equip))


def _jammer_on_nia(card_id: str = "esp-jammer-4", deck2: tuple[str, ...] = ("bazooka-10", "g-bomb-25")) -> Any:
    seats = _seats(kept0=(card_id,))
    h = _handles(seats, 0)[0]
    table = _table(kept0=(card_id,), first=NIA_FIRST, deck2=deck2,
                   equip={0: Equip(0, 0, "", False, 1, cards=(h,), kinds=("esp-jammer",))})
    return table, h


def test_a_jammer_card_is_declared_by_kind_and_stays_face_down() -> None:
    """Seed 000 3.1.2: the until-broken cards are shown only when they break, so the jammer card
    is named by its kind (a claim that the card is a jammer) and stays face down: its level is
    hidden as a character's jammer's is (KMC 10.10). Naming the printed card is refused."""
    table, h = _jammer_on_nia()
    nia = fight(table).fighters[1]
    assert nia.jam_owner == 0 and nia.jam_card == h and nia.jam_known == 0
    assert h in table.state.seats[0].kept and h not in dict(table.state.open_cards)
    assert any(c.what == cc.PLANET and c.value == "esp-jammer" for c in table.state.claims)
    seats = _seats(kept0=("esp-jammer-4",))
    with pytest.raises(IllegalAction) as err:
        _table(kept0=("esp-jammer-4",), equip={0: Equip(0, 0, "", False, 1, cards=(_handles(seats, 0)[0],),
                                                         kinds=("esp-jammer-4",))})
    assert err.value.rule == "locke.s000.3.1.2"


def test_a_jammer_card_stops_cards_as_its_owners_claim_about_the_card() -> None:
    """KMC 10.10 with the jammer card (level 4) face down: Nia's level-3 bazooka waits for the
    owner, who stops it (a claim about the card, JAMMER); she takes it back and cannot try that
    level again; her level-5 G-bomb is above the card, so stopping it is a false claim naming
    seat 0; letting it work (after her mind check) claims the card is below 5, and a level-5
    card is not put to him again (KMC 10.10)."""
    from engine.core.claims import FalseClaim
    from engine.locke.combat.actions import JamVeto

    table, h = _jammer_on_nia()
    act(table, card(table, 2, "attack", "bazooka-10", target=0))
    assert waiting(table) == ("locke.cb_jam_ask", 0) and JamVeto(0, True) in table.legal(0)
    act(table, JamVeto(0, True))
    claim = table.state.claims[-1]
    assert claim.what == cc.JAMMER and claim.about == (h,) and claim.value == 3
    assert "bazooka-10" in hand(table, 2) and fight(table).fighters[1].jam_known == 3
    assert all(a.card != "bazooka-10" for a in table.legal(2) if isinstance(a, Play))
    act(table, card(table, 2, "attack", "g-bomb-25", target=0, stretch=1, mind=5))
    roll(table, 1, 1)  # her mind check passes: only now the owner answers
    assert waiting(table) == ("locke.cb_jam_ask", 0) and table.legal(0) == [JamVeto(0, False)]
    with pytest.raises(FalseClaim) as err:
        table.feed(JamVeto(0, True))
    assert err.value.seat == 0 and err.value.claim.about == (h,)
    act(table, JamVeto(0, False))
    claim = table.state.claims[-1]
    assert claim.what == cc.JAM_PASS and claim.about == (h,) and claim.value == 5
    assert waiting(table) == ("locke.cb_escape", 0) and h in table.state.seats[0].kept
    assert fight(table).fighters[1].jam_through == 5


def test_a_jammer_card_broken_by_a_stronger_attack_is_shown_and_spent() -> None:
    """KMC 10.7.3 with seed 000 3.1.2: Nia's level-5 G-bomb gets past Locke's escape phase and
    breaks his level-4 jammer card. Letting the G-bomb work was his claim that the card is below
    5, so nobody asks whether it broke (N184): it is shown (N60), judged on the spot with all
    he said of it, and goes back under the stock."""
    from engine.locke.combat.actions import JamVeto

    table, h = _jammer_on_nia(deck2=("g-bomb-25",))
    act(table, card(table, 2, "attack", "g-bomb-25", target=0, stretch=1, mind=5))
    roll(table, 1, 1)  # her mind check
    act(table, JamVeto(0, False))
    act(table, Nop(0))  # Locke does not escape
    assert not any(c.what == cc.BROKEN for c in table.state.claims)
    assert any(c.what == cc.JAM_PASS and c.about == (h,) for c in table.state.claims)
    while waiting(table)[0] != "locke.cb_defend":
        table.step()
    assert fight(table).fighters[1].jam_owner == -1 and h in zone_of(table.state, "planet:stock")
    assert dict(table.state.open_cards)[h] == "esp-jammer-4" and _events(table, "planet-card-spent")


def test_a_field_card_paid_through_is_known_to_hold_at_that_level() -> None:
    """N184 with N201: Locke pays a level-5 G-bomb through his wildcard field (a claim that it
    reaches 5), so when Nia's level-5 G-bomb gets past his escape phase the field is known to
    hold: he is not asked whether it broke, and it stays face down."""
    seats = _seats(kept0=("wildcard",))
    h = _handles(seats, 0)[0]
    table = _table(kept0=("wildcard",), deck0=("g-bomb-25",), deck2=("g-bomb-30",),
                   equip={0: Equip(0, 0, "", False, cards=(h,), kinds=("esp-field",))})
    act(table, Play(0, "attack", hand(table, 0)["g-bomb-25"], "g-bomb-25", "", 1, 0, 0, 0, True))
    assert table.state.claims[-1].what == cc.FIELD and table.state.claims[-1].about == (h,)
    assert fight(table).fighters[0].field_known == 5
    _answer_plainly(table, until=("locke.cb_act", 2))
    act(table, card(table, 2, "attack", "g-bomb-30", target=0))  # her true self (level 5) pays it whole
    _answer_plainly(table, until=("locke.cb_defend", 0))
    assert not any(c.what == cc.BROKEN for c in table.state.claims)
    assert fight(table).fighters[0].field and h in table.state.seats[0].kept


def test_a_wildcard_suit_must_keep_to_one_level_when_it_is_shown() -> None:
    """Seed 000 3.1.5: a wildcard used as a P-suit stands for one P-suit card (level 4 or 5). Nia
    absorbs Locke's level-5 G-bomb with it (a claim: it reaches 5, so it can only be the level-5
    card); against his next level-5 attack the honest options say it absorbs again, and saying
    it does not (below 5) fits the level-4 card alone but no one level with the first: when the
    broken card is shown she is caught, naming her seat."""
    from engine.locke.combat.actions import Absorb

    seats = _seats(kept2=("wildcard",))
    h = _handles(seats, 2)[0]
    table = _table(kept2=("wildcard",), deck0=("g-bomb-25", "g-bomb-30"),
                   equip={2: Equip(2, 0, "", False, cards=(h,), kinds=("powered-suit",))})
    act(table, card(table, 0, "attack", "g-bomb-25", target=1))
    _answer_plainly(table, until=("locke.cb_absorb", 2))
    act(table, Absorb(2, True))
    _answer_plainly(table, until=("locke.cb_go_on", 0))
    act(table, GoOn(0, True))
    act(table, GoOn(2, True))
    initiative(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "g-bomb-30", target=1))
    _answer_plainly(table, until=("locke.cb_absorb", 2))
    assert table.legal(2) == [Absorb(2, True)]
    with pytest.raises(CheatDetected) as err:
        act(table, Absorb(2, False))
        while h not in zone_of(table.state, "planet:stock"):
            table.step()
    assert err.value.seat == 2 and "no one level" in str(err.value)


def _answer_plainly(table: Any, until: tuple[str, int]) -> None:
    """Up to the decision ``until``: no escape, no defence, the honest durability, dice of 1."""
    from engine.core.pending import Chance, Decision

    for _ in range(60):
        pending = table.pending
        if isinstance(pending, Decision) and waiting(table) == until:
            return
        if isinstance(pending, Chance):
            roll(table, *(1,) * len(pending.dice))
        elif isinstance(pending, Decision):
            options = table.legal(pending.seat)
            durability = [a for a in options if isinstance(a, Durability)]
            act(table, durability[0] if durability else Nop(pending.seat))
        else:
            table.step()
    raise AssertionError(f"never reached {until}")


def test_a_field_card_pays_for_cards_as_a_claim_about_the_card() -> None:
    """Seed 000 3.1.2 ESP field (level 3), face down: a card played through it costs no power and
    claims that the card's hidden level reaches it (FIELD, about the kept card); a level-4 card
    through it is left out of the honest options and is a false claim naming the seat."""
    from engine.core.claims import FalseClaim

    seats = _seats(kept2=("esp-field-3",))
    h = _handles(seats, 2)[0]
    table = _table(kept2=("esp-field-3",), first=NIA_FIRST, deck2=("bazooka-8", "beam-cannon-12"),
                   equip={2: Equip(2, 0, "", False, cards=(h,), kinds=("esp-field",))})
    big = Play(2, "attack", hand(table, 2)["beam-cannon-12"], "beam-cannon-12", "", 0, 0, 0, 0, True)
    assert big not in table.legal(2) and h in table.state.seats[2].kept
    with pytest.raises(FalseClaim) as err:
        table.feed(big)
    assert err.value.seat == 2 and err.value.claim.what == cc.FIELD
    act(table, Play(2, "attack", hand(table, 2)["bazooka-8"], "bazooka-8", "", 0, 0, 0, 0, True))
    assert fight(table).fighters[1].spent == 0
    assert table.state.claims[-1].what == cc.FIELD and table.state.claims[-1].about == (h,)


def _esuit_table(kept2: str = "energy-suit") -> tuple[Any, int]:
    seats = _seats(kept2=(kept2,))
    h = _handles(seats, 2)[0]
    table = _table(kept2=(kept2,), deck0=("blaster-4",),
                   equip={2: Equip(2, 0, "", False, cards=(h,), kinds=("energy-suit",))})
    return table, h


def test_the_energy_suit_card_is_named_by_kind_and_stays_face_down() -> None:
    """Seed 000 3.1.2: an until-broken card is shown only when it breaks, so the E-suit card is
    named by its kind (a claim that the handle is an E-suit or a wildcard) and stays face down
    in Nia's hand: which card it is stays hidden (N201)."""
    table, h = _esuit_table()
    nia = fight(table).fighters[1]
    assert nia.suit == "energy-suit" and nia.suit_card == h
    assert h in table.state.seats[2].kept and h not in dict(table.state.open_cards)
    assert any(c.what == cc.PLANET and c.about == (h,) and c.value == "energy-suit" for c in table.state.claims)


def test_the_energy_suit_card_breaks_at_once_when_the_attacker_passes() -> None:
    """Seed 000 3.1.2 E-suit: a passed check destroys the card version at once; the body is hit;
    the card is shown (its kind claim judged, N60) and returned to the stock."""
    table, h = _esuit_table()
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    act(table, CheckValue(0, 6))  # the attacker's level (KMC 11.2 (1))
    roll(table, 1, 1)  # 2 <= 6: the attacker passes
    assert waiting(table) == ("locke.cb_dur", 2) and _events(table, "cb-suit-broken")
    assert h in zone_of(table.state, "planet:stock") and h not in table.state.seats[2].shown
    assert dict(table.state.open_cards)[h] == "energy-suit" and _events(table, "planet-card-spent")


def test_the_energy_suit_card_throws_back_a_failed_check_and_stays_face_down() -> None:
    table, h = _esuit_table()
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    act(table, CheckValue(0, 6))
    roll(table, 6, 6)
    assert waiting(table) == ("locke.cb_dur", 0) and h in table.state.seats[2].kept
    assert h not in dict(table.state.open_cards)


def test_a_false_energy_suit_card_is_caught_when_it_is_shown_at_its_break() -> None:
    """N60, N201: a frontier named as an E-suit is a false kind claim. The card stays face down,
    so the claim waits for the card to open (here the trusted table judges it at once; a
    networked table at the break or the final reveal): either way it names seat 2."""
    from engine.core.claims import FalseClaim

    seats = _seats(kept2=("frontier",))
    h = _handles(seats, 2)[0]
    with pytest.raises((FalseClaim, CheatDetected)) as err:
        _table(kept2=("frontier",), equip={2: Equip(2, 0, "", False, cards=(h,), kinds=("energy-suit",))})
    assert err.value.seat == 2


def test_a_wildcard_energy_suit_is_fixed_to_its_kind_and_shown_as_a_wildcard_at_its_break() -> None:
    """Seed 000 3.1.5: a wildcard used as the E-suit stands for it (``LockeState.wild``) while it
    stays face down; at its break it is shown, accepted as a wildcard, and spent."""
    table, h = _esuit_table("wildcard")
    assert dict(table.state.wild)[h] == "energy-suit" and h in table.state.seats[2].kept
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    act(table, CheckValue(0, 6))
    roll(table, 1, 1)
    assert dict(table.state.open_cards)[h] == "wildcard" and h in zone_of(table.state, "planet:stock")
    assert h not in dict(table.state.wild)


def test_the_powered_suit_card_absorbs_as_its_owners_claim_and_is_shown_when_it_breaks() -> None:
    """Seed 000 3.1.2 P-suit (level 4), face down: its owner says whether it absorbs (a claim
    about the card, PSUIT), as for the character's P-suit (KMC 2.3.2): a level-3 bazooka is
    absorbed; a level-5 G-bomb breaks it: shown, judged, back under the stock, the body is hit."""
    from engine.locke.combat.actions import Absorb

    seats = _seats(kept2=("powered-suit-4",))
    h = _handles(seats, 2)[0]
    equip = {2: Equip(2, 0, "", False, cards=(h,), kinds=("powered-suit",))}
    table = _table(kept2=("powered-suit-4",), deck0=("bazooka-7",), equip=equip)
    act(table, card(table, 0, "attack", "bazooka-7", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    assert waiting(table) == ("locke.cb_absorb", 2) and table.legal(2) == [Absorb(2, True)]
    act(table, Absorb(2, True))
    assert table.state.claims[-1].about == (h,) and _events(table, "cb-suit-absorbs")
    assert h in table.state.seats[2].kept
    table = _table(kept2=("powered-suit-4",), deck0=("g-bomb-25",), equip=equip)
    act(table, card(table, 0, "attack", "g-bomb-25", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    assert table.legal(2) == [Absorb(2, False)]
    act(table, Absorb(2, False))
    while waiting(table)[0] != "locke.cb_dur":
        table.step()
    assert waiting(table) == ("locke.cb_dur", 2) and h in zone_of(table.state, "planet:stock")
    assert dict(table.state.open_cards)[h] == "powered-suit-4"


def test_the_nike_card_is_checked_against_the_mind() -> None:
    """Seed 000 3.1.2 Nike: as the character's Nike, its check against the mind (a stat claim);
    declaring a check value above the mind is caught naming the seat. The card is named by
    its kind and stays face down (N201)."""
    from engine.core.claims import FalseClaim
    from engine.locke import claims as ck

    seats = _seats(kept0=("nike",))
    h = _handles(seats, 0)[0]
    table = combat_table(seats=seats, deck=seven(), equip={0: Equip(0, 0, "", False, -1, 8, cards=(h,), kinds=("nike",))})
    assert any(c.what == ck.STAT_NOW and c.value[:3] == ["mind", "le", 8] for c in table.state.claims)
    assert any(c.what == cc.PLANET and c.about == (h,) and c.value == "nike" for c in table.state.claims)
    roll(table, 3, 3)
    assert fight(table).fighters[0].nike_on and _used(table, "nike")
    assert fight(table).fighters[0].nike_card == h and h in table.state.seats[0].kept
    assert h not in dict(table.state.open_cards)
    with pytest.raises(FalseClaim) as err:  # Locke-1's mind is 8
        combat_table(seats=seats, deck=seven(), equip={0: Equip(0, 0, "", False, -1, 9, cards=(h,), kinds=("nike",))})
    assert err.value.seat == 0


def test_the_nike_card_is_shown_and_returned_when_it_breaks() -> None:
    """Seed 000 3.1.2 Nike: "broken when its durability reaches 0", then shown and returned to the
    stock. Locke's Nike card has 1 durability left (worn down before: the position is set up);
    Nia's blaster hits Nike (nobody escapes or defends while Nike is in use), Nike breaks, and
    only now the card is turned up (its kind claim judged, N60) and spent."""
    from engine.locke.combat.common import put, with_fighter

    seats = _seats(kept0=("nike",))
    h = _handles(seats, 0)[0]
    table = combat_table(seats=seats, deck=seven() + seven("blaster-4"),
                         equip={0: Equip(0, 0, "", False, -1, 8, cards=(h,), kinds=("nike",))})
    roll(table, 3, 3)  # the Nike check passes
    f = fight(table)
    table.state = put(table.state, with_fighter(f, 0, f.fighters[0]._replace(nike_left=1)))
    initiative(table, *NIA_FIRST)
    act(table, card(table, 2, "attack", "blaster-4", target=0))
    act(table, Nop(0))
    act(table, Nop(0))
    assert h in table.state.seats[0].kept and h not in dict(table.state.open_cards)
    roll(table, 3, 3)  # the damage check on Nike's 1 left
    locke = fight(table).fighters[0]
    assert locke.nike_left == 0 and not locke.nike_on and locke.nike_card == -1
    assert dict(table.state.open_cards)[h] == "nike" and h in zone_of(table.state, "planet:stock")
    assert h not in table.state.seats[0].kept + table.state.seats[0].shown


# --- on one's own turn --------------------------------------------------------------------------


def test_the_cruiser_fires_from_the_ship_chart_once_a_round() -> None:
    """Seed 000 3.1.1 cruiser: the character's ship (ship-support chart), kept for the game."""
    seats = _seats(kept0=("cruiser",))
    h = _handles(seats, 0)[0]
    table = _table(kept0=("cruiser",))
    act(table, UseItem(0, "ship", 1, h, "cruiser"))
    roll(table, 1, 2)
    assert _events(table, "cb-ship")[-1][2] == "g-bomb" and h in table.state.seats[0].shown
    act(table, Nop(2))
    act(table, Nop(2))
    act(table, Durability(2, 4))
    roll(table, 3, 3)
    assert waiting(table) == ("locke.cb_act", 0) and UseItem(0, "ship", 1, h, "cruiser") not in table.legal(0)


def test_the_geoid_bomb_card_stays_hidden_until_it_fires() -> None:
    """Seed 000 3.1.3 geoid bomb: 2d6 of 4 or less fires (level 7, 100); 5-9 nothing and the card
    stays face down; once it fires it is shown and discarded."""
    seats = _seats(kept0=("geoid-bomb",))
    h = _handles(seats, 0)[0]
    table = _table(kept0=("geoid-bomb",))
    act(table, UseItem(0, "geoid-bomb", 1, h, "geoid-bomb"))
    roll(table, 3, 3)  # 6: the character's bomb would fire, the card's does not
    _keep(table, 0)
    assert h in table.state.seats[0].kept and not _used(table, "geoid-bomb")
    table = _table(kept0=("geoid-bomb",))
    act(table, UseItem(0, "geoid-bomb", 1, h, "geoid-bomb"))
    roll(table, 1, 3)
    _keep(table, 0)
    assert waiting(table) == ("locke.cb_escape", 2) and fight(table).strike.level == 7
    assert h in zone_of(table.state, "planet:stock") and _used(table, "geoid-bomb")


def test_the_geoid_bomb_card_knocks_out_for_the_rest_of_the_round() -> None:
    seats = _seats(kept0=("geoid-bomb",))
    h = _handles(seats, 0)[0]
    table = _table(kept0=("geoid-bomb",))
    act(table, UseItem(0, "geoid-bomb", 1, h, "geoid-bomb"))
    roll(table, 5, 5)
    _keep(table, 0)
    f = fight(table).fighters[0]
    assert f.fainted and f.wake == 2 and h in zone_of(table.state, "planet:stock")


def test_the_industrial_district_checks_at_six_below_the_public_ledgers_bound() -> None:
    """Seed 000 3.2.4: level 6 "whatever the character's level", even for a seat whose public
    losses bound its own declarations at 3 (N222 bounds only the seat's own level; a random game
    found the district refused)."""
    seats = _seats(kept0=("industrial",))
    seats[0] = {**seats[0], "mods": [["level", "add", -3, "game"]]}
    h = _handles(seats, 0)[0]
    table = combat_table(seats=seats, deck=seven("contact-telepathy") + seven())
    initiative(table, *LOCKE_FIRST)
    t = hand(table, 0)["contact-telepathy"]
    with pytest.raises(IllegalAction) as err:  # its own check: 3 at most now
        table.feed(Play(0, "telepathy", t, "contact-telepathy", "", 1, 0, 0, 4, False))
    assert err.value.rule == "locke.5.4"
    act(table, Play(0, "telepathy", t, "contact-telepathy", "", 1, 0, 0, 6, False, h))
    roll(table, 3, 3)
    assert _events(table, "cb-telepathy")[-1][3:] == (6, 6, True)


def test_the_industrial_district_makes_contact_telepathy_at_level_six() -> None:
    """Seed 000 3.2.4 industrial district: the check at level 6 whatever the character's level
    (no level claim), the card shown and spent."""
    seats = _seats(kept0=("industrial",))
    h = _handles(seats, 0)[0]
    table = _table(kept0=("industrial",), deck0=("contact-telepathy",))
    t = hand(table, 0)["contact-telepathy"]
    with pytest.raises(IllegalAction):
        table.feed(Play(0, "telepathy", t, "contact-telepathy", "", 1, 0, 0, 5, False, h))
    assert Play(0, "telepathy", t, "contact-telepathy", "", 1, 0, 0, 6, False, h) in table.legal(0)
    before = len(table.state.claims)
    act(table, Play(0, "telepathy", t, "contact-telepathy", "", 1, 0, 0, 6, False, h))
    assert all(c.what != cc.TELEPATHY for c in table.state.claims[before:])
    roll(table, 3, 3)
    assert _events(table, "cb-telepathy")[-1][3:] == (6, 6, True) and _used(table, "industrial")
    assert h in zone_of(table.state, "planet:stock")


def test_the_slum_swaps_three_combat_cards() -> None:
    """Seed 000 3.2.4 slum: three cards of the hand are discarded and three new ones dealt (a
    hidden-card deal to the seat alone); the turn's action is still to come."""
    seats = _seats(kept0=("slum",))
    h = _handles(seats, 0)[0]
    table = _table(kept0=("slum",))
    old = fight(table).fighters[0].hand
    act(table, UseItem(0, "slum", -1, h, "slum", old[:3]))
    new = fight(table).fighters[0].hand
    assert len(new) == 7 and not set(old[:3]) & set(new) and set(old[:3]) <= set(fight(table).used)
    assert waiting(table) == ("locke.cb_act", 0) and h in zone_of(table.state, "planet:stock")
    with pytest.raises(IllegalAction):  # the card is spent
        table.feed(UseItem(0, "slum", -1, h, "slum", new[:3]))


# --- answers to an attack ------------------------------------------------------------------------


def test_the_subspace_field_card_escapes_on_six_or_less_unblocked() -> None:
    """Seed 000 3.1.3 subspace field: 2d6 of 6 or less (the character's is 9), an unblockable
    level-7 escape; then shown and discarded."""
    seats = _seats(kept2=("subspace-field",))
    h = _handles(seats, 2)[0]
    table = _table(kept2=("subspace-field",), deck0=("bazooka-7",))
    act(table, card(table, 0, "attack", "bazooka-7", target=1))
    act(table, UseItem(2, "subspace-field", -1, h, "subspace-field"))
    roll(table, 3, 3)
    _keep(table, 2)
    roll(table, 1)
    assert waiting(table) == ("locke.cb_land", 2) and h in zone_of(table.state, "planet:stock")


def test_the_subspace_field_card_stays_hidden_after_a_miss() -> None:
    seats = _seats(kept2=("subspace-field",))
    h = _handles(seats, 2)[0]
    table = _table(kept2=("subspace-field",), deck0=("bazooka-7",))
    act(table, card(table, 0, "attack", "bazooka-7", target=1))
    act(table, UseItem(2, "subspace-field", -1, h, "subspace-field"))
    roll(table, 4, 4)  # 8: the escape was tried and failed; no defence follows
    _keep(table, 2)
    assert waiting(table) == ("locke.cb_dur", 2) and h in table.state.seats[2].kept


def test_the_planet_mirror_escapes_and_defends_and_a_higher_one_blocks() -> None:
    """Seed 000 3.1.3, KMC 10.7.2 Lafnor mirror: escape and defence at once at its level (light
    swords too); only a higher planet mirror blocks the escape, and the defence still holds."""
    seats = _seats(kept2=("lafnor-mirror-5",))
    h = _handles(seats, 2)[0]
    table = _table(kept2=("lafnor-mirror-5",), deck0=("light-sword-5-30",))
    act(table, card(table, 0, "attack", "light-sword-5-30", target=1))
    act(table, UseItem(2, "lafnor-mirror", -1, h, "lafnor-mirror-5"))
    assert waiting(table) == ("locke.cb_mirror_block", 0) and table.legal(0) == [Nop(0)]
    act(table, Nop(0))
    roll(table, 1)
    assert waiting(table) == ("locke.cb_land", 2) and h in zone_of(table.state, "planet:stock")
    seats = _seats(kept0=("lafnor-mirror-7",), kept2=("lafnor-mirror-5",))
    m0, m2 = _handles(seats, 0)[0], _handles(seats, 2)[0]
    table = _table(kept0=("lafnor-mirror-7",), kept2=("lafnor-mirror-5",), deck0=("blaster-4",))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, UseItem(2, "lafnor-mirror", -1, m2, "lafnor-mirror-5"))
    act(table, UseItem(0, "lafnor-mirror", -1, m0, "lafnor-mirror-7"))
    assert _events(table, "cb-block") and _events(table, "cb-defend")[-1][-1] == "lafnor-mirror"
    act(table, Nop(0))  # the rest of Locke's turn (N235)
    assert waiting(table) == ("locke.cb_act", 2) and table.state.seats[2].damage == 0


def test_a_mirror_below_the_attack_cannot_answer_it() -> None:
    seats = _seats(kept2=("lafnor-mirror-5",))
    h = _handles(seats, 2)[0]
    table = _table(kept2=("lafnor-mirror-5",), deck0=("d-bomb-40",))
    act(table, card(table, 0, "attack", "d-bomb-40", target=1))
    assert UseItem(2, "lafnor-mirror", -1, h, "lafnor-mirror-5") not in table.legal(2)
    with pytest.raises(IllegalAction):
        table.feed(UseItem(2, "lafnor-mirror", -1, h, "lafnor-mirror-5"))


def test_the_absorb_ball_absorbs_and_a_failed_level_check_knocks_the_attacker_out() -> None:
    """Seed 000 3.1.3 energy absorb ball (level 4): the attack is absorbed, the attacker makes an
    ESP level check (a declaration) and failing it is out for 1d6 rounds, this one included; the
    ball stays up for the combat and a stronger attack breaks it."""
    seats = _seats(kept2=("absorb-ball-4",))
    h = _handles(seats, 2)[0]
    table = _table(kept2=("absorb-ball-4",), deck0=("blaster-4", "g-bomb-25"))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, Nop(2))
    act(table, UseItem(2, "absorb-ball", -1, h, "absorb-ball-4"))
    assert waiting(table) == ("locke.check_value", 0)
    act(table, CheckValue(0, 6))
    roll(table, 6, 6)  # 12 > 6: failed
    roll(table, 2)  # out this round and the next
    f = fight(table).fighters[0]
    assert f.fainted and f.wake == 3 and fight(table).fighters[1].ball == 4 and _used(table, "absorb-ball")
    assert h in table.state.seats[2].shown  # up until the combat ends or a stronger attack hits it


def test_a_stronger_attack_breaks_the_absorb_ball() -> None:
    seats = _seats(kept2=("absorb-ball-3",))
    h = _handles(seats, 2)[0]
    table = _table(kept2=("absorb-ball-3",), deck0=("blaster-4", "g-bomb-25"), deck2=("raygun-1",))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, Nop(2))
    act(table, UseItem(2, "absorb-ball", -1, h, "absorb-ball-3"))
    act(table, CheckValue(0, 6))
    roll(table, 1, 1)  # passed
    act(table, Nop(0))  # the rest of Locke's turn (N235)
    act(table, Nop(2))  # Nia's turn
    act(table, GoOn(0, True))
    act(table, GoOn(2, True))
    initiative(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "g-bomb-25", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    assert _events(table, "cb-ball-broken") and waiting(table) == ("locke.cb_dur", 2)
    assert h in zone_of(table.state, "planet:stock")


def test_a_residential_district_rerolls_the_seats_own_combat_dice() -> None:
    """Seed 000 3.2.4 residential district (N62, N208): offered after the seat's own combat roll
    (here the planet geoid bomb's 2d6); the roll is made again and the card is spent."""
    from engine.locke.actions import UseCard

    seats = _seats(kept0=("geoid-bomb", "residential"))
    bomb, home = _handles(seats, 0)
    table = _table(kept0=("geoid-bomb", "residential"))
    act(table, UseItem(0, "geoid-bomb", 1, bomb, "geoid-bomb"))
    roll(table, 3, 3)
    assert waiting(table) == ("locke.reroll", 0)
    act(table, UseCard(0, home, "residential"))
    roll(table, 1, 1)
    _keep(table, 0)  # the bomb is still face down: the question comes again
    assert waiting(table) == ("locke.cb_escape", 2) and home in zone_of(table.state, "planet:stock")


def test_the_planet_mirror_and_field_are_also_the_turns_escape() -> None:
    """KMC 10.4.1, N214: on one's own turn the planet mirror escapes at its level (blocked only by
    a higher planet mirror) and the planet subspace field rolls its 2d6; the turn's action is used."""
    seats = _seats(kept0=("lafnor-mirror-6",))
    h = _handles(seats, 0)[0]
    table = _table(kept0=("lafnor-mirror-6",))
    assert UseItem(0, "lafnor-mirror", -1, h, "lafnor-mirror-6") in table.legal(0)
    act(table, UseItem(0, "lafnor-mirror", -1, h, "lafnor-mirror-6"))
    act(table, Nop(2))  # Nia holds no higher mirror
    roll(table, 2)
    assert waiting(table) == ("locke.cb_land", 0) and h in zone_of(table.state, "planet:stock")
    seats = _seats(kept0=("subspace-field",))
    h = _handles(seats, 0)[0]
    table = _table(kept0=("subspace-field",))
    act(table, UseItem(0, "subspace-field", -1, h, "subspace-field"))
    roll(table, 5, 4)  # 9: nothing, the card stays face down, the normal action is used
    _keep(table, 0)
    assert waiting(table) == ("locke.cb_act", 0) and table.legal(0) == [Nop(0)]  # the rest of the turn (N235)
    act(table, Nop(0))
    assert waiting(table) == ("locke.cb_act", 2) and h in table.state.seats[0].kept


def test_a_fighter_the_absorb_ball_knocks_out_loses_its_jammer_and_field_until_it_wakes() -> None:
    """Seed 000 3.1.3 energy absorb ball: a knocked-out attacker keeps its suit on, but the field
    and jammer it uses stop. E-Strohheim (seat 0, level 0) has put his jammer (level 4) on Nia and
    attacks her with a stretched level-2 blaster; her ball absorbs it, his level check fails (a level of 0
    fails without dice, N221) and he is out: Nia's level-3 bazooka is no longer put to his jammer
    (no question), and he is not asked whether his jammer breaks either."""
    seats = five(s0={"character": "strohheim-e", "silhouette": "soi"},
                 s2={"character": "nia", "silhouette": "nia", "place": "P:1:0", "kept": ["absorb-ball-4"]})
    h = _handles(seats, 2)[0]
    table = combat_table(seats=seats, deck=seven("blaster-4") + seven("bazooka-10"),
                         equip={0: Equip(0, 0, "", False, 1)})
    initiative(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "blaster-4", target=1, stretch=2, mind=5))
    roll(table, *(1, 1) * 2)  # the two mind checks pass
    act(table, Nop(2))  # no escape
    act(table, UseItem(2, "absorb-ball", -1, h, "absorb-ball-4"))
    act(table, CheckValue(0, 0))  # his level is 0: the check fails at once
    roll(table, 3)  # out this round and the next two
    strohheim = fight(table).fighters[0]
    assert strohheim.fainted and strohheim.ball_out and fight(table).fighters[1].jam_owner == 0
    assert waiting(table) == ("locke.cb_act", 2)
    act(table, card(table, 2, "attack", "bazooka-10", target=0))
    assert waiting(table) != ("locke.cb_jam_ask", 0) and not _events(table, "cb-jam-veto")
    from engine.locke.combat import turn_cards

    awake = turn_cards.wake_up(fight(table), strohheim.wake).fighters[0]
    assert not awake.fainted and not awake.ball_out  # he wakes with his jammer working again


def test_a_wildcard_is_offered_as_every_card_of_each_kind() -> None:
    """Seed 000 3.1.5: a wildcard stands for any one ability card, so the honest options offer
    it as each level of a levelled kind, not just the highest: the Lafnor mirror 5, 6 and 7 in
    the escape phase and the absorb ball 3, 4 and 5 in the defence phase, against a level-3
    bazooka; the jammer, field and P-suit are offered by kind (N201)."""
    seats = _seats(kept2=("wildcard",))
    h = _handles(seats, 2)[0]
    table = _table(kept2=("wildcard",), deck0=("bazooka-10",))
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    assert waiting(table) == ("locke.cb_escape", 2)
    mirrors = {a.as_card for a in table.legal(2) if isinstance(a, UseItem) and a.item == "lafnor-mirror"}
    assert mirrors == {"lafnor-mirror-5", "lafnor-mirror-6", "lafnor-mirror-7"}
    act(table, Nop(2))
    balls = {a.as_card for a in table.legal(2) if isinstance(a, UseItem) and a.item == "absorb-ball"}
    assert balls == {"absorb-ball-3", "absorb-ball-4", "absorb-ball-5"}
    act(table, UseItem(2, "absorb-ball", -1, h, "absorb-ball-3"))
    assert fight(table).fighters[1].ball == 3 and dict(table.state.wild)[h] == "absorb-ball-3"
    seats = _seats(kept0=("wildcard",))
    from engine.locke.combat.flow import begin
    from engine.locke.state import Combat
    from tests.engine.locke.flow_helpers import decline_joins, game, table_at

    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier"})
    table.state = game().settle(begin(table.state, Combat("declared", "P:1:0", ((0,), (2,)))))
    decline_joins(table)
    table.step()  # the shuffle
    w = table.state.seats[0].kept[0]
    kinds = {a.kinds for a in table.legal(0) if isinstance(a, Equip) and a.cards == (w,)}
    assert {("esp-jammer",), ("esp-field",), ("powered-suit",), ("energy-suit",), ("nike",)} <= kinds


def test_the_attacker_may_reroll_the_damage_dice_with_a_residential_district() -> None:
    """KMC 10.7.4 (3): the attacker rolls the damage dice, so they are its own dice and a
    residential district may re-roll them (seed 000 3.2.4, N208). Locke (holding one) hits Nia
    with a bazooka: after the damage roll he is asked, re-rolls, and the second roll counts;
    an obstacle's or a card-less seat's damage dice are not asked about."""
    from engine.locke.actions import UseCard

    seats = _seats(kept0=("residential",))
    home = _handles(seats, 0)[0]
    table = _table(kept0=("residential",), deck0=("bazooka-10",))
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    act(table, Nop(2))  # no escape
    act(table, Nop(2))  # no defence
    declared = table.legal(2)[0].value
    act(table, Durability(2, declared))
    assert table.pending.purpose == "locke.chart.damage"
    roll(table, 1, 2)
    assert waiting(table) == ("locke.reroll", 0)
    act(table, UseCard(0, home, "residential"))
    while table.pending.purpose != "locke.chart.damage":
        table.step()
    roll(table, 6, 5)
    from engine.locke.damage import resolve_damage

    first, second = (resolve_damage(faces, attack=10, durability=declared, target_is_character=True).cell
                     for faces in ((1, 2), (6, 5)))
    hit = _events(table, "cb-hit")[-1]
    assert first != second and hit[1] == 0 and hit[3] == [second] and home in zone_of(table.state, "planet:stock")
    assert any(e[0] == "rerolled" and e[1] == 0 for e in table.state.events)


def test_a_seat_may_reroll_its_own_initiative_dice_with_a_residential_district() -> None:
    """KMC 10.3.3: each fighter rolls its own 2d6 for the initiative, so a seat holding a
    face-down card is offered the residential re-roll of its two dice alone (seed 000 3.2.4,
    N208): Locke rolled 1+1 against Nia's 6+6, re-rolls his pair to 6+5 and still goes second;
    Nia (no kept card) is not asked, and her dice stay as rolled."""
    from engine.locke.actions import UseCard

    seats = _seats(kept0=("residential",))
    home = _handles(seats, 0)[0]
    table = combat_table(seats=seats, deck=seven() + seven())
    roll(table, *NIA_FIRST)
    assert waiting(table) == ("locke.reroll", 0)
    act(table, UseCard(0, home, "residential"))
    while not isinstance(table.pending, Chance):
        table.step()
    assert table.pending.purpose == "locke.combat.initiative" and table.pending.dice == (6, 6)
    roll(table, 6, 5)
    assert fight(table).rolls[:2] == ((11,), (12,)) and fight(table).order == (1, 0)
    assert home in zone_of(table.state, "planet:stock") and waiting(table) == ("locke.cb_act", 2)


# --- a wildcard fixed in combat, then passed on (seed 000 3.1.5) ----------------------------------


def test_a_face_down_wildcard_fixed_in_combat_is_chosen_again_by_its_receiver() -> None:
    """Seed 000 3.1.5: a wildcard keeps what it was first used as, except that whoever receives it
    through an entertainment district may choose again. Locke used his wildcard face down as an
    E-suit in a combat (N201: the handle is fixed to the kind, ``LockeState.wild``; the position
    is set up as that declaration leaves it). While he holds it he is offered it only as an
    E-suit; given to Nia face down, it is no longer fixed, she is offered it as every kind (each
    level of a levelled one), and nothing Locke said about it counts as hers."""
    from engine.locke.actions import Declare, UseCard
    from engine.locke.combat import kept
    from tests.engine.locke.flow_helpers import game, table_at

    table = table_at({"seats": _seats(kept0=("entertainment", "wildcard")), "phase": "planet", "turn_of": 0,
                      "fill": "spaceport"})
    act(table, Declare(0, False))
    ent, w = table.state.seats[0].kept
    table.state = table.state._replace(wild=((w, "energy-suit"),))
    g, s = game(), table.state
    assert kept.usable(g, s, 0, table.knowledge[0], "energy-suit") == [(w, "energy-suit")]
    assert all(not kept.usable(g, s, 0, table.knowledge[0], kind) for kind in ("esp-field", "absorb-ball", "cruiser"))
    act(table, UseCard(0, ent, "entertainment", target=2, other=w))
    s = table.state
    assert s.wild == () and w in s.seats[2].kept and w not in dict(s.open_cards)
    k2 = table.knowledge[2]
    assert kept.usable(g, s, 2, k2, "esp-field") == [(w, "esp-field")]
    assert {c for _, c in kept.usable(g, s, 2, k2, "absorb-ball")} == {"absorb-ball-3", "absorb-ball-4", "absorb-ball-5"}
    assert not kept.usable(g, s, 0, table.knowledge[0], "energy-suit")
    assert cc.said_about(s.claims, 2, w) == []


def test_a_wildcard_used_as_the_geoid_bomb_cannot_also_pay_for_its_re_roll() -> None:
    """Seed 000 3.1.5 (a wildcard is one card at a time), 3.2.4, N208: the wildcard fired as the
    geoid bomb is not offered as the residential district for the bomb's own re-roll, and using it
    so is refused (it was spent twice, its handle put under the stock twice)."""
    import pytest

    from engine.core.errors import IllegalAction
    from engine.locke.actions import UseCard

    seats = _seats(kept0=("wildcard",))
    (wild,) = _handles(seats, 0)
    table = _table(kept0=("wildcard",))
    act(table, UseItem(0, "geoid-bomb", 1, wild, "geoid-bomb"))
    roll(table, 3, 3)
    assert waiting(table) == ("locke.reroll", 0) and table.legal(0) == [Nop(0)]
    before = table.state
    with pytest.raises(IllegalAction):
        table.feed(UseCard(0, wild, "residential"))
    assert table.state is before
