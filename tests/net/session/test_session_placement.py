"""Hidden placements between peers (net/session/placement.py), on the treasure test game.

The hider commits to every cell (``place``), proves each dug cell (``cells``),
seals the map to its ally (``disclose``) and opens every cell left at the
audit. Each of those messages is also sent forged, replayed, out of order,
oversized or with a lie inside, and the seat at fault is named.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from treasure_table import treasure_session, treasure_table

from engine.core.encoding import decode, encode
from engine.core.inputs import PlacementPick
from engine.core.pending import EMPTY, Decision, Placement
from net import commit as commit_module
from net.commit import Opening
from net.envelope import Envelope, sign_envelope
from net.errors import IllegalChoice
from net.session import Rejected, Session
from net.session.core import Outgoing
from net.session.events import Cheat
from net.session import dispute as dispute_module
from net.session import placement as placement_module
from net.session.placement import secret_name
from tests.engine.treasure_game import CELLS, HIDER, THINGS

ALLY, RIVAL = 1, 2


def _forge(s: Session, identity: Any, *, kind: str, body: Any) -> bytes:
    """An envelope of ``s``'s own seat that ``s`` did not send (next seq, valid chain, its current step)."""
    w = s._writer
    assert w is not None
    return sign_envelope(identity, game=s.gid, seat=w.seat, seq=w.next_seq, prev=w.head, kind=kind, body=body,
                         seen=(s.step, s.hashes[s.step])).to_bytes()


def _rejected(s: Session) -> list[Rejected]:
    return [e for e in s.events if isinstance(e, Rejected)]


def _until(table: Any, test: Any) -> None:
    """Deliver one payload at a time until ``test()`` holds."""
    while not test():
        assert table.queue, "the table settled before the awaited moment"
        table.run(limit=1)


def _at_place(seed: int = 1) -> tuple[Any, list[Any]]:
    """A table stopped at the hider's placement: the hider places by hand."""
    table, _, ids = treasure_table(seed)
    table.sessions[HIDER].agent = None
    table.start()
    table.run()
    pending = table.sessions[ALLY].pending
    assert isinstance(pending, Placement) and pending.op == "place"
    return table, ids


def _place_by_hand(table: Any, arrangement: dict[str, str]) -> None:
    hider = table.sessions[HIDER]
    remaining = dict(arrangement)
    while remaining:
        offered = [p for p in hider.legal(HIDER) if isinstance(p, PlacementPick)]
        pick = next(p for p in offered if remaining.get(p.cell) == p.thing)
        del remaining[pick.cell]
        table.post(HIDER, hider.submit(HIDER, pick))
    table.run()


def test_a_placement_is_placed_opened_disclosed_and_audited_between_peers() -> None:
    table, _, _ = treasure_table(1)
    table.start()
    table.run()
    hider, ally, rival = table.sessions
    for s in table.sessions:
        assert s.finished and s.verdict == "ok" and not _rejected(s), (s.seat, s.phase, s.events)
    assert len({s.hashes[-1] for s in table.sessions}) == 1
    placed = dict(hider.knowledge.notes[0].data)
    assert hider.knowledge.notes[0].topic == "placed:treasure" and sorted(placed.values()) == sorted(THINGS)
    told = ally.knowledge.notes[0]
    assert told.topic == "disclosed:treasure" and dict(told.data) == {c: placed.get(c, EMPTY) for c in CELLS}
    assert rival.knowledge.notes == ()  # the rival was told nothing
    # every cell is open on every peer after the audit, and all agree with the placer's own note
    for s in table.sessions:
        contents = {s.placements.cell_of[h][1]: c for h, c in s.placements.contents.items()}
        assert contents == {c: placed.get(c, EMPTY) for c in CELLS}


