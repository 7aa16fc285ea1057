"""Every row of every seed 002 chart resolves to the seed's result.

Each table below is transcribed from seed 002 (the chart collection) row by
row, independently of engine/locke/chart_data.py; test ids name the chart and
the roll (rule ids ``locke.chart.<chart>``).
"""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction, MalformedAction
from engine.locke import charts
from engine.locke.outcomes import NO_CONTEXT, Context, Outcome


def roll(chart_id: str, total: int, context: Context = NO_CONTEXT) -> Outcome:
    """Resolve ``chart_id`` at ``total`` using plain 2d6 faces (or a modifier
    where the total lies outside 2..12)."""
    if total < 2:
        return charts.resolve(chart_id, (1, 1), total - 2, context)
    if total > 12:
        return charts.resolve(chart_id, (6, 6), total - 12, context)
    first = min(6, total - 1)
    return charts.resolve(chart_id, (first, total - first), 0, context)


def cases(table: dict[int, object]) -> list[object]:
    return [pytest.param(total, expected, id=f"roll-{total}") for total, expected in table.items()]


# --- random combat (seed: ランダム戦闘チャート) -----------------------------------
# total -> (entry, opponent id, count, durability, esp level, jammer, weapon or None, weapon-check chained)
RANDOM_COMBAT = {
    0: ("two-unused-characters", "unused-character", 2, None, None, None, None, False),
    1: ("one-unused-character", "unused-character", 1, None, None, None, None, False),
    2: ("one-unused-character", "unused-character", 1, None, None, None, None, False),
    3: ("esper-level-3-durability-3", "esper", 1, 3, 3, None, None, False),
    4: ("esper-level-3-durability-2", "esper", 1, 2, 3, None, None, False),
    5: ("esper-level-2-durability-2", "esper", 1, 2, 2, None, None, False),
    6: ("police-raygun", "police", 3, 1, None, None, "raygun", False),
    7: ("police-blaster", "police", 3, 1, None, None, "blaster", False),
    8: ("police-bazooka", "police", 3, 1, None, None, "bazooka", False),
    9: ("police-jammer-1", "police", 3, 1, None, 1, None, True),
    10: ("police-jammer-2", "police", 3, 1, None, 2, None, True),
    11: ("police-jammer-3", "police", 4, 1, None, 3, None, True),
    12: ("police-jammer-4", "police", 5, 1, None, 4, None, True),
}


@pytest.mark.parametrize(("total", "expected"), cases(RANDOM_COMBAT))
def test_random_combat_rows(total: int, expected: tuple[object, ...]) -> None:
    entry, opp_id, count, durability, level, jammer, weapon, chained = expected
    out = roll("random-combat", total)
    assert out.entry == entry and out.row == total
    (opp,) = out.opponents
    assert (opp.id, opp.count, opp.durability, opp.esp_level, opp.esp_jammer) == (opp_id, count, durability, level, jammer)
    assert (opp.weapon.id if opp.weapon else None) == weapon
    if opp_id == "esper":
        assert opp.esp_power_infinite and opp.mind is None
    if opp_id == "unused-character":
        assert opp.random_characters == count
    if opp_id == "police":
        assert opp.weapon is None or ("intrinsic" in opp.weapon.tags and opp.weapon.firepower_chart == weapon)
        assert {"one-attack-hits-all", "combined-fire", "jammer-lost-on-death"} <= set(opp.traits)
    assert (out.next is not None and out.next.chart == "weapon-check") == chained


# --- weapon check (seed: 武器チェックチャート) ------------------------------------
# total -> (entry, attack (id, level, firepower) or None, police vanish, chains to)
WEAPON_CHECK = {
    2: ("g-bomb", ("g-bomb", 5, 30), True, None),
    3: ("trap", None, True, "trap"),
    4: ("raygun", ("raygun", 1, None), False, None),
    5: ("raygun", ("raygun", 1, None), False, None),
    6: ("blaster", ("blaster", 2, None), False, None),
    7: ("blaster", ("blaster", 2, None), False, None),
    8: ("blaster", ("blaster", 2, None), False, None),
    9: ("bazooka", ("bazooka", 3, None), False, None),
    10: ("bazooka", ("bazooka", 3, None), False, None),
    11: ("armored-car", None, True, None),
    12: ("d-bomb", ("d-bomb", 6, 50), True, None),
}


