"""Seats are numbered the same way for people everywhere: from 1 (net/seats.py).

Data (JSON fields, protocol messages, recorded reasons) counts from 0; what a
tool prints for a person counts from 1. These tests run the tools and read
their lines: every seat they name must be one of 1..N, and the host (index 0)
must appear as "seat 1", so a tool that prints indices fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from net.peer.progress import TEMPLATES, progress
from net.seats import for_people, seat_label, seat_number, seats_label
from tools import match as match_tool
from tools import verify as verify_tool

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rider-pre-registry.ft"
SEAT_WORDS = re.compile(r"(?<![-\w])[Ss]eats? [\[(]?(\d+(?:(?:, | and )\d+)*)")


def seat_numbers(text: str) -> list[int]:
    """Every seat number named in ``text`` ("seat 2", "seats 1, 3", "Seat 1")."""
    return [int(n) for m in SEAT_WORDS.finditer(text) for n in re.findall(r"\d+", m.group(1))]


def assert_counts_from_one(text: str, seats: int) -> None:
    numbers = seat_numbers(text)
    assert numbers, f"no seat is named in:\n{text}"
    assert all(1 <= n <= seats for n in numbers), f"a seat outside 1..{seats} (counted from 0?):\n{text}"
    assert 1 in numbers, f"the first seat is never named as seat 1:\n{text}"


def test_labels_count_from_one() -> None:
    assert seat_number(0) == 1 and seat_label(0) == "seat 1" and seat_label(9) == "seat 10"
    assert seats_label([2]) == "seat 3" and seats_label([0, 2]) == "seats 1, 3" and seats_label([]) == "no seat"


def test_recorded_texts_are_renumbered_once_and_options_are_left_alone() -> None:
    recorded = "seat 0 won: three Lv.1 cards of seat 1 are Lost (rider.9)"
    assert for_people(recorded) == "seat 1 won: three Lv.1 cards of seat 2 are Lost (rider.9)"
    assert for_people("waiting for seats [0, 2] to commit") == "waiting for seats [1, 3] to commit"
    assert for_people("Seats 0 and 3 claimed it; seat 9's envelope #4") == "Seats 1 and 4 claimed it; seat 10's envelope #4"
    assert for_people("run tools.peer host --seats 4 (2 seats taken)") == "run tools.peer host --seats 4 (2 seats taken)"


def test_progress_lines_name_seats_from_one_and_keep_the_index_in_the_fields() -> None:
    taken = progress("seat_taken", who="Aki", seat=0, size=3)
    assert taken.fields["seat"] == 0 and taken.fields["seat_n"] == 1
    assert_counts_from_one(taken.text, 3)
    stalled = progress("stalling", event_text="waiting for Bo (seat 1) to commit", seats=[1], names=["Bo"])
    assert stalled.fields["seats"] == [1]  # data: an index
    assert stalled.text == "waiting: waiting for Bo (seat 2) to commit" == "waiting: " + stalled.fields["event_text"]
    for event_id, template in TEMPLATES.items():  # no template formats the index itself
        assert "{seat}" not in template, event_id


def test_tools_peer_verbose_log_lines_count_from_one() -> None:
    import logging

    from tools.peer import PeopleFormatter

    record = logging.LogRecord("fairtable.session", logging.WARNING, __file__, 1,
                               "rejected a %r message from seat %d (received from peer AB12 (seat %d))",
                               ("action", 0, 0), None)
    line = PeopleFormatter("[%(name)s] %(message)s").format(record)
    assert line == "[fairtable.session] rejected a 'action' message from seat 1 (received from peer AB12 (seat 1))"


def test_tools_match_prints_seats_from_one(capsys: pytest.CaptureFixture[str]) -> None:
    for seed in (1, 4):  # seat index 0 wins with seed 1, index 1 with seed 4
        assert match_tool.main(["rider", "--seed", str(seed)]) == 0
        out = capsys.readouterr().out
        assert_counts_from_one(out, 2)
    assert match_tool.main(["rider", "--seed", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["winner"] == 1  # the JSON field stays an index
    assert match_tool.main(["tiny", "--seats", "4", "--seed", "2"]) == 0
    assert_counts_from_one(capsys.readouterr().out, 4)


def test_tools_verify_prints_seats_from_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert verify_tool.main([str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    assert_counts_from_one(out, 2)
    assert "seat 1: peer0" in out and "seat 2: peer1" in out  # the transcript's seat 0 is the host, peer0
    assert verify_tool.main([str(FIXTURE), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)  # data: indices and the reason as recorded
    assert data["outcome"]["winner"] == 0 and [s["seat"] for s in data["seats"]] == [0, 1]
    assert data["outcome"]["reason"].startswith("seat 0 won")


@pytest.mark.slow
def test_tools_peer_progress_lines_count_from_one_over_tcp(tmp_path: Path) -> None:
    """Three ``tools.peer`` processes play Tiny; every line each printed for a person
    (its stderr progress log) names seats 1..3 only, and the host says "seat 1"."""
    from tools.match_tcp import audit_of, run_table

    run = run_table(["random"] * 3, game="tiny", seed=3, workdir=tmp_path, timeout=120)
    assert audit_of(run) == "ok"
    seats = [r["seat"] for r in run.results]  # per process, in the order they joined
    assert sorted(seats) == [0, 1, 2]  # the JSON results keep indices
    for process, seat in enumerate(seats):
        log = (tmp_path / f"seat{process}.log").read_text(encoding="utf-8")
        assert_counts_from_one(log, 3)
        assert f"as seat {seat + 1}:" in log, log