def test_only_the_placer_places_and_a_bad_placement_message_names_its_sender() -> None:
    table, ids = _at_place()
    hider, ally, rival = table.sessions
    cells = list(CELLS)
    good = {"zone": "treasure", "cells": cells, "commitments": [bytes(32)] * len(cells)}
    table.post(RIVAL, [Outgoing(_forge(rival, ids[RIVAL], kind="place", body=good))])
    table.run()
    assert [(e.seat, e.kind) for e in _rejected(ally)] == [(RIVAL, "place")]
    assert "which seat 0 made" in _rejected(ally)[0].error
    # the placer itself: another zone, a missing cell, a short commitment, an oversized message
    bad_bodies = [
        {**good, "zone": "elsewhere"},
        {**good, "cells": cells[:-1], "commitments": [bytes(32)] * (len(cells) - 1)},
        {**good, "commitments": [bytes(31)] * len(cells)},
        {**good, "cells": [f"x{i}" for i in range(300)], "commitments": [bytes(32)] * 300},
    ]
    for body in bad_bodies:
        before = len(_rejected(ally))
        data = _forge(hider, ids[HIDER], kind="place", body=body)
        for s in (ally, rival):
            table.post(HIDER, s.receive(data, sender="peer-0", via=HIDER))
        table.run()
        assert len(_rejected(ally)) == before + 1 and _rejected(ally)[-1].seat == HIDER, body
    # a cell opening before any placement is out of order: refused, naming the placer
    data = _forge(hider, ids[HIDER], kind="cells", body={"openings": []})
    ally.receive(data, sender="peer-0", via=HIDER)
    assert _rejected(ally)[-1].seat == HIDER and _rejected(ally)[-1].kind == "cells"
    assert isinstance(ally.pending, Placement)  # nothing was lost: the table still waits for the placement
    # the genuine placement goes through and the game ends
    _place_by_hand(table, {"a1": "gold", "b1": "trap", "c1": "trap"})
    assert all(s.finished and s.verdict == "ok" for s in table.sessions)


def test_a_replayed_placement_is_refused() -> None:
    table, ids = _at_place()
    hider, ally, _ = table.sessions
    _place_by_hand(table, {"a1": "gold", "b1": "trap", "c1": "trap"})
    place = next(e for e in ally.envelopes() if e.kind == "place")
    assert ally.finished
    before = len(ally.envelopes())
    ally.receive(place.to_bytes(), sender="peer-0", via=HIDER)  # the same envelope again: dropped, nothing changes
    assert len(ally.envelopes()) == before
    # the same body signed again later in the chain is a second placement the rules never asked for
    again = Envelope.from_data(decode(place.to_bytes()))
    table2, ids2 = _at_place()
    _place_by_hand(table2, {"a1": "gold", "b1": "trap", "c1": "trap"})
    h2, a2, _ = table2.sessions
    assert a2.finished
    data = _forge(h2, ids2[HIDER], kind="place", body=again.body)
    a2.receive(data, sender="peer-0", via=HIDER)
    assert _rejected(a2) and _rejected(a2)[-1].seat == HIDER


def _lie_in_secret(s: Session, step: int, cell: str, value: str) -> None:
    """Make the placer's kept opening of ``cell`` say ``value`` (with its real salt): a lie."""
    name = secret_name(step)
    saved = dict(s._saved_secret(name))
    saved[cell] = Opening(value, saved[cell]["salt"]).to_data()
    s._secret_store[name] = saved


def _hold_back(table: Any, seat: int, kind: str) -> list[Envelope]:
    """Keep ``seat``'s envelopes of ``kind`` off the network (returned list), to stand in for them."""
    held: list[Envelope] = []

    def tap(sender: int, out: Outgoing) -> Outgoing | None:
        env = Envelope.from_data(decode(out.data))
        if sender == seat and env.kind == kind:
            held.append(env)
            return None
        return out

    table.tap = tap
    return held


def _instead(identity: Any, env: Envelope, body: Any) -> bytes:
    """Another version of ``env`` (same seat, seq, chain link and step) with ``body``."""
    return sign_envelope(identity, game=env.game, seat=env.seat, seq=env.seq, prev=env.prev, kind=env.kind,
                         body=body, seen=(env.seen.step, env.seen.state_hash)).to_bytes()


def _openings(s: Session, step: int) -> dict[str, Any]:
    return dict(s._saved_secret(secret_name(step)))


def _deliver_to_others(table: Any, seat: int, data: bytes) -> None:
    """A message of ``seat`` that only the other peers receive (its own session never made it)."""
    for s in table.sessions:
        if s.seat != seat:
            table.post(s.seat, s.receive(data, sender=f"peer-{seat}", via=seat))


