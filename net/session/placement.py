"""Hidden placements on a networked table: place, open, disclose, and their audit.

The engine asks for a hidden placement (engine/core/pending.py ``Placement``)
when a seat puts things face down on board cells (Super Human Locke's
ambushes and key bases). A trusted local table simply remembers what lies
where; between peers the placer commits to every candidate cell with
:func:`net.commit.commit_placement` and proves each cell later:

- ``place``: the placer picks a cell for each thing (its agent, or a person
  through ``Session.submit`` with placement picks), keeps the per-cell
  openings as a journalled secret (``placement:<step>``) and signs a
  ``place`` message with one commitment per candidate cell. Every peer
  checks the zone and the cells against the engine's request; the engine
  then gives each cell a fresh handle, which :class:`PlacementBook` maps to
  its commitment.
- ``open``: the placer signs a ``cells`` message with the openings of the
  cells the engine opens; every peer checks each against its commitment
  (:func:`net.commit.open_cell`), so "something here" and "nothing here"
  are both proven.
- ``disclose``: the placer signs a ``disclose`` message holding, for each
  seat it must tell, the openings of every cell sealed to that seat's box
  key (net/poker/sealed.py, bound to game, step, sender and recipient).
  Only the recipient can check them; if they do not open its commitments it
  publishes its box key in a dispute (net/session/dispute.py) and every
  peer judges the sealed message with :func:`judge_disclosure`.
- The end-of-game audit (net/session/endgame.py) has every placer open its
  cells that were never opened, and checks each placement whole with
  :func:`net.commit.check_placement` (exactly the things the rules had it
  place, each once).

What a seat is shown or told is written into its ``Knowledge`` as notes
(``placed:<zone>``, ``disclosed:<zone>``), the same topics as the trusted
table (net/local_table.py), for the client's private panel.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from engine.core.actions import SYSTEM
from engine.core.encoding import decode, encode
from engine.core.errors import EncodingError
from engine.core.hashing import digest
from engine.core.inputs import PlacementPick
from engine.core.pending import EMPTY, CellsOpened, Placement, PlacementDisclosed, PlacementMade
from net.commit import (PLACEMENT, Opening, PlacementCommitments, check_placement, commit_placement, commitment_of,
                        open_cell)
from net.envelope import Envelope
from net.errors import IllegalChoice, MalformedMessage, ProtocolError, UnexpectedMessage
from net.poker import sealed
from net.poker.errors import BadCardMessage, CardProtocolError
from net.session import leave

if TYPE_CHECKING:
    from net.session.core import Session

__all__ = ["BadDisclosure", "PlacementBook", "PlacementRound", "Placed", "judge_disclosure", "secret_name"]

#: Domain of the salts of a placement a stand-in makes in public (no secret to keep).
PUBLIC_SALT = "fairtable/public-placement/v1"
#: Most candidate cells one placement may name (Locke's largest has 36); bounds every message.
MAX_CELLS = 256


class BadDisclosure(ProtocolError):
    """A disclosure sealed to us does not open or does not open the placer's commitments:
    only we can tell, so we publish our box key in a dispute (net/session/dispute.py)."""


def secret_name(step: int) -> str:
    """The journalled secret holding our openings of the placement made at ``step``."""
    return f"placement:{step}"


@dataclasses.dataclass(frozen=True)
class Placed:
    """One placement on record: its commitments, the cells' handles and the things placed."""

    commitments: PlacementCommitments
    handles: tuple[int, ...]
    things: tuple[str, ...]

    @property
    def placer(self) -> int:
        return self.commitments.seat

    @property
    def step(self) -> int:
        return self.commitments.step


