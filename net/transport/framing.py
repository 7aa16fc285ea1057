"""Length-prefixed frames, sans-I/O.

Wire format (compatible with Twisted's ``Int32StringReceiver``): each frame is
a 4-byte unsigned big-endian length ``n`` followed by ``n`` payload bytes.

``MAX_LENGTH`` is 1 MiB. The largest legitimate messages are shuffle steps with
their proofs: a 81-card deck re-masked and permuted is about 81 x 2 x 32 bytes
of ciphertext plus a shuffle proof of a few times that, well under 64 KiB;
catch-up batches are split by the sender to stay under the limit. 1 MiB leaves
a 10x margin while capping what one hostile peer can make us buffer per link.

:class:`FrameDecoder` is fed raw bytes and returns complete payloads; it never
touches a socket, so it is tested with plain byte strings.
"""

from __future__ import annotations

import struct

from net.transport.errors import FrameTooLarge

#: Largest payload accepted or sent, in bytes (see module docstring).
MAX_LENGTH = 1 << 20

_PREFIX = struct.Struct("!I")
PREFIX_SIZE = _PREFIX.size


def encode_frame(payload: bytes, max_length: int = MAX_LENGTH) -> bytes:
    """Prefix ``payload`` with its length; refuse to emit an oversized frame."""
    if len(payload) > max_length:
        raise FrameTooLarge(
            f"refusing to send a {len(payload)}-byte frame; the limit is {max_length} bytes"
        )
    return _PREFIX.pack(len(payload)) + payload


class FrameDecoder:
    """Reassembles frames from a byte stream.

    After a :class:`FrameTooLarge` the decoder is *broken*: every later call
    raises again, because the stream position can no longer be trusted.
    Frames completed before the oversized prefix are still returned first.
    """

    def __init__(self, max_length: int = MAX_LENGTH) -> None:
        self.max_length = max_length
        self._buffer = bytearray()
        self._broken: FrameTooLarge | None = None

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a complete frame."""
        return len(self._buffer)

    def feed(self, data: bytes) -> tuple[list[bytes], FrameTooLarge | None]:
        """Add ``data``; return the complete payloads and, if the stream broke,
        the error (after which the caller must drop the connection)."""
        if self._broken is not None:
            return [], self._broken
        self._buffer += data
        frames: list[bytes] = []
        pos = 0
        buf = self._buffer
        while len(buf) - pos >= PREFIX_SIZE:
            (length,) = _PREFIX.unpack_from(buf, pos)
            if length > self.max_length:
                self._broken = FrameTooLarge(
                    f"frame length prefix announces {length} bytes; "
                    f"the limit is {self.max_length} bytes"
                )
                del buf[:]
                return frames, self._broken
            end = pos + PREFIX_SIZE + length
            if end > len(buf):
                break
            frames.append(bytes(buf[pos + PREFIX_SIZE : end]))
            pos = end
        del buf[:pos]
        return frames, None