def test_a_dug_cell_opened_to_another_content_is_refused_naming_the_placer() -> None:
    table, ids = _at_place(seed=1)
    hider, ally, rival = table.sessions
    place_step = ally.step
    held = _hold_back(table, HIDER, "cells")
    _place_by_hand(table, {"a1": "gold", "b1": "trap", "c1": "trap"})
    assert held and not ally.finished
    real_env = held[0]
    dug, real = real_env.body["openings"][0]
    assert real == _openings(hider, place_step)[dug]
    lies = [
        [[dug, {"value": "gold" if real["value"] != "gold" else EMPTY, "salt": real["salt"]}]],  # another content
        [[dug, {"value": real["value"], "salt": bytes(32)}]],  # another salt
        [["zz", real]],  # another cell
        [[dug, real], [dug, real]],  # one cell twice
        [[dug, {"value": 7, "salt": real["salt"]}]],  # not text
        [[dug, real]] * 300,  # oversized
    ]
    for lie in lies:
        before = len(_rejected(rival))
        _deliver_to_others(table, HIDER, _instead(ids[HIDER], real_env, {"openings": lie}))
        assert len(_rejected(rival)) == before + 1, lie
        refused = _rejected(rival)[-1]
        assert refused.seat == HIDER and refused.kind == "cells", refused
        assert isinstance(rival.pending, Placement) and rival.pending.op == "open"  # it still waits: nothing lost
    assert "does not match the commitment" in _rejected(rival)[0].error
    table.tap = None
    _deliver_to_others(table, HIDER, real_env.to_bytes())  # the true opening goes through
    table.run()
    assert all(s.finished and s.verdict == "ok" for s in table.sessions)


def test_a_bad_sealed_disclosure_is_disputed_and_the_placer_named_everywhere() -> None:
    table, _, _ = treasure_table(2)
    hider, ally, rival = table.sessions
    keep = hider._keep_secret

    def lying_keep(name: str, value: Any) -> None:
        keep(name, value)
        if name.startswith("placement:"):  # committed truly, but the map it seals says otherwise
            lie = dict(value)
            lie[CELLS[0]] = {"value": "trap" if value[CELLS[0]]["value"] == EMPTY else EMPTY,
                             "salt": value[CELLS[0]]["salt"]}
            hider._secret_store[name] = lie

    hider._keep_secret = lying_keep  # type: ignore[method-assign]
    table.start()
    table.run()
    for s in table.sessions:
        assert isinstance(s.halted, Cheat) and s.halted.seat == HIDER, (s.seat, s.halted)
        assert "disclosure" in s.halted.error
    assert any(e.kind == "dispute" and e.seat == ALLY for e in rival.envelopes())


def test_a_false_dispute_of_a_good_disclosure_names_the_complainer() -> None:
    table, _, _ = treasure_table(2)
    hider, ally, rival = table.sessions
    held = _hold_back(table, HIDER, "disclose")
    table.start()
    table.run()
    assert held and all(isinstance(s.pending, Placement) and s.pending.op == "disclose" for s in (ally, rival))
    dispute_module.dispute(ally, held[0], ValueError("a false complaint"))
    table.tap = None
    table.post(ALLY, ally._flush())
    table.run()
    for s in (hider, rival):
        assert isinstance(s.halted, Cheat) and s.halted.seat == ALLY, (s.seat, s.halted)
        assert "complained falsely" in s.halted.error


def test_an_audit_opening_of_another_content_is_refused_naming_the_placer() -> None:
    table, _, ids = treasure_table(1)
    hider, ally, rival = table.sessions
    held = _hold_back(table, HIDER, "audit")
    table.start()
    table.run()
    assert held and ally.phase == "audit"
    real_env = held[0]
    (index, real), = real_env.body["cells"]
    lie = [list(x) for x in real]
    cell, opening = lie[0]
    lie[0] = [cell, {"value": "trap" if opening["value"] == EMPTY else EMPTY, "salt": opening["salt"]}]
    _deliver_to_others(table, HIDER, _instead(ids[HIDER], real_env, {**real_env.body, "cells": [[index, lie]]}))
    refusals = [e for e in _rejected(ally) if e.kind == "audit"]
    assert refusals and refusals[0].seat == HIDER and "does not match the commitment" in refusals[0].error
    for body in ({"deck": None, "hands": ()},  # no cells at all at a table with placements
                 {**real_env.body, "cells": [[index, real[1:]]]},  # a cell left out
                 {**real_env.body, "cells": []}):
        _deliver_to_others(table, HIDER, _instead(ids[HIDER], real_env, body))
        assert [e for e in _rejected(ally) if e.kind == "audit"][-1].seat == HIDER
    assert ally.phase == "audit"
    table.tap = None
    _deliver_to_others(table, HIDER, real_env.to_bytes())
    table.run()
    assert all(s.finished and s.verdict == "ok" for s in table.sessions)