@pytest.mark.parametrize(("total", "expected"), cases(WEAPON_CHECK))
def test_weapon_check_rows(total: int, expected: tuple[object, ...]) -> None:
    entry, attack, vanish, chain = expected
    out = roll("weapon-check", total)
    assert out.entry == entry
    if attack is None:
        assert out.attacks == ()
    else:
        (a,) = out.attacks
        assert (a.id, a.level, a.firepower) == attack
        assert "intrinsic" in a.tags  # every weapon-check attack is [intrinsic]
        if a.firepower is not None:  # G/D bombs hit everyone at the first round's start
            assert a.target == "all-in-combat" and a.timing == "first-round-start"
            assert "combat-even-if-alone" in {e.id for e in out.effects}
    assert ("police-vanish" in {e.id for e in out.effects}) == vanish
    assert (out.next.chart if out.next else None) == chain


def test_weapon_check_11_armored_car() -> None:
    (car,) = roll("weapon-check", 11).opponents
    assert (car.id, car.durability) == ("armored-car", 8)
    assert car.weapon is not None and (car.weapon.id, car.weapon.level, car.weapon.firepower_chart) == ("beam-cannon", 4, "beam-cannon")


def test_machines_ignore_the_illusion_card_ruling_n13() -> None:
    """KMC 5.3.2 names the armoured car and the dark knights among the non-humans the
    illusion card cannot affect; seed 002 restates it only for golems and E-busters, so
    both machines carry the same trait as those (ruling N13)."""
    (car,) = roll("weapon-check", 11).opponents
    (knight,) = roll("trap", 3).opponents
    for machine in (car, knight):
        assert {"machine", "ignores-hallucination"} <= set(machine.traits), machine.id
    # The human obstacles stay open to it: police, espers, hell divers, cybers.
    humans = [roll("random-combat", 7).opponents[0], roll("random-combat", 3).opponents[0],
              roll("trap", 5).opponents[0], roll("trap", 9).opponents[0]]
    assert all("ignores-hallucination" not in h.traits and "machine" not in h.traits for h in humans)


# --- weapon firepower (seed: 武器火力チェックチャート) ----------------------------
FIREPOWER = {
    "raygun": (0, 1, 2, 2, 3, 4),
    "blaster": (3, 4, 5, 5, 6, 7),
    "bazooka": (6, 7, 8, 9, 10, 11),
    "beam-cannon": (10, 12, 14, 16, 18, 20),
}


@pytest.mark.parametrize("weapon", list(FIREPOWER))
@pytest.mark.parametrize("face", range(1, 7))
def test_weapon_firepower_cells(weapon: str, face: int) -> None:
    out = charts.resolve("weapon-firepower", (face,), 0, Context(weapon=weapon))
    assert out.value == FIREPOWER[weapon][face - 1]
    assert out.entry == f"{weapon}-{face}"
    assert out.attacks[0].firepower == out.value
    assert ("flash-only" in {e.id for e in out.effects}) == (out.value == 0)


def test_weapon_firepower_needs_a_weapon() -> None:
    with pytest.raises(MalformedAction, match="weapon column"):
        charts.resolve("weapon-firepower", (3,))


# --- prison (seed: 刑務所チャート) -----------------------------------------------
PRISON = {
    2: "escape", 3: "escape", 4: "escape", 5: "escape",
    6: "escape-if-level-4", 7: "escape-if-level-5", 8: "escape-if-level-6",
    9: "prison-combat", 10: "prison-combat", 11: "escape-into-trap", 12: "esp-proof",
}  # fmt: skip


