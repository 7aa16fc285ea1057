"""How often fair dice reach each trap-chart row (seed 002 trap chart, its event chart and event 12's
trap +4), so a coverage test can tell an entry the 300 games should have met from one too rare to
expect. Read from the chart data, not written out again."""

from __future__ import annotations

from fractions import Fraction

from engine.locke.chart_data import TRAP

EVENT_ENTRIES = ("necra-crawley", "psycho-blast", "d-bomb-misfire", "hypno-crystal", "astro-race", "skyhawk-dandy",
                 "kurukuru-pa-x", "wheat-harvest", "emperor-plan", "hijiri-whim", "trap-plus-4")
#: trap entry id -> its row (16 is "16 and over")
TRAP_ROWS = {e.id: e.rows[0] for e in TRAP.entries}


def two_d6(total: int) -> Fraction:
    return Fraction(6 - abs(total - 7), 36) if 2 <= total <= 12 else Fraction(0)


def trap_row(row: int, modifier: int) -> Fraction:
    """P(the trap roll with ``modifier`` reads ``row``) (16 is "16 and over")."""
    if row == 16:
        return sum((two_d6(t - modifier) for t in range(16, 13 + modifier)), Fraction(0))
    return two_d6(row - modifier)


def chance_per_trap_roll(entry: str) -> Fraction:
    """Probability that one plain trap roll leads to ``entry``: a trap entry (reached directly or
    through the event chart's trap +4) or an event-chart entry."""
    event = two_d6(TRAP_ROWS["event"])
    plus4 = event * two_d6(12)  # event 12: roll the trap chart again with +4
    if entry in TRAP_ROWS:
        return trap_row(TRAP_ROWS[entry], 0) + plus4 * trap_row(TRAP_ROWS[entry], 4)
    row = 2 + EVENT_ENTRIES.index(entry)
    return (event + plus4 * trap_row(TRAP_ROWS["event"], 4)) * two_d6(row)
