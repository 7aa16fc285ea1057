"""tools.bench combat: unit costs are measured and the rules are priced consistently, and combat
starts run with every seat in its own process on the real session code (no timing asserted)."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from engine.core.encoding import decode
from net.envelope import Envelope
from net.session import Session
from net.session.core import Outgoing
from net.session.loopback import Loopback
from tools.bench import _combat_procs, combat
from tools.bench._net_procs import Seats
from tools.bench._combat_game import Begin, CombatGame, genesis, plan_for
from tools.bench._net_seat import identity


@pytest.fixture(scope="module")
def model() -> dict[str, Any]:
    return combat.measure(quick=True)


def test_combat_bench_measures_units_and_prices_every_rule(model: dict[str, Any]) -> None:
    out = model
    units = out["units_ms"]
    for name in ("sp", "sv", "dec", "es", "ev", "make", "check", "perm", "shp", "shv"):
        assert units[name] > 0, name
    assert units["dec"] < units["sv"]  # decoding is a part of receiving a step
    for n in ("5", "10"):
        for f in ("1", "2", "3", "4"):
            path = out["critical_path"][n][f]
            # fewer sequential shuffle steps, then pipelining, can only shorten the wait
            assert path["pipelined_ms"] <= path["drawers_ms"] < path["every_seat_ms"], (n, f, path)
            assert path["deal_ms"] > 0 and path["beacon_ms"] > 0
            cpu = out["seat_cpu_model"][n][f]
            assert 0 < cpu["onlooker_ms"] and units["sp"] < cpu["shuffler_ms"]
    assert set(out["meets_target"]) == {"2", "3", "4"}


def test_the_model_prices_the_critical_path_from_given_units() -> None:
    units = {"sp": 47.0, "sv": 66.0, "dec": 5.0, "es": 0.1, "ev": 0.3, "base": 0.1, "make": 0.5, "check": 0.6,
             "faces": 0.0, "perm": 0.0, "shp": 0.15, "shv": 0.27}
    two = combat.combat_start(units, 0.5, 10, 2)
    # every seat: ten steps of prove, sign, hop, envelope check and verify
    assert two["every_seat_shuffle_ms"] == round(10 * (47 + 0.1 + 0.5 + 0.3 + 66), 1)
    # pipelined: at least one proof and every step checked on each peer's core, less than sequential
    assert 47 + 2 * 66 <= two["pipelined_shuffle_ms"] < two["drawers_shuffle_ms"]
    assert combat.shufflers(1) == 2 and combat.shufflers(3) == 3
    cpu = combat.seat_cpu_ms(units, 10, 3)
    beacon = 0.1 + 0.5 + 0.1 + 9 * (0.3 + 0.6)
    # a shuffling fighter: its own proof, the two other steps, the beacon, its deal's 9*7 shares, 2*7 shares made
    assert cpu["shuffler_ms"] == round(47 + 0.1 + 2 * 66.3 + beacon + 9 * (0.3 + 7 * 0.27) + 2 * (7 * 0.15 + 0.1), 1)
    assert cpu["onlooker_ms"] == round(3 * 66.3 + beacon + 3 * (7 * 0.15 + 0.1), 1)


def _combat_table(n: int, fighters: int, cards: int) -> Loopback:
    ids = [identity("test", s) for s in range(n)]
    game = CombatGame(cards)
    record = genesis(tuple(i.public_key for i in ids), cards, bytes(16))
    state = game.initial_state(n, tuple(range(fighters)), 7)
    return Loopback([Session(record, game, state, plan=plan_for(game), identity=ids[s], seat=s) for s in range(n)])


@pytest.mark.parametrize(("fighters", "shufflers"), [(1, [0, 1]), (2, [0, 1]), (3, [0, 1, 2])])
def test_the_benchmark_table_starts_combats_by_the_drawers_rule(fighters: int, shufflers: list[int]) -> None:
    """In one process: only the fighters (a lone one and the next seat) shuffle, every seat sends its
    beacon part, each fighter is dealt seven cards it alone learns; the next combat takes the hands back."""
    lb = _combat_table(4, fighters, 30)
    seen: Counter[tuple[int, str, int]] = Counter()

    def tap(seat: int, out: Outgoing) -> Outgoing:
        env = Envelope.from_data(decode(out.data))
        if out.to is None:
            seen[(env.seen.step, env.kind, seat)] += 1
        return out

    lb.tap = tap
    lb.start()
    lb.run()
    for combat_no in range(2):
        lb.post(0, lb.sessions[0].submit(0, Begin(0)))
        lb.run()
        step = 1 + combat_no * (2 + fighters)  # the shuffle's step: after the declaration
        assert sorted(s for (t, kind, s) in seen if t == step and kind == "shuffle") == shufflers
        assert sorted(s for (t, kind, s) in seen if t == step and kind == "roll") == [0, 1, 2, 3]
        assert all(s.halted is None and s.step == (combat_no + 1) * (2 + fighters) for s in lb.sessions)
        held = []
        for s in lb.sessions:
            assert s.seat is not None
            hand = s.state.hands[s.seat]
            assert len(hand) == (7 if s.seat < fighters else 0)
            held += [s.knowledge.card(h) for h in hand]
            others = [h for seat, other in enumerate(s.state.hands) if seat != s.seat for h in other]
            assert all(s.knowledge.card(h) is None for h in others)  # nobody learns another fighter's hand
        assert None not in held and len(set(held)) == len(held) == 7 * fighters


def test_combat_starts_run_with_every_seat_in_its_own_process() -> None:
    out = _combat_procs.combat_starts(3, 2, 2, cards=20)
    assert out["decks_agree"] and out["hands_ok"]  # check() raised otherwise
    assert out["hand_ms"]["count"] == 2 and 0 < out["hand_ms"]["median"] <= out["hand_ms"]["p95"]
    assert out["hand_ms"]["median"] <= out["done_ms"]["p95"]
    assert len(out["cpu_s"]["per_seat"]) == 3 and all(c > 0 for c in out["cpu_s"]["per_seat"])
    assert 0 <= out["latest_start_ms"]["median"] < out["hand_ms"]["median"]
    # every seat received at least every other seat's beacon part and the two shuffle steps not its own
    assert out["received_bytes"]["min"] > 2000


def _round(decks: tuple[str, str, str], hands: tuple[Any, Any, Any]) -> list[dict[str, Any]]:
    return [{"deck": d, "hand": h, "hand_ms": None if h is None else 1.0} for d, h in zip(decks, hands)]


def test_inconsistent_process_results_are_refused() -> None:
    a = [f"b{i:03d}" for i in range(7)]
    b = [f"b{i:03d}" for i in range(7, 14)]
    good = _round(("d", "d", "d"), (a, b, None))
    _combat_procs.check(copy.deepcopy(good), 2, 7)
    bad_deck = _round(("d", "e", "d"), (a, b, None))
    with pytest.raises(RuntimeError, match="different shuffled decks"):
        _combat_procs.check(bad_deck, 2, 7)
    with pytest.raises(RuntimeError, match="same card"):
        _combat_procs.check(_round(("d", "d", "d"), (a, [a[0], *b[1:]], None)), 2, 7)
    with pytest.raises(RuntimeError, match="distinct known cards"):
        _combat_procs.check(_round(("d", "d", "d"), (a, [*b[:6], None], None)), 2, 7)
    with pytest.raises(RuntimeError, match="distinct known cards"):
        _combat_procs.check(_round(("d", "d", "d"), (a, b[:6], None)), 2, 7)
    with pytest.raises(RuntimeError, match="no fighter"):
        _combat_procs.check(_round(("d", "d", "d"), (a, b, ["b020"])), 2, 7)


def test_the_report_sets_the_measurement_beside_the_model(model: dict[str, Any]) -> None:
    fig = _combat_procs.combat_starts(2, 2, 1, cards=20)
    fig.update(cpu_total_s=0.1, shared_core_floor_ms=50.0)
    result = {**model, "processes": {"cores": 2, "rounds": 1, "cards": 20, "by_seats": {"5": {"2": fig}}}}
    text = combat.report(result)
    line = next(x for x in text.splitlines() if x.startswith("   5 seats, 2 fighters: last hand"))
    assert f"model, one core per peer: {model['critical_path']['5']['2']['pipelined_ms']:6.1f} ms" in line
    assert f"median {fig['hand_ms']['median']:7.1f} ms" in line


def test_a_seat_that_fails_stops_the_run_and_its_processes() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        _combat_procs.combat_starts(3, 3, 1, cards=20)
    seats = Seats(2, timeout=30, module="tools.bench._combat_seat")
    try:
        seats.tell(0, setup={"fighters": [0, 1, 2], "cards": 20, "hand": 7})  # seat 2 of 2 seats: refused
        with pytest.raises(RuntimeError, match="seat 0 of 2: ValueError: fighters"):
            seats.read(0, "opened")
    finally:
        seats.close()
    assert all(p.poll() is not None for p in seats.procs)
