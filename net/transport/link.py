"""One connection to one peer: framing, handshake and message checks, sans-I/O.

A :class:`Link` is fed raw bytes and returns a :class:`Step`: bytes to write,
events for the mesh, and whether to close. It owns the rules of item 5 of the
transport issue:

* an oversized length prefix is fatal (we cannot resynchronise the stream):
  a ``reject`` frame is sent, the link closes; frames already complete in
  the same read are still delivered, so nothing accepted is lost;
* a malformed payload, an unknown type, or a message for another game is
  skipped with a logged reason naming the sender; the link stays up;
* during the handshake any failure is fatal (we do not know who is talking).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

from net.transport.errors import (
    FrameTooLarge,
    HandshakeError,
    TransportError,
    WrongGame,
)
from net.transport.framing import MAX_LENGTH, FrameDecoder, encode_frame
from net.transport.handshake import Handshake, describe_game, reject_for
from net.transport.keys import short_id
from net.transport.messages import (
    LOBBY,
    Auth,
    GameRef,
    Hello,
    Message,
    Reject,
    Relay,
    encode_message,
    parse_message,
)

log = logging.getLogger("fairtable.transport")

#: Bad frames tolerated on one link before it is closed: a few are survivable
#: noise; an endless stream is a broken or hostile peer burning our CPU.
MAX_REJECTED = 100


class TooManyBadFrames(TransportError):
    code = "too-many-bad-frames"
    fatal = True


@dataclasses.dataclass(frozen=True)
class Established:
    """The handshake succeeded; ``peer`` is the peer's verified hello."""

    peer: Hello
    version: int


@dataclasses.dataclass(frozen=True)
class Received:
    """A checked message from the authenticated peer (ping, pong, msg, links, bye)."""

    message: Message


@dataclasses.dataclass(frozen=True)
class Problem:
    """A rejected frame; ``error.fatal`` says whether the link is closing."""

    error: TransportError
    sender: str


Event = Established | Received | Problem


@dataclasses.dataclass
class Step:
    """What the adapter must do after feeding bytes in."""

    write: bytes = b""
    events: list[Event] = dataclasses.field(default_factory=list)
    close: bool = False


class Link:
    """Protocol logic of one connection (see module docstring)."""

    def __init__(
        self,
        handshake: Handshake,
        address: str,
        *,
        game: Callable[[], GameRef] | None = None,
        max_length: int = MAX_LENGTH,
    ) -> None:
        self.handshake = handshake
        self.address = address
        self._game = game or (lambda: handshake.hello.game)
        self._decoder = FrameDecoder(max_length)
        self.max_length = max_length
        self.closed = False
        self.rejected_frames = 0
        #: Optional hook naming the peer's seat for log lines (set by the session).
        self.describe_key: Callable[[bytes], str] | None = None

    @property
    def established(self) -> bool:
        return self.handshake.done

    @property
    def peer_key(self) -> bytes | None:
        return self.handshake.peer.key if self.handshake.done and self.handshake.peer else None

    @property
    def sender(self) -> str:
        """Who is on the other end, as precisely as we know (for log lines)."""
        peer = self.handshake.peer
        if peer is None or not self.handshake.done:
            return f"peer at {self.address} (not yet authenticated)"
        who = self.describe_key(peer.key) if self.describe_key else ""
        name = f" {peer.name!r}" if peer.name else ""
        seat = f", {who}" if who else ""
        return f"peer at {self.address}{name} (key {short_id(peer.key)}{seat})"

    def start(self) -> bytes:
        """Bytes to write when the connection opens (our hello)."""
        return b"".join(self._frame(m) for m in self.handshake.start())

    def encode(self, message: Message) -> bytes:
        """Frame ``message`` for sending on this link."""
        return self._frame(message)

    def _frame(self, message: Message) -> bytes:
        return encode_frame(encode_message(message), self.max_length)

    def data_received(self, data: bytes) -> Step:
        """Feed bytes from the socket; see :class:`Step`."""
        step = Step()
        if self.closed:
            return step
        frames, broken = self._decoder.feed(data)
        for payload in frames:
            self._handle(payload, step)
            if step.close:
                return step
        if broken is not None:
            self._fail(broken, step)
        return step

    def _handle(self, payload: bytes, step: Step) -> None:
        try:
            message = parse_message(payload)
        except TransportError as exc:
            if not self.handshake.done:
                self._fail(HandshakeError(f"bad frame during the handshake: {exc.message}"), step)
            else:
                self._problem(exc, step)
            return
        if not self.handshake.done:
            try:
                replies = self.handshake.receive(message)
            except HandshakeError as exc:
                self._fail(exc, step, send_reject=not isinstance(message, Reject))
                return
            for reply in replies:
                step.write += self._frame(reply)
            if self.handshake.done:
                assert self.handshake.peer is not None and self.handshake.version is not None
                step.events.append(Established(self.handshake.peer, self.handshake.version))
            return
        if isinstance(message, (Hello, Auth)):
            self._problem(TransportError(f"unexpected {message.T!r} after the handshake"), step)
            return
        if isinstance(message, Reject):
            log.warning("%s closed the link: %s [%s]", self.sender, message.reason, message.code)
            self.closed = True
            step.close = True
            step.events.append(Received(message))
            return
        if isinstance(message, Relay) and not self._game_ok(message.game):
            self._problem(WrongGame(
                f"message for {describe_game(message.game)}, but this table plays "
                f"{describe_game(self._game())}"), step)
            return
        step.events.append(Received(message))

    def _game_ok(self, game: GameRef) -> bool:
        return game == LOBBY or game == self._game()

    def _problem(self, error: TransportError, step: Step) -> None:
        self.rejected_frames += 1
        log.warning("rejected a frame from %s: %s [%s]", self.sender, error.message, error.code)
        step.events.append(Problem(error, self.sender))
        if self.rejected_frames >= MAX_REJECTED:
            self._fail(TooManyBadFrames(
                f"{self.rejected_frames} rejected frames on this link; closing it (the peer "
                "runs an incompatible or broken program)"), step)

    def _fail(self, error: TransportError, step: Step, send_reject: bool = True) -> None:
        if not error.fatal:
            raise AssertionError("only fatal errors close a link")
        self.rejected_frames += 1
        log.warning("closing the link to %s: %s [%s]", self.sender, error.message, error.code)
        if send_reject:
            step.write += self._frame(reject_for(error))
        step.events.append(Problem(error, self.sender))
        step.close = True
        self.closed = True


__all__ = ["Established", "Event", "FrameTooLarge", "Link", "Problem", "Received", "Step"]