@pytest.mark.parametrize(("total", "expected"), cases(PRISON))
def test_prison_rows(total: int, expected: str) -> None:
    out = roll("prison", total)
    assert out.entry == expected
    chain = {"prison-combat": "random-combat", "escape-into-trap": "trap"}.get(expected)
    assert (out.next.chart if out.next else None) == chain


@pytest.mark.parametrize(("total", "threshold"), [(6, 4), (7, 5), (8, 6)])
def test_prison_level_rows_let_high_levels_escape(total: int, threshold: int) -> None:
    out = roll("prison", total)
    assert not charts.prison_may_escape(out, threshold - 1)
    assert charts.prison_may_escape(out, threshold)


def test_prison_12_embeds_an_esp_proof() -> None:
    effects = {e.id: e for e in roll("prison", 12).effects}
    assert "escape-failed" in effects
    assert dict(effects["esp-proof"].params) == {"esp_level": 0, "esp_power": 0, "proofs": 1}
    assert not charts.prison_may_escape(roll("prison", 12), 6)


@pytest.mark.parametrize(("face", "entry"), [(1, "removed"), (2, "removed"), (3, "stays"), (6, "stays")])
def test_esp_proof_removal_roll(face: int, entry: str) -> None:
    # seed: prison 12+, a check-phase 1d6 of 2 or less removes one proof
    assert charts.resolve("esp-proof-removal", (face,)).entry == entry


# --- ship support (seed: 艦船支援チャート) ---------------------------------------
SHIP = {
    2: ("d-bomb", ("d-bomb", 6, 50, "one")),
    3: ("g-bomb", ("g-bomb", 5, 30, "one")),
    4: ("beam-cannon", ("beam-cannon", 4, None, "one")),
    5: ("beam-cannon", ("beam-cannon", 4, None, "one")),
    6: ("beam-cannon", ("beam-cannon", 4, None, "one")),
    **{t: ("no-support", None) for t in range(7, 12)},
    12: ("misfire", ("beam-cannon", 4, None, "self")),
}


@pytest.mark.parametrize(("total", "expected"), cases(SHIP))
def test_ship_support_rows(total: int, expected: tuple[object, ...]) -> None:
    entry, attack = expected
    out = roll("ship-support", total)
    assert out.entry == entry
    if attack is None:
        assert out.attacks == () and out.next is None
    else:
        (a,) = out.attacks
        assert (a.id, a.level, a.firepower, a.target) == attack
        if a.firepower is None:  # beam cannon firepower is rolled next
            assert out.next is not None and out.next.chart == "weapon-firepower"
            assert out.next.context.weapon == "beam-cannon"


# --- actually there / alive / residual thought / joined --------------------------
THERE = {2: ("there-now", 1), 3: ("there-now", 1), 4: ("there-now", 1), 5: ("arrives-round-2", 2),
         6: ("arrives-round-3", 3), 7: ("arrives-round-4", 4), 8: ("not-there", None), 9: ("not-there", None),
         10: ("not-there", None), 11: ("not-there", None), 12: ("not-there-deal-cards", None)}  # fmt: skip


@pytest.mark.parametrize(("total", "expected"), cases(THERE))
def test_actually_there_rows(total: int, expected: tuple[str, int | None]) -> None:
    out = roll("actually-there", total)
    assert (out.entry, out.value) == expected


ALIVE = {2: "alive", 3: "residual-thought", 4: "residual-thought", 5: "residual-thought",
         **{t: "still-dead" for t in range(6, 12)}, 12: "alive"}  # fmt: skip


@pytest.mark.parametrize(("total", "expected"), cases(ALIVE))
def test_actually_alive_rows(total: int, expected: str) -> None:
    out = roll("actually-alive", total)
    assert out.entry == expected
    assert (out.next.chart if out.next else None) == ("residual-thought" if expected == "residual-thought" else None)


THOUGHT = {2: 100, 3: 50, 4: 30, 5: 20, 6: 10, **{t: 0 for t in range(7, 13)}}


@pytest.mark.parametrize(("total", "expected"), cases(THOUGHT))
def test_residual_thought_rows(total: int, expected: int) -> None:
    out = roll("residual-thought", total)
    assert out.value == expected
    assert [a.firepower for a in out.attacks] == ([expected] if expected else [])