class PlacementBook:
    """Every placement of one session: handle -> placement and cell, and what was opened."""

    def __init__(self) -> None:
        #: Placements in the order they were made.
        self.placed: list[Placed] = []
        #: Cell handle -> (index into ``placed``, cell name).
        self.cell_of: dict[int, tuple[int, str]] = {}
        #: Cell handle -> the opening made public for it (an ``open``, or the audit).
        self.openings: dict[int, Opening] = {}
        #: Cell handle -> its content once public.
        self.contents: dict[int, str] = {}
        #: Disclosures by step: (placement index, recipients), to judge disputes.
        self.disclosures: dict[int, tuple[int, tuple[int, ...]]] = {}

    def record(self, placed: Placed) -> None:
        index = len(self.placed)
        self.placed.append(placed)
        for cell, handle in zip(placed.commitments.cells, placed.handles):
            self.cell_of[handle] = (index, cell)

    def lookup(self, handles: Sequence[int], cells: Sequence[str], seat: int) -> tuple[int, Placed]:
        """The one placement of ``seat`` the engine's ``handles`` (aligned with ``cells``) belong to."""
        found = {self.cell_of[h][0] if h in self.cell_of else -1 for h in handles}
        if len(found) != 1 or -1 in found:
            raise RuntimeError(f"cell handles {list(handles)} belong to no single placement on record")
        index = found.pop()
        placed = self.placed[index]
        if placed.placer != seat or [self.cell_of[h][1] for h in handles] != list(cells):
            raise RuntimeError(f"cell handles {list(handles)} do not match the engine's cells {list(cells)}")
        return index, placed

    def open_owed(self, seat: int, items: Any) -> dict[int, Opening]:
        """Check ``seat``'s openings of every cell of its placements never opened (its audit, or its
        leave); handle -> opening. Raises naming ``seat``; nothing changes."""
        return open_audit_cells(self, seat, items)

    def unopened(self, index: int) -> tuple[int, ...]:
        """The cell handles of placement ``index`` not yet opened publicly, in cell order."""
        return tuple(h for h in self.placed[index].handles if h not in self.openings)


def my_openings(s: Session, placed: Placed) -> dict[str, Opening]:
    """Our own openings of one of our placements (memory or journal)."""
    saved = s._saved_secret(secret_name(placed.step))
    if saved is None:
        raise RuntimeError(f"the openings of our placement at step {placed.step} are lost (no journal entry)")
    return {cell: Opening.from_data(saved[cell]) for cell in placed.commitments.cells}


def _cell_list(body: Any, key: str, seat: int, what: str) -> tuple[Any, ...]:
    if not isinstance(body, Mapping) or set(body) != {key}:
        raise MalformedMessage(f"a {what} message is {{{key!r}: [...]}}", seat=seat)
    items = body[key]
    if not isinstance(items, tuple) or len(items) > MAX_CELLS:
        raise MalformedMessage(f"a {what} message lists at most {MAX_CELLS} entries", seat=seat)
    return items


def check_openings(placed: PlacementCommitments, cells: Sequence[str], items: Any, seat: int) -> dict[str, Opening]:
    """``items`` must be ``[[cell, opening], ...]`` for exactly ``cells``, in order, each opening
    its cell's commitment; return cell -> opening. Errors name ``seat`` (the placer)."""
    if not isinstance(items, tuple) or len(items) != len(cells) or any(
            not isinstance(i, tuple) or len(i) != 2 or i[0] != c for i, c in zip(items, cells)):
        raise MalformedMessage(f"must open exactly the cells {list(cells)} as [cell, opening], in that order",
                               seat=seat)
    out: dict[str, Opening] = {}
    for cell, data in items:
        open_cell(placed, cell, data)  # raises, naming the placer
        out[cell] = Opening.from_data(data)
    return out