def test_a_placement_of_other_things_is_named_at_the_disclosure_with_its_step(monkeypatch: pytest.MonkeyPatch) -> None:
    real = commit_module.commit_placement

    def greedy(game: bytes, step: int, seat: int, zone: str, cells: Any, arrangement: Any) -> Any:
        changed = {c: "gold" for c in arrangement}  # every thing a gold coin: not what the rules asked
        return real(game, step, seat, zone, cells, changed)

    monkeypatch.setattr(placement_module, "commit_placement", greedy)
    table, _, _ = treasure_table(3)
    table.start()
    table.run()
    # the map it must tell its ally holds three gold coins: the ally sees it at once, disputes, and every
    # peer names the placer at that step (no longer only at the audit, after a game played on a lie)
    for s in table.sessions:
        assert isinstance(s.halted, Cheat) and s.halted.seat == HIDER and s.halted.step == 4, (s.seat, s.halted)
    told = table.sessions[ALLY].halted
    assert isinstance(told, Cheat) and "more than the rules had it place" in told.error and "step 3" in told.error


def test_cells_opened_beyond_the_things_placed_are_named() -> None:
    """The check every opened cell (a dig, a disclosure) goes through: a thing not in the placement, or one
    thing more often than the rules asked, is refused naming the placer; a truthful subset passes."""
    placed_c, openings = commit_module.commit_placement(bytes(32), 3, HIDER, "treasure", CELLS,
                                                        {"a1": "gold", "b1": "gold", "c1": "ruby"})
    placed = placement_module.Placed(placed_c, tuple(range(len(CELLS))), THINGS)
    placement_module.check_laid(placed, {"a1": openings["a1"], "a2": openings["a2"]})  # one gold, one empty
    for cells in (("a1", "b1"), ("c1",)):
        with pytest.raises(IllegalChoice) as caught:
            placement_module.check_laid(placed, {c: openings[c] for c in cells})
        assert caught.value.seat == HIDER and "more than the rules had it place" in caught.value.detail


def test_a_false_declaration_is_named_with_its_seat_and_step() -> None:
    import random

    from net.bots.random_bot import RandomBot
    from net.session import decisions
    from tests.engine.treasure_game import Declare

    table, _, _ = treasure_table(1)
    hider, ally, rival = table.sessions
    ally.agent = None
    table.start()
    table.run()
    assert isinstance(ally.pending, Decision) and ally.pending.seat == ALLY
    mine = ally.knowledge.card(dict(ally.state.hands)[ALLY])
    lie = "heart" if mine == "spade" else "spade"
    step = ally.step
    decisions.send_action(ally, Declare(ALLY, lie))  # a seat that bypasses its own driver's checks
    table.post(ALLY, ally._flush())
    table.run()
    ally.agent = RandomBot(random.Random(5))
    table.post(ALLY, ally.tick(0.0))
    table.run()
    for s in table.sessions:
        assert s.finished, (s.seat, s.phase, s.waiting_for())
        assert s.verdict is not None and s.verdict.startswith("failed")
        assert [(seat, at) for seat, at, _ in s.audit_findings] == [(ALLY, step)], s.audit_findings


@pytest.mark.parametrize("kind", ["place", "disclose", "cells"])
def test_a_placer_killed_after_its_placement_message_resumes_from_its_journal(tmp_path: Path, kind: str) -> None:
    table, genesis, ids = treasure_table(1, journal_dir=tmp_path)
    table.start()
    hider = table.sessions[HIDER]
    _until(table, lambda: any(e.kind == kind for e in hider.envelopes()))
    hider.journal.close()  # SIGKILL: the process and everything in memory are gone
    table.down.add(HIDER)
    table.queue = [(seat, out) for seat, out in table.queue if seat != HIDER]  # its last payload died too
    table.run()
    back = treasure_session(genesis, ids, HIDER, seed=1, journal_dir=tmp_path)
    table.sessions[HIDER] = back
    table.down.discard(HIDER)
    table.post(HIDER, back.start())
    table.run()
    for s in table.sessions:
        assert s.finished and s.verdict == "ok", (s.seat, s.phase, s.halted, _rejected(s))
    assert len({s.hashes[-1] for s in table.sessions}) == 1
    assert encode(table.sessions[0].transcript()) == encode(back.transcript())
    assert back.knowledge.notes[0].topic == "placed:treasure"


class Killed(Exception):
    """The process died here."""


