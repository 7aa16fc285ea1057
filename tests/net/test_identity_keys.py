"""Identity keys: signing, verification, fingerprints and the key file on disk."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from net import identity as identity_mod
from net.errors import BadPublicKey, BadSignature, IdentityError
from net.identity import Identity, fingerprint_of, validate_public_key, verify_signature

posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX-only")

# Small-order or non-canonical encodings a hostile peer could offer as a key.
BAD_KEYS = [
    bytes.fromhex("01" + "00" * 31),  # the neutral element
    bytes.fromhex("ec" + "ff" * 30 + "7f"),  # non-canonical (y = p - 1)
    bytes(32),  # a point of order 4
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),  # order 8
]


def test_sign_and_verify_round_trip() -> None:
    me = Identity.generate()
    assert len(me.public_key) == 32
    signature = me.sign(b"move 1")
    assert len(signature) == 64
    verify_signature(me.public_key, signature, b"move 1")


def test_altered_data_is_rejected_and_names_the_seat() -> None:
    me = Identity.generate()
    signature = me.sign(b"attack column 2")
    with pytest.raises(BadSignature) as err:
        verify_signature(me.public_key, signature, b"attack column 3", seat=1)
    assert err.value.seat == 1
    assert str(err.value).startswith("seat 1:")


def test_signature_by_another_key_is_rejected() -> None:
    me, other = Identity.generate(), Identity.generate()
    with pytest.raises(BadSignature):
        verify_signature(me.public_key, other.sign(b"x"), b"x", seat=0)


@pytest.mark.parametrize("signature", [b"", bytes(63), bytes(65)])
def test_signature_of_wrong_length_is_rejected(signature: bytes) -> None:
    me = Identity.generate()
    with pytest.raises(BadSignature):
        verify_signature(me.public_key, signature, b"x")


@pytest.mark.parametrize("key", BAD_KEYS)
def test_small_order_and_non_canonical_public_keys_are_refused(key: bytes) -> None:
    with pytest.raises(BadPublicKey):
        validate_public_key(key, seat=2)
    with pytest.raises(BadPublicKey):
        verify_signature(key, bytes(64), b"anything", seat=2)


def test_neutral_key_cannot_be_used_to_forge() -> None:
    # With the neutral element as "public key", (R, S) = (B, 1) would verify
    # for any message under a lax verifier. We refuse the key itself.
    base_point = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")
    forged = base_point + (1).to_bytes(32, "little")
    with pytest.raises(BadPublicKey):
        verify_signature(BAD_KEYS[0], forged, b"I concede")


def test_fingerprint_literal_vector_and_format() -> None:
    me = Identity.from_seed(bytes(range(32)))
    assert me.public_key.hex() == "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
    assert me.fingerprint == "L3I3-2E4I-SODJ-TUYA"
    assert re.fullmatch(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){3}", Identity.generate().fingerprint)
    assert fingerprint_of(me.public_key) == me.fingerprint
    assert Identity.generate().fingerprint != me.fingerprint


def test_load_or_create_persists_one_key_with_owner_only_modes(tmp_path: Path) -> None:
    path = tmp_path / "fresh" / "identity.pem"
    first = Identity.load_or_create(path)
    again = Identity.load_or_create(path)
    assert again.public_key == first.public_key
    verify_signature(first.public_key, again.sign(b"same key"), b"same key")
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_default_path_is_in_the_user_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(identity_mod, "default_key_path", lambda: tmp_path / "fairtable" / "identity.pem")
    me = Identity.load_or_create()
    assert (tmp_path / "fairtable" / "identity.pem").exists()
    assert Identity.load_or_create().public_key == me.public_key


def test_default_key_path_uses_platformdirs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    if os.name == "posix" and os.uname().sysname != "Darwin":
        assert identity_mod.default_key_path() == tmp_path / "fairtable" / "identity.pem"
    assert identity_mod.default_key_path().name == "identity.pem"


@posix_only
def test_key_file_readable_by_others_is_refused_with_advice(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "identity.pem"
    Identity.load_or_create(path)
    os.chmod(path, 0o644)
    with pytest.raises(IdentityError, match=r"0644.*chmod 600"):
        Identity.load_or_create(path)


@posix_only
def test_key_directory_writable_by_others_is_refused_with_advice(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "identity.pem"
    Identity.load_or_create(path)
    os.chmod(path.parent, 0o755)  # others may list it, not write to it: fine
    Identity.load_or_create(path)
    os.chmod(path.parent, 0o775)  # group members could swap the key file
    with pytest.raises(IdentityError, match=r"0775.*chmod 700"):
        Identity.load_or_create(path)


def _private_file(path: Path, content: bytes) -> None:
    path.parent.mkdir(mode=0o700, exist_ok=True)
    os.chmod(path.parent, 0o700)
    path.write_bytes(content)
    os.chmod(path, 0o600)


@pytest.mark.parametrize("content", [b"", b"not a key at all", b"-----BEGIN PRIVATE KEY-----\nAAAA\n"])
def test_corrupt_key_file_is_refused_with_advice(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "keys" / "identity.pem"
    _private_file(path, content)
    with pytest.raises(IdentityError, match=r"corrupt.*move it aside"):
        Identity.load_or_create(path)


def test_key_file_of_another_key_type_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "identity.pem"
    pem = X25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    _private_file(path, pem)
    with pytest.raises(IdentityError, match="not an Ed25519 key"):
        Identity.load_or_create(path)


def test_from_seed_rejects_wrong_length() -> None:
    with pytest.raises(ValueError):
        Identity.from_seed(bytes(31))


def test_malleated_signature_with_s_plus_group_order_is_rejected() -> None:
    """(R, S + L) verifies under a lax Ed25519 check; the strict check refuses it,
    so nobody but the signer can make a second valid signature on a message."""
    ident = Identity.from_seed(b"\x07" * 32)
    sig = ident.sign(b"move")
    order = 2**252 + 27742317777372353535851937790883648493
    s = int.from_bytes(sig[32:], "little")
    with pytest.raises(BadSignature):
        verify_signature(ident.public_key, sig[:32] + (s + order).to_bytes(32, "little"), b"move", seat=1)


# --- audit additions: creating the key file never overwrites a key ----------


def _pem_of(ident: Identity) -> bytes:
    return ident._key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())


def test_a_key_created_by_another_process_meanwhile_wins(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes start at once: the one that loses the race loads the
    winner's key instead of replacing it (which would change the player's
    identity under the other process's feet)."""
    path = tmp_path / "keys" / "identity.pem"
    winner = Identity.from_seed(b"\x05" * 32)
    real_generate = Identity.generate

    def racing_generate() -> Identity:
        _private_file(path, _pem_of(winner))  # the other process finishes first
        return real_generate()

    monkeypatch.setattr(Identity, "generate", staticmethod(racing_generate))
    assert Identity.load_or_create(path).public_key == winner.public_key
    assert path.read_bytes() == _pem_of(winner)
    assert [p.name for p in path.parent.iterdir()] == ["identity.pem"]  # no temp file left