class PlacementRound:
    """One ``place``, ``open`` or ``disclose`` request: only the placer speaks."""

    def __init__(self, s: Session, pending: Placement) -> None:
        self.pending = pending
        self.placer = pending.seat
        #: Our picks so far (placer only): cell -> thing.
        self.picks: dict[str, str] = {}
        self.commitments: PlacementCommitments | None = None
        self.opened: dict[str, Opening] | None = None
        self.sealed_ok = False
        self.index: int | None = None
        self.placed: Placed | None = None
        #: The openings of a placement a stand-in made for a seat that left (public).
        self.public: dict[str, Opening] | None = None
        if pending.op != "place":
            self.index, self.placed = s.placements.lookup(pending.handles, pending.cells, pending.seat)
        if pending.op == "disclose":
            assert self.index is not None
            s.placements.disclosures[s.step] = (self.index, tuple(pending.to_seats))
        if self.placer in s.left:
            self.excuse(s, self.placer)

    def excuse(self, s: Session, seat: int) -> None:
        """The placer left (net.session.leave): its stand-in places in public, and its cells open
        from the openings it published when it left."""
        if seat != self.placer or self.done:
            return
        p = self.pending
        if p.op == "place":
            while len(self.picks) < len(p.things):
                self.pick(leave.stand_in_choice(s, seat, list(self.offered(seat))))
            openings = {c: Opening(self.picks.get(c, EMPTY), digest(PUBLIC_SALT, (s.gid, s.step, c)))
                        for c in p.cells}
            self.commitments = _commitments_from(s, p, openings)
            self.public = openings
        elif p.op == "open":
            assert self.placed is not None
            handles = dict(zip(self.placed.commitments.cells, self.placed.handles))
            self.opened = {c: s.placements.openings[handles[c]] for c in p.cells}
        else:
            self.sealed_ok = True  # the map is public since its placer left

    def refuse_leave(self, seat: int) -> str | None:
        """A placer's cells are committed before anything opens; its leave opens them all: no choice."""
        return None

    # --- the Round questions

    @property
    def done(self) -> bool:
        if self.pending.op == "place":
            return self.commitments is not None
        if self.pending.op == "open":
            return self.opened is not None
        return self.sealed_ok

    def waiting_for(self) -> tuple[int, ...]:
        return () if self.done else (self.placer,)

    def take(self, s: Session, env: Envelope) -> None:
        kind = {"place": "place", "open": "cells", "disclose": "disclose"}[self.pending.op]
        if env.kind != kind:
            raise UnexpectedMessage(f"sent a {env.kind!r} message while the table waits for seat {self.placer} to "
                                    f"{self.pending.op} the cells of {self.pending.zone}", seat=env.seat)
        if env.seat != self.placer:
            raise UnexpectedMessage(f"sent a {kind!r} message for placement {self.pending.zone}, which seat "
                                    f"{self.placer} made", seat=env.seat)
        if self.done:
            raise UnexpectedMessage(f"sent a second {kind!r} message for this step", seat=env.seat)
        if self.pending.op == "place":
            self._take_place(s, env)
        elif self.pending.op == "open":
            assert self.placed is not None
            items = _cell_list(env.body, "openings", env.seat, "cells")
            opened = check_openings(self.placed.commitments, self.pending.cells, items, env.seat)
            assert self.index is not None
            shown = {s.placements.cell_of[h][1]: s.placements.openings[h] for h in self.placed.handles
                     if h in s.placements.openings}
            check_laid(self.placed, {**shown, **opened})
            self.opened = opened
        else:
            self._take_disclose(s, env)

    def _take_place(self, s: Session, env: Envelope) -> None:
        body = env.body
        if isinstance(body, Mapping) and isinstance(body.get("cells"), tuple) and len(body["cells"]) > MAX_CELLS:
            raise MalformedMessage(f"a placement names at most {MAX_CELLS} cells", seat=env.seat)
        placed = PlacementCommitments.from_data(s.gid, s.step, env.seat, body)
        if placed.zone != self.pending.zone or placed.cells != self.pending.cells:
            raise MalformedMessage(f"committed to zone {placed.zone!r} with other cells than the rules' request "
                                   f"({self.pending.zone!r}, {len(self.pending.cells)} cells)", seat=env.seat)
        self.commitments = placed

    def _take_disclose(self, s: Session, env: Envelope) -> None:
        items = _cell_list(env.body, "sealed", env.seat, "disclose")
        told = tuple(t for t in self.pending.to_seats if t != self.placer)
        if len(items) != len(told) or any(not isinstance(i, Mapping) or i.get("to") != t
                                          for i, t in zip(items, told)):
            raise MalformedMessage(f"must seal the cells to exactly seats {list(told)}, in that order", seat=env.seat)
        for item in items:
            if not isinstance(item, Mapping) or sorted(item) != ["box", "eph", "to"]:
                raise BadCardMessage("a sealed disclosure has exactly the fields 'to', 'eph', 'box'", seat=env.seat)
        me = s.seat
        if me in told and s._secrets is not None and env.digest() not in s._made:
            assert self.placed is not None
            item = items[told.index(me)]
            try:
                self.opened = unseal(s.gid, s.step, self.placed, self.pending.cells, env.seat, me, s._secrets.box,
                                     dict(item))
            except ProtocolError as exc:
                raise BadDisclosure(f"its disclosure sealed to seat {me} is bad: {exc.detail}",
                                    seat=env.seat) from None
        self.sealed_ok = True

    def make_ours(self, s: Session) -> bool:
        if s.seat != self.placer or self.done or self.placer in s.left:
            return False
        kind = {"place": "place", "open": "cells", "disclose": "disclose"}[self.pending.op]
        if (s.step, kind) in s._sent:
            return False
        if self.pending.op == "place":
            return self._make_place(s)
        assert self.placed is not None
        mine = my_openings(s, self.placed)
        if self.pending.op == "open":
            s._send("cells", {"openings": [[c, mine[c].to_data()] for c in self.pending.cells]})
            return True
        payload = encode([[c, mine[c].to_data()] for c in self.pending.cells])
        assert s.book is not None
        boxes = s.book.keys.boxes
        out = [sealed.seal_share(s.gid, s.step, self.placer, t, boxes[t], payload)
               for t in self.pending.to_seats if t != self.placer]
        s._send("disclose", {"sealed": out})
        return True

    def _make_place(self, s: Session) -> bool:
        saved = s._saved_secret(secret_name(s.step))
        if saved is None:
            if s.agent is not None:
                while len(self.picks) < len(self.pending.things):
                    pick = s.agent.choose(s.game, s.state, self.placer, s.knowledge, self.offered(s.seat))
                    self.pick(pick)
            if len(self.picks) < len(self.pending.things):
                return False  # a person places by hand (Session.submit)
            commitments, openings = commit_placement(s.gid, s.step, self.placer, self.pending.zone,
                                                     self.pending.cells, self.picks)
            s._keep_secret(secret_name(s.step), {c: o.to_data() for c, o in openings.items()})
            body = commitments.to_data()
        else:  # a restart after the secret was kept: the same commitments, rebuilt
            openings = {c: Opening.from_data(saved[c]) for c in self.pending.cells}
            body = _commitments_from(s, self.pending, openings).to_data()
        s._send("place", body)
        return True

    # --- placing by hand

    def offered(self, seat: int | None) -> list[PlacementPick]:
        """The placer's picks for its next thing (none once every thing has a cell, or once sent)."""
        p = self.pending
        if p.op != "place" or seat != self.placer or len(self.picks) >= len(p.things):
            return []
        thing = p.things[len(self.picks)]
        return [PlacementPick(self.placer, p.zone, thing, c) for c in p.cells if c not in self.picks]

    def pick(self, chosen: Any) -> None:
        if not isinstance(chosen, PlacementPick) or chosen not in self.offered(chosen.seat):
            raise TypeError(f"a placement pick that was not offered: {chosen!r}")
        self.picks[chosen.cell] = chosen.thing

    # --- the answer

    def finish(self, s: Session) -> None:
        p, book = self.pending, s.placements
        step = s.step
        if p.op == "place":
            assert self.commitments is not None
            s._apply(PlacementMade(SYSTEM, p.zone))
            handles = tuple(s.game.zone(s.state, p.zone))
            if len(handles) != len(p.cells):
                raise RuntimeError(f"placement {p.zone} has {len(handles)} handles for {len(p.cells)} cells")
            placed = Placed(self.commitments, handles, tuple(p.things))
            book.record(placed)
            if self.public is not None:  # made by a stand-in: public from the start
                for h, c in zip(handles, p.cells):
                    book.openings[h] = self.public[c]
                    book.contents[h] = str(self.public[c].value)
            elif s.seat == self.placer:
                mine = my_openings(s, placed)
                laid = [str(mine[c].value) for c in p.cells]
                s.knowledge = s.knowledge.learn(zip(handles, laid)).noted(
                    step, f"placed:{p.zone}", tuple((c, v) for c, v in zip(p.cells, laid) if v != EMPTY))
            return
        if p.op == "open":
            assert self.opened is not None
            contents = tuple(str(self.opened[c].value) for c in p.cells)
            s._apply(CellsOpened(SYSTEM, p.zone, p.handles, contents))
            for h, c in zip(p.handles, p.cells):
                book.openings[h] = self.opened[c]
                book.contents[h] = str(self.opened[c].value)
            return
        s._apply(PlacementDisclosed(SYSTEM, p.zone, p.handles, p.to_seats))
        if s.seat in p.to_seats and s.seat != self.placer and self.opened is not None:
            told = tuple((c, str(self.opened[c].value)) for c in p.cells)
            s.knowledge = s.knowledge.learn((h, v) for h, (_, v) in zip(p.handles, told)).noted(
                step, f"disclosed:{p.zone}", told)


