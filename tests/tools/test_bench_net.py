"""tools.bench net: its tables link up and measure (no timing asserted here).

The benchmark once stopped linking when the mesh began dialling only table
members (the bench table never said who the members were), and nothing
noticed: this runs its in-reactor part in a child process (a real reactor)."""

from __future__ import annotations

import json
import subprocess
import sys

from tools.match_tcp import ROOT, peer_env

SCRIPT = """
import json
from twisted.internet import defer, reactor
from tools.bench import net

out = {}

@defer.inlineCallbacks
def run():
    try:
        out["rt"] = yield net.round_trips(reactor, 3, 4)
        out["dice"] = yield net.dice_rolls(reactor, 3, 2)
    finally:
        reactor.stop()

reactor.callWhenRunning(run)
reactor.run()
print(json.dumps(out))
"""


def test_net_bench_tables_link_and_measure_round_trips_and_dice() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env=peer_env())
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    for figures in (out["rt"], out["dice"]):
        assert 0 < figures["median"] <= figures["p95"], figures