@posix_only
def test_without_hard_links_the_key_is_created_exclusively(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(src: str, dst: object) -> None:
        raise PermissionError("this file system has no hard links")

    monkeypatch.setattr(identity_mod.os, "link", no_links)
    path = tmp_path / "keys" / "identity.pem"
    created = Identity.load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert Identity.load_or_create(path).public_key == created.public_key
    # and an existing file is never replaced on that path either
    assert identity_mod._write_new_private_file(path, b"other") is False
    assert Identity.load_or_create(path).public_key == created.public_key
    assert [p.name for p in path.parent.iterdir()] == ["identity.pem"]


@posix_only
def test_key_directory_is_owner_only_whatever_the_umask(tmp_path: Path) -> None:
    """mkdir's mode is filtered by the umask; the directory is set to 0700
    explicitly so a restrictive umask cannot leave it unwritable by its owner."""
    path = tmp_path / "strict" / "identity.pem"
    old = os.umask(0o277)
    try:
        Identity.load_or_create(path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0


def test_fingerprint_is_80_bits_of_the_domain_separated_key_hash() -> None:
    """Derived by hand from the documented rule, independent of fingerprint_of."""
    import base64
    import hashlib

    from engine.core.encoding import encode

    key = Identity.from_seed(bytes(range(32))).public_key
    raw = hashlib.sha256(encode(["fairtable/fingerprint/v1", key])).digest()[:10]
    text = base64.b32encode(raw).decode()
    assert fingerprint_of(key) == "-".join(text[i : i + 4] for i in range(0, 16, 4)) == "L3I3-2E4I-SODJ-TUYA"
