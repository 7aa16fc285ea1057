"""Chained charts, roll modifiers and clamps (seed 002), plus the resolver's
totality and determinism as Hypothesis properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.encoding import encode
from engine.core.errors import MalformedAction
from engine.core.pending import Chance
from engine.locke import charts
from engine.locke.chart_data import FIREPOWER
from engine.locke.damage import COLUMN_IDS
from engine.locke.dice import MODIFIER_LIMIT
from engine.locke.outcomes import Context, Outcome


def path(outcomes: tuple[Outcome, ...]) -> list[tuple[str, str]]:
    return [(o.chart, o.entry) for o in outcomes]


# --- chains named in seed 002 -------------------------------------------------------


def test_weapon_check_3_leads_to_trap() -> None:
    # seed weapon check: 3 = no combat, the trap chart applies instead
    out = charts.run_chain("weapon-check", [1, 2, 1, 1])
    assert path(out) == [("weapon-check", "trap"), ("trap", "psycho-bomb")]


def test_trap_7_leads_to_event() -> None:
    out = charts.run_chain("trap", [3, 4, 2, 3])
    assert path(out) == [("trap", "event"), ("event", "hypno-crystal")]


def test_event_12_leads_to_trap_plus_4() -> None:
    out = charts.run_chain("event", [6, 6, 4, 6, 1, 1])
    assert path(out) == [("event", "trap-plus-4"), ("trap", "genocide"), ("genocide", "b-bomb")]
    assert (out[1].modifier, out[1].total, out[1].row) == (4, 14, 14)


def test_trap_plus_4_reads_the_shifted_row() -> None:
    # raw 11 + 4 = 15: the 300-person sync attack; raw 12 + 4 = 16: black hole
    out = charts.run_chain("event", [6, 6, 5, 6])
    assert (out[1].total, out[1].row, out[1].entry) == (15, 15, "sync-attack-of-300")
    out = charts.run_chain("event", [6, 6, 6, 6])
    assert (out[1].total, out[1].entry) == (16, "black-hole")


def test_event_trap_event_loop_is_followed() -> None:
    # event 12 -> trap +4 with raw 3 = 7 -> event again -> hypno crystal
    out = charts.run_chain("event", [6, 6, 1, 2, 2, 3])
    assert path(out) == [("event", "trap-plus-4"), ("trap", "event"), ("event", "hypno-crystal")]
    assert out[2].modifier == 0  # the +4 applies only to that one trap roll


def test_prison_combat_leads_to_random_combat_and_weapon_check() -> None:
    out = charts.run_chain("prison", [4, 5, 5, 5, 3, 4])
    assert path(out) == [("prison", "prison-combat"), ("random-combat", "police-jammer-2"), ("weapon-check", "blaster")]


def test_prison_11_escapes_into_the_trap() -> None:
    out = charts.run_chain("prison", [5, 6, 2, 2, 3, 4])
    assert path(out) == [("prison", "escape-into-trap"), ("trap", "resonance-forest"), ("random-combat", "police-blaster")]
    assert out[0].effects[0].id == "escape"
    assert out[2].next is None and out[1].next is not None and out[1].next.context.forest


def test_actually_alive_leads_to_residual_thought() -> None:
    out = charts.run_chain("actually-alive", [1, 3, 1, 2])
    assert path(out) == [("actually-alive", "residual-thought"), ("residual-thought", "firepower-50")]
    assert out[1].attacks[0].firepower == 50


def test_ship_support_beam_cannon_rolls_firepower() -> None:
    out = charts.run_chain("ship-support", [2, 3, 6])
    assert path(out) == [("ship-support", "beam-cannon"), ("weapon-firepower", "beam-cannon-6")]
    assert out[1].value == 20


def test_ship_support_misfire_hits_self() -> None:
    out = charts.run_chain("ship-support", [6, 6, 1])
    assert out[0].attacks[0].target == "self" and out[1].value == 10


def test_golems_roll_their_count() -> None:
    out = charts.run_chain("trap", [4, 6, 3])
    assert path(out) == [("trap", "golems"), ("golem-count", "golems-3")]
    assert out[1].opponents[0].count == 3


def test_genocide_rolls_its_bomb() -> None:
    out = charts.run_chain("trap", [6, 6, 6, 6], 2)
    assert path(out) == [("trap", "genocide"), ("genocide", "geoid-bomb")]


def test_damage_natural_double_leads_to_transformation() -> None:
    out = charts.run_chain("damage", [6, 6, 6, 6], 0, Context(attack=3, durability=3))
    assert path(out) == [("damage", "1-1@12"), ("transformation", "esp-level-plus-1")]


def test_run_chain_runs_out_of_dice() -> None:
    with pytest.raises(MalformedAction, match="ran out of dice for 'event'"):
        charts.run_chain("trap", [3, 4])


def test_run_chain_step_limit() -> None:
    # event 12 -> trap+4 raw 3 (=7) -> event 12 -> ... repeats until stopped
    with pytest.raises(MalformedAction, match="longer than 6 rolls"):
        charts.run_chain("event", [6, 6, 1, 2] * 10, max_steps=6)


def test_step_api_matches_run_chain() -> None:
    dice = [4, 5, 5, 5, 3, 4]
    stepped: list[Outcome] = []
    req = charts.request("prison")
    feed = iter(dice)
    while req is not None:
        chance = req.to_chance()
        assert isinstance(chance, Chance) and chance.purpose == f"locke.chart.{req.chart}"
        out = charts.resolve_request(req, [next(feed) for _ in chance.dice])
        stepped.append(out)
        req = out.next
    assert tuple(stepped) == charts.run_chain("prison", dice)


# --- modifiers and clamps --------------------------------------------------------


def test_prison_two_failures_read_7_as_9() -> None:
    out = charts.resolve("prison", (3, 4), charts.prison_modifier(2))
    assert (out.total, out.row, out.entry) == (9, 9, "prison-combat")


@pytest.mark.parametrize("faces", [(1, 1), (2, 3), (1, 4), (2, 2)])
@pytest.mark.parametrize("failures", [0, 1, 7, 20])
def test_prison_natural_5_or_less_always_escapes(faces: tuple[int, int], failures: int) -> None:
    out = charts.resolve("prison", faces, charts.prison_modifier(failures))
    assert out.entry == "escape" and out.row == sum(faces)


def test_prison_natural_6_with_modifier_does_not_auto_escape() -> None:
    assert charts.resolve("prison", (3, 3), 6).entry == "esp-proof"  # 12 and over
    assert charts.resolve("prison", (6, 6), 5).row == 12


def test_prison_modifier_rejects_negative_failures() -> None:
    with pytest.raises(MalformedAction):
        charts.prison_modifier(-1)


def test_trap_clamps_to_2_and_16() -> None:
    assert charts.resolve("trap", (6, 6), 8).entry == "black-hole"
    assert charts.resolve("trap", (1, 1), -3).entry == "psycho-bomb"


def test_random_combat_clamps_to_0_and_12() -> None:
    assert charts.resolve("random-combat", (1, 1), -5).entry == "two-unused-characters"
    assert charts.resolve("random-combat", (6, 6), 3).entry == "police-jammer-4"


def test_forest_rerolls_espers_with_growing_modifier() -> None:
    # trap 4 (resonance forest): an esper opponent is re-rolled with +1, then +2, ...
    out = charts.run_chain("trap", [2, 2, 1, 2, 1, 3, 1, 2, 2, 3])
    assert path(out) == [
        ("trap", "resonance-forest"),
        ("random-combat", "forest-esper-reroll"),
        ("random-combat", "forest-esper-reroll"),
        ("random-combat", "forest-esper-reroll"),
        ("random-combat", "police-bazooka"),
    ]
    assert [o.modifier for o in out[1:]] == [0, 1, 2, 3]


def test_espers_outside_the_forest_are_opponents() -> None:
    assert charts.resolve("random-combat", (2, 2)).entry == "esper-level-3-durability-2"


@pytest.mark.parametrize(
    ("faces", "level", "expected"),
    [((2, 3), 5, "miss"), ((3, 3), 6, "miss"), ((3, 4), 6, "hit"), ((1, 1), 0, "hit-doubles-roll-again"), ((6, 6), 12, "miss")],
)
def test_hallucination_compares_with_esp_level(faces: tuple[int, int], level: int, expected: str) -> None:
    assert charts.resolve("hallucination", faces, 0, Context(esp_level=level)).entry == expected


def test_hallucination_doubles_add_further_rolls() -> None:
    out = charts.run_chain("trap", [3, 3, 4, 4, 5, 5, 2, 3], 0, Context(esp_level=3))
    assert path(out)[1:] == [("hallucination", "hit-doubles-roll-again"), ("hallucination", "hit-doubles-roll-again"), ("hallucination", "hit")]
    assert out[-1].attacks[0].firepower == 8 + 10 + 5


def test_hallucination_needs_esp_level() -> None:
    with pytest.raises(MalformedAction, match="ESP level"):
        charts.resolve("hallucination", (3, 4))


# --- properties -------------------------------------------------------------------

CONTEXTS = st.builds(
    Context,
    weapon=st.sampled_from(sorted(FIREPOWER)),
    attack=st.integers(1, 2000),
    durability=st.integers(1, 60),
    esp_level=st.integers(0, 12),
    forest=st.booleans(),
    carry=st.integers(0, 40),
    faces_by_effect=st.booleans(),
    target_is_character=st.booleans(),
)


@st.composite
def chart_rolls(draw: st.DrawFn) -> tuple[str, tuple[int, ...], int, Context]:
    chart_id = draw(st.sampled_from(charts.chart_ids()))
    c = charts.chart(chart_id)
    faces = tuple(draw(st.integers(1, sides)) for sides in c.dice)
    modifier = draw(st.integers(-MODIFIER_LIMIT, MODIFIER_LIMIT)) if c.modifiable else 0
    context = draw(CONTEXTS)
    if chart_id == "damage" and draw(st.booleans()):
        context = Context(odds=draw(st.sampled_from(COLUMN_IDS)))
    return chart_id, faces, modifier, context


@settings(max_examples=300)
@given(chart_rolls())
def test_resolver_is_total_and_deterministic(roll: tuple[str, tuple[int, ...], int, Context]) -> None:
    chart_id, faces, modifier, context = roll
    first = charts.resolve(chart_id, faces, modifier, context)
    second = charts.resolve(chart_id, faces, modifier, context)
    assert first == second and encode(first) == encode(second)
    assert first.entry in charts.entry_ids(chart_id)
    c = charts.chart(chart_id)
    if c.summed:
        assert first.total == sum(faces) + modifier
        assert c.low <= first.row <= c.high
    if first.next is not None:
        assert first.next.chart in charts.chart_ids()


@settings(max_examples=100)
@given(st.lists(st.integers(1, 6), min_size=200, max_size=200), st.sampled_from(["trap", "prison", "event", "weapon-check", "random-combat"]))
def test_chains_end_and_replay_identically(dice: list[int], start: str) -> None:
    ctx = Context(esp_level=3)
    try:
        first = charts.run_chain(start, dice, 0, ctx)
    except MalformedAction as exc:  # a very unlucky loop; must be the stated limit
        assert "longer than" in str(exc) or "ran out of dice" in str(exc)
        return
    assert charts.run_chain(start, dice, 0, ctx) == first
    assert first[-1].next is None


def test_chain_context_keeps_only_the_esp_level() -> None:
    # forest -> random combat -> weapon check: the forest flag stays with the random-combat roll
    out = charts.run_chain("trap", [2, 2, 5, 5, 3, 4], 0, Context(esp_level=4, weapon="raygun"))
    assert [o.entry for o in out] == ["resonance-forest", "police-jammer-2", "blaster"]
    assert out[2].next is None
    assert charts.resolve("random-combat", (5, 5), 0, Context(forest=True, esp_level=4)).next == charts.request(
        "weapon-check", 0, Context(esp_level=4)
    )


def test_outcome_data_is_plain_and_canonical() -> None:
    out = charts.resolve("prison", (6, 6))
    data = out.to_data()
    assert data["entry"] == "esp-proof" and data["effects"][1]["params"] == {"esp_level": 0, "esp_power": 0, "proofs": 1}
    assert data["effects"][0]["params"] == {}
    assert encode(out) == encode(data)  # __canonical__ is the same plain data


def _contexts(chart_id: str) -> list[Context]:
    if chart_id == "weapon-firepower":
        return [Context(weapon=w) for w in sorted(FIREPOWER)]
    if chart_id == "damage":
        return [Context(odds=col) for col in COLUMN_IDS]
    if chart_id == "hallucination":
        return [Context(esp_level=lv) for lv in (0, 6, 12)]
    if chart_id == "random-combat":
        return [Context(), Context(forest=True)]
    return [Context()]


@pytest.mark.parametrize("chart_id", charts.chart_ids())
def test_every_entry_is_reachable(chart_id: str) -> None:
    """Enumerate all faces, modifiers and relevant contexts: every listed entry id
    comes up, and nothing outside the list does."""
    import itertools

    c = charts.chart(chart_id)
    modifiers = range(-MODIFIER_LIMIT, MODIFIER_LIMIT + 1) if c.modifiable else (0,)
    seen = set()
    for faces in itertools.product(*(range(1, s + 1) for s in c.dice)):
        for modifier in modifiers:
            for ctx in _contexts(chart_id):
                seen.add(charts.resolve(chart_id, faces, modifier, ctx).entry)
    assert seen == set(charts.entry_ids(chart_id))


def test_prison_modifier_is_capped_at_the_modifier_limit() -> None:
    """Seed 002 prison: 21 failures still roll (the modifier stops at +20; the top row is read either way)."""
    assert charts.prison_modifier(21) == 20
    assert charts.resolve("prison", (6, 6), charts.prison_modifier(21)).entry == "esp-proof"
    assert charts.resolve("prison", (2, 3), charts.prison_modifier(21)).entry == "escape"