JOINED = {2: "joined", **{t: "not-joined" for t in range(3, 12)}, 12: "joined"}


@pytest.mark.parametrize(("total", "expected"), cases(JOINED))
def test_actually_joined_rows(total: int, expected: str) -> None:
    assert roll("actually-joined", total).entry == expected


# --- trap (seed: トラップチャート, 2 to 16-and-over) -------------------------------
TRAP = {
    2: "psycho-bomb", 3: "dark-knights", 4: "resonance-forest", 5: "hell-divers", 6: "hallucination-attack",
    7: "event", 8: "deadline", 9: "cybers", 10: "golems", 11: "e-buster", 12: "chronos-trap",
    13: "super-e-buster", 14: "genocide", 15: "sync-attack-of-300", 16: "black-hole",
}  # fmt: skip
TRAP_CHAINS = {4: "random-combat", 6: "hallucination", 7: "event", 10: "golem-count", 14: "genocide"}


@pytest.mark.parametrize(("total", "expected"), cases(TRAP))
def test_trap_rows(total: int, expected: str) -> None:
    out = roll("trap", total)
    assert out.entry == expected
    assert (out.next.chart if out.next else None) == TRAP_CHAINS.get(total)


def test_trap_opponents_and_attacks() -> None:
    """Stats of every trap opponent and attack, per seed 002 trap rows."""
    assert [(a.id, a.firepower, a.stat, a.target) for a in roll("trap", 2).attacks] == [("psycho-bomb", 20, "mind", "self")]
    (knight,) = roll("trap", 3).opponents
    assert (knight.count, knight.durability, knight.weapon and (knight.weapon.id, knight.weapon.level, knight.weapon.firepower)) == (
        1, 8, ("d-bomb", 6, 50))  # fmt: skip
    assert "round-end-breakdown-roll" in knight.traits and "intrinsic" in knight.weapon.tags
    (divers,) = roll("trap", 5).opponents
    assert (divers.count, divers.durability, divers.weapon and divers.weapon.firepower_chart) == (4, 6, "blaster")
    assert {"combined-fire", "one-attack-hits-all"} <= set(divers.traits)
    (cyber,) = roll("trap", 9).opponents
    assert (cyber.count, cyber.durability, cyber.melee) == (3, 8, 2)
    assert cyber.weapon is not None and (cyber.weapon.level, cyber.weapon.count) == (2, 2)
    assert "combined-fire" not in cyber.traits  # the seed sums firepower only for hell divers and golems
    (golem,) = roll("trap", 10).opponents
    assert (golem.durability, golem.count_chart, golem.weapon and golem.weapon.tags) == (3, "golem-count", ("E",))
    assert {"round-end-full-heal", "ignores-hallucination"} <= set(golem.traits)
    (ebuster,) = roll("trap", 11).opponents
    assert (ebuster.durability, ebuster.weapon and (ebuster.weapon.level, ebuster.weapon.firepower, ebuster.weapon.tags)) == (
        10, (6, 60, ("EM",)))  # fmt: skip
    (super_e,) = roll("trap", 13).opponents
    assert (super_e.durability, super_e.esp_jammer, super_e.esp_barrier) == (10, 3, 4)
    assert "not-persuadable" in super_e.traits and "persuadable-by-level-check" not in super_e.traits
    (chronos,) = roll("trap", 12).effects
    assert (chronos.check, dict(chronos.params)["odds"]) == ("mind", "1-1")
    (hole,) = roll("trap", 16).effects
    assert (hole.check, dict(hole.params)["mirrors_to_avoid"]) == ("esp-level", 2)
    (deadline,) = roll("trap", 8).effects
    assert deadline.duration is not None and deadline.duration.dice == (3,)
    assert dict(roll("trap", 15).effects[0].params)["extra_cards"] == 1


