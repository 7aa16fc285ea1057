"""OnlineJoin's watch (net/peer/online.py), driven by task.Clock with a fake
peer and fake wormholes: when does a joiner meet its host on the resume code?

The case that matters: the host process died. Over the transit relay Dilation
may go on reporting a live connection for a long time, so the joiner must also
trust our own heartbeat (the mesh dropped its link to the host) and open the
wormhole of the derived code, and the mesh's redial must go through it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from twisted.internet import task

import net.peer.online as online
from net.transport.wormhole import WormholeSettings, resume_code, resume_epoch

HOST = b"H" * 32
ME = b"J" * 32
TABLE = b"T" * 16
SECRET = b"S" * 32


class FakePairing:
    """Stands in for net.transport.wormhole_glue.Pairing (no mailbox here)."""

    made: list[FakePairing] = []

    def __init__(self, reactor: Any, settings: Any, role: str, *, on_event: Any, code: str | None = None,
                 mesh: Any = None, label: str = "", offer: Any = None) -> None:
        self.code, self.label, self.on_event = code, label, on_event
        self.kind = "connecting"
        self.ever_connected = False
        self.paired = False
        self.closed = False
        self.started = reactor.seconds()
        self.dials: list[Any] = []
        FakePairing.made.append(self)

    @property
    def connected(self) -> bool:
        return self.kind in ("direct", "relayed")

    def start(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    def connect(self, mesh: Any, target: Any) -> None:
        self.dials.append(target)

    def take_pending(self) -> list[Any]:
        return []

    def stuck(self, now: float, after: float) -> bool:
        return False


class FakeMesh:
    def __init__(self) -> None:
        self.record = SimpleNamespace(channel=object(), dial="dial-target")
        self.peers = {HOST: self.record}
        self.table = TABLE

    def dial_failed(self, target: Any) -> None:
        raise AssertionError("no dial should fail here")


@pytest.fixture
def joiner(monkeypatch: pytest.MonkeyPatch) -> tuple[online.OnlineJoin, task.Clock, FakeMesh, FakePairing]:
    FakePairing.made = []
    monkeypatch.setattr(online, "Pairing", FakePairing)
    clock = task.Clock()
    clock.advance(1_000_000)
    mesh = FakeMesh()
    said: list[str] = []
    peer = SimpleNamespace(reactor=clock, on_close=[], online_connect=None, genesis=object(), result=None,
                           net=SimpleNamespace(mesh=mesh), identity=SimpleNamespace(public_key=ME),
                           _say=lambda what, **kw: said.append(what))
    settings = WormholeSettings(mailbox="ws://127.0.0.1:9/v1", relay="tcp:127.0.0.1:9", direct=False)
    join = online.OnlineJoin(peer, settings)  # type: ignore[arg-type]
    join.host_key, join.table, join.secret = HOST, TABLE, SECRET
    first = FakePairing(clock, settings, "join", on_event=None, code="7-first-code", label="code 7-first-code")
    first.kind, first.ever_connected, first.paired = "relayed", True, True
    join.pairing = first
    join._watch.start(online.WATCH, now=False)
    return join, clock, mesh, first


def _advance(clock: task.Clock, seconds: float) -> None:
    for _ in range(int(seconds / online.WATCH) + 1):
        clock.advance(online.WATCH)


def test_a_live_link_opens_no_resume_wormhole(joiner: Any) -> None:
    join, clock, mesh, first = joiner
    _advance(clock, 10)
    assert join.spare is None and FakePairing.made == [first]


def test_heartbeat_lost_while_dilation_says_connected_meets_on_the_resume_code(joiner: Any) -> None:
    join, clock, mesh, first = joiner
    mesh.record.channel = None  # our heartbeat dropped the link; Dilation still says "relayed"
    _advance(clock, online.RESUME_GRACE / 2)
    assert join.spare is None  # a grace period first: a link being re-made is not a dead host
    _advance(clock, online.RESUME_GRACE)
    spare = join.spare
    assert spare is not None and spare is not first
    epoch = resume_epoch(clock.seconds(), join.settings.resume_window)
    assert spare.code == resume_code(SECRET, HOST, ME, TABLE, epoch)
    assert spare.dials == ["dial-target"]  # the mesh's pending dial is carried through the resume wormhole
    join.connect(("127.0.0.1", 9), "redial")  # and the mesh's next redial too, not into the dead wormhole
    assert spare.dials == ["dial-target", "redial"] and first.dials == []


def test_the_link_coming_back_releases_an_unpaired_resume_wormhole(joiner: Any) -> None:
    join, clock, mesh, first = joiner
    mesh.record.channel = None
    _advance(clock, online.RESUME_GRACE * 2)
    spare = join.spare
    assert spare is not None
    mesh.record.channel = object()  # Dilation brought our link back by itself
    _advance(clock, 1)
    assert spare.closed and join.spare is None and join.lost_since is None


def test_a_resume_pairing_that_never_links_is_given_up_for_a_fresh_one(joiner: Any) -> None:
    """Someone who knows the resume code (a leaked secret) pairs with us, forwards the host's public
    offer and never completes the link (it does not hold the host's key): after LINK_TIMEOUT we
    open the resume code again instead of waiting in that pairing for ever (issue 30, item 4)."""
    join, clock, mesh, first = joiner
    mesh.record.channel = None
    _advance(clock, online.RESUME_GRACE * 2)
    squatted = join.spare
    assert squatted is not None
    squatted.paired, squatted.paired_at, squatted.peer_key = True, clock.seconds(), None
    squatted.kind, squatted.ever_connected = "relayed", True
    timeout: float = getattr(online, "LINK_TIMEOUT", 45.0)
    _advance(clock, timeout - 2)
    assert join.spare is squatted and not squatted.closed
    _advance(clock, 4)
    assert squatted.closed and join.spare is not None and join.spare is not squatted, "stuck with the squatter"


def test_a_wrong_code_ends_the_join_with_the_problem_as_a_progress_event(joiner: Any) -> None:
    """A playtester typed a wrong code and read "The table closed before the game started": the end
    now carries ``end_join_failed`` with the problem's stable id, so the window says the code is bad."""
    from net.peer.progress import Progress
    from net.transport.wormhole import explain_failure

    join, _clock, _mesh, first = joiner
    left: list[Any] = []
    join.peer.genesis = None
    join.peer.leave = lambda reason, goodbye=True: left.append((reason, goodbye))
    join.code = "3-ultimate-sweltar"
    first.ever_connected = False
    problem = explain_failure("WrongPasswordError", None, mailbox="ws://m", relay="tcp:r", code=join.code)
    join._first_event("failed", problem)
    [(reason, goodbye)] = left
    assert isinstance(reason, Progress) and reason.id == "end_join_failed" and not goodbye
    assert reason.fields["problem"] == "wrong-code" and reason.fields["code"] == "3-ultimate-sweltar"
    assert reason.text.startswith("cannot join the table: the code 3-ultimate-sweltar does not match")