def check_laid(placed: Placed, openings: Mapping[str, Opening]) -> None:
    """Cells opened so far (any subset) may show only things the rules had the placer place, each
    no more often than asked: a placer that committed to a thing not in the placement, or to one
    thing twice, is named the moment such a cell opens, not only at the audit. IllegalChoice
    naming the placer."""
    left = list(placed.things)
    for cell, opening in openings.items():
        if opening.value == EMPTY:
            continue
        if opening.value not in left:
            raise IllegalChoice(f"opened cell {cell!r} of placement {placed.commitments.zone!r} (step "
                                f"{placed.step}) to {opening.value!r}, more than the rules had it place "
                                f"({sorted(placed.things)})", seat=placed.placer)
        left.remove(opening.value)


def _commitments_from(s: Session, p: Placement, openings: Mapping[str, Opening]) -> PlacementCommitments:
    """Our commitments rebuilt from our kept openings (after a restart between keeping and sending)."""
    commits = tuple(commitment_of(s.gid, s.step, p.seat, (p.zone, c, openings[c].value), openings[c].salt,
                                  purpose=PLACEMENT) for c in p.cells)
    return PlacementCommitments(s.gid, s.step, p.seat, p.zone, tuple(p.cells), commits)


def unseal(game: bytes, step: int, placed: Placed, cells: Sequence[str], sender: int, recipient: int,
           secret: X25519PrivateKey, item: Any) -> dict[str, Opening]:
    """Open a disclosure sealed to ``recipient`` and check every opening; errors name ``sender``."""
    payload = sealed.open_share(game, step, sender, recipient, secret, item)
    try:
        items = decode(payload)
    except EncodingError:
        raise BadCardMessage("its sealed disclosure is not canonical data", seat=sender) from None
    opened = check_openings(placed.commitments, cells, items, sender)
    check_laid(placed, opened)  # a map told whole or in part holds only what the rules had it place
    return opened