GENOCIDE = {2: ("b-bomb", None, None), 3: ("n-bomb", 8, None), 4: ("n-bomb", 8, None),
            **{t: ("g-bomb", 5, 30) for t in range(5, 10)}, 10: ("d-bomb", 6, 50), 11: ("d-bomb", 6, 50),
            12: ("geoid-bomb", 7, 100)}  # fmt: skip


@pytest.mark.parametrize(("total", "expected"), cases(GENOCIDE))
def test_genocide_rows(total: int, expected: tuple[str, int | None, int | None]) -> None:
    out = roll("genocide", total)
    assert out.entry == expected[0]
    if expected[0] == "b-bomb":
        assert (out.effects[0].check, out.effects[0].on_fail) == ("mind", "death")
    else:
        (a,) = out.attacks
        assert (a.level, a.firepower, a.target) == (expected[1], expected[2], "self")
        assert a.odds == ("10-1" if a.id == "n-bomb" else None)  # N-bomb: 10:1 whatever the durability


@pytest.mark.parametrize("face", range(1, 7))
def test_golem_count(face: int) -> None:
    out = charts.resolve("golem-count", (face,))
    assert out.value == face and out.opponents[0].count == face and out.opponents[0].id == "golem"


@pytest.mark.parametrize(("face", "entry"), [(1, "destroyed"), (5, "destroyed"), (6, "holds")])
def test_dark_knight_breakdown(face: int, entry: str) -> None:
    assert charts.resolve("dark-knight-breakdown", (face,)).entry == entry


# --- event (seed: イベントチャート) -----------------------------------------------
EVENT = {2: "necra-crawley", 3: "psycho-blast", 4: "d-bomb-misfire", 5: "hypno-crystal", 6: "astro-race",
         7: "skyhawk-dandy", 8: "kurukuru-pa-x", 9: "wheat-harvest", 10: "emperor-plan", 11: "hijiri-whim",
         12: "trap-plus-4"}  # fmt: skip


@pytest.mark.parametrize(("total", "expected"), cases(EVENT))
def test_event_rows(total: int, expected: str) -> None:
    out = roll("event", total)
    assert out.entry == expected
    chains = {4: ("random-cell", 0), 12: ("trap", 4)}
    assert ((out.next.chart, out.next.modifier) if out.next else None) == chains.get(total)


def test_event_details() -> None:
    (crawley,) = roll("event", 2).attacks
    assert (crawley.odds, crawley.target) == ("10-1", "all-living")
    kuru = roll("event", 8).effects[0]
    assert kuru.id == "restraint" and kuru.duration is not None and kuru.duration.dice == (6,)
    blast = roll("event", 3).effects[0]
    assert dict(blast.params) == {"esp_level_delta": 1, "min_esp_level": 1, "mind": 3}


@pytest.mark.parametrize(("face", "entry"), [(1, "rain"), (4, "rain"), (5, "harvest"), (6, "harvest")])
def test_wheat_harvest(face: int, entry: str) -> None:
    assert charts.resolve("wheat-harvest", (face,)).entry == entry


WHIM = {1: "nothing", 2: "release", 3: "sword", 4: "blaster", 5: "henchman", 6: "ship-support"}


@pytest.mark.parametrize(("face", "entry"), WHIM.items())
def test_whim_ability(face: int, entry: str) -> None:
    assert charts.resolve("whim-ability", (face,)).entry == entry


def test_whim_stats_and_random_cell() -> None:
    stats = charts.resolve("whim-stats", (3, 4, 1, 6)).effects[0]
    # level 1d6, power 1d6 x 10, durability 1d6 but at least 2, mind 1d6 + 2
    assert dict(stats.params) == {"esp_level": 3, "esp_power": 40, "durability": 2, "mind": 8}
    cell = charts.resolve("random-cell", (2, 5)).effects[0]
    assert dict(cell.params) == {"row": 2, "column": 5}


# --- transformation check (seed: 変身チェックチャート) ----------------------------
TRANSFORMATION = {2: "true-self", 3: "true-self", 4: "esp-power-plus-10", 5: "nothing", 6: "nothing",
                  7: "extra-combat-cards", 8: "nothing", 9: "nothing", 10: "durability-plus-1",
                  11: "mind-plus-1", 12: "esp-level-plus-1"}  # fmt: skip
