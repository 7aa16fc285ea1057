"""A peer directory's saved files are read with a bound and fail with a clear message (net.peer.store).

The directory can be reused, copied half-way or tampered with: a resume must
never read an unbounded file into memory, and what it says must tell the
user what happened and what to do next.
"""

from __future__ import annotations

import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from engine.core.encoding import encode
from net.peer import store


def _saved(tmp_path: Path) -> Path:
    directory = tmp_path / "p"
    store.save_peer(directory, {"role": "join", "invite": "FT1-X"})
    return directory


def test_a_saved_file_reads_back(tmp_path: Path) -> None:
    assert store.load_peer(_saved(tmp_path))["invite"] == "FT1-X"


@pytest.mark.parametrize("name", [store.PEER_FILE, store.GENESIS_FILE])
def test_a_file_larger_than_the_bound_is_refused_unread(tmp_path: Path, name: str) -> None:
    directory = _saved(tmp_path)
    path = directory / name
    with path.open("wb") as handle:  # sparse: 64 MiB on paper, nothing on disk
        handle.truncate(64 * store.MAX_STORE_FILE_BYTES)
    tracemalloc.start()
    try:
        with pytest.raises(store.StoreError) as caught:
            store.load_peer(directory) if name == store.PEER_FILE else store.load_genesis(directory)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < store.MAX_STORE_FILE_BYTES // 4  # refused before anything was read
    text = str(caught.value)
    assert str(path) in text and "larger than 1024 KiB" in text and "join the table again" in text


def test_a_file_just_over_the_bound_is_refused_and_one_at_it_is_read(tmp_path: Path) -> None:
    directory = _saved(tmp_path)
    value = {"format": store.FORMAT, "pad": ""}
    pad = store.MAX_STORE_FILE_BYTES - len(encode(value))
    value["pad"] = "x" * pad
    while len(encode(value)) > store.MAX_STORE_FILE_BYTES:  # the length prefix grows with the text
        value["pad"] = value["pad"][:-1]
    (directory / store.PEER_FILE).write_bytes(encode(value))
    assert len(encode(value)) <= store.MAX_STORE_FILE_BYTES
    assert store.load_peer(directory)["pad"] == value["pad"]
    (directory / store.PEER_FILE).write_bytes(encode(value) + b"\0" * (store.MAX_STORE_FILE_BYTES + 1
                                                                        - len(encode(value))))
    with pytest.raises(store.StoreError, match="larger than"):
        store.load_peer(directory)


def test_a_file_cut_short_says_so_and_what_to_do(tmp_path: Path) -> None:
    directory = _saved(tmp_path)
    path = directory / store.PEER_FILE
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(store.StoreError) as caught:
        store.load_peer(directory)
    text = str(caught.value)
    assert "cut short or damaged" in text and f"{len(whole) // 2} bytes" in text
    assert "join the table again with the invite code" in text


def test_a_directory_in_place_of_a_file_says_what_to_do(tmp_path: Path) -> None:
    directory = _saved(tmp_path)
    (directory / store.GENESIS_FILE).mkdir()
    with pytest.raises(store.StoreError, match="cannot be read .*join the table again"):
        store.load_genesis(directory)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX feature")
def test_a_pipe_is_read_no_further_than_the_bound(tmp_path: Path) -> None:
    directory = _saved(tmp_path)
    path = directory / store.PEER_FILE
    path.unlink()
    os.mkfifo(path)
    written = [0]

    def endless() -> None:
        try:
            with open(path, "wb", buffering=0) as pipe:
                while written[0] < 64 * store.MAX_STORE_FILE_BYTES:
                    written[0] += pipe.write(b"\0" * 65536)
        except OSError:
            return  # the reader stopped: what it read was bounded

    thread = threading.Thread(target=endless, daemon=True)
    thread.start()
    with pytest.raises(store.StoreError, match="larger than"):
        store.load_peer(directory)
    thread.join(timeout=10)
    assert not thread.is_alive()
    assert written[0] < 8 * store.MAX_STORE_FILE_BYTES  # the reader read no further than the bound (+ pipe buffer)