def judge_disclosure(s: Session, against: Envelope, recipient: int, recipient_secret: bytes) -> int:
    """Settle a dispute over a sealed disclosure: the seat at fault.

    The recipient published its box key: a key that is not the one it
    announced convicts the recipient; a box addressed to it that does not
    open, or whose openings do not open the placer's commitments, convicts
    the placer; a good disclosure means the recipient complained falsely.
    """
    found = s.placements.disclosures.get(against.seen.step)
    if found is None or recipient not in found[1]:
        return recipient
    placed = s.placements.placed[found[0]]
    try:
        secret = X25519PrivateKey.from_private_bytes(recipient_secret)
    except (ValueError, TypeError):
        return recipient
    assert s.book is not None
    if sealed.public_bytes(secret) != s.book.keys.boxes[recipient]:
        return recipient
    body = against.body
    items = body.get("sealed") if isinstance(body, Mapping) else None
    told = tuple(t for t in found[1] if t != placed.placer)
    if not isinstance(items, tuple) or len(items) != len(told):
        return against.seat
    item = items[told.index(recipient)]
    try:
        unseal(s.gid, against.seen.step, placed, placed.commitments.cells, against.seat, recipient, secret,
               dict(item) if isinstance(item, Mapping) else item)
    except (ProtocolError, CardProtocolError):
        return against.seat
    return recipient


