"""A peer whose engine computes a different state hash is caught at the first
differing step: the session stops (never heals), convicts the seat that
signed the contradicted hash, and writes a desync report with the signed
logs and both sides' per-section hashes."""

from __future__ import annotations

from typing import Any

from harness import identities, rider_decks, rider_table

from engine.core.game import hash_of
from net.session import Cheat, Session, section_hashes


class DriftingRules:
    """Rider rules with a bug: the public state grows a field after the set-up."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def public(self, state: Any) -> Any:
        data = dict(self._game.public(state))
        if state.turn >= 1:
            data["bug"] = True
        return data


def test_different_state_hash_triggers_desync_report() -> None:
    table, genesis, setup = rider_table(seed=5)
    buggy = Session(genesis, DriftingRules(setup.game), setup.state, plan=setup.plan, identity=identities(2)[1],
                    seat=1, deck=rider_decks()[1], agent=table.sessions[1].agent)
    table.sessions[1] = buggy
    table.start()
    table.run()
    honest = table.sessions[0]
    assert isinstance(honest.halted, Cheat) and honest.halted.seat == 1
    assert honest.conviction == {"kind": "false-state-hash", "seat": 1, "step": honest.halted.step}
    report = honest.desync_report
    assert report is not None
    # the first differing step is the first state with turn >= 1
    first = next(k for k, st in enumerate(honest.states) if st.turn >= 1)
    assert report["step"] == first == honest.halted.step
    assert report["ours"] == hash_of(setup.game, honest.states[first]) != report["theirs"]
    assert report["ours"] == hash_of(setup.game, honest.states[first])
    assert report["input"] == honest.applied[first - 1].to_data()
    assert report["logs"] and report["offending"]["seat"] == 1
    # both sides' section hashes: they differ exactly in the extra section
    theirs = report["their_sections"]["1"]
    ours = report["our_sections"]
    assert set(theirs) - set(ours) == {"bug"}
    assert all(theirs[k] == ours[k] for k in ours)
    assert ours == section_hashes(setup.game.public(honest.states[first]))
    # the buggy side stopped too, and nothing is accepted after the halt
    assert isinstance(buggy.halted, Cheat)
    step = honest.step
    for data in [o.data for o in buggy.tick(10**9)]:
        honest.receive(data)
    assert honest.step == step and not honest.waiting_for()
