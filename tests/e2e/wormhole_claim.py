"""A squatter on a mailbox nameplate, for the crowded-code test.

Speaks just enough of the mailbox server's WebSocket protocol (bind, claim)
over a plain socket to hold a nameplate as a silent second side, so that the
next claimant is the third: the server then refuses it as "crowded"."""

from __future__ import annotations

import base64
import json
import os
import socket
from urllib.parse import urlparse

from net.transport.wormhole import APP_ID


class Squatter:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._buffer = b""

    def send(self, message: dict[str, object]) -> None:
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        else:
            header += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _read(self, n: int) -> bytes:
        while len(self._buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the mailbox server closed the connection")
            self._buffer += chunk
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def receive(self) -> dict[str, object]:
        first, second = self._read(2)
        length = second & 0x7F
        if length == 126:
            length = int.from_bytes(self._read(2), "big")
        elif length == 127:
            length = int.from_bytes(self._read(8), "big")
        payload = self._read(length)
        if first & 0x0F != 1:
            return {}
        value = json.loads(payload)
        assert isinstance(value, dict)
        return value

    def close(self) -> None:
        self.sock.close()


def claim_nameplate(mailbox: str, nameplate: str, timeout: float = 10.0) -> Squatter:
    """Claim ``nameplate`` on the mailbox server at ``mailbox`` (ws://host:port/path)
    and return once the server confirms; the claim lasts until :meth:`Squatter.close`."""
    url = urlparse(mailbox)
    sock = socket.create_connection((url.hostname or "127.0.0.1", url.port or 80), timeout=timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {url.path or '/'} HTTP/1.1\r\nHost: {url.hostname}:{url.port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    squatter = Squatter(sock)
    response = b""
    while b"\r\n\r\n" not in response:
        chunk = sock.recv(4096)
        if not chunk:
            raise ConnectionError("the mailbox server refused the WebSocket upgrade")
        response += chunk
    head, _, rest = response.partition(b"\r\n\r\n")
    assert b" 101 " in head.split(b"\r\n")[0], head
    squatter._buffer = rest
    squatter.send({"type": "bind", "appid": APP_ID, "side": os.urandom(5).hex(),
                   "client_version": ["python", "squatter"]})
    squatter.send({"type": "claim", "nameplate": nameplate})
    while True:
        message = squatter.receive()
        if message.get("type") == "claimed":
            return squatter
        if message.get("type") == "error":
            raise RuntimeError(f"the squatter's claim failed: {message}")