# --- the end-of-game audit ------------------------------------------------------------------


def audit_cells(s: Session) -> list[list[Any]]:
    """Our ``cells`` entries for the audit message: ``[placement index, [[cell, opening], ...]]``
    for each of our placements with cells never opened, in placement order."""
    book, out = s.placements, []
    for index, placed in enumerate(book.placed):
        if placed.placer != s.seat:
            continue
        hidden = book.unopened(index)
        if not hidden:
            continue
        mine = my_openings(s, placed)
        cells = [book.cell_of[h][1] for h in hidden]
        out.append([index, [[c, mine[c].to_data()] for c in cells]])
    return out


def owed_cells(book: PlacementBook, seat: int) -> list[tuple[int, tuple[str, ...]]]:
    """(placement index, cells) ``seat`` must open at the audit, in placement order."""
    out = []
    for index, placed in enumerate(book.placed):
        hidden = book.unopened(index)
        if placed.placer == seat and hidden:
            out.append((index, tuple(book.cell_of[h][1] for h in hidden)))
    return out


def open_audit_cells(book: PlacementBook, seat: int, items: Any) -> dict[int, Opening]:
    """Check ``seat``'s audit openings of its never-opened cells; return handle -> opening.
    Raises naming ``seat``; nothing changes on failure."""
    owed = owed_cells(book, seat)
    if not isinstance(items, tuple) or len(items) != len(owed) or any(
            not isinstance(i, tuple) or len(i) != 2 or i[0] != index for i, (index, _) in zip(items, owed)):
        raise MalformedMessage(f"its audit must open the cells of its placements {[i for i, _ in owed]} as "
                               "[placement, [[cell, opening], ...]], in that order", seat=seat)
    found: dict[int, Opening] = {}
    for (index, cells), (_, openings) in zip(owed, items):
        placed = book.placed[index]
        checked = check_openings(placed.commitments, cells, openings, seat)
        for h, cell in zip(placed.handles, placed.commitments.cells):
            if cell in checked:
                found[h] = checked[cell]
    return found


def placement_findings(book: PlacementBook) -> list[tuple[int, int, str]]:
    """(placer, step, problem) for every placement that, opened whole, breaks the rules."""
    found = []
    for placed in book.placed:
        openings = {book.cell_of[h][1]: book.openings[h] for h in placed.handles if h in book.openings}
        try:
            check_placement(placed.commitments, openings, placed.things)
        except ProtocolError as exc:  # every error of check_placement names the placer and says what
            found.append((placed.placer, placed.step, f"step {placed.step}: {exc.detail}"))
    return found