def test_a_journal_kept_placement_not_yet_sent_is_sent_unchanged_after_a_restart(tmp_path: Path) -> None:
    table, genesis, ids = treasure_table(1, journal_dir=tmp_path)
    hider = table.sessions[HIDER]
    send = hider._send

    def dies_before_placing(kind: str, body: Any) -> Envelope:
        if kind == "place":
            raise Killed  # the openings are journalled; the commitments never left
        return send(kind, body)

    hider._send = dies_before_placing  # type: ignore[method-assign]
    table.start()
    with pytest.raises(Killed):
        table.run()
    kept = hider._saved_secret(secret_name(hider.step))
    assert kept is not None
    assert hider.journal is not None
    hider.journal.close()
    table.down.add(HIDER)
    table.queue = [(seat, out) for seat, out in table.queue if seat != HIDER]
    table.run()
    back = treasure_session(genesis, ids, HIDER, seed=99, journal_dir=tmp_path)  # another agent: it must not re-pick
    table.sessions[HIDER] = back
    table.down.discard(HIDER)
    table.post(HIDER, back.start())
    table.run()
    # the kill also cut off the delivery it interrupted: the peer that missed it asks for it again
    for s in table.sessions:
        table.post(s.seat or 0, [s.catch_up_request()])
    table.run()
    for s in table.sessions:
        assert s.finished and s.verdict == "ok", (s.seat, s.phase, s.halted, _rejected(s))
    placed = {c: o["value"] for c, o in kept.items() if o["value"] != EMPTY}
    assert dict(back.knowledge.notes[0].data) == placed  # the placement made before the crash, not a new one


def test_a_badly_addressed_or_oversized_disclosure_or_another_seats_opening_is_refused_naming_its_sender() -> None:
    table, _, ids = treasure_table(2)
    hider, ally, rival = table.sessions
    held = _hold_back(table, HIDER, "disclose")
    table.start()
    table.run()
    assert held and isinstance(rival.pending, Placement) and rival.pending.op == "disclose"
    real = held[0]
    (box,) = real.body["sealed"]
    for body in ({"sealed": [{**box, "to": RIVAL}]},  # sealed to a seat the rules do not tell
                 {"sealed": []},  # to nobody
                 {"sealed": [box, box]},  # twice
                 {"sealed": [{**box, "box": bytes(200_000)}]}):  # oversized
        before = len(_rejected(rival))
        _deliver_to_others(table, HIDER, _instead(ids[HIDER], real, body))
        assert len(_rejected(rival)) == before + 1 and _rejected(rival)[-1].seat == HIDER, body
    # a seat that is not the placer cannot answer for it
    opening = {"sealed": [box]}
    rival_env = _forge(rival, ids[RIVAL], kind="disclose", body=opening)
    ally.receive(rival_env, sender="peer-2", via=RIVAL)
    assert _rejected(ally)[-1].seat == RIVAL and "which seat 0 made" in _rejected(ally)[-1].error
    table.tap = None
    _deliver_to_others(table, HIDER, real.to_bytes())
    table.run()
    assert all(s.finished and s.verdict == "ok" for s in (hider, rival))


def test_a_cell_opening_replayed_for_a_later_cell_is_refused_naming_the_placer() -> None:
    table, _, ids = treasure_table(3)
    hider, ally, rival = table.sessions
    held = _hold_back(table, HIDER, "cells")
    table.start()
    table.run()
    first = held[0]
    table.tap = None
    _deliver_to_others(table, HIDER, first.to_bytes())
    held = _hold_back(table, HIDER, "cells")
    table.run()
    assert held, "seed 3 digs at least two cells"
    later = held[0]
    _deliver_to_others(table, HIDER, _instead(ids[HIDER], later, first.body))  # yesterday's opening again
    refused = _rejected(rival)[-1]
    assert refused.seat == HIDER and refused.kind == "cells"


def test_a_dispute_against_a_disclosure_another_seat_signed_is_refused_naming_the_complainer() -> None:
    """Only the placer's own disclosure can be disputed: a ``disclose`` some other seat signed (and the
    table refused) cannot be turned into a conviction of that seat by a recipient's dispute."""
    table, _, ids = treasure_table(2)
    hider, ally, rival = table.sessions
    held = _hold_back(table, HIDER, "disclose")
    table.start()
    table.run()
    assert held and isinstance(rival.pending, Placement) and rival.pending.op == "disclose"
    (box,) = held[0].body["sealed"]
    stray = Envelope.from_bytes(_forge(rival, ids[RIVAL], kind="disclose", body={"sealed": [box]}))
    dispute_module.dispute(ally, stray, ValueError("not the placer's message"))
    table.tap = None
    table.post(ALLY, ally._flush())
    table.run(limit=2)
    for s in (hider, rival):
        assert not (isinstance(s.halted, Cheat) and s.halted.seat == RIVAL), (s.seat, s.halted)
        refused = [e for e in _rejected(s) if e.kind == "dispute"]
        assert refused and refused[-1].seat == ALLY and "placer's disclosure" in refused[-1].error