STAT_DELTAS = {4: ("esp_power", 10), 10: ("durability", 1), 11: ("mind", 1), 12: ("esp_level", 1)}


@pytest.mark.parametrize(("total", "expected"), cases(TRANSFORMATION))
def test_transformation_rows(total: int, expected: str) -> None:
    out = roll("transformation", total)
    assert out.entry == expected
    if total in STAT_DELTAS:
        (effect,) = out.effects
        assert effect.params == (STAT_DELTAS[total],)
        assert effect.duration is not None and effect.duration.until == "end-of-game"
    if total == 7:
        assert [dict(e.params) for e in out.effects] == [{"cards": 2}, {"hand_limit": 2}]


@pytest.mark.parametrize("modifier", [-1, 1, 4])
def test_transformation_cannot_be_shifted(modifier: int) -> None:
    with pytest.raises(IllegalAction, match="cannot be shifted"):
        charts.resolve("transformation", (3, 3), modifier)


# --- coverage of the data -------------------------------------------------------


def test_seed_charts_all_present() -> None:
    seed = {"random-combat", "weapon-check", "weapon-firepower", "prison", "ship-support", "actually-there",
            "actually-alive", "residual-thought", "actually-joined", "trap", "event", "damage", "transformation"}  # fmt: skip
    assert seed <= set(charts.chart_ids())


@pytest.mark.parametrize("chart_id", charts.chart_ids())
def test_rows_covered_exactly_once(chart_id: str) -> None:
    c = charts.chart(chart_id)
    if not c.entries or all(not e.rows for e in c.entries):
        return  # generated by the resolver (damage cells, firepower columns, hallucination, cells, stats)
    rows = [r for e in c.entries for r in e.rows]
    assert sorted(rows) == list(range(c.low, c.high + 1))


@pytest.mark.parametrize("chart_id", charts.chart_ids())
def test_entry_ids_unique_and_english(chart_id: str) -> None:
    ids = charts.entry_ids(chart_id)
    assert len(ids) == len(set(ids))
    assert all(i.isascii() and i == i.lower() and " " not in i for i in ids)


def test_params_are_sorted_pairs() -> None:
    """Effect params are canonical: sorted (key, value) pairs."""
    from engine.locke.chart_data import CHARTS

    for c in CHARTS.values():
        for e in c.entries:
            for eff in e.effects:
                keys = [k for k, _ in eff.params]
                assert keys == sorted(keys), (c.id, e.id, eff.id)


def test_unknown_chart_and_bad_faces_are_rejected() -> None:
    with pytest.raises(MalformedAction, match="unknown chart"):
        charts.resolve("nope", (1, 1))
    with pytest.raises(MalformedAction, match="expected 2 dice"):
        charts.resolve("trap", (3,))
    with pytest.raises(MalformedAction, match="shows 7"):
        charts.resolve("trap", (7, 1))
    with pytest.raises(MalformedAction, match="outside"):
        charts.resolve("trap", (1, 1), 21)


def test_docs_list_every_id() -> None:
    """docs/rules/locke-charts.md names every entry id, trait, tag and effect id."""
    from pathlib import Path

    from engine.locke.chart_data import CHARTS

    docs = Path(__file__).resolve().parents[3] / "docs" / "rules" / "locke-charts.md"
    text = docs.read_text(encoding="utf-8")
    names: set[str] = set()
    for c in CHARTS.values():
        names.add(c.id)
        if c.id not in ("weapon-firepower", "damage"):
            names |= set(charts.entry_ids(c.id))
        for e in c.entries:
            for o in e.opponents:
                names |= set(o.traits)
                if o.weapon:
                    names |= set(o.weapon.tags) | {o.weapon.target}
            for a in e.attacks:
                names |= set(a.tags) | {a.target}
            for f in e.effects:
                names |= {f.id, f.target} | set(f.tags)
    missing = sorted(n for n in names if f"`{n}`" not in text)
    assert missing == [], missing
