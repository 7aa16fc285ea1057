"""The networked adapter's notice queue has a cap of its own (client/table/notices.py).

A flood of refused messages between two polls cannot make the queue grow:
beyond the cap the oldest capped notice is dropped and counted, while every
applied input and every notice that changes the table is kept, in order.
The adapter (NetSession) reports the count once, and the table's log says
it in words.
"""

from __future__ import annotations


from client.i18n import tr
from client.table.notices import MAX_NOTICES, NoticeQueue
from net.session.events import Applied, ChatLine, Cheat, Finished, PhaseChanged, Rejected


def rejected(n: int) -> Rejected:
    return Rejected(seat=1, sender="peer-1", step=3, kind="chat", reason="bad signature", error=f"refusal {n}")


def test_a_flood_keeps_the_newest_capped_notices_and_counts_the_rest() -> None:
    queue = NoticeQueue(cap=4)
    moves = [Applied(k, f"s{k}", f"a{k}", f"s{k + 1}") for k in range(3)]
    queue.push(moves[0])
    for n in range(10):
        queue.push(rejected(n))
        if n == 4:
            queue.push(moves[1])
            queue.push(Cheat(step=3, seat=1, error="a lie"))
    queue.push(ChatLine(0, "hello"))
    queue.push(moves[2])
    assert len(queue) <= 4 + 4  # the capped kinds never exceed the cap; the kept ones are four here
    notices, dropped = queue.take()
    capped = [n for n in notices if isinstance(n, (Rejected, ChatLine))]
    assert [str(getattr(n, "error", getattr(n, "text", ""))) for n in capped] == \
        ["refusal 7", "refusal 8", "refusal 9", "hello"]  # the newest four, the oldest dropped first
    assert dropped == 11 - 4
    kept = [n for n in notices if not isinstance(n, (Rejected, ChatLine))]
    assert kept == [moves[0], moves[1], Cheat(step=3, seat=1, error="a lie"), moves[2]]  # every move, in order
    assert queue.take() == ([], 0)  # the count is reported once


def test_moves_and_table_changes_are_never_dropped() -> None:
    queue = NoticeQueue(cap=1)
    for k in range(50):
        queue.push(Applied(k, k, k, k + 1))
        queue.push(rejected(k))
    queue.push(PhaseChanged("play", "audit", 50))
    queue.push(Finished(outcome={"winner": 0, "reason": "r"}, audit="ok"))
    notices, dropped = queue.take()
    assert [n.step for n in notices if isinstance(n, Applied)] == list(range(50))
    assert isinstance(notices[-1], Finished) and isinstance(notices[-2], PhaseChanged)
    assert dropped == 49 and [n for n in notices if isinstance(n, Rejected)] == [rejected(49)]


def test_the_default_cap_bounds_a_long_flood() -> None:
    queue = NoticeQueue()
    for n in range(MAX_NOTICES * 20):
        queue.push(rejected(n))
    assert len(queue) == MAX_NOTICES
    notices, dropped = queue.take()
    assert dropped == MAX_NOTICES * 19 and notices[0] == rejected(MAX_NOTICES * 19)


def test_the_dropped_count_is_said_in_both_languages() -> None:
    for lang in ("en", "ja"):
        text = tr(lang, "notices_dropped", n=17)
        assert "17" in text and "{" not in text


def test_a_real_session_flooded_with_forged_envelopes_fills_the_queue_only_to_its_cap() -> None:
    """Two seats of the tiny game on the in-memory network; a queue subscribed to seat 0's session
    (as NetSession subscribes its own) while 40 envelopes with a broken signature arrive between two
    looks: the session refuses each (its own flood limit names seat 1 once after 32), the queue holds
    at most its cap of them, and the game then plays to its end with every move kept."""
    import dataclasses
    import random

    from engine.core.hashing import digest
    from engine.tiny.game import RULES_ID, card_set_hash
    from net.bots.random_bot import RandomBot
    from net.envelope import Genesis, sign_envelope
    from net.games import table_for
    from net.identity import Identity
    from net.session import Session
    from net.session.events import Flooding
    from net.session.loopback import Loopback

    ids = [Identity.from_seed(digest("fairtable/test-identity", f"notices-{i}")) for i in range(2)]
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids), {"names": ["Ann", "Bo"]},
                      (bytes(range(16)),) * 2)
    table = table_for(genesis)
    sessions = [Session(genesis, table.game, table.state, plan=table.plan, identity=ids[seat], seat=seat,
                        agent=RandomBot(random.Random(seat))) for seat in (0, 1)]
    queue = NoticeQueue(cap=8)
    a, b = sessions
    a.subscribe(queue.push)
    net = Loopback(sessions)
    net.start()
    net.run()
    for n in range(40):
        env = sign_envelope(ids[1], game=b.gid, seat=1, seq=1000 + n, prev=bytes(32), kind="chat",
                            body={"text": f"spam {n}"}, seen=(b.step, b.hashes[b.step]))
        broken = bytearray(env.signature)
        broken[0] ^= 1
        a.receive(dataclasses.replace(env, signature=bytes(broken)).to_bytes(), sender="peer-1")
    refusals = [e for e in a.events if isinstance(e, Rejected)]
    assert len(refusals) >= 32 and any(isinstance(e, Flooding) for e in a.events)
    first, dropped = queue.take()  # one look after the flood, as the adapter's poll would
    waiting = [n for n in first if isinstance(n, Rejected)]
    assert len(waiting) <= 8 and dropped == len(refusals) - len(waiting) > 0
    net.run()
    for s in sessions:
        net.post(s.seat or 0, s.tick(0.0))
    net.run()
    assert a.finished
    rest, _ = queue.take()
    assert [n.step for n in first + rest if isinstance(n, Applied)] == list(range(a.step))  # every move kept
